"""The duplicate index: input `event_id`s seen within a time window, and its Kafka changelog.

`SeenEvents` is the bounded in-memory index the stage consults. `SeenLog` keeps it durable in a
compacted topic (`<group>.seen-events`) keyed by input `event_id`: the worker appends to it
*after* an answer's outputs are acknowledged and *before* its offset is committed, so a crash
between the two yields the same outputs again, with the same deterministic ids — never a lost
answer. Restoring reads the topic from the beginning up to a sentinel this process appends to
every partition, instead of trusting `end_offsets` (Tansu reports the first offset of the last
batch there, which would silently skip the tail). After that a background task keeps tailing, so
marks written by other workers of the group reach this worker's index too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import orjson
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition

from stream.kafka.clients import groupless

log = logging.getLogger("citegate.seen")
SENTINEL_PREFIX = b"__citegate_sentinel__:"


class SeenEvents:
    """event_id -> first-seen wall time, expiring after `window_s`, at most `max_entries`."""

    def __init__(
        self,
        window_s: float,
        max_entries: int = 1_000_000,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.window_s = window_s
        self.max_entries = max_entries
        self._clock = clock
        self._seen: OrderedDict[str, float] = OrderedDict()

    def __len__(self) -> int:
        return len(self._seen)

    def contains(self, event_id: str) -> bool:
        seen_at = self._seen.get(event_id)
        if seen_at is None:
            return False
        if self._clock() - seen_at > self.window_s:
            del self._seen[event_id]
            return False
        return True

    def add(self, event_id: str, seen_at: float | None = None) -> None:
        """Remember `event_id`; restoring from the changelog passes the original time."""
        at = self._clock() if seen_at is None else seen_at
        if self._clock() - at > self.window_s:
            return
        self._seen[event_id] = at
        self._seen.move_to_end(event_id)
        self._expire()

    def _expire(self) -> None:
        now = self._clock()
        while self._seen:
            oldest_id, oldest_at = next(iter(self._seen.items()))
            if now - oldest_at <= self.window_s and len(self._seen) <= self.max_entries:
                break
            del self._seen[oldest_id]


class SeenLog:
    def __init__(
        self,
        topic: str,
        seen: SeenEvents,
        producer: AIOKafkaProducer,
        consumer_kwargs: dict[str, Any],
    ) -> None:
        self.topic = topic
        self.seen = seen
        self.producer = producer
        self._consumer_kwargs = groupless(consumer_kwargs)
        self._consumer: AIOKafkaConsumer | None = None
        self._tail: asyncio.Task[None] | None = None
        self.restored = 0

    async def restore(self, timeout_s: float = 60.0) -> int:
        """Load every mark still inside the window; returns how many were loaded."""
        consumer = AIOKafkaConsumer(**self._consumer_kwargs)
        await consumer.start()
        self._consumer = consumer
        partitions = sorted(consumer.partitions_for_topic(self.topic) or ())
        if not partitions:
            await consumer._client.force_metadata_update()
            partitions = sorted(consumer.partitions_for_topic(self.topic) or ())
        tps = [TopicPartition(self.topic, p) for p in partitions]
        consumer.assign(tps)
        await consumer.seek_to_beginning(*tps)
        token = SENTINEL_PREFIX + uuid.uuid4().hex.encode()
        sends = [
            await self.producer.send(self.topic, key=token, value=None, partition=tp.partition)
            for tp in tps
        ]
        await asyncio.gather(*sends)
        pending = set(tps)
        deadline = time.monotonic() + timeout_s
        while pending and time.monotonic() < deadline:
            batches = await consumer.getmany(timeout_ms=500, max_records=5000)
            for tp, records in batches.items():
                for record in records:
                    if record.key == token:
                        pending.discard(tp)
                    else:
                        self._apply(record.key, record.value)
        if pending:
            log.warning("seen-events restore timed out on %d partitions", len(pending))
        self.restored = len(self.seen)
        self._tail = asyncio.create_task(self._tail_forever(consumer))
        return self.restored

    def _apply(self, key: bytes | None, value: bytes | None) -> None:
        if key is None or key.startswith(SENTINEL_PREFIX) or value is None:
            return
        try:
            at = float(orjson.loads(value)["at"])
        except (orjson.JSONDecodeError, KeyError, TypeError, ValueError):
            return
        self.seen.add(key.decode("utf-8", "replace"), at)

    async def _tail_forever(self, consumer: AIOKafkaConsumer) -> None:
        while True:
            try:
                batches = await consumer.getmany(timeout_ms=1000, max_records=5000)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("seen-events tail failed; retrying")
                await asyncio.sleep(1.0)
                continue
            for records in batches.values():
                for record in records:
                    self._apply(record.key, record.value)

    async def mark(self, event_ids: list[str]) -> None:
        """Record processed event ids; awaited before the input offsets are committed."""
        if not event_ids:
            return
        now = time.time()
        value = orjson.dumps({"at": now})
        futures = [
            await self.producer.send(self.topic, key=e.encode("utf-8"), value=value)
            for e in event_ids
        ]
        await asyncio.gather(*futures)
        for e in event_ids:
            self.seen.add(e, now)

    async def stop(self) -> None:
        if self._tail is not None:
            self._tail.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._tail
        if self._consumer is not None:
            await self._consumer.stop()
