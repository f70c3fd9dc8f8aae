"""Checks that a suite's data is what it claims to be, before any checker sees it.

Quotes are exact, unique substrings made of one sentence or two adjacent ones; every claim is a
single sentence the claim splitter cannot cut; kinds and notes use the fixed vocabulary; each
language has enough documents and cases of each kind. Used by the data test and by
`python -m tests.gate.realistic --check` (for a held-out directory, with its own minimums).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from tests.gate.realistic.harness import Suite
from tests.gate.realistic.model import KINDS, OVERREACH_TAGS, TAGS, Case, Doc, sentence_spans


@dataclass(frozen=True, slots=True)
class Minimums:
    docs: int
    faithful: int
    overreach: int
    contradiction: int
    clean_answers: int = 3
    contradiction_tags: int = 5


PUBLIC = Minimums(docs=6, faithful=40, overreach=22, contradiction=12)
HELDOUT = Minimums(docs=4, faithful=20, overreach=12, contradiction=8, contradiction_tags=4)

# Variations every language's faithful claims must show (issue 17, item 2).
REQUIRED_FAITHFUL = frozenset(
    {
        "second-person",
        "synonym",
        "voice",
        "nominalisation",
        "merged",
        "modal",
        "number-word",
        "unit",
        "condition",
        "conjunct-dropped",
        "hedge",
    }
)

_INNER_END = {
    "zh": re.compile(r"[。！？；;]"),
    "en": re.compile(r"[.!?][\s]|;"),
    "ru": re.compile(r"[.!?][\s]|;"),
}
_END = {"zh": "。！？", "en": ".!?", "ru": ".!?"}
_MARKER = re.compile(r"[\[【［][^\]】］]*[\]】］]")
_CONNECTIVE = re.compile(
    r"[,，]\s*(因此|所以|这意味着|由此可见|therefore|thus|hence|поэтому|следовательно|значит)",
    re.IGNORECASE,
)


def _quote_problems(case: Case) -> list[str]:
    d = case.doc
    where = f"{d.id}: {case.claim[:40]!r}"
    if d.text.count(case.quote) != 1:
        return [f"{where}: quote occurs {d.text.count(case.quote)} times in the document"]
    start = d.text.index(case.quote)
    end = start + len(case.quote)
    spans = sentence_spans(d)
    starts = [i for i, (a, _) in enumerate(spans) if a == start]
    ends = [i for i, (_, b) in enumerate(spans) if b == end]
    if not starts or not ends or not 0 <= ends[0] - starts[0] <= 1:
        return [f"{where}: quote is not one sentence or two adjacent sentences"]
    return []


def _claim_problems(case: Case) -> list[str]:
    lang = case.doc.language
    claim = case.claim
    where = f"{case.doc.id}: {claim[:40]!r}"
    problems = []
    if claim != claim.strip() or not claim or claim[-1] not in _END[lang]:
        problems.append(f"{where}: a claim is one sentence ending with its terminator")
    if _INNER_END[lang].search(claim[:-1]) or _CONNECTIVE.search(claim) or _MARKER.search(claim):
        problems.append(
            f"{where}: a claim must not contain a sentence end, ';', marker or connective"
        )
    if case.kind not in KINDS:
        problems.append(f"{where}: kind {case.kind!r}")
    elif not case.note.strip() or not set(case.tags) <= TAGS[case.kind]:
        problems.append(f"{where}: note tags {case.tags} not in the {case.kind} vocabulary")
    return problems


def _language_problems(
    lang: str, docs: tuple[Doc, ...], suite: Suite, least: Minimums
) -> list[str]:
    problems = []
    answers = suite.answers.get(lang, ())
    cases = [c for a in answers for c in a]
    if any(d.language != lang for d in docs):
        problems.append(f"{lang}: a document of another language")
    sized = [d for d in docs if 6 <= len(sentence_spans(d)) <= 12]
    if len(sized) < least.docs:
        problems.append(f"{lang}: {len(sized)} documents of 6–12 sentences, need {least.docs}")
    problems += [f"{d.id}: more than 12 sentences" for d in docs if len(sentence_spans(d)) > 12]
    used = {c.doc for c in cases}
    problems += [f"{d.id}: no answer uses it" for d in docs if d not in used]
    problems += [f"{lang}: a case's document is not in DOCS" for c in cases if c.doc not in docs]
    kinds = Counter(c.kind for c in cases)
    for kind in KINDS:
        need = getattr(least, kind)
        if kinds[kind] < need:
            problems.append(f"{lang}: {kinds[kind]} {kind} cases, need {need}")
    for n, a in enumerate(answers):
        if not 2 <= len(a) <= 5 or len({c.doc for c in a}) != 1:
            problems.append(f"{lang} answer {n}: 2–5 claims resting on one document")
    clean = sum(all(c.kind == "faithful" for c in a) for a in answers)
    if clean < least.clean_answers:
        problems.append(f"{lang}: {clean} answers of faithful claims only")
    tags = {k: {t for c in cases if c.kind == k for t in c.tags} for k in KINDS}
    if missing := OVERREACH_TAGS - tags["overreach"]:
        problems.append(f"{lang}: no overreach of kind {sorted(missing)}")
    if missing := REQUIRED_FAITHFUL - tags["faithful"]:
        problems.append(f"{lang}: no faithful variation {sorted(missing)}")
    if len(tags["contradiction"]) < least.contradiction_tags:
        problems.append(f"{lang}: contradictions use only {sorted(tags['contradiction'])}")
    duplicates = [t for t, k in Counter(c.claim for c in cases).items() if k > 1]
    problems += [f"{lang}: claim written twice: {t!r}" for t in duplicates]
    return problems


def validate(suite: Suite, least: Minimums) -> list[str]:
    """Every problem found; an empty list means the data is well-formed."""
    problems: list[str] = []
    ids = Counter(d.id for docs in suite.docs.values() for d in docs)
    problems += [f"document id {i!r} used {k} times" for i, k in ids.items() if k > 1]
    for lang, docs in suite.docs.items():
        problems += _language_problems(lang, docs, suite, least)
        for case in (c for a in suite.answers.get(lang, ()) for c in a):
            problems += _quote_problems(case) + _claim_problems(case)
    return problems
