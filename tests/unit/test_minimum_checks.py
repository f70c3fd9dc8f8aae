"""Seed 000's eight minimum checks, each asserting the exact code or status."""

from __future__ import annotations

import copy
from typing import Any

from stream.verify.checkers import RulesChecker
from stream.verify.citations import CheckOptions, DocumentSnapshot, sha256_hex
from stream.verify.codes import CheckCode, CitationStatus, FinalStatus, Verdict
from stream.verify.model import AnswerResult, Document
from stream.verify.parse import parse_answer
from stream.verify.pipeline import verify_answer

TEXT = "Правила хранения данных. Журнал операций хранится в течение 30 календарных дней. Резервные копии удаляются отдельно."
QUOTE = "Журнал операций хранится в течение 30 календарных дней."


def corpus() -> DocumentSnapshot:
    return DocumentSnapshot.of(
        [
            Document("retention-policy", "2025-06", "Журнал хранится 90 дней.", sha256_hex("x")),
            Document("retention-policy", "2026-01", TEXT, sha256_hex(TEXT)),
        ]
    )


def answer(**citation: Any) -> dict[str, Any]:
    base = {
        "id": "q1",
        "document_id": "retention-policy",
        "document_version": "2026-01",
        "start": 25,
        "end": 80,
        "quote": QUOTE,
    }
    base.update(citation)
    return {
        "answer": "Сервис хранит журнал операций 30 дней.",
        "claims": [
            {"id": "c1", "text": "Сервис хранит журнал операций 30 дней.", "citation_ids": ["q1"]}
        ],
        "citations": [base],
    }


def run(payload: dict[str, Any]) -> AnswerResult:
    return verify_answer(parse_answer(payload), corpus(), RulesChecker())


def codes(result: AnswerResult) -> list[str]:
    return [e.code.value for e in result.errors]


def test_valid_answer_is_accepted() -> None:
    result = run(answer())
    assert codes(result) == []
    assert result.verdicts[0].citation_status is CitationStatus.REQUIRES_ENTAILMENT_CHECK
    assert result.decision.final_status is FinalStatus.ACCEPT


def test_1_unknown_document_id_is_rejected() -> None:
    result = run(answer(document_id="no-such-policy"))
    assert codes(result) == ["document_missing"]
    assert result.verdicts[0].citation_status is CitationStatus.INVALID_REFERENCE
    assert result.decision.final_status is FinalStatus.REJECT


def test_2_stale_document_version_is_rejected() -> None:
    result = run(answer(document_version="2025-01"))
    assert codes(result) == ["document_version_mismatch"]
    assert result.decision.final_status is FinalStatus.REJECT


def test_3_negative_empty_and_out_of_bounds_ranges_are_rejected() -> None:
    for start, end in [
        (-1, 10),
        (30, 30),
        (40, 30),
        (25, len(TEXT) + 1),
        (len(TEXT), len(TEXT) + 5),
    ]:
        result = run(answer(start=start, end=end))
        assert codes(result) == ["range_invalid"], (start, end)
        assert result.decision.final_status is FinalStatus.REJECT


def test_4_one_changed_character_in_the_quote_is_detected() -> None:
    result = run(answer(quote=QUOTE.replace("30", "31")))
    assert codes(result) == ["quote_mismatch"]
    err = result.errors[0]
    assert err.expected == QUOTE
    assert err.received == QUOTE.replace("30", "31")
    assert err.found_at == ()
    assert err.normalized_match is False


def test_5_unknown_citation_id_in_a_claim_is_detected() -> None:
    payload = answer()
    payload["claims"][0]["citation_ids"] = ["q1", "q9"]
    result = run(payload)
    v = result.verdicts[0]
    assert v.missing_citations == ("q9",)
    assert v.citation_status is CitationStatus.INVALID_REFERENCE
    assert [e.code for e in v.deterministic_errors] == [CheckCode.CITATION_UNKNOWN]
    assert result.ok is False
    assert result.decision.final_status is FinalStatus.REJECT


def test_6_claim_without_citations_is_unsupported() -> None:
    payload = answer()
    payload["claims"][0]["citation_ids"] = []
    result = run(payload)
    v = result.verdicts[0]
    assert v.citation_status is CitationStatus.UNSUPPORTED
    assert v.verdict is Verdict.INSUFFICIENT
    assert v.support_status.value == "missingCitation"
    assert result.decision.final_status is FinalStatus.REGENERATE_OR_ABSTAIN


def test_7_exact_but_irrelevant_quote_is_not_accepted() -> None:
    payload = answer(start=82, end=len(TEXT), quote=TEXT[82:])
    payload["claims"][0]["text"] = "Сервис шифрует все данные алгоритмом AES-256."
    result = run(payload)
    v = result.verdicts[0]
    assert codes(result) == []
    assert v.citation_status is CitationStatus.REQUIRES_ENTAILMENT_CHECK
    assert v.verdict is not Verdict.ENTAILED
    assert result.decision.final_status is not FinalStatus.ACCEPT


def test_8_compound_claim_with_one_part_supported_is_not_entailed() -> None:
    payload = answer()
    payload["claims"][0]["text"] = (
        "Сервис хранит журнал операций 30 дней и шифрует резервные копии ключом клиента."
    )
    result = run(payload)
    v = result.verdicts[0]
    assert v.verdict is Verdict.INSUFFICIENT
    assert v.support_status.value == "beyondEvidence"
    assert v.unsupported_parts
    assert result.decision.final_status is FinalStatus.REGENERATE_OR_ABSTAIN


def test_duplicate_and_missing_citation_ids() -> None:
    payload = answer()
    payload["citations"].append(copy.deepcopy(payload["citations"][0]))
    payload["citations"].append({k: v for k, v in payload["citations"][0].items() if k != "id"})
    result = run(payload)
    assert codes(result) == ["citation_id_duplicate", "citation_id_missing"]
    assert result.decision.final_status is FinalStatus.REJECT


def test_content_hash_mismatch() -> None:
    assert codes(run(answer(sha256=sha256_hex(TEXT)))) == []
    assert codes(run(answer(sha256="0" * 64))) == ["content_hash_mismatch"]


def test_quote_found_elsewhere_is_located_and_relocation_is_opt_in() -> None:
    payload = answer(start=24, end=79)
    result = run(payload)
    err = result.errors[0]
    assert err.code is CheckCode.QUOTE_MISMATCH
    assert err.found_at == ((25, 80),)
    relocated = verify_answer(
        parse_answer(payload),
        corpus(),
        RulesChecker(),
        options=CheckOptions(relocate_quotes=True),
    )
    assert codes(relocated) == []
    warning = relocated.verdicts[0].warnings[0]
    assert warning.code is CheckCode.RANGE_RELOCATED
    assert warning.relocated_to == (25, 80)
    assert relocated.decision.final_status is FinalStatus.ACCEPT


def test_normalized_match_is_only_a_diagnostic() -> None:
    result = run(answer(quote=QUOTE.upper().replace(" ", "  ")))
    err = result.errors[0]
    assert err.code is CheckCode.QUOTE_MISMATCH
    assert err.normalized_match is True
    assert result.decision.final_status is FinalStatus.REJECT


def test_utf16_and_utf8_offsets() -> None:
    emoji_text = "😀 " + TEXT
    docs = DocumentSnapshot.of(
        [Document("retention-policy", "2026-01", emoji_text, sha256_hex(emoji_text))]
    )
    start = emoji_text.index(QUOTE)
    for unit, (s, e) in {
        "codepoint": (start, start + len(QUOTE)),
        "utf16": (start + 1, start + 1 + len(QUOTE)),
        "utf8": (
            len(emoji_text[:start].encode()),
            len(emoji_text[:start].encode()) + len(QUOTE.encode()),
        ),
    }.items():
        payload = answer(start=s, end=e)
        payload["offset_unit"] = unit
        result = verify_answer(parse_answer(payload), docs, RulesChecker())
        assert codes(result) == [], unit
    payload = answer(start=1, end=20)
    payload["offset_unit"] = "utf16"  # 1 falls inside the surrogate pair of 😀
    assert codes(verify_answer(parse_answer(payload), docs, RulesChecker())) == ["range_invalid"]
