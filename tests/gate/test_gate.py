"""The public mutation suite: the gate accepts faithful claims and refuses their mutants.

Faithful claim/quote pairs (tests/gate/pairs.py, en/ru/zh) go through every mutation operator of
`stream.quality.mutations`; no mutant may be decided `entailed`, while the faithful claims are
and at least 90 % of their paraphrases. A few cases go through the whole `verify` pipeline with
a structured answer whose quote is exact, as a user would send them.
"""

from __future__ import annotations

from collections import Counter

import pytest

from stream.quality.mutations import OPERATORS, mutants
from stream.verify.checkers import RulesChecker
from stream.verify.citations import DocumentSnapshot, sha256_hex
from stream.verify.codes import FinalStatus, Verdict
from stream.verify.features import evidence_signals
from stream.verify.model import CheckRequest, CheckResult, Document, Fragment
from stream.verify.parse import parse_answer
from stream.verify.pipeline import verify_answer
from tests.gate.pairs import PAIRS, Pair

CHECKER = RulesChecker()


def judge(claim: str, quote: str, language: str) -> CheckResult:
    fragments = (Fragment("q1", quote),)
    request = CheckRequest("c1", claim, fragments, language, evidence_signals(claim, fragments))
    return CHECKER.check(request)


def test_the_suite_is_big_enough() -> None:
    made = [(p.language, m.operator) for p in PAIRS for m in mutants(p.claim, p.language)]
    assert len(made) >= 150
    assert len({op for _, op in made}) >= 12
    assert {lang for lang, _ in made} == {"en", "ru", "zh"}
    per_language = Counter(p.language for p in PAIRS)
    assert min(per_language.values()) >= 15


def test_no_mutant_is_accepted() -> None:
    accepted = []
    for pair in PAIRS:
        for m in mutants(pair.claim, pair.language):
            result = judge(m.claim, pair.quote, pair.language)
            if result.verdict is Verdict.ENTAILED:
                accepted.append(f"[{pair.language}/{m.operator}] {m.change}: {m.claim}")
    assert not accepted, "\n".join(accepted)


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: f"{p.language}:{p.claim[:30]}")
def test_faithful_claim_is_accepted(pair: Pair) -> None:
    result = judge(pair.claim, pair.quote, pair.language)
    assert result.verdict is Verdict.ENTAILED, result.reason
    assert result.unsupported_parts == ()


def test_paraphrases_are_accepted() -> None:
    paraphrases = [(p, text) for p in PAIRS for text in p.paraphrases]
    refused = [
        f"{text} ({r.reason})"
        for p, text in paraphrases
        if (r := judge(text, p.quote, p.language)).verdict is not Verdict.ENTAILED
    ]
    assert len(paraphrases) >= 45
    assert len(refused) / len(paraphrases) <= 0.1, "\n".join(refused)


@pytest.mark.parametrize("operator", sorted(OPERATORS))
def test_every_operator_is_exercised(operator: str) -> None:
    assert any(m.operator == operator for p in PAIRS for m in mutants(p.claim, p.language))


# --- the issue's own examples, each naming both values where a slot differs ---


@pytest.mark.parametrize(
    ("quote", "claim", "language", "code", "detail"),
    [
        ("系统每秒最多处理50个任务。", "系统每秒最多处理500个任务。", "zh", "number_mismatch", "500个 (evidence: 50个"),
        ("新方案使能耗降低80%。", "新方案使能耗降低90%。", "zh", "number_mismatch", "90% (evidence: 80%)"),
        ("All traffic uses TLS 1.3.", "All traffic uses TLS 1.2.", "en", "identifier_mismatch", "TLS 1.2 (evidence: TLS 1.3)"),
        ("The vendor is certified to ISO 27001.", "The vendor is certified to ISO 9001.", "en", "identifier_mismatch", "ISO 9001 (evidence: ISO 27001)"),
        ("Passwords are hashed with SHA-256.", "Passwords are hashed with SHA-1.", "en", "identifier_mismatch", "SHA-1 (evidence: SHA-256)"),
        ("The clinic has five branches.", "The clinic has six branches.", "en", "number_mismatch", "six (evidence: five)"),
        ("Банк работает в пяти филиалах.", "Банк работает в шести филиалах.", "ru", "number_mismatch", "шести (evidence: пяти)"),
        ("集群有两个节点。", "集群有三个节点。", "zh", "number_mismatch", "3"),
        ("Таймаут составляет 30 секунд.", "Таймаут составляет 30 минут.", "ru", "unit_mismatch", "30 минут (evidence: 30 секунд)"),
        ("Snapshots are taken every 12 hours.", "Snapshots are taken every hour.", "en", "number_mismatch", "every hour (evidence: 12 hours)"),
        ("该功能仅对内部用户开放。", "该功能对所有用户开放。", "zh", "quantifier_widened", "所有 (evidence: none)"),
        ("Refunds are paid within 14 days unless the box was opened.", "Refunds are paid within 14 days.", "en", "condition_dropped", "unless (claim: none)"),
        ("The drug may cause dizziness.", "The drug will cause dizziness.", "en", "modality_strengthened", "will (evidence: may)"),
        ("Уведомление отправляется до 5 раз.", "Уведомление отправляется не менее 5 раз.", "ru", "bound_mismatch", "lower 5 (evidence: upper)"),
    ],
)  # fmt: skip
def test_slot_mismatch_names_both_values(
    quote: str, claim: str, language: str, code: str, detail: str
) -> None:
    result = judge(claim, quote, language)
    assert result.verdict is not Verdict.ENTAILED
    found = {(s.code.value, s.detail) for s in result.signals}
    assert any(c == code and d.startswith(detail) for c, d in found), found


@pytest.mark.parametrize(
    ("quote", "claim", "language", "missing"),
    [
        ("Deploys go to the staging cluster.", "Deploys go to the production cluster.", "en", "production"),
        ("Доступ есть у менеджеров отдела.", "Доступ есть у всех сотрудников.", "ru", "сотрудников"),
        ("Data is stored in the EU.", "Data is stored worldwide.", "en", "worldwide"),
        ("Data is encrypted at rest.", "Data is encrypted at rest and replicated to a second region.", "en", "replicated"),
    ],
)  # fmt: skip
def test_unaligned_content_is_beyond_evidence(
    quote: str, claim: str, language: str, missing: str
) -> None:
    result = judge(claim, quote, language)
    assert result.verdict is Verdict.INSUFFICIENT
    assert any(missing in part for part in result.unsupported_parts), result.unsupported_parts


# --- through `citegate verify`'s pipeline: structured answer, exact valid quote ---

DOC = (
    "Security policy. Customer data is encrypted at rest with AES-256 and in transit with "
    "TLS 1.3. 系统每秒最多处理50个任务。 Компания работает в пяти филиалах."
)


def _verify(claim: str, quote: str) -> tuple[FinalStatus, Verdict, tuple[str, ...]]:
    start = DOC.index(quote)
    payload = {
        "answer": claim,
        "claims": [{"id": "c1", "text": claim, "citation_ids": ["q1"]}],
        "citations": [
            {
                "id": "q1",
                "document_id": "policy",
                "document_version": "v1",
                "start": start,
                "end": start + len(quote),
                "quote": quote,
            }
        ],
    }
    snapshot = DocumentSnapshot.of([Document("policy", "v1", DOC, sha256_hex(DOC))])
    result = verify_answer(parse_answer(payload), snapshot, CHECKER)
    assert not result.errors
    verdict = result.verdicts[0]
    signals = tuple(f"{s.code.value}: {s.detail}" for s in verdict.risk_signals)
    return result.decision.final_status, verdict.verdict, signals


EN_QUOTE = "Customer data is encrypted at rest with AES-256 and in transit with TLS 1.3."
ZH_QUOTE = "系统每秒最多处理50个任务。"
RU_QUOTE = "Компания работает в пяти филиалах."


@pytest.mark.parametrize(
    ("claim", "quote"),
    [
        ("Customer data is encrypted in transit with TLS 1.3.", EN_QUOTE),
        ("系统每秒最多处理50个任务。", ZH_QUOTE),
        ("Компания работает в 5 филиалах.", RU_QUOTE),
    ],
)
def test_verify_accepts_faithful_claims(claim: str, quote: str) -> None:
    status, verdict, _ = _verify(claim, quote)
    assert (status, verdict) == (FinalStatus.ACCEPT, Verdict.ENTAILED)


@pytest.mark.parametrize(
    ("claim", "quote", "signal"),
    [
        ("Customer data is encrypted in transit with TLS 1.2.", EN_QUOTE, "identifier_mismatch: TLS 1.2"),
        ("系统每秒最多处理500个任务。", ZH_QUOTE, "number_mismatch: 500"),
        ("Компания работает в шести филиалах.", RU_QUOTE, "number_mismatch: шести"),
        ("Customer data is encrypted at rest with AES-256 and replicated to a second region.", EN_QUOTE, ""),
    ],
)  # fmt: skip
def test_verify_never_accepts_a_mutant(claim: str, quote: str, signal: str) -> None:
    status, verdict, signals = _verify(claim, quote)
    assert status is not FinalStatus.ACCEPT
    assert verdict is not Verdict.ENTAILED
    assert any(s.startswith(signal) for s in signals) or not signal, signals
