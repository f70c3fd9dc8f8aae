"""`citegate corpus import|get|versions`: fill and inspect a versioned corpus store."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import orjson

from stream.corpus.jsonfile import iter_documents
from stream.corpus.store import DocumentStore, open_store
from stream.settings import Settings
from stream.verify.model import Document

T = TypeVar("T")


def register(sub: Any) -> None:
    p = sub.add_parser("corpus", help="import and inspect corpus documents in a store")
    cmds = p.add_subparsers(dest="corpus_command", required=True)

    def add(name: str, help_: str) -> argparse.ArgumentParser:
        q: argparse.ArgumentParser = cmds.add_parser(name, help=help_)
        q.add_argument(
            "--store",
            metavar="URL",
            default=None,
            help="sqlite:///PATH, postgresql://… or a documents.json path "
            "(default: $CITEGATE_STORE, else sqlite:///./.citegate/corpus.db)",
        )
        return q

    imp = add("import", "import documents.json or JSONL; identical versions are skipped")
    imp.add_argument("file", metavar="FILE", help="documents.json or JSONL of documents")
    imp.set_defaults(handler=run_import)
    get = add("get", "print one document version as JSON")
    get.add_argument("document_id", metavar="DOCUMENT_ID", help="the document's id")
    get.add_argument("version", metavar="VERSION", help="the version to print")
    get.set_defaults(handler=run_get)
    ver = add("versions", "list a document's versions, oldest first")
    ver.add_argument("document_id", metavar="DOCUMENT_ID", help="the document's id")
    ver.set_defaults(handler=run_versions)


def _with_store(
    url: str | None, work: Callable[[DocumentStore], Awaitable[T]], *, create: bool = False
) -> T:
    """Run `work` on the store; only `import` may create a missing SQLite database."""
    store_url = url if url is not None else Settings.from_env().store

    async def main() -> T:
        store = open_store(store_url, create=create)
        try:
            return await work(store)
        finally:
            await store.close()

    return asyncio.run(main())


def _out(text: str) -> None:
    # Bytes, so document text prints whatever the terminal's locale.
    sys.stdout.buffer.write(text.encode("utf-8"))
    sys.stdout.flush()


def run_import(args: argparse.Namespace) -> int:
    # Read and validate the whole file first: a bad line imports nothing.
    docs = list(iter_documents(args.file))

    async def work(store: DocumentStore) -> tuple[int, int]:
        return await store.put_many(docs)

    inserted, unchanged = _with_store(args.store, work, create=True)
    _out(f"imported {inserted}, unchanged {unchanged}\n")
    return 0


def run_get(args: argparse.Namespace) -> int:
    async def work(store: DocumentStore) -> Document | None:
        return await store.get(args.document_id, args.version)

    doc = _with_store(args.store, work)
    if doc is None:
        sys.stderr.write(
            f"citegate: no document {args.document_id!r} version {args.version!r} in the store\n"
        )
        return 1
    out = {
        "document_id": doc.document_id,
        "version": doc.version,
        "sha256": doc.sha256,
        "title": doc.title,
        "url": doc.url,
        "fetched_at": doc.fetched_at,
        "text": doc.text,
    }
    _out(orjson.dumps(out, option=orjson.OPT_INDENT_2).decode() + "\n")
    return 0


def run_versions(args: argparse.Namespace) -> int:
    async def work(store: DocumentStore) -> tuple[str, ...]:
        return await store.versions(args.document_id)

    versions = _with_store(args.store, work)
    if not versions:
        sys.stderr.write(f"citegate: no document {args.document_id!r} in the store\n")
        return 1
    _out("".join(f"{v}\n" for v in versions))
    return 0
