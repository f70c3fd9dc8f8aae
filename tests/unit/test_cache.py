"""CorpusCache against an in-memory fake store that counts calls and can go down."""

from __future__ import annotations

import asyncio
import sys
from collections import Counter
from collections.abc import Iterable

import pytest

from stream.corpus.cache import ENTRY_OVERHEAD, UNAVAILABLE, CorpusCache, document_bytes
from stream.errors import CorpusUnavailableError
from stream.verify.citations import citation_refs, sha256_hex
from stream.verify.model import Answer, Citation, Document


def doc(document_id: str, version: str, text: str) -> Document:
    return Document(document_id, version, text, sha256_hex(text))


class FakeStore:
    """A `DocumentStore` in a dict; `down = True` makes every call fail like an outage."""

    def __init__(self, docs: Iterable[Document] = ()) -> None:
        self.docs = {(d.document_id, d.version): d for d in docs}
        self.calls: Counter[str] = Counter()
        self.down = False
        self.gate: asyncio.Event | None = None

    async def _enter(self, name: str) -> None:
        self.calls[name] += 1
        if self.gate is not None:
            await self.gate.wait()
        if self.down:
            raise CorpusUnavailableError("fake store is down")

    async def get(self, document_id: str, version: str) -> Document | None:
        await self._enter("get")
        return self.docs.get((document_id, version))

    async def versions(self, document_id: str) -> tuple[str, ...]:
        await self._enter("versions")
        return tuple(v for (i, v) in self.docs if i == document_id)

    async def latest(self, document_id: str) -> Document | None:
        versions = await self.versions(document_id)
        return self.docs[(document_id, versions[-1])] if versions else None

    async def put(self, doc: Document) -> bool:
        self.docs[(doc.document_id, doc.version)] = doc
        return True

    async def put_many(self, docs: Iterable[Document]) -> tuple[int, int]:
        n = 0
        for d in docs:
            n += await self.put(d)
        return n, 0

    async def ping(self) -> None:
        await self._enter("ping")

    async def close(self) -> None:
        pass


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def no_sleep(_seconds: float) -> None:
    await asyncio.sleep(0)


def make_cache(store: FakeStore, **kwargs: object) -> tuple[CorpusCache, Clock, list[str]]:
    clock, events = Clock(), []
    options: dict[str, object] = {"clock": clock, "sleep": no_sleep, "on_event": events.append}
    options.update(kwargs)
    return CorpusCache(store, **options), clock, events  # type: ignore[arg-type]


async def test_hit_after_first_lookup_and_snapshot_contents() -> None:
    store = FakeStore([doc("a", "1", "alpha"), doc("a", "2", "alpha two")])
    cache, _, events = make_cache(store)
    first = await cache.snapshot([("a", "1")])
    second = await cache.snapshot([("a", "1"), ("a", "1")])
    assert first == second
    assert first.documents[("a", "1")].text == "alpha"
    assert first.versions == {"a": ("1",)}
    assert first.unavailable == frozenset()
    assert store.calls == Counter(get=1)
    assert (cache.hits, cache.misses) == (1, 1)
    assert events == ["miss", "hit"]


async def test_byte_bound_evicts_least_recently_used() -> None:
    docs = [doc("d", str(i), "x" * 40) for i in range(4)]
    one = document_bytes(docs[0])
    store = FakeStore(docs)
    cache, _, _ = make_cache(store, max_bytes=2 * one + one // 2)
    await cache.snapshot([("d", "0")])
    await cache.snapshot([("d", "1")])
    await cache.snapshot([("d", "0")])  # 0 is now more recent than 1
    await cache.snapshot([("d", "2")])  # three do not fit: evicts 1, the least recently used
    assert cache.evictions == 1
    assert cache.size_bytes == 2 * one
    await cache.snapshot([("d", "0")])
    assert store.calls["get"] == 3
    await cache.snapshot([("d", "1")])
    assert store.calls["get"] == 4
    assert cache.evictions == 2
    assert cache.size_bytes <= cache.max_bytes


def test_a_document_is_counted_by_the_memory_it_holds() -> None:
    """Python keeps Cyrillic in 2 bytes and emoji in 4 a character: the bound counts that,
    the fields besides the text, and the entry itself, not UTF-8 text alone."""
    ascii_doc = doc("a", "1", "x" * 1000)
    cyrillic = doc("a", "1", "ж" * 1000)
    emoji = doc("a", "1", "😀" * 1000)
    assert document_bytes(ascii_doc) > 1000 + ENTRY_OVERHEAD
    # one more byte a character for Cyrillic, three more for emoji (headers differ a little)
    assert 1000 <= document_bytes(cyrillic) - document_bytes(ascii_doc) <= 1100
    assert 3000 <= document_bytes(emoji) - document_bytes(ascii_doc) <= 3100
    assert sys.getsizeof(ascii_doc.sha256) < document_bytes(ascii_doc) - 1000 - ENTRY_OVERHEAD


async def test_oversized_documents_are_served_but_not_cached() -> None:
    small, big = doc("u", "1", "😀" * 10), doc("big", "1", "y" * 5000)
    store = FakeStore([small, big])
    cache, _, _ = make_cache(store, max_bytes=document_bytes(small) + 100)
    await cache.snapshot([("u", "1"), ("big", "1")])
    assert cache.size_bytes == document_bytes(small)
    snap = await cache.snapshot([("big", "1")])
    assert snap.documents[("big", "1")].text == "y" * 5000
    assert store.calls["get"] == 3


async def test_concurrent_lookups_of_one_key_are_coalesced() -> None:
    store = FakeStore([doc("a", "1", "alpha")])
    store.gate = asyncio.Event()
    cache, _, _ = make_cache(store)
    pending = [asyncio.ensure_future(cache.snapshot([("a", "1")])) for _ in range(50)]
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    store.gate.set()
    snaps = await asyncio.gather(*pending)
    assert store.calls["get"] == 1
    assert all(s.documents[("a", "1")].text == "alpha" for s in snaps)
    assert cache.misses == 1
    assert cache.coalesced == 49


async def test_missing_document_is_remembered_for_the_ttl() -> None:
    store = FakeStore([doc("a", "1", "alpha")])
    cache, clock, _ = make_cache(store, negative_ttl_s=5.0)
    snap = await cache.snapshot([("nope", "1")])
    assert snap.versions.get("nope", ()) == ()
    assert ("nope", "1") not in snap.documents
    assert store.calls == Counter(get=1, versions=1)
    clock.now += 4.9
    await cache.snapshot([("nope", "1")])
    assert store.calls == Counter(get=1, versions=1)
    assert cache.negative_hits == 2  # the (id, version) and the empty versions list
    clock.now += 0.2
    await store.put(doc("nope", "1", "arrived"))
    snap = await cache.snapshot([("nope", "1")])
    assert store.calls == Counter(get=2, versions=1)
    assert snap.documents[("nope", "1")].text == "arrived"


async def test_missing_version_fetches_the_versions_list() -> None:
    store = FakeStore([doc("a", "1", "alpha"), doc("a", "2", "beta")])
    cache, _, _ = make_cache(store)
    snap = await cache.snapshot([("a", "9"), ("a", None), ("a", "1")])
    assert snap.versions == {"a": ("1", "2")}
    assert set(snap.documents) == {("a", "1")}
    assert store.calls == Counter(get=2, versions=1)


async def test_outage_marks_the_id_unavailable_after_the_retries_then_recovers() -> None:
    store = FakeStore([doc("a", "1", "alpha"), doc("b", "1", "beta")])
    delays: list[float] = []

    async def sleep(seconds: float) -> None:
        delays.append(seconds)

    cache, _, _ = make_cache(store, retries=3, backoff_s=0.001, sleep=sleep)
    await cache.snapshot([("b", "1")])
    store.down = True
    snap = await cache.snapshot([("a", "1"), ("b", "1")])
    assert snap.unavailable == frozenset({"a"})
    assert snap.documents[("b", "1")].text == "beta"  # cached before the outage
    assert store.calls["get"] == 1 + 3
    assert cache.errors == 3
    assert delays == [0.001, 0.002]
    store.down = False
    snap = await cache.snapshot([("a", "1")])
    assert snap.unavailable == frozenset()
    assert snap.documents[("a", "1")].text == "alpha"


async def test_outage_while_listing_versions_is_unavailable_not_missing() -> None:
    store = FakeStore()
    cache, _, _ = make_cache(store, retries=2, backoff_s=0.0)
    await cache.snapshot([("gone", "1")])  # remembered as missing
    store.down = True
    snap = await cache.snapshot([("other", None)])
    assert snap.unavailable == frozenset({"other"})
    assert "other" not in snap.versions


async def test_latest_uses_the_cached_versions_list_and_raises_on_outage() -> None:
    store = FakeStore([doc("a", "1", "alpha"), doc("a", "2", "beta")])
    cache, _, _ = make_cache(store, retries=1)
    latest = await cache.latest("a")
    assert latest is not None
    assert latest.version == "2"
    assert await cache.latest("a") == latest
    assert store.calls == Counter(versions=1, get=1)
    assert await cache.latest("none") is None
    store.down = True
    assert await cache.versions("x") is UNAVAILABLE
    with pytest.raises(CorpusUnavailableError):
        await cache.latest("y")


async def test_lookup_seconds_hook_and_a_failing_hook_does_not_break_lookups() -> None:
    store = FakeStore([doc("a", "1", "alpha")])
    seconds: list[float] = []

    def broken(_kind: str) -> None:
        raise RuntimeError("metrics bug")

    cache, _, _ = make_cache(store, on_event=broken, on_lookup_seconds=seconds.append)
    snap = await cache.snapshot([("a", "1")])
    assert ("a", "1") in snap.documents
    assert len(seconds) == 1
    assert seconds[0] >= 0


def test_citation_refs_lists_corpus_citations_only() -> None:
    answer = Answer(
        "x",
        (),
        (
            Citation("c1", "a", "1"),
            Citation("c2", None, None, text="inline passage"),
            Citation("c3", "b", None),
        ),
    )
    assert citation_refs(answer) == (("a", "1"), ("b", None))
