"""The two seed examples through `citegate verify`, with the outcomes their prose intends."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from stream.cli import main
from tests.conftest import FIXTURES, load


def verify(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main(["verify", *args, "--format", "json"])
    out = capsys.readouterr().out
    return code, json.loads(out)


def test_seed000_as_published_is_a_quote_mismatch_found_at_25_80(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, report = verify(
        capsys,
        str(FIXTURES / "seed000_response.json"),
        "--corpus",
        str(FIXTURES / "seed000_documents.json"),
    )
    assert code == 1
    assert report["ok"] is False
    assert [e["code"] for e in report["errors"]] == ["quote_mismatch"]
    assert report["errors"][0]["found_at"] == [[25, 80]]
    assert report["claims"] == [
        {
            "claim_id": "c1",
            "status": "invalid_reference",
            "missing_citations": [],
            "invalid_citations": ["q1"],
        }
    ]
    assert report["decision"]["final_status"] == "reject"


def test_seed000_with_the_corrected_range_is_accepted(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    answer = load("seed000_response.json")
    answer["citations"][0].update(start=25, end=80)
    path = tmp_path / "response.json"
    path.write_text(json.dumps(answer, ensure_ascii=False), "utf-8")
    code, report = verify(capsys, str(path), "--corpus", str(FIXTURES / "seed000_documents.json"))
    assert code == 0
    assert report["ok"] is True
    assert report["claims"][0]["status"] == "requires_entailment_check"
    assert report["verdicts"][0]["verdict"] == "entailed"
    assert report["decision"]["final_status"] == "accept"
    assert report["decision"]["publish"] is True


EXPECTED_001 = [
    ("supported", ["S1"]),
    ("wrongCitation", ["S1"]),
    ("beyondEvidence", ["S1"]),
    ("supported", ["S2"]),
    ("missingCitation", []),
]


@pytest.mark.parametrize("markers", ["after", "before"])
def test_seed001_claims_and_hold(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, markers: str
) -> None:
    answer = load("seed001_answer.json")
    if markers == "before":
        answer["answer"] = re.sub(r"。(\[S\d\])", r"\1。", answer["answer"])
        assert "[S1]。" in answer["answer"]
    path = tmp_path / "answer.json"
    path.write_text(json.dumps(answer, ensure_ascii=False), "utf-8")
    code, report = verify(capsys, str(path))
    assert code == 1
    got = [(v["support_status"], v["citation_ids"]) for v in report["verdicts"]]
    assert got == EXPECTED_001
    assert [v["claim_id"] for v in report["verdicts"]] == ["c1", "c2", "c3", "c4", "c5"]
    c3 = report["verdicts"][2]
    assert {s["code"] for s in c3["risk_signals"]} >= {"absolute_unsupported", "inference_cue"}
    assert {"code": "number_unsupported", "detail": "80%"} in report["verdicts"][4]["risk_signals"]
    assert report["decision"]["final_status"] != "accept"
    assert report["decision"]["publish"] is False
    assert report["decision"]["gate"] == "HOLD"
    for v in report["verdicts"]:
        start, end = v["span"]
        assert v["text"].rstrip("。")[:4] in answer["answer"][start:end]
