"""Fault scenarios on a durable broker: the embedded Tansu broker with its log in an S3 bucket
(`--storage s3://…`), on moto's S3 server started here. A production Kafka broker restarts with
its log intact; these are the restarts the stage must survive with nothing lost.

* broker SIGKILL mid-stream (some of 400 answers decided, most not) and restart, two workers:
  every answer sent before and after the kill is decided (the decisions topic read again from
  the start after the restart: it kept them), no answer decided twice under different ids, all
  within 30 s of the broker's return;
* the S3 store paused (SIGSTOP) for 10 s under a stream of answers: the stage stalls, says so
  on /readyz, resumes when the store does, and loses nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from stream.kafka.embedded import EmbeddedBroker, find_free_port
from tests.faults.common import Decisions, Row, Supervisor, finish, new_stack, produce, workload
from tests.integration.conftest import Stack
from tests.integration.s3 import MotoServer, moto_missing

PAUSE_S = 10.0
WORKER_ENV = {"CITEGATE_STALL_S": "30", "CITEGATE_RESTORE_TIMEOUT_S": "30"}


@dataclass
class Durable:
    """A moto S3 server and a broker on it, restartable on the same port and bucket."""

    s3: MotoServer
    port: int
    storage: str
    broker: EmbeddedBroker

    def restart(self) -> EmbeddedBroker:
        self.broker = EmbeddedBroker(port=self.port, storage=self.storage, env=self.s3.env)
        return self.broker.start()


@contextlib.asynccontextmanager
async def durable_broker() -> AsyncIterator[Durable]:
    s3 = await asyncio.to_thread(MotoServer().start)
    port = find_free_port()
    storage = f"s3://citegate-faults-{uuid.uuid4().hex[:10]}/"
    try:
        broker = EmbeddedBroker(port=port, storage=storage, env=s3.env).start()
        durable = Durable(s3, port, storage, broker)
        try:
            yield durable
        finally:
            durable.broker.stop()
    finally:
        await asyncio.to_thread(s3.stop)


@contextlib.asynccontextmanager
async def _two_workers(
    root: Path, durable: Durable, name: str
) -> AsyncIterator[tuple[Stack, Decisions, Supervisor]]:
    """Two workers on the durable broker, their supervisor and a decisions tailer; all
    stopped again at the end."""
    stack = await new_stack(root, durable.broker.bootstrap, name, env=WORKER_ENV)
    decisions, sup = Decisions(stack), Supervisor(stack)
    try:
        await stack.start_worker()
        await stack.start_worker()
        await decisions.start()
        sup.start()
        yield stack, decisions, sup
    finally:
        await sup.stop()
        await decisions.stop()
        stack.close(print_logs=False)


def _unavailable(name: str) -> Row | None:
    missing = moto_missing()
    return Row(name, failures=[missing]) if missing else None


async def durable_broker_restart(root: Path, bootstrap: str) -> Row:
    """SIGKILL the S3-backed broker while two workers are busy, start it again, keep sending."""
    del bootstrap  # this scenario brings its own broker
    name = "durable broker: SIGKILL mid-stream + restart (2 workers)"
    if (row := _unavailable(name)) is not None:
        return row
    row = Row(name)
    async with (
        durable_broker() as durable,
        _two_workers(root, durable, "durable-kill") as (stack, decisions, sup),
    ):
        before = workload("d0", 400)
        await produce(stack, before, chunk_size=100)
        ids_before = {a["answer_id"] for a in before}
        # Mid-stream: kill as soon as decisions flow, long before all 400 are decided.
        deadline = time.monotonic() + 60
        while len(decisions.by_answer) < 10 and time.monotonic() < deadline:
            await decisions.poll()
        at_kill = len(ids_before & decisions.by_answer.keys())
        durable.broker.kill()
        await asyncio.sleep(2.0)
        await asyncio.to_thread(durable.restart)
        back = time.monotonic()
        after = workload("d1", 100)
        await produce(stack, after)
        # The broker kept its log: read every decision again, from the start.
        await decisions.restart()
        took = await decisions.wait({a["answer_id"] for a in before + after})
        row.recover_s = None if took is None else round(time.monotonic() - back, 1)
        row.restarts = sup.restarts
        row.notes.append(f"{at_kill} of {len(before)} decided when the broker was killed")
        if not 0 < at_kill < len(before):
            row.failures.append("the kill did not land mid-stream")
        codes = sorted(set(sup.exit_codes))
        row.notes.append(
            f"workers exited {codes} and were restarted" if codes else "workers resumed"
        )
        return finish(row, decisions, before + after)


async def _readiness(stack: Stack, workers: list[Any]) -> list[str]:
    states = []
    for w in workers:
        try:
            status, text = await stack.get(w, "/readyz")
            states.append(str(orjson.loads(text).get("state")) if status != 200 else "ready")
        except (OSError, TimeoutError, ValueError):
            states.append("no answer")
    return states


async def s3_store_paused(root: Path, bootstrap: str) -> Row:
    """SIGSTOP the broker's S3 store for 10 s while answers arrive, then SIGCONT it."""
    del bootstrap
    name = f"durable broker: S3 store paused {PAUSE_S:.0f} s (2 workers)"
    if (row := _unavailable(name)) is not None:
        return row
    row = Row(name)
    async with (
        durable_broker() as durable,
        _two_workers(root, durable, "durable-pause") as (stack, decisions, sup),
    ):
        first = workload("q0", 100)
        await produce(stack, first)
        if await decisions.wait({a["answer_id"] for a in first}) is None:
            row.failures.append("answers before the pause were not all decided")
        second = workload("q1", 150)
        stream = asyncio.create_task(produce(stack, second, chunk_size=10, pause_s=0.2))
        await asyncio.sleep(1.0)
        durable.s3.pause()
        paused = time.monotonic()
        seen: set[str] = set()
        while time.monotonic() - paused < PAUSE_S:
            seen.update(await _readiness(stack, sup.live()))
            await asyncio.sleep(0.5)
        durable.s3.resume()
        resumed = time.monotonic()
        row.notes.append(f"/readyz during the pause: {', '.join(sorted(seen))}")
        if "stalled" not in seen:
            row.failures.append("/readyz never reported the stall")
        await asyncio.wait_for(stream, 90)
        took = await decisions.wait({a["answer_id"] for a in first + second})
        row.recover_s = None if took is None else round(time.monotonic() - resumed, 1)
        ready_again = None
        while time.monotonic() - resumed < 30:
            if set(await _readiness(stack, sup.live())) == {"ready"}:
                ready_again = round(time.monotonic() - resumed, 1)
                break
            await asyncio.sleep(0.5)
        if ready_again is None:
            row.failures.append("/readyz not ready within 30 s of the store's return")
        else:
            row.notes.append(f"ready again {ready_again} s after the store came back")
        row.restarts = sup.restarts
        return finish(row, decisions, first + second)
