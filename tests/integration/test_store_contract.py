"""One contract, every store: SQLite (tmp file), PostgreSQL (real server), documents file.

PostgreSQL tests each get a fresh schema, dropped afterwards, so runs never collide. The file
store is read-only, so it runs the read half of the contract and must refuse writes.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import orjson
import pytest

from stream.corpus.filestore import FileStore
from stream.corpus.postgres import PostgresStore
from stream.corpus.sqlite import SqliteStore
from stream.corpus.store import DocumentStore, open_store
from stream.errors import (
    CorpusError,
    CorpusUnavailableError,
    ImmutableDocumentError,
    InputError,
    UsageError,
)
from stream.secret import redact_url
from stream.verify.citations import sha256_hex
from stream.verify.model import Document

pytestmark = pytest.mark.integration

DSN = os.environ.get("CITEGATE_TEST_POSTGRES_DSN", "postgresql://postgres@127.0.0.1:5432/test")
ASTRAL = "Emoji 😀, CJK 𠀋 (extension B), math 𝔸 — и кириллица, 中文。\nTab\tand NBSP\u00a0."


def doc(document_id: str, version: str, text: str, **meta: str) -> Document:
    return Document(document_id, version, text, sha256_hex(text), **meta)


SEED = [
    doc("policy", "v1", "Logs are kept 30 days.", title="Policy", url="https://example.test/p"),
    doc("policy", "v2", "Logs are kept 14 days.", fetched_at="2026-01-02T03:04:05Z"),
    doc("unicode", "2026-01", ASTRAL, title="Юникод 😀"),
    # Inserted last although it sorts first: ordering is by insertion, not by name.
    doc("policy", "v0-late", "Inserted last, so it is the latest."),
]


def _with_query(dsn: str, **params: str) -> str:
    return dsn + ("&" if "?" in dsn else "?") + "&".join(f"{k}={v}" for k, v in params.items())


def _postgres_problem() -> str | None:
    async def probe() -> None:
        conn = await asyncpg.connect(DSN, timeout=3)
        await conn.close()

    try:
        asyncio.run(probe())
    except (OSError, TimeoutError, asyncpg.PostgresError) as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


def _drop_schema(schema: str) -> None:
    async def drop() -> None:
        conn = await asyncpg.connect(DSN, timeout=3)
        try:
            await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        finally:
            await conn.close()

    asyncio.run(drop())


@pytest.fixture
def pg_schema() -> Iterator[str]:
    """A fresh schema name, dropped afterwards; skip locally / fail under CI without a server."""
    problem = _postgres_problem()
    if problem is not None:
        reason = f"PostgreSQL not reachable at {redact_url(DSN)} ({problem})"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    schema = f"citegate_test_{uuid.uuid4().hex[:12]}"
    yield schema
    _drop_schema(schema)


def _write_jsonl(path: Path, docs: list[Document]) -> None:
    rows = [orjson.dumps(dataclasses.asdict(d)) for d in docs]
    path.write_bytes(b"\n".join(rows) + b"\n")


def _url(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if kind == "sqlite":
        return f"sqlite:///{tmp_path}/nested/dir/corpus.db"
    if kind == "postgres":
        return _with_query(DSN, schema=request.getfixturevalue("pg_schema"))
    path = tmp_path / "documents.jsonl"
    _write_jsonl(path, SEED)
    return str(path)


async def _seeded(url: str) -> DocumentStore:
    store = open_store(url)
    if not isinstance(store, FileStore):
        assert await store.put_many(SEED) == (len(SEED), 0)
    return store


@pytest.fixture(params=["sqlite", "postgres", "file"])
def any_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return _url(request.param, request, tmp_path)


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return _url(request.param, request, tmp_path)


@pytest.fixture
async def seeded(any_url: str) -> AsyncIterator[DocumentStore]:
    """A store of every kind holding SEED, inserted in order (the file is written with it)."""
    store = await _seeded(any_url)
    yield store
    await store.close()


@pytest.fixture
async def writable(database_url: str) -> AsyncIterator[DocumentStore]:
    """A database store holding SEED; the read-only file store has its own test below."""
    store = await _seeded(database_url)
    yield store
    await store.close()


# -- reads: every store ----------------------------------------------------------------------


async def test_round_trip_keeps_unicode_astral_text_and_metadata(seeded: DocumentStore) -> None:
    for expected in SEED:
        got = await seeded.get(expected.document_id, expected.version)
        assert got == expected
    got = await seeded.get("unicode", "2026-01")
    assert got is not None
    assert got.text == ASTRAL
    assert got.sha256 == sha256_hex(ASTRAL) == sha256_hex(got.text)
    assert got.title == "Юникод 😀"


async def test_versions_are_ordered_by_insertion_and_latest_is_newest(
    seeded: DocumentStore,
) -> None:
    assert await seeded.versions("policy") == ("v1", "v2", "v0-late")
    assert await seeded.versions("unicode") == ("2026-01",)
    latest = await seeded.latest("policy")
    assert latest is not None
    assert latest.version == "v0-late"


async def test_missing_documents_and_versions(seeded: DocumentStore) -> None:
    assert await seeded.get("policy", "v9") is None
    assert await seeded.get("nope", "v1") is None
    assert await seeded.versions("nope") == ()
    assert await seeded.latest("nope") is None
    await seeded.ping()


# -- writes: database stores -----------------------------------------------------------------


async def test_put_inserts_once_and_identical_reimport_is_a_no_op(writable: DocumentStore) -> None:
    new = doc("fresh", "1", "New text 𝔸.")
    assert await writable.put(new) is True
    assert await writable.put(new) is False
    assert await writable.put(SEED[0]) is False
    assert await writable.versions("fresh") == ("1",)
    assert await writable.get("fresh", "1") == new


async def test_different_text_for_an_existing_version_is_refused(writable: DocumentStore) -> None:
    original = SEED[0]
    changed = doc(original.document_id, original.version, original.text + " (edited)")
    with pytest.raises(ImmutableDocumentError) as info:
        await writable.put(changed)
    message = info.value.message
    assert "'policy'" in message
    assert "'v1'" in message
    assert original.sha256[:12] in message
    assert changed.sha256[:12] in message
    assert info.value.code == "document_immutable"
    assert await writable.get("policy", "v1") == original


async def test_put_many_counts_inserted_and_unchanged(writable: DocumentStore) -> None:
    extra = [doc("more", "a", "A"), doc("more", "b", "B"), doc("more", "a", "A")]
    assert await writable.put_many([*SEED, *extra]) == (2, len(SEED) + 1)
    assert await writable.versions("more") == ("a", "b")
    assert await writable.put_many([]) == (0, 0)


async def test_put_many_is_atomic(writable: DocumentStore) -> None:
    ok = doc("atomic", "1", "would be new")
    conflict = doc("policy", "v2", "not the stored text")
    with pytest.raises(ImmutableDocumentError):
        await writable.put_many([ok, conflict])
    assert await writable.get("atomic", "1") is None
    assert await writable.versions("atomic") == ()


async def test_a_wrong_sha256_is_refused(writable: DocumentStore) -> None:
    bad = Document("hash", "1", "text", sha256_hex("other text"))
    with pytest.raises(InputError):
        await writable.put(bad)
    assert await writable.get("hash", "1") is None


# -- store specifics -------------------------------------------------------------------------


async def test_file_store_refuses_writes(tmp_path: Path) -> None:
    path = tmp_path / "documents.json"
    path.write_text(orjson.dumps({"d": {"version": "1", "text": "t"}}).decode(), "utf-8")
    store = open_store(f"file://{path}")
    assert isinstance(store, FileStore)
    for attempt in (store.put(doc("x", "1", "t")), store.put_many([doc("x", "1", "t")])):
        with pytest.raises(CorpusError, match="read-only store"):
            await attempt
    assert await store.versions("d") == ("1",)
    await store.close()


async def test_file_store_applies_the_immutability_rule_to_its_content(tmp_path: Path) -> None:
    path = tmp_path / "documents.jsonl"
    _write_jsonl(path, [doc("d", "1", "a"), doc("d", "1", "a"), doc("d", "1", "b")])
    with pytest.raises(ImmutableDocumentError):
        await open_store(str(path)).get("d", "1")


async def test_open_store_url_forms(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    relative = open_store("sqlite:///./a/b/corpus.db")
    assert isinstance(relative, SqliteStore)
    await relative.ping()
    assert (tmp_path / "a" / "b" / "corpus.db").is_file()
    await relative.close()
    assert isinstance(open_store(f"sqlite:///{tmp_path}/abs.db"), SqliteStore)
    assert isinstance(open_store("postgres://u@h/db?schema=s_1"), PostgresStore)
    assert isinstance(open_store("postgresql://u@h/db"), PostgresStore)
    assert isinstance(open_store("documents.json"), FileStore)
    for bad in (
        "redis://host/0",
        "sqlite:/x.db",
        "sqlite:///",
        "",
        "postgresql://u@h/db?schema=a;b",
    ):
        with pytest.raises(UsageError) as info:
            open_store(bad)
        assert "\n" not in info.value.message


async def test_unreachable_postgres_is_corpus_unavailable_and_hides_the_password() -> None:
    store = open_store("postgresql://citegate:s3cret-pw@127.0.0.1:1/test")
    with pytest.raises(CorpusUnavailableError) as info:
        await store.get("d", "1")
    assert info.value.retriable is True
    assert "s3cret-pw" not in info.value.message
    assert "s3cret-pw" not in repr(store)
    await store.close()


def test_offline_snapshot_fails_fast_when_the_store_is_down() -> None:
    from stream.corpus.offline import snapshot_from_source

    with pytest.raises(CorpusUnavailableError):
        snapshot_from_source("postgresql://postgres@127.0.0.1:1/test", [("a", "1")])


async def test_postgres_reconnects_after_its_connections_are_killed(pg_schema: str) -> None:
    app = f"citegate-test-{uuid.uuid4().hex[:8]}"
    store = open_store(_with_query(DSN, schema=pg_schema, application_name=app))
    try:
        await store.put(SEED[0])
        admin = await asyncpg.connect(DSN, timeout=3)
        try:
            killed = await admin.fetch(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1",
                app,
            )
        finally:
            await admin.close()
        assert killed
        # Like a server restart from the pool's point of view: the next call still succeeds.
        assert await store.get("policy", "v1") == SEED[0]
        assert await store.versions("policy") == ("v1",)
    finally:
        await store.close()


def test_snapshot_from_source_reads_every_store_kind(any_url: str) -> None:
    """What `citegate verify --corpus URL` uses: files load whole, databases load the refs."""
    from stream.corpus.offline import snapshot_from_source

    if not any_url.endswith(".jsonl"):
        asyncio.run(_fill(any_url))
    refs = [("policy", "v1"), ("policy", "v9"), ("nope", "1"), ("unicode", None)]
    snap = snapshot_from_source(any_url, refs)
    assert snap.documents[("policy", "v1")] == SEED[0]
    assert snap.versions["policy"] == ("v1", "v2", "v0-late")
    assert snap.versions.get("nope", ()) == ()
    assert snap.versions["unicode"] == ("2026-01",)
    assert snap.unavailable == frozenset()
    if any_url.endswith(".jsonl"):
        assert snapshot_from_source(any_url) == snap
    else:
        with pytest.raises(UsageError):
            snapshot_from_source(any_url)


async def _fill(url: str) -> None:
    store = await _seeded(url)
    await store.close()


async def test_a_nul_byte_in_an_id_is_a_missing_document_on_every_store(any_url: str) -> None:
    """An input problem, not an outage: PostgreSQL would refuse the query with an encoding
    error that the cache took for an unreachable store."""
    store = await _seeded(any_url)
    try:
        assert await store.get("pol\x00icy", "v1") is None
        assert await store.get("policy", "v\x001") is None
        assert await store.versions("pol\x00icy") == ()
        assert await store.latest("pol\x00icy") is None
    finally:
        await store.close()
