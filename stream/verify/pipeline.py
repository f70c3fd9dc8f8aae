"""verify_answer: deterministic checks, risk signals, semantic check, decision — in that order.

Split in two halves around the semantic check (`prepare` / `finish`) so an async edge can run
model checkers concurrently while this module stays free of I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from stream.verify.checkers import Checker
from stream.verify.citations import CheckOptions, DocumentSnapshot, check_citations
from stream.verify.codes import CheckCode, CitationStatus, SupportStatus, Verdict
from stream.verify.features import evidence_signals
from stream.verify.model import (
    Answer,
    AnswerResult,
    CheckError,
    CheckRequest,
    CheckResult,
    CitationCheck,
    Claim,
    ClaimVerdict,
    Ref,
)
from stream.verify.policy import ACTIONS, Policy, decide
from stream.verify.text import detect_language


@dataclass(frozen=True, slots=True)
class PreparedClaim:
    """A claim after the deterministic checks; `request` is set when a checker must judge it."""

    claim: Claim
    citation_status: CitationStatus
    checks: tuple[CitationCheck, ...]
    errors: tuple[CheckError, ...]
    warnings: tuple[CheckError, ...]
    missing: tuple[str, ...]
    invalid: tuple[str, ...]
    request: CheckRequest


@dataclass(frozen=True, slots=True)
class Prepared:
    answer: Answer
    errors: tuple[CheckError, ...]
    checks: Mapping[str, CitationCheck]
    claims: tuple[PreparedClaim, ...]

    @property
    def requests(self) -> list[CheckRequest]:
        """Claims the semantic checker must see (deterministically sound, corpus reachable)."""
        return [p.request for p in self.claims if _needs_checker(p)]


def _needs_checker(p: PreparedClaim) -> bool:
    return p.citation_status is CitationStatus.REQUIRES_ENTAILMENT_CHECK and not any(
        w.code is CheckCode.CORPUS_UNAVAILABLE for w in p.warnings
    )


def prepare(
    answer: Answer, snapshot: DocumentSnapshot, options: CheckOptions | None = None
) -> Prepared:
    report = check_citations(answer, snapshot, options)
    language = answer.language or detect_language(answer.answer)
    claims = []
    for claim in answer.claims:
        ids = tuple(dict.fromkeys(claim.citation_ids))
        missing = tuple(i for i in ids if i not in report.checks)
        checks = tuple(report.checks[i] for i in ids if i in report.checks)
        invalid = tuple(c.citation_id for c in checks if c.status == "invalid")
        errors = [e for c in checks for e in c.errors]
        errors += [
            CheckError(CheckCode.CITATION_UNKNOWN, i, f"claim cites {i!r}, which the answer lacks")
            for i in missing
        ]
        if not ids:
            status = CitationStatus.UNSUPPORTED
        elif missing or invalid:
            status = CitationStatus.INVALID_REFERENCE
        else:
            status = CitationStatus.REQUIRES_ENTAILMENT_CHECK
        fragments = tuple(c.fragment for c in checks if c.status == "valid" and c.fragment)
        # Against no evidence every number is "unsupported": only say so when the claim cites
        # nothing at all (seed 001's 80%), not when its citations failed their checks.
        invalid_ref = status is CitationStatus.INVALID_REFERENCE
        signals = () if invalid_ref else evidence_signals(claim.text, fragments)
        request = CheckRequest(claim.id, claim.text, fragments, language, signals)
        warnings = tuple(w for c in checks for w in c.warnings)
        claims.append(
            PreparedClaim(claim, status, checks, tuple(errors), warnings, missing, invalid, request)
        )
    return Prepared(answer, report.errors, report.checks, tuple(claims))


def _fixed_result(p: PreparedClaim) -> CheckResult:
    """The outcome for claims no checker may judge (seed 001 mapping, design §3 table)."""
    cid = p.claim.id
    if p.citation_status is CitationStatus.UNSUPPORTED:
        return CheckResult(
            cid,
            Verdict.INSUFFICIENT,
            support_status=SupportStatus.MISSING_CITATION,
            confidence=1.0,
            reason="the claim cites no evidence",
        )
    if p.citation_status is CitationStatus.INVALID_REFERENCE:
        codes = ", ".join(sorted({e.code.value for e in p.errors}))
        return CheckResult(
            cid,
            Verdict.UNKNOWN,
            support_status=SupportStatus.WRONG_CITATION,
            confidence=1.0,
            reason=f"citation failed deterministic checks: {codes}",
        )
    return CheckResult(
        cid,
        Verdict.UNKNOWN,
        support_status=SupportStatus.UNVERIFIED,
        reason="corpus store unavailable; the citation could not be checked",
    )


def finish(
    prepared: Prepared,
    results: Mapping[str, CheckResult],
    checker: Ref,
    policy: Policy | None = None,
) -> AnswerResult:
    """Combine deterministic findings with checker results and decide for the answer.

    A claim that needed a checker but has no result (the checker failed) becomes `unknown`:
    a failure may hold an answer, never pass it.
    """
    verdicts = []
    for p in prepared.claims:
        if _needs_checker(p):
            result = results.get(p.claim.id) or CheckResult(
                p.claim.id,
                Verdict.UNKNOWN,
                support_status=SupportStatus.UNVERIFIED,
                reason="the checker gave no result",
            )
        else:
            result = _fixed_result(p)
        verdicts.append(_verdict(p, result, checker))
    answer = prepared.answer
    decision = decide(verdicts, prepared.errors, answer.risk_domain, policy or Policy())
    return AnswerResult(
        answer, prepared.errors, tuple(verdicts), decision, tuple(prepared.checks.values())
    )


def _verdict(p: PreparedClaim, result: CheckResult, checker: Ref) -> ClaimVerdict:
    status = result.support_status or _default_status(result.verdict)
    if result.verdict is Verdict.ENTAILED:
        status = SupportStatus.SUPPORTED
    return ClaimVerdict(
        claim=p.claim,
        citation_status=p.citation_status,
        citation_checks=p.checks,
        deterministic_errors=p.errors,
        warnings=p.warnings,
        missing_citations=p.missing,
        invalid_citations=p.invalid,
        risk_signals=p.request.signals
        + tuple(s for s in result.signals if s not in p.request.signals),
        verdict=result.verdict,
        support_status=status,
        action=ACTIONS[status],
        score=round(result.score, 4),
        confidence=round(result.confidence, 4),
        jaccard=round(result.jaccard, 4),
        unsupported_parts=result.unsupported_parts,
        evidence=result.evidence,
        reason=result.reason,
        checker=checker,
    )


def _default_status(verdict: Verdict) -> SupportStatus:
    return {
        Verdict.ENTAILED: SupportStatus.SUPPORTED,
        Verdict.CONTRADICTED: SupportStatus.CONTRADICTS_EVIDENCE,
        Verdict.INSUFFICIENT: SupportStatus.BEYOND_EVIDENCE,
        Verdict.UNKNOWN: SupportStatus.UNVERIFIED,
    }[verdict]


def run_checker(
    checker: Checker,
    requests: Sequence[CheckRequest],
    on_error: Callable[[BaseException], None] | None = None,
) -> dict[str, CheckResult]:
    """Run a synchronous checker; an exception for one claim leaves that claim `unknown` and
    goes to `on_error` (the edge logs and counts it: a silent bug would hold all traffic)."""
    results: dict[str, CheckResult] = {}
    for request in requests:
        try:
            results[request.claim_id] = checker.check(request)
        except Exception as exc:  # noqa: BLE001 — a checker failure must never pass a claim
            if on_error is not None:
                on_error(exc)
            results[request.claim_id] = CheckResult(
                request.claim_id,
                Verdict.UNKNOWN,
                support_status=SupportStatus.UNVERIFIED,
                reason=f"checker failed: {type(exc).__name__}",
            )
    return results


def verify_answer(
    answer: Answer,
    snapshot: DocumentSnapshot,
    checker: Checker,
    policy: Policy | None = None,
    options: CheckOptions | None = None,
) -> AnswerResult:
    prepared = prepare(answer, snapshot, options)
    return finish(prepared, run_checker(checker, prepared.requests), checker.ref, policy)
