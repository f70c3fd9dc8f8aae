"""The corpus store goes away and comes back while the stage runs.

The worker reaches the real PostgreSQL server through a TCP proxy inside the test process;
stopping the proxy closes its listener and every open connection (like a server crash), and
starting it listens again on the same port. While it is down, answers must get `unknown`
verdicts with a `corpus_unavailable` warning and `manual_review` — never `accept`, never lost;
once it is back, answers are verified normally again.

The cache keeps documents it found, so each phase cites a document no earlier phase looked up.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

import pytest

from stream.codec import schema_error
from stream.kafka.embedded import find_free_port
from tests.integration.conftest import (
    Events,
    StackFactory,
    demo_answers,
    document,
    with_address,
)

pytestmark = pytest.mark.integration

SENTENCE = "The staging cluster is patched every Tuesday night."
DOCS = [
    document(f"outage-doc-{n}", "1", f"Outage document {n}. {SENTENCE} Rollbacks need approval.")
    for n in (1, 2, 3)
]


class TcpProxy:
    """Forwards a loopback port to `target`; `stop()` drops everything, `start()` resumes."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.port = find_free_port()
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self.connections = 0

    async def start(self) -> None:
        assert self._server is None
        self._server = await asyncio.start_server(
            self._accept, "127.0.0.1", self.port, reuse_address=True
        )

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None
        for writer in list(self._writers):
            writer.transport.abort()  # RST: the peer sees a dead connection at once
        self._writers.clear()
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        self.connections += 1
        self._writers.update((writer, up_writer))
        pipes = [
            asyncio.ensure_future(self._pipe(reader, up_writer)),
            asyncio.ensure_future(self._pipe(up_reader, writer)),
        ]
        self._tasks.update(pipes)
        try:
            await asyncio.gather(*pipes, return_exceptions=True)
        finally:
            self._tasks.difference_update(pipes)
            for w in (writer, up_writer):
                self._writers.discard(w)
                w.transport.abort()

    @staticmethod
    async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError, OSError):
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        writer.transport.abort()


def answer(answer_id: str, doc_n: int) -> dict[str, Any]:
    """A structured answer whose one claim is quoted exactly from outage-doc-N (accepted)."""
    base = next(a for a in demo_answers() if a["answer_id"] == "demo-005")
    text = DOCS[doc_n - 1].text
    start = text.index(SENTENCE)
    return {
        **{k: base[k] for k in ("schema", "created_at", "corpus", "generator", "retriever")},
        "event_id": f"evt-{answer_id}",
        "answer_id": answer_id,
        "language": "en",
        "answer": SENTENCE,
        "claims": [{"id": "c1", "text": SENTENCE, "citation_ids": ["q1"]}],
        "citations": [
            {
                "id": "q1",
                "document_id": f"outage-doc-{doc_n}",
                "document_version": "1",
                "start": start,
                "end": start + len(SENTENCE),
                "quote": SENTENCE,
            }
        ],
    }


def decided(topic: str, ids: Iterable[str]) -> Any:
    wanted = set(ids)

    def done(events: Events) -> bool:
        return wanted <= {e["answer_id"] for e in events[topic]}

    return done


async def test_corpus_outage_means_manual_review_never_accept_and_recovers(
    postgres_schema_url: str, make_stack: StackFactory
) -> None:
    # postgres_schema_url first: its schema is dropped after make_stack stopped the worker.
    parts = urlsplit(postgres_schema_url)
    proxy = TcpProxy(parts.hostname or "127.0.0.1", parts.port or 5432)
    await proxy.start()
    try:
        stack = await make_stack(
            store=with_address(postgres_schema_url, "127.0.0.1", proxy.port),
            documents=DOCS,
            env={
                "CITEGATE_CORPUS_RETRIES": "2",
                "CITEGATE_CORPUS_BACKOFF_S": "0.05",
                "CITEGATE_NEGATIVE_CACHE_S": "0.5",
                "CITEGATE_CACHE_BYTES": "100000",
            },
        )
        worker = await stack.start_worker()
        topics = [stack.topic_verdicts, stack.topic_decisions]

        # Up: accepted.
        await stack.produce_answers([answer("up-1", 1)])
        events = await stack.read_until(
            topics, decided(stack.topic_decisions, ["up-1"]), what="the first decision"
        )
        assert [d["final_status"] for d in events[stack.topic_decisions]] == ["accept"]

        # Down: unknown + corpus_unavailable + manual_review, for every answer.
        await proxy.stop()
        down = [f"down-{i}" for i in range(3)]
        await stack.produce_answers([answer(i, 2) for i in down])
        events = await stack.read_until(
            topics, decided(stack.topic_decisions, down), what="decisions during the outage"
        )
        during = [d for d in events[stack.topic_decisions] if d["answer_id"] in down]
        assert sorted(d["answer_id"] for d in during) == down, "one decision each, none lost"
        for d in during:
            assert d["final_status"] == "manual_review", d.value
            assert d["publish"] is False
            assert schema_error("decision", d.value) is None
        verdicts = [v for v in events[stack.topic_verdicts] if v["answer_id"] in down]
        assert sorted(v["answer_id"] for v in verdicts) == down
        for v in verdicts:
            assert v["verdict"] == "unknown", v.value
            assert schema_error("claim-verdict", v.value) is None
            for c in v["citations"]:
                assert "corpus_unavailable" in {w["code"] for w in c["warnings"]}, c
        families = await stack.scrape(worker)
        assert families["citegate_corpus_up"].samples[0].value == 0

        # Back: new answers are verified normally again, within a bounded wait.
        await proxy.start()
        recovered_at = time.monotonic()
        probes: list[str] = []
        accepted: str | None = None
        deadline = time.monotonic() + 20
        while accepted is None:
            assert time.monotonic() < deadline, f"no answer accepted after recovery: {probes}"
            probes.append(f"back-{len(probes)}")
            await stack.produce_answers([answer(probes[-1], 3)])
            events = await stack.read_until(
                topics, decided(stack.topic_decisions, probes), what="a decision after recovery"
            )
            status = {d["answer_id"]: d["final_status"] for d in events[stack.topic_decisions]}
            accepted = next((p for p in probes if status[p] == "accept"), None)
            if accepted is None:
                await asyncio.sleep(0.2)
        # The document that was unreachable during the outage: nothing about it was cached.
        await stack.produce_answers([answer("back-doc-2", 2)])
        await stack.wait_committed()
        events = await stack.read_until(
            topics,
            decided(stack.topic_decisions, [*probes, "back-doc-2"]),
            what="all decisions",
        )
        status = {d["answer_id"]: d["final_status"] for d in events[stack.topic_decisions]}
        assert status["back-doc-2"] == "accept"
        for p in probes:
            assert status[p] in {"accept", "manual_review"}, (p, status[p])
        all_ids = ["up-1", *down, *probes, "back-doc-2"]
        decisions = events[stack.topic_decisions]
        assert sorted(d["answer_id"] for d in decisions) == sorted(all_ids), "none lost or doubled"
        print(
            f"\ncorpus outage: recovered after {time.monotonic() - recovered_at:.2f}s and "
            f"{len(probes)} probe answer(s); proxy connections opened: {proxy.connections}"
        )
    finally:
        await proxy.stop()
