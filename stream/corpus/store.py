"""The document store contract and `open_store(url)`, the one place store URLs are parsed.

Documents are immutable per `(document_id, version)`: a second `put` with the same text is a
no-op, with different text an `ImmutableDocumentError`. Every backend turns its driver's
connection failures into `CorpusUnavailableError` so callers retry without knowing the driver.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Protocol, runtime_checkable
from urllib.parse import unquote, urlsplit

from stream.errors import ImmutableDocumentError, InputError, UsageError
from stream.secret import redact_url
from stream.verify.citations import sha256_hex
from stream.verify.model import Document

URL_FORMS = "sqlite:///PATH, postgresql://USER@HOST:PORT/DB[?schema=NAME], or a JSON/JSONL path"


@runtime_checkable
class DocumentStore(Protocol):
    """An async, versioned, append-only document store."""

    async def get(self, document_id: str, version: str) -> Document | None:
        """The document version, or None when the store does not hold it."""
        ...

    async def versions(self, document_id: str) -> tuple[str, ...]:
        """Every version of the document, oldest insertion first; () when unknown."""
        ...

    async def latest(self, document_id: str) -> Document | None:
        """The most recently inserted version of the document, or None."""
        ...

    async def put(self, doc: Document) -> bool:
        """Insert one version: True if inserted, False if the identical text is already there."""
        ...

    async def put_many(self, docs: Iterable[Document]) -> tuple[int, int]:
        """Insert many versions as one unit where the backend allows: (inserted, unchanged)."""
        ...

    async def ping(self) -> None:
        """Raise `CorpusUnavailableError` when the store cannot be reached."""
        ...

    async def close(self) -> None:
        """Release connections; the store is not used afterwards."""
        ...


def checked(doc: Document) -> Document:
    """`doc` with its sha256 verified, so a store never records a hash its text does not have."""
    actual = sha256_hex(doc.text)
    if doc.sha256.lower() != actual:
        raise InputError(
            f"document {doc.document_id!r} version {doc.version!r}: sha256 "
            f"{doc.sha256[:12]}… does not match its text ({actual[:12]}…)"
        )
    return doc


def immutable_error(
    document_id: str, version: str, stored: str, new: str
) -> ImmutableDocumentError:
    return ImmutableDocumentError(
        f"document {document_id!r} version {version!r} already exists with different text "
        f"(stored sha256 {stored[:12]}…, new sha256 {new[:12]}…); versions are immutable, "
        "import the change as a new version"
    )


def _scheme(url: str) -> str:
    head, sep, _ = url.partition(":")
    # A bare path (or a Windows drive letter) has no scheme.
    if not sep or len(head) < 2 or not head.replace("+", "").isalpha():
        return ""
    return head.lower()


def open_store(url: str, *, create: bool = True) -> DocumentStore:
    """A store for `url`; nothing connects until the first operation (or `ping()`).

    `create=False` is for commands that only read: a SQLite path that does not exist is then a
    usage error (a typo), not a new empty database.

    Forms: `sqlite:///relative/path.db`, `sqlite:////absolute/path.db`, `sqlite:///:memory:`,
    `postgresql://…` / `postgres://…` (optional `?schema=NAME`), or a documents.json / JSONL
    file as a plain path or `file://` URL (read-only).
    """
    url = url.strip()
    if not url:
        raise UsageError(f"empty corpus store URL; use {URL_FORMS}")
    scheme = _scheme(url)
    if scheme == "sqlite":
        if not url.lower().startswith("sqlite:///") or len(url) == len("sqlite:///"):
            raise UsageError(f"bad SQLite URL {url!r}; use sqlite:///PATH")
        from stream.corpus.sqlite import SqliteStore

        path = url[len("sqlite:///") :]
        if not create and path != ":memory:" and not Path(path).is_file():
            raise UsageError(
                f"no SQLite corpus at {path}; create it with "
                f"`citegate corpus import FILE --store {url}`"
            )
        return SqliteStore(path)
    if scheme in {"postgresql", "postgres"}:
        from stream.corpus.postgres import PostgresStore

        try:
            urlsplit(url).port  # noqa: B018 — parsing the port is the check
        except ValueError:
            raise UsageError(f"bad port in corpus store URL {redact_url(url)!r}") from None

        return PostgresStore(url)
    if scheme in {"file", ""}:
        from stream.corpus.filestore import FileStore

        path = unquote(urlsplit(url).path) if scheme == "file" else url
        if not path:
            raise UsageError(f"bad file URL {url!r}; use file:///PATH")
        return FileStore(Path(path))
    raise UsageError(
        f"unknown corpus store scheme {scheme!r} in {redact_url(url)!r}; use {URL_FORMS}"
    )
