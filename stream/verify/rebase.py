"""Re-pointing an answer's citations to another version of their documents (replay).

After a corpus update the question is not "was this answer right then" but "would it pass
today": each citation moves to the target version if its exact quote occurs there exactly
once (the range moves and the citation remembers where it came from); otherwise it fails
with `quote_missing_in_version`, or `document_missing` when the target version does not exist.
A citation that was already wrong for its own (still stored) version is left as it is: a
corpus update must not turn a broken citation into a good one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from stream.verify.citations import DocumentSnapshot, find_all
from stream.verify.codes import CheckCode
from stream.verify.model import Answer, CheckError, Citation, Document
from stream.verify.offsets import from_codepoints, to_codepoints


def _quote(c: Citation, answer: Answer, old: DocumentSnapshot) -> str | None:
    """The text the citation stands for: its quote, its inline passage, or its old range."""
    if c.quote is not None:
        return c.quote
    if c.text is not None:
        return c.text
    doc = old.documents.get((c.document_id or "", c.document_version or ""))
    if doc is None or c.start is None or c.end is None:
        return None
    span = to_codepoints(doc.text, c.start, c.end, answer.offset_unit)
    return doc.text[span[0] : span[1]] if span else None


def rebase(
    answer: Answer,
    old: DocumentSnapshot,
    targets: Mapping[str, Document | None],
) -> tuple[Answer, dict[str, CheckError]]:
    """The answer with citations moved to `targets` (document id -> target version, or None
    when the document has no such version), and the finding per moved citation id."""
    notes: dict[str, CheckError] = {}
    citations = []
    for c in answer.citations:
        if not c.id or c.document_id is None or c.document_id not in targets:
            citations.append(c)
            continue
        target = targets[c.document_id]
        if target is None:
            notes[c.id] = CheckError(
                CheckCode.DOCUMENT_MISSING, c.id, f"{c.document_id!r} has no version to rebase onto"
            )
            citations.append(c)
            continue
        if target.version == c.document_version:
            citations.append(c)
            continue
        if _broken_before(c, answer, old):
            citations.append(c)  # its own version still refutes it: the update changes nothing
            continue
        quote = _quote(c, answer, old)
        if quote is None:  # a whole-document citation simply follows the document
            citations.append(replace(c, document_version=target.version, sha256=None))
            continue
        found = find_all(target.text, quote, limit=2)
        if len(found) != 1:
            where = "does not occur" if not found else "occurs more than once"
            notes[c.id] = CheckError(
                CheckCode.QUOTE_MISSING_IN_VERSION,
                c.id,
                f"the quote {where} in {c.document_id!r} version {target.version!r} "
                f"(cited: {c.document_version!r})",
            )
            citations.append(c)
            continue
        start, end = found[0]
        unit_start, unit_end = from_codepoints(target.text, start, end, answer.offset_unit)
        old_span = _old_span(c, answer, old)
        notes[c.id] = CheckError(
            CheckCode.RANGE_REBASED,
            c.id,
            f"moved from {c.document_id}@{c.document_version} to @{target.version} "
            f"[{start}, {end})",
            relocated_from=old_span,
            relocated_to=(start, end),
        )
        moved = replace(
            c, document_version=target.version, start=unit_start, end=unit_end, sha256=None
        )
        if c.start is None and c.end is None:
            # Unranged citations (inline passages, bare quotes) stay unranged: rebasing moves
            # the version, it must not add a range the producer never sent.
            moved = replace(moved, start=None, end=None)
        citations.append(moved)
    return replace(answer, citations=tuple(citations)), notes


def _broken_before(c: Citation, answer: Answer, old: DocumentSnapshot) -> bool:
    """True when the cited version still exists and its range does not hold the quote."""
    claimed = c.quote if c.quote is not None else c.text
    doc = old.documents.get((c.document_id or "", c.document_version or ""))
    if doc is None or claimed is None or c.start is None or c.end is None:
        return False
    span = to_codepoints(doc.text, c.start, c.end, answer.offset_unit)
    return span is None or doc.text[span[0] : span[1]] != claimed


def _old_span(c: Citation, answer: Answer, old: DocumentSnapshot) -> tuple[int, int] | None:
    doc = old.documents.get((c.document_id or "", c.document_version or ""))
    if doc is None or c.start is None or c.end is None:
        return None
    return to_codepoints(doc.text, c.start, c.end, answer.offset_unit)
