"""`GateClient`: produce an answer to the stage and await its decision, with a bound.

One consumer, started with the client, follows the decisions and dead-letter topics from their
end for every waiting call: a decision is matched to its call by the answer's `event_id`
(`source_event_id`), a dead letter by the answer record's topic/partition/offset. A call that
is not answered within its timeout returns `Decision(status="timed_out")` and leaves nothing
behind in the client; the answer itself stays held (nothing is delivered without a decision).

Every client reads the whole decisions topic (about 1 KB per answer): for many generator
processes, one client per process, not per request.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections import OrderedDict
from collections.abc import AsyncGenerator, Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition
from aiokafka.errors import KafkaError

from stream.client.releases import Release, follow_releases
from stream.codec import schema_error
from stream.errors import BrokerError, InputError, UsageError
from stream.kafka.clients import (
    bootstrap_servers,
    broker_error,
    consumer_kwargs,
    create_topics,
    groupless,
    producer_kwargs,
    security_kwargs,
)
from stream.settings import Settings
from stream.tracing import TraceContext, current_context, new_context, parse_traceparent
from stream.verify.codes import InputCode

log = logging.getLogger("citegate.client")

DEFAULT_TIMEOUT_S = 30.0
MAX_PENDING = 10_000
"""Calls waiting at once; more wait for a slot (within their own timeout)."""
RECENT_DEAD_LETTERS = 10_000
"""Dead letters kept briefly by source, in case one is read before its produce is acked."""
FINAL = ("accept", "reject", "manual_review", "regenerate_or_abstain")


@dataclass(frozen=True, slots=True)
class Decision:
    """What the gate decided for one submitted answer.

    `status` is the decision's `final_status`, or `dead_letter` (the stage refused the input:
    `reason` says why) or `timed_out` (no decision within the timeout: the answer stays held).
    Only `accept` may be shown; `release` on `rag.released` carries the text to show.
    """

    answer_id: str
    event_id: str
    status: str
    trace_id: str | None = None
    reason: str | None = None
    event: Mapping[str, Any] | None = field(default=None, repr=False)
    """The decision (or dead-letter) event as read."""

    @property
    def publish(self) -> bool:
        return self.status == "accept"

    @property
    def timed_out(self) -> bool:
        return self.status == "timed_out"


class _Waiter:
    __slots__ = ("calls", "future", "sources")

    def __init__(self, future: asyncio.Future[tuple[str, Mapping[str, Any]]]) -> None:
        self.future = future
        self.calls = 0
        self.sources: set[tuple[str, int, int]] = set()


class GateClient:
    """`async with GateClient("kafka://host:9092") as gate: decision = await gate.submit(a)`.

    Topic names, TLS/SASL and sizes come from `settings` (the same `CITEGATE_*` environment as
    the worker), so one environment serves the stage and its clients.
    """

    def __init__(
        self,
        broker: str | None = None,
        *,
        settings: Settings | None = None,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        max_pending: int = MAX_PENDING,
    ) -> None:
        self.settings = settings or Settings.from_env(broker=broker)
        if broker is not None and settings is not None:
            self.settings = settings.with_(broker=broker)
        if self.settings.broker == "embedded":
            raise UsageError("GateClient needs a broker address (kafka://host:port)")
        if timeout_s <= 0 or max_pending < 1:
            raise UsageError("timeout_s must be positive and max_pending at least 1")
        self.bootstrap = bootstrap_servers(self.settings.broker)
        self.timeout_s = timeout_s
        self._slots = asyncio.Semaphore(max_pending)
        self._waiting: dict[str, _Waiter] = {}
        self._by_source: dict[tuple[str, int, int], str] = {}
        self._dead: OrderedDict[tuple[str, int, int], Mapping[str, Any]] = OrderedDict()
        self._producer: AIOKafkaProducer | None = None
        self._consumer: AIOKafkaConsumer | None = None
        self._task: asyncio.Task[None] | None = None
        self.decisions_read = 0

    # -- lifecycle ------------------------------------------------------------------------------

    async def start(self) -> GateClient:
        s = self.settings
        topics = [s.topic_answers, s.topic_decisions, s.topic_dlq, s.topic_released]
        try:
            await create_topics(self.bootstrap, topics, s.partitions, **security_kwargs(s))
            self._producer = AIOKafkaProducer(**producer_kwargs(s, self.bootstrap))
            await self._producer.start()
            self._consumer = AIOKafkaConsumer(
                **groupless(consumer_kwargs(s, self.bootstrap)), fetch_max_wait_ms=100
            )
            await self._consumer.start()
            tps = await _partitions(self._consumer, [s.topic_decisions, s.topic_dlq])
            self._consumer.assign(tps)
            await self._consumer.seek_to_end(*tps)
            for tp in tps:  # resolved now, so nothing decided after start() can be missed
                await self._consumer.position(tp)
        except (KafkaError, OSError) as exc:
            await self.stop()
            raise broker_error(exc) from None
        self._task = asyncio.create_task(self._follow(), name="citegate-client-decisions")
        return self

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        for client in (self._consumer, self._producer):
            if client is not None:
                with contextlib.suppress(KafkaError, OSError):
                    await client.stop()
        self._consumer = self._producer = None

    async def __aenter__(self) -> GateClient:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def pending(self) -> int:
        """Calls waiting for a decision (0 once every call returned, timed out or not)."""
        return len(self._waiting)

    # -- submitting -----------------------------------------------------------------------------

    def prepare(self, answer: Mapping[str, Any]) -> tuple[dict[str, Any], bytes]:
        """The event as sent (an `event_id` added when missing) and its bytes; InputError when
        the stage would refuse it (schema, size), so nothing invalid is produced."""
        if not isinstance(answer, Mapping):
            raise InputError("an answer must be a JSON object (a mapping)")
        event = {"schema": "citegate.answer.v1", **answer}
        event.setdefault("event_id", uuid.uuid4().hex)
        problem = schema_error("answer", event)
        if problem is None and not isinstance(event.get("answer_id"), str):
            problem = "(root): 'answer_id' is required on the stream"
        if problem is not None:
            raise InputError(f"answer does not match the schema: {problem}")
        value = orjson.dumps(event)
        if len(value) > self.settings.max_event_bytes:
            raise InputError(
                f"answer is {len(value)} bytes; the stage accepts at most "
                f"{self.settings.max_event_bytes}",
                code=InputCode.OVERSIZE,
            )
        return event, value

    async def submit(
        self,
        answer: Mapping[str, Any],
        *,
        timeout_s: float | None = None,
        traceparent: str | None = None,
        tracestate: str | None = None,
    ) -> Decision:
        """Produce `answer` to the answers topic and wait for its decision.

        The trace context sent is `traceparent` when given, else the caller's active
        OpenTelemetry span, else a new one; the returned decision names its trace id.
        Raises InputError for an answer the stage would refuse, BrokerError when the answer
        cannot be produced; never waits longer than `timeout_s` (default: the client's).
        """
        if self._producer is None or self._task is None:
            raise UsageError("start the GateClient first (async with GateClient(...) as gate)")
        if self._task.done():
            raise BrokerError("the client's decision reader stopped; restart the client")
        event, value = self.prepare(answer)
        trace = _trace(traceparent, tracestate)
        event_id, answer_id = str(event["event_id"]), str(event["answer_id"])
        try:
            async with asyncio.timeout(self.timeout_s if timeout_s is None else timeout_s):
                async with self._slots:
                    return await self._submit(event_id, answer_id, value, trace)
        except TimeoutError:
            return Decision(answer_id, event_id, "timed_out", trace.trace_id)

    async def _submit(
        self, event_id: str, answer_id: str, value: bytes, trace: TraceContext
    ) -> Decision:
        waiter = self._waiting.get(event_id)
        if waiter is None:
            waiter = self._waiting[event_id] = _Waiter(asyncio.get_running_loop().create_future())
        waiter.calls += 1
        try:
            assert self._producer is not None
            try:
                sent = await self._producer.send(
                    self.settings.topic_answers,
                    key=answer_id.encode("utf-8"),
                    value=value,
                    headers=list(trace.headers()),
                )
                meta = await sent
            except (KafkaError, OSError) as exc:
                raise broker_error(exc) from None
            source = (self.settings.topic_answers, meta.partition, meta.offset)
            waiter.sources.add(source)
            self._by_source[source] = event_id
            letter = self._dead.pop(source, None)
            if letter is not None and not waiter.future.done():
                waiter.future.set_result(("dead_letter", letter))
            kind, found = await asyncio.shield(waiter.future)
        finally:
            waiter.calls -= 1
            if waiter.calls == 0:
                self._forget(event_id, waiter)
        if kind == "dead_letter":
            return Decision(
                answer_id, event_id, "dead_letter", trace.trace_id, str(found.get("reason")), found
            )
        return Decision(
            answer_id,
            event_id,
            str(found["final_status"]),
            found.get("trace_id") or trace.trace_id,
            event=found,
        )

    def _forget(self, event_id: str, waiter: _Waiter) -> None:
        if self._waiting.get(event_id) is waiter:
            del self._waiting[event_id]
        for source in waiter.sources:
            self._by_source.pop(source, None)
        if not waiter.future.done():
            waiter.future.cancel()

    # -- the shared reader ----------------------------------------------------------------------

    async def _follow(self) -> None:
        assert self._consumer is not None
        s = self.settings
        backoff = 0.5
        while True:
            try:
                batches = await self._consumer.getmany(timeout_ms=500, max_records=2000)
                backoff = 0.5
            except (KafkaError, OSError) as exc:
                log.warning("reading decisions failed (%s); retrying in %.1fs", exc, backoff)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 10.0)
                continue
            for tp, records in batches.items():
                for r in records:
                    if tp.topic == s.topic_decisions:
                        self._on_decision(r.value)
                    else:
                        self._on_dead_letter(r.value)

    def _on_decision(self, raw: bytes | None) -> None:
        self.decisions_read += 1
        event = _json(raw)
        if event is None or event.get("replay_id") is not None:
            return
        waiter = self._waiting.get(str(event.get("source_event_id")))
        if waiter is not None and not waiter.future.done() and event.get("final_status") in FINAL:
            waiter.future.set_result(("decision", event))

    def _on_dead_letter(self, raw: bytes | None) -> None:
        event = _json(raw)
        src = (event or {}).get("source") or {}
        if event is None or not isinstance(src, dict):
            return
        source = (str(src.get("topic")), src.get("partition"), src.get("offset"))
        if not (isinstance(source[1], int) and isinstance(source[2], int)):
            return
        key = (source[0], source[1], source[2])
        event_id = self._by_source.get(key)
        waiter = self._waiting.get(event_id) if event_id else None
        if waiter is not None:
            if not waiter.future.done():
                waiter.future.set_result(("dead_letter", event))
        elif self._waiting:  # read before its produce was acknowledged: keep it briefly
            self._dead[key] = event
            while len(self._dead) > RECENT_DEAD_LETTERS:
                self._dead.popitem(last=False)

    # -- delivery -------------------------------------------------------------------------------

    def releases(
        self, *, group_id: str | None = None, from_beginning: bool = False
    ) -> AsyncGenerator[Release, None]:
        """The answers delivery may show, each once (deduplicated by event id).

        Without `group_id`, every release from now on (or from the beginning); with one, the
        group's next releases, its offsets committed after the caller took each one (resume
        where the group left off; at least once)."""
        return follow_releases(self.settings, self.bootstrap, group_id, from_beginning)


def _trace(traceparent: str | None, tracestate: str | None) -> TraceContext:
    if traceparent is not None:
        parsed = parse_traceparent(traceparent, tracestate)
        if parsed is None:
            raise InputError(f"not a W3C traceparent: {traceparent[:80]!r}")
        return parsed
    return current_context() or new_context(tracestate)


def _json(raw: bytes | None) -> dict[str, Any] | None:
    if raw is None:
        return None
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


async def _partitions(consumer: AIOKafkaConsumer, topics: list[str]) -> list[TopicPartition]:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 15.0
    out: list[TopicPartition] = []
    for topic in topics:
        parts = consumer.partitions_for_topic(topic)
        while not parts:
            if loop.time() > deadline:
                raise BrokerError(f"topic {topic} has no partitions")
            await consumer._client.force_metadata_update()
            parts = consumer.partitions_for_topic(topic)
            if not parts:
                await asyncio.sleep(0.2)
        out.extend(TopicPartition(topic, p) for p in sorted(parts))
    return out
