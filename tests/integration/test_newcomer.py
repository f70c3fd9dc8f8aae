"""The newcomer path of the README: `citegate broker` keeps a broker up across worker restarts.

A worker started against `citegate broker` is stopped and started again twice; the demo answers
(`stream/demo/answers.jsonl`, the sample input the README names) are decided exactly once each,
and a restarted worker neither loses nor re-decides them.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.conftest import DEMO_ANSWERS, Events, Stack, demo_answers, service_missing

pytestmark = pytest.mark.integration


@pytest.fixture
def standalone_broker(tmp_path: Path) -> Iterator[str]:
    """`citegate broker` as a user runs it: its first stdout line is the address."""
    err_file = (tmp_path / "broker.err").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "stream.cli", "broker"],
        stdout=subprocess.PIPE,
        stderr=err_file,
        stdin=subprocess.DEVNULL,
    )
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + 30
        line = b""
        while not line and time.monotonic() < deadline and proc.poll() is None:
            line = proc.stdout.readline()
        url = line.decode().strip()
        if not url.startswith("kafka://"):
            service_missing(f"`citegate broker` printed no address: {url!r}")
        yield url
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            code = proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            code = proc.wait()
        err_file.close()
        if proc.stdout is not None:
            proc.stdout.close()
        err = (tmp_path / "broker.err").read_text("utf-8", "replace")
        assert code == 0, err
        assert "Traceback" not in err
        assert "embedded broker stopped" in err


async def test_broker_outlives_two_worker_restarts(standalone_broker: str, tmp_path: Path) -> None:
    assert DEMO_ANSWERS.name == "answers.jsonl"
    stack = Stack(standalone_broker.removeprefix("kafka://"), tmp_path / "stack", {}, None)
    await stack.setup([])
    answers = demo_answers()
    ids = {a["answer_id"] for a in answers}

    def all_decided(events: Events) -> bool:
        return {e["answer_id"] for e in events[stack.topic_decisions]} >= ids

    try:
        first = await stack.start_worker()
        assert await first.stop() == 0
        second = await stack.start_worker()
        await stack.produce_answers(answers)
        events = await stack.read_until([stack.topic_decisions], all_decided, wait_s=60)
        await stack.wait_committed()
        assert await second.stop() == 0
        third = await stack.start_worker()
        await stack.produce_answers(answers[:3])  # redeliveries after the restart
        await stack.wait_committed()
        events = await stack.read_until([stack.topic_decisions], all_decided)
        decided = [e["answer_id"] for e in events[stack.topic_decisions]]
        assert sorted(set(decided)) == sorted(ids)
        assert len({e["event_id"] for e in events[stack.topic_decisions]}) == len(ids)
        assert await third.stop() == 0
    finally:
        stack.close(print_logs=bool(os.environ.get("CITEGATE_TEST_VERBOSE")))
