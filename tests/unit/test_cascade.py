"""The cascade sends only doubtful or flagged claims to the model, and never fails open.

The rules side is a fake with fixed results, so these tests do not depend on the rules
checker's thresholds; the model side is the real LlmChecker against a scripted local server.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any

import pytest
from aiohttp import web
from prometheus_client import CollectorRegistry

from stream.checkers.base import SyncChecker
from stream.checkers.cascade import CascadeChecker, p_entailed
from stream.checkers.factory import make_checker
from stream.checkers.llm import LlmChecker, LlmConfig
from stream.errors import UsageError
from stream.metrics import Metrics
from stream.settings import Settings
from stream.verify.codes import SignalCode, Verdict
from stream.verify.model import CheckRequest, CheckResult, Fragment, Ref, RiskSignal
from tests.unit.test_llm_checker import Scripted, by_claim, chat, free_port, scripted_server

SIGNALS = frozenset({"negation_mismatch", "number_unsupported", "modality_strengthened"})


class FixedRules:
    """A rules checker stand-in that returns the verdicts it was given."""

    def __init__(self, results: dict[str, tuple[Verdict, float]]) -> None:
        self.results = results
        self.closed = False

    @property
    def ref(self) -> Ref:
        return Ref("rules", "rules-test")

    async def check_many(self, requests: Sequence[CheckRequest]) -> dict[str, CheckResult]:
        out = {}
        for r in requests:
            if r.claim_id in self.results:
                verdict, confidence = self.results[r.claim_id]
                out[r.claim_id] = CheckResult(
                    r.claim_id, verdict, confidence=confidence, reason="rules"
                )
        return out

    async def close(self) -> None:
        self.closed = True


def req(claim_id: str, claim: str, *signals: SignalCode) -> CheckRequest:
    return CheckRequest(
        claim_id,
        claim,
        (Fragment("q1", f"fragment for {claim_id}"),),
        "en",
        tuple(RiskSignal(s, "test") for s in signals),
    )


# claim id -> (rules verdict, rules confidence); the claim text's first word is the model's verdict
RULES = {
    "keep-entailed": (Verdict.ENTAILED, 0.95),  # p 0.95: kept
    "keep-contradicted": (Verdict.CONTRADICTED, 0.9),  # p 0.10: kept
    "band-insufficient": (Verdict.INSUFFICIENT, 0.5),  # p 0.50: routed
    "band-entailed": (Verdict.ENTAILED, 0.6),  # p 0.60: routed
    "signal-entailed": (Verdict.ENTAILED, 0.97),  # p 0.97 but negation_mismatch: routed
    "other-signal": (Verdict.ENTAILED, 0.97),  # inference_cue is not routed: kept
}
REQUESTS = [
    req("keep-entailed", "entailed a"),
    req("keep-contradicted", "entailed b"),
    req("band-insufficient", "entailed c"),
    req("band-entailed", "contradicted d"),
    req("signal-entailed", "contradicted e", SignalCode.NEGATION_MISMATCH),
    req("other-signal", "contradicted f", SignalCode.INFERENCE_CUE),
]
ROUTED = {"band-insufficient", "band-entailed", "signal-entailed"}


@pytest.fixture
async def server() -> AsyncIterator[Scripted]:
    async with scripted_server() as s:
        yield s


@pytest.fixture
def registry() -> CollectorRegistry:
    return CollectorRegistry()


@pytest.fixture
async def cascade_for(registry: CollectorRegistry) -> AsyncIterator[Any]:
    made: list[CascadeChecker] = []

    def build(url: str) -> CascadeChecker:
        metrics = Metrics(registry)
        model = LlmChecker(LlmConfig(url, "judge", timeout_s=0.5, retries=0), metrics)
        cascade = CascadeChecker(FixedRules(RULES), model, (0.3, 0.7), SIGNALS, metrics)
        made.append(cascade)
        return cascade

    yield build
    for cascade in made:
        await cascade.close()


def test_p_entailed_reads_verdict_and_confidence() -> None:
    assert p_entailed(CheckResult("c", Verdict.ENTAILED, confidence=0.8)) == 0.8
    assert p_entailed(CheckResult("c", Verdict.INSUFFICIENT, confidence=0.8)) == pytest.approx(0.2)


async def test_only_band_and_signal_claims_reach_the_model(
    server: Scripted, cascade_for: Any, registry: CollectorRegistry
) -> None:
    cascade = cascade_for(server.url)
    out = await cascade.check_many(REQUESTS)
    sent = {b["messages"][1]["content"] for b in server.bodies}
    assert len(server.bodies) == 3
    assert {cid for cid in RULES if any(f'"{cid}"' in s for s in sent)} == ROUTED
    assert (cascade.routed, cascade.kept) == (3, 3)
    assert registry.get_sample_value("citegate_cascade_claims_total", {"tier": "llm"}) == 3
    assert registry.get_sample_value("citegate_cascade_claims_total", {"tier": "rules"}) == 3
    assert out["keep-entailed"].verdict is Verdict.ENTAILED
    assert out["keep-entailed"].reason == "rules"
    assert out["keep-contradicted"].verdict is Verdict.CONTRADICTED
    assert out["other-signal"].verdict is Verdict.ENTAILED
    assert out["band-insufficient"].verdict is Verdict.ENTAILED  # the model's verdict
    assert out["band-entailed"].verdict is Verdict.CONTRADICTED
    assert out["signal-entailed"].verdict is Verdict.CONTRADICTED
    assert "negation_mismatch" in out["signal-entailed"].reason
    assert cascade.ref == Ref("cascade", f"rules-test+llm:{cascade.llm.ref.version}")


async def test_dead_endpoint_makes_routed_claims_unknown(cascade_for: Any) -> None:
    cascade = cascade_for(f"http://127.0.0.1:{free_port()}/v1")
    out = await cascade.check_many(REQUESTS)
    for cid in ROUTED:
        assert out[cid].verdict is Verdict.UNKNOWN, cid
        assert "routed to llm" in out[cid].reason
    # The rules said entailed (p 0.97), but a negation mismatch sent it to the dead model.
    assert out["signal-entailed"].verdict is not Verdict.ENTAILED
    assert out["keep-entailed"].verdict is Verdict.ENTAILED


@pytest.mark.parametrize("reply", ["garbled {", '{"verdict": "entailed"}', "maybe"])
async def test_garbled_model_reply_makes_routed_claims_unknown(
    server: Scripted, cascade_for: Any, reply: str
) -> None:
    async def garbled(s: Scripted, body: dict[str, Any]) -> web.StreamResponse:
        return chat(reply)

    server.handler = garbled
    out = await cascade_for(server.url).check_many(REQUESTS)
    assert {out[cid].verdict for cid in ROUTED} == {Verdict.UNKNOWN}
    assert "malformed" in out["signal-entailed"].reason


async def test_model_unknown_or_missing_is_unknown(server: Scripted, cascade_for: Any) -> None:
    async def unsure(s: Scripted, body: dict[str, Any]) -> web.StreamResponse:
        if "band-entailed" in body["messages"][1]["content"]:
            return web.Response(status=500)
        return await by_claim(s, body)

    server.handler = unsure
    requests = [req("signal-entailed", "unknown x", SignalCode.NUMBER_UNSUPPORTED), REQUESTS[3]]
    out = await cascade_for(server.url).check_many(requests)
    assert out["signal-entailed"].verdict is Verdict.UNKNOWN
    assert out["band-entailed"].verdict is Verdict.UNKNOWN


async def test_rules_without_result_are_routed(server: Scripted, cascade_for: Any) -> None:
    cascade = cascade_for(server.url)
    out = await cascade.check_many([req("no-rules-result", "entailed x")])
    assert out["no-rules-result"].verdict is Verdict.ENTAILED
    assert cascade.routed == 1
    assert len(server.bodies) == 1


async def test_close_closes_both_sides(server: Scripted) -> None:
    rules = FixedRules({})
    model = LlmChecker(LlmConfig(server.url, "judge"))
    cascade = CascadeChecker(rules, model)
    await cascade.check_many([req("x", "entailed x")])
    await cascade.close()
    assert rules.closed
    assert model._session is None


async def test_make_checker_builds_llm_and_cascade() -> None:
    with pytest.raises(UsageError, match="CITEGATE_LLM_URL"):
        make_checker("llm", Settings())
    with pytest.raises(UsageError, match="unknown checker"):
        make_checker("nope", Settings())
    settings = Settings.from_env(
        {
            "CITEGATE_LLM_URL": "http://127.0.0.1:8000/v1",
            "CITEGATE_LLM_MODEL": "qwen2.5:7b",
            "CITEGATE_LLM_API_KEY": "sk-secret",
            "CITEGATE_CASCADE_BAND": "0.2,0.8",
        }
    )
    assert "sk-secret" not in repr(settings)
    llm = make_checker("llm", settings)
    cascade = make_checker("cascade", settings)
    try:
        assert isinstance(llm, LlmChecker)
        assert llm.config.api_key is not None
        assert llm.config.api_key.reveal() == "sk-secret"
        assert isinstance(cascade, CascadeChecker)
        assert cascade.band == (0.2, 0.8)
        assert cascade.route_signals == SIGNALS
        assert isinstance(cascade.rules, SyncChecker)
        assert cascade.ref.name == "cascade"
        assert "llm:qwen2.5:7b" in cascade.ref.version
    finally:
        await llm.close()
        await cascade.close()
    with pytest.raises(UsageError, match="CASCADE_SIGNALS"):
        make_checker("cascade", settings.with_(cascade_signals=frozenset({"typo"})))
    with pytest.raises(UsageError, match="CITEGATE_CASCADE_BAND"):
        Settings.from_env({"CITEGATE_CASCADE_BAND": "0.8,0.2"})
