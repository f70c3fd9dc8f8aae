"""The embedded default store: one SQLite file, stdlib `sqlite3`, run off the event loop.

One connection guarded by a lock (sqlite3 connections are not safe to share between threads
at once) and WAL mode so readers in other processes are not blocked by an import.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from stream.corpus.store import checked, immutable_error
from stream.errors import CorpusError, CorpusUnavailableError
from stream.verify.model import Document

T = TypeVar("T")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS documents (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    document_id TEXT NOT NULL,
    version TEXT NOT NULL,
    text TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    title TEXT,
    url TEXT,
    fetched_at TEXT,
    inserted_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (document_id, version)
)
"""
_INSERT = (
    "INSERT OR IGNORE INTO documents (document_id, version, text, sha256, title, url, fetched_at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?)"
)
_SELECT = "SELECT document_id, version, text, sha256, title, url, fetched_at FROM documents"

Row = tuple[str, str, str, str, str | None, str | None, str | None]


def _doc(row: Row | None) -> Document | None:
    return None if row is None else Document(*row)


class SqliteStore:
    """`DocumentStore` on a SQLite file (`:memory:` works too, for tests)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self._closed = False

    def __repr__(self) -> str:
        return f"SqliteStore({self.path!r})"

    def _connect(self) -> sqlite3.Connection:
        if self._closed:
            raise CorpusError(f"SQLite store {self.path} is closed")
        if self._conn is None:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(
                self.path, timeout=5.0, isolation_level=None, check_same_thread=False
            )
            try:
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=NORMAL")
                conn.execute(_SCHEMA)
            except BaseException:
                conn.close()
                raise
            self._conn = conn
        return self._conn

    def _locked(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        with self._lock:
            try:
                return fn(self._connect())
            except sqlite3.OperationalError as exc:
                # Locked, busy, unreadable or missing file: may clear up, so retriable.
                raise CorpusUnavailableError(f"SQLite store {self.path}: {exc}") from None
            except OSError as exc:
                raise CorpusUnavailableError(
                    f"SQLite store {self.path}: {exc.strerror or exc}"
                ) from None
            except sqlite3.Error as exc:
                raise CorpusError(f"SQLite store {self.path}: {exc}") from None

    async def _run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        return await asyncio.to_thread(self._locked, fn)

    async def get(self, document_id: str, version: str) -> Document | None:
        sql = _SELECT + " WHERE document_id = ? AND version = ?"
        return _doc(await self._run(lambda c: c.execute(sql, (document_id, version)).fetchone()))

    async def versions(self, document_id: str) -> tuple[str, ...]:
        sql = "SELECT version FROM documents WHERE document_id = ? ORDER BY seq"
        rows = await self._run(lambda c: c.execute(sql, (document_id,)).fetchall())
        return tuple(r[0] for r in rows)

    async def latest(self, document_id: str) -> Document | None:
        sql = _SELECT + " WHERE document_id = ? ORDER BY seq DESC LIMIT 1"
        return _doc(await self._run(lambda c: c.execute(sql, (document_id,)).fetchone()))

    async def put(self, doc: Document) -> bool:
        inserted, _ = await self.put_many([doc])
        return inserted == 1

    async def put_many(self, docs: Iterable[Document]) -> tuple[int, int]:
        """All or nothing: one transaction, rolled back on the first immutability conflict."""
        batch = [checked(d) for d in docs]

        def work(conn: sqlite3.Connection) -> tuple[int, int]:
            inserted = 0
            conn.execute("BEGIN IMMEDIATE")
            try:
                for d in batch:
                    row = (
                        d.document_id,
                        d.version,
                        d.text,
                        d.sha256.lower(),
                        d.title,
                        d.url,
                        d.fetched_at,
                    )
                    if conn.execute(_INSERT, row).rowcount == 1:
                        inserted += 1
                        continue
                    stored = conn.execute(
                        "SELECT sha256 FROM documents WHERE document_id = ? AND version = ?",
                        (d.document_id, d.version),
                    ).fetchone()[0]
                    if stored != d.sha256.lower():
                        raise immutable_error(d.document_id, d.version, stored, d.sha256.lower())
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            return inserted, len(batch) - inserted

        return await self._run(work)

    async def ping(self) -> None:
        await self._run(lambda c: c.execute("SELECT 1").fetchone())

    async def close(self) -> None:
        def work() -> None:
            with self._lock:
                self._closed = True
                if self._conn is not None:
                    self._conn.close()
                    self._conn = None

        await asyncio.to_thread(work)
