"""Run the fuzz harnesses (atheris, coverage-guided), one child process per harness.

    python -m tests.fuzz.run [--seconds 600] [--only markers,verify] [--jobs 1] [--workdir .fuzz]

Each child instruments `stream` (and the harness), starts from the seeds plus every committed
regression input plus the corpus earlier runs grew under `<workdir>/corpus/<harness>/`, and
fuzzes for `--seconds`. An input that breaks the contract (an unexpected exception, a wrong
result, an unclear error), takes longer than `--timeout` seconds, or pushes the process past
`--rss-mb` is written to `<workdir>/artifacts/<harness>/` and the run exits 1; copy it to
tests/fuzz/regressions/<harness>/ once fixed, where the tests replay it for good.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REGRESSIONS = Path(__file__).resolve().parent / "regressions"
NAMES = (
    "answer_event",
    "markers",
    "verify",
    "corpus_file",
    "labelled",
    "llm_reply",
    "review_json",
    "review_form",
)


def harnesses() -> dict[str, object]:
    from tests.fuzz.edges import HARNESSES as EDGES
    from tests.fuzz.review import HARNESSES as REVIEW

    found = {h.name: h for h in (*EDGES, *REVIEW)}
    assert tuple(found) == NAMES, f"tests.fuzz.run.NAMES is out of date: {tuple(found)}"
    return found  # type: ignore[return-value]


def regression_inputs(name: str) -> list[Path]:
    folder = REGRESSIONS / name
    return sorted(p for p in folder.iterdir() if p.is_file()) if folder.is_dir() else []


# -- the child: one harness under atheris ------------------------------------------------------


def child(name: str, seconds: int, workdir: Path, timeout: int, rss_mb: int) -> None:
    import atheris

    with atheris.instrument_imports(include=["stream", "tests.fuzz"]):
        from tests.fuzz.run import harnesses as load

        harness = load()[name]
    corpus = workdir / "corpus" / name
    artifacts = workdir / "artifacts" / name
    corpus.mkdir(parents=True, exist_ok=True)
    artifacts.mkdir(parents=True, exist_ok=True)
    seeds = [*harness.seeds(), *(p.read_bytes() for p in regression_inputs(name))]  # type: ignore[attr-defined]
    for data in seeds:
        (corpus / ("seed-" + hashlib.sha1(data).hexdigest()[:16])).write_bytes(data)
    argv = [
        sys.argv[0],
        f"-max_total_time={seconds}",
        f"-timeout={timeout}",
        f"-rss_limit_mb={rss_mb}",
        f"-max_len={harness.max_len}",  # type: ignore[attr-defined]
        f"-artifact_prefix={artifacts}/",
        "-print_final_stats=1",
        str(corpus),
    ]
    atheris.Setup(argv, harness.check)  # type: ignore[attr-defined]
    atheris.Fuzz()


# -- the parent: run the children, report ----------------------------------------------------


@dataclass
class Result:
    name: str
    seconds: float
    execs: int
    coverage: int
    corpus: int
    findings: list[Path]
    exit_code: int
    log: Path


def _findings(folder: Path) -> set[Path]:
    return {p for p in folder.glob("*") if p.is_file()} if folder.is_dir() else set()


def run_one(name: str, args: argparse.Namespace) -> Result:
    workdir = Path(args.workdir).resolve()
    artifacts = workdir / "artifacts" / name
    before = _findings(artifacts)
    log = workdir / "logs" / f"{name}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    cmd = [
        sys.executable,
        "-m",
        "tests.fuzz.run",
        "--child",
        name,
        "--seconds",
        str(args.seconds),
        "--timeout",
        str(args.timeout),
        "--rss-mb",
        str(args.rss_mb),
        "--workdir",
        str(workdir),
    ]
    started = time.monotonic()
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    with log.open("wb") as out:
        # Bounded: the child stops itself at --seconds; a child wedged outside an input (so
        # past libFuzzer's own timeout) is killed at twice that plus a minute.
        proc = subprocess.run(  # noqa: PLW1510 — the exit code is reported, not raised
            cmd,
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            timeout=2 * args.seconds + 60,
        )
    text = log.read_text("utf-8", "replace")
    execs = _stat(r"stat::number_of_executed_units:\s*(\d+)", text)
    coverage = max((int(m) for m in re.findall(r"\bcov: (\d+)", text)), default=0)
    corpus = len(list((workdir / "corpus" / name).glob("*")))
    found = sorted(_findings(artifacts) - before)
    return Result(
        name, time.monotonic() - started, execs, coverage, corpus, found, proc.returncode, log
    )


def _stat(pattern: str, text: str) -> int:
    m = re.search(pattern, text)
    return int(m.group(1)) if m else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz.run")
    parser.add_argument("--seconds", type=int, default=int(os.environ.get("FUZZ_SECONDS", "60")))
    parser.add_argument("--only", default=",".join(NAMES))
    parser.add_argument("--jobs", type=int, default=1, help="harnesses run at once")
    parser.add_argument("--timeout", type=int, default=5, help="seconds one input may take")
    parser.add_argument("--rss-mb", type=int, default=2048, help="memory bound of a child")
    parser.add_argument("--workdir", default=str(ROOT / ".fuzz"))
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child, args.seconds, Path(args.workdir), args.timeout, args.rss_mb)
        return 0
    names = [n.strip() for n in args.only.split(",") if n.strip()]
    unknown = sorted(set(names) - set(NAMES))
    if unknown:
        parser.error(f"unknown harnesses {unknown}; known: {', '.join(NAMES)}")
    print(f"fuzz: {len(names)} harnesses, {args.seconds}s each, {args.jobs} at a time", flush=True)
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(lambda n: run_one(n, args), names))
    print("| harness | seconds | inputs run | coverage | corpus | new findings |")
    print("|---|---:|---:|---:|---:|---|")
    for r in results:
        found = ", ".join(str(p) for p in r.findings) or ("none" if r.exit_code == 0 else "")
        if r.exit_code != 0 and not r.findings:
            found = f"child exited {r.exit_code}; see {r.log}"
        print(f"| {r.name} | {r.seconds:.0f} | {r.execs} | {r.coverage} | {r.corpus} | {found} |")
    bad = [r for r in results if r.findings or r.exit_code != 0]
    if bad:
        print(f"fuzz: {len(bad)} harness(es) found something; logs under {args.workdir}/logs")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
