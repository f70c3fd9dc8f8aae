"""Checker tiers: rules, then a learned model, then an LLM, then a person.

Every claim gets the rules verdict first; it is cheap and auditable. Then:

1. **Final rules verdicts.** A verdict other than `entailed` that names a slot mismatch
   (`SLOT_MISMATCHES`: number, unit, identifier, entity, quantifier, condition, bound, order,
   negation, date, version) is final: no later tier sees the claim, so none can turn it into
   `entailed`.
2. **Learned model** (`model:DIR`, when configured) sees the other `insufficient` claims whose
   risk signals — the request's or the rules' — name no slot mismatch and nothing in `NO_LIFT`
   (a strengthened modality, an absolute word or an inference cue the evidence does not
   carry). At or above its threshold the claim becomes `entailed`; below it the claim is not
   settled by the model.
3. **LLM** (when an endpoint is configured) sees the claims that are still open and doubtful:
   `lo <= p_entailed <= hi` (the rules' confidence in `entailed`), a risk signal in
   `route_signals`, no usable rules result, or a model tier failure. Its verdict replaces the
   rules'; if it fails, the claim is `unknown` — never the rules' `entailed`, since the rules
   were the ones in doubt.
4. Everything else keeps the rules verdict, and the decision policy sends what is not
   `entailed` to regeneration or a reviewer.

`citegate_cascade_claims_total{tier}` counts the claims each tier settled.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import replace

from stream.checkers.base import AsyncChecker
from stream.metrics import Metrics
from stream.verify.codes import SignalCode, SupportStatus, Verdict
from stream.verify.model import CheckRequest, CheckResult, Ref, RiskSignal

log = logging.getLogger("citegate.cascade")

DEFAULT_ROUTE_SIGNALS = frozenset(
    {"negation_mismatch", "number_unsupported", "modality_strengthened"}
)

SLOT_MISMATCHES: frozenset[SignalCode] = frozenset(
    {
        SignalCode.NUMBER_MISMATCH,
        SignalCode.NUMBER_UNSUPPORTED,
        SignalCode.UNIT_MISMATCH,
        SignalCode.IDENTIFIER_MISMATCH,
        SignalCode.ENTITY_MISMATCH,
        SignalCode.QUANTIFIER_WIDENED,
        SignalCode.CLAUSES_MIXED,
        SignalCode.CONDITION_DROPPED,
        SignalCode.BOUND_MISMATCH,
        SignalCode.ORDER_MISMATCH,
        SignalCode.NEGATION_MISMATCH,
        SignalCode.DATE_MISMATCH,
        SignalCode.VERSION_MISMATCH,
    }
)
"""A non-entailed rules verdict naming one of these is final."""

NO_LIFT: frozenset[SignalCode] = frozenset(
    {
        SignalCode.MODALITY_STRENGTHENED,
        SignalCode.ABSOLUTE_UNSUPPORTED,
        SignalCode.INFERENCE_CUE,
        # a condition the rules see changed (only if -> if, a requirement stated as enough):
        # an overreach a generator makes often and a small model, reading a claim that shares
        # every word with its evidence, sees least (dropped ones are slot mismatches, final)
        SignalCode.CONDITION_CHANGED,
    }
)
"""Risk signals under which the learned model may not lift a claim (the LLM still may)."""

TIERS = ("rules", "model", "llm")


def p_entailed(result: CheckResult) -> float:
    """The rules' probability that the claim is entailed, read off its verdict and confidence."""
    if result.verdict is Verdict.ENTAILED:
        return result.confidence
    return 1.0 - result.confidence


def is_final(result: CheckResult) -> bool:
    """A rules verdict that names a slot mismatch settles the claim for good."""
    return result.verdict is not Verdict.ENTAILED and any(
        s.code in SLOT_MISMATCHES for s in result.signals
    )


def may_lift(request: CheckRequest, first: CheckResult | None) -> bool:
    """Whether the learned model may turn this rules verdict into `entailed`."""
    if first is None or first.claim_id != request.claim_id:
        return False
    if first.verdict is not Verdict.INSUFFICIENT:
        return False
    blocked = SLOT_MISMATCHES | NO_LIFT
    return not any(s.code in blocked for s in (*request.signals, *first.signals))


class CascadeChecker:
    """AsyncChecker: `rules` on every claim, then `learned` and `llm` tiers where configured."""

    def __init__(
        self,
        rules: AsyncChecker,
        llm: AsyncChecker | None = None,
        band: tuple[float, float] = (0.3, 0.7),
        route_signals: frozenset[str] = DEFAULT_ROUTE_SIGNALS,
        metrics: Metrics | None = None,
        *,
        learned: AsyncChecker | None = None,
    ) -> None:
        lo, hi = band
        if not 0.0 <= lo <= hi <= 1.0:
            raise ValueError(f"band must satisfy 0 <= lo <= hi <= 1, got {band}")
        if llm is None and learned is None:
            raise ValueError("a cascade needs a learned model, an LLM, or both")
        self.rules = rules
        self.llm = llm
        self.learned = learned
        self.band = band
        self.route_signals = route_signals
        self.metrics = metrics
        self.settled = dict.fromkeys(TIERS, 0)
        version = rules.ref.version
        for tier in (learned, llm):
            if tier is not None:
                version += f"+{tier.ref.name}:{tier.ref.version}"
        self._ref = Ref("cascade", version)

    @property
    def ref(self) -> Ref:
        return self._ref

    @property
    def routed(self) -> int:
        """Claims the LLM tier judged (kept for the dashboards' older panels)."""
        return self.settled["llm"]

    @property
    def kept(self) -> int:
        return self.settled["rules"]

    def route_reason(self, request: CheckRequest, first: CheckResult | None) -> str | None:
        """Why this claim goes to the LLM, or None to keep what the earlier tiers said."""
        if first is None or first.claim_id != request.claim_id:
            return "no rules result"
        if first.verdict is Verdict.UNKNOWN:
            return "rules verdict unknown"
        if is_final(first):
            return None
        signals = {s.code.value for s in (*request.signals, *first.signals)}
        hits = sorted(signals & self.route_signals)
        if hits:
            return "signals " + ",".join(hits)
        p = p_entailed(first)
        lo, hi = self.band
        if lo <= p <= hi:
            return f"p_entailed {p:.2f} in [{lo}, {hi}]"
        return None

    def may_lift(self, request: CheckRequest, first: CheckResult | None) -> bool:
        return may_lift(request, first)

    async def check_many(self, requests: Sequence[CheckRequest]) -> dict[str, CheckResult]:
        try:
            first = await self.rules.check_many(requests)
        except Exception:  # without rules results every claim goes on
            log.exception("rules checker failed; %d claims go to the next tiers", len(requests))
            first = {}
        out: dict[str, CheckResult] = {}
        failed: set[str] = set()
        if self.learned is not None:
            judges = getattr(self.learned, "judges", None)  # a model judges its languages only
            liftable = [
                r
                for r in requests
                if self.may_lift(r, first.get(r.claim_id)) and (judges is None or judges(r))
            ]
            out, failed = await self._learned_tier(liftable, first)
        routed: list[tuple[CheckRequest, str]] = []
        for request in requests:
            cid = request.claim_id
            if cid in out:
                continue
            why = "learned model failed" if cid in failed else None
            why = why or self.route_reason(request, first.get(cid))
            if self.llm is not None and why is not None:
                routed.append((request, why))
            elif cid in first:
                out[cid] = first[cid]
                self._count("rules")
            else:
                out[cid] = _unknown(request, "no verdict from any tier")
        if not routed or self.llm is None:
            return out
        try:
            second = await self.llm.check_many([r for r, _ in routed])
        except Exception:  # a checker failure must never pass a claim
            log.exception("LLM checker failed for %d routed claims", len(routed))
            second = {}
        for request, why in routed:
            out[request.claim_id] = self._merge(request, why, first, second)
            self._count("llm")
        return out

    async def _learned_tier(
        self, liftable: Sequence[CheckRequest], first: dict[str, CheckResult]
    ) -> tuple[dict[str, CheckResult], set[str]]:
        """(claims the model lifted to `entailed`, ids it gave no verdict for)."""
        assert self.learned is not None
        if not liftable:
            return {}, set()
        try:
            judged = await self.learned.check_many(liftable)
        except Exception:
            log.exception("learned model failed for %d claims", len(liftable))
            judged = {}
        lifted: dict[str, CheckResult] = {}
        failed: set[str] = set()
        for request in liftable:
            cid = request.claim_id
            got = judged.get(cid)
            if got is None or got.claim_id != cid or got.verdict is Verdict.UNKNOWN:
                failed.add(cid)
            elif got.verdict is Verdict.ENTAILED:
                rules_result = first[cid]
                lifted[cid] = replace(
                    got,
                    reason=f"rules: insufficient ({rules_result.reason}); {got.reason}",
                    signals=tuple(dict.fromkeys((*rules_result.signals, *got.signals))),
                )
                self._count("model")
        if failed and self.llm is None:
            for cid in failed:
                request = next(r for r in liftable if r.claim_id == cid)
                lifted[cid] = _unknown(request, "the learned model gave no verdict")
                self._count("model")
        return lifted, failed

    def _merge(
        self,
        request: CheckRequest,
        why: str,
        first: dict[str, CheckResult],
        second: dict[str, CheckResult],
    ) -> CheckResult:
        assert self.llm is not None
        rules_result = first.get(request.claim_id)
        own_signals = rules_result.signals if rules_result is not None else ()
        model_result = second.get(request.claim_id)
        name = self.llm.ref.name
        if (
            model_result is None
            or model_result.claim_id != request.claim_id
            or model_result.verdict is Verdict.UNKNOWN
        ):
            detail = model_result.reason if model_result is not None else "no result"
            return _unknown(
                request, f"routed to {name} ({why}); {name} gave no verdict: {detail}", own_signals
            )
        merged = tuple(dict.fromkeys((*own_signals, *model_result.signals)))
        return replace(
            model_result,
            reason=f"routed to {name} ({why}): {model_result.reason}",
            signals=merged,
        )

    def _count(self, tier: str) -> None:
        self.settled[tier] += 1
        if self.metrics is not None:
            self.metrics.cascade_claims.labels(tier=tier).inc()

    async def close(self) -> None:
        closing = [c.close() for c in (self.rules, self.learned, self.llm) if c is not None]
        for r in await asyncio.gather(*closing, return_exceptions=True):
            if isinstance(r, BaseException):
                log.warning("error while closing a cascade checker: %r", r)


def _unknown(
    request: CheckRequest, reason: str, signals: tuple[RiskSignal, ...] = ()
) -> CheckResult:
    return CheckResult(
        request.claim_id,
        Verdict.UNKNOWN,
        support_status=SupportStatus.UNVERIFIED,
        reason=reason,
        signals=signals,
    )
