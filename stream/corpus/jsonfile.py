"""Reading documents from files: seed 000's `documents.json`, JSON arrays and JSONL exports.

Three shapes, told apart by their first bytes:
- a JSON object keyed by document id (seed 000's `documents.json`): each value is one version
  (`{"version", "text", …}`) or a list of versions; a single pretty-printed document object
  (`{"document_id", "version", "text", …}`) is accepted too;
- a JSON array of documents, each `{document_id, version, text, title?, url?, fetched_at?}`;
- JSONL: one such document per line.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import orjson

from stream.errors import InputError
from stream.verify.citations import sha256_hex
from stream.verify.model import Document

MAX_CORPUS_FILE_BYTES = 2 * 1024**3


def _document(doc_id: object, raw: Mapping[str, Any], where: str) -> Document:
    version, text = raw.get("version"), raw.get("text")
    if not isinstance(doc_id, str) or not doc_id:
        raise InputError(f"{where}: document_id must be a non-empty string")
    if not isinstance(version, str) or not isinstance(text, str):
        raise InputError(f"{where}: document {doc_id!r} needs string 'version' and 'text'")
    sha = sha256_hex(text)
    given = raw.get("sha256")
    if isinstance(given, str) and given.lower() != sha:
        raise InputError(f"{where}: sha256 of {doc_id!r}@{version} does not match its text")

    def opt(key: str) -> str | None:
        value = raw.get(key)
        return value if isinstance(value, str) else None

    return Document(doc_id, version, text, sha, opt("title"), opt("url"), opt("fetched_at"))


def iter_documents(path: str | Path) -> Iterator[Document]:
    """Documents from any of the three file shapes; InputError (one line) on bad content."""
    p = Path(path)
    try:
        if p.stat().st_size > MAX_CORPUS_FILE_BYTES:
            raise InputError(f"{p}: larger than {MAX_CORPUS_FILE_BYTES} bytes")
        data = p.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read corpus file {p}: {exc.strerror or exc}") from None
    stripped = data.lstrip()
    if stripped.startswith(b"[") or (stripped.startswith(b"{") and not _looks_like_jsonl(stripped)):
        try:
            obj = orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            raise InputError(f"{p}: not JSON ({exc}); {SHAPES}") from None
        yield from _from_json(obj, str(p))
        return
    for lineno, line in enumerate(data.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            raise InputError(f"{p}:{lineno}: not JSON ({exc}); {SHAPES}") from None
        if not isinstance(obj, dict):
            raise InputError(f"{p}:{lineno}: expected a document object; {SHAPES}")
        yield _document(obj.get("document_id"), obj, f"{p}:{lineno}")


SHAPES = (
    "expected JSONL (one document object per line), a JSON array of document objects, "
    "or a JSON object keyed by document id"
)


def _from_json(obj: Any, where: str) -> Iterator[Document]:
    if isinstance(obj, list):
        for i, entry in enumerate(obj):
            if not isinstance(entry, dict):
                raise InputError(f"{where}[{i}]: expected a document object; {SHAPES}")
            yield _document(entry.get("document_id"), entry, f"{where}[{i}]")
        return
    if not isinstance(obj, dict):
        raise InputError(f"{where}: {SHAPES}")
    if isinstance(obj.get("document_id"), str) and isinstance(obj.get("text"), str):
        yield _document(obj["document_id"], obj, where)
        return
    for doc_id, value in obj.items():
        entries = value if isinstance(value, list) else [value]
        for entry in entries:
            if not isinstance(entry, dict):
                raise InputError(f"{where}: document {doc_id!r} must be an object; {SHAPES}")
            yield _document(doc_id, entry, where)


def _looks_like_jsonl(data: bytes) -> bool:
    """A JSONL file's first line is a complete object that has a `document_id`."""
    first = data.split(b"\n", 1)[0]
    try:
        obj = orjson.loads(first)
    except orjson.JSONDecodeError:
        return False
    return isinstance(obj, dict) and "document_id" in obj
