"""The worker's spans, recorded by the real OpenTelemetry SDK into its in-memory exporter (the
OTLP wire format is tested against a real receiver in tests/integration/test_trace.py)."""

from __future__ import annotations

import orjson
import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from stream.checkers.factory import make_checker
from stream.tracing import Tracing, tier_wrapper
from tests.unit.fakes import demo_answers, rig, settings

PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"


def tracing() -> tuple[Tracing, InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return Tracing(provider, provider.get_tracer("test")), exporter


async def test_one_answer_span_with_corpus_and_tier_children_under_the_input_trace() -> None:
    t, exporter = tracing()
    s = settings()
    r = rig(checker=make_checker("rules", s, None, tier_wrapper(t)))
    r.stage.tracing = t
    r.consumer.append(
        orjson.dumps(demo_answers()[1]), b"demo-002", headers=(("traceparent", PARENT.encode()),)
    )
    r.consumer.append(orjson.dumps(demo_answers()[4]), b"demo-005")  # no incoming context
    await r.drain()
    spans = exporter.get_finished_spans()
    answers = [sp for sp in spans if sp.name == "citegate.answer"]
    assert len(answers) == 2
    traced = next(sp for sp in answers if sp.attributes["citegate.answer_id"] == "demo-002")
    assert f"{traced.context.trace_id:032x}" == "4bf92f3577b34da6a3ce929d0e0e4736"
    assert f"{traced.parent.span_id:016x}" == "00f067aa0ba902b7"
    children = [sp for sp in spans if sp.parent and sp.parent.span_id == traced.context.span_id]
    assert sorted(sp.name for sp in children) == [
        "citegate.checker.rules",
        "citegate.corpus.snapshot",
    ]
    attrs = traced.attributes
    assert attrs["citegate.final_status"] == "accept"
    assert attrs["citegate.verdicts.entailed"] == 1
    for label in ("corpus", "generator", "retriever", "checker"):
        assert attrs[f"citegate.{label}"]
        assert attrs[f"citegate.{label}_version"]
    # An answer without a traceparent gets a new trace; its outputs carry the span's context.
    fresh = next(sp for sp in answers if sp.attributes["citegate.answer_id"] == "demo-005")
    assert fresh.parent is None
    decision = next(d for d in r.decisions() if d["answer_id"] == "demo-005")
    assert decision["trace_id"] == f"{fresh.context.trace_id:032x}"
    sent = [x for x in r.producer.sent if x.key == b"demo-005"]
    assert all(x.headers[0][1].decode()[3:35] == decision["trace_id"] for x in sent)


async def test_without_configuration_nothing_of_opentelemetry_runs() -> None:
    r = rig()
    assert r.stage.tracing is None
    assert type(r.stage.checker).__name__ == "SyncChecker", "tiers are not wrapped"


def test_every_cascade_tier_gets_its_own_span_wrapper() -> None:
    t, _ = tracing()
    s = settings(llm_url="http://127.0.0.1:9/v1", llm_model="m")
    cascade = make_checker("cascade", s, None, tier_wrapper(t))
    tiers = [cascade.rules.tier, cascade.llm.tier]  # type: ignore[attr-defined]
    assert tiers == ["rules", "llm"]
    assert cascade.ref.name == "cascade", "the wrapper keeps every tier's ref"


def test_setup_follows_the_otel_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from stream.tracing import setup

    for name in ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"):
        monkeypatch.delenv(name, raising=False)
    assert setup() is None
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:9")
    monkeypatch.setenv("OTEL_BSP_SCHEDULE_DELAY", "60000")
    monkeypatch.delenv("OTEL_SERVICE_NAME", raising=False)
    traced = setup()
    assert traced is not None
    resource = traced._provider.resource.attributes
    assert resource["service.name"] == "citegate-worker"
    traced.shutdown()


def test_the_client_takes_the_callers_active_span() -> None:
    from stream.tracing import current_context

    assert current_context() is None
    t, _ = tracing()
    with t.span("caller") as span:
        ctx = current_context()
    assert ctx is not None
    assert ctx.trace_id == f"{span.get_span_context().trace_id:032x}"
    assert ctx.span_id == f"{span.get_span_context().span_id:016x}"
