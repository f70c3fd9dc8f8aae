"""Reading `rag.released` for delivery: each release once, in partition order.

Releases are deduplicated by their deterministic event id (a redelivered input or a restarted
review server may write one twice, always under the same id) within a bounded window. With a
consumer group, offsets are committed only for releases the caller has taken and come back
from, so a delivery service that crashes sees again what it may not have shown.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import AsyncGenerator, Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson
from aiokafka import AIOKafkaConsumer, TopicPartition
from aiokafka.errors import KafkaError

from stream.kafka.clients import broker_error, consumer_kwargs, groupless
from stream.release import RELEASE_SCHEMA
from stream.settings import Settings

log = logging.getLogger("citegate.client")

DEDUP_WINDOW = 100_000
"""Release ids remembered for deduplication (the oldest are forgotten first)."""
COMMIT_EVERY_S = 1.0
"""With a group: how often offsets are committed while releases keep coming."""


@dataclass(frozen=True, slots=True)
class Release:
    """One answer delivery may show: `text` is exactly what the gate verified."""

    event_id: str
    answer_id: str | None
    text: str
    released_by: str
    """`decision` (accepted by the worker) or `review` (published by a reviewer)."""
    trace_id: str | None
    claims: tuple[Mapping[str, Any], ...]
    event: Mapping[str, Any] = field(repr=False)

    @classmethod
    def of(cls, event: Mapping[str, Any]) -> Release:
        return cls(
            str(event["event_id"]),
            event.get("answer_id"),
            str(event["text"]),
            str(event["released_by"]),
            event.get("trace_id"),
            tuple(event.get("claims") or ()),
            event,
        )


def _release(raw: bytes | None) -> Release | None:
    if raw is None:
        return None
    try:
        event = orjson.loads(raw)
        if not isinstance(event, dict) or event.get("schema") != RELEASE_SCHEMA:
            return None
        return Release.of(event)
    except (orjson.JSONDecodeError, KeyError, TypeError):
        return None


async def follow_releases(
    settings: Settings, bootstrap: list[str], group_id: str | None, from_beginning: bool
) -> AsyncGenerator[Release, None]:
    kw = consumer_kwargs(settings, bootstrap)
    kw["auto_offset_reset"] = "earliest" if from_beginning else "latest"
    if group_id is None:
        kw = groupless(kw)
    else:
        kw["group_id"] = group_id
    consumer = AIOKafkaConsumer(**kw, fetch_max_wait_ms=100)
    seen: OrderedDict[str, None] = OrderedDict()
    taken: dict[TopicPartition, int] = {}
    """Offsets past the records the caller took and came back from (what may be committed)."""
    loop = asyncio.get_running_loop()
    committed_at = loop.time()

    async def commit() -> None:
        nonlocal committed_at
        if taken and group_id is not None:
            await consumer.commit(dict(taken))
            taken.clear()
        committed_at = loop.time()

    try:
        await consumer.start()
        if group_id is None:
            await _assign(consumer, settings.topic_released, from_beginning)
        else:
            consumer.subscribe([settings.topic_released])
        while True:
            await commit()
            batches = await consumer.getmany(timeout_ms=500, max_records=500)
            for tp, records in batches.items():
                for r in records:
                    release = _release(r.value)
                    if release is not None and release.event_id not in seen:
                        seen[release.event_id] = None
                        while len(seen) > DEDUP_WINDOW:
                            seen.popitem(last=False)
                        if loop.time() - committed_at >= COMMIT_EVERY_S:
                            await commit()
                        yield release
                    taken[tp] = r.offset + 1
    except (KafkaError, OSError) as exc:
        raise broker_error(exc) from None
    finally:
        with contextlib.suppress(KafkaError, OSError):
            await commit()  # a clean stop resumes right after the last release taken
        with contextlib.suppress(KafkaError, OSError):
            await consumer.stop()


async def _assign(consumer: AIOKafkaConsumer, topic: str, from_beginning: bool) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 15.0
    parts = consumer.partitions_for_topic(topic)
    while not parts and loop.time() < deadline:
        await consumer._client.force_metadata_update()
        parts = consumer.partitions_for_topic(topic)
        if not parts:
            await asyncio.sleep(0.2)
    tps = [TopicPartition(topic, p) for p in sorted(parts or ())]
    consumer.assign(tps)
    if from_beginning:
        await consumer.seek_to_beginning(*tps)
    else:
        await consumer.seek_to_end(*tps)
        for tp in tps:
            await consumer.position(tp)
    log.debug("following %s (%d partitions)", topic, len(tps))
