"""The model checker against a real local chat-completions server with scripted replies.

Every failure mode — malformed JSON, a broken contract, timeouts, HTTP errors, a dead port, an
open circuit — must leave the claim `unknown`, never `entailed`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from typing import Any

import pytest
from aiohttp import web
from prometheus_client import CollectorRegistry

from stream.checkers.llm import LlmChecker, LlmConfig
from stream.metrics import Metrics
from stream.secret import Secret
from stream.verify.codes import Verdict
from stream.verify.model import CheckRequest, Fragment

KEY = "sk-test-SECRET-4242"
Handler = Callable[["Scripted", dict[str, Any]], Awaitable[web.StreamResponse]]


def chat(content: str, usage: dict[str, int] | None = None) -> web.Response:
    """A chat-completions reply whose message content is `content`."""
    body: dict[str, Any] = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
    }
    if usage is not None:
        body["usage"] = usage
    return web.json_response(body)


def user_of(body: dict[str, Any]) -> dict[str, Any]:
    """The claim document the checker sent as the user message."""
    loaded: dict[str, Any] = json.loads(body["messages"][1]["content"])
    return loaded


def verdict(body: dict[str, Any], v: str, **over: Any) -> web.Response:
    user = user_of(body)
    ids = [f["citation_id"] for f in user["fragments"]]
    reply = {
        "claim_id": user["claim_id"],
        "verdict": v,
        "evidence_citation_ids": ids[:1] if v != "insufficient" else [],
        "unsupported_parts": [] if v == "entailed" else ["the rest"],
        "confidence": 0.9,
    }
    reply.update(over)
    return chat(json.dumps(reply), usage={"prompt_tokens": 100, "completion_tokens": 20})


async def by_claim(s: Scripted, body: dict[str, Any]) -> web.StreamResponse:
    """Verdict named by the claim text's first word (`entailed ...`, `contradicted ...`)."""
    return verdict(body, user_of(body)["claim"].split()[0])


@dataclass
class Scripted:
    """Server state the tests inspect: every request, its headers, times and concurrency."""

    handler: Handler = by_claim
    bodies: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    in_flight: int = 0
    max_in_flight: int = 0
    release: asyncio.Event = field(default_factory=asyncio.Event)
    url: str = ""

    async def handle(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        self.bodies.append(body)
        self.headers.append(dict(request.headers))
        self.times.append(time.monotonic())
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            return await self.handler(self, body)
        finally:
            self.in_flight -= 1

    async def hang(self) -> web.Response:
        """Outlive the client's timeout; released when the server stops."""
        with suppress(TimeoutError):
            await asyncio.wait_for(self.release.wait(), 5)
        return chat("{}")


@asynccontextmanager
async def scripted_server() -> AsyncIterator[Scripted]:
    """A real aiohttp server on 127.0.0.1, on a free port, speaking /v1/chat/completions."""
    state = Scripted()
    app = web.Application()
    app.router.add_post("/v1/chat/completions", state.handle)
    runner = web.AppRunner(app, shutdown_timeout=0.5)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    state.url = f"http://{host}:{port}/v1"
    try:
        yield state
    finally:
        state.release.set()
        await runner.cleanup()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def req(claim_id: str, claim: str, *fragments: tuple[str, str]) -> CheckRequest:
    frags = tuple(Fragment(cid, text, "doc", "v1", 10) for cid, text in fragments)
    return CheckRequest(claim_id, claim, frags or (Fragment("q1", "evidence text"),), "en")


@pytest.fixture
async def server() -> AsyncIterator[Scripted]:
    async with scripted_server() as s:
        yield s


@pytest.fixture
def registry() -> CollectorRegistry:
    return CollectorRegistry()


@pytest.fixture
async def make(registry: CollectorRegistry) -> AsyncIterator[Callable[..., LlmChecker]]:
    made: list[LlmChecker] = []
    metrics = Metrics(registry)

    def build(url: str, **over: Any) -> LlmChecker:
        cfg: dict[str, Any] = {
            "url": url,
            "model": "test-model",
            "api_key": Secret(KEY),
            # Generous: only test_timeout_is_unknown wants a timeout, and sets its own; a short
            # default made replies on a loaded CI machine time out.
            "timeout_s": 10.0,
            "retries": 0,
            "backoff_s": 0.01,
            "breaker_failures": 100,
        }
        cfg.update(over)
        checker = LlmChecker(LlmConfig(**cfg), metrics)
        made.append(checker)
        return checker

    yield build
    for checker in made:
        await checker.close()


async def test_valid_replies_map_to_verdicts(server: Scripted, make: Any, registry: Any) -> None:
    checker = make(server.url)
    requests = [
        req("c1", "entailed claim", ("q1", "supporting text")),
        req("c2", "contradicted claim", ("q2", "opposite text")),
        req("c3", "insufficient claim", ("q3", "related text")),
        req("c4", "unknown claim"),
    ]
    out = await checker.check_many(requests)
    assert {k: v.verdict for k, v in out.items()} == {
        "c1": Verdict.ENTAILED,
        "c2": Verdict.CONTRADICTED,
        "c3": Verdict.INSUFFICIENT,
        "c4": Verdict.UNKNOWN,
    }
    assert out["c1"].evidence_citation_ids == ("q1",)
    assert out["c1"].confidence == 0.9
    assert out["c1"].evidence[0].document_id == "doc"
    assert out["c2"].unsupported_parts == ("the rest",)
    assert checker.ref.name == "llm"
    assert "test-model" in checker.ref.version
    assert registry.get_sample_value("citegate_llm_requests_total", {"outcome": "ok"}) == 4
    assert registry.get_sample_value("citegate_llm_tokens_total", {"kind": "prompt"}) == 400
    assert registry.get_sample_value("citegate_llm_tokens_total", {"kind": "completion"}) == 80
    assert registry.get_sample_value("citegate_llm_latency_seconds_count") == 4


async def test_request_holds_only_its_claim_and_fragments(server: Scripted, make: Any) -> None:
    checker = make(server.url)
    await checker.check_many(
        [
            req("c1", "entailed alpha claim", ("q1", "alpha text")),
            req("c2", "entailed beta claim", ("q2", "beta text"), ("q3", "gamma text")),
        ]
    )
    assert len(server.bodies) == 2
    for body in server.bodies:
        assert body["temperature"] == 0
        assert body["model"] == "test-model"
        assert body["response_format"] == {"type": "json_object"}
        system = body["messages"][0]["content"]
        assert "outside knowledge" in system
        assert all(w in system for w in ("numbers", "units", "negations", "conditions", "scope"))
        assert [m["role"] for m in body["messages"]] == ["system", "user"]
    sent = {user_of(b)["claim_id"]: user_of(b) for b in server.bodies}
    assert sent["c1"] == {
        "claim_id": "c1",
        "claim": "entailed alpha claim",
        "fragments": [{"citation_id": "q1", "text": "alpha text"}],
    }
    assert "beta" not in json.dumps(server.bodies[[*sent].index("c1")])
    assert [f["citation_id"] for f in sent["c2"]["fragments"]] == ["q2", "q3"]

    plain = make(server.url, json_mode=False)
    await plain.check_many([req("c1", "entailed x")])
    assert "response_format" not in server.bodies[-1]


@pytest.mark.parametrize(
    ("content", "why"),
    [
        ("this is not json", "content is not JSON"),
        ('{"claim_id": "c1", "verdict": "entailed"}', "keys differ"),
        ("RAW:wrong-id", "claim_id does not match"),
        ("RAW:maybe", "verdict is not one of"),
        ("RAW:foreign-citation", "evidence_citation_ids"),
        ("RAW:confidence-2", "confidence"),
        ("RAW:confidence-str", "confidence"),
        ("RAW:parts-not-strings", "unsupported_parts"),
        ("RAW:entailed-without-evidence", "entailed needs"),
        ("RAW:entailed-with-gaps", "entailed needs"),
        ("RAW:extra-key", "keys differ"),
        ("[1, 2]", "not a JSON object"),
    ],
)
async def test_malformed_replies_are_unknown(
    server: Scripted, make: Any, registry: Any, content: str, why: str
) -> None:
    broken = {
        "wrong-id": {"claim_id": "c9"},
        "maybe": {"verdict": "maybe"},
        "foreign-citation": {"evidence_citation_ids": ["q1", "q99"]},
        "confidence-2": {"confidence": 2},
        "confidence-str": {"confidence": "0.9"},
        "parts-not-strings": {"unsupported_parts": [1]},
        "entailed-without-evidence": {"evidence_citation_ids": []},
        "entailed-with-gaps": {"unsupported_parts": ["the year"]},
        "extra-key": {"explanation": "because"},
    }

    async def reply(s: Scripted, body: dict[str, Any]) -> web.StreamResponse:
        if content.startswith("RAW:"):
            return verdict(body, "entailed", **broken[content[4:]])
        return chat(content)

    server.handler = reply
    out = await make(server.url).check_many([req("c1", "entailed claim")])
    assert out["c1"].verdict is Verdict.UNKNOWN
    assert why in out["c1"].reason
    assert "malformed" in out["c1"].reason
    assert registry.get_sample_value("citegate_llm_requests_total", {"outcome": "malformed"}) == 1


async def test_body_that_is_not_chat_completions_is_unknown(server: Scripted, make: Any) -> None:
    async def reply(s: Scripted, body: dict[str, Any]) -> web.StreamResponse:
        return web.Response(text="<html>gateway</html>")

    server.handler = reply
    out = await make(server.url).check_many([req("c1", "entailed claim")])
    assert out["c1"].verdict is Verdict.UNKNOWN


async def test_fenced_json_is_accepted(server: Scripted, make: Any) -> None:
    async def reply(s: Scripted, body: dict[str, Any]) -> web.StreamResponse:
        inner = json.loads((await by_claim(s, body)).text)["choices"][0]["message"]["content"]
        return chat(f"```json\n{inner}\n```")

    server.handler = reply
    out = await make(server.url).check_many([req("c1", "contradicted claim")])
    assert out["c1"].verdict is Verdict.CONTRADICTED


async def test_timeout_is_unknown(server: Scripted, make: Any, registry: Any) -> None:
    async def slow(s: Scripted, body: dict[str, Any]) -> web.StreamResponse:
        return await s.hang()

    server.handler = slow
    started = time.monotonic()
    out = await make(server.url, timeout_s=0.2, retries=1).check_many([req("c1", "entailed x")])
    assert out["c1"].verdict is Verdict.UNKNOWN
    assert "timed out" in out["c1"].reason
    assert len(server.bodies) == 2
    assert time.monotonic() - started < 4.5  # under the 5 s the server hangs: a timeout ended it
    assert registry.get_sample_value("citegate_llm_requests_total", {"outcome": "timeout"}) == 2


@pytest.mark.parametrize("status", [500, 503, 429])
async def test_retries_with_backoff_then_success(server: Scripted, make: Any, status: int) -> None:
    async def flaky(s: Scripted, body: dict[str, Any]) -> web.StreamResponse:
        if len(s.bodies) <= 2:
            return web.Response(status=status, text="busy")
        return await by_claim(s, body)

    server.handler = flaky
    out = await make(server.url, retries=2, backoff_s=0.05).check_many([req("c1", "entailed x")])
    assert out["c1"].verdict is Verdict.ENTAILED
    assert len(server.bodies) == 3
    gaps = [b - a for a, b in zip(server.times, server.times[1:], strict=False)]
    assert gaps[0] >= 0.045
    assert gaps[1] >= 0.095


async def test_retries_are_bounded_and_4xx_is_not_retried(server: Scripted, make: Any) -> None:
    async def failing(s: Scripted, body: dict[str, Any]) -> web.StreamResponse:
        return web.Response(status=503 if "busy" in body["messages"][1]["content"] else 400)

    server.handler = failing
    out = await make(server.url, retries=2).check_many([req("c1", "busy claim")])
    assert out["c1"].verdict is Verdict.UNKNOWN
    assert "HTTP 503" in out["c1"].reason
    assert len(server.bodies) == 3
    out = await make(server.url, retries=2).check_many([req("c2", "bad claim")])
    assert out["c2"].verdict is Verdict.UNKNOWN
    assert "HTTP 400" in out["c2"].reason
    assert len(server.bodies) == 4


async def test_connection_refused_is_unknown(make: Any, registry: Any) -> None:
    checker = make(f"http://127.0.0.1:{free_port()}/v1", retries=1)
    out = await checker.check_many([req("c1", "entailed x"), req("c2", "entailed y")])
    assert {r.verdict for r in out.values()} == {Verdict.UNKNOWN}
    assert "unreachable" in out["c1"].reason
    value = registry.get_sample_value(
        "citegate_llm_requests_total", {"outcome": "connection_error"}
    )
    assert value == 4


async def test_concurrency_limit_holds(server: Scripted, make: Any) -> None:
    async def slowish(s: Scripted, body: dict[str, Any]) -> web.StreamResponse:
        await asyncio.sleep(0.05)
        return await by_claim(s, body)

    server.handler = slowish
    checker = make(server.url, concurrency=3, timeout_s=2)
    out = await checker.check_many([req(f"c{i}", "entailed x") for i in range(10)])
    assert len(out) == 10
    assert all(r.verdict is Verdict.ENTAILED for r in out.values())
    assert server.max_in_flight == 3


async def test_breaker_opens_rejects_fast_then_half_opens(
    server: Scripted, make: Any, registry: Any
) -> None:
    healthy = False

    async def script(s: Scripted, body: dict[str, Any]) -> web.StreamResponse:
        return await by_claim(s, body) if healthy else web.Response(status=500)

    server.handler = script
    checker = make(server.url, breaker_failures=3, breaker_reset_s=30.0, concurrency=1)
    now = [1000.0]
    checker.breaker.clock = lambda: now[0]  # the breaker's own clock, moved by hand
    out = await checker.check_many([req(f"c{i}", "entailed x") for i in range(3)])
    assert len(server.bodies) == 3
    assert checker.breaker.state == "open"

    out = await checker.check_many([req(f"d{i}", "entailed x") for i in range(5)])
    assert len(server.bodies) == 3  # rejected without a request
    assert all(r.verdict is Verdict.UNKNOWN and "circuit open" in r.reason for r in out.values())
    assert (
        registry.get_sample_value("citegate_llm_requests_total", {"outcome": "circuit_open"}) == 5
    )

    now[0] += 29.0
    assert checker.breaker.state == "open"
    now[0] += 1.0  # half-open: one probe, which fails and re-opens the circuit
    assert checker.breaker.state == "half-open"
    out = await checker.check_many([req("e1", "entailed x"), req("e2", "entailed x")])
    assert len(server.bodies) == 4
    assert checker.breaker.state == "open"
    assert all(r.verdict is Verdict.UNKNOWN for r in out.values())

    healthy = True
    now[0] += 30.0  # the next probe succeeds and closes the circuit
    out = await checker.check_many([req("f1", "entailed x")])
    assert out["f1"].verdict is Verdict.ENTAILED
    assert checker.breaker.state == "closed"
    out = await checker.check_many([req(f"g{i}", "entailed x") for i in range(3)])
    assert all(r.verdict is Verdict.ENTAILED for r in out.values())


async def test_api_key_is_sent_but_never_logged_or_reported(
    server: Scripted, make: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)

    async def mixed(s: Scripted, body: dict[str, Any]) -> web.StreamResponse:
        claim = user_of(body)["claim"]
        if claim.startswith("fail"):
            return web.Response(status=503, text=f"echo {s.headers[-1]['Authorization']}")
        if claim.startswith("garbage"):
            return chat(f"not json {s.headers[-1]['Authorization']}")
        return await by_claim(s, body)

    server.handler = mixed
    checker = make(server.url, retries=1)
    dead = make(f"http://127.0.0.1:{free_port()}/v1")
    requests = [req("c1", "entailed x"), req("c2", "fail x"), req("c3", "garbage x")]
    results = [*(await checker.check_many(requests)).values()]
    results += (await dead.check_many(requests)).values()
    assert all(h["Authorization"] == f"Bearer {KEY}" for h in server.headers)
    assert caplog.records, "failures should be logged"
    for record in caplog.records:
        assert KEY not in record.getMessage()
        assert KEY not in (record.exc_text or "")
    for result in results:
        assert KEY not in repr(result)
    assert KEY not in repr(checker)
    assert KEY not in repr(checker.config)
    assert not any(r.verdict is Verdict.ENTAILED for r in results[1:3])
