"""`rag.released` end to end: answers of every final status, two held ones reviewed (one
publish, one reject), worker and review server restarted — and on the topic exactly the
accepted answers and the one published by review, each once, schema-valid, with the text the
gate verified."""

from __future__ import annotations

from collections import Counter
from typing import Any

import aiohttp
import pytest

from stream.codec import schema_error
from tests.integration.conftest import StackFactory, demo_answers
from tests.integration.review_helpers import HELD, ReviewEnv, documents, wait_queue

pytestmark = [pytest.mark.integration, pytest.mark.slow]


async def review(server: Any, token: str, answer_id: str, decision: str, n: int) -> int:
    body = {
        "decision": decision,
        "claims": [{"claim_id": f"c{i}", "label": "supported"} for i in range(1, n + 1)],
    }
    async with (
        aiohttp.ClientSession() as http,
        http.post(
            f"{server.base}/api/answers/{answer_id}/review",
            json=body,
            headers={"Authorization": f"Bearer {token}"},
        ) as resp,
    ):
        return resp.status


async def test_exactly_the_accepted_and_the_published_answers_are_released_once(
    make_stack: StackFactory,
) -> None:
    stack = await make_stack(documents=documents())
    env = ReviewEnv(stack)
    try:
        ns = stack.namespace
        events = await env.decide()  # the review answers: three held, a regenerate, an accept
        # Plus the demo's rejected, accepted and regenerate answers (its held ones would join
        # the queue): every final status.
        extra = [
            {**a, "answer_id": f"{ns}-{a['answer_id']}", "event_id": f"{ns}-{a['event_id']}"}
            for a in demo_answers()
            if a["answer_id"] not in {"demo-006", "demo-007", "demo-008"}
        ]
        await stack.produce_answers(extra)
        all_answers = {a["answer_id"]: a for a in [*extra, *env.answers]}
        events = await stack.read_until(
            [stack.topic_decisions],
            lambda ev: set(all_answers) <= {e["answer_id"] for e in ev[stack.topic_decisions]},
            what="every decision",
        )
        status = {e["answer_id"]: e["final_status"] for e in events[stack.topic_decisions]}
        assert set(status.values()) == {
            "accept",
            "reject",
            "manual_review",
            "regenerate_or_abstain",
        }
        accepted = {a for a, s in status.items() if s == "accept"}

        server = await env.start_server()
        await wait_queue(server, env.token, HELD)
        assert await review(server, env.token, "rv-ru", "publish", 1) == 201
        assert await review(server, env.token, "rv-en", "reject", 2) == 201
        assert await review(server, env.token, "rv-ru", "publish", 1) == 409  # already released

        # Restart both: the worker after committing, the review server after its release.
        for worker in stack.workers:
            await worker.stop()
        server.stop()
        await stack.start_worker()
        await stack.produce_answers([extra[1]])  # a redelivered accepted answer (demo-002)
        server = await env.start_server()  # ready = caught up and owed releases sent
        await wait_queue(server, env.token, {"rv-xss"})
        await stack.wait_committed()

        expected = accepted | {"rv-ru"}
        released = await stack.read_until(
            [stack.topic_released],
            lambda ev: {e["answer_id"] for e in ev[stack.topic_released]} >= expected,
            what="every release",
        )
        records = released[stack.topic_released]
        assert Counter(e["answer_id"] for e in records) == Counter(expected)
        assert len({e["event_id"] for e in records}) == len(records)
        for e in records:
            assert schema_error("release", e.value) is None, e.value
            assert e.key == e["answer_id"].encode()
            assert e["text"] == all_answers[e["answer_id"]]["answer"], "the verified text"
            assert e["answer_event_id"] == all_answers[e["answer_id"]]["event_id"]
        by_answer = {e["answer_id"]: e for e in records}
        assert by_answer["rv-ru"]["released_by"] == "review"
        assert by_answer["rv-ru"]["review"]["reviewer"] == {"name": "alice"}
        assert "[1]" in by_answer["rv-ru"]["text"], "marker answers keep their markers"
        assert {by_answer[a]["released_by"] for a in accepted} == {"decision"}
    finally:
        env.close()
