"""`citegate bench` prints every figure in one run (tiny sizes, one run): every measurement
path runs end to end against the real broker and real worker processes. No figure is judged:
speed is the bench's business, not a test's."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from stream.worker.bench.report import TARGETS, run_all
from stream.worker.bench.runner import Sizes

pytestmark = [pytest.mark.integration, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[2]

TINY = Sizes(
    docs=90,
    hot_docs=45,
    sentences=12,
    answers=60,
    scale_claims=128,
    latency_s=1.0,
    verify_answers=30,
    cache_bytes=64 << 10,
    timeout_s=60.0,
)


async def test_one_run_prints_every_figure_and_a_verdict_per_target(
    broker_bootstrap: str, tmp_path: Path
) -> None:
    text = await run_all(broker_bootstrap, tmp_path, TINY, runs=1)
    for label in (
        "(a) steady state, answers/s",
        "(b) p50 input→decision ms",
        "    p99 ms",
        "(c) verify claims/s",
        "(d) 1 claims/answer",
        "(d) 64 claims/answer",
        "    2 processes vs 1",
        "    cores used by the workers",
        "(e) whole corpus at random",
        "    steady RSS MB",
    ):
        assert label in text, text
    for target in TARGETS:
        line = next(line for line in text.splitlines() if target.name in line)
        assert line.startswith(("PASS", "MISS")), line
        found = re.search(r": ([0-9.]+|nan|inf) \(target", line)
        assert found, line
        value = float(found.group(1))
        assert math.isfinite(value), line
        assert value > 0, line


async def test_the_tracing_comparison_runs_the_baseline_off_and_on(
    broker_bootstrap: str, tmp_path: Path
) -> None:
    """`citegate bench --tracing --baseline HEAD`: the worker of a git commit (extracted with
    `git archive`), this worker with tracing off, and with spans sent to the bench's OTLP sink."""
    if not (REPO / ".git").exists():
        pytest.skip("not a git checkout: --baseline has nothing to extract")
    text = await run_all(broker_bootstrap, tmp_path, TINY, runs=1, tracing=True, baseline="HEAD")
    for label in ("before trace context (HEAD)", "tracing off", "tracing on"):
        assert label in text, text
    assert re.search(r"spans exported: [1-9][\d,]* requests", text), text
    assert re.search(r"^(PASS|MISS)  tracing off / before: [0-9.]+ ", text, re.M), text


async def test_the_memory_run_measures_this_worker_beside_a_baseline(
    broker_bootstrap: str, tmp_path: Path
) -> None:
    """`citegate bench --memory --baseline HEAD`: figure (e) alone, warm and steady RSS of this
    worker and of a git commit's, and the verdict on the target."""
    if not (REPO / ".git").exists():
        pytest.skip("not a git checkout: --baseline has nothing to extract")
    text = await run_all(broker_bootstrap, tmp_path, TINY, runs=1, memory=True, baseline="HEAD")
    rows = {}
    for label in ("before (HEAD)", "this worker"):
        found = re.search(rf"^    {re.escape(label)}\s+([\d,]+)\s+([\d,]+)\s+([\d,]+)", text, re.M)
        assert found, text
        rows[label] = [float(g.replace(",", "")) for g in found.groups()]
    for warm, steady, answers in rows.values():
        assert 20 < warm < 4096, text  # MB of a real Python process
        assert steady >= 0.9 * warm, text  # draining answers frees little of what warm-up held
        assert answers > 0, text
    assert re.search(
        r"^(PASS|MISS)  steady RSS / \(160 MB \+ 1\.2 x cache bound\): [0-9.]+ ", text, re.M
    ), text
