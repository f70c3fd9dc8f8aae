"""Prometheus metrics of the review server (injectable registry).

Queue gauges are refreshed from the queue on every scrape, so they are never stale. Review
counters and the latency histogram count reviews read after the server caught up (or submitted
through it), not the history replayed at start, so a restart does not look like a burst.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

from stream.metrics import LabelCap, exposed_names
from stream.review.events import Label, ReviewDecision, agrees
from stream.review.queue import REVIEWABLE, Removed, ReviewQueue

REVIEW_LATENCY_BUCKETS = (
    60,
    300,
    900,
    1800,
    3600,
    2 * 3600,
    4 * 3600,
    8 * 3600,
    24 * 3600,
    2 * 24 * 3600,
    7 * 24 * 3600,
)


class ReviewMetrics:
    """Every metric `citegate review` exports; tests pass their own registry."""

    def __init__(self, registry: CollectorRegistry | None = None, label_cap: int = 50) -> None:
        self.registry = registry if registry is not None else CollectorRegistry()
        self.cap = LabelCap(label_cap)
        r = self.registry
        self.queue_depth = Gauge(
            "citegate_review_queue_depth",
            "Answers waiting for a reviewer, by the decision's final status.",
            ["final_status"],
            registry=r,
        )
        self.queue_oldest = Gauge(
            "citegate_review_queue_oldest_age_seconds",
            "Age of the oldest answer waiting for a reviewer (0 when none waits).",
            ["final_status"],
            registry=r,
        )
        self.ready = Gauge(
            "citegate_review_ready", "1 once the queue has caught up with its topics.", registry=r
        )
        self.reviews = Counter(
            "citegate_reviews",
            "Reviews that took an answer out of the queue, by the reviewer's decision.",
            ["decision"],
            registry=r,
        )
        self.latency = Histogram(
            "citegate_review_latency_seconds",
            "Time from the decision record to the review that answered it.",
            ["final_status"],
            buckets=REVIEW_LATENCY_BUCKETS,
            registry=r,
        )
        self.review_claims = Counter(
            "citegate_review_claims",
            "Reviewed claims by checker version, checker verdict, reviewer label and whether"
            " they agree (label supported/not_supported/contradicted = verdict"
            " entailed/insufficient/contradicted).",
            ["checker", "checker_version", "verdict", "label", "agreement"],
            registry=r,
        )
        for status in REVIEWABLE:
            self.queue_depth.labels(final_status=status)
            self.queue_oldest.labels(final_status=status)
            self.latency.labels(final_status=status)
        for decision in ReviewDecision:
            self.reviews.labels(decision=decision.value)

    def refresh(self, queue: ReviewQueue, now_ms: int, caught_up: bool) -> None:
        """Set the queue gauges from the queue as it is now (called per scrape)."""
        for status, depth in queue.depth().items():
            self.queue_depth.labels(final_status=status).set(depth)
        for status, age in queue.oldest_age_s(now_ms).items():
            self.queue_oldest.labels(final_status=status).set(age)
        self.ready.set(1 if caught_up else 0)

    def observe_review(self, removed: Removed, now_ms: int) -> None:
        review = removed.review
        self.reviews.labels(decision=str(review["decision"])).inc()
        self.latency.labels(final_status=removed.item.status).observe(
            max(0.0, (now_ms - removed.item.decided_at_ms) / 1000)
        )
        checker = review.get("checker") or {}
        name = self.cap("checker", str(checker.get("name")))
        version = self.cap("checker_version", str(checker.get("version")))
        for claim in review.get("claims") or []:
            label = Label(claim["label"])
            verdict = claim.get("checker_verdict")
            self.review_claims.labels(
                checker=name,
                checker_version=version,
                verdict=str(verdict),
                label=label.value,
                agreement="agree" if agrees(label, verdict) else "disagree",
            ).inc()

    def exposed_names(self) -> set[str]:
        return exposed_names(self.registry)
