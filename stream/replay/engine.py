"""Replay: re-verify past answers with today's corpus and checker, beside the live stage.

Reads the answers topic with a group-less consumer (the live group's offsets never move),
runs the same `Stage` as the worker in `mode="replay"` (optionally rebasing citations onto the
newest document versions), writes verdicts and decisions carrying the replay id to the replay
topic, and diffs the new decisions against the live ones read from `rag.decisions`. Progress is
checkpointed after every acknowledged batch, so an interrupted replay resumes where it stopped
and, the output ids being deterministic, re-sent events are exact duplicates.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import orjson
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition

from stream.checkers.base import AsyncChecker
from stream.errors import InputError, UsageError
from stream.events import Source
from stream.kafka.clients import send_all
from stream.metrics import Metrics
from stream.replay.report import Original, ReplayReport
from stream.settings import Settings
from stream.stage import InputRecord, NothingSeen, SnapshotSource, Stage

log = logging.getLogger("citegate.replay")
IDLE_POLLS = 4
"""Empty polls after which a partition whose end is still unknown counts as read."""


@dataclass(frozen=True, slots=True)
class Plan:
    replay_id: str
    output_topic: str
    rebase: str | None = None
    since_ms: int | None = None
    until_ms: int | None = None
    offsets: dict[int, tuple[int, int | None]] | None = None
    """partition -> (start, end exclusive or None = current end); overrides since/until."""
    checkpoint: Path | None = None
    report: Path | None = None
    limit: int | None = None
    batch_size: int = 500


def _consumer(settings: Settings, consumer_kwargs: dict[str, Any]) -> AIOKafkaConsumer:
    kw = {
        k: v
        for k, v in consumer_kwargs.items()
        if k
        not in {
            "group_id",
            "session_timeout_ms",
            "heartbeat_interval_ms",
            "rebalance_timeout_ms",
            "max_poll_interval_ms",
            "enable_auto_commit",
        }
    }
    return AIOKafkaConsumer(group_id=None, enable_auto_commit=False, **kw)


async def read_topic(
    consumer: AIOKafkaConsumer, topic: str, on_record: Callable[[Any], None]
) -> int:
    """Read a whole topic as it is now (up to each partition's high watermark at first sight)."""
    await consumer.topics()  # a group-less consumer has no metadata until asked
    partitions = sorted(consumer.partitions_for_topic(topic) or ())
    if not partitions:
        return 0
    tps = [TopicPartition(topic, p) for p in partitions]
    consumer.assign(tps)
    await consumer.seek_to_beginning(*tps)
    return await _drain(consumer, dict.fromkeys(tps, 0), {}, on_record)


async def _drain(
    consumer: AIOKafkaConsumer,
    positions: dict[TopicPartition, int],
    ends: dict[TopicPartition, int],
    on_record: Callable[[Any], None],
) -> int:
    count, idle = 0, 0
    pending = set(positions)
    while pending and idle < IDLE_POLLS:
        batches = await consumer.getmany(*pending, timeout_ms=300, max_records=5000)
        idle = 0 if batches else idle + 1
        for tp, records in batches.items():
            for r in records:
                on_record(r)
                count += 1
                positions[tp] = r.offset + 1
        for tp in list(pending):
            end = ends.get(tp)
            if end is None and (high := consumer.highwater(tp)) is not None:
                ends[tp] = end = high
            if end is not None and positions[tp] >= end:
                pending.discard(tp)
    return count


async def read_originals(
    settings: Settings, consumer_kwargs: dict[str, Any]
) -> dict[str, Original]:
    """Live decisions and claim verdicts by source event id (replays' own events skipped)."""
    originals: dict[str, Original] = {}
    claims: dict[str, dict[str, dict[str, Any]]] = {}

    def event(r: Any) -> dict[str, Any] | None:
        """A live output record, or None for one that is not a JSON object (counted, skipped:
        a malformed record on an output topic is not the replay user's mistake)."""
        try:
            e = orjson.loads(r.value)
        except (orjson.JSONDecodeError, TypeError):
            e = None
        if not isinstance(e, dict):
            log.warning("skipping a malformed record at %s:%s@%s", r.topic, r.partition, r.offset)
            return None
        return e

    def decision(r: Any) -> None:
        e = event(r)
        if (
            e is not None
            and e.get("replay_id") is None
            and e.get("schema") == "citegate.decision.v1"
        ):
            originals[e["source_event_id"]] = Original(e["final_status"])

    def verdict(r: Any) -> None:
        e = event(r)
        if (
            e is not None
            and e.get("replay_id") is None
            and e.get("schema") == "citegate.claim-verdict.v1"
        ):
            claims.setdefault(e["source_event_id"], {})[e["claim_id"]] = {
                "verdict": e["verdict"],
                "support_status": e["support_status"],
                "reason": e["reason"],
            }

    for topic, handler in (
        (settings.topic_decisions, decision),
        (settings.topic_verdicts, verdict),
    ):
        consumer = _consumer(settings, consumer_kwargs)
        await consumer.start()
        try:
            await read_topic(consumer, topic, handler)
        finally:
            await consumer.stop()
    for source_id, by_claim in claims.items():
        if source_id in originals:
            originals[source_id].claims = by_claim
    return originals


class Replay:
    def __init__(
        self,
        settings: Settings,
        consumer_kwargs: dict[str, Any],
        producer_kwargs: dict[str, Any],
        corpus: SnapshotSource,
        checker: AsyncChecker,
        metrics: Metrics,
        plan: Plan,
    ) -> None:
        self.live = settings
        self.settings = replace(
            settings, topic_verdicts=plan.output_topic, topic_decisions=plan.output_topic
        )
        self.consumer_kwargs = consumer_kwargs
        self.producer_kwargs = producer_kwargs
        self.plan = plan
        self.stage = Stage(
            self.settings,
            corpus,
            checker,
            metrics,
            NothingSeen(),
            mode="replay",
            replay_id=plan.replay_id,
            rebase=plan.rebase,
        )
        self.report = ReplayReport(
            plan.replay_id, plan.rebase, f"{checker.ref.name}@{checker.ref.version}"
        )
        self.positions: dict[int, int] = {}
        self.ends: dict[int, int] = {}
        self.done = False

    # -- checkpoints -------------------------------------------------------------------------
    def load_checkpoint(self) -> bool:
        path = self.plan.checkpoint
        if path is None or not path.exists():
            return False
        try:
            data = orjson.loads(path.read_bytes())
        except orjson.JSONDecodeError as exc:
            raise InputError(
                f"checkpoint {path} is not JSON ({exc}); delete it to start over"
            ) from None
        if not isinstance(data, dict):
            raise InputError(f"checkpoint {path} is not a replay checkpoint")
        if data.get("replay_id") != self.plan.replay_id:
            raise UsageError(f"checkpoint {path} belongs to replay {data.get('replay_id')!r}")
        saved = data.get("plan", {})
        # Relative times (`--since 7d`) move between runs: the interrupted run's bounds hold.
        self.plan = replace(
            self.plan,
            since_ms=saved.get("since_ms", self.plan.since_ms),
            until_ms=saved.get("until_ms", self.plan.until_ms),
        )
        if saved and saved != self._plan_signature():
            raise UsageError(
                f"checkpoint {path} was written with other replay options "
                f"({data.get('plan')}); resume with the same ones"
            )
        try:
            self.positions = {int(k): int(v) for k, v in data["positions"].items()}
            self.ends = {int(k): int(v) for k, v in data["ends"].items()}
            self.report = ReplayReport.from_json(data["report"])
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise InputError(
                f"checkpoint {path} is damaged ({type(exc).__name__}); delete it to start over"
            ) from None
        self.done = bool(data.get("done"))
        return True

    def _plan_signature(self) -> dict[str, Any]:
        """What a resumed run must share with the interrupted one (the limit may differ)."""
        p = self.plan
        return {
            "output_topic": p.output_topic,
            "rebase": p.rebase,
            "since_ms": p.since_ms,
            "until_ms": p.until_ms,
            "checker": self.report.checker,
            "offsets": {str(k): list(v) for k, v in (p.offsets or {}).items()},
        }

    def save_checkpoint(self) -> None:
        path = self.plan.checkpoint
        if path is None:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_bytes(
            orjson.dumps(
                {
                    "replay_id": self.plan.replay_id,
                    "positions": {str(k): v for k, v in self.positions.items()},
                    "ends": {str(k): v for k, v in self.ends.items()},
                    "report": self.report.to_json(),
                    "done": self.done,
                    "plan": self._plan_signature(),
                }
            )
        )
        os.replace(tmp, path)

    # -- the run -----------------------------------------------------------------------------
    async def plan_ranges(self, consumer: AIOKafkaConsumer) -> None:
        """Start and end offset per partition, from offsets or times (only on a fresh run)."""
        topic = self.settings.topic_answers
        await consumer.topics()
        partitions = sorted(consumer.partitions_for_topic(topic) or ())
        if not partitions:
            raise UsageError(f"topic {topic!r} does not exist on this broker")
        tps = [TopicPartition(topic, p) for p in partitions]
        # No assign() here: offsets_for_times needs none, and partitions assigned without a
        # position make the fetcher reset their offsets in the background; reassigning while
        # such a reset is in flight leaves `consumer.stop()` hanging (aiokafka swallows the
        # cancellation). `_replay` assigns exactly the partitions it seeks.
        if self.plan.offsets is not None:
            for p, (start, end) in self.plan.offsets.items():
                self.positions[p] = start
                if end is not None:
                    self.ends[p] = end
            return
        starts: dict[int, int] = {}
        if self.plan.since_ms is not None:
            found = await consumer.offsets_for_times(dict.fromkeys(tps, self.plan.since_ms))
            for tp, hit in found.items():
                # Tansu answers "nothing that late" with offset 0 and timestamp -1.
                starts[tp.partition] = -1 if hit is None or hit.timestamp < 0 else hit.offset
        for p in partitions:
            self.positions[p] = starts.get(p, 0)

    async def run(self, progress: Callable[[int, int | None], None] | None = None) -> ReplayReport:
        resumed = self.load_checkpoint()
        if resumed and self.done:
            return self.report
        consumer = _consumer(self.settings, self.consumer_kwargs)
        producer = AIOKafkaProducer(**self.producer_kwargs)
        await consumer.start()
        await producer.start()
        try:
            originals = await read_originals(self.live, self.consumer_kwargs)
            if not resumed:
                await self.plan_ranges(consumer)
            await self._replay(consumer, producer, originals, progress)
        finally:
            await consumer.stop()
            await producer.stop()
        return self.report

    async def _replay(
        self,
        consumer: AIOKafkaConsumer,
        producer: AIOKafkaProducer,
        originals: dict[str, Original],
        progress: Callable[[int, int | None], None] | None,
    ) -> None:
        topic = self.settings.topic_answers
        # Only partitions with something to read (not -1: nothing after --since) are assigned,
        # each seeked at once: an assigned partition without a position gets a background
        # offset reset, which can leave `consumer.stop()` hanging (see `plan_ranges`).
        tps = {p: TopicPartition(topic, p) for p, pos in self.positions.items() if pos >= 0}
        if tps:
            consumer.assign(list(tps.values()))
        pending = set()
        for p, tp in tps.items():
            consumer.seek(tp, self.positions[p])
            pending.add(p)
        idle, budget = 0, self.plan.limit
        while pending and idle < IDLE_POLLS and (budget is None or budget > 0):
            started = time.perf_counter()
            batches = await consumer.getmany(
                *(tps[p] for p in pending), timeout_ms=300, max_records=self.plan.batch_size
            )
            idle = 0 if batches else idle + 1
            taken: list[Any] = []
            cut: list[TopicPartition] = []
            for tp, records in batches.items():
                end = self.ends.get(tp.partition)
                room = None if budget is None else budget - len(taken)
                keep = [r for r in records if end is None or r.offset < end][:room]
                if len(keep) < len(records):
                    cut.append(tp)
                taken.extend(keep)
            await self._process(taken, producer, originals)
            if budget is not None:
                budget -= len(taken)
            for r in taken:
                self.positions[r.partition] = r.offset + 1
            for tp in cut:  # records fetched past the limit or the end are read again later
                consumer.seek(tp, self.positions[tp.partition])
            for p in list(pending):
                if p not in self.ends and (high := consumer.highwater(tps[p])) is not None:
                    self.ends[p] = high  # freeze the end: later traffic is not this replay's
                end = self.ends.get(p)
                if end is not None and self.positions[p] >= end:
                    pending.discard(p)
            self.report.seconds += time.perf_counter() - started
            self.done = self.report.complete = not pending or idle >= IDLE_POLLS
            self.save_checkpoint()
            if progress is not None:
                progress(len(taken), self._remaining())
        self.done = self.report.complete = not pending or idle >= IDLE_POLLS
        self.save_checkpoint()

    def _remaining(self) -> int | None:
        if not self.ends:
            return None
        return sum(max(0, self.ends[p] - self.positions.get(p, 0)) for p in self.ends)

    async def _process(
        self, records: list[Any], producer: AIOKafkaProducer, originals: dict[str, Original]
    ) -> None:
        if not records:
            return
        outcomes = []
        for r in records:
            if self.plan.until_ms is not None and r.timestamp > self.plan.until_ms:
                continue
            if self.plan.since_ms is not None and r.timestamp < self.plan.since_ms:
                continue
            source = Source(r.topic, r.partition, r.offset)
            record = InputRecord(r.value, r.key, source, headers=r.headers)
            outcomes.append(await self.stage.process(record))
        verdicts = [o for out in outcomes for o in out.verdicts]
        decisions = [o for out in outcomes for o in out.decisions]
        await send_all(producer, verdicts)
        await send_all(producer, decisions)
        self.stage.settle()
        for outcome in outcomes:
            self.report.processed += 1
            if outcome.kind == "dead_letter":
                self.report.dead_letters += 1
                continue
            if outcome.kind == "duplicate":
                self.report.duplicates += 1
                continue
            result = outcome.result
            if result is None:
                continue
            source_id = outcome.event_id or ""
            decision = {
                "source_event_id": source_id,
                "final_status": result.decision.final_status.value,
                "reasons": list(result.decision.reasons),
            }
            claim_views = [
                {
                    "claim_id": v.claim.id,
                    "text": v.claim.text,
                    "verdict": v.verdict.value,
                    "support_status": v.support_status.value,
                    "reason": v.reason,
                    "deterministic_errors": [
                        {"code": e.code.value} for e in v.deterministic_errors
                    ],
                    "warnings": [{"code": w.code.value} for w in v.warnings],
                }
                for v in result.verdicts
            ]
            self.report.add(
                result.answer.answer_id, originals.get(source_id), decision, claim_views
            )
