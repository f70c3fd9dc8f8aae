"""`citegate verify` exit codes, formats and one-line errors (run as a real subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import FIXTURES, load


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "stream.cli", *args],
        capture_output=True,
        text=True,
        input=stdin,
        timeout=60,
        check=False,
    )


def one_line_error(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    return lines[0]


def test_missing_file_and_bad_json_exit_2_with_one_line(tmp_path: Path) -> None:
    assert "cannot read" in one_line_error(cli("verify", str(tmp_path / "nope.json")))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", "utf-8")
    assert "not a JSON answer" in one_line_error(cli("verify", str(bad)))
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"answer": 3}), "utf-8")
    assert "schema" in one_line_error(cli("verify", str(wrong)))
    assert "--format" in one_line_error(cli("verify", str(wrong), "--format", "xml"))
    corpus = tmp_path / "docs.json"
    corpus.write_text("[1, 2]", "utf-8")
    assert "expected" in one_line_error(
        cli("verify", str(FIXTURES / "seed001_answer.json"), "--corpus", str(corpus))
    )


def test_stdin_and_jsonl_give_one_object_per_line(tmp_path: Path) -> None:
    fixed = load("seed000_response.json")
    fixed["citations"][0].update(start=25, end=80)
    lines = [
        json.dumps(load("seed000_response.json"), ensure_ascii=False),
        json.dumps(fixed, ensure_ascii=False),
    ]
    proc = cli(
        "verify",
        "-",
        "--corpus",
        str(FIXTURES / "seed000_documents.json"),
        "--format",
        "json",
        stdin="\n".join(lines) + "\n",
    )
    assert proc.returncode == 1
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [o["decision"]["final_status"] for o in out] == ["reject", "accept"]
    assert all(set(o) >= {"ok", "errors", "claims", "verdicts", "decision"} for o in out)


def test_jsonl_with_a_bad_line_reports_it_and_keeps_going(tmp_path: Path) -> None:
    path = tmp_path / "answers.jsonl"
    path.write_text(
        json.dumps(load("seed001_answer.json"), ensure_ascii=False) + "\n{oops\n", "utf-8"
    )
    proc = cli("verify", str(path), "--format", "json")
    assert proc.returncode == 2
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert out[0]["decision"]["final_status"] == "regenerate_or_abstain"
    assert out[1]["input_error"]["line"] == 2
    assert "answers.jsonl:2" in proc.stderr


def test_table_format_shows_every_claim() -> None:
    proc = cli("verify", str(FIXTURES / "seed001_answer.json"), "--format", "table")
    assert proc.returncode == 1
    for status in ("supported", "wrongCitation", "beyondEvidence", "missingCitation"):
        assert status in proc.stdout
    assert "regenerate_or_abstain" in proc.stdout
