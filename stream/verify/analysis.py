"""The analysis of one document version, kept with the cached document and reused per claim.

Documents are immutable per version and the same ones are cited over and over, yet every claim
re-derived the same facts of its evidence: sentence boundaries and tokens, word keys, number
and unit slots, identifiers, negation, condition and quantifier scopes. A `DocumentAnalysis`
computes each of those once per span of the document (a sentence, a cited range, the window a
claim rests on) and keeps it; the per-claim code asks it instead of recomputing.

It is a memo of pure functions of the span's text, not a second implementation: `span(fn,
start, end)` is `fn(text[start:end])`, computed the first time and returned from memory after,
so a verdict cannot depend on whether the analysis was there (the golden tests hold that).
Spans are analysed on first use, not all at import: a document cited once (uniform traffic, a
cold `citegate verify`) would otherwise pay for thirty sentences to check one. Its memory is
counted (`nbytes`) and bounded (`max_bytes`); the corpus cache adds it to the document's bytes.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field, fields, is_dataclass
from typing import TypeVar, cast

ANALYSER_VERSION = "19"
"""Bump when any function whose results an analysis keeps changes what it returns: a cache
never hands out an analysis whose `analyser` differs (`is_current`)."""

BYTES_PER_CHAR = 256
"""An analysis keeps at most this many bytes per character of its document (plus
`BASE_BYTES`): about every sentence of a document cited sentence by sentence (a sentence's
results take about 200 bytes a character). Beyond it results are computed and returned
without being kept."""
BASE_BYTES = 16 * 1024
ENTRY_BYTES = 160
"""Memo bookkeeping per kept result: the dict slot and its (function, start, end) key."""

T = TypeVar("T")
Key = tuple[Callable[[str], object], int, int]


class _Memo:
    """The mutable inside of a frozen analysis: kept results and the bytes they hold."""

    __slots__ = ("nbytes", "values")

    def __init__(self) -> None:
        self.values: dict[Key, object] = {}
        self.nbytes = 0


@dataclass(frozen=True, slots=True, eq=False)
class DocumentAnalysis:
    """Results of pure text functions over spans of one document version's text.

    Identity equality (`eq=False`): two analyses are never interchangeable by value, and
    hashing one must not hash the whole text.
    """

    text: str
    analyser: str = ""
    """The analyser version that made it ("": this one, `ANALYSER_VERSION`)."""
    max_bytes: int = -1
    """-1: `BASE_BYTES + BYTES_PER_CHAR * len(text)`."""
    on_grow: Callable[[DocumentAnalysis, int], None] | None = field(default=None, repr=False)
    """Told the bytes of each result kept, as it is kept: a cache counts an analysis while
    claims use it, not at its next lookup."""
    _memo: _Memo = field(default_factory=_Memo, repr=False)

    def __post_init__(self) -> None:
        if not self.analyser:
            object.__setattr__(self, "analyser", ANALYSER_VERSION)
        if self.max_bytes < 0:
            object.__setattr__(self, "max_bytes", BASE_BYTES + BYTES_PER_CHAR * len(self.text))

    @property
    def nbytes(self) -> int:
        """Bytes the kept results hold (as `deep_size` counts them)."""
        return self._memo.nbytes

    @property
    def is_current(self) -> bool:
        """Made by this analyser: an analysis of another version is never reused."""
        return self.analyser == ANALYSER_VERSION

    def span(self, fn: Callable[[str], T], start: int, end: int) -> T:
        """`fn(text[start:end])`, computed once per (fn, span) while there is room."""
        key: Key = (fn, start, end)
        memo = self._memo
        try:
            return cast(T, memo.values[key])
        except KeyError:
            pass
        value = fn(self.text[start:end])
        if memo.nbytes < self.max_bytes:
            memo.values[key] = value
            size = ENTRY_BYTES + _estimate(fn, value, end - start)
            memo.nbytes += size
            if self.on_grow is not None:
                self.on_grow(self, size)
        return value

    def of(self, fn: Callable[[str], T], text: str, offset: int | None) -> T:
        """`fn(text)` where `text` claims to sit at `offset` in the document: kept when it
        does, computed directly when it does not (or `offset` is None), so a wrong offset
        can cost time but never change a result."""
        if offset is not None and self.text.startswith(text, offset):
            return self.span(fn, offset, offset + len(text))
        return fn(text)


SAMPLE_EVERY = 32
"""One kept result in this many is measured with `deep_size` (the rest are estimated from
the measured bytes per character of their function): measuring each would cost about a
twentieth of a claim's time."""
_RATES: dict[Callable[[str], object], list[int]] = {}
"""Per function: [results seen, bytes measured, characters measured]."""


def _estimate(fn: Callable[[str], object], value: object, chars: int) -> int:
    """Bytes `value` (the result of `fn` on `chars` characters) holds, measured or estimated."""
    rate = _RATES.setdefault(fn, [0, 0, 0])
    rate[0] += 1
    if rate[0] % SAMPLE_EVERY == 1:
        size = deep_size(value)
        rate[1] += size
        rate[2] += max(1, chars)
        return size
    return rate[1] * max(1, chars) // rate[2]


def analyse(
    text: str, on_grow: Callable[[DocumentAnalysis, int], None] | None = None
) -> DocumentAnalysis:
    """A fresh analysis of `text`; spans are analysed as claims need them."""
    return DocumentAnalysis(text, on_grow=on_grow)


def located(
    fn: Callable[[str], T], text: str, analysis: DocumentAnalysis | None, offset: int | None
) -> T:
    """`fn(text)`, from `analysis` when there is one (see `DocumentAnalysis.of`)."""
    if analysis is None:
        return fn(text)
    return analysis.of(fn, text, offset)


def deep_size(obj: object, seen: set[int] | None = None) -> int:
    """Bytes `obj` holds with everything it refers to (strings, containers, slotted
    dataclasses), each object counted once. Shared objects (lexicon keys referenced from many
    analyses) are counted in each: the bound errs on the side of memory."""
    seen = set() if seen is None else seen
    if id(obj) in seen or obj is None or isinstance(obj, (bool, type)):
        return 0
    seen.add(id(obj))
    size = sys.getsizeof(obj)
    if isinstance(obj, (str, bytes, int, float)):
        return size
    if isinstance(obj, dict):
        return size + sum(deep_size(k, seen) + deep_size(v, seen) for k, v in obj.items())
    if isinstance(obj, (tuple, list, set, frozenset)):
        return size + sum(deep_size(x, seen) for x in obj)
    if is_dataclass(obj):
        return size + sum(deep_size(getattr(obj, f.name), seen) for f in fields(obj))
    return size
