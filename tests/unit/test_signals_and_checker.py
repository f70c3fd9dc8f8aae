"""Risk signals (en/ru/zh) and the rules checker's verdict mapping (design §3 table)."""

from __future__ import annotations

import pytest

from stream.verify.checkers import RulesChecker
from stream.verify.codes import SignalCode, SupportStatus, Verdict
from stream.verify.model import CheckRequest, Fragment
from stream.verify.signals import risk_signals


def codes(claim: str, *evidence: str) -> dict[str, str]:
    return {s.code.value: s.detail for s in risk_signals(claim, list(evidence))}


@pytest.mark.parametrize(
    ("claim", "evidence", "code", "detail"),
    [
        ("Logs are kept for 90 days.", "Logs are kept for 30 days.", "number_unsupported", "90"),
        ("Uptime reached 99.9%.", "Uptime reached 99.9 percent.", None, None),
        ("Журнал хранится 1,5 года.", "Журнал хранится 1.5 года.", None, None),
        ("该验证器能把幻觉率降低 80%。", "", "number_unsupported", "80%"),
        (
            "The API is not available.",
            "The API is available.",
            "negation_mismatch",
            "claim: not available (evidence: none)",
        ),
        (
            "Доступ не предоставляется.",
            "Доступ предоставляется.",
            "negation_mismatch",
            "claim: не предоставляется (evidence: none)",
        ),
        (
            "Backups are always encrypted.",
            "Backups are encrypted.",
            "absolute_unsupported",
            "always",
        ),
        ("Все копии удаляются.", "Копии удаляются.", "absolute_unsupported", "все"),
        ("所有旧版都支持。", "Node.js 20 支持。", "absolute_unsupported", "所有"),
        (
            "The fix will stop crashes.",
            "The fix may stop crashes.",
            "modality_strengthened",
            "will (evidence: may)",
        ),
        (
            "Это будет работать.",
            "Это может работать.",
            "modality_strengthened",
            "будет (evidence: может)",
        ),
        ("这一定有效。", "这可能有效。", "modality_strengthened", "一定 (evidence: 可能)"),
        ("Therefore, old versions work.", "Version 20 works.", "inference_cue", "therefore"),
        ("Поэтому старые версии работают.", "Версия 20 работает.", "inference_cue", "поэтому"),
        (
            "The law passed in 2021.",
            "The law passed in 2019.",
            "date_mismatch",
            "2021 (evidence has 2019)",
        ),
        (
            "Requires Python 3.11.",
            "Requires Python 3.10.",
            "version_mismatch",
            "3.11 (evidence has 3.10)",
        ),
    ],
)
def test_signals_name_their_trigger(
    claim: str, evidence: str, code: str | None, detail: str | None
) -> None:
    found = codes(claim, *([evidence] if evidence else []))
    if code is None:
        assert "number_unsupported" not in found
    else:
        assert found.get(code) == detail, found


def judge(claim: str, *fragments: str) -> tuple[Verdict, SupportStatus | None]:
    frags = tuple(Fragment(f"q{i}", text) for i, text in enumerate(fragments, 1))
    request = CheckRequest("c1", claim, frags, "en", risk_signals(claim, fragments))
    result = RulesChecker().check(request)
    return result.verdict, result.support_status


def test_entailed_in_three_languages() -> None:
    assert (
        judge(
            "The service keeps the audit log for 30 days.",
            "Intro. The audit log is kept for 30 days by the service. Backups differ.",
        )[0]
        is Verdict.ENTAILED
    )
    assert (
        judge(
            "Сервис хранит журнал операций 30 дней.",
            "Журнал операций хранится в течение 30 календарных дней.",
        )[0]
        is Verdict.ENTAILED
    )
    assert (
        judge("Node.js 20 提供全局 fetch API。", "Node.js 20 提供全局 fetch API。")[0]
        is Verdict.ENTAILED
    )


def test_contradiction_by_negation_and_antonym() -> None:
    assert judge(
        "The audit log is not kept for 30 days.", "The audit log is kept for 30 days."
    ) == (Verdict.CONTRADICTED, SupportStatus.CONTRADICTS_EVIDENCE)
    assert (
        judge(
            "The policy allows sharing customer data with partners.",
            "The policy prohibits sharing customer data with partners.",
        )[0]
        is Verdict.CONTRADICTED
    )


def test_unrelated_fragment_is_wrong_citation_and_partial_is_beyond_evidence() -> None:
    assert judge(
        "Vector databases use cosine distance.", "Node.js 20 ships a global fetch API."
    ) == (Verdict.INSUFFICIENT, SupportStatus.WRONG_CITATION)
    assert judge(
        "Node.js 20 ships a global fetch API, and it bundles a built-in SQL database.",
        "Node.js 20 ships a global fetch API.",
    ) == (Verdict.INSUFFICIENT, SupportStatus.BEYOND_EVIDENCE)


def test_evidence_spans_point_into_the_document() -> None:
    doc = "Intro sentence here. The audit log is kept for 30 days. Unrelated closing words."
    frag = Fragment("q1", doc[5:], "policy", "v1", 5)
    claim = "The audit log is kept for 30 days."
    result = RulesChecker().check(CheckRequest("c1", claim, (frag,), "en"))
    assert result.verdict is Verdict.ENTAILED
    span = result.evidence[0]
    assert doc[span.start : span.end] == span.text
    assert "30 days" in span.text
    assert "Unrelated" not in span.text


def test_support_spread_over_citations_is_flagged() -> None:
    result = RulesChecker().check(
        CheckRequest(
            "c1",
            "Acme was founded in Oslo and sells bicycles.",
            (Fragment("q1", "Acme was founded in Oslo."), Fragment("q2", "Acme sells bicycles.")),
            "en",
        )
    )
    assert SignalCode.UNLINKED_CITATIONS in {s.code for s in result.signals}


def test_warm_loads_what_the_first_claim_of_each_language_waits_for() -> None:
    from stream.verify import align, lexicon

    for cached in (lexicon.table, lexicon._morph, lexicon._ru_members, lexicon._zh_members):
        cached.cache_clear()
    align._rjieba.cache_clear()
    align.warm(["ru"])
    assert lexicon._morph.cache_info().currsize == 1
    assert lexicon._ru_members.cache_info().currsize == 1
    assert lexicon._zh_members.cache_info().currsize == 0  # only what was asked for
    assert align._rjieba.cache_info().currsize == 0
    align.warm()
    assert lexicon.table.cache_info().currsize == 3
    assert align._rjieba.cache_info().currsize == 1


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("婚假共有十天。", "婚假为10天，须在领取结婚证后12个月内休完。"),
        ("婚假共有10天。", "婚假为十天，须在领取结婚证后十二个月内休完。"),
    ],
)
def test_a_chinese_number_written_another_way_finds_its_sentence(claim: str, evidence: str) -> None:
    """`十天` and `10天` are the same tokens when the window is chosen: a claim writing the
    number in words is beyond its evidence (`共有`), not a citation of an unrelated text."""
    result = RulesChecker().check(CheckRequest("c1", claim, (Fragment("q1", evidence),), "zh"))
    assert (result.verdict, result.support_status) == (
        Verdict.INSUFFICIENT,
        SupportStatus.BEYOND_EVIDENCE,
    )
