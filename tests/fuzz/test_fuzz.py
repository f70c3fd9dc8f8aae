"""The fuzz harnesses inside `make test`: every committed regression input and every seed
still keeps its edge's contract, and a short atheris run of each harness finds nothing.

The long runs are `make fuzz` (FUZZ_SECONDS per harness); see docs/reliability.md#fuzzing.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.fuzz.run import NAMES, ROOT, harnesses, regression_inputs

HARNESSES = harnesses()
REGRESSIONS = [(name, path) for name in NAMES for path in regression_inputs(name)]
SMOKE_SECONDS = 2


def test_every_harness_has_seeds_and_a_name_in_the_runner() -> None:
    assert list(HARNESSES) == list(NAMES)
    for harness in HARNESSES.values():
        assert harness.seeds(), harness.name  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("name", "path"), REGRESSIONS, ids=[f"{n}/{p.name}" for n, p in REGRESSIONS]
)
def test_a_crash_the_fuzzer_found_stays_fixed(name: str, path: Path) -> None:
    HARNESSES[name].check(path.read_bytes())  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", NAMES)
def test_the_seeds_keep_the_contract(name: str) -> None:
    harness = HARNESSES[name]
    for data in harness.seeds():  # type: ignore[attr-defined]
        harness.check(data)  # type: ignore[attr-defined]


@pytest.mark.slow
def test_a_short_fuzzing_run_of_every_harness_finds_nothing(tmp_path: Path) -> None:
    pytest.importorskip("atheris", reason="atheris (dev extra) is not installed")
    cmd = [sys.executable, "-m", "tests.fuzz.run", "--seconds", str(SMOKE_SECONDS)]
    cmd += ["--jobs", "2", "--workdir", str(tmp_path)]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for name in NAMES:
        assert f"| {name} |" in proc.stdout
