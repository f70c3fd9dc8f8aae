"""Prometheus metrics bundle (injectable registry), sliced by the eight version labels.

Label values come from events, i.e. from producers we do not control, so every label is capped
to a bounded number of distinct values; later newcomers are counted as `__other__`.
"""

from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from stream.verify.codes import WARNING_CODES, CheckCode, FinalStatus, InputCode
from stream.verify.model import Answer, AnswerResult, Ref

VERSION_LABELS = (
    "corpus",
    "corpus_version",
    "generator",
    "generator_version",
    "retriever",
    "retriever_version",
    "checker",
    "checker_version",
)
SLICE = (*VERSION_LABELS, "mode")
OTHER = "__other__"
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
CACHE_EVENTS = ("hit", "miss", "negative_hit", "eviction", "error", "coalesced")
INVALID_CITATION_CODES = tuple(
    c.value for c in CheckCode if c not in WARNING_CODES and c is not CheckCode.CORPUS_UNAVAILABLE
)
"""Codes `citegate_citation_errors_total` counts: deterministic errors, not warnings/outages."""
SUFFIXES = {
    "counter": ("_total", "_created"),
    "histogram": ("_bucket", "_count", "_sum", "_created"),
    "gauge": ("",),
}


OPENMETRICS = "application/openmetrics-text"


def exposition(registry: CollectorRegistry, accept: str) -> tuple[bytes, str]:
    """`/metrics` body and content type: OpenMetrics (with the latency exemplars that link to
    traces) when the scraper asks for it, as Prometheus does with exemplar storage on; the
    classic text format otherwise."""
    if OPENMETRICS in accept:
        from prometheus_client.openmetrics import exposition as om

        # aiohttp wants the charset separately from the content type.
        body: bytes = om.generate_latest(registry)  # type: ignore[no-untyped-call]
        return body, f"{OPENMETRICS}; version=1.0.0"
    return generate_latest(registry), "text/plain; version=0.0.4"


def exposed_names(registry: CollectorRegistry) -> set[str]:
    """Every sample name a registry can expose, observed yet or not (metric families plus
    their type's suffixes), e.g. `citegate_processing_seconds_bucket`."""
    out: set[str] = set()
    for family in registry.collect():
        out.update(family.name + suffix for suffix in SUFFIXES.get(family.type, ("",)))
    return out


class LabelCap:
    """Remembers up to `cap` distinct values per label name; the rest become `__other__`."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self._seen: dict[str, set[str]] = {}

    def __call__(self, label: str, value: str) -> str:
        seen = self._seen.setdefault(label, set())
        if value in seen:
            return value
        if len(seen) >= self.cap:
            return OTHER
        seen.add(value)
        return value


MAX_CACHED_SLICES = 1024


class SliceChildren:
    """Label-bound children of one slice, so counting an answer does not resolve label sets
    (`labels()` validates and locks on every call) once per claim."""

    __slots__ = ("_cache", "labels")

    def __init__(self, labels: dict[str, str]) -> None:
        self.labels = labels
        self._cache: dict[tuple[int, str, str], Any] = {}

    def plain(self, metric: Any) -> Any:
        return self._get(metric, "", "", lambda: metric.labels(**self.labels))

    def child(self, metric: Any, name: str, value: str) -> Any:
        return self._get(metric, name, value, lambda: metric.labels(**self.labels, **{name: value}))

    def claim(self, metric: Any, verdict: str, support: str) -> Any:
        return self._get(
            metric,
            verdict,
            support,
            lambda: metric.labels(**self.labels, verdict=verdict, support_status=support),
        )

    def _get(self, metric: Any, a: str, b: str, make: Callable[[], Any]) -> Any:
        key = (id(metric), a, b)
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = make()
        return found


class LagGauge(Gauge):
    """A gauge whose removed children read 0 first: in multiprocess mode a removed child's
    last value stays in the process's file, and a partition that moved to another worker
    process must not keep its old lag there."""

    def remove(self, *labelvalues: Any) -> None:
        self.labels(*labelvalues).set(0)
        super().remove(*labelvalues)


class Metrics:
    """Every metric citegate exports. One instance per worker; tests pass their own registry."""

    def __init__(self, registry: CollectorRegistry | None = None, label_cap: int = 50) -> None:
        self.registry = registry if registry is not None else CollectorRegistry()
        self.cap = LabelCap(label_cap)
        r = self.registry
        self.answers = Counter(
            "citegate_answers",
            "Answers decided, by final status.",
            [*SLICE, "final_status"],
            registry=r,
        )
        self.claims = Counter(
            "citegate_claims",
            "Claims verified, by verdict and support status.",
            [*SLICE, "verdict", "support_status"],
            registry=r,
        )
        self.claims_without_citation = Counter(
            "citegate_claims_without_citation", "Claims that cite nothing.", SLICE, registry=r
        )
        self.citations = Counter("citegate_citations", "Citations checked.", SLICE, registry=r)
        self.citation_errors = Counter(
            "citegate_citation_errors",
            "Deterministic citation errors, by code.",
            [*SLICE, "code"],
            registry=r,
        )
        self.risk_signals = Counter(
            "citegate_risk_signals", "Risk signals raised, by code.", [*SLICE, "code"], registry=r
        )
        self.processing = Histogram(
            "citegate_processing_seconds",
            "Time from consuming an answer to its decision.",
            SLICE,
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.checker_seconds = Histogram(
            "citegate_checker_seconds",
            "Semantic checker time per claim.",
            ["checker", "checker_version"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.dead_letters = Counter(
            "citegate_dead_letters", "Inputs refused, by reason.", ["reason"], registry=r
        )
        self.duplicates = Counter(
            "citegate_duplicates_skipped",
            "Input events skipped as duplicates of a seen event_id.",
            registry=r,
        )
        self.inputs = Counter(
            "citegate_input_events", "Input events consumed.", ["topic"], registry=r
        )
        self.cache_events = Counter(
            "citegate_corpus_cache_events",
            "Corpus cache events: hit, miss, negative_hit, eviction, error, coalesced.",
            ["event"],
            registry=r,
        )
        self.corpus_lookup = Histogram(
            "citegate_corpus_lookup_seconds",
            "Corpus store query time.",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        # Gauges say how several worker processes combine (`--processes`, multiprocess mode):
        # the store is up and the stage ready only if so in every live process; a partition's
        # lag is its owner's (others hold 0, see LagGauge).
        self.corpus_up = Gauge(
            "citegate_corpus_up",
            "1 when the last corpus lookup succeeded, else 0.",
            registry=r,
            multiprocess_mode="livemin",
        )
        self.consumer_lag = LagGauge(
            "citegate_consumer_lag",
            "Messages behind the end of the input topic partition.",
            ["topic", "partition"],
            registry=r,
            multiprocess_mode="livemax",
        )
        self.ready = Gauge(
            "citegate_ready",
            "1 when the worker consumes and produces.",
            registry=r,
            multiprocess_mode="livemin",
        )
        self.llm_requests = Counter(
            "citegate_llm_requests",
            "Model checker HTTP requests, by outcome: ok, malformed, timeout, http_error,"
            " connection_error, circuit_open (refused without a request).",
            ["outcome"],
            registry=r,
        )
        self.llm_latency = Histogram(
            "citegate_llm_latency_seconds",
            "Model checker HTTP request time, per attempt.",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.llm_tokens = Counter(
            "citegate_llm_tokens",
            "Tokens the model endpoint reports in `usage`, by kind: prompt, completion.",
            ["kind"],
            registry=r,
        )
        self.cascade_claims = Counter(
            "citegate_cascade_claims",
            "Claims each cascade tier settled: rules (kept), model (lifted by the learned "
            "model), llm (judged by the LLM).",
            ["tier"],
            registry=r,
        )
        self.checker_errors = Counter(
            "citegate_checker_errors",
            "Semantic checker exceptions (claims left `unknown`), by exception kind.",
            ["checker", "checker_version", "kind"],
            registry=r,
        )
        self.seen_malformed = Counter(
            "citegate_seen_marks_malformed",
            "Duplicate-index marks that could not be read (ignored on restore and tail).",
            registry=r,
        )
        self.retries = Counter(
            "citegate_batch_retries",
            "Batches rewound and retried, by the error code that caused it.",
            ["code"],
            registry=r,
        )
        self.stalled = Gauge(
            "citegate_stalled",
            "1 when the consume loop made no progress for CITEGATE_STALL_S while inputs wait.",
            registry=r,
        )
        self._slices: set[tuple[str, ...]] = set()
        self._slice_cache: dict[tuple[str, ...], SliceChildren] = {}
        # Children with a closed set of label values start at 0, so ratios and increase() see
        # the first event instead of a series that appears out of nowhere.
        for reason in InputCode:
            self.dead_letters.labels(reason=reason.value)
        for event in CACHE_EVENTS:
            self.cache_events.labels(event=event)

    def _init_slice(self, s: Mapping[str, str]) -> None:
        """Zero-valued children for a slice's first answer (0 rather than "no data")."""
        key = tuple(s[k] for k in SLICE)
        if key in self._slices:
            return
        self._slices.add(key)
        for status in FinalStatus:
            self.answers.labels(**s, final_status=status.value)
        self.claims_without_citation.labels(**s)
        self.citations.labels(**s)
        for code in INVALID_CITATION_CODES:
            self.citation_errors.labels(**s, code=code)

    def slice_of(self, answer: Answer, checker: Ref, mode: str) -> dict[str, str]:
        raw = {
            "corpus": answer.corpus.name,
            "corpus_version": answer.corpus.version,
            "generator": answer.generator.name,
            "generator_version": answer.generator.version,
            "retriever": answer.retriever.name,
            "retriever_version": answer.retriever.version,
            "checker": checker.name,
            "checker_version": checker.version,
        }
        labels = {k: self.cap(k, v) for k, v in raw.items()}
        labels["mode"] = mode
        return labels

    def observe_result(
        self,
        result: AnswerResult,
        checker: Ref,
        mode: str,
        latency_s: float | None,
        trace_id: str | None = None,
    ) -> None:
        """Count one decided answer and its claims: counts are summed first, then each child
        (looked up once per slice, see `_slice`) is incremented once. With the answer's
        `trace_id`, its latency is an exemplar (OpenMetrics exposition) linking to its trace."""
        sl = self._slice(result.answer, checker, mode)
        sl.child(self.answers, "final_status", result.decision.final_status.value).inc()
        claims: Tally[tuple[str, str]] = Tally()
        signals: Tally[str] = Tally()
        errors: Tally[str] = Tally(e.code.value for e in result.errors)
        cited = uncited = 0
        for v in result.verdicts:
            claims[(v.verdict.value, v.support_status.value)] += 1
            if not v.claim.citation_ids:
                uncited += 1
            for sig in v.risk_signals:
                signals[sig.code.value] += 1
            for err in v.deterministic_errors:
                if err.code.value == "citation_unknown":
                    errors[err.code.value] += 1
            cited += len(v.claim.citation_ids)
        for (verdict, support), n in claims.items():
            sl.claim(self.claims, verdict, support).inc(n)
        if uncited:
            sl.plain(self.claims_without_citation).inc(uncited)
        for code, n in signals.items():
            sl.child(self.risk_signals, "code", code).inc(n)
        for code, n in errors.items():
            sl.child(self.citation_errors, "code", code).inc(n)
        sl.plain(self.citations).inc(max(cited, len(result.citation_checks)))
        if latency_s is not None:
            if trace_id is not None:
                sl.plain(self.processing).observe(latency_s, {"trace_id": trace_id})
            else:
                sl.plain(self.processing).observe(latency_s)

    def _slice(self, answer: Answer, checker: Ref, mode: str) -> SliceChildren:
        """The children of one slice, cached by its raw label values (bounded: values come
        from events, so past MAX_CACHED_SLICES new ones are looked up every time)."""
        key = (
            answer.corpus.name,
            answer.corpus.version,
            answer.generator.name,
            answer.generator.version,
            answer.retriever.name,
            answer.retriever.version,
            checker.name,
            checker.version,
            mode,
        )
        found = self._slice_cache.get(key)
        if found is not None:
            return found
        labels = self.slice_of(answer, checker, mode)
        self._init_slice(labels)
        children = SliceChildren(labels)
        if len(self._slice_cache) < MAX_CACHED_SLICES:
            self._slice_cache[key] = children
        return children

    def cache_event(self, kind: str) -> None:
        self.cache_events.labels(event=kind).inc()
        if kind == "error":
            self.corpus_up.set(0)

    def corpus_lookup_seconds(self, seconds: float) -> None:
        self.corpus_lookup.observe(seconds)
        self.corpus_up.set(1)

    def set_lag(self, lags: Mapping[tuple[str, int], int]) -> None:
        for (topic, partition), lag in lags.items():
            self.consumer_lag.labels(topic=topic, partition=str(partition)).set(lag)

    def exposed_names(self) -> set[str]:
        return exposed_names(self.registry)

    def names(self) -> Iterable[str]:
        """Sample names this bundle exports (for tests that check deploy/ uses real names)."""
        for metric in self.registry.collect():
            for sample in metric.samples:
                yield sample.name
