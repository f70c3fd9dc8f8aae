"""A read-only store over a documents.json or JSONL file, loaded once into memory.

It lets the seed's `documents.json` stand wherever a store URL is accepted; writes go to a real
store (`citegate corpus import FILE --store sqlite:///…`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from pathlib import Path

from stream.corpus.jsonfile import iter_documents
from stream.corpus.store import immutable_error
from stream.errors import CorpusError
from stream.verify.model import Document


class FileStore:
    """`DocumentStore` over a file; the same immutability rule applies to the file's content."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._docs: dict[tuple[str, str], Document] | None = None
        self._versions: dict[str, list[str]] = {}
        self._lock = asyncio.Lock()

    def __repr__(self) -> str:
        return f"FileStore({str(self.path)!r})"

    def _load_sync(self) -> dict[tuple[str, str], Document]:
        docs: dict[tuple[str, str], Document] = {}
        versions: dict[str, list[str]] = {}
        for d in iter_documents(self.path):
            key = (d.document_id, d.version)
            seen = docs.get(key)
            if seen is not None:
                if seen.sha256 != d.sha256:
                    raise immutable_error(d.document_id, d.version, seen.sha256, d.sha256)
                continue
            docs[key] = d
            versions.setdefault(d.document_id, []).append(d.version)
        self._versions = versions
        return docs

    async def _load(self) -> dict[tuple[str, str], Document]:
        if self._docs is None:
            async with self._lock:
                if self._docs is None:
                    self._docs = await asyncio.to_thread(self._load_sync)
        return self._docs

    async def get(self, document_id: str, version: str) -> Document | None:
        return (await self._load()).get((document_id, version))

    async def versions(self, document_id: str) -> tuple[str, ...]:
        await self._load()
        return tuple(self._versions.get(document_id, ()))

    async def latest(self, document_id: str) -> Document | None:
        docs = await self._load()
        versions = self._versions.get(document_id)
        return docs[(document_id, versions[-1])] if versions else None

    def _read_only(self) -> CorpusError:
        return CorpusError(
            f"read-only store: {self.path} is a documents file; import it into a database "
            "store with `citegate corpus import FILE --store sqlite:///PATH`"
        )

    async def put(self, doc: Document) -> bool:
        raise self._read_only()

    async def put_many(self, docs: Iterable[Document]) -> tuple[int, int]:
        raise self._read_only()

    async def ping(self) -> None:
        await self._load()

    async def close(self) -> None:
        self._docs = None
        self._versions = {}
