"""`python -m tests.gate.speed`: alternated runs, medians and ratios; one-line refusals."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.gate import speed


def test_runs_alternate_and_the_ratio_is_of_medians(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    calls: list[str | None] = []
    rates = {"base": iter([100.0, 300.0, 200.0]), "here": iter([90.0, 150.0, 180.0])}

    def fake(file: Path, pythonpath: str | None) -> float:
        calls.append(pythonpath)
        return next(rates[str(pythonpath)])

    monkeypatch.setattr(speed, "claims_per_s", fake)
    lines = speed.compare([tmp_path / "x.jsonl"], Path("base"), Path("here"), runs=3)
    assert calls == ["base", "here", "here", "base", "base", "here"]
    assert lines[1].split()[-3:] == ["200", "150", "0.75"]  # medians 200 and 150
    assert lines[-1].split()[-1] == "0.75"


def test_a_missing_file_or_bad_baseline_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert speed.main(["--baseline", "HEAD", str(tmp_path / "missing.jsonl")]) == 2
    data = tmp_path / "d.jsonl"
    data.write_text("{}\n")
    assert speed.main(["--baseline", "no-such-rev-xyz", str(data)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2
    assert all(line.startswith("speed: ") for line in err)


def test_baseline_without_withholds_a_module_from_the_baseline_only(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import os
    import subprocess
    import sys

    codes: dict[str, int] = {}
    paths: dict[str, Path] = {}

    def fake(files: list[Path], baseline: Path, here: Path, runs: int) -> list[str]:
        for name, path in (("baseline", baseline), ("here", here)):
            done = subprocess.run(
                [sys.executable, "-c", "import dawg"],
                env={**os.environ, "PYTHONPATH": str(path)},
                capture_output=True,
                check=False,
            )
            paths[name], codes[name] = path, done.returncode
        return []

    monkeypatch.setattr(speed, "compare", fake)
    data = tmp_path / "d.jsonl"
    data.write_text("{}\n")
    assert speed.main(["--baseline", "HEAD", "--baseline-without", "dawg", str(data)]) == 0
    assert codes["baseline"] != 0  # withheld: the import fails there
    assert not (paths["here"] / "dawg.py").exists()


def test_the_baseline_gets_the_compiled_tables_of_this_checkout(tmp_path: Path) -> None:
    here, baseline = tmp_path / "here", tmp_path / "baseline"
    for root in (here, baseline):
        (root / "stream" / "verify" / "data").mkdir(parents=True)
    (here / "stream" / "verify" / "data" / "lexicon-en.dawg").write_bytes(b"compiled")
    (here / "stream" / "verify" / "data" / "lexicon-en.txt.gz").write_bytes(b"text")
    assert speed.share_compiled_tables(here, baseline) == 1
    copied = baseline / "stream" / "verify" / "data" / "lexicon-en.dawg"
    assert copied.read_bytes() == b"compiled"
    assert not (baseline / "stream" / "verify" / "data" / "lexicon-en.txt.gz").exists()
    assert speed.share_compiled_tables(here, tmp_path / "no-package") == 0


def test_a_baseline_with_another_text_table_compiles_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table compiled from another text names another digest: the baseline would read its
    slow text table and look slower than it is."""
    here, baseline = tmp_path / "here", tmp_path / "baseline"
    for root in (here, baseline):
        (root / "stream" / "verify" / "data").mkdir(parents=True)
    (here / "stream" / "verify" / "data" / "lexicon-ru.dawg").write_bytes(b"compiled")
    (here / "stream" / "verify" / "data" / "lexicon-ru.txt.gz").write_bytes(b"new text")
    theirs = baseline / "stream" / "verify" / "data" / "lexicon-ru.txt.gz"
    theirs.write_bytes(b"old text")
    calls: list[list[str]] = []

    def run(args: list[str], **kwargs: object) -> None:
        calls.append(args)

    monkeypatch.setattr("subprocess.run", run)
    assert speed.share_compiled_tables(here, baseline) == 1
    assert calls == [[sys.executable, "-m", "stream.lexicon.compiled", str(theirs)]]
    assert not (baseline / "stream" / "verify" / "data" / "lexicon-ru.dawg").exists()
