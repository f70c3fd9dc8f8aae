"""Harnesses for the review server's bodies: the browser's forms and the API's JSON.

The real aiohttp app (`stream.review.server.make_app`) serves in-process on a loopback port
for the whole run; every input is one request through it, against a queue reset to one answer
waiting for review. Contract: the server answers every body with a redirect, a success or a
4xx that says what is wrong, never a 500 (an exception the handlers did not expect), and a
review it accepts is one schema-valid event for the answer it names.

Placeholders in the input stand for what a real client would carry and the fuzzer cannot
guess: `@CSRF@` (the session's CSRF token), `@LOGIN@` (the sign-in form's token), `@TOKEN@`
(a reviewer's bearer token), `@EID@` (the pending decision's event id).
"""

from __future__ import annotations

import asyncio
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import orjson
from aiohttp.test_utils import TestServer

from stream.codec import schema_error
from stream.review.auth import Sessions, TokenFile, add_token
from stream.review.queue import ReviewQueue
from stream.review.release import Releaser
from stream.review.server import LOGIN_COOKIE, SESSION_COOKIE, ReviewService, make_app
from stream.settings import Settings
from stream.stage import OutRecord
from tests.fuzz.contract import Harness, clear_message, require
from tests.unit.test_review import DOC_TEXT, XSS_DOC, FakeStore, answer_obj, doc, events_for

DECISION, VERDICTS = events_for(answer_obj())
FORM = "application/x-www-form-urlencoded"
MULTIPART = "multipart/form-data; boundary=BOUNDARY"


@dataclass
class Server:
    loop: asyncio.AbstractEventLoop
    http: aiohttp.ClientSession
    base: str
    service: ReviewService
    token: str
    sid: str
    csrf: str
    published: list[OutRecord]

    def reset(self) -> None:
        queue = ReviewQueue()
        queue.add_decision(DECISION, 1_000)
        for v in VERDICTS:
            queue.add_verdict(v)
        self.service.queue = queue
        # A fresh releaser too: it remembers what it released (so the same answer, reviewed
        # again on a fresh queue, would not be released twice).
        self.service.releaser = Releaser(
            self.service.settings, self.service.publish, self.service.answer_for
        )
        self.published.clear()

    def fill(self, data: bytes) -> bytes:
        return (
            data.replace(b"@CSRF@", self.csrf.encode())
            .replace(b"@LOGIN@", b"login-token")
            .replace(b"@TOKEN@", self.token.encode())
            .replace(b"@EID@", str(DECISION["event_id"]).encode())
        )

    def post(self, path: str, body: bytes, headers: dict[str, str]) -> tuple[int, str]:
        async def go() -> tuple[int, str]:
            async with self.http.post(
                self.base + path, data=body, headers=headers, allow_redirects=False
            ) as resp:
                return resp.status, await resp.text()

        return self.loop.run_until_complete(go())


_server: Server | None = None


def server() -> Server:
    global _server  # noqa: PLW0603 — one server per fuzzing process, started on first use
    if _server is None:
        tmp = Path(tempfile.mkdtemp(prefix="citegate-fuzz-review-"))
        token = add_token(tmp / "tokens", "alice")
        published: list[OutRecord] = []

        async def publish(records: list[OutRecord]) -> None:
            published.extend(records)

        async def fetch(decision: Any) -> dict[str, Any] | None:
            return answer_obj()

        loop = asyncio.new_event_loop()
        service = ReviewService(
            settings=Settings(),
            queue=ReviewQueue(),
            tokens=TokenFile(tmp / "tokens"),
            publish=publish,
            fetch_answer=fetch,
            store=FakeStore([doc(XSS_DOC, "v1", DOC_TEXT)]),  # type: ignore[arg-type]
            sessions=Sessions(),
            clock=lambda: 2.0,
        )
        service.caught_up.set()

        async def start() -> tuple[aiohttp.ClientSession, str]:
            # A plain session, not aiohttp's TestClient: that one keeps every response until
            # it closes, which grows without bound over a fuzzing run.
            test_server = TestServer(make_app(service))
            await test_server.start_server()
            http = aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar())
            return http, str(test_server.make_url("")).rstrip("/")

        http, base = loop.run_until_complete(start())
        sid, session = service.sessions.create("alice")
        _server = Server(loop, http, base, service, token, sid, session.csrf, published)
    return _server


def _check_response(status: int, text: str, what: str) -> None:
    require(status != 500, f"{what}: 500 (an unexpected exception): {text[:300]}")
    require(status in {200, 201, 303, 400, 401, 403, 409, 413}, f"{what}: status {status}")


def _check_published(s: Server) -> None:
    topics = s.service.settings
    reviews = [r for r in s.published if r.topic == topics.topic_reviews]
    releases = [r for r in s.published if r.topic == topics.topic_released]
    require(len(reviews) == 1, f"{len(reviews)} reviews published for one request")
    require(len(s.published) == len(reviews) + len(releases), "something else was published")
    (record,) = reviews
    require(record.key == b"a1", "review keyed by another answer")
    event = orjson.loads(record.value)
    require(schema_error("review", event) is None, "review event invalid")
    require(s.service.queue.get("a1") is None, "reviewed answer still waiting")
    # A publish releases the verified text once; reject and regenerate release nothing.
    require(
        len(releases) == (1 if event["decision"] == "publish" else 0),
        f"{len(releases)} releases for a {event['decision']} review",
    )
    for r in releases:
        release = orjson.loads(r.value)
        require(schema_error("release", release) is None, "release event invalid")
        require(release["text"] == answer_obj()["answer"], "released text is not the verified one")
        require(r.key == b"a1", "release keyed by another answer")


def check_review_json(data: bytes) -> None:
    s = server()
    s.reset()
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {s.token}"}
    status, text = s.post("/api/answers/a1/review", s.fill(data), headers)
    _check_response(status, text, "API review")
    if status == 201:
        _check_published(s)
        return
    require(not s.published, f"status {status} but a review was published")
    body = orjson.loads(text)
    require(isinstance(body, dict) and "error" in body, f"error body {text[:200]!r}")
    clear_message(body.get("message"), f"API {status}")


def check_review_form(data: bytes) -> None:
    s = server()
    s.reset()
    login = bool(data[:1]) and data[0] & 1 == 1
    multipart = bool(data[:1]) and data[0] & 2 == 2
    headers = {
        "Content-Type": MULTIPART if multipart else FORM,
        "Cookie": f"{SESSION_COOKIE}={s.sid}; {LOGIN_COOKIE}=login-token",
    }
    path = "/login" if login else "/answers/a1/review"
    status, text = s.post(path, s.fill(data[1:]), headers)
    _check_response(status, text, f"form {path}")
    if status == 303 and not login:
        _check_published(s)
    elif not login:
        require(not s.published, f"status {status} but a review was published")


def json_seeds() -> list[bytes]:
    good = {"decision": "reject", "claims": [{"claim_id": "c1", "label": "contradicted"}]}
    return [
        orjson.dumps(good),
        orjson.dumps({**good, "note": "checked", "decision_event_id": "@EID@"}),
        orjson.dumps({**good, "claims": [{"claim_id": "c1", "label": "supported", "note": 3}]}),
        b"[]",
        b"{",
    ]


def form_seeds() -> list[bytes]:
    review = b"csrf=@CSRF@&decision=publish&label-0=supported&note=ok&decision_event_id=@EID@"
    multipart = (
        b'--BOUNDARY\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n@CSRF@\r\n'
        b'--BOUNDARY\r\nContent-Disposition: form-data; name="decision"\r\n\r\nreject\r\n'
        b'--BOUNDARY\r\nContent-Disposition: form-data; name="label-0"\r\n\r\ncontradicted\r\n'
        b"--BOUNDARY--\r\n"
    )
    return [
        b"\x00" + review,
        b"\x02" + multipart,
        b"\x01login_csrf=@LOGIN@&token=@TOKEN@&next=/queue",
        b"\x01login_csrf=@LOGIN@&token=nope",
        b"\x00csrf=@CSRF@&decision=maybe",
    ]


HARNESSES = [
    Harness("review_json", "API review JSON body -> server", check_review_json, json_seeds),
    Harness("review_form", "review/sign-in form body -> server", check_review_form, form_seeds),
]
