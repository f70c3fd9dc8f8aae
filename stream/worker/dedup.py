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
from aiokafka.errors import KafkaError

from stream.codec import encode
from stream.errors import BrokerError
from stream.kafka.clients import groupless
from stream.metrics import Metrics

log = logging.getLogger("citegate.seen")
SENTINEL_PREFIX = b"__citegate_sentinel__:"


class SeenEvents:
    """event_id -> (first-seen wall time, content digest), expiring after `window_s`, at most
    `max_entries` (the oldest go first). A digest of "" means unknown (a mark written before
    digests were recorded): such an id is a duplicate whatever the content."""

    def __init__(
        self,
        window_s: float,
        max_entries: int = 1_000_000,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.window_s = window_s
        self.max_entries = max_entries
        self._clock = clock
        self._seen: OrderedDict[str, tuple[float, str]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._seen)

    def contains(self, event_id: str) -> bool:
        return self.digest(event_id) is not None

    def digest(self, event_id: str) -> str | None:
        """The content digest remembered for `event_id` ("" if unknown), None if not seen."""
        entry = self._seen.get(event_id)
        if entry is None:
            return None
        if self._clock() - entry[0] > self.window_s:
            del self._seen[event_id]
            return None
        return entry[1]

    def add(self, event_id: str, seen_at: float | None = None, digest: str = "") -> None:
        """Remember `event_id`; restoring from the changelog passes the original time."""
        at = self._clock() if seen_at is None else seen_at
        if self._clock() - at > self.window_s:
            return
        self._seen[event_id] = (at, digest)
        self._seen.move_to_end(event_id)
        self._expire()

    def _expire(self) -> None:
        now = self._clock()
        while self._seen:
            oldest_id, (oldest_at, _) = next(iter(self._seen.items()))
            if now - oldest_at <= self.window_s and len(self._seen) <= self.max_entries:
                break
            del self._seen[oldest_id]


class IndexRestoreError(BrokerError):
    """The duplicate index could not be restored completely."""

    code = "index_restore_failed"


class SeenLog:
    def __init__(
        self,
        topic: str,
        seen: SeenEvents,
        producer: AIOKafkaProducer,
        consumer_kwargs: dict[str, Any],
        metrics: Metrics | None = None,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.topic = topic
        self.metrics = metrics
        self._clock = clock
        self.malformed = 0
        self.seen = seen
        self.producer = producer
        self._consumer_kwargs = groupless(consumer_kwargs)
        self._consumer: AIOKafkaConsumer | None = None
        self._tail: asyncio.Task[None] | None = None
        self.restored = 0

    def _consumer_factory(self) -> Any:
        return AIOKafkaConsumer(**self._consumer_kwargs)

    async def restore(self, timeout_s: float = 60.0) -> int:
        """Load every mark still inside the window; returns how many were loaded.

        Raises `IndexRestoreError` (retriable) when the topic has no partitions or the restore
        does not reach every partition's sentinel in time: a worker must not consume with a
        silently partial index, so it fails and its supervisor restarts it.
        """
        deadline = time.monotonic() + timeout_s
        consumer = self._consumer_factory()
        await consumer.start()
        self._consumer = consumer
        partitions = sorted(consumer.partitions_for_topic(self.topic) or ())
        while not partitions and time.monotonic() < deadline:
            await consumer._client.force_metadata_update()
            partitions = sorted(consumer.partitions_for_topic(self.topic) or ())
            if not partitions:
                await asyncio.sleep(0.2)
        if not partitions:
            raise IndexRestoreError(f"duplicate-index topic {self.topic!r} has no partitions")
        tps = [TopicPartition(self.topic, p) for p in partitions]
        consumer.assign(tps)
        await consumer.seek_to_beginning(*tps)
        token = SENTINEL_PREFIX + uuid.uuid4().hex.encode()
        while True:
            try:
                sends = [
                    await self.producer.send(
                        self.topic, key=token, value=None, partition=tp.partition
                    )
                    for tp in tps
                ]
                await asyncio.gather(*sends)
                break
            except KafkaError as exc:
                # Seen right after a broker restart (Tansu answers UnknownError for a while).
                if time.monotonic() >= deadline:
                    raise IndexRestoreError(f"sentinels not accepted: {exc!r}") from None
                log.warning("duplicate index: sentinel send failed (%r); retrying", exc)
                await asyncio.sleep(0.5)
        pending = set(tps)
        while pending and time.monotonic() < deadline:
            batches = await consumer.getmany(timeout_ms=500, max_records=5000)
            for tp, records in batches.items():
                for record in records:
                    if record.key == token:
                        pending.discard(tp)
                    else:
                        self._apply(record.key, record.value)
        if pending:
            raise IndexRestoreError(
                f"duplicate-index restore timed out after {timeout_s:.0f}s on "
                f"{len(pending)} of {len(tps)} partitions"
            )
        if self.malformed:
            log.warning("duplicate index: ignored %d malformed marks", self.malformed)
        self.restored = len(self.seen)
        self._tail = asyncio.create_task(self._tail_forever(consumer))
        return self.restored

    def _apply(self, key: bytes | None, value: bytes | None) -> None:
        """One mark: `{"at": unix_time, "digest": hex}`; marks without a digest (older workers)
        are still read, their content simply unknown."""
        if key is not None and key.startswith(SENTINEL_PREFIX):
            return
        if key is None or value is None:
            return  # a tombstone, or a keyless record compaction would drop anyway
        try:
            mark = orjson.loads(value)
            at = float(mark["at"])
            digest = mark.get("digest") or ""
            if not isinstance(digest, str):
                raise TypeError("digest is not a string")
            event_id = key.decode("utf-8")
        except (orjson.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError):
            self.malformed += 1
            if self.metrics is not None:
                self.metrics.seen_malformed.inc()
            if self.malformed == 1:
                log.warning("duplicate index: ignoring a malformed mark (key %r)", key[:80])
            return
        self.seen.add(event_id, at, digest)

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

    async def mark(self, marks: list[tuple[str, str]]) -> None:
        """Record processed (event id, content digest) pairs; awaited before the input offsets
        are committed."""
        if not marks:
            return
        now = self._clock()
        futures = [
            await self.producer.send(
                self.topic,
                key=e.encode("utf-8"),
                value=encode({"at": now, "digest": digest}),
            )
            for e, digest in marks
        ]
        await asyncio.gather(*futures)
        for e, digest in marks:
            self.seen.add(e, now, digest)

    async def stop(self) -> None:
        if self._tail is not None:
            self._tail.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._tail
        if self._consumer is not None:
            await self._consumer.stop()
