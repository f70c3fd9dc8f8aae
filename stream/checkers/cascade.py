"""Rules first, the model only where the rules are unsure or a risk signal says "look closer".

The rules checker is cheap and auditable; a model checker is slow and costly. Seed 001's gate
order is kept: every claim gets the rules verdict, and only the doubtful ones pay for the model.

`p_entailed` of a rules result is its confidence if the verdict is `entailed`, else
`1 - confidence` (the rules checker's confidence is in the verdict it gives). A claim goes to
the model when `lo <= p_entailed <= hi`, when its risk signals (from the request or found by
the rules checker) meet `route_signals`, or when the rules gave no usable result (`unknown` or
none). A routed claim takes the model's verdict; if the model fails it is `unknown` — never
the rules' `entailed`, since the rules were the ones in doubt.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import replace

from stream.checkers.base import AsyncChecker
from stream.metrics import Metrics
from stream.verify.codes import SupportStatus, Verdict
from stream.verify.model import CheckRequest, CheckResult, Ref

log = logging.getLogger("citegate.cascade")

DEFAULT_ROUTE_SIGNALS = frozenset(
    {"negation_mismatch", "number_unsupported", "modality_strengthened"}
)


def p_entailed(result: CheckResult) -> float:
    """The rules' probability that the claim is entailed, read off its verdict and confidence."""
    if result.verdict is Verdict.ENTAILED:
        return result.confidence
    return 1.0 - result.confidence


class CascadeChecker:
    """AsyncChecker: `rules` on every claim, `model` on the routed ones."""

    def __init__(
        self,
        rules: AsyncChecker,
        model: AsyncChecker,
        band: tuple[float, float] = (0.3, 0.7),
        route_signals: frozenset[str] = DEFAULT_ROUTE_SIGNALS,
        metrics: Metrics | None = None,
    ) -> None:
        lo, hi = band
        if not 0.0 <= lo <= hi <= 1.0:
            raise ValueError(f"band must satisfy 0 <= lo <= hi <= 1, got {band}")
        self.rules = rules
        self.model = model
        self.band = band
        self.route_signals = route_signals
        self.metrics = metrics
        self.routed = 0
        self.kept = 0
        self._ref = Ref("cascade", f"{rules.ref.version}+{model.ref.name}:{model.ref.version}")

    @property
    def ref(self) -> Ref:
        return self._ref

    def route_reason(self, request: CheckRequest, first: CheckResult | None) -> str | None:
        """Why this claim goes to the model, or None to keep the rules verdict."""
        if first is None or first.claim_id != request.claim_id:
            return "no rules result"
        if first.verdict is Verdict.UNKNOWN:
            return "rules verdict unknown"
        signals = {s.code.value for s in (*request.signals, *first.signals)}
        hits = sorted(signals & self.route_signals)
        if hits:
            return "signals " + ",".join(hits)
        p = p_entailed(first)
        lo, hi = self.band
        if lo <= p <= hi:
            return f"p_entailed {p:.2f} in [{lo}, {hi}]"
        return None

    async def check_many(self, requests: Sequence[CheckRequest]) -> dict[str, CheckResult]:
        try:
            first = await self.rules.check_many(requests)
        except Exception:  # without rules results every claim goes to the model
            log.exception("rules checker failed; routing all %d claims", len(requests))
            first = {}
        out: dict[str, CheckResult] = {}
        routed: list[tuple[CheckRequest, str]] = []
        for request in requests:
            rules_result = first.get(request.claim_id)
            why = self.route_reason(request, rules_result)
            if why is None and rules_result is not None:
                out[request.claim_id] = rules_result
            else:
                routed.append((request, why or "no rules result"))
        self._count(routed=len(routed), kept=len(out))
        if not routed:
            return out
        try:
            second = await self.model.check_many([r for r, _ in routed])
        except Exception:  # a checker failure must never pass a claim
            log.exception("model checker failed for %d routed claims", len(routed))
            second = {}
        for request, why in routed:
            out[request.claim_id] = self._merge(request, why, first, second)
        return out

    def _merge(
        self,
        request: CheckRequest,
        why: str,
        first: dict[str, CheckResult],
        second: dict[str, CheckResult],
    ) -> CheckResult:
        rules_result = first.get(request.claim_id)
        own_signals = rules_result.signals if rules_result is not None else ()
        model_result = second.get(request.claim_id)
        name = self.model.ref.name
        if (
            model_result is None
            or model_result.claim_id != request.claim_id
            or model_result.verdict is Verdict.UNKNOWN
        ):
            detail = model_result.reason if model_result is not None else "no result"
            return CheckResult(
                request.claim_id,
                Verdict.UNKNOWN,
                support_status=SupportStatus.UNVERIFIED,
                reason=f"routed to {name} ({why}); {name} gave no verdict: {detail}",
                signals=own_signals,
            )
        merged = tuple(dict.fromkeys((*own_signals, *model_result.signals)))
        return replace(
            model_result,
            reason=f"routed to {name} ({why}): {model_result.reason}",
            signals=merged,
        )

    def _count(self, *, routed: int, kept: int) -> None:
        self.routed += routed
        self.kept += kept
        if self.metrics is not None:
            self.metrics.cascade_claims.labels(route="model").inc(routed)
            self.metrics.cascade_claims.labels(route="rules").inc(kept)

    async def close(self) -> None:
        results = await asyncio.gather(
            self.rules.close(), self.model.close(), return_exceptions=True
        )
        for r in results:
            if isinstance(r, BaseException):
                log.warning("error while closing a cascade checker: %r", r)
