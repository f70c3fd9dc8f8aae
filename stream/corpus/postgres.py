"""The production store: PostgreSQL through an asyncpg pool.

asyncpg is async (no threads per query), speaks the binary protocol, and its pool replaces
broken connections on the next acquire, so after a server restart the store recovers by itself;
an operation that hits a dead connection is retried once on a fresh one. The DSN's password is
never logged or put into an error message (`redact_url`).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, TypeVar
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import asyncpg

from stream.corpus.store import checked, immutable_error
from stream.errors import CorpusError, CorpusUnavailableError, InputError, UsageError
from stream.secret import redact_url
from stream.verify.model import Document

log = logging.getLogger("citegate.corpus")
T = TypeVar("T")

CONNECT_TIMEOUT_S = 3.0
COMMAND_TIMEOUT_S = 10.0
BATCH = 500
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,62}")
_COLUMNS = "document_id, version, text, sha256, title, url, fetched_at"

# Failures a retry (or the server coming back) can fix.
_UNAVAILABLE: tuple[type[BaseException], ...] = (
    OSError,  # includes ConnectionError
    TimeoutError,  # asyncio.TimeoutError is the same class on 3.11
    asyncpg.PostgresConnectionError,
    asyncpg.exceptions.OperatorInterventionError,  # admin shutdown, cannot connect now
    asyncpg.exceptions.InsufficientResourcesError,  # too many connections
    asyncpg.InterfaceError,  # "connection is closed", "pool is closing"
    asyncpg.exceptions.InternalClientError,  # protocol state broken by a killed backend
)


def split_dsn(url: str) -> tuple[str, str]:
    """(DSN for asyncpg, schema): our `schema` query option is not a server setting."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    schema = next((v for k, v in query if k == "schema"), "public")
    if not _IDENT.fullmatch(schema):
        raise UsageError(f"bad schema name {schema!r}: letters, digits and _ only")
    rest = urlencode([(k, v) for k, v in query if k != "schema"])
    scheme = "postgresql" if parts.scheme == "postgres" else parts.scheme
    return urlunsplit((scheme, parts.netloc, parts.path, rest, parts.fragment)), schema


def _unstorable(*keys: str) -> bool:
    """PostgreSQL text cannot hold NUL (`put` refuses it), so such an id names no document:
    asking the server would fail with an encoding error that looks like an outage."""
    return any("\x00" in k for k in keys)


def _doc(row: Any) -> Document | None:
    return None if row is None else Document(*row)


class PostgresStore:
    """`DocumentStore` on a PostgreSQL table `<schema>.documents`, created on first use."""

    def __init__(self, url: str, *, max_size: int = 4) -> None:
        self._dsn, self.schema = split_dsn(url)
        self._shown = redact_url(url)
        self._table = f'"{self.schema}".documents'
        self._max_size = max_size
        self._pool: Any = None
        self._open_lock = asyncio.Lock()
        self._closed = False

    def __repr__(self) -> str:
        return f"PostgresStore({self._shown!r})"

    def _sql(self, template: str) -> str:
        """Fill in the (validated, quoted) table name; values always go in as $n parameters."""
        return template.replace("{table}", self._table).replace("{columns}", _COLUMNS)

    def _unavailable(self, exc: BaseException) -> CorpusUnavailableError:
        detail = str(exc) or type(exc).__name__
        return CorpusUnavailableError(f"PostgreSQL store {self._shown} unavailable: {detail}")

    async def _open(self) -> Any:
        if self._closed:
            raise CorpusError(f"PostgreSQL store {self._shown} is closed")
        async with self._open_lock:
            if self._pool is None:
                try:
                    pool = await asyncpg.create_pool(
                        self._dsn,
                        min_size=1,
                        max_size=self._max_size,
                        timeout=CONNECT_TIMEOUT_S,
                        command_timeout=COMMAND_TIMEOUT_S,
                    )
                except (ValueError, asyncpg.ClientConfigurationError) as exc:
                    # The driver's message may quote the DSN: name only the problem's kind.
                    raise UsageError(
                        f"bad PostgreSQL URL {self._shown} ({type(exc).__name__})"
                    ) from None
                try:
                    await self._create_table(pool)
                except BaseException:
                    pool.terminate()
                    raise
                self._pool = pool
                log.info("corpus store opened: %s", self._shown)
        return self._pool

    async def _create_table(self, pool: Any) -> None:
        async with pool.acquire() as conn, conn.transaction():
            # Serialise concurrent first starts: CREATE … IF NOT EXISTS can still race.
            await conn.execute("SELECT pg_advisory_xact_lock(hashtext('citegate.documents'))")
            await conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{self.schema}"')
            await conn.execute(
                f"""CREATE TABLE IF NOT EXISTS {self._table} (
                    seq BIGSERIAL PRIMARY KEY,
                    document_id TEXT NOT NULL,
                    version TEXT NOT NULL,
                    text TEXT NOT NULL,
                    sha256 TEXT NOT NULL,
                    title TEXT,
                    url TEXT,
                    fetched_at TEXT,
                    inserted_at TIMESTAMPTZ NOT NULL DEFAULT now(),
                    UNIQUE (document_id, version))"""
            )

    async def _run(self, fn: Callable[[Any], Awaitable[T]]) -> T:
        """Run `fn(connection)`, once more on a fresh connection if the first one was dead."""
        for attempt in (1, 2):
            try:
                pool = await self._open()
                async with pool.acquire() as conn:
                    return await fn(conn)
            except _UNAVAILABLE as exc:
                if attempt == 2 or self._closed:
                    raise self._unavailable(exc) from None
                if self._pool is not None:
                    # One dead connection usually means all of them (server restart, backend
                    # termination): have the pool replace every idle one before the retry.
                    await self._pool.expire_connections()
                log.warning("corpus store %s: %s; retrying once", self._shown, type(exc).__name__)
            except asyncpg.PostgresError as exc:
                raise CorpusError(f"PostgreSQL store {self._shown}: {exc}") from None
        raise AssertionError("unreachable")

    async def get(self, document_id: str, version: str) -> Document | None:
        if _unstorable(document_id, version):
            return None
        sql = self._sql("SELECT {columns} FROM {table} WHERE document_id = $1 AND version = $2")
        return _doc(await self._run(lambda c: c.fetchrow(sql, document_id, version)))

    async def versions(self, document_id: str) -> tuple[str, ...]:
        if _unstorable(document_id):
            return ()
        sql = self._sql("SELECT version FROM {table} WHERE document_id = $1 ORDER BY seq")
        rows = await self._run(lambda c: c.fetch(sql, document_id))
        return tuple(r[0] for r in rows)

    async def latest(self, document_id: str) -> Document | None:
        if _unstorable(document_id):
            return None
        sql = self._sql(
            "SELECT {columns} FROM {table} WHERE document_id = $1 ORDER BY seq DESC LIMIT 1"
        )
        return _doc(await self._run(lambda c: c.fetchrow(sql, document_id)))

    async def put(self, doc: Document) -> bool:
        inserted, _ = await self.put_many([doc])
        return inserted == 1

    async def put_many(self, docs: Iterable[Document]) -> tuple[int, int]:
        """One transaction: `INSERT … ON CONFLICT DO NOTHING`, then compare stored hashes."""
        batch = [checked(d) for d in docs]
        for d in batch:
            if "\x00" in d.text or "\x00" in d.document_id or "\x00" in d.version:
                raise InputError(
                    f"document {d.document_id!r} version {d.version!r}: PostgreSQL text "
                    "cannot hold NUL characters"
                )
        insert = self._sql(
            "INSERT INTO {table} ({columns}) SELECT * FROM unnest("
            "$1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) "
            "ON CONFLICT (document_id, version) DO NOTHING RETURNING seq"
        )
        stored_sql = self._sql(
            "SELECT d.document_id, d.version, d.sha256 FROM {table} d "
            "JOIN unnest($1::text[], $2::text[]) AS k(document_id, version) "
            "USING (document_id, version)"
        )

        async def work(conn: Any) -> tuple[int, int]:
            inserted = 0
            async with conn.transaction():
                for i in range(0, len(batch), BATCH):
                    chunk = batch[i : i + BATCH]
                    ids = [d.document_id for d in chunk]
                    versions = [d.version for d in chunk]
                    cols = [
                        ids,
                        versions,
                        [d.text for d in chunk],
                        [d.sha256.lower() for d in chunk],
                        [d.title for d in chunk],
                        [d.url for d in chunk],
                        [d.fetched_at for d in chunk],
                    ]
                    inserted += len(await conn.fetch(insert, *cols))
                    stored = {
                        (r[0], r[1]): r[2] for r in await conn.fetch(stored_sql, ids, versions)
                    }
                    for d in chunk:
                        have = stored[(d.document_id, d.version)]
                        if have != d.sha256.lower():
                            raise immutable_error(d.document_id, d.version, have, d.sha256.lower())
            return inserted, len(batch) - inserted

        return await self._run(work)

    async def ping(self) -> None:
        await self._run(lambda c: c.fetchval("SELECT 1"))

    async def close(self) -> None:
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is None:
            return
        try:
            await asyncio.wait_for(pool.close(), timeout=CONNECT_TIMEOUT_S)
        except _UNAVAILABLE:
            pool.terminate()
