"""Small Kafka tools behind `citegate produce`, `tail` and the demo: send payloads, read topics.

They live here so that only `stream.kafka`, `stream.worker` and `stream.replay` import aiokafka;
the commands parse arguments and print.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import orjson
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition
from aiokafka.errors import KafkaError

from stream.errors import InputError, UsageError
from stream.kafka.clients import broker_error, consumer_kwargs, groupless, producer_kwargs
from stream.settings import Settings

Payload = tuple[bytes | None, bytes]
"""A record to send: (key, value)."""


async def produce(
    settings: Settings, bootstrap: list[str], topic: str, payloads: list[Payload]
) -> int:
    """Send every payload and wait for all acknowledgements; returns how many were sent.

    An event larger than one produce request is refused up front (one line, nothing sent);
    a broker failure becomes a `BrokerError` from the taxonomy.
    """
    kwargs = producer_kwargs(settings, bootstrap)
    limit = int(kwargs["max_request_size"]) - 1024
    for n, (_, value) in enumerate(payloads, start=1):
        if len(value) > limit:
            raise InputError(
                f"event #{n} is {len(value)} bytes; one produce request holds at most {limit}"
            )
    producer = AIOKafkaProducer(**kwargs)
    try:
        try:
            await producer.start()
            futures = [await producer.send(topic, key=k, value=v) for k, v in payloads]
            await asyncio.gather(*futures)
        finally:
            await producer.stop()
    except (KafkaError, OSError) as exc:
        raise broker_error(exc) from None
    return len(futures)


def tail_line(record: Any) -> dict[str, Any]:
    """One consumed record as `citegate tail` prints it (JSON values decoded when they are)."""
    try:
        value: Any = orjson.loads(record.value) if record.value is not None else None
    except orjson.JSONDecodeError:
        value = record.value.decode("utf-8", "backslashreplace")
    return {
        "topic": record.topic,
        "partition": record.partition,
        "offset": record.offset,
        "key": record.key.decode("utf-8", "backslashreplace") if record.key else None,
        "value": value,
    }


async def tail(
    settings: Settings,
    bootstrap: list[str],
    topic: str,
    from_beginning: bool,
    limit: int | None,
    idle_timeout: float | None,
    emit: Callable[[dict[str, Any]], None],
) -> int:
    """Read `topic` (all partitions, no group) and `emit` each record; returns the count."""
    consumer = AIOKafkaConsumer(**groupless(consumer_kwargs(settings, bootstrap)))
    try:
        await consumer.start()
    except (KafkaError, OSError) as exc:
        await consumer.stop()
        raise broker_error(exc) from None
    count = 0
    try:
        await consumer.topics()  # fresh metadata: a missing topic is told apart from a new one
        parts = consumer.partitions_for_topic(topic) or set()
        tps = [TopicPartition(topic, p) for p in sorted(parts)]
        if not tps:
            raise UsageError(f"topic {topic!r} does not exist")
        consumer.assign(tps)
        if from_beginning:
            await consumer.seek_to_beginning(*tps)
        else:
            await consumer.seek_to_end(*tps)
        loop = asyncio.get_running_loop()
        last = loop.time()
        while limit is None or count < limit:
            batches = await consumer.getmany(timeout_ms=500)
            if not batches and idle_timeout is not None and loop.time() - last > idle_timeout:
                break
            for record in _flatten(batches.values()):
                last = loop.time()
                emit(tail_line(record))
                count += 1
                if limit is not None and count >= limit:
                    break
    except (KafkaError, OSError) as exc:
        raise broker_error(exc) from None
    finally:
        await consumer.stop()
    return count


def _flatten(batches: Iterable[list[Any]]) -> Iterator[Any]:
    for records in batches:
        yield from records


async def collect(
    bootstrap: str,
    topics: Iterable[str],
    until: Callable[[dict[str, list[dict[str, Any]]]], bool],
    wait_s: float,
) -> dict[str, list[dict[str, Any]]]:
    """Read JSON topics from the beginning until `until(events)` holds or `wait_s` passes."""
    consumer = AIOKafkaConsumer(
        bootstrap_servers=bootstrap,
        group_id=None,
        enable_auto_commit=False,
        auto_offset_reset="earliest",
    )
    await consumer.start()
    events: dict[str, list[dict[str, Any]]] = {t: [] for t in topics}
    try:
        tps = [
            TopicPartition(t, p)
            for t in topics
            for p in sorted(consumer.partitions_for_topic(t) or {0})
        ]
        consumer.assign(tps)
        await consumer.seek_to_beginning(*tps)
        deadline = time.monotonic() + wait_s
        while not until(events) and time.monotonic() < deadline:
            for tp, records in (await consumer.getmany(timeout_ms=300)).items():
                events[tp.topic].extend(orjson.loads(r.value) for r in records)
    finally:
        await consumer.stop()
    return events
