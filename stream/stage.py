"""The stage's per-answer work, independent of how records arrive (Faust, aiokafka, replay).

`Stage.process` turns one input record into the ordered output records for it: all claim
verdicts, then the decision — or one dead letter, or nothing for a duplicate. Transport code
sends them and commits; this module never touches Kafka.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

from stream.checkers.base import AsyncChecker, CheckerErrors
from stream.codec import decode_answer, encode
from stream.errors import CitegateError, CorpusUnavailableError, InputError, is_retriable
from stream.events import (
    Envelope,
    Source,
    claim_verdict_event,
    dead_letter_event,
    decision_event,
    input_event_id,
)
from stream.metrics import Metrics
from stream.release import release_event
from stream.settings import Settings
from stream.tracing import Headers, TraceContext, Tracing, from_headers
from stream.verify.citations import CheckOptions, DocumentSnapshot, citation_refs
from stream.verify.codes import InputCode
from stream.verify.model import Answer, AnswerResult, CheckError, Document, Ref
from stream.verify.parse import Limits
from stream.verify.pipeline import finish, prepare
from stream.verify.policy import Policy
from stream.verify.rebase import rebase

log = logging.getLogger("citegate.stage")


class SnapshotSource(Protocol):
    """Where the stage gets documents: the corpus cache in production."""

    async def snapshot(self, refs: Iterable[tuple[str, str | None]]) -> DocumentSnapshot: ...

    async def latest(self, document_id: str) -> Document | None: ...

    async def get(self, document_id: str, version: str) -> object: ...


class SeenIndex(Protocol):
    """Input event ids already decided (the worker's durable duplicate index)."""

    def digest(self, event_id: str) -> str | None:
        """The content digest decided under `event_id` ("" if unknown), None if not seen."""
        ...


class NothingSeen:
    """No duplicate index: replay re-verifies every record it reads."""

    def digest(self, event_id: str) -> str | None:
        return None


@dataclass(frozen=True, slots=True)
class InputRecord:
    """One consumed input record (the Kafka record reduced to what the stage reads)."""

    value: bytes | None
    key: bytes | None
    source: Source
    received_at: float = field(default_factory=time.monotonic)
    headers: Sequence[tuple[str, bytes | None]] = ()
    """The record's Kafka headers; a W3C trace context among them is carried onto outputs."""


@dataclass(frozen=True, slots=True)
class OutRecord:
    topic: str
    key: bytes | None
    value: bytes
    headers: Headers = ()


@dataclass(frozen=True, slots=True)
class Outcome:
    """What to send for one input, in order: `verdicts` (with `dead_letters`), then
    `decisions`, then `releases` (an accepted live answer's release, after its decision)."""

    kind: Literal["decision", "dead_letter", "duplicate"]
    verdicts: tuple[OutRecord, ...] = ()
    decisions: tuple[OutRecord, ...] = ()
    dead_letters: tuple[OutRecord, ...] = ()
    releases: tuple[OutRecord, ...] = ()
    event_id: str | None = None
    result: AnswerResult | None = None
    digest: str = ""
    """Content digest of the input, recorded with `event_id` in the duplicate index."""


class Stage:
    """Verification for the stream: decode → dedup → corpus snapshot → verify → encode."""

    def __init__(
        self,
        settings: Settings,
        corpus: SnapshotSource,
        checker: AsyncChecker,
        metrics: Metrics,
        seen: SeenIndex,
        *,
        mode: str = "live",
        replay_id: str | None = None,
        rebase: str | None = None,
        tracing: Tracing | None = None,
    ) -> None:
        self.settings = settings
        self.corpus = corpus
        self.checker = checker
        self.metrics = metrics
        self.seen = seen
        self.mode = mode
        self.replay_id = replay_id
        self.rebase = rebase
        self.tracing = tracing
        """Spans per answer when OpenTelemetry is configured; None costs nothing."""
        """None live; `latest` or a version name when replaying onto a corpus update."""
        self.limits = Limits(settings.max_claims, settings.max_citations_per_claim)
        self.policy = Policy(settings.force_review_domains)
        self.options = CheckOptions(relocate_quotes=settings.relocate_quotes)
        self.checker_errors = CheckerErrors(checker.ref, metrics)
        self.inflight: dict[str, str] = {}
        """Event id -> digest, processed but not yet in the durable index (same batch)."""

    def settle(self) -> None:
        """The batch is durable (marked) or abandoned (rewound): forget in-flight ids."""
        self.inflight.clear()

    async def _rebase(self, answer: Answer) -> tuple[Answer, dict[str, CheckError]]:
        """Move citations to the rebase target version (replay after a corpus update)."""
        refs = citation_refs(answer)
        if not refs:
            return answer, {}
        old = await self.corpus.snapshot(refs)
        targets: dict[str, Document | None] = {}
        for doc_id in dict.fromkeys(d for d, _ in refs):
            try:
                if self.rebase == "latest":
                    targets[doc_id] = await self.corpus.latest(doc_id)
                else:
                    found = await self.corpus.get(doc_id, self.rebase or "")
                    if isinstance(found, Document) or found is None:
                        targets[doc_id] = found
            except CorpusUnavailableError:
                continue  # the checks will report the outage for this document
        return rebase(answer, old, targets)

    def dead_letter(self, record: InputRecord, reason: str, message: str) -> Outcome:
        self.metrics.dead_letters.labels(reason=reason).inc()
        event = dead_letter_event(reason, message, record.value or b"", record.source, record.key)
        trace = from_headers(record.headers)
        headers = trace.headers() if trace is not None else ()
        out = OutRecord(self.settings.topic_dlq, record.key, encode(event), headers)
        return Outcome("dead_letter", dead_letters=(out,), event_id=event["event_id"])

    async def process(self, record: InputRecord) -> Outcome:
        """Never raises for bad input or a failing corpus: every record gets an outcome."""
        trace = from_headers(record.headers)
        if self.tracing is None:
            return await self._process(record, trace)
        with self.tracing.answer(
            trace, **{"messaging.source.name": record.source.topic or ""}
        ) as span:
            if trace is None:  # the outputs carry this span's context instead
                trace = self.tracing.context_of(span)
            outcome = await self._process(record, trace, span)
            span.set_attribute("citegate.outcome", outcome.kind)
            if outcome.kind == "dead_letter":
                self.tracing.error(span, "dead-lettered")
            return outcome

    async def _process(
        self, record: InputRecord, trace: TraceContext | None, span: Any = None
    ) -> Outcome:
        raw = record.value or b""
        self.metrics.inputs.labels(topic=record.source.topic or "").inc()
        try:
            answer = decode_answer(
                raw, self.settings.max_event_bytes, self.limits, require_ids=True
            )
        except InputError as exc:
            return self.dead_letter(record, exc.code, exc.message)
        except Exception as exc:  # a decoder bug: never crash the loop, never retry forever
            log.exception("decoding failed for the record at %s", record.source)
            return self.dead_letter(
                record,
                InputCode.PROCESSING_FAILED,
                f"processing failed: {type(exc).__name__}: {exc}",
            )
        event_id = input_event_id(answer)
        digest = answer.content_digest or ""
        prior = self.inflight.get(event_id)
        if prior is None:
            prior = self.seen.digest(event_id)
        if prior is not None:
            if prior and digest and prior != digest:
                return self.dead_letter(
                    record,
                    InputCode.EVENT_ID_CONFLICT,
                    f"event_id {event_id!r} was already decided for different content "
                    f"(sha256 {prior[:12]}…, this event {digest[:12]}…); use a new event_id",
                )
            self.metrics.duplicates.inc()
            return Outcome("duplicate", event_id=event_id)
        self.inflight[event_id] = digest
        trace_id = trace.trace_id if trace is not None else None
        try:
            result = await self.verify(answer, trace_id)
        except CitegateError as exc:
            if exc.retriable:
                raise  # the loop rewinds and retries the batch; nothing is dead-lettered
            log.exception("processing failed for answer %s", answer.answer_id)
            return self.dead_letter(
                record, InputCode.PROCESSING_FAILED, f"processing failed: {exc.code}: {exc}"
            )
        except Exception as exc:
            # A bug, not the input's fault, but retrying the same input would fail the same
            # way forever: dead-letter it once (with the traceback in the log) and go on.
            log.exception("processing failed for answer %s", answer.answer_id)
            return self.dead_letter(
                record,
                InputCode.PROCESSING_FAILED,
                f"processing failed: {type(exc).__name__}: {exc}",
            )
        latency = time.monotonic() - record.received_at
        env = Envelope(record.source, self.replay_id, round(latency, 6), self.mode, trace_id)
        self.metrics.observe_result(result, self.checker.ref, self.mode, latency, trace_id)
        if span is not None:
            annotate(span, result, self.checker.ref)
        return self._outcome(result, env, event_id, digest, trace)

    def _outcome(
        self,
        result: AnswerResult,
        env: Envelope,
        event_id: str,
        digest: str,
        trace: TraceContext | None,
    ) -> Outcome:
        headers = trace.headers() if trace is not None else ()
        s = self.settings
        key = (result.answer.answer_id or "").encode("utf-8")
        verdict_events = [claim_verdict_event(result, v, env) for v in result.verdicts]
        verdicts = tuple(
            OutRecord(s.topic_verdicts, key, encode(v), headers) for v in verdict_events
        )
        decision_ev = decision_event(result, self.checker.ref, env)
        decision = OutRecord(s.topic_decisions, key, encode(decision_ev), headers)
        releases: tuple[OutRecord, ...] = ()
        if result.decision.publish and self.mode == "live" and self.replay_id is None:
            release = release_event(
                result.answer, verdict_events, decision_ev, trace_id=env.trace_id
            )
            releases = (OutRecord(s.topic_released, key, encode(release), headers),)
        # Live, only the encoded events travel on: a batch of 500 answers holding their full
        # results (evidence windows, features) peaked at tens of MB. Replay reports from them.
        kept = result if self.mode != "live" else None
        return Outcome(
            "decision",
            verdicts,
            (decision,),
            event_id=event_id,
            result=kept,
            digest=digest,
            releases=releases,
        )

    async def verify(self, answer: Answer, trace_id: str | None = None) -> AnswerResult:
        options = self.options
        if self.rebase is not None:
            answer, notes = await self._rebase(answer)
            options = replace(options, notes=notes)
        refs = citation_refs(answer)
        snapshot = await self._snapshot(refs) if refs else DocumentSnapshot()
        prepared = prepare(answer, snapshot, options)
        started = time.perf_counter()
        try:
            results = await self.checker.check_many(prepared.requests)
        except Exception as exc:  # a checker failure holds the answer, never passes it
            if is_retriable(exc):
                raise
            self.checker_errors(exc)
            results = {}
        if prepared.requests:
            per_claim = (time.perf_counter() - started) / len(prepared.requests)
            ref = self.checker.ref
            hist = self.metrics.checker_seconds.labels(
                checker=ref.name, checker_version=ref.version
            )
            if trace_id is not None:
                hist.observe(per_claim, {"trace_id": trace_id})
                rest = len(prepared.requests) - 1
            else:
                rest = len(prepared.requests)
            for _ in range(rest):
                hist.observe(per_claim)
        return finish(prepared, results, self.checker.ref, self.policy)

    async def _snapshot(self, refs: Iterable[tuple[str, str | None]]) -> DocumentSnapshot:
        if self.tracing is None:
            return await self.corpus.snapshot(refs)
        with self.tracing.span(
            "citegate.corpus.snapshot", **{"citegate.documents_cited": len(set(refs))}
        ) as span:
            snapshot = await self.corpus.snapshot(refs)
            span.set_attribute("citegate.documents", len(snapshot.documents))
            if snapshot.unavailable:
                span.set_attribute("citegate.documents_unavailable", len(snapshot.unavailable))
            return snapshot


def annotate(span: Any, result: AnswerResult, checker: Ref) -> None:
    """The answer span's attributes: ids, the four versions, verdict counts, final status."""
    a = result.answer
    attributes: dict[str, Any] = {
        "citegate.answer_id": a.answer_id or "",
        "citegate.event_id": input_event_id(a),
        "citegate.corpus": a.corpus.name,
        "citegate.corpus_version": a.corpus.version,
        "citegate.generator": a.generator.name,
        "citegate.generator_version": a.generator.version,
        "citegate.retriever": a.retriever.name,
        "citegate.retriever_version": a.retriever.version,
        "citegate.checker": checker.name,
        "citegate.checker_version": checker.version,
        "citegate.claims": len(result.verdicts),
        "citegate.final_status": result.decision.final_status.value,
        "citegate.publish": result.decision.publish,
    }
    for verdict, n in result.decision.counts.items():
        attributes[f"citegate.verdicts.{verdict}"] = n
    span.set_attributes(attributes)
