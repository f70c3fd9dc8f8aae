"""Per-answer decision: seed 000's strict policy, with seed 001's forced review domains.

Errors are never averaged away: one deterministic error rejects the answer however good the
other citations are, and one unverifiable claim holds it for a person.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from stream.verify.codes import Action, FinalStatus, SupportStatus, Verdict
from stream.verify.model import CheckError, ClaimVerdict, Decision


@dataclass(frozen=True, slots=True)
class Policy:
    """Decision settings. `force_review_domains` hold even fully entailed answers for review."""

    force_review_domains: frozenset[str] = frozenset()


ACTIONS = {
    SupportStatus.SUPPORTED: Action.ACCEPT,
    SupportStatus.MISSING_CITATION: Action.RETRIEVE,
    SupportStatus.WRONG_CITATION: Action.RETRIEVE,
    SupportStatus.BEYOND_EVIDENCE: Action.REWRITE_OR_REVIEW,
    SupportStatus.CONTRADICTS_EVIDENCE: Action.MANUAL_REVIEW,
    SupportStatus.UNVERIFIED: Action.MANUAL_REVIEW,
}


def decide(
    verdicts: Sequence[ClaimVerdict],
    answer_errors: Iterable[CheckError],
    risk_domain: str | None,
    policy: Policy,
) -> Decision:
    counts = Counter(v.verdict.value for v in verdicts)
    full_counts = {v.value: counts.get(v.value, 0) for v in Verdict}
    errors = list(answer_errors)
    for v in verdicts:
        errors.extend(e for e in v.deterministic_errors if e not in errors)
    if errors:
        codes = sorted({e.code.value for e in errors})
        return Decision(
            FinalStatus.REJECT, full_counts, tuple(f"deterministic: {c}" for c in codes)
        )
    if not verdicts:
        return Decision(FinalStatus.REJECT, full_counts, ("answer has no claims to verify",))
    held = [v for v in verdicts if v.verdict in (Verdict.CONTRADICTED, Verdict.UNKNOWN)]
    if held:
        reasons = tuple(f"{v.claim.id}: {v.verdict.value}: {v.reason}" for v in held)
        return Decision(FinalStatus.MANUAL_REVIEW, full_counts, reasons)
    weak = [v for v in verdicts if v.verdict is Verdict.INSUFFICIENT]
    if weak:
        reasons = tuple(f"{v.claim.id}: {v.support_status.value}: {v.reason}" for v in weak)
        return Decision(FinalStatus.REGENERATE_OR_ABSTAIN, full_counts, reasons)
    if all(v.verdict is Verdict.ENTAILED for v in verdicts):
        domain = (risk_domain or "").lower()
        if domain and domain in policy.force_review_domains:
            reason = f"risk domain {domain!r} always goes to manual review"
            return Decision(FinalStatus.MANUAL_REVIEW, full_counts, (reason,), domain)
        return Decision(
            FinalStatus.ACCEPT, full_counts, ("every claim is entailed by its citations",)
        )
    return Decision(FinalStatus.REJECT, full_counts, ("claims in an unexpected state",))
