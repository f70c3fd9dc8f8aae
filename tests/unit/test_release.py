"""Release events and trace context in the worker loop (fakes, no broker): what is released,
what carries the trace, and that repeats keep their ids."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from stream.codec import load_schema, schema_error
from stream.release import RELEASE_SCHEMA
from stream.tracing import (
    TraceContext,
    configured,
    from_headers,
    new_context,
    parse_traceparent,
)
from tests.unit.fakes import demo_answers, rig

PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
HEADERS = (("traceparent", PARENT.encode()), ("tracestate", b"vendor=abc"))
ACCEPTED = {"demo-002", "demo-004", "demo-005", "demo-010"}


def raw(answer: dict[str, Any]) -> bytes:
    return orjson.dumps(answer)


@pytest.mark.parametrize(
    ("value", "valid"),
    [
        (PARENT, True),
        (PARENT.upper(), True),
        ("00-00000000000000000000000000000000-00f067aa0ba902b7-01", False),
        ("00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", False),
        ("ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", False),
        (PARENT + "-extra", False),  # version 00 has exactly four fields
        ("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-later", True),
        ("00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01", False),
        ("not a traceparent", False),
        ("", False),
    ],
)
def test_traceparent_follows_the_w3c_rules(value: str, valid: bool) -> None:
    parsed = parse_traceparent(value)
    assert (parsed is not None) is valid
    if parsed is not None:
        assert parsed.trace_id == "4bf92f3577b34da6a3ce929d0e0e4736"
        assert parsed.span_id == "00f067aa0ba902b7"
        assert parsed.sampled


def test_headers_are_found_in_any_case_and_bounded() -> None:
    found = from_headers([("TraceParent", PARENT.encode()), ("tracestate", b"a=1")])
    assert found == TraceContext(PARENT, "a=1")
    assert from_headers([("traceparent", b"\xff" * 55)]) is None
    assert from_headers([("traceparent", PARENT.encode() * 10)]) is None
    assert from_headers(None) is None
    long_state = from_headers([("traceparent", PARENT.encode()), ("tracestate", b"x" * 600)])
    assert long_state == TraceContext(PARENT, None)
    fresh = new_context()
    assert parse_traceparent(fresh.traceparent) == fresh
    assert fresh.trace_id != new_context().trace_id


def test_tracing_is_configured_only_the_usual_way() -> None:
    assert not configured({})
    assert configured({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"})
    assert configured({"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://h:4318/v1/traces"})
    endpoint = {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}
    assert not configured({**endpoint, "OTEL_SDK_DISABLED": "true"})
    assert not configured({**endpoint, "OTEL_TRACES_EXPORTER": "none"})


async def test_only_accepted_answers_are_released_each_with_the_verified_text() -> None:
    r = rig(force_review_domains=frozenset({"medical"}))  # demo-007 entailed but held
    answers = demo_answers()
    for a in answers:
        r.consumer.append(raw(a), a["answer_id"].encode())
    await r.drain()
    decisions = {d["answer_id"]: d for d in r.decisions()}
    accepted = {a for a, d in decisions.items() if d["final_status"] == "accept"}
    assert accepted == ACCEPTED
    releases = r.releases()
    assert sorted(x["answer_id"] for x in releases) == sorted(accepted)
    by_id = {a["answer_id"]: a for a in answers}
    for release in releases:
        assert schema_error("release", release) is None, release
        source = by_id[release["answer_id"]]
        assert release["text"] == source["answer"]
        assert release["released_by"] == "decision"
        assert release["decision"]["event_id"] == decisions[release["answer_id"]]["event_id"]
        assert release["answer_event_id"] == source["event_id"]
        assert release["review"] is None
        assert release["claims"]
        assert all(c["verdict"] == "entailed" for c in release["claims"])
        for claim in release["claims"]:
            for c in claim["citations"]:
                assert c["document_id"]
                assert c["document_version"]
                assert c["start"] is not None
                assert c["end"] is not None
    markers = next(x for x in releases if x["answer_id"] == "demo-004")
    assert "[1]" in markers["text"], "marker answers are released with their markers"
    assert markers["form"] == "markers"
    order = [s.topic for s in r.producer.sent if s.key == b"demo-002"]
    assert order.index("released") > order.index("decisions"), "released after the decision"


async def test_redelivery_and_a_producer_retry_release_under_the_same_id() -> None:
    answer = demo_answers()[1]  # demo-002, accepted
    first = rig()
    first.consumer.append(raw(answer), b"demo-002")
    await first.drain()
    second = rig()  # a restarted worker with an empty duplicate index
    second.consumer.append(raw(answer), b"demo-002")
    retried = {**answer, "event_id": "demo-evt-002-retry"}  # the producer's retry
    second.consumer.append(raw(retried), b"demo-002")
    await second.drain()
    ids = {x["event_id"] for x in first.releases() + second.releases()}
    assert len(ids) == 1
    assert len(second.releases()) == 2, "one per decision; consumers deduplicate by id"


async def test_trace_context_is_carried_onto_every_output_and_into_the_decision() -> None:
    r = rig()
    accepted, held = demo_answers()[1], demo_answers()[5]
    r.consumer.append(raw(accepted), b"demo-002", headers=HEADERS)
    r.consumer.append(raw(held), b"demo-006", headers=HEADERS)
    r.consumer.append(b"{not json", b"bad", headers=HEADERS)
    r.consumer.append(raw(demo_answers()[4]), b"demo-005")  # no trace context at all
    await r.drain()
    traced = [s for s in r.producer.sent if s.key in {b"demo-002", b"demo-006", b"bad"}]
    assert {s.topic for s in traced} == {"verdicts", "decisions", "released", "dlq"}
    assert all(s.headers == HEADERS for s in traced)
    decisions = {d["answer_id"]: d for d in r.decisions()}
    assert decisions["demo-002"]["trace_id"] == "4bf92f3577b34da6a3ce929d0e0e4736"
    assert decisions["demo-005"]["trace_id"] is None
    [release] = [x for x in r.releases() if x["answer_id"] == "demo-002"]
    assert release["trace_id"] == "4bf92f3577b34da6a3ce929d0e0e4736"
    untraced = [s for s in r.producer.sent if s.key == b"demo-005"]
    assert untraced
    assert all(s.headers == () for s in untraced)
    for d in decisions.values():
        assert schema_error("decision", d) is None
        assert d["answer_digest"]
        assert len(d["answer_digest"]) == 64


async def test_latency_exemplars_carry_the_trace_id_in_openmetrics() -> None:
    from stream.metrics import exposition

    r = rig()
    r.consumer.append(raw(demo_answers()[1]), b"demo-002", headers=HEADERS)
    await r.drain()
    body, content_type = exposition(r.metrics.registry, "application/openmetrics-text")
    assert content_type.startswith("application/openmetrics-text")
    text = body.decode()
    assert '# {trace_id="4bf92f3577b34da6a3ce929d0e0e4736"}' in text
    exemplar_lines = [line for line in text.splitlines() if "trace_id=" in line]
    assert any(line.startswith("citegate_processing_seconds_bucket") for line in exemplar_lines)
    assert any(line.startswith("citegate_checker_seconds_bucket") for line in exemplar_lines)
    classic, classic_type = exposition(r.metrics.registry, "text/plain")
    assert classic_type.startswith("text/plain")
    assert b"trace_id" not in classic


async def test_replay_never_releases() -> None:
    r = rig()
    r.stage.mode, r.stage.replay_id = "replay", "r1"
    r.consumer.append(raw(demo_answers()[1]), b"demo-002")
    await r.drain()
    assert r.decisions()
    assert r.releases() == []


def test_the_release_schema_is_the_published_contract() -> None:
    schema = load_schema("release")
    assert schema["properties"]["schema"]["const"] == RELEASE_SCHEMA
    assert schema["additionalProperties"] is False
