"""Structured answers: what is published must be what was verified.

A structured answer brings its own claims, but what users read is its `answer` text. Two rules
tie them together:

* A claim span must lie inside the text (`0 <= start <= end <= len`, in the answer's
  `offset_unit`, not cutting a character): otherwise the input is refused (`span_invalid`).
* Every sentence of the text must be covered by claims: each of its letters and digits inside
  some claim's span (spans given, or found by the claim's text appearing verbatim). A sentence
  that is not (wholly) covered becomes a claim of its own with no citation, id `uncovered-N`:
  it is judged `insufficient` / `missingCitation` like any uncited claim, so the answer is not
  accepted. Punctuation, whitespace and citation markers need no cover.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from stream.verify.model import Claim, OffsetUnit
from stream.verify.offsets import to_codepoints
from stream.verify.text import MARKER_PATTERN, split_sentences

UNCOVERED_PREFIX = "uncovered-"
_CONTENT = re.compile(r"[^\W_]", re.UNICODE)
"""A letter or a digit: what a sentence says (punctuation and spaces say nothing)."""


def span_error(text: str, span: Sequence[int], unit: OffsetUnit) -> str | None:
    """Why `span` cannot be a range of `text` in `unit`, or None when it can."""
    start, end = span[0], span[1]
    if start < 0 or end < start:
        return f"[{start}, {end}] is not a range"
    converted = to_codepoints(text, start, end, unit)
    if converted is None or converted[1] > len(text):
        return f"[{start}, {end}] is outside the answer text or cuts a character ({unit})"
    return None


def codepoint_span(text: str, span: tuple[int, int], unit: OffsetUnit) -> tuple[int, int]:
    """A span already checked by `span_error`, in code points."""
    converted = to_codepoints(text, span[0], span[1], unit)
    assert converted is not None
    return converted


def uncovered_claims(
    text: str, claims: Sequence[Claim], unit: OffsetUnit, limit: int
) -> tuple[Claim, ...]:
    """Claims without citation for the sentences of `text` no claim covers (at most `limit`;
    the sentences past it are merged into the last one, so nothing escapes the check)."""
    covered = bytearray(len(text))
    for marker in MARKER_PATTERN.finditer(text):  # `[1]` says nothing that needs a cover
        covered[marker.start() : marker.end()] = b"\x01" * (marker.end() - marker.start())
    for claim in claims:
        if claim.span is None:
            continue
        start, end = codepoint_span(text, claim.span, unit)
        covered[start:end] = b"\x01" * (end - start)
    out: list[tuple[int, int]] = []
    for start, end in split_sentences(text):
        if all(covered[m.start()] for m in _CONTENT.finditer(text, start, end)):
            continue
        out.append((start, end))
    if limit < 1 or not out:
        return ()
    if len(out) > limit:
        out = [*out[: limit - 1], (out[limit - 1][0], out[-1][1])]
    taken = {c.id for c in claims}
    result = []
    n = 0
    for start, end in out:
        n += 1
        while f"{UNCOVERED_PREFIX}{n}" in taken:
            n += 1
        result.append(Claim(f"{UNCOVERED_PREFIX}{n}", text[start:end], (), (start, end)))
    return tuple(result)
