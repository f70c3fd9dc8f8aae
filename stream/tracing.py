"""Trace context across the stage: W3C `traceparent`/`tracestate` Kafka headers, and
OpenTelemetry spans when OpenTelemetry is configured.

The headers of an input answer are carried onto every event written for it whether or not
tracing is on (checking them is one regular expression on 55 characters), so a trace id links
the generator's request to its verdicts, decision, release and review. Spans are recorded only
when an OTLP endpoint is configured the usual way (`OTEL_EXPORTER_OTLP_ENDPOINT` or
`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) and the `otel` extra is installed: otherwise `setup()`
returns None, nothing from OpenTelemetry is imported, and the stage never calls into it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import secrets
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from stream.checkers.base import AsyncChecker
    from stream.verify.model import CheckRequest, CheckResult, Ref

log = logging.getLogger("citegate.tracing")

TRACEPARENT = "traceparent"
TRACESTATE = "tracestate"
MAX_TRACESTATE = 512
"""Characters of `tracestate` carried (W3C: at least 512 must be propagated); longer is dropped."""
_PARENT = re.compile(r"([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})")
_ZERO_TRACE = "0" * 32
_ZERO_SPAN = "0" * 16

Headers = tuple[tuple[str, bytes], ...]


@dataclass(frozen=True, slots=True)
class TraceContext:
    """A valid W3C trace context (version 00 form), as carried in Kafka headers."""

    traceparent: str
    tracestate: str | None = None

    @property
    def trace_id(self) -> str:
        return self.traceparent[3:35]

    @property
    def span_id(self) -> str:
        return self.traceparent[36:52]

    @property
    def sampled(self) -> bool:
        return bool(int(self.traceparent[53:55], 16) & 1)

    def headers(self) -> Headers:
        out: list[tuple[str, bytes]] = [(TRACEPARENT, self.traceparent.encode("ascii"))]
        if self.tracestate:
            out.append((TRACESTATE, self.tracestate.encode("ascii")))
        return tuple(out)


def parse_traceparent(value: str, tracestate: str | None = None) -> TraceContext | None:
    """A `TraceContext`, or None when `value` is not a valid traceparent (W3C rules: version
    `ff`, an all-zero trace or parent id are invalid; a later version may append fields)."""
    value = value.strip().lower()
    m = _PARENT.match(value)
    if m is None:
        return None
    version, trace_id, span_id, flags = m.groups()
    if version == "ff" or trace_id == _ZERO_TRACE or span_id == _ZERO_SPAN:
        return None
    if version == "00" and len(value) != 55:
        return None
    if len(value) > 55 and value[55] != "-":
        return None
    state = tracestate.strip() if tracestate else None
    if state and (len(state) > MAX_TRACESTATE or not state.isascii()):
        state = None
    return TraceContext(f"00-{trace_id}-{span_id}-{flags}", state or None)


def from_headers(headers: Iterable[tuple[str, bytes | None]] | None) -> TraceContext | None:
    """The trace context of a Kafka record's headers, or None (absent or malformed)."""
    if not headers:
        return None
    parent: bytes | None = None
    state: bytes | None = None
    for name, value in headers:
        lowered = name.lower()
        if lowered == TRACEPARENT:
            parent = value
        elif lowered == TRACESTATE:
            state = value
    if not parent or len(parent) > 256:
        return None
    try:
        return parse_traceparent(parent.decode("ascii"), state.decode("ascii") if state else None)
    except UnicodeDecodeError:
        return None


def new_context(tracestate: str | None = None) -> TraceContext:
    """A fresh, sampled root context (what the client sends when its caller has none)."""
    return TraceContext(f"00-{secrets.token_hex(16)}-{secrets.token_hex(8)}-01", tracestate)


def current_context() -> TraceContext | None:
    """The caller's active OpenTelemetry span as a context, when the API is installed and a
    span is active (a generator instrumented with OpenTelemetry); else None."""
    try:
        from opentelemetry import trace
    except ImportError:
        return None
    sc = trace.get_current_span().get_span_context()
    if not sc.is_valid:
        return None
    state = sc.trace_state.to_header() if sc.trace_state else None
    return TraceContext(
        f"00-{sc.trace_id:032x}-{sc.span_id:016x}-{int(sc.trace_flags):02x}", state or None
    )


# -- spans (OpenTelemetry, optional) -------------------------------------------------------------


def configured(env: Mapping[str, str] | None = None) -> bool:
    """OpenTelemetry is configured the usual way: an OTLP endpoint, the SDK not disabled, and
    the traces exporter not set to `none`."""
    env = os.environ if env is None else env
    if env.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return False
    if env.get("OTEL_TRACES_EXPORTER", "otlp").strip().lower() in {"none", ""}:
        return False
    return bool(
        env.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "").strip()
        or env.get("OTEL_EXPORTER_OTLP_ENDPOINT", "").strip()
    )


class Tracing:
    """The stage's spans: one per answer, children for corpus lookups and checker tiers.

    Built by `setup()`; the SDK's own environment variables apply (sampler, batch processor,
    exporter headers, timeouts, compression, resource attributes)."""

    def __init__(self, provider: Any, tracer: Any) -> None:
        self._provider = provider
        self._tracer = tracer
        from opentelemetry import context, trace
        from opentelemetry.trace import SpanKind, Status, StatusCode
        from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

        self._trace = trace
        self._context = context
        self._propagator = TraceContextTextMapPropagator()
        self._consumer = SpanKind.CONSUMER
        self._status = (Status, StatusCode)

    @contextlib.contextmanager
    def answer(self, parent: TraceContext | None, **attributes: Any) -> Iterator[Any]:
        """The span of one answer, a child of the producer's span when `parent` is given."""
        ctx = None
        if parent is not None:
            carrier = {TRACEPARENT: parent.traceparent}
            if parent.tracestate:
                carrier[TRACESTATE] = parent.tracestate
            ctx = self._propagator.extract(carrier)
        with self._tracer.start_as_current_span(
            "citegate.answer", context=ctx, kind=self._consumer, attributes=attributes
        ) as span:
            yield span

    @contextlib.contextmanager
    def span(self, name: str, **attributes: Any) -> Iterator[Any]:
        """A child of the current span (the answer's)."""
        with self._tracer.start_as_current_span(name, attributes=attributes) as span:
            yield span

    def context_of(self, span: Any) -> TraceContext | None:
        """The span as a trace context (what outputs carry when the input had none)."""
        sc = span.get_span_context()
        if not sc.is_valid:
            return None
        return TraceContext(f"00-{sc.trace_id:032x}-{sc.span_id:016x}-{int(sc.trace_flags):02x}")

    def error(self, span: Any, description: str) -> None:
        status, code = self._status
        span.set_status(status(code.ERROR, description[:200]))

    def shutdown(self) -> None:
        """Export what is buffered (bounded by the SDK's export timeout), then stop."""
        self._provider.shutdown()


def setup(service_name: str = "citegate-worker") -> Tracing | None:
    """`Tracing` when OpenTelemetry is configured and installed, else None (no cost)."""
    if not configured():
        return None
    try:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        from opentelemetry.sdk.resources import SERVICE_NAME, Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor
    except ImportError:
        log.warning(
            "an OTLP endpoint is configured but OpenTelemetry is not installed; "
            "no spans are recorded (pip install 'citegate[otel]')"
        )
        return None
    from stream import __version__

    resource = Resource.create()
    if str(resource.attributes.get(SERVICE_NAME, "")).startswith("unknown_service"):
        resource = resource.merge(Resource({SERVICE_NAME: service_name}))
    provider = TracerProvider(resource=resource)
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    log.info("OpenTelemetry tracing on (OTLP/HTTP)")
    return Tracing(provider, provider.get_tracer("citegate", __version__))


# -- checker tiers -------------------------------------------------------------------------------


class TracedChecker:
    """An AsyncChecker recording one span per call: how the cascade's tiers become child spans
    of the answer without the cascade knowing about tracing."""

    def __init__(self, checker: AsyncChecker, tracing: Tracing, tier: str) -> None:
        self.checker = checker
        self.tracing = tracing
        self.tier = tier

    @property
    def ref(self) -> Ref:
        return self.checker.ref

    async def check_many(self, requests: Sequence[CheckRequest]) -> dict[str, CheckResult]:
        ref = self.checker.ref
        with self.tracing.span(
            f"citegate.checker.{self.tier}",
            **{
                "citegate.checker.tier": self.tier,
                "citegate.checker.name": ref.name,
                "citegate.checker.version": ref.version,
                "citegate.claims": len(requests),
            },
        ) as span:
            results = await self.checker.check_many(requests)
            span.set_attribute("citegate.results", len(results))
            return results

    async def close(self) -> None:
        await self.checker.close()


def tier_wrapper(tracing: Tracing | None) -> Callable[[AsyncChecker, str], AsyncChecker]:
    """What `make_checker` applies to each tier it builds: a span per tier call when tracing
    is on, the checker itself otherwise."""
    if tracing is None:
        return lambda checker, tier: checker

    def wrap(checker: AsyncChecker, tier: str) -> AsyncChecker:
        return TracedChecker(checker, tracing, tier)

    return wrap
