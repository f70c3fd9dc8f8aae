"""Releases by the review server, without Kafka: a publish writes the review, then the release
of exactly the verified text; never twice; what a stopped server owes is released after it
catches up, unless the answer was decided again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from stream.codec import schema_error
from stream.review.auth import TokenFile, add_token
from stream.review.queue import Item, ReviewQueue
from stream.review.release import ReleaseKeeper
from stream.review.server import ReviewService
from stream.settings import Settings
from stream.stage import OutRecord
from stream.tracing import TraceContext
from tests.unit.test_review import QUOTE, App, answer_obj, events_for

PUBLISH = {"decision": "publish", "claims": [{"claim_id": "c1", "label": "supported"}]}
PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"


def values(records: list[OutRecord], topic: str) -> list[dict[str, Any]]:
    return [orjson.loads(r.value) for r in records if r.topic == topic]


async def test_publish_writes_the_review_then_the_release_of_the_verified_text(
    tmp_path: Path,
) -> None:
    app = App(tmp_path)
    trace = TraceContext(PARENT)
    app.service.on_event("rag.decisions", app.decision, 1, trace.headers())
    async with app.client() as client:
        resp = await client.post("/api/answers/a1/review", json=PUBLISH, headers=app.bearer())
        assert resp.status == 201
    assert [r.topic for r in app.published] == ["rag.reviews", "rag.released"]
    assert all(r.headers == trace.headers() for r in app.published)
    [review] = values(app.published, "rag.reviews")
    [release] = values(app.published, "rag.released")
    assert schema_error("release", release) is None
    assert release["text"] == QUOTE == answer_obj()["answer"]
    assert release["released_by"] == "review"
    assert release["review"]["event_id"] == review["event_id"]
    assert release["decision"] == {
        "event_id": app.decision["event_id"],
        "final_status": "manual_review",
    }
    assert release["claims"][0]["review_label"] == "supported"
    assert release["trace_id"] == trace.trace_id
    assert "note" not in orjson.dumps(release).decode(), "nothing delivery must not show"


async def test_reject_and_regenerate_release_nothing(tmp_path: Path) -> None:
    app = App(tmp_path)
    body = {"decision": "reject", "claims": [{"claim_id": "c1", "label": "contradicted"}]}
    async with app.client() as client:
        resp = await client.post("/api/answers/a1/review", json=body, headers=app.bearer())
        assert resp.status == 201
    assert [r.topic for r in app.published] == ["rag.reviews"]


async def test_a_publish_that_cannot_be_released_writes_nothing(tmp_path: Path) -> None:
    app = App(tmp_path)
    fetched: list[Any] = [None]

    async def gone(decision: Any) -> dict[str, Any] | None:
        return fetched[0]

    app.service.fetch_answer = gone
    async with app.client() as client:
        resp = await client.post("/api/answers/a1/review", json=PUBLISH, headers=app.bearer())
        assert resp.status == 503
        assert "no longer" in (await resp.json())["message"]
        fetched[0] = {**answer_obj(), "answer": QUOTE + " And something unchecked."}
        resp = await client.post("/api/answers/a1/review", json=PUBLISH, headers=app.bearer())
        assert resp.status == 503, "an answer event that differs from the verified one"
        assert app.published == []
        assert (await client.get("/api/answers/a1", headers=app.bearer())).status == 200


async def test_an_answer_already_released_is_not_released_again(tmp_path: Path) -> None:
    first = App(tmp_path / "one")
    async with first.client() as client:
        await client.post("/api/answers/a1/review", json=PUBLISH, headers=first.bearer())
    [release] = values(first.published, "rag.released")
    # A second server (or this one after a restart) read that release, and the same answer
    # is under review there: the review is written, the release is not repeated.
    second = App(tmp_path / "two")
    second.service.on_event("rag.released", release, 2)
    async with second.client() as client:
        resp = await client.post("/api/answers/a1/review", json=PUBLISH, headers=second.bearer())
        assert resp.status == 201
    assert [r.topic for r in second.published] == ["rag.reviews"]


async def published_once(tmp_path: Path) -> App:
    """A review server whose reviewer published answer a1 once (review and release written)."""
    app = App(tmp_path)
    async with app.client() as client:
        await client.post("/api/answers/a1/review", json=PUBLISH, headers=app.bearer())
    return app


def restarted(tmp_path: Path, published: list[OutRecord]) -> ReviewService:
    async def publish(records: list[OutRecord]) -> None:
        published.extend(records)

    async def fetch(decision: Any) -> dict[str, Any] | None:
        return answer_obj()

    return ReviewService(
        settings=Settings(),
        queue=ReviewQueue(),
        tokens=TokenFile(tmp_path / "tokens"),
        publish=publish,
        fetch_answer=fetch,
    )


async def test_a_publish_without_its_release_is_released_once_after_a_restart(
    tmp_path: Path,
) -> None:
    decision, verdicts = events_for(answer_obj())
    app = await published_once(tmp_path)
    review_record = app.published[0]
    [release] = values(app.published, "rag.released")
    # The server stopped after writing the review, before the release: read it all back.
    sent: list[OutRecord] = []
    service = restarted(tmp_path, sent)
    service.on_event("rag.decisions", decision, 1, TraceContext(PARENT).headers())
    for v in verdicts:
        service.on_event("rag.claim-verdicts", v, 1)
    service.on_event("rag.reviews", orjson.loads(review_record.value), 2)
    scans: list[Any] = []

    async def scan(owed: Any) -> dict[str, Item]:
        scans.append(dict(owed))
        return {decision["event_id"]: Item("a1", decision, 1, {v["claim_id"]: v for v in verdicts})}

    assert service.releaser is not None
    service.caught_up.set()
    keeper = ReleaseKeeper(service.releaser, service.caught_up, scan)
    assert await keeper.once() == 1
    [again] = values(sent, "rag.released")
    assert again["event_id"] == release["event_id"], "the same id as the one never sent"
    assert await keeper.once() == 0
    assert len(scans) == 1, "nothing owed any more"
    # Reading its own release back changes nothing either.
    service.on_event("rag.released", again, 3)
    assert await keeper.once() == 0


async def test_a_release_read_back_means_nothing_is_owed(tmp_path: Path) -> None:
    decision, _ = events_for(answer_obj())
    app = await published_once(tmp_path)
    sent: list[OutRecord] = []
    service = restarted(tmp_path, sent)
    service.on_event("rag.decisions", decision, 1)
    for record in app.published:  # the release may be read before or after the review
        service.on_event(record.topic, orjson.loads(record.value), 2)
    assert service.releaser is not None

    async def scan(owed: Any) -> dict[str, Item]:
        raise AssertionError("nothing is owed: no scan")

    assert await ReleaseKeeper(service.releaser, service.caught_up, scan).once() == 0
    assert sent == []


async def test_a_publish_of_a_decision_decided_again_is_not_released(tmp_path: Path) -> None:
    app = await published_once(tmp_path)
    sent: list[OutRecord] = []
    service = restarted(tmp_path, sent)
    service.on_event("rag.reviews", orjson.loads(app.published[0].value), 2)
    assert service.releaser is not None

    async def scan(owed: Any) -> dict[str, Item]:
        return {}  # the scan found a newer decision for the answer

    keeper = ReleaseKeeper(service.releaser, service.caught_up, scan)
    assert await keeper.once() == 0
    assert await keeper.once() == 0
    assert sent == []


async def test_a_failed_release_send_is_retried(tmp_path: Path) -> None:
    app = App(tmp_path)
    calls = {"n": 0}
    published = app.published

    async def flaky(records: list[OutRecord]) -> None:
        calls["n"] += 1
        if records[0].topic == "rag.released" and calls["n"] == 2:
            raise ConnectionError("broker gone")
        published.extend(records)

    app.service.publish = flaky
    assert app.service.releaser is not None
    app.service.releaser.publish = flaky
    async with app.client() as client:
        resp = await client.post("/api/answers/a1/review", json=PUBLISH, headers=app.bearer())
        assert resp.status == 201, "the review is written; its release follows"
    assert [r.topic for r in published] == ["rag.reviews"]

    async def scan(owed: Any) -> dict[str, Item]:
        raise AssertionError("the unsent release is kept, not rebuilt")

    keeper = ReleaseKeeper(app.service.releaser, app.service.caught_up, scan)
    assert await keeper.once() == 1
    assert [r.topic for r in published] == ["rag.reviews", "rag.released"]


async def test_the_scan_finds_owed_decisions_still_latest_with_their_verdicts() -> None:
    from stream.review.release import scanner

    settings = Settings()
    decision, verdicts = events_for(answer_obj())
    newer, _ = events_for(answer_obj("a2", "evt-2"))
    older, _ = events_for(answer_obj("a2", "evt-1b"))
    review = {
        "answer_event_id": decision["source_event_id"],
        "checker": decision["checker"],
    }
    stale_review = {"answer_event_id": older["source_event_id"], "checker": older["checker"]}
    feed = [
        (settings.topic_verdicts, verdicts[0]),
        (settings.topic_decisions, decision),
        (settings.topic_decisions, older),
        (settings.topic_decisions, newer),  # a2 decided again after the review of `older`
        (settings.topic_verdicts, {**verdicts[0], "replay_id": "r1"}),  # replays are ignored
    ]

    async def read(topics: list[str], handler: Any) -> None:
        assert topics == [settings.topic_decisions, settings.topic_verdicts]
        for topic, event in feed:
            handler(topic, event, 7, ())

    found = await scanner(read, settings)(
        {decision["event_id"]: review, older["event_id"]: stale_review}
    )
    assert set(found) == {decision["event_id"]}
    item = found[decision["event_id"]]
    assert item.answer_id == "a1"
    assert list(item.verdicts) == ["c1"]
    assert item.verdicts["c1"]["replay_id"] is None


async def test_the_keeper_signals_its_first_round_and_survives_a_failed_one(
    tmp_path: Path,
) -> None:
    import asyncio

    add_token(tmp_path / "tokens", "alice")
    service = restarted(tmp_path, [])
    assert service.releaser is not None
    service.releaser.owed["d1"] = ({"answer_event_id": "x", "checker": {}}, None)
    calls: list[int] = []
    rounds = asyncio.Event()
    second = asyncio.Event()

    async def scan(owed: Any) -> dict[str, Item]:
        calls.append(len(owed))
        if len(calls) == 1:
            raise ConnectionError("broker gone")  # the first round fails...
        second.set()
        return {}  # ...the next finds the decision decided again

    caught_up = asyncio.Event()
    keeper = ReleaseKeeper(service.releaser, caught_up, scan, rounds.set)
    task = asyncio.create_task(keeper.run())
    caught_up.set()
    async with asyncio.timeout(5):
        await rounds.wait()
        service.releaser.wakeup.set()
        await second.wait()
    task.cancel()
    assert calls == [1, 1]
    assert "d1" in service.releaser.unreleasable


async def test_a_broker_failure_while_reading_the_answer_keeps_the_release_owed(
    tmp_path: Path,
) -> None:
    decision, verdicts = events_for(answer_obj())
    app = await published_once(tmp_path)
    sent: list[OutRecord] = []
    service = restarted(tmp_path, sent)
    service.on_event("rag.reviews", orjson.loads(app.published[0].value), 2)
    assert service.releaser is not None
    fail = [True]

    async def fetch(decision: Any) -> dict[str, Any] | None:
        if fail[0]:
            raise OSError("connection refused")
        return answer_obj()

    service.releaser.fetch_answer = fetch

    async def scan(owed: Any) -> dict[str, Item]:
        return {decision["event_id"]: Item("a1", decision, 1, {v["claim_id"]: v for v in verdicts})}

    keeper = ReleaseKeeper(service.releaser, service.caught_up, scan)
    assert await keeper.once() == 0
    assert decision["event_id"] in service.releaser.owed, "still owed, not given up"
    fail[0] = False
    assert await keeper.once() == 1
    assert [r.topic for r in sent] == ["rag.released"]
