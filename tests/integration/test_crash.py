"""SIGKILL a worker mid-stream: at-least-once means no answer is lost; repeats carry equal ids.

A steady stream of answers is produced in the background while a worker runs; when a given
share of the decisions has been observed the worker is SIGKILLed (no shutdown, no commit, no
leave-group). A new worker joins the same group, takes the partitions over after the session
timeout and resumes from the last committed offsets. Afterwards, deduplicated by decision
event id, every answer has exactly one decision; raw repeats are counted and printed.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from typing import Any

import pytest

from stream.events import derive_id
from tests.integration.conftest import Events, StackFactory, background, demo_answers

pytestmark = pytest.mark.integration

N_ANSWERS = 300


def crash_answers(tag: str) -> list[dict[str, Any]]:
    """N answers built from the demo answers, each with its own answer_id and event_id."""
    demo = demo_answers()
    out = []
    for i in range(N_ANSWERS):
        answer = dict(demo[i % len(demo)])
        answer["answer_id"] = f"crash-{tag}-{i:04d}"
        answer["event_id"] = f"crash-evt-{tag}-{i:04d}"
        out.append(answer)
    return out


@pytest.mark.parametrize(
    ("kill_at", "processes"),
    [(1 / 3, 1), (2 / 3, 1), (1 / 2, 2)],
    ids=["kill-at-one-third", "kill-at-two-thirds", "two-processes-kill-at-half"],
)
async def test_sigkill_loses_no_answer(
    make_stack: StackFactory, kill_at: float, processes: int
) -> None:
    """With `processes=2` the SIGKILL hits the supervisor: its children follow it down."""
    started = time.monotonic()
    # Small consume batches: the worker is mid-stream (outputs sent, offsets not yet committed)
    # for a good part of the time, which is where a crash produces repeats.
    stack = await make_stack(env={"CITEGATE_BATCH_MAX_RECORDS": "10"})
    first = await stack.start_worker(processes=processes)
    answers = crash_answers(stack.namespace)
    ids = {a["answer_id"] for a in answers}
    threshold = int(N_ANSWERS * kill_at)

    def decided_at_least(n: int) -> Any:
        def done(events: Events) -> bool:
            return len({e["answer_id"] for e in events[stack.topic_decisions]}) >= n

        return done

    timeline: dict[str, float] = {}

    async def produce_all() -> None:
        # A steady stream: 5 acknowledged chunks of 60 answers, 0.3 s apart. Neither kill point
        # is a chunk boundary, so the worker is usually busy with a chunk when it dies.
        await stack.produce_answers(answers, chunk_size=60, pause_s=0.3)
        timeline["produced"] = time.monotonic() - started

    async with background(produce_all()) as producing:
        seen = await stack.read_until(
            [stack.topic_decisions], decided_at_least(threshold), what=f"{threshold} decisions"
        )
        first.kill()
        timeline["killed"] = time.monotonic() - started
        decided_before_kill = len({e["answer_id"] for e in seen[stack.topic_decisions]})
        produced_before_kill = sum(stack.produced_end.values())
        second = await stack.start_worker(processes=processes)
        timeline["second ready"] = time.monotonic() - started
        await producing

    def all_decided(events: Events) -> bool:
        return ids <= {e["answer_id"] for e in events[stack.topic_decisions]}

    await stack.read_until(
        [stack.topic_decisions], all_decided, wait_s=40, what=f"all {N_ANSWERS} decisions"
    )
    timeline["all decided"] = time.monotonic() - started
    await stack.wait_committed()
    events = await stack.read_until(stack.output_topics, all_decided)
    decisions = events[stack.topic_decisions]
    verdicts = events[stack.topic_verdicts]
    assert second.running()

    event_ids: dict[str, set[str]] = defaultdict(set)
    claims_of: dict[str, int] = {}
    for d in decisions:
        event_ids[d["answer_id"]].add(d["event_id"])
        claims_of[d["answer_id"]] = d["claims"]
        # Deterministic: the id is derived from the input event id (and the checker version).
        src = d["source_event_id"]
        assert d["event_id"] == derive_id("decision", src, d["checker"]["version"], None)
    by_id = {a["answer_id"]: a for a in answers}
    assert event_ids.keys() == ids, "every answer has a decision, no unknown ones"
    for answer_id, unique in event_ids.items():
        src = by_id[answer_id]["event_id"]
        assert len(unique) == 1, f"{answer_id}: decisions with different ids {unique}"
        assert next(d for d in decisions if d["event_id"] in unique)["source_event_id"] == src
    unique_verdicts = {v["event_id"] for v in verdicts}
    assert len(unique_verdicts) == sum(claims_of.values()), (
        "every claim of every answer has its verdict"
    )
    assert events[stack.topic_dlq] == []

    repeats = Counter(d["event_id"] for d in decisions)
    duplicate_decisions = sum(n - 1 for n in repeats.values())
    duplicate_verdicts = len(verdicts) - len(unique_verdicts)
    print(
        f"\nSIGKILL at {kill_at:.2f}: {decided_before_kill}/{N_ANSWERS} decided and "
        f"{produced_before_kill} produced when killed; timeline (s): "
        + ", ".join(f"{k} {v:.1f}" for k, v in timeline.items())
        + ". "
        f"Decisions: {len(decisions)} raw, {len(repeats)} unique, {duplicate_decisions} duplicates "
        f"({sum(n > 1 for n in repeats.values())} answers repeated); verdicts: {len(verdicts)} "
        f"raw, {len(unique_verdicts)} unique, {duplicate_verdicts} duplicates; lost: 0"
    )
