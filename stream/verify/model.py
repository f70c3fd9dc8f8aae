"""Frozen value types of the verification core: what goes in and what comes out.

Everything here is plain data. Decoding from JSON and encoding to events happen at the edges
(`stream.verify.parse` for answers, `stream.events` for outputs), so the core never sees bytes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from stream.verify.analysis import DocumentAnalysis
from stream.verify.codes import (
    Action,
    CheckCode,
    CitationStatus,
    FinalStatus,
    SignalCode,
    SupportStatus,
    Verdict,
)

OffsetUnit = Literal["codepoint", "utf16", "utf8"]
AnswerForm = Literal["structured", "markers"]


@dataclass(frozen=True, slots=True)
class Ref:
    """A named, versioned component (corpus, generator, retriever, checker)."""

    name: str
    version: str


UNSET_REF = Ref("unknown", "unknown")


@dataclass(frozen=True, slots=True)
class Citation:
    """One citation as the answer states it; offsets are in the answer's `offset_unit`.

    `text` is set when a marker-form source carries its retrieved passage inline.
    """

    id: str | None
    document_id: str | None = None
    document_version: str | None = None
    start: int | None = None
    end: int | None = None
    quote: str | None = None
    sha256: str | None = None
    text: str | None = None
    title: str | None = None
    url: str | None = None

    @property
    def references_corpus(self) -> bool:
        return self.document_id is not None


@dataclass(frozen=True, slots=True)
class Claim:
    """An atomic claim with the citation ids it relies on and its span in the answer."""

    id: str
    text: str
    citation_ids: tuple[str, ...]
    span: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class Answer:
    """A decoded answer, in either body form, reduced to claims and citations."""

    answer: str
    claims: tuple[Claim, ...]
    citations: tuple[Citation, ...]
    form: AnswerForm = "structured"
    offset_unit: OffsetUnit = "codepoint"
    answer_id: str | None = None
    event_id: str | None = None
    created_at: str | None = None
    corpus: Ref = UNSET_REF
    generator: Ref = UNSET_REF
    retriever: Ref = UNSET_REF
    risk_domain: str | None = None
    language: str | None = None
    content_digest: str | None = None
    """sha256 of the event's canonical JSON (set at the topic edge): the id of an input without
    `event_id`, and what tells a producer's retry from a reused `event_id`."""


@dataclass(frozen=True, slots=True)
class Document:
    """One immutable document version."""

    document_id: str
    version: str
    text: str
    sha256: str
    title: str | None = None
    url: str | None = None
    fetched_at: str | None = None


@dataclass(frozen=True, slots=True)
class CheckError:
    """A deterministic finding about one citation (error or warning)."""

    code: CheckCode
    citation_id: str | None
    detail: str
    expected: str | None = None
    received: str | None = None
    found_at: tuple[tuple[int, int], ...] | None = None
    normalized_match: bool | None = None
    relocated_from: tuple[int, int] | None = None
    relocated_to: tuple[int, int] | None = None

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "code": self.code.value,
            "citation_id": self.citation_id,
            "detail": self.detail,
        }
        if self.code is CheckCode.QUOTE_MISMATCH:
            out["expected"] = self.expected
            out["received"] = self.received
            out["found_at"] = [list(p) for p in (self.found_at or ())]
            out["normalized_match"] = bool(self.normalized_match)
        if self.relocated_from is not None:
            out["relocated_from"] = list(self.relocated_from)
        if self.relocated_to is not None:
            out["relocated_to"] = list(self.relocated_to)
        return out


@dataclass(frozen=True, slots=True)
class Fragment:
    """Evidence text a checker may read: one cited passage and where it sits in its document.

    `offset` is the code-point offset of `text` inside the document, or None for inline
    passages that have no corpus position.
    """

    citation_id: str
    text: str
    document_id: str | None = None
    document_version: str | None = None
    offset: int | None = None
    analysis: DocumentAnalysis | None = field(default=None, compare=False, repr=False)
    """The analysis of the document the passage comes from (kept with the cached document):
    where the per-claim code finds what is already known about `text` at `offset`. Not part
    of the fragment's identity."""


@dataclass(frozen=True, slots=True)
class CitationCheck:
    """Result of the deterministic checks for one citation."""

    citation_id: str
    status: Literal["valid", "invalid", "unavailable"]
    errors: tuple[CheckError, ...] = ()
    warnings: tuple[CheckError, ...] = ()
    fragment: Fragment | None = None
    start: int | None = None
    end: int | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "citation_id": self.citation_id,
            "status": self.status,
            "document_id": self.fragment.document_id if self.fragment else None,
            "document_version": self.fragment.document_version if self.fragment else None,
            "start": self.start,
            "end": self.end,
            "errors": [e.to_dict() for e in self.errors],
            "warnings": [w.to_dict() for w in self.warnings],
        }


@dataclass(frozen=True, slots=True)
class RiskSignal:
    code: SignalCode
    detail: str

    def to_dict(self) -> dict[str, object]:
        return {"code": self.code.value, "detail": self.detail}


@dataclass(frozen=True, slots=True)
class EvidenceSpan:
    """A stretch of a cited fragment that supports the claim, in document coordinates."""

    citation_id: str
    start: int
    end: int
    text: str
    document_id: str | None = None
    document_version: str | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "citation_id": self.citation_id,
            "document_id": self.document_id,
            "document_version": self.document_version,
            "start": self.start,
            "end": self.end,
            "text": self.text,
        }


@dataclass(frozen=True, slots=True)
class CheckRequest:
    """What a semantic checker may see: one claim and only its cited fragments."""

    claim_id: str
    claim: str
    fragments: tuple[Fragment, ...]
    language: str
    signals: tuple[RiskSignal, ...] = ()


@dataclass(frozen=True, slots=True)
class CheckResult:
    """The seed 000 checker contract, plus the explanation citegate keeps for reviewers.

    `support_status` lets a checker say *why* a claim is insufficient (unrelated fragment vs.
    partial support); a checker that cannot tell leaves it None.
    """

    claim_id: str
    verdict: Verdict
    evidence_citation_ids: tuple[str, ...] = ()
    unsupported_parts: tuple[str, ...] = ()
    confidence: float = 0.0
    score: float = 0.0
    jaccard: float = 0.0
    evidence: tuple[EvidenceSpan, ...] = ()
    support_status: SupportStatus | None = None
    reason: str = ""
    signals: tuple[RiskSignal, ...] = ()
    """Signals the checker found itself (e.g. support spread over unlinked citations)."""


@dataclass(frozen=True, slots=True)
class ClaimVerdict:
    """Everything known about one claim after verification."""

    claim: Claim
    citation_status: CitationStatus
    citation_checks: tuple[CitationCheck, ...]
    deterministic_errors: tuple[CheckError, ...]
    warnings: tuple[CheckError, ...]
    missing_citations: tuple[str, ...]
    invalid_citations: tuple[str, ...]
    risk_signals: tuple[RiskSignal, ...]
    verdict: Verdict
    support_status: SupportStatus
    action: Action
    score: float
    confidence: float
    jaccard: float
    unsupported_parts: tuple[str, ...]
    evidence: tuple[EvidenceSpan, ...]
    reason: str
    checker: Ref


@dataclass(frozen=True, slots=True)
class Decision:
    final_status: FinalStatus
    counts: Mapping[str, int]
    reasons: tuple[str, ...]
    forced_review_domain: str | None = None

    @property
    def publish(self) -> bool:
        return self.final_status is FinalStatus.ACCEPT


@dataclass(frozen=True, slots=True)
class AnswerResult:
    """The whole outcome for one answer: seed-000 report, claim verdicts, decision."""

    answer: Answer
    errors: tuple[CheckError, ...]
    verdicts: tuple[ClaimVerdict, ...]
    decision: Decision
    citation_checks: tuple[CitationCheck, ...] = field(default=())

    @property
    def ok(self) -> bool:
        """Seed 000's `ok`: no deterministic error and every claim ready for entailment."""
        return not self.errors and all(
            v.citation_status is CitationStatus.REQUIRES_ENTAILMENT_CHECK for v in self.verdicts
        )
