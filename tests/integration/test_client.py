"""`GateClient` against the embedded broker and real worker processes: 500 concurrent submits
each get their own decision across a worker restart; a timeout leaves nothing pending; a
refused input is a `dead_letter` result; releases are iterated once each, a group resumes."""

from __future__ import annotations

import asyncio
import contextlib
import re
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from stream.client import GateClient
from stream.errors import InputError
from stream.settings import Settings
from tests.integration.conftest import Stack, StackFactory, demo_answers

pytestmark = [pytest.mark.integration, pytest.mark.slow]

TRACE_ID = re.compile(r"^[0-9a-f]{32}$")


def client_settings(stack: Stack, **changes: Any) -> Settings:
    env = {k: v for k, v in stack.env.items() if k.startswith("CITEGATE_")}
    return Settings.from_env(env, broker=f"kafka://{stack.bootstrap}", **changes)


def clones(n: int, ns: str) -> list[dict[str, Any]]:
    """`n` distinct answers, round-robin over the ten demo answers (every final status)."""
    templates = demo_answers()
    out = []
    for i in range(n):
        t = templates[i % len(templates)]
        out.append({**t, "answer_id": f"{ns}-{i}-{t['answer_id']}", "event_id": f"{ns}-evt-{i}"})
    return out


async def wait_for(condition: Any, wait_s: float, what: str) -> None:
    deadline = time.monotonic() + wait_s
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}", pytrace=False)
        await asyncio.sleep(0.05)


async def test_500_concurrent_submits_get_their_own_decisions_across_a_worker_restart(
    make_stack: StackFactory,
) -> None:
    # Small batches, so the restart lands in the middle rather than after one big batch.
    stack = await make_stack(env={"CITEGATE_BATCH_MAX_RECORDS": "20"})
    worker = await stack.start_worker()
    answers = clones(500, stack.namespace)
    async with GateClient(settings=client_settings(stack), timeout_s=180) as gate:
        tasks = [asyncio.create_task(gate.submit(a)) for a in answers]
        await wait_for(lambda: sum(t.done() for t in tasks) >= 40, 60, "40 decisions")
        worker.kill()  # SIGKILL: no commit, no goodbye
        decided_before_restart = sum(t.done() for t in tasks)
        await stack.start_worker()
        decisions = await asyncio.gather(*tasks)
        assert gate.pending == 0
    assert decided_before_restart < len(answers), "the restart came in the middle"
    by_template: dict[str, set[str]] = defaultdict(set)
    for i, (answer, decision) in enumerate(zip(answers, decisions, strict=True)):
        assert not decision.timed_out, decision
        assert decision.answer_id == answer["answer_id"]
        assert decision.event_id == answer["event_id"]
        assert decision.event is not None
        assert decision.event["source_event_id"] == answer["event_id"]
        assert decision.event["answer_id"] == answer["answer_id"]
        assert TRACE_ID.match(decision.trace_id or "")
        by_template[demo_answers()[i % 10]["answer_id"]].add(decision.status)
    assert all(len(statuses) == 1 for statuses in by_template.values()), by_template
    assert {s for statuses in by_template.values() for s in statuses} == {
        "accept",
        "reject",
        "manual_review",
        "regenerate_or_abstain",
    }
    assert len({d.trace_id for d in decisions}) == len(decisions), "one new trace per call"
    # The killed worker's uncommitted batch was processed twice: never released under two ids.
    accepted = {d.answer_id for d in decisions if d.publish}
    await stack.wait_committed()
    events = await stack.read_until(
        [stack.topic_released],
        lambda ev: {e["answer_id"] for e in ev[stack.topic_released]} >= accepted,
        what="the releases",
    )
    ids: dict[str, set[str]] = defaultdict(set)
    for e in events[stack.topic_released]:
        ids[e["answer_id"]].add(e["event_id"])
    assert set(ids) == accepted
    assert all(len(v) == 1 for v in ids.values())


async def test_a_timeout_is_a_clear_result_and_leaves_nothing_pending(
    make_stack: StackFactory,
) -> None:
    stack = await make_stack()  # no worker yet: nothing will decide in time
    answers = clones(30, stack.namespace)
    async with GateClient(settings=client_settings(stack), timeout_s=0.5) as gate:
        async with asyncio.timeout(10):
            results = await asyncio.gather(*(gate.submit(a) for a in answers[:20]))
        assert [r.status for r in results] == ["timed_out"] * 20
        assert not any(r.publish for r in results)
        assert gate.pending == 0
        assert gate._by_source == {}
        # The client keeps working: with a worker, a later call gets its decision.
        await stack.start_worker()
        decided = await gate.submit(answers[21], timeout_s=60)
        assert decided.status == "accept", decided
        assert gate.pending == 0


async def test_refused_input_is_a_dead_letter_result_and_invalid_input_is_not_sent(
    make_stack: StackFactory,
) -> None:
    stack = await make_stack(env={"CITEGATE_MAX_CLAIMS": "1"})
    await stack.start_worker()
    two_claims = {**demo_answers()[4], "answer_id": "too-many", "event_id": "too-many-1"}
    assert len(two_claims["claims"]) == 2
    async with GateClient(settings=client_settings(stack), timeout_s=60) as gate:
        result = await gate.submit(two_claims)
        assert result.status == "dead_letter"
        assert result.reason == "too_many_claims"
        with pytest.raises(InputError, match="answer_id"):
            await gate.submit({"answer": "no id"})
        with pytest.raises(InputError, match="traceparent"):
            await gate.submit(demo_answers()[1], traceparent="00-nonsense")
        assert gate.pending == 0


async def test_releases_are_iterated_once_each_and_a_group_resumes(
    make_stack: StackFactory,
) -> None:
    stack = await make_stack()
    await stack.start_worker()
    answers = clones(20, stack.namespace)
    settings = client_settings(stack)
    async with GateClient(settings=settings, timeout_s=60) as gate:
        decisions = await asyncio.gather(*(gate.submit(a) for a in answers))
        accepted = {d.answer_id for d in decisions if d.publish}
        text = {a["answer_id"]: a["answer"] for a in answers}
        seen: list[Any] = []
        async with (
            asyncio.timeout(30),
            contextlib.aclosing(gate.releases(from_beginning=True)) as stream,
        ):
            async for release in stream:
                seen.append(release)
                if {r.answer_id for r in seen} >= accepted:
                    break
        assert sorted(r.answer_id for r in seen) == sorted(accepted)
        assert all(r.text == text[r.answer_id] for r in seen)
        # A delivery group takes two and stops cleanly: it came back from the first only, so
        # a resumed group sees every release but the first (the second at least once more).
        group = f"{stack.namespace}-delivery"
        async with (
            asyncio.timeout(30),
            contextlib.aclosing(gate.releases(group_id=group, from_beginning=True)) as stream,
        ):
            first = [r.event_id async for r in _take(stream, 2)]
        async with (
            asyncio.timeout(30),
            contextlib.aclosing(gate.releases(group_id=group, from_beginning=True)) as stream,
        ):
            resumed = [r.event_id async for r in _take(stream, len(seen) - 1)]
        assert first[0] not in resumed
        assert first[1] in resumed
        assert set(resumed) == {r.event_id for r in seen} - {first[0]}
        # A producer's retry of an accepted answer (new event id) is released under the same
        # id, which the iterator (and any consumer deduplicating by id) shows once.
        retry = await gate.submit({**answers[1], "event_id": f"{stack.namespace}-retry"})
        assert retry.status == "accept"
    events = await stack.read_until(
        [stack.topic_released],
        lambda ev: len(ev[stack.topic_released]) > len(accepted),
        what="the retry's release",
    )
    ids = [e["event_id"] for e in events[stack.topic_released]]
    assert len(ids) == len(accepted) + 1
    assert len(set(ids)) == len(accepted)


async def _take(stream: Any, n: int) -> Any:
    taken = 0
    async for item in stream:
        yield item
        taken += 1
        if taken == n:
            return


CLIENT_DOC = Path(__file__).resolve().parents[2] / "docs" / "client.md"


async def test_the_documented_example_runs(make_stack: StackFactory, tmp_path: Path) -> None:
    """docs/client.md's example, as written there, against a real worker."""
    [code] = re.findall(r"```python\n(.*?)```", CLIENT_DOC.read_text("utf-8"), re.S)
    script = tmp_path / "gate_example.py"
    script.write_text(code, "utf-8")
    stack = await make_stack()
    await stack.start_worker()
    done = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, str(script), f"kafka://{stack.bootstrap}"],
        env=stack.env,
        capture_output=True,
        timeout=120,
        check=False,
    )
    out = done.stdout.decode()
    assert done.returncode == 0, out + done.stderr.decode()
    assert "demo-001: reject" in out
    assert "demo-006: manual_review" in out
    for answer_id in ("demo-002", "demo-004", "demo-005", "demo-010"):
        assert f"show {answer_id}: " in out, out
    assert "show demo-006" not in out
