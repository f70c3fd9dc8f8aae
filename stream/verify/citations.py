"""Deterministic citation checks (seed 000): existence, version, range, exact quote, hash.

Exact comparison decides; normalised comparison only explains (`normalized_match`). A quote
that occurs elsewhere in the same document version is located (`found_at`) so the producer can
see an off-by-one at a glance. Relocation to that place is opt-in and leaves a warning.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from stream.verify.analysis import DocumentAnalysis, analyse
from stream.verify.codes import WARNING_CODES, CheckCode
from stream.verify.model import Answer, CheckError, Citation, CitationCheck, Document, Fragment
from stream.verify.offsets import to_codepoints
from stream.verify.text import normalise

MAX_FOUND_AT = 64
"""Occurrences of a quote reported in `found_at`; enough to diagnose, bounded for huge docs."""


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class DocumentSnapshot:
    """The documents one answer needs, fetched by the edge before the pure checks run.

    `versions` maps a document id to every version the corpus holds; `unavailable` names
    document ids the store could not be asked about (outage), which must never pass.
    """

    documents: Mapping[tuple[str, str], Document] = field(default_factory=dict)
    versions: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    unavailable: frozenset[str] = frozenset()
    analyses: Mapping[tuple[str, str], DocumentAnalysis] = field(
        default_factory=dict, compare=False
    )
    """The analysis of each document (by the same key), where the edge keeps one: fragments
    cut from a document carry it to the checks of their claims. A cache of what the documents
    say, not part of the snapshot's value: two snapshots of the same documents are equal."""

    @classmethod
    def of(
        cls, docs: list[Document], unavailable: frozenset[str] = frozenset()
    ) -> DocumentSnapshot:
        documents = {(d.document_id, d.version): d for d in docs}
        versions: dict[str, list[str]] = {}
        for d in docs:
            versions.setdefault(d.document_id, []).append(d.version)
        analyses = {key: analyse(d.text) for key, d in documents.items()}
        listed = {k: tuple(v) for k, v in versions.items()}
        return cls(documents, listed, unavailable, analyses)


@dataclass(frozen=True, slots=True)
class CheckOptions:
    """`notes` carry findings made before the checks, by citation id (replay's rebase): an
    error replaces the checks of that citation, a warning is attached to them."""

    relocate_quotes: bool = False
    notes: Mapping[str, CheckError] = field(default_factory=dict)


def find_all(text: str, needle: str, limit: int = MAX_FOUND_AT) -> tuple[tuple[int, int], ...]:
    """Every `[start, end)` where `needle` occurs in `text` (overlaps included), bounded."""
    if not needle:
        return ()
    found: list[tuple[int, int]] = []
    pos = text.find(needle)
    while pos != -1 and len(found) < limit:
        found.append((pos, pos + len(needle)))
        pos = text.find(needle, pos + 1)
    return tuple(found)


def _error(code: CheckCode, cid: str | None, detail: str, **extra: object) -> CheckError:
    return CheckError(code, cid, detail, **extra)  # type: ignore[arg-type]


def _invalid(
    cid: str,
    err: CheckError,
    doc: Document | None = None,
    span: tuple[int, int] | tuple[None, None] = (None, None),
) -> CitationCheck:
    frag = Fragment(cid, "", doc.document_id, doc.version) if doc else None
    return CitationCheck(cid, "invalid", errors=(err,), fragment=frag, start=span[0], end=span[1])


def _valid(cid: str, doc: Document, start: int, end: int, *warnings: CheckError) -> CitationCheck:
    frag = Fragment(cid, doc.text[start:end], doc.document_id, doc.version, start)
    return CitationCheck(cid, "valid", warnings=warnings, fragment=frag, start=start, end=end)


def _check_quote(
    cid: str, doc: Document, start: int, end: int, quote: str | None, options: CheckOptions
) -> CitationCheck:
    expected = doc.text[start:end]
    if quote == expected:
        return _valid(cid, doc, start, end)
    found = find_all(doc.text, quote or "")
    if options.relocate_quotes and len(found) == 1:
        new_start, new_end = found[0]
        warning = _error(
            CheckCode.RANGE_RELOCATED,
            cid,
            f"quote found once at [{new_start}, {new_end}), not at [{start}, {end})",
            relocated_from=(start, end),
            relocated_to=(new_start, new_end),
        )
        return _valid(cid, doc, new_start, new_end, warning)
    where = ", ".join(f"[{a}, {b})" for a, b in found) or "nowhere in this version"
    err = _error(
        CheckCode.QUOTE_MISMATCH,
        cid,
        f"quote differs from the text at [{start}, {end}); exact quote occurs {where}",
        expected=expected,
        received=quote,
        found_at=found,
        normalized_match=quote is not None and normalise(quote) == normalise(expected),
    )
    return _invalid(cid, err, doc, (start, end))


def check_citation(
    citation: Citation, cid: str, answer: Answer, snapshot: DocumentSnapshot, options: CheckOptions
) -> CitationCheck:
    """Run the checks on one uniquely identified citation, stopping at its first error."""
    if not citation.references_corpus:
        # Inline passage (seed 001): the retrieved text itself is the evidence.
        return CitationCheck(cid, "valid", fragment=Fragment(cid, citation.text or ""))
    doc_id = citation.document_id or ""
    if doc_id in snapshot.unavailable:
        err = _error(CheckCode.CORPUS_UNAVAILABLE, cid, f"corpus store unavailable for {doc_id!r}")
        return CitationCheck(cid, "unavailable", warnings=(err,))
    versions = snapshot.versions.get(doc_id, ())
    if not versions:
        return _invalid(
            cid, _error(CheckCode.DOCUMENT_MISSING, cid, f"no document {doc_id!r} in the corpus")
        )
    version = citation.document_version
    doc = snapshot.documents.get((doc_id, version)) if version is not None else None
    if doc is None:
        known = ", ".join(sorted(versions)[-5:])
        return _invalid(
            cid,
            _error(
                CheckCode.DOCUMENT_VERSION_MISMATCH,
                cid,
                f"{doc_id!r} has no version {version!r}; corpus has {known}",
            ),
        )
    if citation.sha256 is not None and citation.sha256.lower() != doc.sha256:
        detail = f"sha256 {citation.sha256} does not match the stored {doc.sha256}"
        return _invalid(cid, _error(CheckCode.CONTENT_HASH_MISMATCH, cid, detail), doc)
    return _check_range(citation, cid, answer, doc, options)


def _check_range(
    citation: Citation, cid: str, answer: Answer, doc: Document, options: CheckOptions
) -> CitationCheck:
    start, end = citation.start, citation.end
    claimed = citation.text if citation.text is not None else citation.quote
    if start is None and end is None and answer.form == "markers":
        # A marker source may name a document without a range: search for its quote, or
        # let the checker read the whole document version.
        if claimed is None:
            return _valid(cid, doc, 0, len(doc.text))
        found = find_all(doc.text, claimed, limit=1)
        if found:
            return _valid(cid, doc, *found[0])
        err = _error(
            CheckCode.QUOTE_MISMATCH,
            cid,
            "quoted passage does not occur in this document version",
            expected=None,
            received=claimed,
            found_at=(),
            normalized_match=normalise(claimed) in normalise(doc.text),
        )
        return _invalid(cid, err, doc)
    if start is None or end is None:
        return _invalid(
            cid, _error(CheckCode.RANGE_INVALID, cid, "start and end are required"), doc
        )
    converted = to_codepoints(doc.text, start, end, answer.offset_unit)
    if converted is None:
        detail = f"[{start}, {end}) in {answer.offset_unit} does not fall on character boundaries"
        return _invalid(cid, _error(CheckCode.RANGE_INVALID, cid, detail), doc)
    cp_start, cp_end = converted
    if cp_start < 0 or cp_end <= cp_start or cp_end > len(doc.text):
        detail = f"[{start}, {end}) is not a non-empty range inside 0..{len(doc.text)}"
        return _invalid(cid, _error(CheckCode.RANGE_INVALID, cid, detail), doc)
    if claimed is None and answer.form == "markers":
        return _valid(cid, doc, cp_start, cp_end)
    return _check_quote(cid, doc, cp_start, cp_end, claimed, options)


def _with_analysis(check: CitationCheck, snapshot: DocumentSnapshot) -> CitationCheck:
    """The check with its fragment carrying the analysis of the document it was cut from."""
    frag = check.fragment
    if frag is None or frag.offset is None or frag.document_id is None:
        return check
    analysis = snapshot.analyses.get((frag.document_id, frag.document_version or ""))
    if analysis is None:
        return check
    return replace(check, fragment=replace(frag, analysis=analysis))


@dataclass(frozen=True, slots=True)
class CitationReport:
    """Deterministic results for an answer's citation list."""

    errors: tuple[CheckError, ...]
    checks: Mapping[str, CitationCheck]


def check_citations(
    answer: Answer, snapshot: DocumentSnapshot, options: CheckOptions | None = None
) -> CitationReport:
    """Check every citation once, in answer order; the first of duplicate ids is the one used."""
    options = options or CheckOptions()
    errors: list[CheckError] = []
    checks: dict[str, CitationCheck] = {}
    for citation in answer.citations:
        cid = citation.id
        if not cid:
            errors.append(_error(CheckCode.CITATION_ID_MISSING, None, "citation has no id"))
            continue
        if cid in checks:
            detail = f"citation id {cid!r} is used more than once"
            errors.append(_error(CheckCode.CITATION_ID_DUPLICATE, cid, detail))
            continue
        note = options.notes.get(cid)
        if note is not None and note.code not in WARNING_CODES:
            check = _invalid(cid, note)
        else:
            check = check_citation(citation, cid, answer, snapshot, options)
            if note is not None:
                check = replace(check, warnings=(note, *check.warnings))
            check = _with_analysis(check, snapshot)
        if check.fragment is None and citation.references_corpus:
            # Keep what the answer cited even when the corpus has no such document.
            stub = Fragment(cid, "", citation.document_id, citation.document_version)
            check = replace(check, fragment=stub)
        checks[cid] = check
        errors.extend(check.errors)
    return CitationReport(tuple(errors), checks)


def citation_refs(answer: Answer) -> tuple[tuple[str, str | None], ...]:
    """The (document_id, version) pairs an answer cites in the corpus, for `snapshot()`."""
    return tuple(
        (c.document_id, c.document_version) for c in answer.citations if c.document_id is not None
    )
