"""Structured answers: every published sentence must be covered by a verified claim."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from stream.codec import answer_from_obj
from stream.errors import InputError
from stream.verify.coverage import uncovered_claims
from stream.verify.model import Claim
from tests.unit.fakes import demo_answers, rig


def accepted_demo() -> dict[str, Any]:
    return next(a for a in demo_answers() if a["answer_id"] == "demo-002")


async def decide(*answers: dict[str, Any]) -> tuple[dict[str, Any], list[Any], list[Any]]:
    r = rig()
    for a in answers:
        r.consumer.append(orjson.dumps(a))
    await r.drain()
    verdicts = r.producer.on("verdicts")
    return {d["answer_id"]: d for d in r.decisions()}, verdicts, r.dead_letters()


async def test_clean_structured_answer_is_still_accepted() -> None:
    decisions, _, _ = await decide(accepted_demo())
    assert decisions["demo-002"]["final_status"] == "accept"


async def test_an_uncited_extra_sentence_is_a_claim_without_citation() -> None:
    base = accepted_demo()
    extra = "Backups are also encrypted with a key rotated every hour."
    answer = {**base, "event_id": "e-extra", "answer": f"{base['answer']} {extra}"}
    decisions, verdicts, _ = await decide(answer)
    decision = decisions["demo-002"]
    assert decision["final_status"] != "accept"
    assert decision["publish"] is False
    [uncovered] = [v for v in verdicts if v["claim_id"].startswith("uncovered-")]
    assert uncovered["text"] == extra
    assert uncovered["verdict"] == "insufficient"
    assert uncovered["support_status"] == "missingCitation"


async def test_an_answer_text_that_says_something_else_is_not_accepted() -> None:
    base = accepted_demo()
    answer = {**base, "event_id": "e-other", "answer": "The moon is made of cheese."}
    decisions, verdicts, _ = await decide(answer)
    assert decisions["demo-002"]["final_status"] != "accept"
    assert any(v["text"] == "The moon is made of cheese." for v in verdicts)


async def test_claim_span_outside_the_text_is_dead_lettered() -> None:
    base = accepted_demo()
    claims = [{**base["claims"][0], "span": [-5, 1000]}]
    _, _, letters = await decide({**base, "event_id": "e-span", "claims": claims})
    [letter] = letters
    assert letter["reason"] == "span_invalid"


@pytest.mark.parametrize("span", [[-5, 1000], [0, 10_000], [5, 2]])
def test_bad_spans_are_input_errors(span: list[int]) -> None:
    base = accepted_demo()
    with pytest.raises(InputError) as info:
        answer_from_obj({**base, "claims": [{**base["claims"][0], "span": span}]})
    assert info.value.code == "span_invalid"


def test_utf16_span_that_cuts_a_surrogate_pair_is_invalid() -> None:
    text = "😀 Fact."
    obj = {
        "answer": text,
        "offset_unit": "utf16",
        "claims": [{"id": "c1", "text": "Fact.", "citation_ids": [], "span": [1, 8]}],
        "citations": [],
    }
    with pytest.raises(InputError):
        answer_from_obj(obj)
    ok = {**obj, "claims": [{**obj["claims"][0], "span": [3, 8]}]}
    answer = answer_from_obj(ok)
    assert [c.id for c in answer.claims] == ["c1"], "the emoji needs no cover"


def test_markers_and_punctuation_need_no_cover_and_partial_cover_is_not_enough() -> None:
    text = "Logs are kept 30 days [1]. They are deleted after that, forever."
    first = Claim("c1", "Logs are kept 30 days", ("1",), (0, 21))
    assert uncovered_claims(text, [first], "codepoint", 10)[0].text == (
        "They are deleted after that, forever."
    )
    partial = Claim("c2", "They are deleted", ("1",), (27, 43))
    [left] = uncovered_claims(text, [first, partial], "codepoint", 10)
    assert left.span == (27, len(text))
    whole = Claim("c3", "after that, forever", ("1",), (44, len(text) - 1))
    assert uncovered_claims(text, [first, partial, whole], "codepoint", 10) == ()


def test_uncovered_sentences_past_the_limit_are_merged_not_dropped() -> None:
    text = " ".join(f"Sentence number {i} says something." for i in range(20))
    claims = uncovered_claims(text, [], "codepoint", 3)
    assert len(claims) == 3
    assert claims[-1].text.endswith("Sentence number 19 says something.")


def test_a_rewrite_is_covered_but_a_changed_number_or_a_negation_is_not() -> None:
    claims = [
        Claim("c1", "Passwords must be rotated every 90 days.", ("q1",)),
        Claim("c2", "Multi-factor authentication is required for administrator accounts.", ()),
    ]
    text = "Passwords must be rotated every 90 days, and administrators must use multi-factor authentication."
    assert uncovered_claims(text, claims, "codepoint", 10) == ()
    for changed in (
        "Passwords must be rotated every 60 days.",
        "Passwords must never be rotated every 90 days.",
        "Passwords must not be rotated every 90 days.",
    ):
        [extra] = uncovered_claims(changed, claims, "codepoint", 10)
        assert extra.text == changed
        assert extra.citation_ids == ()


def test_cjk_sentences_are_compared_character_by_character() -> None:
    claims = [Claim("c1", "Node.js 20 提供全局 fetch API。", ("S1",))]
    assert uncovered_claims("Node.js 20 提供全局 fetch API。", claims, "codepoint", 5) == ()
    [extra] = uncovered_claims("Node.js 20 不提供全局 fetch API。", claims, "codepoint", 5)
    assert extra.id == "uncovered-1"
