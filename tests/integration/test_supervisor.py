"""`citegate worker --processes 2`: one child SIGKILLed mid-stream loses nothing, is restarted
with backoff, and the supervisor's /metrics, /healthz and /readyz speak for all children."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from collections import defaultdict
from typing import Any

import aiohttp
import pytest

from stream.kafka.embedded import find_free_port
from stream.settings import Settings
from stream.worker.supervisor import Supervisor
from tests.integration.conftest import (
    Events,
    Stack,
    StackFactory,
    Worker,
    background,
    metric_value,
)
from tests.integration.test_crash import crash_answers

pytestmark = pytest.mark.integration

N_ANSWERS = 300


async def children(stack: Stack, worker: Worker) -> list[dict[str, Any]]:
    status, body = await stack.get(worker, "/healthz")
    assert status == 200, body
    kids: list[dict[str, Any]] = json.loads(body)["children"]
    return kids


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (exited, not yet reaped by its parent) counts as gone.
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


async def test_killing_one_child_loses_nothing_and_it_is_restarted(
    make_stack: StackFactory,
) -> None:
    stack = await make_stack(env={"CITEGATE_BATCH_MAX_RECORDS": "10"})
    supervisor = await stack.start_worker(processes=2)
    before = await children(stack, supervisor)
    assert len(before) == 2
    assert all(c["running"] and c["ready"] and c["restarts"] == 0 for c in before)
    answers = crash_answers(stack.namespace)
    ids = {a["answer_id"] for a in answers}

    def decided(n: int) -> Any:
        def done(events: Events) -> bool:
            return len({e["answer_id"] for e in events[stack.topic_decisions]}) >= n

        return done

    async with background(stack.produce_answers(answers, chunk_size=60, pause_s=0.3)) as sending:
        await stack.read_until([stack.topic_decisions], decided(N_ANSWERS // 3))
        victim = before[0]["pid"]
        os.kill(victim, signal.SIGKILL)
        await sending

    events = await stack.read_until(
        [stack.topic_decisions], decided(N_ANSWERS), wait_s=90, what="all decisions"
    )
    await stack.wait_committed(wait_s=60)
    event_ids: dict[str, set[str]] = defaultdict(set)
    for d in events[stack.topic_decisions]:
        event_ids[d["answer_id"]].add(d["event_id"])
    assert event_ids.keys() == ids, "every answer decided after one child was killed"
    assert all(len(v) == 1 for v in event_ids.values()), "repeats carry the same event id"

    # The dead child's slot was refilled (restarts counted) and the group is ready again.
    deadline = time.monotonic() + 60
    while True:
        after = await children(stack, supervisor)
        status, _ = await stack.get(supervisor, "/readyz")
        if status == 200 and sum(c["restarts"] for c in after) == 1:
            break
        if time.monotonic() > deadline:
            stack.fail(f"not ready again after the kill: {after}")
        await asyncio.sleep(0.2)
    assert victim not in {c["pid"] for c in after}
    assert all(c["running"] for c in after)

    # One /metrics for all: the dead child's counted answers are kept, both children's added.
    families = await stack.scrape(supervisor)
    assert metric_value(families, "citegate_answers_total") >= N_ANSWERS
    assert metric_value(families, "citegate_ready") == 1

    # SIGTERM stops the supervisor and every child within the shutdown bound.
    pids = [c["pid"] for c in after]
    started = time.monotonic()
    assert await supervisor.stop(wait_s=30) == 0, supervisor.log_tail()
    assert time.monotonic() - started < 30
    deadline = time.monotonic() + 10
    while any(pid_alive(p) for p in pids):
        if time.monotonic() > deadline:
            stack.fail(f"children outlived their supervisor: {pids}")
        await asyncio.sleep(0.1)


async def test_the_supervisor_in_process_restarts_a_child_and_stops_them_all(
    make_stack: StackFactory,
) -> None:
    """The same lifecycle driven from the test's own event loop (so coverage sees it)."""
    stack = await make_stack()
    port = find_free_port()
    settings = Settings.from_env(
        stack.env,
        broker=f"kafka://{stack.bootstrap}",
        store=stack.store,
        web_host="127.0.0.1",
        web_port=port,
    )
    supervisor = Supervisor(settings, [stack.bootstrap], 2)
    task = asyncio.create_task(supervisor.run())

    async def until(what: str, condition: Any, wait_s: float = 90) -> None:
        deadline = time.monotonic() + wait_s
        while not condition():
            if task.done():
                stack.fail(f"the supervisor ended early: {task.result()}")
            if time.monotonic() > deadline:
                stack.fail(f"timed out waiting until {what}: {supervisor.children}")
            await asyncio.sleep(0.1)

    try:
        await until("ready", lambda: supervisor.ready)
        first = supervisor.children[0].proc
        assert first is not None
        first.kill()
        await until("child 0 restarted", lambda: supervisor.children[0].restarts == 1)
        await until("ready again", lambda: supervisor.ready)
        assert supervisor.children[0].proc is not first
        async with aiohttp.ClientSession() as session:
            async with session.get(f"http://127.0.0.1:{port}/metrics") as resp:
                text = await resp.text()
            assert resp.status == 200
            assert "citegate_ready 1.0" in text
            async with session.get(f"http://127.0.0.1:{port}/readyz") as resp:
                assert resp.status == 200
    finally:
        supervisor.stopping.set()
        code = await asyncio.wait_for(task, 40)
    assert code == 0
    assert all(not c.running for c in supervisor.children)
    assert not supervisor.metrics_dir.exists(), "its private metrics directory is removed"
