"""Store faults at the cache: a store that accepts and never answers is unavailable after the
per-lookup timeout (never accepted), and an unexpected store exception is not retried."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

import orjson

from stream.corpus.cache import UNAVAILABLE, CorpusCache
from stream.corpus.wiring import corpus_cache
from stream.errors import CorpusError
from stream.metrics import Metrics
from stream.verify.model import Document
from tests.unit.fakes import demo_answers, rig


class HangingStore:
    """Accepts every call and never answers (a server that stopped reading its socket)."""

    calls = 0

    async def _hang(self) -> None:
        self.calls += 1
        await asyncio.Event().wait()

    async def get(self, document_id: str, version: str) -> Document | None:
        await self._hang()
        return None

    async def versions(self, document_id: str) -> tuple[str, ...]:
        await self._hang()
        return ()

    async def latest(self, document_id: str) -> Document | None:
        await self._hang()
        return None

    async def put(self, doc: Document) -> bool:
        return False

    async def put_many(self, docs: Iterable[Document]) -> tuple[int, int]:
        return (0, 0)

    async def ping(self) -> None:
        await self._hang()

    async def close(self) -> None:
        return None


async def test_a_hanging_store_times_out_per_lookup_and_reports_the_corpus_down() -> None:
    metrics = Metrics()
    store = HangingStore()
    s = rig().settings.with_(corpus_timeout_s=0.05, corpus_retries=2, corpus_backoff_s=0.0)
    cache = corpus_cache(store, s, metrics)  # type: ignore[arg-type]
    metrics.corpus_up.set(1)
    result = await asyncio.wait_for(cache.get("doc", "1"), 5)
    assert result is UNAVAILABLE
    assert store.calls == 2
    assert metrics.registry.get_sample_value("citegate_corpus_up") == 0


async def test_answers_on_a_hanging_store_go_to_manual_review_never_accept() -> None:
    r = rig()
    store = HangingStore()
    r.stage.corpus = CorpusCache(store, retries=1, backoff_s=0, timeout_s=0.05)  # type: ignore[arg-type]
    for a in demo_answers():
        r.consumer.append(orjson.dumps(a))
    await r.drain()
    decisions = r.decisions()
    assert len(decisions) == len(demo_answers())
    assert all(d["final_status"] != "accept" for d in decisions)
    cited = [d for d in decisions if "corpus" in " ".join(d["reasons"])]
    assert cited, decisions
    assert all(d["final_status"] == "manual_review" for d in cited)


class BrokenStore(HangingStore):
    async def get(self, document_id: str, version: str) -> Document | None:
        self.calls += 1
        raise CorpusError("permission denied for table documents")


async def test_a_non_retriable_store_error_is_not_retried() -> None:
    store = BrokenStore()
    cache = CorpusCache(store, retries=5, backoff_s=0)  # type: ignore[arg-type]
    assert await cache.get("doc", "1") is UNAVAILABLE
    assert store.calls == 1


async def test_the_breaker_makes_a_hanging_store_cost_one_timeout_per_window() -> None:
    from tests.unit.fakes import Clock

    clock = Clock()
    store = HangingStore()
    cache = CorpusCache(
        store,  # type: ignore[arg-type]
        retries=1,
        backoff_s=0,
        timeout_s=0.02,
        breaker_s=2.0,
        clock=clock,
    )
    results = [await cache.get(f"doc-{i}", "1") for i in range(20)]
    assert all(r is UNAVAILABLE for r in results)
    assert store.calls == 1, "one lookup paid the timeout, the rest failed fast"
    clock.now += 2.5
    assert await cache.get("doc-x", "1") is UNAVAILABLE
    assert store.calls == 2, "after the window one lookup tries the store again"
