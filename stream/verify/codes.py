"""Reason codes and vocabularies, as string enums so they travel unchanged in events."""

from __future__ import annotations

from enum import StrEnum


class CheckCode(StrEnum):
    """Deterministic citation check outcomes (seed 000 codes plus citegate's own)."""

    CITATION_ID_MISSING = "citation_id_missing"
    CITATION_ID_DUPLICATE = "citation_id_duplicate"
    CITATION_UNKNOWN = "citation_unknown"
    DOCUMENT_MISSING = "document_missing"
    DOCUMENT_VERSION_MISMATCH = "document_version_mismatch"
    RANGE_INVALID = "range_invalid"
    QUOTE_MISMATCH = "quote_mismatch"
    CONTENT_HASH_MISMATCH = "content_hash_mismatch"
    QUOTE_MISSING_IN_VERSION = "quote_missing_in_version"
    # Warnings: recorded, never a reason to reject on their own.
    RANGE_RELOCATED = "range_relocated"
    RANGE_REBASED = "range_rebased"
    # Not the answer's fault: the corpus could not be asked.
    CORPUS_UNAVAILABLE = "corpus_unavailable"


WARNING_CODES = frozenset({CheckCode.RANGE_RELOCATED, CheckCode.RANGE_REBASED})


class CitationStatus(StrEnum):
    """Seed 000 per-claim status after the deterministic checks."""

    UNSUPPORTED = "unsupported"
    INVALID_REFERENCE = "invalid_reference"
    REQUIRES_ENTAILMENT_CHECK = "requires_entailment_check"


class Verdict(StrEnum):
    """Seed 000 semantic verdicts."""

    ENTAILED = "entailed"
    CONTRADICTED = "contradicted"
    INSUFFICIENT = "insufficient"
    UNKNOWN = "unknown"


class SupportStatus(StrEnum):
    """Seed 001 support statuses plus `contradictsEvidence`."""

    SUPPORTED = "supported"
    MISSING_CITATION = "missingCitation"
    WRONG_CITATION = "wrongCitation"
    BEYOND_EVIDENCE = "beyondEvidence"
    CONTRADICTS_EVIDENCE = "contradictsEvidence"
    UNVERIFIED = "unverified"
    """Extension: the claim could not be judged (checker or corpus failure, invalid reference)."""


class Action(StrEnum):
    """What the RAG pipeline should do next with one claim (seed 001)."""

    ACCEPT = "accept"
    RETRIEVE = "retrieve"
    REWRITE_OR_REVIEW = "rewrite-or-review"
    MANUAL_REVIEW = "manual-review"


class FinalStatus(StrEnum):
    """Per-answer decision (seed 000 strict policy)."""

    ACCEPT = "accept"
    REJECT = "reject"
    MANUAL_REVIEW = "manual_review"
    REGENERATE_OR_ABSTAIN = "regenerate_or_abstain"


class SignalCode(StrEnum):
    """Cheap risk signals: they route and explain, they never decide alone."""

    NUMBER_UNSUPPORTED = "number_unsupported"
    NEGATION_MISMATCH = "negation_mismatch"
    ABSOLUTE_UNSUPPORTED = "absolute_unsupported"
    MODALITY_STRENGTHENED = "modality_strengthened"
    INFERENCE_CUE = "inference_cue"
    DATE_MISMATCH = "date_mismatch"
    VERSION_MISMATCH = "version_mismatch"
    UNLINKED_CITATIONS = "unlinked_citations"
    # Alignment of the claim to its evidence window (`stream.verify.align`); each detail names
    # the claim's value and the evidence's, e.g. `1000 (evidence: 100)`.
    NUMBER_MISMATCH = "number_mismatch"
    UNIT_MISMATCH = "unit_mismatch"
    IDENTIFIER_MISMATCH = "identifier_mismatch"
    ENTITY_MISMATCH = "entity_mismatch"
    QUANTIFIER_WIDENED = "quantifier_widened"
    QUANTIFIER_MISMATCH = "quantifier_mismatch"
    CONDITION_DROPPED = "condition_dropped"
    BOUND_MISMATCH = "bound_mismatch"
    ORDER_MISMATCH = "order_mismatch"
    CONDITION_CHANGED = "condition_changed"
    ANTONYM_MISMATCH = "antonym_mismatch"
    CLAUSES_MIXED = "clauses_mixed"
    """The claim joins what one clause says of one thing to another clause's other thing."""


class InputCode(StrEnum):
    """Why an input event was refused (dead-letter reasons and CLI input errors)."""

    NOT_UTF8 = "not_utf8"
    NOT_JSON = "not_json"
    SCHEMA_INVALID = "schema_invalid"
    OVERSIZE = "oversize"
    TOO_MANY_CLAIMS = "too_many_claims"
    TOO_MANY_CITATIONS = "too_many_citations"
    OFFSET_UNIT_INVALID = "offset_unit_invalid"
    PROCESSING_FAILED = "processing_failed"
    EVENT_ID_CONFLICT = "event_id_conflict"
    SPAN_INVALID = "span_invalid"
    """A structured claim's span lies outside the answer text (or cuts a character)."""
    OUTPUT_REJECTED = "output_rejected"
    """The broker refused an output of this input for good (e.g. larger than its limit)."""
    """A reused `event_id` whose content differs from the event first seen with it."""
