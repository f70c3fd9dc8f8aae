"""`citegate bench --profile FILE`: py-spy samples of the worker during the throughput run.

py-spy (a sampling profiler, `pip install py-spy`, in the `dev` extra) attaches to the worker
process from outside, so the worker runs unmodified. The raw collapsed stacks go to FILE (load
them into speedscope.app or flamegraph.pl); the bench prints where the samples fall: a few
categories of the stage's own work and the top functions by inclusive share.
"""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

CATEGORIES: tuple[tuple[str, str], ...] = (
    ("rules checker", "stream/verify/checkers.py"),
    ("evidence signals / features", "stream/verify/features.py"),
    ("deterministic citation checks", "stream/verify/citations.py"),
    ("claims and parsing", "stream/verify/parse.py"),
    ("decision", "stream/verify/policy.py"),
    ("event encoding", "stream/events.py"),
    ("metrics", "stream/metrics.py"),
    ("corpus store (SQLite, via threads)", "stream/corpus/sqlite.py"),
    ("corpus cache", "stream/corpus/cache.py"),
    ("decode and schema validation", "stream/codec.py"),
    ("duplicate index", "stream/worker/dedup.py"),
    ("Kafka produce", "aiokafka/producer/"),
    ("Kafka fetch", "aiokafka/consumer/"),
    ("thread pool (the SQLite queries themselves)", "concurrent/futures/thread.py"),
    ("event loop: wakeups, scheduling, socket I/O", "asyncio/"),
)
"""(label, path fragment): a sample counts for the first category whose file is on its stack."""


def py_spy() -> str | None:
    found = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    return found if Path(found).exists() else None


def start(pid: int, out: Path) -> subprocess.Popen[bytes] | None:
    exe = py_spy()
    if exe is None:
        return None
    argv = [exe, "record", "-p", str(pid), "-r", "200", "-f", "raw", "-o", str(out)]
    return subprocess.Popen(
        [*argv, "--nonblocking"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


_LINE = re.compile(r":\d+\)$")
_SITE = re.compile(r" \((?:.*/site-packages/|.*?/(?=stream/))")


def summarise(raw: Path, top: int = 12) -> str:
    """Shares of the samples per category, and per deepest stage frame."""
    total = 0
    by_category: Counter[str] = Counter()
    deepest: Counter[str] = Counter()
    for line in raw.read_text("utf-8", "replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        total += n
        frames = [_SITE.sub(" (", f) for f in stack.split(";")]
        label = next((c for c, frag in CATEGORIES if any(frag in f for f in frames)), "other")
        by_category[label] += n
        ours = [f for f in frames if "(stream/" in f]
        if ours:
            deepest[_LINE.sub(")", ours[-1])] += n
    if not total:
        return "profile: no samples"
    lines = [f"profile: {total:,} samples of the worker during (a); share by category:"]
    lines += [f"  {100 * n / total:5.1f} %  {label}" for label, n in by_category.most_common()]
    lines.append("deepest stage function on the stack (its own time and the libraries it calls):")
    lines += [f"  {100 * n / total:5.1f} %  {f}" for f, n in deepest.most_common(top)]
    return "\n".join(lines)
