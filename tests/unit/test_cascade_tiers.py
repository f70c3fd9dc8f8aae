"""Checker tiers: rules -> learned model -> LLM. What each tier may settle, and what it may not.

The rules and the learned model are stand-ins with fixed answers (the tier logic is under test,
not their judgement); the real model checker has its own tests (test_learned_checker.py).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from prometheus_client import CollectorRegistry

from stream.checkers.cascade import NO_LIFT, SLOT_MISMATCHES, CascadeChecker, is_final
from stream.metrics import Metrics
from stream.verify.codes import SignalCode, SupportStatus, Verdict
from stream.verify.model import CheckRequest, CheckResult, Fragment, Ref, RiskSignal


class Fixed:
    """A checker that answers from a table: claim id -> (verdict, confidence, signals)."""

    def __init__(
        self,
        name: str,
        table: dict[str, tuple[Verdict, float, tuple[SignalCode, ...]]],
        *,
        fail: bool = False,
    ) -> None:
        self.name = name
        self.table = table
        self.fail = fail
        self.seen: list[str] = []

    @property
    def ref(self) -> Ref:
        return Ref(self.name, f"{self.name}-1")

    async def check_many(self, requests: Sequence[CheckRequest]) -> dict[str, CheckResult]:
        self.seen += [r.claim_id for r in requests]
        if self.fail:
            raise RuntimeError("down")
        out = {}
        for r in requests:
            if r.claim_id in self.table:
                verdict, conf, codes = self.table[r.claim_id]
                out[r.claim_id] = CheckResult(
                    r.claim_id,
                    verdict,
                    confidence=conf,
                    signals=tuple(RiskSignal(c, "x (evidence: y)") for c in codes),
                    support_status=SupportStatus.BEYOND_EVIDENCE,
                    reason=self.name,
                )
        return out

    async def close(self) -> None:
        return None


def req(cid: str, *signals: SignalCode) -> CheckRequest:
    return CheckRequest(
        cid, f"claim {cid}", (Fragment("q1", "evidence"),), "en",
        tuple(RiskSignal(s, "t") for s in signals),
    )  # fmt: skip


INS, E, C, U = Verdict.INSUFFICIENT, Verdict.ENTAILED, Verdict.CONTRADICTED, Verdict.UNKNOWN
RULES = {
    "paraphrase": (INS, 0.9, ()),  # unaligned words only: the model may lift it
    "number": (INS, 0.9, (SignalCode.NUMBER_MISMATCH,)),  # slot mismatch: final
    "entity": (INS, 0.6, (SignalCode.ENTITY_MISMATCH,)),  # final, although in the LLM band
    "contra": (C, 0.9, (SignalCode.NEGATION_MISMATCH,)),  # final
    "modal": (INS, 0.9, (SignalCode.MODALITY_STRENGTHENED,)),  # no lift; the LLM may judge it
    "entailed": (E, 0.95, ()),
    "unsure": (INS, 0.5, ()),  # model says no; in the LLM band
}
YES = dict.fromkeys(RULES, (E, 0.99, ()))
NO = dict.fromkeys(RULES, (INS, 0.8, ()))


def test_slot_mismatches_cover_the_issue_list() -> None:
    for code in ("number", "unit", "negation", "bound", "quantifier", "entity"):
        assert any(c.value.startswith(code) for c in SLOT_MISMATCHES), code
    assert not SLOT_MISMATCHES & NO_LIFT
    final = CheckResult("c", INS, signals=(RiskSignal(SignalCode.UNIT_MISMATCH, "a"),))
    assert is_final(final)
    assert not is_final(CheckResult("c", E, signals=final.signals))


async def test_a_yes_saying_model_lifts_only_what_it_may() -> None:
    registry = CollectorRegistry()
    learned = Fixed("model", YES)
    cascade = CascadeChecker(
        Fixed("rules", RULES), None, metrics=Metrics(registry), learned=learned
    )
    out = await cascade.check_many([req(c) for c in RULES])
    assert sorted(learned.seen) == ["paraphrase", "unsure"]
    assert out["paraphrase"].verdict is E
    assert "rules: insufficient" in out["paraphrase"].reason
    for cid in ("number", "entity", "contra", "modal"):
        assert out[cid].verdict is RULES[cid][0], cid
        assert out[cid].reason == "rules"
    assert out["entailed"].verdict is E
    assert cascade.settled == {"rules": 5, "model": 2, "llm": 0}
    assert registry.get_sample_value("citegate_cascade_claims_total", {"tier": "model"}) == 2
    assert cascade.ref == Ref("cascade", "rules-1+model:model-1")


async def test_request_signals_also_forbid_a_lift() -> None:
    learned = Fixed("model", YES)
    cascade = CascadeChecker(Fixed("rules", RULES), learned=learned)
    out = await cascade.check_many(
        [req("paraphrase", SignalCode.INFERENCE_CUE), req("unsure", SignalCode.NUMBER_UNSUPPORTED)]
    )
    assert learned.seen == []
    assert {r.verdict for r in out.values()} == {INS}


async def test_unsure_claims_go_on_to_the_llm_or_stay_insufficient() -> None:
    llm = Fixed("llm", YES)
    cascade = CascadeChecker(Fixed("rules", RULES), llm, learned=Fixed("model", NO))
    out = await cascade.check_many([req(c) for c in RULES])
    # the model lifted nothing; the LLM judged the open claims in its band or with its signals
    assert sorted(llm.seen) == ["modal", "unsure"]
    assert out["unsure"].verdict is E
    assert "routed to llm" in out["unsure"].reason
    assert out["paraphrase"].verdict is INS  # confident rules verdict, not in the band
    assert out["entity"].verdict is INS  # in the band, but final
    assert cascade.settled == {"rules": 5, "model": 0, "llm": 2}
    alone = CascadeChecker(Fixed("rules", RULES), learned=Fixed("model", NO))
    out = await alone.check_many([req(c) for c in RULES])
    assert out["unsure"].verdict is INS
    assert out["unsure"].reason == "rules"


@pytest.mark.parametrize("broken", ["raises", "no results"])
async def test_a_failing_model_never_passes_a_claim(broken: str) -> None:
    learned = Fixed("model", {} if broken == "no results" else YES, fail=broken == "raises")
    cascade = CascadeChecker(Fixed("rules", RULES), learned=learned)
    out = await cascade.check_many([req(c) for c in RULES])
    assert out["paraphrase"].verdict is U
    assert out["unsure"].verdict is U
    assert out["entailed"].verdict is E
    # with an LLM configured, the claims the model could not judge go to it
    llm = Fixed("llm", NO)
    cascade = CascadeChecker(Fixed("rules", RULES), llm, learned=learned)
    out = await cascade.check_many([req(c) for c in RULES])
    assert {"paraphrase", "unsure"} <= set(llm.seen)
    assert out["paraphrase"].verdict is INS


async def test_a_cascade_needs_a_second_tier() -> None:
    with pytest.raises(ValueError, match="learned model, an LLM"):
        CascadeChecker(Fixed("rules", RULES))


async def test_a_condition_the_rules_see_changed_is_not_lifted_by_the_model() -> None:
    """`If you have bought the add-on, X is covered` for `X is covered only if you have bought
    the add-on` shares every word with its evidence: a model trained on reviewers' labels
    lifted such claims, so a changed condition is left to the rules (or an LLM)."""
    learned = Fixed("model", {"cond": (E, 0.99, ())})
    cascade = CascadeChecker(
        Fixed("rules", {"cond": (INS, 0.9, (SignalCode.CONDITION_CHANGED,))}), learned=learned
    )
    out = await cascade.check_many([req("cond")])
    assert learned.seen == []
    assert out["cond"].verdict is INS
    assert SignalCode.CONDITION_CHANGED in NO_LIFT
