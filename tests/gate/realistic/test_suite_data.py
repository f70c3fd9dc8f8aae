"""The realistic suite's data is well-formed: exact quotes, one-sentence claims, enough of each kind."""

from __future__ import annotations

import pytest

from tests.gate.realistic.harness import load_suite, passage_range, quote_event
from tests.gate.realistic.model import sentence_spans
from tests.gate.realistic.wellformed import PUBLIC, validate

SUITE = load_suite()
ISSUE_KB1 = (
    "Refunds are issued within 14 days of receiving the returned item. Items must be unused and in "
    "their original packaging. Shipping costs are not refunded unless the item arrived damaged."
)


def test_the_data_is_well_formed() -> None:
    assert validate(SUITE, PUBLIC) == []


def test_every_language_is_there() -> None:
    assert set(SUITE.docs) == {"en", "ru", "zh"}


def test_the_validator_catches_a_broken_quote() -> None:
    """The check above could fail: a quote that is not in its document is reported."""
    from dataclasses import replace

    from tests.gate.realistic.harness import Suite

    first = SUITE.answers["en"][0]
    broken = (replace(first[0], quote=first[0].quote + " Extra."), *first[1:])
    suite = Suite(SUITE.docs, {**SUITE.answers, "en": (broken, *SUITE.answers["en"][1:])})
    assert any("quote occurs 0 times" in p for p in validate(suite, PUBLIC))


def test_the_issue_example_is_included_exactly() -> None:
    kb1 = next(d for d in SUITE.docs["en"] if d.id == "kb-1")
    assert (kb1.version, kb1.text) == ("2026-03", ISSUE_KB1)
    (example,) = [a for a in SUITE.answers["en"] if a[0].doc is kb1]
    assert [c.claim for c in example] == [
        "You will get your refund within 14 days after we receive the item.",
        "The item has to be unused and in its original packaging.",
        "Shipping fees are refunded only if the item arrived damaged.",
        "Refunds are usually processed within 2 weeks.",
    ]


@pytest.mark.parametrize("language", ["en", "ru", "zh"])
def test_quote_offsets_are_code_points(language: str) -> None:
    for n, cases in enumerate(SUITE.answers[language]):
        event = quote_event(f"t{n}", cases)
        for citation, case in zip(event["citations"], cases, strict=True):
            assert case.doc.text[citation["start"] : citation["end"]] == case.quote


@pytest.mark.parametrize("language", ["en", "ru", "zh"])
def test_passages_hold_their_quote_in_two_to_four_sentences(language: str) -> None:
    """As the harness builds them (k = answer number + claim number), quotes sit first, in the
    middle and last in their passages."""
    positions = set()
    for n, cases in enumerate(SUITE.answers[language]):
        for i, case in enumerate(cases):
            lo, hi = passage_range(case, n + i)
            inside = [s for s in sentence_spans(case.doc) if lo <= s[0] and s[1] <= hi]
            assert (lo, hi) == (inside[0][0], inside[-1][1])
            assert 2 <= len(inside) <= 4
            q_lo = case.doc.text.index(case.quote)
            q_hi = q_lo + len(case.quote)
            assert lo <= q_lo
            assert q_hi <= hi
            positions.add("first" if q_lo == lo else "last" if q_hi == hi else "middle")
    assert positions == {"first", "middle", "last"}
