"""Reading the review server's topics: catch up from the beginning, then follow.

No consumer group: the queue is rebuilt from the topics on every start (reviews included), so
there are no offsets to commit and no other reader is disturbed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import orjson
from aiokafka import AIOKafkaConsumer, TopicPartition

from stream.kafka.clients import consumer_kwargs, groupless
from stream.settings import Settings
from stream.tracing import Headers

log = logging.getLogger("citegate.review")

Handler = Callable[[str, Mapping[str, Any], int, Headers], Awaitable[None] | None]
"""(topic, decoded event, broker timestamp ms, record headers)."""

METADATA_WAIT_S = 15.0
FETCH_WAIT_S = 3.0


def decode(raw: bytes | None, max_bytes: int) -> dict[str, Any] | None:
    """A JSON object or None (oversize, not JSON, not an object): bad records are skipped."""
    if raw is None or len(raw) > max_bytes:
        return None
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


async def _partitions(consumer: AIOKafkaConsumer, topics: list[str]) -> list[TopicPartition]:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + METADATA_WAIT_S
    tps: list[TopicPartition] = []
    for topic in topics:
        parts = consumer.partitions_for_topic(topic)
        while not parts and loop.time() < deadline:
            await consumer._client.force_metadata_update()
            parts = consumer.partitions_for_topic(topic)
            if not parts:
                await asyncio.sleep(0.2)
        tps.extend(TopicPartition(topic, p) for p in sorted(parts or ()))
    return tps


class TopicFeed:
    """Reads `topics` from their beginning; `caught_up` is set once the ends seen at start are
    reached, after which new records keep flowing to the handler."""

    def __init__(
        self, settings: Settings, bootstrap: list[str], topics: list[str], handler: Handler
    ) -> None:
        self.settings = settings
        self.bootstrap = bootstrap
        self.topics = topics
        self.handler = handler
        self.caught_up = asyncio.Event()
        self.records = 0
        self.skipped = 0

    async def run(self, *, follow: bool = True) -> None:
        consumer = AIOKafkaConsumer(
            **groupless(consumer_kwargs(self.settings, self.bootstrap)), fetch_max_wait_ms=200
        )
        try:
            await consumer.start()
            tps = await _partitions(consumer, self.topics)
            consumer.assign(tps)
            await consumer.seek_to_beginning(*tps)
            ends = await consumer.end_offsets(tps) if tps else {}
            behind = {tp for tp, end in ends.items() if end > 0}
            while follow or not self.caught_up.is_set():
                batches = await consumer.getmany(timeout_ms=500, max_records=1000)
                for records in batches.values():
                    for r in records:
                        await self._handle(r.topic, r.value, r.timestamp, r.headers)
                if not self.caught_up.is_set():
                    for tp in list(behind):
                        if await consumer.position(tp) >= ends[tp]:
                            behind.discard(tp)
                    # Caught up: past the end offsets seen at start *and* one empty poll, as
                    # a broker may under-report end offsets (the embedded Tansu does).
                    if not behind and not batches:
                        log.info("review feed caught up: %d records read", self.records)
                        self.caught_up.set()
        finally:
            await consumer.stop()

    async def _handle(self, topic: str, raw: bytes | None, ts: int, headers: Headers) -> None:
        event = decode(raw, self.settings.max_event_bytes)
        self.records += 1
        if event is None or not isinstance(event.get("schema"), str):
            self.skipped += 1
            return
        try:
            result = self.handler(topic, event, ts, headers)
            if result is not None:
                await result
        except (KeyError, TypeError, ValueError) as exc:
            # A malformed event on an output topic must not stop the queue.
            self.skipped += 1
            log.warning("skipped a malformed event on %s: %s", topic, type(exc).__name__)


class RecordFetcher:
    """Reads single records by topic/partition/offset (the answer a decision was made on),
    with one long-lived consumer; calls are serialised."""

    def __init__(self, settings: Settings, bootstrap: list[str]) -> None:
        self.settings = settings
        self.bootstrap = bootstrap
        self._consumer: AIOKafkaConsumer | None = None
        self._lock = asyncio.Lock()

    async def stop(self) -> None:
        if self._consumer is not None:
            await self._consumer.stop()
            self._consumer = None

    async def fetch(self, topic: str, partition: int, offset: int) -> dict[str, Any] | None:
        """The JSON object at topic/partition/offset, or None when it is gone or not one."""
        async with self._lock:
            if self._consumer is None:
                # Created on first use, so a server that never shows an answer opens nothing.
                consumer = AIOKafkaConsumer(
                    **groupless(consumer_kwargs(self.settings, self.bootstrap))
                )
                try:
                    await consumer.start()
                except BaseException:
                    await consumer.stop()
                    raise
                self._consumer = consumer
            consumer = self._consumer
            tp = TopicPartition(topic, partition)
            if partition not in (consumer.partitions_for_topic(topic) or set()):
                await consumer._client.force_metadata_update()
                if partition not in (consumer.partitions_for_topic(topic) or set()):
                    return None
            consumer.assign([tp])
            if offset < (await consumer.beginning_offsets([tp]))[tp]:
                return None  # expired (retention)
            # No end-offset check: some brokers (the embedded Tansu) under-report the high
            # watermark; a record that is not there simply does not arrive before the deadline.
            consumer.seek(tp, offset)
            loop = asyncio.get_running_loop()
            deadline = loop.time() + FETCH_WAIT_S
            while loop.time() < deadline:
                batches = await consumer.getmany(tp, timeout_ms=300, max_records=1)
                for record in batches.get(tp, []):
                    if record.offset == offset:
                        return decode(record.value, self.settings.max_event_bytes)
                    if record.offset > offset:
                        return None
            return None

    async def for_decision(self, decision: Mapping[str, Any]) -> dict[str, Any] | None:
        """The answer event a decision names in its `source`, or None."""
        src = decision.get("source") or {}
        topic, partition, offset = src.get("topic"), src.get("partition"), src.get("offset")
        if not (isinstance(topic, str) and isinstance(partition, int) and isinstance(offset, int)):
            return None
        event = await self.fetch(topic, partition, offset)
        if event is not None and event.get("event_id") != decision.get("source_event_id"):
            return None  # the offset holds another event: never show the wrong answer
        return event
