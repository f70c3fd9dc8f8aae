"""The client's checks that need no broker: what is refused before anything is sent."""

from __future__ import annotations

import orjson
import pytest

from stream.client import GateClient
from stream.client.gate import _trace
from stream.client.releases import _release
from stream.errors import InputError, UsageError
from stream.settings import Settings
from tests.unit.fakes import demo_answers

PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"


def client(**changes: object) -> GateClient:
    return GateClient(settings=Settings(broker="kafka://127.0.0.1:9").with_(**changes))


def test_an_answer_the_stage_would_refuse_is_refused_before_sending() -> None:
    gate = client(max_event_bytes=2048)
    event, value = gate.prepare({k: v for k, v in demo_answers()[1].items() if k != "event_id"})
    assert len(event["event_id"]) == 32, "a fresh event id per submission"
    assert orjson.loads(value) == event
    with pytest.raises(InputError, match="answer_id"):
        gate.prepare({"answer": "no id"})
    with pytest.raises(InputError, match="schema"):
        gate.prepare({"answer_id": "a", "answer": 5})
    with pytest.raises(InputError, match="bytes"):
        gate.prepare({"answer_id": "a", "answer": "x" * 4000})
    with pytest.raises(InputError, match="mapping"):
        gate.prepare(["not", "an", "object"])  # type: ignore[arg-type]


def test_the_client_needs_a_broker_and_sane_bounds() -> None:
    with pytest.raises(UsageError, match="broker address"):
        GateClient(settings=Settings())
    with pytest.raises(UsageError, match="timeout_s"):
        GateClient("kafka://127.0.0.1:9", timeout_s=0)


async def test_submit_before_start_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="start the GateClient"):
        await client().submit(demo_answers()[1])


def test_trace_context_given_or_new() -> None:
    assert _trace(PARENT, "a=1").traceparent == PARENT
    assert _trace(PARENT, "a=1").tracestate == "a=1"
    with pytest.raises(InputError, match="traceparent"):
        _trace("00-bad", None)
    fresh = _trace(None, None)
    assert fresh.sampled
    assert fresh.trace_id != _trace(None, None).trace_id


def test_only_release_events_are_yielded() -> None:
    assert _release(None) is None
    assert _release(b"{not json") is None
    assert _release(b'{"schema": "citegate.decision.v1"}') is None
    assert _release(b'{"schema": "citegate.release.v1"}') is None  # incomplete
    good = {
        "schema": "citegate.release.v1",
        "event_id": "e" * 32,
        "answer_id": "a1",
        "text": "t",
        "released_by": "decision",
        "trace_id": None,
        "claims": [],
    }
    release = _release(orjson.dumps(good))
    assert release is not None
    assert (release.answer_id, release.text, release.released_by) == ("a1", "t", "decision")
