"""The duplicate index (`SeenEvents`) and its changelog (`SeenLog`) against in-memory fakes."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from typing import Any

import orjson
import pytest
from aiokafka import TopicPartition

from stream.errors import StalledError
from stream.metrics import Metrics
from stream.worker.app import StageService
from stream.worker.dedup import IndexRestoreError, SeenEvents, SeenLog
from tests.unit.fakes import Clock, FakeProducer, Sent, settings


class LogConsumer:
    """Reads what a `FakeProducer` acknowledged on one topic, like a groupless consumer."""

    def __init__(self, producer: FakeProducer, topic: str, partitions: int, *, stuck: bool = False):
        self.producer = producer
        self.topic = topic
        self.partitions = partitions
        self.stuck = stuck
        self.read = 0
        self.tps: list[TopicPartition] = []

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None

    def partitions_for_topic(self, topic: str) -> set[int] | None:
        return set(range(self.partitions)) if self.partitions else None

    @property
    def _client(self) -> Any:
        class Client:
            async def force_metadata_update(self) -> bool:
                return True

        return Client()

    def assign(self, tps: list[TopicPartition]) -> None:
        self.tps = tps

    async def seek_to_beginning(self, *tps: TopicPartition) -> None:
        self.read = 0

    async def getmany(self, timeout_ms: int = 0, max_records: int = 500) -> dict[Any, list[Any]]:
        await asyncio.sleep(0.001)
        if self.stuck:
            return {}
        mine = [s for s in self.producer.sent if s.topic == self.topic][self.read :]
        self.read += len(mine)
        out: dict[Any, list[Any]] = {}
        for s in mine:
            out.setdefault(TopicPartition(self.topic, s.partition or 0), []).append(s)
        return out


def seen_log(
    producer: FakeProducer, partitions: int = 2, *, stuck: bool = False, window: float = 3600
) -> tuple[SeenLog, Metrics, Clock]:
    clock = Clock()
    metrics = Metrics()
    log = SeenLog("seen", SeenEvents(window, clock=clock), producer, {}, metrics, clock=clock)  # type: ignore[arg-type]
    consumer = LogConsumer(producer, "seen", partitions, stuck=stuck)
    log._consumer_factory = lambda: consumer  # type: ignore[method-assign]
    return log, metrics, clock


def _sent(key: bytes, value: bytes, partition: int) -> Sent:
    return Sent("seen", key, value, partition)


async def test_restore_reads_new_and_old_marks_and_counts_malformed_ones(
    caplog: pytest.LogCaptureFixture,
) -> None:
    producer = FakeProducer()
    log, metrics, clock = seen_log(producer)
    producer.sent += [
        _sent(b"e-new", orjson.dumps({"at": clock.now, "digest": "ab" * 32}), 0),
        _sent(b"e-old", orjson.dumps({"at": clock.now}), 1),  # written before digests existed
        _sent(b"e-bad", b"not json", 0),
        _sent(b"e-bad2", orjson.dumps({"at": "yesterday"}), 1),
    ]
    caplog.set_level(logging.WARNING)
    assert await log.restore(timeout_s=5) == 2
    assert log.seen.digest("e-new") == "ab" * 32
    assert log.seen.digest("e-old") == ""
    assert log.seen.digest("e-bad") is None
    assert log.malformed == 2
    assert metrics.registry.get_sample_value("citegate_seen_marks_malformed_total") == 2
    assert any("malformed" in r.getMessage() for r in caplog.records)
    await log.stop()


async def test_restore_timeout_fails_instead_of_reporting_a_partial_index() -> None:
    producer = FakeProducer()
    log, _, _ = seen_log(producer, stuck=True)
    with pytest.raises(IndexRestoreError, match="timed out"):
        await log.restore(timeout_s=0.05)


async def test_restore_of_a_topic_without_partitions_is_a_clear_error() -> None:
    log, _, _ = seen_log(FakeProducer(), partitions=0)
    with pytest.raises(IndexRestoreError, match="no partitions"):
        await log.restore(timeout_s=0.3)


async def test_marks_carry_the_digest_and_are_read_back() -> None:
    producer = FakeProducer()
    log, _, _ = seen_log(producer)
    await log.mark([("e-1", "cd" * 32)])
    [sent] = producer.sent
    assert orjson.loads(sent.value or b"")["digest"] == "cd" * 32
    other, _, _ = seen_log(producer)
    await other.restore(timeout_s=5)
    assert other.seen.digest("e-1") == "cd" * 32
    await other.stop()


def test_seen_events_expire_after_the_window_and_keep_at_most_max_entries() -> None:
    clock = Clock()
    seen = SeenEvents(10, max_entries=3, clock=clock)
    for i in range(5):
        seen.add(f"e{i}", digest=str(i))
    assert len(seen) == 3
    assert not seen.contains("e0")
    assert not seen.contains("e1")
    assert seen.digest("e4") == "4"
    clock.now += 11
    assert not seen.contains("e4")
    seen.add("stale", seen_at=clock.now - 20)
    assert not seen.contains("stale")


async def test_a_service_whose_setup_fails_marks_itself_failed_and_stops_the_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    kills: list[tuple[int, int]] = []
    monkeypatch.setattr(os, "kill", lambda pid, sig: kills.append((pid, sig)))
    service = StageService(settings(), ["127.0.0.1:1"], Metrics())

    async def broken() -> Any:
        raise IndexRestoreError("restore timed out")

    monkeypatch.setattr(service, "_setup", broken)
    await service._run()
    assert service.failed
    assert not service.healthy
    assert service.readiness() == {"ready": False, "state": "failed"}
    assert kills == [(os.getpid(), signal.SIGTERM)]


async def test_a_failed_stage_leaves_its_group_before_the_process_stops(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Leaving comes first: a member that lingers through the shutdown keeps rejoining."""
    events: list[str] = []
    monkeypatch.setattr(os, "kill", lambda pid, sig: events.append("kill"))
    service = StageService(settings(), ["127.0.0.1:1"], Metrics())

    class Consumer:
        async def stop(self) -> None:
            events.append("leave")

    class Loop:
        async def run(self) -> None:
            raise StalledError("the broker lost its data")

        def stop(self) -> None:
            pass

    async def setup() -> Any:
        service.consumer = Consumer()  # type: ignore[assignment]
        return Loop()

    monkeypatch.setattr(service, "_setup", setup)
    await service._run()
    assert events == ["leave", "kill"]
    assert service.failed
