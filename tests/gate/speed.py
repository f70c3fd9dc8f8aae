"""`python -m tests.gate.speed --baseline REV FILE...`: rules checker claims/s side by side.

For each labelled file, `citegate eval FILE --no-mutations` runs as a subprocess with this
checkout's code and with the code of an earlier commit (extracted with `git archive` and put
first on `PYTHONPATH`; same interpreter, same data), alternating the order run by run so a
machine that gets busier or quieter penalises neither. Each run is a fresh process, so every
figure includes loading the lexical tables once, as `citegate eval` does for a user. Prints the
median of `--runs` claims/s per file and variant and their ratio (this / baseline).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import orjson

from stream.errors import UsageError
from stream.worker.bench.tracing import checkout

RUN_TIMEOUT_S = 1800.0
"""One `citegate eval` of one file: generous, a stuck run must not hang the comparison."""


def claims_per_s(file: Path, pythonpath: str | None) -> float:
    """claims/s `citegate eval FILE --no-mutations` reports, run with `pythonpath` first."""
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "stream.cli",
            "eval",
            str(file),
            "--no-mutations",
            "--format",
            "json",
        ],
        capture_output=True,
        env=env,
        check=False,
        timeout=RUN_TIMEOUT_S,
        cwd=pythonpath or None,
    )
    if done.returncode != 0:
        tail = done.stderr.decode(errors="replace").strip().splitlines()[-1:]
        raise UsageError(f"citegate eval {file.name} failed: {' '.join(tail) or done.returncode}")
    return float(orjson.loads(done.stdout)["results"][0]["claims_per_s"])


def share_compiled_tables(here: Path, baseline: Path) -> int:
    """Give the baseline compiled lexical tables (`make` builds them; `git archive` has none),
    so both sides look words up the same way: this checkout's where the text tables are the
    same, compiled from the baseline's own text where they differ (each compiled file names
    the digest of its text table, and a baseline given another's would read its slow text
    instead). Returns how many tables the baseline has compiled."""
    source, target = here / "stream" / "verify" / "data", baseline / "stream" / "verify" / "data"
    if not target.is_dir():
        return 0
    copied = 0
    for table in sorted(source.glob("*.dawg")):
        text = table.with_suffix(".txt.gz")
        theirs = target / text.name
        if not theirs.is_file() or (text.is_file() and theirs.read_bytes() == text.read_bytes()):
            shutil.copy2(table, target / table.name)
        else:
            subprocess.run(
                [sys.executable, "-m", "stream.lexicon.compiled", str(theirs)],
                env={**os.environ, "PYTHONPATH": str(baseline)},
                cwd=baseline,
                check=True,
                capture_output=True,
                timeout=RUN_TIMEOUT_S,
            )
        copied += 1
    return copied


def compare(files: list[Path], baseline: Path, here: Path, runs: int) -> list[str]:
    """Report lines: per file, the medians of `runs` alternated runs and this / baseline."""
    lines = [f"{'file':28} {'baseline claims/s':>18} {'this claims/s':>14} {'ratio':>6}"]
    ratios = []
    for file in files:
        seen: dict[str, list[float]] = {"baseline": [], "this": []}
        for run in range(runs):
            order = [("baseline", baseline), ("this", here)]
            for name, path in order if run % 2 == 0 else order[::-1]:
                seen[name].append(claims_per_s(file, str(path)))
        before, after = statistics.median(seen["baseline"]), statistics.median(seen["this"])
        ratios.append(after / before)
        lines.append(f"{file.name:28} {before:18,.0f} {after:14,.0f} {after / before:6.2f}")
    lines.append(f"{'median ratio':28} {'':18} {'':14} {statistics.median(ratios):6.2f}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.gate.speed", description=__doc__)
    parser.add_argument("files", nargs="+", type=Path, metavar="FILE")
    parser.add_argument("--baseline", required=True, metavar="REV", help="commit to compare with")
    parser.add_argument("--runs", type=int, default=3, help="runs per file and variant (median)")
    parser.add_argument(
        "--baseline-without",
        action="append",
        default=[],
        metavar="MODULE",
        help="make MODULE unimportable in the baseline's runs, to measure an optional "
        "accelerator a library falls back from (pymorphy3 without `dawg` uses dawg_python)",
    )
    args = parser.parse_args(argv)
    here = Path(__file__).resolve().parents[2]
    try:
        missing = [f for f in args.files if not f.is_file()]
        if missing:
            raise UsageError(f"no such file: {missing[0]}")
        if args.runs < 1:
            raise UsageError("--runs must be at least 1")
        with tempfile.TemporaryDirectory(prefix="citegate-speed-") as tmp:
            baseline = checkout(args.baseline, Path(tmp) / "baseline", here)
            share_compiled_tables(here, baseline)
            for module in args.baseline_without:
                (baseline / f"{module}.py").write_text(
                    f"raise ImportError('{module} withheld by tests.gate.speed')\n"
                )
            files = [f.resolve() for f in args.files]
            print(f"claims/s, median of {args.runs} alternated runs; baseline {args.baseline}")
            for line in compare(files, baseline, here, args.runs):
                print(line, flush=True)
    except UsageError as exc:
        print(f"speed: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
