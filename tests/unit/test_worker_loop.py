"""`Stage` and `StageLoop` against in-memory fakes of the consumer, producer and store."""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Sequence
from typing import Any

import orjson
import pytest
from aiokafka.errors import CommitFailedError, KafkaConnectionError, MessageSizeTooLargeError

from stream.codec import schema_error
from stream.errors import CorpusUnavailableError, StalledError
from stream.events import MAX_DEAD_LETTER_ORIGINAL
from stream.verify.model import CheckRequest, CheckResult, Ref
from stream.worker.loop import GroupWatch
from tests.unit.fakes import TOPIC, Clock, Sent, demo_answers, rig

MiB = 1024 * 1024


def raw(answer: dict[str, Any]) -> bytes:
    return orjson.dumps(answer)


def metric(r: Any, name: str, **labels: str) -> float:
    return r.metrics.registry.get_sample_value(name, labels) or 0.0


async def test_valid_answers_are_decided_and_committed() -> None:
    r = rig()
    for a in demo_answers():
        r.consumer.append(raw(a), a["answer_id"].encode())
    await r.drain()
    assert sorted(d["answer_id"] for d in r.decisions()) == sorted(
        a["answer_id"] for a in demo_answers()
    )
    assert r.dead_letters() == []


async def test_oversize_input_is_dead_lettered_bounded_and_does_not_block() -> None:
    r = rig()
    answers = demo_answers()
    r.consumer.append(raw(answers[0]))
    big = b'{"answer": "' + b"x" * (3 * MiB) + b'"}'
    r.consumer.append(big)
    r.consumer.append(raw(answers[1]))
    await r.drain()
    [letter] = r.dead_letters()
    assert letter["reason"] == "oversize"
    assert letter["original_size"] == len(big)
    assert letter["original_sha256"] == hashlib.sha256(big).hexdigest()
    assert letter["truncated"] is True
    assert len(letter["original"]) == MAX_DEAD_LETTER_ORIGINAL
    assert schema_error("dead-letter", letter) is None
    dlq_bytes = max(len(s.value or b"") for s in r.producer.sent if s.topic == "dlq")
    assert dlq_bytes < 2 * MAX_DEAD_LETTER_ORIGINAL
    assert {d["answer_id"] for d in r.decisions()} == {"demo-001", "demo-002"}


async def test_a_failed_send_rewinds_the_batch_and_a_poison_is_dead_lettered_once() -> None:
    r = rig()
    r.consumer.append(raw(demo_answers()[0]))
    r.consumer.append(b"\xff\xfe not utf-8")
    r.consumer.append(raw(demo_answers()[1]))
    failures = iter([True, True])  # the first two decision sends fail, then the broker is back

    def fail(record: Sent) -> BaseException | None:
        if record.topic == "decisions" and next(failures, False):
            return KafkaConnectionError("broker gone")
        return None

    r.producer.fail = fail
    await r.drain()
    assert [d["reason"] for d in r.dead_letters()] == ["not_utf8"], "once, not per retry"
    decided = {d["answer_id"] for d in r.decisions()}
    assert decided == {"demo-001", "demo-002"}
    ids = [d["event_id"] for d in r.decisions()]
    assert len(set(ids)) == len({d["answer_id"] for d in r.decisions()}), "repeats keep ids"
    assert metric(r, "citegate_batch_retries_total", code="broker_error") >= 1


async def test_an_output_the_broker_refuses_for_good_dead_letters_that_input_only() -> None:
    r = rig()
    answers = demo_answers()
    for a in answers[:3]:
        r.consumer.append(raw(a))

    def fail(record: Sent) -> BaseException | None:
        if record.topic == "decisions" and b'"demo-002"' in (record.value or b""):
            return MessageSizeTooLargeError()
        return None

    r.producer.fail = fail
    await r.drain()
    assert {d["answer_id"] for d in r.decisions()} == {"demo-001", "demo-003"}
    [letter] = r.dead_letters()
    assert letter["reason"] == "output_rejected"
    assert letter["source"]["offset"] == 1
    assert r.producer.attempts < 20, "no retry loop on a permanent refusal"


async def test_commit_failed_after_a_rebalance_is_survived() -> None:
    r = rig()
    r.consumer.append(raw(demo_answers()[0]))
    errors = iter([CommitFailedError("rebalanced")])
    r.consumer.commit_error = lambda: next(errors, None)
    r.consumer.on_empty = r.loop.stop
    await r.loop.run()
    assert [d["answer_id"] for d in r.decisions()] == ["demo-001"]
    assert r.seen.contains("demo-evt-001"), "marked before the commit"
    # The new owner re-reads the record: the index absorbs it.
    r.consumer.seek(next(iter(r.consumer.logs)), 0)
    await r.drain()
    assert len(r.decisions()) == 1


async def test_same_text_different_answers_get_different_ids() -> None:
    r = rig()
    base = {k: v for k, v in demo_answers()[0].items() if k != "event_id"}
    for answer_id in ("a-1", "a-2"):
        r.consumer.append(raw({**base, "answer_id": answer_id}))
    await r.drain()
    decisions = r.decisions()
    assert len(decisions) == 2
    assert len({d["event_id"] for d in decisions}) == 2
    assert len({d["source_event_id"] for d in decisions}) == 2


async def test_reused_event_id_with_other_content_is_a_conflict_not_a_duplicate() -> None:
    r = rig()
    first = demo_answers()[0]
    r.consumer.append(raw(first))
    r.consumer.append(raw({**first}))  # a producer retry: same content
    r.consumer.append(raw({**first, "answer": first["answer"] + " Extra."}))
    await r.drain()
    assert len(r.decisions()) == 1
    [letter] = r.dead_letters()
    assert letter["reason"] == "event_id_conflict"
    assert letter["source"]["offset"] == 2
    assert metric(r, "citegate_duplicates_skipped_total") == 1


async def test_conflicts_are_found_across_restarts_through_the_marks() -> None:
    r = rig()
    first = demo_answers()[0]
    r.consumer.append(raw(first))
    await r.drain()
    [mark] = [s for s in r.producer.sent if s.topic == "seen"]
    restarted = rig()
    restarted.seen_log._apply(mark.key, mark.value)
    restarted.consumer.append(raw({**first, "answer": "Something else."}))
    await restarted.drain()
    assert [d["reason"] for d in restarted.dead_letters()] == ["event_id_conflict"]


class Exploding:
    ref = Ref("boom", "1")

    def __init__(self, exc: BaseException, times: int = 10**6) -> None:
        self.exc = exc
        self.times = times

    async def check_many(self, requests: Sequence[CheckRequest]) -> dict[str, CheckResult]:
        if self.times > 0:
            self.times -= 1
            raise self.exc
        return {}

    async def close(self) -> None:
        return None


async def test_checker_bug_holds_answers_counts_and_logs_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.ERROR)
    r = rig(checker=Exploding(ZeroDivisionError("bug")))
    for a in demo_answers()[:3]:
        r.consumer.append(raw(a))
    await r.drain()
    assert all(d["final_status"] != "accept" for d in r.decisions())
    assert len(r.decisions()) == 3
    assert r.dead_letters() == []
    labels = {"checker": "boom", "checker_version": "1", "kind": "ZeroDivisionError"}
    assert metric(r, "citegate_checker_errors_total", **labels) >= 2
    logged = [rec for rec in caplog.records if rec.exc_info]
    assert len(logged) == 1, "one traceback per exception kind"


async def test_retriable_processing_errors_are_retried_not_dead_lettered() -> None:
    r = rig(checker=Exploding(CorpusUnavailableError("blip"), times=1))
    r.consumer.append(raw(demo_answers()[4]))
    await r.drain()
    assert r.dead_letters() == []
    assert len(r.decisions()) == 1
    assert metric(r, "citegate_batch_retries_total", code="corpus_unavailable") == 1


async def test_a_loop_that_cannot_send_exits_as_stalled() -> None:
    r = rig(stall_s=30)
    r.consumer.append(raw(demo_answers()[0]))
    r.producer.fail = lambda _: KafkaConnectionError("down")
    with pytest.raises(StalledError):
        await r.loop.run()
    assert r.consumer.commits == {}
    assert r.metrics.registry.get_sample_value("citegate_stalled") == 1


async def test_a_batch_whose_sends_the_broker_never_answers_is_reported_stalled() -> None:
    # The durable broker's S3 store paused (tests/faults/durable.py): the broker accepts the
    # produce requests and answers none, so no send fails; /readyz must still say `stalled`.
    r = rig(stall_s=30)
    r.consumer.append(raw(demo_answers()[0]))
    waiting = asyncio.Event()

    async def send(*args: Any, **kwargs: Any) -> asyncio.Future[None]:
        waiting.set()
        return asyncio.get_running_loop().create_future()  # never resolved

    r.producer.send = send  # type: ignore[method-assign]
    task = asyncio.create_task(r.loop.run())
    await asyncio.wait_for(waiting.wait(), 10)  # bounded: the batch's first send is waiting
    assert r.loop.stalled_for() == 0
    r.clock.now += 6.0
    assert r.loop.stalled_for() >= 6.0
    r.loop.stop()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert r.consumer.commits == {}


async def test_an_idle_loop_whose_broker_lost_the_topic_exits_as_stalled() -> None:
    r = rig(stall_s=30)
    r.consumer._client.cluster._topics.clear()
    clock = r.clock

    def tick() -> None:
        clock.now += 1.0

    r.consumer.on_empty = tick
    with pytest.raises(StalledError):
        await r.loop.run()
    assert not r.loop.broker_ok


async def test_an_idle_loop_with_a_healthy_broker_is_not_stalled() -> None:
    r = rig(stall_s=30)
    clock = r.clock
    rounds = 0

    def tick() -> None:
        nonlocal rounds
        clock.now += 1.0
        rounds += 1
        if rounds > 100:
            r.loop.stop()

    r.consumer.on_empty = tick
    await r.loop.run()
    assert r.loop.stalled_for() == 0


async def test_a_consumer_that_holds_partitions_but_fetches_nothing_is_stalled() -> None:
    r = rig(stall_s=30)
    r.consumer.append(raw(demo_answers()[0]))
    r.consumer.stuck = True
    clock = r.clock

    def tick() -> None:
        clock.now += 1.0

    r.consumer.on_empty = tick
    with pytest.raises(StalledError):
        await r.loop.run()
    assert r.decisions() == []


async def test_a_broker_that_lost_our_committed_offsets_stops_the_worker() -> None:
    r = rig(stall_s=30)
    for a in demo_answers()[:3]:
        r.consumer.append(raw(a))
    await r.drain()
    for log in r.consumer.logs.values():
        log.clear()  # the broker restarted empty: no log, no committed offsets
    r.consumer.commits.clear()
    clock = r.clock

    def tick() -> None:
        clock.now += 1.0

    r.consumer.on_empty = tick
    with pytest.raises(StalledError, match="lost committed offsets"):
        await r.loop.run()


async def test_after_an_outage_a_position_without_a_commit_stops_the_worker() -> None:
    """A worker that never committed itself still notices the broker lost the group's state."""
    r = rig(stall_s=30)
    for a in demo_answers()[:3]:
        r.consumer.append(raw(a))
    await r.drain()
    r.loop._committed.clear()  # as if another worker had made every commit
    r.consumer.commits.clear()
    client = r.consumer._client
    clock = r.clock
    polls = 0

    def tick() -> None:
        nonlocal polls
        polls += 1
        clock.now += 1.0
        client.reachable = not 3 <= polls <= 8  # the broker goes away and comes back

    r.consumer.on_empty = tick
    with pytest.raises(StalledError, match="no committed offset"):
        await r.loop.run()


async def test_a_batch_read_after_the_broker_lost_our_commits_is_not_committed() -> None:
    """A consumer kept its stale position on a new log: the records before it were never
    read. The check before the commit stops the worker instead of committing past them."""
    r = rig()
    for a in demo_answers()[:3]:
        r.consumer.append(raw(a))
    await r.drain()
    r.consumer.commits.clear()  # the broker restarted empty...
    tp = next(iter(r.consumer.logs))
    r.consumer.logs[tp][:] = []
    for a in demo_answers()[3:7]:  # ...and new answers arrive at offsets 0..3
        r.consumer.append(raw(a))
    r.consumer.seek(tp, 3)  # our stale position
    with pytest.raises(StalledError, match="lost committed offsets"):
        await r.loop.run()
    assert r.consumer.commits == {}, "nothing committed past offsets 0..2"


async def test_after_a_rejoin_a_broker_without_our_topics_gets_nothing_sent() -> None:
    """A memory-only broker restarted: it accepts a produce to a topic it no longer knows and
    drops it when the topic is created again. After the group rejoin the loop checks the
    topics before it sends, and stops instead of sending decisions into the void."""
    r = rig()
    for a in demo_answers()[:2]:
        r.consumer.append(raw(a))
    await r.drain()
    sent_before = len(r.producer.sent)
    r.consumer._client.cluster._topics = {TOPIC}  # the outputs are gone...
    r.consumer._coordinator.member_id = "member-2"  # ...and the group was joined again
    for a in demo_answers()[2:4]:
        r.consumer.append(raw(a))
    with pytest.raises(StalledError, match="lost topic"):
        await r.loop.run()
    assert len(r.producer.sent) == sent_before, "nothing sent to the lost topics"


async def test_the_broker_state_is_checked_once_per_membership_not_per_batch() -> None:
    r = rig(batch_max_records=1)
    calls = 0
    fetch = r.consumer._client.fetch_all_metadata

    async def counting() -> Any:
        nonlocal calls
        calls += 1
        return await fetch()

    r.consumer._client.fetch_all_metadata = counting  # type: ignore[method-assign]
    for a in demo_answers()[:4]:
        r.consumer.append(raw(a))
    await r.drain()
    assert calls == 1
    r.consumer._coordinator.generation += 1  # a rebalance
    r.consumer.append(raw(demo_answers()[4]))
    await r.drain()
    assert calls == 2


def test_encoded_events_hold_only_their_own_bytes() -> None:
    """A batch keeps its encoded outputs until they are acknowledged; orjson's own result kept
    its whole ~16 KB buffer per event (500 answers: ~45 MB), `encode` keeps the event only."""
    import tracemalloc

    from stream.codec import encode

    event = {"text": "x" * 1200, "codes": list(range(10))}
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = [encode(event) for _ in range(200)]
        per_event = (tracemalloc.get_traced_memory()[0] - before) / len(kept)
    finally:
        tracemalloc.stop()
    assert per_event < 2 * len(kept[0]), per_event


async def test_committed_offsets_are_checked_in_one_request_per_batch() -> None:
    """The check before every commit asks for all of the batch's partitions at once."""
    r = rig(partitions=4)
    for p in range(4):
        for a in demo_answers()[:2]:
            r.consumer.append(raw(a), partition=p)
    await r.drain()  # first batch: nothing committed yet, nothing to check
    fetches = r.consumer._coordinator.fetches
    for p in range(4):
        r.consumer.append(raw(demo_answers()[2]), partition=p)
    await r.drain()
    assert r.consumer._coordinator.fetches == fetches + 1


async def test_a_group_whose_rebalance_never_completes_stops_the_worker() -> None:
    r = rig(stall_s=30)
    watch = GroupWatch(r.clock)
    r.loop.group = watch
    clock = r.clock
    rounds = 0

    def tick() -> None:
        nonlocal rounds
        clock.now += 1.0
        rounds += 1
        if rounds == 5:
            watch.on_partitions_assigned(set())  # joined: settled (holding nothing is fine)
        if rounds == 60:
            watch.on_partitions_revoked(set())  # a rebalance starts and never completes

    r.consumer.on_empty = tick
    with pytest.raises(StalledError, match="not completed a rebalance"):
        await r.loop.run()
    assert 60 + 30 <= rounds <= 60 + 30 + 6  # within one probe interval of stall_s


def test_a_settled_group_is_not_unsettled() -> None:
    clock = Clock()
    watch = GroupWatch(clock)
    clock.now += 5
    assert watch.unsettled_for() == 5  # not joined yet counts from the start
    watch.on_partitions_assigned(set())
    clock.now += 100
    assert watch.unsettled_for() == 0
    watch.on_partitions_revoked(set())
    watch.on_partitions_revoked(set())  # a second revoke does not restart the count
    clock.now += 7
    assert watch.unsettled_for() == 7
