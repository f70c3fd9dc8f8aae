"""In-memory stand-ins for the Kafka clients the worker drives, in the manner of Quix Streams'
list-backed sinks: records live in Python lists, failures are scripted per call, and a clock
is advanced by the fake `sleep` instead of wall time passing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import orjson
from aiokafka import TopicPartition
from aiokafka.errors import KafkaConnectionError
from aiokafka.structs import OffsetAndMetadata

from stream.checkers.factory import make_checker
from stream.corpus.cache import CorpusCache
from stream.corpus.filestore import FileStore
from stream.metrics import Metrics
from stream.settings import Settings
from stream.stage import Stage
from stream.worker.dedup import SeenEvents, SeenLog
from stream.worker.loop import StageLoop

DEMO = Path(str(resources.files("stream").joinpath("demo")))
TOPIC = "in"
OUTPUT_TOPICS = ("verdicts", "decisions", "dlq", "released", "seen")


def demo_answers() -> list[dict[str, Any]]:
    lines = (DEMO / "answers.jsonl").read_bytes().splitlines()
    return [orjson.loads(line) for line in lines if line]


@dataclass(frozen=True, slots=True)
class Rec:
    """What the loop reads off an aiokafka `ConsumerRecord`."""

    topic: str
    partition: int
    offset: int
    key: bytes | None
    value: bytes | None
    headers: tuple[tuple[str, bytes], ...] = ()


class Clock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        await asyncio.sleep(0)


class FakeCluster:
    def __init__(self, topics: set[str]) -> None:
        self._topics = topics

    def topics(self, exclude_internal_topics: bool = True) -> set[str]:
        return set(self._topics)


class FakeClient:
    def __init__(self, topics: set[str]) -> None:
        self.cluster = FakeCluster(topics)
        self.reachable = True

    async def force_metadata_update(self) -> bool:
        return self.reachable

    async def fetch_all_metadata(self) -> FakeCluster:
        if not self.reachable:
            raise KafkaConnectionError("broker unreachable")
        return self.cluster


@dataclass
class FakeCoordinator:
    """The group membership the loop compares to see a rejoin, and the group's offsets."""

    commits: dict[TopicPartition, int]
    member_id: str = "member-1"
    generation: int = 1
    fetches: int = 0

    async def fetch_committed_offsets(
        self, tps: list[TopicPartition]
    ) -> dict[TopicPartition, OffsetAndMetadata]:
        self.fetches += 1
        return {tp: OffsetAndMetadata(self.commits[tp], "") for tp in tps if tp in self.commits}


class FakeConsumer:
    """Partitions are lists; `getmany` reads from per-partition positions, `seek` rewinds."""

    def __init__(self, topic: str = TOPIC, partitions: int = 1) -> None:
        self.topic = topic
        self.logs: dict[TopicPartition, list[Rec]] = {
            TopicPartition(topic, p): [] for p in range(partitions)
        }
        self.positions = dict.fromkeys(self.logs, 0)
        self.commits: dict[TopicPartition, int] = {}
        self.commit_error: Callable[[], BaseException | None] = lambda: None
        self.on_empty: Callable[[], None] | None = None
        self._client = FakeClient({topic, *OUTPUT_TOPICS})
        self._coordinator = FakeCoordinator(self.commits)
        self.assigned: list[TopicPartition] = list(self.logs)
        self.stuck = False

    def append(
        self,
        value: bytes | None,
        key: bytes | None = None,
        partition: int = 0,
        headers: tuple[tuple[str, bytes], ...] = (),
    ) -> int:
        tp = TopicPartition(self.topic, partition)
        log = self.logs[tp]
        log.append(Rec(self.topic, partition, len(log), key, value, headers))
        return len(log) - 1

    async def getmany(self, timeout_ms: int = 0, max_records: int = 500) -> dict[Any, list[Rec]]:
        out: dict[Any, list[Rec]] = {}
        for tp in [] if self.stuck else self.assigned:
            records = self.logs[tp][self.positions[tp] : self.positions[tp] + max_records]
            if records:
                out[tp] = records
                self.positions[tp] += len(records)
        if not out and self.on_empty is not None:
            self.on_empty()
        await asyncio.sleep(0)
        return out

    def seek(self, tp: TopicPartition, offset: int) -> None:
        self.positions[tp] = offset

    async def commit(self, offsets: dict[TopicPartition, int]) -> None:
        error = self.commit_error()
        if error is not None:
            raise error
        self.commits.update(offsets)

    def assignment(self) -> set[TopicPartition]:
        return set(self.assigned)

    def highwater(self, tp: TopicPartition) -> int:
        return len(self.logs[tp])

    async def end_offsets(self, tps: list[TopicPartition]) -> dict[TopicPartition, int]:
        return {tp: len(self.logs[tp]) for tp in tps}

    async def peek(self, tp: TopicPartition, offset: int) -> bool:
        """The broker's view, whatever the (possibly stuck) group consumer fetches."""
        return len(self.logs[tp]) > offset

    async def committed(self, tp: TopicPartition) -> int | None:
        return self.commits.get(tp)

    async def position(self, tp: TopicPartition) -> int:
        if self.stuck:
            return 0  # a consumer that holds partitions and never fetches
        return self.positions[tp]


@dataclass
class Sent:
    topic: str
    key: bytes | None
    value: bytes | None
    partition: int | None = None
    headers: tuple[tuple[str, bytes], ...] = ()

    def json(self) -> Any:
        return orjson.loads(self.value or b"null")


@dataclass
class FakeProducer:
    """Acknowledged records land in `sent`; `fail(record)` may return an exception instead."""

    sent: list[Sent] = field(default_factory=list)
    fail: Callable[[Sent], BaseException | None] = lambda _: None
    attempts: int = 0

    async def send(
        self,
        topic: str,
        value: bytes | None = None,
        key: bytes | None = None,
        partition: Any = None,
        headers: list[tuple[str, bytes]] | None = None,
    ) -> asyncio.Future[None]:
        self.attempts += 1
        record = Sent(topic, key, value, partition, tuple(headers or ()))
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        error = self.fail(record)
        if error is None:
            self.sent.append(record)
            future.set_result(None)
        else:
            future.set_exception(error)
        return future

    def on(self, topic: str) -> list[Any]:
        return [r.json() for r in self.sent if r.topic == topic]


def settings(**changes: Any) -> Settings:
    return Settings(
        topic_answers=TOPIC,
        topic_verdicts="verdicts",
        topic_decisions="decisions",
        topic_dlq="dlq",
        topic_released="released",
        store=str(DEMO / "corpus.jsonl"),
    ).with_(**changes)


@dataclass
class Rig:
    """A `StageLoop` wired to fakes: consumer, producer, the demo corpus, a fake clock."""

    settings: Settings
    consumer: FakeConsumer
    producer: FakeProducer
    metrics: Metrics
    stage: Stage
    seen: SeenEvents
    seen_log: SeenLog
    loop: StageLoop
    clock: Clock

    def decisions(self) -> list[Any]:
        return self.producer.on("decisions")

    def dead_letters(self) -> list[Any]:
        return self.producer.on("dlq")

    def releases(self) -> list[Any]:
        return self.producer.on("released")

    async def drain(self, max_rounds: int = 50) -> None:
        """Run the loop until every input is committed (bounded by rounds, not time)."""

        def done() -> bool:
            return all(
                self.consumer.commits.get(tp, 0) >= len(log)
                for tp, log in self.consumer.logs.items()
            )

        rounds = 0

        def stop_when_done() -> None:
            nonlocal rounds
            rounds += 1
            if done() or rounds >= max_rounds:
                self.loop.stop()

        self.consumer.on_empty = stop_when_done
        await asyncio.wait_for(self.loop.run(), 20)
        assert done(), f"not everything was committed: {self.consumer.commits}"


def rig(*, checker: Any = None, stall_s: float = 60.0, partitions: int = 1, **changes: Any) -> Rig:
    s = settings(**changes)
    metrics = Metrics()
    consumer = FakeConsumer(TOPIC, partitions)
    producer = FakeProducer()
    clock = Clock()
    cache = CorpusCache(FileStore(s.store), retries=1, backoff_s=0)
    seen = SeenEvents(s.dedup_window_s, clock=clock)
    seen_log = SeenLog("seen", seen, producer, {}, metrics, clock=clock)  # type: ignore[arg-type]
    stage = Stage(s, cache, checker or make_checker("rules", s, metrics), metrics, seen)
    loop = StageLoop(
        stage,
        consumer,
        producer,
        seen_log,
        metrics,
        batch_max_records=s.batch_max_records,
        stall_s=stall_s,
        clock=clock,
        sleep=clock.sleep,
        peek=consumer.peek,
        required_topics=[TOPIC, *OUTPUT_TOPICS],
    )
    return Rig(s, consumer, producer, metrics, stage, seen, seen_log, loop, clock)
