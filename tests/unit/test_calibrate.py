"""`citegate calibrate` fits a config whose hash becomes the checker version verdicts carry."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np

from stream.checkers.config import load_rules_config
from stream.checkers.factory import make_checker
from stream.quality.calibration import decide_matrix, featurize
from stream.verify.checkers import RulesChecker, RulesConfig
from stream.verify.features import evidence_signals
from stream.verify.model import CheckRequest, Fragment
from tests.conftest import FIXTURES

SUBJECTS = [
    "The archive",
    "The billing service",
    "Our gateway",
    "The audit log",
    "The cache",
    "The scheduler",
    "The mail relay",
    "The backup job",
]
FACTS = [
    "keeps records for 30 days",
    "runs every night at midnight",
    "encrypts data with AES",
    "requires two approvals",
    "is replicated to three regions",
    "rejects unsigned requests",
]
NOISE = [
    "Bananas are rich in potassium.",
    "The river floods in spring.",
    "Chess openings were catalogued early.",
    "Volcanoes can reshape islands.",
]


def labelled_file(path: Path, n: int = 60, seed: int = 1) -> Path:
    rng = random.Random(seed)
    lines = []
    for i in range(n):
        subject, fact = rng.choice(SUBJECTS), rng.choice(FACTS)
        claim = f"{subject} {fact}."
        if i % 3 == 0:
            evidence, label = f"Policy note. {subject} {fact}. Other text follows.", "entailed"
        elif i % 3 == 1:
            evidence, label = rng.choice(NOISE), "insufficient"
        else:
            other = rng.choice([f for f in FACTS if f != fact])
            evidence, label = f"{subject} {other}.", "insufficient"
        lines.append(
            json.dumps(
                {
                    "id": f"r{i}",
                    "source_dataset": "fixture",
                    "language": "en",
                    "claim": claim,
                    "evidence": [{"document_id": "d", "text": evidence}],
                    "label": label,
                }
            )
        )
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "stream.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_calibrate_changes_the_version_that_verdicts_carry(tmp_path: Path) -> None:
    data = labelled_file(tmp_path / "labelled.jsonl")
    config = tmp_path / "checker.toml"
    proc = cli("calibrate", str(data), "-o", str(config))
    assert proc.returncode == 0, proc.stderr
    fitted = load_rules_config(config)
    assert fitted.version.startswith("rules-3.15+")
    assert fitted.version != RulesConfig().version
    assert f"rules-3.15 -> {fitted.version}" in proc.stdout
    assert "[thresholds.entail_by_language]" in config.read_text("utf-8")
    assert set(fitted.entail_thresholds) == {"en"}  # the language of the labelled file
    assert "5-fold cv" in proc.stdout

    answer = tmp_path / "answer.json"
    answer.write_text((FIXTURES / "seed001_answer.json").read_text("utf-8"), "utf-8")
    proc = cli("verify", str(answer), "--checker", str(config), "--format", "json")
    report = json.loads(proc.stdout)
    assert {v["checker"]["version"] for v in report["verdicts"]} == {fitted.version}
    assert report["decision"]["checker"]["version"] == fitted.version
    assert make_checker(str(config)).ref.version == fitted.version

    again = tmp_path / "again.toml"
    assert cli("calibrate", str(data), "-o", str(again)).returncode == 0
    assert load_rules_config(again).version == fitted.version  # same data, same version


def test_decide_matrix_agrees_with_the_checker(tmp_path: Path) -> None:
    data = labelled_file(tmp_path / "labelled.jsonl", n=45, seed=7)
    config = RulesConfig()
    checker = RulesChecker(config)
    rows, verdicts = [], []
    for line in data.read_text("utf-8").splitlines():
        r = json.loads(line)
        frags = (Fragment("e1", r["evidence"][0]["text"]),)
        rows.append(featurize(r["claim"], frags, config))
        request = CheckRequest("c", r["claim"], frags, "en", evidence_signals(r["claim"], frags))
        verdicts.append(checker.check(request).verdict.value)
    assert list(decide_matrix(config, np.array(rows))) == verdicts


def test_calibrate_refuses_bad_input(tmp_path: Path) -> None:
    only_entailed = tmp_path / "one.jsonl"
    only_entailed.write_text(
        json.dumps(
            {
                "id": "a",
                "claim": "x y z",
                "language": "en",
                "source_dataset": "f",
                "evidence": [{"text": "x y z"}],
                "label": "entailed",
            }
        )
        + "\n",
        "utf-8",
    )
    proc = cli("calibrate", str(only_entailed), "-o", str(tmp_path / "c.toml"))
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "both entailed and not-entailed" in proc.stderr
    bad = tmp_path / "bad.toml"
    bad.write_text("[thresholds\n", "utf-8")
    proc = cli("verify", str(FIXTURES / "seed001_answer.json"), "--checker", str(bad))
    assert proc.returncode == 2
    assert "not valid TOML" in proc.stderr
