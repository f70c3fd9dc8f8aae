"""What the fuzz harnesses (tests/fuzz) found in the verification core and the checkers, each
as a plain test with its input inline. The inputs also live in tests/fuzz/regressions/,
replayed through the harness's whole contract."""

from __future__ import annotations

import json

import pytest

from stream.checkers.llm import MalformedReply, parse_reply
from stream.verify.checkers import RulesChecker
from stream.verify.codes import Verdict
from stream.verify.model import CheckRequest, Fragment, Ref


def test_a_claim_is_never_entailed_without_naming_its_evidence() -> None:
    # Found by the `verify` harness: the single character 局 aligned (inside 全局) while no
    # evidence window counted as covering it, so the verdict was `entailed` with no evidence.
    request = CheckRequest("c1", "局", (Fragment("S1", "Node.js 20 提供全局 fetch API。"),), "zh")
    result = RulesChecker().check(request)
    assert result.verdict is not Verdict.ENTAILED or result.evidence
    assert result.verdict is not Verdict.ENTAILED


def test_a_malformed_llm_reply_is_reported_in_bounded_words() -> None:
    # Found by the `llm_reply` harness in a 10-minute run: the names of a reply's extra keys
    # went verbatim into the message (the verdict's reason and the log), 1,132 characters for
    # one key of DEL characters; any number of keys of any length could follow.
    request = CheckRequest(
        "c1", "Node.js 20 has fetch.", (Fragment("S1", "Node.js 20 has fetch."),), "en"
    )
    contract = {
        "claim_id": "c1",
        "verdict": "insufficient",
        "evidence_citation_ids": [],
        "confidence": 0.5,
        **{"unsu" + "\x7f" * 1000 + str(i): [] for i in range(100)},
    }
    body = json.dumps({"choices": [{"message": {"content": json.dumps(contract)}}]})
    with pytest.raises(MalformedReply) as info:
        parse_reply(body, request, Ref("llm", "1"))
    message = str(info.value)
    assert message.startswith("keys differ from the contract (missing ['unsupported_parts']")
    assert "and 95 more" in message
    assert len(message) < 500
