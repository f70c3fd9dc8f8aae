"""`citegate broker --storage s3://…` on a local S3 store (moto's server): a broker killed with
SIGKILL and started again has its topics, its records and the group's committed offsets."""

from __future__ import annotations

import asyncio
import os
import select
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition

from stream.kafka.embedded import create_topics, find_free_port
from stream.kafka.storage import parse_storage, prepare
from tests.integration.conftest import service_missing
from tests.integration.s3 import SECRET_KEY, MotoServer, moto_missing

pytestmark = [pytest.mark.integration, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]
TOPIC = "durable.answers"
GROUP = "durable-group"


@pytest.fixture(scope="module")
def s3() -> Iterator[MotoServer]:
    missing = moto_missing()
    if missing:
        service_missing(missing)
    with MotoServer() as server:
        yield server


class CliBroker:
    """`citegate broker` as a user runs it; its address is the first line it prints."""

    def __init__(self, s3: MotoServer, bucket: str, port: int, log: Path) -> None:
        cmd = [sys.executable, "-m", "stream.cli", "broker", "--port", str(port)]
        cmd += ["--storage", f"s3://{bucket}/"]
        self.log = log
        with log.open("ab") as err:
            self.proc = subprocess.Popen(
                cmd, cwd=ROOT, env={**os.environ, **s3.env}, stdout=subprocess.PIPE, stderr=err
            )
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], 60)
        line = self.proc.stdout.readline().decode().strip() if ready else ""
        assert line.startswith("kafka://"), f"no address from citegate broker: {log.read_text()}"
        self.bootstrap = line.removeprefix("kafka://")

    def kill(self) -> None:
        """SIGKILL: the Tansu child dies with its parent (PR_SET_PDEATHSIG)."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        host, port = self.bootstrap.split(":")
        deadline = time.monotonic() + 10
        while _port_open(host, int(port)):
            assert time.monotonic() < deadline, "the broker outlived citegate broker"
            time.sleep(0.1)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()


def _port_open(host: str, port: int) -> bool:
    import socket

    try:
        with socket.create_connection((host, port), timeout=0.3):
            return True
    except OSError:
        return False


async def _produce(bootstrap: str, values: list[bytes]) -> None:
    producer = AIOKafkaProducer(bootstrap_servers=bootstrap, enable_idempotence=False, acks="all")
    await producer.start()
    try:
        for i, value in enumerate(values):
            await producer.send_and_wait(TOPIC, value, key=f"k{i % 7}".encode())
    finally:
        await producer.stop()


def _consumer(bootstrap: str, group: str | None) -> AIOKafkaConsumer:
    return AIOKafkaConsumer(
        bootstrap_servers=bootstrap,
        group_id=group,
        enable_auto_commit=False,
        auto_offset_reset="earliest",
    )


async def _read(consumer: AIOKafkaConsumer, count: int, wait_s: float = 30) -> list[bytes]:
    got: list[bytes] = []
    deadline = time.monotonic() + wait_s
    while len(got) < count and time.monotonic() < deadline:
        for records in (await consumer.getmany(timeout_ms=500)).values():
            got += [r.value for r in records if r.value is not None]
    return got


async def test_a_restarted_s3_broker_keeps_topics_records_and_group_offsets(
    s3: MotoServer, tmp_path: Path
) -> None:
    bucket = f"citegate-{uuid.uuid4().hex[:10]}"  # not there yet: the broker creates it
    port = find_free_port()
    first = [f"before-{i}".encode() for i in range(30)]
    later = [f"after-commit-{i}".encode() for i in range(9)]
    broker = CliBroker(s3, bucket, port, tmp_path / "broker-1.log")
    try:
        await create_topics(broker.bootstrap, [TOPIC], 3)
        await _produce(broker.bootstrap, first)
        group = _consumer(broker.bootstrap, GROUP)
        group.subscribe([TOPIC])
        await group.start()
        try:
            assert sorted(await _read(group, len(first))) == sorted(first)
            await group.commit()
            committed = {tp: await group.committed(tp) for tp in group.assignment()}
        finally:
            await group.stop()
        await _produce(broker.bootstrap, later)  # written, never consumed by the group
        broker.kill()
    finally:
        broker.stop()
    assert sum(v or 0 for v in committed.values()) == len(first)

    broker = CliBroker(s3, bucket, port, tmp_path / "broker-2.log")
    try:
        reader = _consumer(broker.bootstrap, None)
        await reader.start()
        try:
            await reader._client.force_metadata_update()
            assert reader.partitions_for_topic(TOPIC) == {0, 1, 2}
            tps = [TopicPartition(TOPIC, p) for p in range(3)]
            reader.assign(tps)
            await reader.seek_to_beginning(*tps)
            everything = await _read(reader, len(first) + len(later))
        finally:
            await reader.stop()
        assert sorted(everything) == sorted(first + later)

        group = _consumer(broker.bootstrap, GROUP)
        group.subscribe([TOPIC])
        await group.start()
        try:
            resumed = await _read(group, len(later))
            assert {tp: await group.committed(tp) for tp in group.assignment()} == committed
        finally:
            await group.stop()
        assert sorted(resumed) == sorted(later)  # from the committed offsets: nothing re-read
    finally:
        broker.stop()
    logs = await asyncio.to_thread(lambda: [p.read_text() for p in tmp_path.glob("broker-*.log")])
    assert logs
    assert all(SECRET_KEY not in text for text in logs)


def test_the_bucket_is_created_once_and_then_found(s3: MotoServer) -> None:
    storage = parse_storage(f"s3://citegate-{uuid.uuid4().hex[:10]}/")
    first = prepare(storage, s3.env)
    assert first.endswith("(created)"), first
    assert prepare(storage, s3.env) == first.removesuffix(" (created)")
    assert SECRET_KEY not in first
