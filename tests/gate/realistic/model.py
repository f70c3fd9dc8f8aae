"""The data types of the realistic suite and the helpers its data modules are written with.

A data module (en.py, ru.py, zh.py here; any directory of such modules for a held-out set)
exports ``DOCS`` (knowledge-base documents) and ``ANSWERS`` (each a tuple of cases resting on one
document, in the order an assistant would write them). A case's ``quote`` is the exact sentence,
or pair of adjacent sentences, of its document that the claim rests on; the data modules name it
by sentence number so a typo cannot silently change the evidence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Kind = Literal["faithful", "overreach", "contradiction"]
KINDS: tuple[Kind, ...] = ("faithful", "overreach", "contradiction")
LANGUAGES = ("en", "ru", "zh")

# What each claim does to its quote: the part of a case's note before ":" is "+"-joined tags.
FAITHFUL_TAGS = frozenset(
    {
        "verbatim",  # near-verbatim restatement
        "second-person",  # you/your, вы, 您/你
        "synonym",  # a word replaced by a synonym
        "voice",  # active <-> passive, or the actor made the subject
        "nominalisation",  # verb <-> noun (restore/restoration, удалять/удаление)
        "inflection",  # case, number, aspect, participle (ru); number (en)
        "reorder",  # clauses or phrases moved
        "merged",  # two adjacent sentences stated as one
        "modal",  # must/has to/is required to, может/можно, 可以/能够
        "number-word",  # six vs 6, шести, 六, 三十
        "unit",  # exact unit equivalent: 14 days = two weeks
        "condition",  # equivalent condition form: not X unless Y = X only if Y
        "bound",  # equivalent bound form: not beyond 7 = no more than 7
        "conjunct-dropped",  # one part of a conjunction or list left out
        "hedge",  # the source's hedge kept, or the claim is weaker than the source
        "attribution",  # "the policy says that ..." framing
    }
)
OVERREACH_TAGS = frozenset(
    {
        "necessary-to-sufficient",  # only if -> if, 只有…才 -> 如果
        "modality",  # may/typically -> will/always, может потребоваться -> необходимо
        "bound-flipped",  # at least <-> no more than, 最多 <-> 至少
        "exception-dropped",  # an "except"/"unless" left out
        "scope-widened",  # some -> all, a category generalised, a restriction dropped
        "detail-added",  # a reason, consequence or detail the document does not state
        "inexact-unit",  # 30 days -> a month, 20 weeks -> five months
        "number-changed",  # a figure the document does not give
        "entity-swapped",  # another actor, product, endpoint, date
    }
)
CONTRADICTION_TAGS = frozenset(
    {"number", "unit", "negation", "bound", "quantifier", "entity", "order", "date"}
)
TAGS: dict[Kind, frozenset[str]] = {
    "faithful": FAITHFUL_TAGS,
    "overreach": OVERREACH_TAGS,
    "contradiction": CONTRADICTION_TAGS,
}

_SENTENCE_END = {
    "zh": re.compile(r"(?<=[。！？])"),
    "en": re.compile(r"(?<=[.!?])\s+"),
    "ru": re.compile(r"(?<=[.!?])\s+"),
}
_JOIN = {"zh": "", "en": " ", "ru": " "}


@dataclass(frozen=True, slots=True)
class Doc:
    """One knowledge-base document version, as the corpus serves it."""

    id: str
    version: str
    language: str
    title: str
    text: str


@dataclass(frozen=True, slots=True)
class Case:
    """One claim an assistant wrote from ``doc``, resting on ``quote`` (an exact substring)."""

    doc: Doc
    quote: str
    claim: str
    kind: Kind
    note: str

    @property
    def tags(self) -> tuple[str, ...]:
        return tuple(self.note.split(":", 1)[0].strip().split("+"))


def sentence_spans(doc: Doc) -> list[tuple[int, int]]:
    """Code-point spans of the sentences of ``doc`` (documents are written without abbreviations,
    so a terminator followed by a space, or a CJK terminator, always ends a sentence)."""
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _SENTENCE_END[doc.language].finditer(doc.text):
        if m.end() >= len(doc.text):
            break
        spans.append((start, m.start()))
        start = m.end()
    spans.append((start, len(doc.text.rstrip())))
    return [(a, b) for a, b in spans if b > a]


def doc(doc_id: str, version: str, language: str, title: str, sentences: tuple[str, ...]) -> Doc:
    """A document written as its sentences (numbered from 1 in the cases)."""
    return Doc(doc_id, version, language, title, _JOIN[language].join(sentences))


Row = tuple[Kind, int | tuple[int, int], str, str]


def faithful(at: int | tuple[int, int], claim: str, note: str) -> Row:
    return ("faithful", at, claim, note)


def overreach(at: int | tuple[int, int], claim: str, note: str) -> Row:
    return ("overreach", at, claim, note)


def contradiction(at: int | tuple[int, int], claim: str, note: str) -> Row:
    return ("contradiction", at, claim, note)


def answer(source: Doc, *rows: Row) -> tuple[Case, ...]:
    """An answer made of ``rows``; ``at`` is a sentence number or two adjacent ones (merged)."""
    spans = sentence_spans(source)
    cases = []
    for kind, at, claim, note in rows:
        first, last = at if isinstance(at, tuple) else (at, at)
        if not 1 <= first <= last <= len(spans) or last - first > 1:
            raise ValueError(f"{source.id}: sentence {at} does not exist or is not adjacent")
        quote = source.text[spans[first - 1][0] : spans[last - 1][1]]
        cases.append(Case(source, quote, claim, kind, note))
    return tuple(cases)
