"""The public realistic suite (issue 17): the gate accepts what faithful answers say and nothing more.

Knowledge-base documents and answers written the way an LLM assistant writes them (en/ru/zh),
run in three answer forms — exact quotes, `[S1]` markers with retrieved passages, markers naming
the whole document. Per language and form: no overreaching or contradicting claim accepted, at
most 5 % of faithful claims called `contradicted`, at least 60 % of real contradictions called
`contradicted`, and answers of faithful claims only that are all entailed are decided `accept`.

Faithful claims accepted: the issue's target is 75 % per language and form, and the rules gate
does not reach it (docs/checker-quality.md has the figures, in this suite and on a held-out one
it has never been tuned on). `FAITHFUL_FLOOR` keeps what it reaches from sliding back; raise it
when the gate improves, never lower it to make a change pass.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from stream.codec import answer_from_obj
from stream.verify.checkers import RulesChecker
from stream.verify.pipeline import verify_answer
from stream.verify.text import split_sentences
from tests.gate.realistic.harness import (
    FORMS,
    Figures,
    Form,
    Outcome,
    Run,
    load_suite,
    run_suite,
    snapshot_of,
)
from tests.gate.realistic.model import LANGUAGES, sentence_spans

SUITE = load_suite()
SLICES = [(lang, form) for lang in LANGUAGES for form in FORMS]


@pytest.fixture(scope="module")
def run() -> Run:
    return run_suite(SUITE)


def _listing(outcomes: list[Outcome]) -> str:
    return "\n".join(
        f"  [{o.case.note.split(':')[0]}] {o.verdict}: {o.case.claim}\n      {o.reason}"
        for o in outcomes
    )


def _slice(run: Run, lang: str, form: Form) -> tuple[Run, Figures]:
    part = run.select(lang, form)
    return part, Figures.of(part)


@pytest.mark.parametrize(("lang", "form"), SLICES)
def test_every_answer_splits_as_written(run: Run, lang: str, form: Form) -> None:
    failures = run.select(lang, form).split_failures
    assert not failures, "\n".join(f.message for f in failures)


@pytest.mark.parametrize(("lang", "form"), SLICES)
def test_no_overreaching_claim_is_accepted(run: Run, lang: str, form: Form) -> None:
    part, _ = _slice(run, lang, form)
    wrong = [o for o in part.outcomes if o.case.kind == "overreach" and o.verdict == "entailed"]
    assert not wrong, f"{len(wrong)} overreaching claims accepted:\n{_listing(wrong)}"


@pytest.mark.parametrize(("lang", "form"), SLICES)
def test_no_contradicting_claim_is_accepted(run: Run, lang: str, form: Form) -> None:
    part, _ = _slice(run, lang, form)
    wrong = [o for o in part.outcomes if o.case.kind == "contradiction" and o.verdict == "entailed"]
    assert not wrong, f"{len(wrong)} contradicting claims accepted:\n{_listing(wrong)}"


FAITHFUL_TARGET = 0.75
"""Issue 17's target share of faithful claims accepted (not met yet: see the module doc)."""
FAITHFUL_FLOOR = {"en": 0.63, "ru": 0.45, "zh": 0.49}
"""What the gate reaches today in every form, rounded down: a regression guard."""


@pytest.mark.parametrize(("lang", "form"), SLICES)
def test_faithful_claims_are_accepted(run: Run, lang: str, form: Form) -> None:
    part, f = _slice(run, lang, form)
    refused = [o for o in part.outcomes if o.case.kind == "faithful" and o.verdict != "entailed"]
    floor = min(FAITHFUL_TARGET, FAITHFUL_FLOOR[lang])
    assert f.faithful_accepted >= floor * f.faithful, (
        f"{f.faithful_accepted}/{f.faithful} faithful claims accepted (floor {floor:.0%}):\n"
        + _listing(refused)
    )


@pytest.mark.parametrize(("lang", "form"), SLICES)
def test_faithful_claims_are_not_called_contradicted(run: Run, lang: str, form: Form) -> None:
    part, f = _slice(run, lang, form)
    wrong = [o for o in part.outcomes if o.case.kind == "faithful" and o.verdict == "contradicted"]
    assert f.faithful_contradicted <= 0.05 * f.faithful, (
        f"{f.faithful_contradicted}/{f.faithful} faithful claims called contradicted (max 5 %):\n"
        + _listing(wrong)
    )


@pytest.mark.parametrize(("lang", "form"), SLICES)
def test_real_contradictions_are_called_contradicted(run: Run, lang: str, form: Form) -> None:
    part, f = _slice(run, lang, form)
    missed = [
        o for o in part.outcomes if o.case.kind == "contradiction" and o.verdict != "contradicted"
    ]
    assert f.contradiction_found >= 0.6 * f.contradiction, (
        f"{f.contradiction_found}/{f.contradiction} contradictions found (need 60 %):\n"
        + _listing(missed)
    )


@pytest.mark.parametrize(("lang", "form"), SLICES)
def test_faithful_answers_whose_claims_are_entailed_are_accepted(
    run: Run, lang: str, form: Form
) -> None:
    part, f = _slice(run, lang, form)
    held = [
        f"  {a.answer_id}: {a.decision}"
        for a in part.answers
        if a.all_faithful and all(v == "entailed" for v in a.verdicts) and a.decision != "accept"
    ]
    assert f.faithful_answers >= 3
    assert not held, "answers of entailed faithful claims not accepted:\n" + "\n".join(held)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_documents_split_into_the_sentences_they_are_written_in(lang: str) -> None:
    """Alignment picks the best sentence or adjacent pair of a passage: it needs the document's
    own sentences (a unit such as `2 см.` before a capital ends a sentence)."""
    wrong = [
        (d.id, [d.text[a:b] for a, b in split_sentences(d.text) if (a, b) not in sentence_spans(d)])
        for d in SUITE.docs[lang]
        if split_sentences(d.text) != sentence_spans(d)
    ]
    assert not wrong, wrong


# --- the issue's own example, exactly as issue 17 states it ---

ISSUE_CLAIMS = (
    "You will get your refund within 14 days after we receive the item [S1].",
    "The item has to be unused and in its original packaging [S1].",
    "Shipping fees are refunded only if the item arrived damaged [S1].",
    "Refunds are usually processed within 2 weeks [S1].",
)


def _issue_answer(claims: tuple[str, ...]) -> tuple[list[str], str]:
    event = {
        "answer": " ".join(claims),
        "sources": {"S1": {"document_id": "kb-1", "document_version": "2026-03"}},
    }
    result = verify_answer(answer_from_obj(event), snapshot_of(SUITE), RulesChecker())
    assert not result.errors
    assert len(result.verdicts) == len(claims)
    return [v.verdict.value for v in result.verdicts], result.decision.final_status.value


def test_the_issue_example_claims_are_entailed() -> None:
    verdicts, _ = _issue_answer(ISSUE_CLAIMS)
    assert verdicts[:3] == ["entailed"] * 3
    assert verdicts[3] in {"entailed", "insufficient"}


def test_the_issue_example_first_three_claims_are_accepted() -> None:
    _, decision = _issue_answer(ISSUE_CLAIMS[:3])
    assert decision == "accept"


def test_the_cascade_judges_the_suite_and_keeps_what_the_tiers_guarantee(
    tmp_path: Path, run: Run
) -> None:
    """`python -m tests.gate.realistic --model DIR` runs rules -> model: with a model that
    says `entailed` to everything, a claim the rules call `contradicted`, or hold for a slot
    or a changed condition, keeps its verdict, and what the rules accept stays accepted."""
    from tests.gate.realistic.__main__ import CascadeJudge
    from tests.learned import tiny_model_dir

    yes = tiny_model_dir(tmp_path / "yes", gain=0.0, bias=10.0, threshold=0.5)
    judge = CascadeJudge.of(yes)
    try:
        lifted = run_suite(SUITE, forms=("quote",), judge=judge)
    finally:
        judge.close()
    rules = {(o.answer_id, o.case.claim): o for o in run.outcomes if o.form == "quote"}
    assert len(lifted.outcomes) == len(rules)
    for o in lifted.outcomes:
        before = rules[o.answer_id, o.case.claim]
        if before.verdict in ("entailed", "contradicted"):
            assert o.verdict == before.verdict, o.case.claim
        if any(s.startswith(("condition_changed", "number_mismatch")) for s in before.signals):
            assert o.verdict != "entailed", o.case.claim
    assert sum(o.verdict == "entailed" for o in lifted.outcomes) > sum(
        o.verdict == "entailed" for o in rules.values()
    )
