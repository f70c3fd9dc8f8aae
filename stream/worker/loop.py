"""The hot path: an aiokafka consume → verify → produce → commit loop, one batch at a time.

Per batch: verdicts and dead letters are sent and acknowledged first, then decisions (so a
decision never overtakes its claim verdicts), then the releases of accepted answers, then the
duplicate index is updated, and only then are the input offsets committed. A retriable
failure (broker unavailable, corpus error marked retriable) rewinds the batch and retries it
with backoff: outputs may repeat (with the same deterministic ids), inputs are never skipped.
What no retry can fix never blocks the loop: an output the broker refuses for good turns that
one input into a dead letter, and a dead letter already acknowledged is not sent again when
its batch is retried.

The loop also keeps a watchdog: `stalled_for()` is how long it has made no progress while
inputs wait or the broker cannot be reached, or how long a batch has been waiting on the broker
(acknowledgements, marks, the commit) when that is longer; past `stall_s` it raises
`StalledError` so the worker exits non-zero and its supervisor restarts it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from typing import Any

from aiokafka import ConsumerRebalanceListener, ConsumerRecord, TopicPartition
from aiokafka.errors import CommitFailedError, KafkaError

from stream.errors import BrokerError, CitegateError, StalledError, is_retriable
from stream.events import Source
from stream.kafka.clients import broker_error, send_each
from stream.metrics import Metrics
from stream.stage import InputRecord, Outcome, OutRecord, Stage
from stream.verify.codes import InputCode
from stream.worker.dedup import SeenLog

log = logging.getLogger("citegate.loop")

SourceKey = tuple[str, int, int]
PROBE_EVERY_S = 5.0
"""How often an idle loop asks the broker for the input topic's metadata."""


class GroupWatch(ConsumerRebalanceListener):  # type: ignore[misc]
    """Since when this member has been without a completed rebalance (None: settled).

    A group whose rebalance never completes holds every member at no partitions while each
    looks idle and healthy: Tansu, after a restart, can keep a member that left mid-rebalance
    as the group's leader, so no one ever sends the assignment. The loop counts that as a stall.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self.unsettled_since: float | None = clock()  # not joined yet

    def on_partitions_revoked(self, revoked: Iterable[TopicPartition]) -> None:
        if self.unsettled_since is None:
            self.unsettled_since = self._clock()

    def on_partitions_assigned(self, assigned: Iterable[TopicPartition]) -> None:
        self.unsettled_since = None

    def unsettled_for(self) -> float:
        return 0.0 if self.unsettled_since is None else self._clock() - self.unsettled_since


class StageLoop:
    """Owns the consumer of the answers topic and drives `Stage` over its batches.

    `consumer` and `producer` are aiokafka clients in production and list-backed fakes in the
    unit tests; `clock` and `sleep` are injectable for the same reason.
    """

    def __init__(
        self,
        stage: Stage,
        consumer: Any,
        producer: Any,
        seen_log: SeenLog,
        metrics: Metrics,
        *,
        batch_max_records: int = 500,
        stall_s: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        peek: Callable[[TopicPartition, int], Awaitable[bool]] | None = None,
        required_topics: Sequence[str] = (),
        group: GroupWatch | None = None,
    ) -> None:
        self.stage = stage
        self.consumer = consumer
        self.producer = producer
        self.seen_log = seen_log
        self.metrics = metrics
        self.batch_max_records = batch_max_records
        self.stall_s = stall_s
        self._clock = clock
        self._sleep = sleep
        self.peek = peek
        """Whether a record exists at or after an offset (a groupless read); None: no check."""
        self.required_topics = tuple(required_topics)
        """Topics that must exist on the broker before this loop sends anything."""
        self.group = group
        """The consumer's rebalances as its listener saw them; None: not watched."""
        self._verified_for: tuple[object, object] | None = None
        """The group membership (member id, generation) the broker's state was checked for."""
        self._suspect = True
        """Something (start, outage, failed batch) makes the broker's state worth re-checking."""
        self.processed = 0
        self.running = False
        self.positions: dict[TopicPartition, int] = {}
        self._lag_reported: set[tuple[str, int]] = set()
        self._committed: dict[TopicPartition, int] = {}
        """Offsets this loop committed successfully (what the broker must still hold)."""
        self._dead_lettered: set[SourceKey] = set()
        """Inputs whose dead letter is acknowledged but whose offset is not committed yet."""
        self.last_progress = clock()
        self._waiting = False
        """True while fetched inputs wait for a retry or the broker cannot be reached."""
        self._on_broker_since: float | None = None
        """When the batch in hand started waiting on the broker (None: not waiting on it). A
        broker whose storage hangs never answers, so no send fails and nothing would say so."""
        self._probed_at = clock()
        self.broker_ok = True
        self._outage = False
        """The probe found the broker unreachable (or without the input topic) since the last
        check of our positions."""

    # -- watchdog -----------------------------------------------------------------------------

    def stalled_for(self) -> float:
        """Seconds without progress while work waits (0 when idle or moving): inputs waiting
        for a retry or an unreachable broker, or a batch waiting on the broker's answers."""
        now = self._clock()
        waited = now - self.last_progress if self._waiting else 0.0
        if self._on_broker_since is not None:
            waited = max(waited, now - self._on_broker_since)
        return max(0.0, waited)

    @contextlib.contextmanager
    def _on_broker(self) -> Iterator[None]:
        """Marks the time spent waiting on the broker for a batch (not the verification)."""
        self._on_broker_since = self._clock()
        try:
            yield
        finally:
            self._on_broker_since = None

    def _progress(self) -> None:
        self.last_progress = self._clock()
        self._waiting = False
        self.metrics.stalled.set(0)

    def _check_stall(self) -> None:
        stalled = self.stalled_for()
        self.metrics.stalled.set(1 if stalled >= min(5.0, self.stall_s) else 0)
        if stalled >= self.stall_s:
            raise StalledError(
                f"no progress for {stalled:.0f}s (broker {'up' if self.broker_ok else 'down'}); "
                "exiting so the supervisor restarts the worker"
            )

    async def _probe(self) -> None:
        """An empty poll is progress only if nothing waits: the broker knows the input topic,
        and no assigned partition has records past our fetch position. After a broker restart
        a consumer can hold partitions and still fetch nothing; this is how that is seen."""
        if self._clock() - self._probed_at < PROBE_EVERY_S:
            return
        self._probed_at = self._clock()
        unsettled = 0.0 if self.group is None else self.group.unsettled_for()
        if unsettled >= self.stall_s:
            raise StalledError(
                f"the consumer group has not completed a rebalance for {unsettled:.0f}s; "
                "exiting so the supervisor restarts the worker"
            )
        problem = None
        try:
            client = self.consumer._client
            ok = await asyncio.wait_for(client.force_metadata_update(), PROBE_EVERY_S)
            if ok:
                await self._check_commits()
            if not ok or self.stage.settings.topic_answers not in client.cluster.topics():
                problem = "the broker is unreachable or lost the input topic"
                self._outage = True
            elif self._outage:
                await self._check_positions()
                self._outage = False
            if problem is None and await self._behind():
                problem = "records wait on assigned partitions but none are fetched"
        except (KafkaError, OSError, TimeoutError) as exc:
            problem = f"broker probe failed: {type(exc).__name__}: {exc}"
        self.broker_ok = problem is None
        if problem is not None:
            self._suspect = True
        log.debug("probe: %s", problem or "ok")
        if problem is not None and not self._waiting:
            log.warning("%s", problem)
            self._waiting = True

    async def _behind(self) -> bool:
        """Records wait past our fetch position on an assigned partition. Asked of the broker
        through `peek` (a groupless read at that position): end offsets cannot tell, Tansu
        reports the first offset of the last batch there."""
        if self.peek is None:
            return False
        for tp in sorted(self.consumer.assignment()):
            try:
                position = await asyncio.wait_for(self.consumer.position(tp), 1.0)
            except TimeoutError:
                # No fetch position at all: start from the group's committed offset.
                committed = await asyncio.wait_for(self.consumer.committed(tp), PROBE_EVERY_S)
                position = committed or 0
            if await asyncio.wait_for(self.peek(tp, position), PROBE_EVERY_S):
                return True
        return False

    async def _check_positions(self) -> None:
        """After the broker was unreachable: a fetch position with no committed offset behind
        it means the group's state is gone while we kept reading from where we were — on a
        new, empty log that position skips every record before it."""
        for tp in sorted(self.consumer.assignment()):
            try:
                position = await asyncio.wait_for(self.consumer.position(tp), 1.0)
            except TimeoutError:
                continue  # being reset from the committed offset: nothing stale
            committed = await asyncio.wait_for(self.consumer.committed(tp), PROBE_EVERY_S)
            if position > 0 and committed is None:
                raise StalledError(
                    f"after the broker came back, {tp.topic}:{tp.partition} has no committed "
                    f"offset but we read from {position}: the broker lost its data; "
                    "restarting clean"
                )

    def _membership(self) -> tuple[object, object]:
        coordinator = getattr(self.consumer, "_coordinator", None)
        return (getattr(coordinator, "member_id", None), getattr(coordinator, "generation", None))

    async def _verify_broker(self) -> None:
        """Before the first send after a start, an outage, a failed batch or a new group
        membership: the broker must still hold our topics and our committed offsets. A broker
        that lost its data (a memory-only one restarted) may accept a produce to a topic it no
        longer knows and drop it when the topic is created again; sending there would lose
        decisions. A restart re-creates the topics and starts clean."""
        membership = self._membership()
        if not self._suspect and membership == self._verified_for:
            return
        if self.required_topics:
            cluster = await asyncio.wait_for(
                self.consumer._client.fetch_all_metadata(), PROBE_EVERY_S
            )
            missing = sorted(set(self.required_topics) - set(cluster.topics()))
            if missing:
                raise StalledError(
                    f"the broker lost topic(s) {', '.join(missing)}: it lost its data; "
                    "restarting clean so they are created again"
                )
        await self._check_commits()
        self._verified_for = membership
        self._suspect = False

    async def _check_commits(self, only: Iterable[TopicPartition] | None = None) -> None:
        """The broker must still hold the offsets we committed. If it lost them (a memory-only
        broker restarted, the group's state was wiped), it lost the log too: our fetch
        position may lie past the end of the new one and records before it would be skipped.
        A restart re-creates the topics and starts clean. (End offsets cannot tell: Tansu
        reports the first offset of the last batch there.)"""
        # Every partition this worker ever committed, assigned now or not: the group's offsets
        # only move forward, so one lower (or gone) means the broker lost them.
        wanted = self._committed if only is None else dict.fromkeys(only)
        ours_by_tp = {tp: self._committed[tp] for tp in sorted(wanted) if tp in self._committed}
        if not ours_by_tp:
            return
        # One OffsetFetch request for all of them (this runs before every commit), not one
        # round trip per partition as `consumer.committed` would make.
        found = await asyncio.wait_for(
            self.consumer._coordinator.fetch_committed_offsets(list(ours_by_tp)), PROBE_EVERY_S
        )
        for tp, ours in ours_by_tp.items():
            offset = found[tp].offset if tp in found else -1
            theirs = None if offset < 0 else offset
            if theirs is None or theirs < ours:
                raise StalledError(
                    f"the broker lost committed offsets ({tp.topic}:{tp.partition} committed "
                    f"{ours}, broker has {theirs}): it lost its data; restarting clean"
                )

    # -- the loop -----------------------------------------------------------------------------

    async def run(self) -> None:
        self.running = True
        backoff = 0.5
        while self.running:
            batches = await self.consumer.getmany(
                timeout_ms=500, max_records=self.batch_max_records
            )
            if not batches:
                await self._probe()
                if self.broker_ok:
                    self._progress()
                self._update_lag()
                self._check_stall()
                continue
            try:
                await self.handle(batches)
                backoff = 0.5
            except (CitegateError, KafkaError, OSError) as exc:
                error = exc if isinstance(exc, CitegateError) else broker_error(exc)
                if not is_retriable(error):
                    raise
                self._waiting = True
                self._suspect = True
                self.stage.settle()
                self.metrics.retries.labels(code=error.code).inc()
                log.warning(
                    "batch failed (%s: %s); rewinding it, retry in %.1fs",
                    error.code,
                    error.message,
                    backoff,
                )
                for tp, records in batches.items():
                    self.consumer.seek(tp, records[0].offset)
                self._check_stall()
                await self._sleep(backoff)
                backoff = min(backoff * 2, 10.0)
            self._update_lag()
            self._check_stall()

    async def handle(self, batches: dict[TopicPartition, list[ConsumerRecord[Any, Any]]]) -> None:
        """Process one fetched batch end to end, committing its offsets last."""
        with self._on_broker():
            await self._verify_broker()
        keyed: list[tuple[InputRecord, Outcome]] = []
        for tp, records in batches.items():
            keyed.extend(await self._process_partition(tp, records))
        with self._on_broker():
            await self._deliver(batches, keyed)

    async def _deliver(
        self,
        batches: dict[TopicPartition, list[ConsumerRecord[Any, Any]]],
        keyed: list[tuple[InputRecord, Outcome]],
    ) -> None:
        """Send the batch's outputs, mark its ids, commit its offsets: all on the broker."""
        # Wave 1: verdicts and dead letters; wave 2: decisions of inputs whose wave 1 landed;
        # wave 3: releases of accepted answers whose decision landed.
        keyed = await self._send_wave(keyed, lambda o: (*o.verdicts, *o.dead_letters))
        keyed = await self._send_wave(keyed, lambda o: o.decisions)
        if any(o.releases for _, o in keyed):
            keyed = await self._send_wave(keyed, lambda o: o.releases)
        outcomes = [o for _, o in keyed]
        await self.seen_log.mark(
            [(o.event_id, o.digest) for o in outcomes if o.kind == "decision" and o.event_id]
        )
        self.stage.settle()
        offsets = {tp: records[-1].offset + 1 for tp, records in batches.items()}
        # Before committing: if the broker lost what we committed, it lost the log too, and
        # this batch may have been read from a stale position past records never seen.
        await self._check_commits(offsets)
        try:
            await self.consumer.commit(offsets)
            self._committed.update(offsets)
        except CommitFailedError as exc:
            # A rebalance moved the partitions: their new owner re-reads from the last commit
            # and the duplicate index (or the deterministic ids) absorbs the repeat.
            log.warning("commit failed after a rebalance: %s", exc)
        self._dead_lettered.clear()
        self.processed += sum(len(r) for r in batches.values())
        self.positions.update(offsets)
        self._progress()

    async def _send_wave(
        self,
        keyed: list[tuple[InputRecord, Outcome]],
        pick: Callable[[Outcome], Sequence[OutRecord]],
    ) -> list[tuple[InputRecord, Outcome]]:
        """Send one wave; a retriable failure raises (batch rewinds), a permanent refusal of
        an input's output replaces that input's outcome by a dead letter."""
        plan: list[tuple[int, OutRecord]] = []
        for i, (record, outcome) in enumerate(keyed):
            if outcome.kind == "dead_letter" and _key(record) in self._dead_lettered:
                continue  # acknowledged on an earlier attempt of this batch
            plan.extend((i, r) for r in pick(outcome))
        errors = await send_each(self.producer, [r for _, r in plan])
        failed: dict[int, BrokerError] = {}
        unsent: set[int] = set()
        retry: BrokerError | None = None
        for (i, _), error in zip(plan, errors, strict=True):
            if error is None:
                continue
            unsent.add(i)
            if error.retriable:
                retry = retry or error
            else:
                failed.setdefault(i, error)
        for i, (record, outcome) in enumerate(keyed):
            if outcome.kind == "dead_letter" and i not in unsent:
                self._dead_lettered.add(_key(record))
        if retry is not None:
            raise retry
        if not failed:
            return keyed
        out = list(keyed)
        for i, error in failed.items():
            record, outcome = keyed[i]
            log.error(
                "an output of input %s:%s@%s was refused (%s); dead-lettering the input",
                record.source.topic,
                record.source.partition,
                record.source.offset,
                error.message,
            )
            if outcome.kind == "dead_letter":
                # Cannot happen for a bounded dead letter; never loop on it either way.
                out[i] = (record, Outcome("duplicate", event_id=outcome.event_id))
                continue
            letter = self.stage.dead_letter(
                record, InputCode.OUTPUT_REJECTED, f"an output was refused: {error.message}"
            )
            for e in await send_each(self.producer, letter.dead_letters):
                if e is not None:
                    raise BrokerError(f"dead letter not acknowledged: {e.message}")
            self._dead_lettered.add(_key(record))
            out[i] = (record, letter)
        return out

    async def _process_partition(
        self, tp: TopicPartition, records: Sequence[ConsumerRecord[Any, Any]]
    ) -> list[tuple[InputRecord, Outcome]]:
        received = time.monotonic()
        outcomes = []
        for r in records:
            source = Source(tp.topic, tp.partition, r.offset)
            record = InputRecord(r.value, r.key, source, received, r.headers)
            outcomes.append((record, await self.stage.process(record)))
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


def _key(record: InputRecord) -> SourceKey:
    s = record.source
    return (s.topic or "", s.partition or 0, s.offset or 0)
