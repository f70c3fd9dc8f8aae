"""What the fault scenarios share: the figures row, the workload, the decisions tailer and
the supervisor that restarts exited workers (tests.faults.suite, tests.faults.durable)."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from aiokafka import AIOKafkaConsumer, TopicPartition

from tests.integration.conftest import Stack, demo_answers

TARGET_RECOVER_S = 30.0
DECIDE_WAIT_S = 90.0
"""Upper bound of every wait for decisions; past it the missing answers count as lost."""


@dataclass
class Row:
    scenario: str
    sent: int = 0
    decided: int = 0
    lost: int = 0
    duplicates: int = 0
    wrong_accepts: int | None = None
    recover_s: float | None = None
    restarts: int = 0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    """Targets of the scenario's own that were missed (e.g. /readyz never said `stalled`)."""

    def ok(self) -> bool:
        return (
            not self.failures
            and self.lost == 0
            and not self.wrong_accepts
            and self.recover_s is not None
            and self.recover_s <= TARGET_RECOVER_S
        )


def workload(prefix: str, n: int) -> list[dict[str, Any]]:
    """`n` answers cycling through the demo answers, each with its own answer and event id."""
    demo = demo_answers()
    out = []
    for i in range(n):
        a = copy.deepcopy(demo[i % len(demo)])
        a["answer_id"] = f"{prefix}-{i:04d}-{a['answer_id']}"
        a["event_id"] = f"evt-{prefix}-{i:04d}"
        out.append(a)
    return out


def demo_id(answer: dict[str, Any]) -> str:
    return str(answer["answer_id"]).split("-", 2)[2]


class Decisions:
    """Tails the decisions topic (no group) and keeps every decision by answer id."""

    def __init__(self, stack: Stack) -> None:
        self.stack = stack
        self.by_answer: dict[str, list[dict[str, Any]]] = {}
        self.consumer: AIOKafkaConsumer | None = None

    async def start(self) -> None:
        self.consumer = AIOKafkaConsumer(
            bootstrap_servers=self.stack.bootstrap,
            group_id=None,
            enable_auto_commit=False,
            auto_offset_reset="earliest",
            fetch_max_wait_ms=100,
        )
        await self.consumer.start()
        await self._assign()

    async def _assign(self) -> None:
        assert self.consumer is not None
        topic = self.stack.topic_decisions
        parts: set[int] | None = None
        for _ in range(300):  # bounded: 60 s for the topic to exist
            await self.consumer._client.force_metadata_update()
            parts = self.consumer.partitions_for_topic(topic)
            if parts:
                break
            await asyncio.sleep(0.2)
        if not parts:
            raise RuntimeError(f"topic {topic} does not exist after 60 s")
        tps = [TopicPartition(topic, p) for p in sorted(parts)]
        self.consumer.assign(tps)
        await self.consumer.seek_to_beginning(*tps)

    async def stop(self) -> None:
        if self.consumer is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.consumer.stop(), 10)

    async def restart(self) -> None:
        """After a broker restart: a new consumer, everything read again from the start."""
        await self.stop()
        self.by_answer.clear()
        await self.start()

    async def poll(self) -> None:
        """Read what has arrived so far (one fetch)."""
        assert self.consumer is not None
        batches = await self.consumer.getmany(timeout_ms=100)
        for records in batches.values():
            for r in records:
                event = orjson.loads(r.value)
                self.by_answer.setdefault(event["answer_id"], []).append(event)

    async def wait(self, answer_ids: set[str], wait_s: float = DECIDE_WAIT_S) -> float | None:
        """Seconds until every id has a decision (from now), or None at the deadline."""
        assert self.consumer is not None
        started = time.monotonic()
        while not answer_ids <= self.by_answer.keys():
            if time.monotonic() - started > wait_s:
                return None
            await self.poll()
        return time.monotonic() - started

    def duplicates(self) -> int:
        return sum(len({d["event_id"] for d in ds}) - 1 for ds in self.by_answer.values())

    def status(self, answer_id: str) -> str | None:
        ds = self.by_answer.get(answer_id)
        return ds[-1]["final_status"] if ds else None


class Supervisor:
    """Restarts worker processes that exit, like a process supervisor (bounded checks)."""

    def __init__(self, stack: Stack, env: dict[str, str] | None = None) -> None:
        self.stack = stack
        self.env = env or {}
        self.restarts = 0
        self.exit_codes: list[int] = []
        self.paused = False
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(0.2)
            if self.paused:
                continue
            for w in list(self.stack.workers):
                if w.running() or getattr(w, "replaced", False):
                    continue
                w.replaced = True  # type: ignore[attr-defined]
                self.exit_codes.append(w.proc.returncode)
                self.restarts += 1
                self.stack._spawn(self.env)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def live(self) -> list[Any]:
        return [w for w in self.stack.workers if w.running()]


async def produce(stack: Stack, answers: list[dict[str, Any]], **kw: Any) -> None:
    await stack.produce_answers(answers, **kw)


async def new_stack(root: Path, bootstrap: str, name: str, **kw: Any) -> Stack:
    stack = Stack(bootstrap, root / name, kw.pop("env", {}), kw.pop("store", None))
    await stack.setup([])
    return stack


def finish(row: Row, decisions: Decisions, sent: list[dict[str, Any]]) -> Row:
    ids = {a["answer_id"] for a in sent}
    row.sent = len(ids)
    row.decided = len(ids & decisions.by_answer.keys())
    row.lost = row.sent - row.decided
    row.duplicates = decisions.duplicates()
    return row
