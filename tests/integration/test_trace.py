"""Trace context end to end, with a real OTLP/HTTP receiver (started here, decoding the
protobuf the worker's exporter really sends): an answer submitted with a `traceparent` yields
verdict, decision and release events carrying it, one answer span with its child spans under
that trace id, and a latency exemplar with that trace id on `/metrics` (OpenMetrics)."""

from __future__ import annotations

import asyncio
import gzip
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiokafka import AIOKafkaConsumer, TopicPartition
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2 as pb

from stream.client import GateClient
from stream.kafka.embedded import find_free_port
from tests.integration.conftest import Stack, StackFactory, demo_answers
from tests.integration.test_client import client_settings

pytestmark = [pytest.mark.integration, pytest.mark.slow]

TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
PARENT_SPAN = "00f067aa0ba902b7"
TRACEPARENT = f"00-{TRACE_ID}-{PARENT_SPAN}-01"


class Receiver:
    """An OTLP/HTTP traces endpoint: POST /v1/traces with ExportTraceServiceRequest bodies."""

    def __init__(self) -> None:
        self.spans: list[dict[str, Any]] = []
        self.requests = 0
        self.port = find_free_port()

    async def traces(self, request: web.Request) -> web.Response:
        assert request.content_type == "application/x-protobuf"
        body = await request.read()
        if request.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        message = pb.ExportTraceServiceRequest.FromString(body)
        self.requests += 1
        for resource_spans in message.resource_spans:
            service = {a.key: a.value.string_value for a in resource_spans.resource.attributes}.get(
                "service.name"
            )
            for scope in resource_spans.scope_spans:
                for s in scope.spans:
                    self.spans.append(
                        {
                            "service": service,
                            "name": s.name,
                            "trace_id": s.trace_id.hex(),
                            "span_id": s.span_id.hex(),
                            "parent": s.parent_span_id.hex(),
                            "attributes": {a.key: _value(a.value) for a in s.attributes},
                        }
                    )
        reply = pb.ExportTraceServiceResponse().SerializeToString()
        return web.Response(body=reply, content_type="application/x-protobuf")


def _value(v: Any) -> Any:
    kind = v.WhichOneof("value")
    return getattr(v, kind) if kind else None


@pytest.fixture
async def receiver() -> AsyncIterator[Receiver]:
    r = Receiver()
    app = web.Application()
    app.router.add_post("/v1/traces", r.traces)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", r.port).start()
    try:
        yield r
    finally:
        await runner.cleanup()


async def read_with_headers(
    stack: Stack, topics: list[str], answer_id: str, wait_s: float = 30.0
) -> dict[str, list[tuple[tuple[str, bytes], ...]]]:
    """The headers of every record keyed `answer_id` on `topics`, once each topic has one."""
    consumer = AIOKafkaConsumer(bootstrap_servers=stack.bootstrap, group_id=None)
    await consumer.start()
    out: dict[str, list[tuple[tuple[str, bytes], ...]]] = {t: [] for t in topics}
    try:
        tps = []
        for t in topics:
            parts = consumer.partitions_for_topic(t)
            while not parts:
                await consumer._client.force_metadata_update()
                parts = consumer.partitions_for_topic(t)
            tps += [TopicPartition(t, p) for p in parts]
        consumer.assign(tps)
        await consumer.seek_to_beginning(*tps)
        deadline = time.monotonic() + wait_s
        while not all(out.values()):
            if time.monotonic() > deadline:
                stack.fail(
                    f"records of {answer_id} missing: { {t: len(v) for t, v in out.items()} }"
                )
            for tp, records in (await consumer.getmany(timeout_ms=200)).items():
                for r in records:
                    if r.key == answer_id.encode():
                        out[tp.topic].append(tuple(r.headers))
    finally:
        await consumer.stop()
    return out


async def test_a_traced_answer_yields_traced_events_spans_and_an_exemplar(
    make_stack: StackFactory, receiver: Receiver
) -> None:
    stack = await make_stack()
    worker = await stack.start_worker(
        env={
            "OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{receiver.port}",
            "OTEL_SERVICE_NAME": "citegate-trace-test",
            "OTEL_BSP_SCHEDULE_DELAY": "100",
        }
    )
    answer = {**demo_answers()[1], "answer_id": "traced-1", "event_id": "traced-evt-1"}
    async with GateClient(settings=client_settings(stack), timeout_s=60) as gate:
        decision = await gate.submit(answer, traceparent=TRACEPARENT, tracestate="vendor=1")
    assert decision.status == "accept"
    assert decision.trace_id == TRACE_ID
    assert decision.event is not None
    assert decision.event["trace_id"] == TRACE_ID

    headers = await read_with_headers(
        stack, [stack.topic_verdicts, stack.topic_decisions, stack.topic_released], "traced-1"
    )
    expected = ((("traceparent", TRACEPARENT.encode()), ("tracestate", b"vendor=1")),)
    for topic, seen in headers.items():
        assert set(seen) == set(expected), topic

    deadline = time.monotonic() + 30
    while True:
        ours = [s for s in receiver.spans if s["trace_id"] == TRACE_ID]
        names = sorted(s["name"] for s in ours)
        if "citegate.answer" in names and len(ours) >= 3:
            break
        if time.monotonic() > deadline:
            stack.fail(f"spans not received: {receiver.requests} requests, {receiver.spans}")
        await asyncio.sleep(0.1)
    [root] = [s for s in ours if s["name"] == "citegate.answer"]
    assert root["parent"] == PARENT_SPAN
    assert root["service"] == "citegate-trace-test"
    children = sorted(s["name"] for s in ours if s["parent"] == root["span_id"])
    assert children == ["citegate.checker.rules", "citegate.corpus.snapshot"]
    attrs = root["attributes"]
    assert attrs["citegate.final_status"] == "accept"
    assert attrs["citegate.verdicts.entailed"] == 1
    assert attrs["citegate.answer_id"] == "traced-1"
    for label in ("corpus", "generator", "retriever", "checker"):
        assert attrs[f"citegate.{label}_version"]

    async with (
        aiohttp.ClientSession() as http,
        http.get(
            worker.url("/metrics"), headers={"Accept": "application/openmetrics-text"}
        ) as resp,
    ):
        assert resp.status == 200
        assert resp.headers["Content-Type"].startswith("application/openmetrics-text")
        text = await resp.text()
    exemplars = [line for line in text.splitlines() if f'trace_id="{TRACE_ID}"' in line]
    assert any(line.startswith("citegate_processing_seconds_bucket") for line in exemplars)
    assert text.rstrip().endswith("# EOF")
