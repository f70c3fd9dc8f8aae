"""Atomic claims split out of marker-style answers (`… API。[S1]`), design §3.2.

The checker judges one claim against only its cited fragments, so every claim must carry exactly
the markers that close it. A marker belongs to the sentence it closes, whether it stands before
or after the full stop; each claim keeps its span in the original answer so verdicts can point
back at it. Pure and linear-ish: one pass over the answer, regexes compiled once.
"""

from __future__ import annotations

import bisect
import itertools
import re
from dataclasses import dataclass

from stream.verify.text import MARKER_ID_SEPARATOR, MARKER_PATTERN, sentence_boundaries

__all__ = ["MARKER_PATTERN", "SplitClaim", "marker_ids", "split_marker_answer", "strip_markers"]

_MARKER_WITH_SPACE = re.compile(rf"\s*(?:{MARKER_PATTERN.pattern})")
_HAS_WORD = re.compile(r"[^\W_]")

# Searched on the masked answer, where every marker is a run of NUL characters, so a `;` inside
# `[1; 2]` never splits and markers glued to a split point stay on the side that they close.
_MASK = "\0"
_SEMICOLON = re.compile(r"[;；](?:\s*\0+)*")
_CONNECTIVE = re.compile(
    r"[,，][\s\0]*(?=因此|所以|这意味着|由此可见"
    r"|(?:therefore|thus|hence|поэтому|следовательно|значит)\b)",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class SplitClaim:
    """One claim of a marker answer.

    ``answer[start:end]`` is the claim as written, with the markers attributed to it; ``text`` is
    that slice without markers, whitespace collapsed, its terminator kept; ``markers`` are the
    cited ids, de-duplicated in order of appearance.
    """

    text: str
    start: int
    end: int
    markers: tuple[str, ...]


def marker_ids(match: re.Match[str]) -> tuple[str, ...]:
    """The ids of one :data:`MARKER_PATTERN` match, stripped: `[S1, S2]` → ("S1", "S2")."""
    return tuple(MARKER_ID_SEPARATOR.split(match.group("ids")))


def strip_markers(text: str) -> str:
    """``text`` without markers (and the space before them), whitespace collapsed, stripped."""
    return " ".join(_MARKER_WITH_SPACE.sub("", text).split())


def split_marker_answer(answer: str) -> list[SplitClaim]:
    """Split a marker-style answer into claims with the markers that close them.

    Splits at sentence ends (:func:`stream.verify.text.sentence_boundaries`: CJK, Russian and
    English, not inside decimals, versions, abbreviations or URLs), after semicolons, and before
    inference connectives that follow a comma (`因此`, `therefore`, `поэтому`, …); the connective
    starts the next claim because the checker treats it as an inference cue.

    Attribution: markers inside a part belong to it; markers right after a terminator or a
    semicolon (only whitespace between) belong to the part before it. When a sentence is split at
    semicolons or connectives, markers after its final terminator go to its LAST part only: they
    close the sentence, and copying them onto earlier parts would invent citations. Parts without
    any letter or digit (bare markers, punctuation) are dropped.
    """
    ctx = _Answer.of(answer)
    claims: list[SplitClaim] = []
    cursor = 0
    for term_start, end in sentence_boundaries(answer):
        _emit(ctx, cursor, term_start, end, claims)
        cursor = end
    if cursor < len(answer):
        _emit(ctx, cursor, len(answer), len(answer), claims)
    return claims


@dataclass(frozen=True, slots=True)
class _Answer:
    """The answer with its markers found once, and a masked copy for the split-point regexes."""

    text: str
    masked: str
    markers: tuple[tuple[int, int, tuple[str, ...]], ...]
    starts: tuple[int, ...]

    @classmethod
    def of(cls, answer: str) -> _Answer:
        markers = tuple(
            (m.start(), m.end(), marker_ids(m)) for m in MARKER_PATTERN.finditer(answer)
        )
        pieces: list[str] = []
        last = 0
        for start, end, _ in markers:
            pieces.append(answer[last:start])
            pieces.append(_MASK * (end - start))
            last = end
        pieces.append(answer[last:])
        return cls(answer, "".join(pieces), markers, tuple(m[0] for m in markers))


def _emit(ctx: _Answer, start: int, body_end: int, end: int, out: list[SplitClaim]) -> None:
    """Emit the claims of the sentence ``[start, end)``, whose body ends at ``body_end``."""
    cuts = {m.end() for m in _SEMICOLON.finditer(ctx.masked, start, body_end)}
    cuts.update(m.end() for m in _CONNECTIVE.finditer(ctx.masked, start, body_end))
    bounds = [start, *sorted(c for c in cuts if start < c < end), end]
    for lo, hi in itertools.pairwise(bounds):
        claim = _claim(ctx, lo, hi)
        if claim is not None:
            out.append(claim)


def _claim(ctx: _Answer, lo: int, hi: int) -> SplitClaim | None:
    answer = ctx.text
    while lo < hi and answer[lo].isspace():
        lo += 1
    while hi > lo and answer[hi - 1].isspace():
        hi -= 1
    text = strip_markers(answer[lo:hi])
    if _HAS_WORD.search(text) is None:
        return None
    first = bisect.bisect_left(ctx.starts, lo)
    last = bisect.bisect_left(ctx.starts, hi)
    ids = dict.fromkeys(i for _, _, group in ctx.markers[first:last] for i in group)
    return SplitClaim(text, lo, hi, tuple(ids))
