"""Shared pieces of the review-server integration tests: answers that need review (some
carrying script payloads), a review server subprocess, and a signed-in HTTP client."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import aiohttp
import pytest
from aiokafka import AIOKafkaConsumer, TopicPartition

from stream.kafka.embedded import find_free_port
from stream.review.auth import add_token
from tests.integration.conftest import Events, Stack, document

XSS_DOC = 'leaflet"><script>window.__xss="doc-id"</script>'
# Every published sentence must be covered by a claim, so the answer-text payload sits inside
# the one covered sentence (the answer is the quote) rather than in a trailing sentence.
XSS_QUOTE = (
    "Ibuprofen relieves mild pain <img src=x onerror=\"window.__xss='quote';alert(2)\"> "
    "and fever within an hour <script>window.__xss='answer';alert(3)</script>."
)
XSS_DOC_TEXT = f"Patient leaflet. {XSS_QUOTE} Do not exceed the stated dose."
XSS_NOTE = "<script>window.__xss='note';alert(4)</script> checked"
SECURITY_V4 = (
    "Account security guide, 2027 edition. Passwords must be rotated every 60 days. "
    "Multi-factor authentication is required for every account."
)
REF = {
    "corpus": {"id": "handbook", "version": "2026.11"},
    "generator": {"name": "qwen-rag", "version": "2026.11"},
    "retriever": {"name": "hybrid-bm25", "version": "3.2"},
}


def documents() -> list[Any]:
    return [
        document(XSS_DOC, "v1", XSS_DOC_TEXT),
        document("security-guide", "v4", SECURITY_V4),
    ]


def review_answers(ns: str) -> list[dict[str, Any]]:
    """Five answers: four held for review (ru, en, the XSS one, one regenerate), one accepted."""
    start = XSS_DOC_TEXT.index(XSS_QUOTE)

    def base(answer_id: str, language: str, **extra: Any) -> dict[str, Any]:
        return {
            "schema": "citegate.answer.v1",
            "event_id": f"{ns}-evt-{answer_id}",
            "answer_id": answer_id,
            "created_at": "2026-11-30T12:00:00Z",
            "language": language,
            **REF,
            **extra,
        }

    return [
        base(
            "rv-xss",
            "en",
            risk_domain="medical",
            answer=XSS_QUOTE,
            claims=[{"id": "c1", "text": XSS_QUOTE, "citation_ids": ["q1"]}],
            citations=[
                {
                    "id": "q1",
                    "document_id": XSS_DOC,
                    "document_version": "v1",
                    "start": start,
                    "end": start + len(XSS_QUOTE),
                    "quote": XSS_QUOTE,
                }
            ],
        ),
        base(
            "rv-en",
            "en",
            generator={"name": "glm-rag", "version": "4.1"},
            answer="Passwords must be rotated every 90 days [1]. Multi-factor authentication is "
            "not required for administrator accounts [2].",
            sources={
                "1": {
                    "document_id": "security-guide",
                    "document_version": "v3",
                    "title": "Account security guide",
                    "quote": "Passwords must be rotated every 90 days.",
                },
                "2": {
                    "document_id": "security-guide",
                    "document_version": "v3",
                    "title": "Account security guide",
                    "quote": "Multi-factor authentication is required for administrator accounts.",
                },
            },
        ),
        base(
            "rv-ru",
            "ru",
            risk_domain="medical",
            answer="Журнал операций хранится в течение 30 календарных дней [1].",
            sources={
                "1": {
                    "document_id": "retention-policy",
                    "document_version": "2026-01",
                    "quote": "Журнал операций хранится в течение 30 календарных дней.",
                }
            },
        ),
        base(
            "rv-regen",
            "en",
            answer="Ibuprofen relieves mild pain and fever [1]. It is the best painkiller there is.",
            sources={"1": {"document_id": "ibuprofen-leaflet", "document_version": "2025-02"}},
        ),
        base(
            "rv-accept",
            "en",
            answer="Audit logs are kept for one year [1].",
            sources={"1": {"document_id": "security-guide", "document_version": "v3"}},
        ),
    ]


HELD = {"rv-xss", "rv-en", "rv-ru"}


@dataclass
class ReviewServer:
    proc: subprocess.Popen[bytes]
    port: int
    log_path: Path
    log_file: IO[bytes]

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log(self) -> str:
        return self.log_path.read_bytes()[-8000:].decode("utf-8", "replace")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.log_file.close()


class ReviewEnv:
    """A stack with held answers decided, a tokens file, and review servers on demand."""

    def __init__(self, stack: Stack) -> None:
        self.stack = stack
        self.topic_reviews = f"{stack.namespace}.reviews"
        self.tokens_file = stack.root / "review-tokens"
        self.token = add_token(self.tokens_file, "alice")
        self.other_token = add_token(self.tokens_file, "bob")
        self.servers: list[ReviewServer] = []
        self.answers = review_answers(stack.namespace)

    @property
    def env(self) -> dict[str, str]:
        return {
            **self.stack.env,
            "CITEGATE_TOPIC_REVIEWS": self.topic_reviews,
            "CITEGATE_REVIEW_TOKENS_FILE": str(self.tokens_file),
        }

    async def decide(self) -> Events:
        await self.stack.start_worker()
        await self.stack.produce_answers(self.answers)
        ids = {a["answer_id"] for a in self.answers}
        events = await self.stack.read_until(
            [self.stack.topic_decisions],
            lambda ev: ids <= {e["answer_id"] for e in ev[self.stack.topic_decisions]},
            what="decisions of the review answers",
        )
        status = {e["answer_id"]: e["final_status"] for e in events[self.stack.topic_decisions]}
        assert {a for a, s in status.items() if s == "manual_review"} == HELD, status
        assert status["rv-regen"] == "regenerate_or_abstain", status
        assert status["rv-accept"] == "accept", status
        return events

    def _spawn(self) -> ReviewServer:
        port = find_free_port()
        log_path = self.stack.root / f"review-{len(self.servers)}.log"
        log_file = log_path.open("ab")
        cmd = [
            sys.executable,
            "-m",
            "stream.cli",
            "review",
            "--broker",
            f"kafka://{self.stack.bootstrap}",
            "--store",
            self.stack.store,
            "--port",
            str(port),
        ]
        proc = subprocess.Popen(
            cmd,
            env=self.env,
            cwd=self.stack.root,
            stdin=subprocess.DEVNULL,
            stdout=log_file,
            stderr=subprocess.STDOUT,
        )
        server = ReviewServer(proc, port, log_path, log_file)
        self.servers.append(server)
        return server

    async def start_server(self, wait_s: float = 30.0) -> ReviewServer:
        """Launch `citegate review` and wait (bounded) until /readyz says it caught up."""
        server = self._spawn()
        proc = server.proc
        deadline = time.monotonic() + wait_s
        async with aiohttp.ClientSession() as session:
            while True:
                if proc.poll() is not None:
                    pytest.fail(f"review server exited early:\n{server.log()}", pytrace=False)
                try:
                    async with session.get(f"{server.base}/readyz") as resp:
                        if resp.status == 200:
                            return server
                except aiohttp.ClientError:
                    pass
                if time.monotonic() > deadline:
                    pytest.fail(f"review server not ready:\n{server.log()}", pytrace=False)
                await asyncio.sleep(0.1)

    async def reviews(self, predicate: Any, what: str) -> list[Any]:
        events = await self.stack.read_until([self.topic_reviews], predicate, what=what)
        return events[self.topic_reviews]

    async def all_reviews(self) -> list[Any]:
        """Every record on the reviews topic up to its current end offsets."""
        consumer = AIOKafkaConsumer(bootstrap_servers=self.stack.bootstrap, group_id=None)
        await consumer.start()
        try:
            parts = consumer.partitions_for_topic(self.topic_reviews) or set()
            tps = [TopicPartition(self.topic_reviews, p) for p in parts]
            total = sum((await consumer.end_offsets(tps)).values()) if tps else 0
        finally:
            await consumer.stop()
        return await self.reviews(
            lambda ev: len(ev[self.topic_reviews]) >= total, f"{total} reviews"
        )

    def close(self) -> None:
        for s in self.servers:
            s.stop()


async def api_queue_ids(server: ReviewServer, token: str, **query: str) -> set[str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(
            f"{server.base}/api/queue",
            params=query,
            headers={"Authorization": f"Bearer {token}"},
        ) as resp,
    ):
        assert resp.status == 200, await resp.text()
        body = await resp.json()
        return {i["answer_id"] for i in body["items"]}


async def wait_queue(
    server: ReviewServer, token: str, want: set[str], wait_s: float = 20.0, **query: str
) -> None:
    """Until the API's queue is exactly `want` (the feed may still be reading verdicts)."""
    deadline = time.monotonic() + wait_s
    while True:
        got = await api_queue_ids(server, token, **query)
        if got == want:
            return
        if time.monotonic() > deadline:
            pytest.fail(f"queue {got} never became {want}\n{server.log()}", pytrace=False)
        await asyncio.sleep(0.1)


def csrf_field(html: str, name: str) -> str:
    m = re.search(rf'name="{name}" value="([^"]+)"', html)
    assert m, html[:2000]
    return m.group(1)
