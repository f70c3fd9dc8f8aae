"""Structured answers: what is published must be what was verified.

A structured answer brings its own claims, but what users read is its `answer` text. Two rules
tie them together:

* A claim span must lie inside the text (`0 <= start <= end <= len`, in the answer's
  `offset_unit`, not cutting a character): otherwise the input is refused (`span_invalid`).
* Every sentence of the text must be covered by the claims. Claims are usually atomic
  rewrites of the text, not slices of it, so cover is lexical: a word of the sentence is
  covered when it lies inside a claim's span or occurs in a claim's text (case-folded, words
  compared by their first five characters so `administrators` matches `administrator`). A
  sentence is covered when every number and every negation in it is covered and at least
  80% of its other words are (words under three letters, like "a" or "от", not counted).
  Otherwise it becomes a claim of its own with no citation, id `uncovered-N`: judged
  `insufficient` / `missingCitation` like any uncited claim, so the answer is not accepted.
  Punctuation and citation markers need no cover.

The threshold forgives connectives a rewrite drops ("and", "use"); numbers and negations are
never forgiven, because changing them is how a sentence says something the claims do not.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from stream.verify.model import Claim, OffsetUnit
from stream.verify.offsets import to_codepoints
from stream.verify.text import MARKER_PATTERN, split_sentences

UNCOVERED_PREFIX = "uncovered-"
MIN_WORD_SHARE = 0.8
STEM = 5
MIN_WORD_CHARS = 3
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_WORD = re.compile(rf"[{_CJK}]|(?:(?![{_CJK}])[^\W_])+")
"""A CJK character, or a run of letters/digits (CJK text has no spaces between words)."""
_CJK_CHAR = re.compile(f"[{_CJK}]")
_NUMBER = re.compile(r"\d")
NEGATIONS = frozenset(
    {
        "not",
        "no",
        "never",
        "none",
        "nor",
        "cannot",
        "without",
        "n't",
        "не",
        "нет",
        "ни",
        "никогда",
        "без",
        "不",
        "没",
        "無",
        "无",
        "非",
        "未",
    }
)


def span_error(text: str, span: Sequence[int], unit: OffsetUnit) -> str | None:
    """Why `span` cannot be a range of `text` in `unit`, or None when it can."""
    start, end = span[0], span[1]
    if start < 0 or end < start:
        return f"[{start}, {end}] is not a range"
    converted = to_codepoints(text, start, end, unit)
    if converted is None or converted[1] > len(text):
        return f"[{start}, {end}] is outside the answer text or cuts a character ({unit})"
    return None


def _key(word: str) -> str:
    return word.casefold()[:STEM]


def _strict(word: str) -> bool:
    """Numbers and negations must be covered exactly; they change what a sentence says."""
    return bool(_NUMBER.search(word)) or word.casefold() in NEGATIONS


def _claim_words(claims: Iterable[Claim]) -> set[str]:
    return {_key(m.group()) for c in claims for m in _WORD.finditer(c.text)}


def uncovered_claims(
    text: str, claims: Sequence[Claim], unit: OffsetUnit, limit: int
) -> tuple[Claim, ...]:
    """Claims without citation for the sentences of `text` the claims do not cover (at most
    `limit`; the sentences past it are merged into the last one, so nothing escapes)."""
    in_span = bytearray(len(text))
    for marker in MARKER_PATTERN.finditer(text):  # `[1]` says nothing that needs a cover
        in_span[marker.start() : marker.end()] = b"\x01" * (marker.end() - marker.start())
    for claim in claims:
        if claim.span is None:
            continue
        converted = to_codepoints(text, claim.span[0], claim.span[1], unit)
        if converted is not None:
            start, end = converted
            in_span[start:end] = b"\x01" * (end - start)
    known = _claim_words(claims)
    out: list[tuple[int, int]] = []
    for start, end in split_sentences(text):
        if not _covered(text, start, end, in_span, known):
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


def _covered(text: str, start: int, end: int, in_span: bytearray, known: set[str]) -> bool:
    words = total = 0
    for m in _WORD.finditer(text, start, end):
        word = m.group()
        covered = all(in_span[m.start() : m.end()]) or _key(word) in known
        if _strict(word):
            if not covered:
                return False
            continue
        if len(word) < MIN_WORD_CHARS and not _CJK_CHAR.fullmatch(word):
            continue  # "a", "of", "от": function words a rewrite drops
        total += 1
        words += covered
    return total == 0 or words >= MIN_WORD_SHARE * total
