"""The hot path: an aiokafka consume → verify → produce → commit loop, one batch at a time.

Per batch: verdicts and dead letters are sent and acknowledged first, then decisions (so a
decision never overtakes its claim verdicts), then the duplicate index is updated, and only
then are the input offsets committed. A send failure rewinds the batch and retries it: outputs
may repeat (with the same deterministic ids), inputs are never skipped.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from typing import Any

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, ConsumerRecord, TopicPartition
from aiokafka.errors import CommitFailedError, KafkaError

from stream.events import Source
from stream.kafka.clients import send_all
from stream.metrics import Metrics
from stream.stage import InputRecord, Outcome, Stage, ordered
from stream.worker.dedup import SeenLog

log = logging.getLogger("citegate.loop")


class StageLoop:
    """Owns the consumer of the answers topic and drives `Stage` over its batches."""

    def __init__(
        self,
        stage: Stage,
        consumer: AIOKafkaConsumer,
        producer: AIOKafkaProducer,
        seen_log: SeenLog,
        metrics: Metrics,
        *,
        batch_max_records: int = 500,
    ) -> None:
        self.stage = stage
        self.consumer = consumer
        self.producer = producer
        self.seen_log = seen_log
        self.metrics = metrics
        self.batch_max_records = batch_max_records
        self.processed = 0
        self.running = False
        self.positions: dict[TopicPartition, int] = {}
        self._lag_reported: set[tuple[str, int]] = set()

    async def run(self) -> None:
        self.running = True
        backoff = 0.5
        while self.running:
            batches = await self.consumer.getmany(
                timeout_ms=500, max_records=self.batch_max_records
            )
            if not batches:
                self._update_lag()
                continue
            try:
                await self.handle(batches)
                backoff = 0.5
            except (KafkaError, OSError) as exc:
                self.stage.settle()
                log.warning("output failed (%s); rewinding the batch, retry in %.1fs", exc, backoff)
                for tp, records in batches.items():
                    self.consumer.seek(tp, records[0].offset)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 10.0)
            self._update_lag()

    async def handle(self, batches: dict[TopicPartition, list[ConsumerRecord[Any, Any]]]) -> None:
        """Process one fetched batch end to end, committing its offsets last."""
        outcomes: list[Outcome] = []
        for tp, records in batches.items():
            outcomes.extend(await self._process_partition(tp, records))
        first, second = ordered(outcomes)
        await send_all(self.producer, first)
        await send_all(self.producer, second)
        await self.seen_log.mark(
            [o.event_id for o in outcomes if o.kind == "decision" and o.event_id]
        )
        self.stage.settle()
        offsets = {tp: records[-1].offset + 1 for tp, records in batches.items()}
        try:
            await self.consumer.commit(offsets)
        except CommitFailedError as exc:
            # A rebalance moved the partitions: their new owner re-reads from the last commit
            # and the duplicate index (or the deterministic ids) absorbs the repeat.
            log.warning("commit failed after a rebalance: %s", exc)
        self.processed += sum(len(r) for r in batches.values())
        self.positions.update(offsets)

    async def _process_partition(
        self, tp: TopicPartition, records: Sequence[ConsumerRecord[Any, Any]]
    ) -> list[Outcome]:
        received = time.monotonic()
        outcomes = []
        for r in records:
            record = InputRecord(r.value, r.key, Source(tp.topic, tp.partition, r.offset), received)
            outcomes.append(await self.stage.process(record))
        return outcomes

    def _update_lag(self) -> None:
        lags = {}
        for tp in self.consumer.assignment():
            high = self.consumer.highwater(tp)
            position = self.positions.get(tp)
            if high is None or position is None:
                continue
            lags[(tp.topic, tp.partition)] = max(0, high - position)
        # Partitions that moved to another worker must not keep reporting their last lag here.
        for gone in self._lag_reported - lags.keys():
            self.metrics.consumer_lag.remove(gone[0], str(gone[1]))
        self._lag_reported = set(lags)
        self.metrics.set_lag(lags)

    def stop(self) -> None:
        self.running = False
