"""`citegate eval`: metrics hand-checked on tiny fixtures with a scripted fake checker.

The fixtures are written here (never taken from the labelled eval data). The fake checker
returns fixed verdicts per claim id and leaves one claim out, so every number is exact.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from stream.cli import main
from stream.quality.evaluate import (
    LABELS,
    PREDICTED,
    evaluate_file,
    load_records,
    macro_f1,
)
from stream.quality.report import pr_curve, reliability, write_report
from stream.verify.codes import SignalCode, Verdict
from stream.verify.model import CheckRequest, CheckResult, Ref

PNG = b"\x89PNG\r\n\x1a\n"
KEYS = {
    "file",
    "dataset",
    "language",
    "n",
    "binary_bacc",
    "macro_f1",
    "confusion",
    "unknown_rate",
    "false_accept_rate",
    "accept_recall",
    "mutation_catch_rate",
    "mutation_catch",
    "mutation_catch_by_language",
    "mutants",
    "mutation_catch_rate_accepted",
    "mutants_of_accepted",
    "claims_per_s",
}


def rec(rid: str, lang: str, claim: str, label: str, *texts: str) -> dict[str, Any]:
    return {
        "id": rid,
        "source_dataset": "Toy",
        "language": lang,
        "claim": claim,
        "evidence": [{"document_id": f"doc-{i}", "text": t} for i, t in enumerate(texts)],
        "label": label,
        "original_label": label.upper(),
    }


THREE_WAY = [
    rec("a", "zh", "天空是蓝色的。", "entailed", "晴天时天空是蓝色的。"),
    rec("b", "en", "Water boils at 100 C at sea level.", "entailed", "At sea level water boils."),
    rec("c", "zh", "猫会飞。", "contradicted", "猫不会飞。"),
    rec("d", "ru", "Москва — столица Франции.", "contradicted", "Столица Франции — Париж."),
    rec("e", "en", "Sales grew 42% in 2021.", "insufficient", "Sales grew in 2020.", "Costs fell."),
    rec("f", "zh", "他昨天来了。", "insufficient", "她今天走了。"),
]
# Scripted (verdict, confidence); "f" is left out, as a failing checker would.
SCRIPT = {
    "a": ("entailed", 0.9),
    "b": ("insufficient", 0.6),
    "c": ("contradicted", 0.8),
    "d": ("entailed", 0.7),
    "e": ("insufficient", 0.6),
    "g": ("entailed", 0.8),
    "h": ("entailed", 0.6),
    "i": ("insufficient", 0.9),
}
BINARY = [
    rec("g", "ru", "Кошка спит.", "entailed", "Кошка спит на диване."),
    rec("h", "ru", "Собака лает.", "insufficient", "Кошка спит."),
    rec("i", "en", "The bridge opened in 1990.", "insufficient", "The bridge is long."),
]


class FakeChecker:
    """An AsyncChecker with scripted verdicts that records the batches it was sent."""

    def __init__(self) -> None:
        self.batches: list[list[CheckRequest]] = []

    @property
    def ref(self) -> Ref:
        return Ref("fake", "1")

    async def check_many(self, requests: Sequence[CheckRequest]) -> dict[str, CheckResult]:
        self.batches.append(list(requests))
        return {
            r.claim_id: CheckResult(r.claim_id, Verdict(SCRIPT[r.claim_id][0]), confidence=c)
            for r in requests
            if r.claim_id in SCRIPT
            for c in [SCRIPT[r.claim_id][1]]
        }

    async def close(self) -> None:
        return None


def write_jsonl(path: Path, records: Sequence[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), "utf-8")
    return path


async def test_three_way_metrics_are_exact(tmp_path: Path) -> None:
    checker = FakeChecker()
    path = write_jsonl(tmp_path / "three.jsonl", THREE_WAY)
    result = await evaluate_file(checker, path, "three.jsonl", batch_size=4)
    assert [len(b) for b in checker.batches[:2]] == [4, 2]
    # then the mutants of the two gold-entailed claims, a and b, and nothing else
    mutant_ids = [r.claim_id for b in checker.batches[2:] for r in b]
    assert mutant_ids
    assert {i.split("#")[0] for i in mutant_ids} == {"a", "b"}
    # entailed gold: a accepted, b not -> recall 1/2; non-entailed: d accepted of 4 -> 1/4
    assert result.accept_recall == pytest.approx(0.5)
    assert result.false_accept_rate == pytest.approx(0.25)
    # the script has no verdict for mutants: unknown is not entailed, so all are caught
    assert result.mutation is not None
    assert result.mutation.mutants == len(mutant_ids)
    assert result.mutation.rate == 1.0
    assert result.mutation.accepted_mutants == sum(i.startswith("a#") for i in mutant_ids)
    assert result.predicted == (
        "entailed",
        "insufficient",
        "contradicted",
        "entailed",
        "insufficient",
        "unknown",
    )
    # entailed recall 1/2; not-entailed recall 3/4 (c, e and the unknown f) -> 0.625
    assert result.binary_bacc == pytest.approx(0.625)
    assert result.confusion == {
        "entailed": {"entailed": 1, "contradicted": 0, "insufficient": 1, "unknown": 0},
        "contradicted": {"entailed": 1, "contradicted": 1, "insufficient": 0, "unknown": 0},
        "insufficient": {"entailed": 0, "contradicted": 0, "insufficient": 1, "unknown": 1},
    }
    # F1: entailed 2*1/(2+2)=1/2, contradicted 2*1/(2+1)=2/3, insufficient 2*1/(2+2)=1/2
    assert result.macro_f1 == pytest.approx(5 / 9)
    assert result.unknown_rate == pytest.approx(1 / 6)
    assert result.p_entailed == pytest.approx((0.9, 0.4, 0.2, 0.7, 0.4, 0.5))
    out = result.to_json()
    assert set(out) == KEYS
    assert (out["file"], out["dataset"], out["language"], out["n"]) == (
        "three.jsonl",
        "Toy",
        "zh",
        6,
    )
    assert (out["binary_bacc"], out["macro_f1"], out["unknown_rate"]) == (0.625, 0.5556, 0.1667)
    assert out["claims_per_s"] is None or out["claims_per_s"] > 0


class AcceptAll(FakeChecker):
    """Decides every claim `entailed`: the worst gate, every mutant a miss."""

    async def check_many(self, requests: list[CheckRequest]) -> dict[str, CheckResult]:
        self.batches.append(requests)
        return {
            r.claim_id: CheckResult(r.claim_id, Verdict.ENTAILED, confidence=0.9) for r in requests
        }


async def test_a_gate_that_accepts_everything_catches_no_mutant(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "three.jsonl", THREE_WAY)
    result = await evaluate_file(AcceptAll(), path)
    assert result.false_accept_rate == 1.0
    assert result.accept_recall == 1.0
    out = result.to_json()
    assert out["mutation_catch_rate"] == 0.0
    assert out["mutation_catch_rate_accepted"] == 0.0
    assert out["mutants"] == out["mutants_of_accepted"] > 0
    assert set(out["mutation_catch_by_language"]) == {"zh", "en"}
    assert {"number", "clause", "negation"} <= set(out["mutation_catch"])
    assert set(out["mutation_catch"].values()) == {0.0}


async def test_binary_file_has_null_macro_f1_and_confusion(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "binary.jsonl", BINARY)
    result = await evaluate_file(FakeChecker(), path)
    assert result.binary_bacc == pytest.approx((1 / 1 + 1 / 2) / 2)
    assert result.macro_f1 is None
    assert result.confusion is None
    assert result.unknown_rate == 0.0
    assert result.language == "ru"
    assert result.to_json()["file"] == str(path)


async def test_requests_carry_fragments_language_and_signals(tmp_path: Path) -> None:
    checker = FakeChecker()
    await evaluate_file(checker, write_jsonl(tmp_path / "t.jsonl", THREE_WAY), limit=5)
    sent = {r.claim_id: r for r in checker.batches[0]}
    assert list(sent) == ["a", "b", "c", "d", "e"]
    e = sent["e"]
    assert [f.citation_id for f in e.fragments] == ["e1", "e2"]
    assert [f.document_id for f in e.fragments] == ["doc-0", "doc-1"]
    assert e.fragments[1].text == "Costs fell."
    assert e.language == "en"
    assert SignalCode.NUMBER_UNSUPPORTED in {s.code for s in e.signals}


def test_macro_f1_of_a_perfect_and_an_empty_prediction() -> None:
    perfect = {g: {p: int(g == p) for p in PREDICTED} for g in LABELS}
    assert macro_f1(perfect) == 1.0
    nothing = {g: {p: int(p == "unknown") for p in PREDICTED} for g in LABELS}
    assert macro_f1(nothing) == 0.0


def test_pr_curve_and_reliability_by_hand() -> None:
    gold = ["entailed", "contradicted", "insufficient", "entailed", "insufficient", "contradicted"]
    scores = [0.9, 0.7, 0.5, 0.4, 0.4, 0.2]
    curve = pr_curve(gold, scores)
    # ranks: E(P1,R.5) C(P.5) I(P.33) {E,I tie}(P.4,R1) C(P.33): AP = .5*1 + .5*.4
    assert curve.average_precision == pytest.approx(0.7)
    assert curve.recall == pytest.approx((0.5, 0.5, 0.5, 1.0, 1.0))
    assert pr_curve(["insufficient"], [0.3]).average_precision is None
    rows = reliability(gold, scores)
    assert rows[4] == (pytest.approx(0.4), 0.5, 2)
    assert rows[9] == (pytest.approx(0.9), 1.0, 1)
    assert rows[0] == (0, 0, 0)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "not JSON"),
        ("[1]", "expected a JSON object"),
        (json.dumps({**BINARY[0], "label": "maybe"}), "`label` must be one of"),
        (json.dumps({**BINARY[0], "claim": ""}), "`claim` must be a non-empty string"),
        (json.dumps({**BINARY[0], "evidence": [{"text": 3}]}), "evidence[1]"),
        (json.dumps(BINARY[0]), "duplicate id"),
    ],
)
def test_bad_line_names_file_and_line(tmp_path: Path, line: str, message: str) -> None:
    from stream.errors import InputError

    path = write_jsonl(tmp_path / "bad.jsonl", BINARY[:1])
    path.write_text(path.read_text("utf-8") + "\n" + line + "\n", "utf-8")
    with pytest.raises(InputError) as err:
        load_records(path, "bad.jsonl")
    assert err.value.message.startswith("bad.jsonl:3: ")
    assert message in err.value.message


async def test_report_without_gold_entailed_still_plots(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    records = [rec("x", "en", "A.", "insufficient", "B."), rec("y", "en", "C.", "contradicted")]
    path = write_jsonl(tmp_path / "none.jsonl", records)
    result = await evaluate_file(FakeChecker(), path, "none.jsonl")
    md = write_report([result], "fake 1", tmp_path / "rep")
    assert "unknown" in md.read_text("utf-8")
    assert (tmp_path / "rep" / "none-pr.png").read_bytes().startswith(PNG)


def test_report_without_matplotlib_is_a_one_line_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    path = write_jsonl(tmp_path / "b.jsonl", BINARY)
    assert main(["eval", str(path), "--checker", "rules", "--report", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "pip install 'citegate[eval]'" in err[0]
    assert not (tmp_path / "r").exists()


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "stream.cli", "eval", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_cli_json_keys_and_report(tmp_path: Path) -> None:
    three = write_jsonl(tmp_path / "three.jsonl", THREE_WAY)
    binary = write_jsonl(tmp_path / "binary.jsonl", BINARY)
    report = tmp_path / "report"
    proc = cli(
        str(three), str(binary), "--checker", "rules", "--format", "json", "--report", str(report)
    )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert set(doc) == {"results"}
    assert [set(r) for r in doc["results"]] == [KEYS, KEYS]
    first, second = doc["results"]
    assert (first["file"], first["n"], first["language"]) == (str(three), 6, "zh")
    assert set(first["confusion"]) == set(LABELS)
    assert second["macro_f1"] is None
    assert second["confusion"] is None
    for value in (first["binary_bacc"], first["macro_f1"], first["unknown_rate"]):
        assert value == round(value, 4)
    md = (report / "report.md").read_text("utf-8")
    html = (report / "report.html").read_text("utf-8")
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", md)
    assert len(images) == 4
    for name in images:
        assert "/" not in name
        assert (report / name).read_bytes().startswith(PNG)
        assert f'src="{name}"' in html


def test_cli_limit_and_bad_line_exit_2(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "three.jsonl", THREE_WAY)
    proc = cli(str(path), "--checker", "rules", "--format", "json", "--limit", "2")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["results"][0]["n"] == 2
    path.write_text(path.read_text("utf-8") + '{"id": "z"}\n', "utf-8")
    proc = cli(str(path), "--checker", "rules", "--format", "json")
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert f"{path}:7:" in lines[0]
    assert proc.stdout == ""
