"""Semantic checkers: the Checker protocol and the built-in rules checker.

A checker sees one claim and only its cited fragments, never the whole answer (seed 000), and
answers with the seed 000 contract. The rules checker is the cheap, auditable first gate of
seed 001: it localises the evidence sentences that best cover the claim, measures weighted
claim-token coverage there, and lets risk signals and polarity veto `entailed`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Protocol

from stream.verify.codes import SignalCode, SupportStatus, Verdict
from stream.verify.model import CheckRequest, CheckResult, EvidenceSpan, Fragment, Ref, RiskSignal
from stream.verify.signals import BLOCKING_SIGNALS, NEGATION, SCOPE_SIGNALS
from stream.verify.text import split_sentences
from stream.verify.tokens import jaccard, token_spans, token_weight, tokens


class Checker(Protocol):
    """Anything that can judge one claim against its fragments."""

    @property
    def ref(self) -> Ref: ...

    def check(self, request: CheckRequest) -> CheckResult: ...


@dataclass(frozen=True, slots=True)
class RulesConfig:
    """Thresholds of the rules checker; `citegate calibrate` fits them on labelled data."""

    entail_coverage: float = 0.75
    related_coverage: float = 0.25
    contradiction_coverage: float = 0.5
    window_sentences: int = 3
    max_window_chars: int = 2000
    version: str = "rules-1.0"


ANTONYMS: tuple[tuple[str, str], ...] = (
    ("allow", "prohibit"),
    ("allow", "forbid"),
    ("permit", "prohibit"),
    ("increase", "decrease"),
    ("increase", "reduce"),
    ("rise", "fall"),
    ("more", "less"),
    ("higher", "lower"),
    ("safe", "unsafe"),
    ("effective", "ineffective"),
    ("true", "false"),
    ("before", "after"),
    ("разреш", "запрещ"),
    ("увелич", "уменьш"),
    ("повыш", "сниж"),
    ("больш", "меньш"),
    ("允许", "禁止"),
    ("增加", "减少"),
    ("提高", "降低"),
    ("上升", "下降"),
    ("安全", "危险"),
)
_ANTONYM_RES = [
    (
        re.compile(rf"(?i)(?<!\w){re.escape(a)}\w*" if a.isascii() or a[0].isalpha() else a),
        re.compile(rf"(?i)(?<!\w){re.escape(b)}\w*" if b.isascii() or b[0].isalpha() else b),
    )
    for a, b in ANTONYMS
]


def _has(pattern: re.Pattern[str], text: str) -> bool:
    return pattern.search(text) is not None


@dataclass(frozen=True, slots=True)
class _Window:
    fragment: Fragment
    start: int
    end: int
    covered: frozenset[str]
    coverage: float


class RulesChecker:
    """Lexical coverage + risk signals; deterministic, fast, explainable."""

    def __init__(self, config: RulesConfig | None = None) -> None:
        self.config = config or RulesConfig()
        self._ref = Ref("rules", self.config.version)

    @property
    def ref(self) -> Ref:
        return self._ref

    def check(self, request: CheckRequest) -> CheckResult:
        result = self._judge(request)
        own = tuple(s for s in result.signals if s not in request.signals)
        return replace(result, signals=own)

    def _judge(self, request: CheckRequest) -> CheckResult:
        cfg = self.config
        weights = {tok: token_weight(tok) for tok in tokens(request.claim)}
        total = sum(weights.values())
        if not request.fragments:
            return CheckResult(
                request.claim_id,
                Verdict.INSUFFICIENT,
                support_status=SupportStatus.MISSING_CITATION,
                reason="no evidence fragment to compare with",
                confidence=1.0,
            )
        if total == 0:
            return CheckResult(
                request.claim_id,
                Verdict.UNKNOWN,
                reason="the claim has no content words to check",
                confidence=0.0,
            )

        windows = [self._best_window(f, weights, total) for f in request.fragments]
        best = max(windows, key=lambda w: w.coverage)
        contributing = [w for w in windows if w.covered - best.covered]
        union = frozenset().union(*(w.covered for w in windows))
        coverage = sum(weights[t] for t in union) / total
        signals = list(request.signals)
        if (
            len([w for w in windows if w.covered]) > 1
            and best.coverage < cfg.entail_coverage <= coverage
        ):
            signals.append(
                RiskSignal(
                    SignalCode.UNLINKED_CITATIONS, "support is spread over several citations"
                )
            )
        used = [best, *contributing] if coverage > best.coverage else [best]
        evidence_text = " ".join(w.fragment.text[w.start : w.end] for w in used)
        jac = max(
            jaccard(set(tokens(request.claim)), set(tokens(f.text))) for f in request.fragments
        )

        contradiction = self._contradiction(request.claim, evidence_text)
        blocking = [s for s in signals if s.code in BLOCKING_SIGNALS]
        scope = [s for s in signals if s.code in SCOPE_SIGNALS]
        uncovered = self._uncovered_parts(request.claim, union)
        unsupported = tuple(
            dict.fromkeys(
                [s.detail for s in blocking if s.code is SignalCode.NUMBER_UNSUPPORTED] + uncovered
            )
        )
        evidence = tuple(self._span(w) for w in used if w.covered)
        ids = tuple(dict.fromkeys(w.fragment.citation_id for w in used if w.covered))
        pct = f"{coverage:.0%}"
        found = tuple(signals)

        if contradiction and coverage >= cfg.contradiction_coverage:
            conf = min(0.95, 0.5 + coverage / 2)
            return CheckResult(
                request.claim_id,
                Verdict.CONTRADICTED,
                ids,
                unsupported,
                conf,
                coverage,
                jac,
                evidence,
                SupportStatus.CONTRADICTS_EVIDENCE,
                f"evidence covers {pct} of the claim but {contradiction}",
                found,
            )
        if coverage >= cfg.entail_coverage and not blocking:
            conf = 0.5 + 0.5 * (coverage - cfg.entail_coverage) / (1 - cfg.entail_coverage + 1e-9)
            return CheckResult(
                request.claim_id,
                Verdict.ENTAILED,
                ids,
                (),
                round(conf, 3),
                coverage,
                jac,
                evidence,
                SupportStatus.SUPPORTED,
                f"cited evidence covers {pct} of the claim's content",
                found,
            )
        if coverage < cfg.related_coverage and not (coverage > 0 and scope):
            conf = 0.5 + 0.5 * (cfg.related_coverage - coverage) / cfg.related_coverage
            return CheckResult(
                request.claim_id,
                Verdict.INSUFFICIENT,
                (),
                unsupported,
                round(conf, 3),
                coverage,
                jac,
                evidence,
                SupportStatus.WRONG_CITATION,
                f"cited fragment is unrelated to the claim ({pct} covered)",
                found,
            )
        why = "; ".join(f"{s.code.value}: {s.detail}" for s in blocking) or "partial coverage"
        conf = 0.5 + 0.4 * abs(coverage - cfg.entail_coverage)
        return CheckResult(
            request.claim_id,
            Verdict.INSUFFICIENT,
            ids,
            unsupported,
            round(min(conf, 0.9), 3),
            coverage,
            jac,
            evidence,
            SupportStatus.BEYOND_EVIDENCE,
            f"claim goes beyond its evidence ({pct} covered; {why})",
            found,
        )

    def _best_window(self, fragment: Fragment, weights: dict[str, float], total: float) -> _Window:
        """The run of up to N consecutive sentences that covers most of the claim's weight."""
        cfg = self.config
        sentences = split_sentences(fragment.text) or [(0, len(fragment.text))]
        hits = [
            frozenset(t for t in tokens(fragment.text[a:b]) if t in weights) for a, b in sentences
        ]
        best = _Window(fragment, sentences[0][0], sentences[0][1], frozenset(), 0.0)
        for i in range(len(sentences)):
            covered: frozenset[str] = frozenset()
            for k in range(i, min(i + cfg.window_sentences, len(sentences))):
                if k > i and sentences[k][1] - sentences[i][0] > cfg.max_window_chars:
                    break
                covered = covered | hits[k]
                score = sum(weights[t] for t in covered) / total
                if score > best.coverage + 1e-9:
                    best = _Window(fragment, sentences[i][0], sentences[k][1], covered, score)
        return best

    @staticmethod
    def _contradiction(claim: str, evidence: str) -> str | None:
        if _has(NEGATION, claim) != _has(NEGATION, evidence):
            side = "the claim" if _has(NEGATION, claim) else "the evidence"
            return f"only {side} is negated"
        for left, right in _ANTONYM_RES:
            for a, b in ((left, right), (right, left)):
                ma, mb = a.search(claim), b.search(evidence)
                if ma and mb and not a.search(evidence):
                    return f"the claim says {ma.group(0)!r} where the evidence says {mb.group(0)!r}"
        return None

    @staticmethod
    def _uncovered_parts(claim: str, covered: frozenset[str]) -> list[str]:
        """Surface stretches of the claim whose tokens the evidence does not contain."""
        marks = [False] * len(claim)
        any_token = False
        for tok, a, b in token_spans(claim):
            any_token = True
            if tok not in covered:
                for i in range(a, b):
                    marks[i] = True

        if not any_token:
            return []
        for tok, a, b in token_spans(claim):
            if tok in covered:
                for i in range(a, b):
                    marks[i] = False
        parts, i = [], 0
        while i < len(claim):
            if marks[i]:
                j = i
                while j < len(claim) and (
                    marks[j] or (claim[j] == " " and j + 1 < len(claim) and marks[j + 1])
                ):
                    j += 1
                parts.append(claim[i:j].strip())
                i = j
            else:
                i += 1
        return [p for p in parts if p]

    @staticmethod
    def _span(window: _Window) -> EvidenceSpan:
        f = window.fragment
        base = f.offset if f.offset is not None else 0
        return EvidenceSpan(
            f.citation_id,
            base + window.start,
            base + window.end,
            f.text[window.start : window.end],
            f.document_id,
            f.document_version,
        )
