"""The stream stage end to end: a real broker, a real worker process, the demo corpus.

Each test gets its own topics and consumer group (`make_stack`), produces events, and reads the
outputs back with a group-less consumer, waiting on conditions with bounded deadlines.
"""

from __future__ import annotations

import base64
import copy
from collections import Counter, defaultdict
from typing import Any

import orjson
import pytest

from stream.codec import schema_error
from stream.events import derive_id
from tests.integration.conftest import Events, StackFactory, demo_answers, metric_value

pytestmark = pytest.mark.integration

ALL_STATUSES = {"accept", "reject", "manual_review", "regenerate_or_abstain"}
VERSION_LABELS = (
    "corpus",
    "corpus_version",
    "generator",
    "generator_version",
    "retriever",
    "retriever_version",
    "checker",
    "checker_version",
)


def decided(topic: str, answer_ids: set[str]) -> Any:
    """Predicate: every answer id has a decision on `topic`."""

    def done(events: Events) -> bool:
        return answer_ids <= {e["answer_id"] for e in events[topic]}

    return done


async def test_mixed_batch_one_ordered_valid_decision_per_answer(make_stack: StackFactory) -> None:
    stack = await make_stack()
    await stack.start_worker()
    answers = demo_answers()
    assert {a["language"] for a in answers} >= {"ru", "zh", "en"}
    assert any("claims" in a for a in answers)
    assert any("sources" in a for a in answers)
    await stack.produce_answers(answers)
    ids = {a["answer_id"] for a in answers}
    by_id = {a["answer_id"]: a for a in answers}

    def complete(events: Events) -> bool:
        decisions = {e["answer_id"]: e for e in events[stack.topic_decisions]}
        if not ids <= decisions.keys():
            return False
        verdicts = Counter(e["answer_id"] for e in events[stack.topic_verdicts])
        return all(verdicts[i] >= decisions[i]["claims"] for i in ids)

    await stack.read_until(stack.output_topics, complete, what="all 10 decisions")
    await stack.wait_committed()
    events = await stack.read_until(stack.output_topics, complete, what="all 10 decisions")
    verdicts = events[stack.topic_verdicts]
    decisions = events[stack.topic_decisions]

    assert events[stack.topic_dlq] == []
    assert sorted(e["answer_id"] for e in decisions) == sorted(ids), "one decision per answer"
    assert {e["final_status"] for e in decisions} == ALL_STATUSES

    verdicts_of: dict[str, list[Any]] = defaultdict(list)
    for v in verdicts:
        verdicts_of[v["answer_id"]].append(v)
    for d in decisions:
        mine = verdicts_of[d["answer_id"]]
        assert len(mine) == d["claims"], d["answer_id"]
        assert sorted(v["claim_id"] for v in mine) == sorted(d["claim_ids"])
        assert all(d.timestamp >= v.timestamp for v in mine), (
            f"decision of {d['answer_id']} is older than one of its verdicts"
        )
        # Keyed by answer_id: the answer, its verdicts and its decision share one partition.
        assert d.partition == d["source"]["partition"]
        assert {v.partition for v in mine} == {d.partition}
        assert d.key == d["answer_id"].encode()

    for partition in {d.partition for d in decisions}:
        offsets = [d["source"]["offset"] for d in decisions if d.partition == partition]
        assert offsets == sorted(offsets), partition
        assert len(set(offsets)) == len(offsets), partition

    for v in verdicts:
        problem = schema_error("claim-verdict", v.value)
        assert problem is None, problem
        src = by_id[v["answer_id"]]["event_id"]
        assert v["source_event_id"] == src
        assert v["event_id"] == derive_id(
            "claim-verdict", src, v["claim_id"], v["checker"]["version"], None
        )
        assert v["mode"] == "live"
        assert v["replay_id"] is None
    for d in decisions:
        problem = schema_error("decision", d.value)
        assert problem is None, problem
        src = by_id[d["answer_id"]]["event_id"]
        assert d["source_event_id"] == src
        assert d["event_id"] == derive_id("decision", src, d["checker"]["version"], None)
        assert d["source"]["topic"] == stack.topic_answers
        assert d["publish"] is (d["final_status"] == "accept")

    status = {d["answer_id"]: d["final_status"] for d in decisions}
    assert status["demo-001"] == "reject"  # seed 000 as published: quote_mismatch
    assert status["demo-002"] == "accept"  # seed 000 with the corrected range
    assert status["demo-003"] == "regenerate_or_abstain"  # seed 001
    assert status["demo-007"] == "manual_review"  # medical: forced review
    assert next(d for d in decisions if d["answer_id"] == "demo-007")["forced_review_domain"]


def _answer(answer_id: str, **changes: Any) -> dict[str, Any]:
    base = copy.deepcopy(next(a for a in demo_answers() if a["answer_id"] == "demo-005"))
    base.update(answer_id=answer_id, event_id=f"evt-{answer_id}", **changes)
    return base


@pytest.mark.parametrize("processes", [1, 2], ids=["one-process", "two-processes"])
async def test_malformed_inputs_become_dead_letters_and_the_stage_keeps_going(
    make_stack: StackFactory, processes: int
) -> None:
    stack = await make_stack(
        env={
            "CITEGATE_MAX_EVENT_BYTES": "2000",
            "CITEGATE_MAX_CLAIMS": "3",
            "CITEGATE_MAX_CITATIONS_PER_CLAIM": "2",
        }
    )
    await stack.start_worker(processes=processes)
    ok = _answer("ok-before")
    oversize = _answer("big", answer="Passwords must be rotated every 90 days. " * 60)
    too_many_claims = _answer(
        "claims",
        claims=[
            {"id": f"c{i}", "text": "Passwords must be rotated.", "citation_ids": ["q1"]}
            for i in range(4)
        ],
    )
    too_many_citations = _answer(
        "cites",
        claims=[
            {"id": "c1", "text": "Passwords must be rotated.", "citation_ids": ["q1", "q2", "q3"]}
        ],
        citations=[
            {"id": f"q{i}", "document_id": "security-guide", "document_version": "v3"}
            for i in (1, 2, 3)
        ],
    )
    missing_id = _answer("x")
    del missing_id["answer_id"]
    poison: list[tuple[str, bytes, bytes]] = [
        ("not_utf8", b"k-utf8", b'{"answer": "\xff\xfe broken"}'),
        ("not_json", b"k-json", b'{"answer": "unterminated'),
        ("schema_invalid", b"k-schema", orjson.dumps({"answer": 5, "answer_id": "s1"})),
        ("schema_invalid", b"k-noid", orjson.dumps(missing_id)),
        ("oversize", b"big", orjson.dumps(oversize)),
        ("too_many_claims", b"claims", orjson.dumps(too_many_claims)),
        ("too_many_citations", b"cites", orjson.dumps(too_many_citations)),
    ]
    assert len(poison[4][2]) > 2000
    assert all(len(p[2]) < 2000 for p in poison if p[0] != "oversize")
    await stack.produce_answers([ok])
    placed = await stack.produce([(k, v) for _, k, v in poison])
    after = _answer("ok-after")
    await stack.produce_answers([after])

    def done(events: Events) -> bool:
        answered = {e["answer_id"] for e in events[stack.topic_decisions]}
        return len(events[stack.topic_dlq]) >= len(poison) and {"ok-before", "ok-after"} <= answered

    await stack.read_until(stack.output_topics, done, what="dead letters and both decisions")
    await stack.wait_committed()
    events = await stack.read_until(stack.output_topics, done)
    dlq = events[stack.topic_dlq]
    assert len(dlq) == len(poison)
    by_offset = {(d["source"]["partition"], d["source"]["offset"]): d for d in dlq}
    for (reason, key, raw), (partition, offset) in zip(poison, placed, strict=True):
        d = by_offset[(partition, offset)]
        problem = schema_error("dead-letter", d.value)
        assert problem is None, problem
        assert d["reason"] == reason, (reason, d["message"])
        assert d["source"]["topic"] == stack.topic_answers
        assert d["key"] == key.decode()
        assert d["message"]
        assert d["original_size"] == len(raw)
        if reason == "not_utf8":
            assert d["original_encoding"] == "base64"
            assert base64.b64decode(d["original"]) == raw
        else:
            assert d["original_encoding"] == "utf-8"
            assert d["original"].encode() == raw
    decisions = events[stack.topic_decisions]
    assert sorted(d["answer_id"] for d in decisions) == ["ok-after", "ok-before"]
    assert {d["final_status"] for d in decisions} == {"accept"}

    families = await stack.scrape(stack.workers[0])
    for reason, n in Counter(p[0] for p in poison).items():
        assert metric_value(families, "citegate_dead_letters_total", reason=reason) == n


@pytest.mark.parametrize("processes", [1, 2], ids=["one-process", "two-processes"])
async def test_duplicates_are_skipped_and_the_index_survives_a_restart(
    make_stack: StackFactory, processes: int
) -> None:
    stack = await make_stack()
    worker = await stack.start_worker(processes=processes)
    answer = next(a for a in demo_answers() if a["answer_id"] == "demo-005")  # two claims
    await stack.produce_answers([answer] * 3)
    await stack.read_until(
        [stack.topic_decisions], decided(stack.topic_decisions, {"demo-005"}), what="a decision"
    )
    await stack.produce_answers([answer])
    skipped = await stack.wait_metric(worker, "citegate_duplicates_skipped_total", 3)
    await stack.wait_committed()

    def outputs_of(events: Events) -> tuple[int, int]:
        return (
            sum(e["answer_id"] == "demo-005" for e in events[stack.topic_decisions]),
            sum(e["answer_id"] == "demo-005" for e in events[stack.topic_verdicts]),
        )

    def have_one(events: Events) -> bool:
        return outputs_of(events) >= (1, 2)

    events = await stack.read_until(stack.output_topics, have_one)
    assert outputs_of(events) == (1, 2), "one decision and one set of (2) verdicts"
    assert skipped >= 3

    assert await worker.stop() == 0, worker.log_tail()
    restarted = await stack.start_worker(processes=processes)
    await stack.produce_answers([answer])
    await stack.wait_metric(restarted, "citegate_duplicates_skipped_total", 1)
    await stack.wait_committed()
    events = await stack.read_until(stack.output_topics, have_one)
    assert outputs_of(events) == (1, 2), "the duplicate index survived the restart"
    assert events[stack.topic_dlq] == []


async def test_metrics_carry_the_version_labels(make_stack: StackFactory) -> None:
    stack = await make_stack()
    worker = await stack.start_worker()
    answers = demo_answers()
    await stack.produce_answers(answers)
    await stack.read_until(
        [stack.topic_decisions],
        decided(stack.topic_decisions, {a["answer_id"] for a in answers}),
        what="all decisions",
    )
    await stack.wait_metric(worker, "citegate_answers_total", len(answers))
    families = await stack.scrape(worker)

    samples = [
        s for s in families["citegate_answers"].samples if s.name == "citegate_answers_total"
    ]
    assert samples
    for s in samples:
        assert set(s.labels) == {*VERSION_LABELS, "mode", "final_status"}, s.labels
        assert s.labels["mode"] == "live"
    assert sum(s.value for s in samples) == len(answers)
    assert {s.labels["final_status"] for s in samples} == ALL_STATUSES

    expected: Counter[tuple[str, ...]] = Counter(
        (
            a["corpus"]["id"] if "name" not in a["corpus"] else a["corpus"]["name"],
            a["corpus"]["version"],
            a["generator"]["name"],
            a["generator"]["version"],
            a["retriever"]["name"],
            a["retriever"]["version"],
        )
        for a in answers
    )
    got: Counter[tuple[str, ...]] = Counter()
    for s in samples:
        got[tuple(s.labels[k] for k in VERSION_LABELS[:6])] += int(s.value)
    assert got == expected
    assert {s.labels["checker"] for s in samples} == {"rules"}
    assert all(s.labels["checker_version"] for s in samples)
    assert metric_value(families, "citegate_answers_total", generator="glm-rag") == 2
    assert (
        metric_value(
            families, "citegate_answers_total", generator="glm-rag", generator_version="4.1"
        )
        == 2
    )
    claims = [s for s in families["citegate_claims"].samples if s.name == "citegate_claims_total"]
    assert claims
    assert all({*VERSION_LABELS, "mode"} <= set(s.labels) for s in claims)
    assert metric_value(families, "citegate_ready") == 1

    assert (await stack.get(worker, "/healthz"))[0] == 200
    assert (await stack.get(worker, "/readyz"))[0] == 200
