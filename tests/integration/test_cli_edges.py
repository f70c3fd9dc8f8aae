"""CLI edges that need the broker: `tail` of a missing topic; `demo --keep-running` stops its
worker on SIGTERM."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.integration.conftest import StackFactory, demo_answers
from tests.integration.test_replay import replay, run_live
from tests.unit.test_cli_verify import one_line_error

pytestmark = pytest.mark.integration


def test_tail_of_a_missing_topic_is_one_line(broker_bootstrap: str) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "stream.cli",
            "tail",
            "no-such-topic-here",
            "--broker",
            f"kafka://{broker_bootstrap}",
            "--idle-timeout",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert "does not exist" in one_line_error(proc)


def children(pid: int) -> set[int]:
    out = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == pid:
            out.add(int(entry.name))
    return out


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_demo_keep_running_stops_its_worker_on_sigterm(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CITEGATE_")}
    log = (tmp_path / "demo.log").open("wb")
    demo = subprocess.Popen(
        [sys.executable, "-m", "stream.cli", "demo", "--keep-running", "--workdir", str(tmp_path)],
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**env, "PYTHONUNBUFFERED": "1"},
    )
    try:
        deadline = time.monotonic() + 120
        while b"keeping the broker" not in (tmp_path / "demo.log").read_bytes():
            assert demo.poll() is None, (tmp_path / "demo.log").read_text()
            assert time.monotonic() < deadline, (tmp_path / "demo.log").read_text()
            time.sleep(0.2)
        shown = (tmp_path / "demo.log").read_text("utf-8")
        assert "submitted 10 answers with GateClient.submit" in shown
        released = shown[shown.index("released on rag.released") :]
        for answer_id in ("demo-002", "demo-004", "demo-005", "demo-010"):  # the accepted ones
            assert f"{answer_id}  decision" in released, shown
        assert "demo-006" not in released, "a held answer is never released"
        kids = children(demo.pid)
        assert kids, "the demo runs its worker as a child process"
        stopped_at = time.monotonic()
        demo.send_signal(signal.SIGTERM)
        demo.wait(timeout=30)
        took = time.monotonic() - stopped_at
        assert took < 15, f"stopping took {took:.1f}s"
        assert not any(alive(k) for k in kids), "the worker outlived the demo"
    finally:
        if demo.poll() is None:
            demo.kill()
            demo.wait()
        log.close()


async def test_replay_skips_malformed_records_on_the_live_output_topics(
    make_stack: StackFactory,
) -> None:
    stack = await make_stack()
    await run_live(stack, demo_answers()[:3])
    await stack.produce([(b"x", b"{not json"), (b"y", b"[1, 2]")], topic=stack.topic_decisions)
    await stack.produce([(b"z", b"\xff garbage")], topic=stack.topic_verdicts)
    proc = await replay(stack, "skips-garbage")
    assert "Traceback" not in proc.stderr
