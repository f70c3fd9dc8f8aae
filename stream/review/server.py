"""`citegate review`: the aiohttp app serving the queue pages and the JSON API.

Everything shown comes from model output and is untrusted: templates autoescape, the
Content-Security-Policy allows no script at all and styles only from this server, and error
pages never carry a stack trace. Pages use a session cookie (HttpOnly, SameSite=Strict) plus a
CSRF token on every form; the API takes only `Authorization: Bearer`, never the cookie, so it
needs no CSRF token.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any
from urllib.parse import quote, urlencode

import jinja2
import orjson
from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from stream.codec import schema_error
from stream.corpus.store import DocumentStore
from stream.errors import InputError
from stream.release import RELEASE_SCHEMA
from stream.review.auth import Session, Sessions, TokenFile, same
from stream.review.events import (
    MAX_CLAIMS,
    MAX_NOTE_CHARS,
    ClaimLabel,
    Label,
    ReviewDecision,
    review_event,
)
from stream.review.metrics import ReviewMetrics
from stream.review.queue import REVIEWABLE, Filters, Item, ReviewQueue
from stream.review.release import Releaser, Unavailable
from stream.review.view import answer_view, queue_row
from stream.settings import Settings
from stream.stage import OutRecord
from stream.tracing import Headers, TraceContext, from_headers

log = logging.getLogger("citegate.review")

MAX_REQUEST_BYTES = 256 * 1024
SESSION_COOKIE = "citegate_session"
LOGIN_COOKIE = "citegate_login"
ANSWER_CACHE = 512
CSP = (
    "default-src 'self'; script-src 'none'; style-src 'self'; img-src 'self'; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}
STATIC = {"review.css": "text/css"}

Publish = Callable[[list[OutRecord]], Awaitable[None]]
AnswerFetcher = Callable[[Mapping[str, Any]], Awaitable[dict[str, Any] | None]]


class Conflict(Exception):
    """The answer is no longer waiting for this review (already reviewed, or superseded)."""


MAX_TRACES = 100_000


@dataclass
class ReviewService:
    """The review server's state; `make_app` serves it. Tests build it without Kafka."""

    settings: Settings
    queue: ReviewQueue
    tokens: TokenFile
    publish: Publish
    fetch_answer: AnswerFetcher
    store: DocumentStore | None = None
    metrics: ReviewMetrics = field(default_factory=ReviewMetrics)
    sessions: Sessions = field(default_factory=Sessions)
    clock: Callable[[], float] = time.time
    caught_up: asyncio.Event = field(default_factory=asyncio.Event)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    releaser: Releaser | None = None
    _answers: OrderedDict[str, dict[str, Any] | None] = field(default_factory=OrderedDict)
    _traces: OrderedDict[str, TraceContext] = field(default_factory=OrderedDict)
    """Decision id -> the trace context its record carried (for the review and release)."""

    def __post_init__(self) -> None:
        if self.releaser is None:
            self.releaser = Releaser(self.settings, self.publish, self.answer_for)

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    # -- feeding -------------------------------------------------------------------------------

    def on_event(
        self, topic: str, event: Mapping[str, Any], ts_ms: int, headers: Headers = ()
    ) -> None:
        """Route one decoded record of the four topics into the queue and the releaser."""
        s = self.settings
        schema = event.get("schema")
        releaser = self.releaser
        assert releaser is not None
        if topic == s.topic_decisions and schema == "citegate.decision.v1":
            trace = from_headers(headers)
            if trace is not None and event.get("final_status") in REVIEWABLE:
                self._traces[str(event["event_id"])] = trace
                while len(self._traces) > MAX_TRACES:
                    self._traces.popitem(last=False)
            self.queue.add_decision(event, ts_ms)
        elif topic == s.topic_verdicts and schema == "citegate.claim-verdict.v1":
            self.queue.add_verdict(event)
        elif topic == s.topic_reviews and schema == "citegate.review.v1":
            removed = self.queue.add_review(event, ts_ms)
            if removed is not None and self.caught_up.is_set():
                self.metrics.observe_review(removed, ts_ms)
            releaser.on_review(event, from_headers(headers))
        elif topic == s.topic_released and schema == RELEASE_SCHEMA:
            releaser.on_release(event)

    async def answer_for(self, decision: Mapping[str, Any]) -> dict[str, Any] | None:
        return await self.fetch_answer(decision)

    async def answer_event(self, item: Item) -> dict[str, Any] | None:
        """The answer event the decision was made on (cached), or None when unavailable."""
        key = str(item.decision.get("source_event_id"))
        if key in self._answers:
            self._answers.move_to_end(key)
            return self._answers[key]
        event = await self.fetch_answer(item.decision)
        if event is None:
            return None  # not cached: the next view tries again
        self._answers[key] = event
        while len(self._answers) > ANSWER_CACHE:
            self._answers.popitem(last=False)
        return event

    # -- reviewing -----------------------------------------------------------------------------

    async def submit(
        self,
        answer_id: str,
        reviewer: str,
        choice: ReviewDecision,
        labels: list[ClaimLabel],
        note: str | None,
        decision_event_id: str | None = None,
    ) -> dict[str, Any]:
        """Publish one review (acknowledged by the broker) and take the answer off the queue."""
        async with self.lock:
            item = self.queue.get(answer_id)
            if item is None:
                raise Conflict("this answer is not waiting for a review (reviewed or unknown)")
            if decision_event_id is not None and decision_event_id != item.decision["event_id"]:
                raise Conflict("a newer decision replaced the one you reviewed; reload it")
            expected = claim_ids(item)
            given = [c.claim_id for c in labels]
            if sorted(given) != sorted(expected) or len(set(given)) != len(given):
                raise InputError("label every claim of the answer exactly once")
            order = {cid: i for i, cid in enumerate(expected)}
            labels = sorted(labels, key=lambda c: order[c.claim_id])
            now = self.now_ms()
            event = review_event(
                item.decision,
                item.decided_at_ms,
                item.verdicts,
                reviewer,
                choice,
                labels,
                note,
                now,
            )
            problem = schema_error("review", event)
            if problem is not None:
                raise InputError(f"the review does not match its schema: {problem}")
            decision_id = str(item.decision["event_id"])
            trace = self._traces.get(decision_id)
            releaser = self.releaser
            assert releaser is not None
            release = None
            if choice is ReviewDecision.PUBLISH:
                # Built first: a publish that cannot be released is refused, nothing written.
                release = await releaser.build(item, event, trace)
            headers = trace.headers() if trace is not None else ()
            value = orjson.dumps(event)
            releaser.sending.add(decision_id)
            try:
                await self.publish(
                    [
                        OutRecord(
                            self.settings.topic_reviews, answer_id.encode("utf-8"), value, headers
                        )
                    ]
                )
                removed = self.queue.add_review(event, now)
                if removed is not None:
                    self.metrics.observe_review(removed, now)
                log.info("review %s of answer %s by %s", event["event_id"], answer_id, reviewer)
                if release is not None:
                    await releaser.send(decision_id, release)
            finally:
                releaser.sending.discard(decision_id)
            self._traces.pop(decision_id, None)
            return event


def claim_ids(item: Item) -> list[str]:
    ids = [str(c) for c in item.decision.get("claim_ids") or []]
    return ids or list(item.verdicts)


# -- request parsing -----------------------------------------------------------------------------


def _text(value: object, what: str, limit: int) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise InputError(f"{what} must be a string")
    value = value.strip()
    if len(value) > limit:
        raise InputError(f"{what} is longer than {limit} characters")
    return value or None


def parse_review(body: object) -> tuple[ReviewDecision, list[ClaimLabel], str | None]:
    """The API's JSON body -> (decision, labels, note); InputError says what is wrong."""
    if not isinstance(body, dict):
        raise InputError("the body must be a JSON object")
    try:
        choice = ReviewDecision(str(body.get("decision")))
    except ValueError:
        raise InputError("decision must be one of publish, reject, regenerate") from None
    claims = body.get("claims")
    if not isinstance(claims, list) or len(claims) > MAX_CLAIMS:
        raise InputError(f"claims must be a list of at most {MAX_CLAIMS} objects")
    labels = []
    for i, c in enumerate(claims):
        if not isinstance(c, dict) or not isinstance(c.get("claim_id"), str):
            raise InputError(f"claims[{i}] must be an object with a string claim_id")
        try:
            label = Label(str(c.get("label")))
        except ValueError:
            raise InputError(
                f"claims[{i}].label must be one of supported, not_supported, contradicted"
            ) from None
        labels.append(
            ClaimLabel(c["claim_id"], label, _text(c.get("note"), "note", MAX_NOTE_CHARS))
        )
    return choice, labels, _text(body.get("note"), "note", MAX_NOTE_CHARS)


def parse_filters(query: Mapping[str, str]) -> Filters:
    statuses = frozenset(s for s in query.getall("status", []) if s in REVIEWABLE)  # type: ignore[attr-defined]
    if query.get("status") == "all":
        statuses = frozenset(REVIEWABLE)
    min_age: float | None = None
    raw_age = query.get("min_age_min", "").strip()
    if raw_age:
        try:
            min_age = max(0.0, float(raw_age)) * 60
        except ValueError:
            raise InputError("min_age_min must be a number of minutes") from None
    return Filters(
        statuses=statuses or frozenset({"manual_review"}),
        generator=query.get("generator") or None,
        retriever=query.get("retriever") or None,
        corpus=query.get("corpus") or None,
        checker=query.get("checker") or None,
        min_age_s=min_age,
    )


# -- the app -------------------------------------------------------------------------------------

SERVICE = web.AppKey("service", ReviewService)
TEMPLATES = web.AppKey("templates", jinja2.Environment)


def templates() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("stream.review", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["age"] = human_age
    env.filters["urlpart"] = lambda s: quote(str(s), safe="")
    return env


def human_age(seconds: float) -> str:
    s = int(seconds)
    if s < 120:
        return f"{s} s"
    if s < 7200:
        return f"{s // 60} min"
    if s < 2 * 86400:
        return f"{s // 3600} h {s % 3600 // 60} min"
    return f"{s // 86400} d {s % 86400 // 3600} h"


def is_api(request: web.Request) -> bool:
    return request.path.startswith("/api/")


def render(
    request: web.Request,
    name: str,
    status: int = 200,
    session: Session | None = None,
    **context: Any,
) -> web.Response:
    """A page; with `session`, the header shows the reviewer and the forms get its CSRF token."""
    page = (
        request.app[TEMPLATES]
        .get_template(name)
        .render(session=session, csrf=session.csrf if session else None, **context)
    )
    return web.Response(text=page, status=status, content_type="text/html", charset="utf-8")


def json_response(data: object, status: int = 200) -> web.Response:
    return web.Response(body=orjson.dumps(data), status=status, content_type="application/json")


ERROR_TITLES = {
    400: "Bad request",
    401: "Sign in required",
    403: "Forbidden",
    404: "Not found",
    405: "Method not allowed",
    409: "Already reviewed",
    413: "Request too large",
    500: "Internal error",
    503: "Not ready",
}


def error_response(request: web.Request, status: int, message: str) -> web.Response:
    if is_api(request):
        resp = json_response(
            {"error": ERROR_TITLES.get(status, "error"), "message": message}, status
        )
    else:
        resp = render(
            request, "error.html", status, title=ERROR_TITLES.get(status, "Error"), message=message
        )
    if status == 401 and is_api(request):
        resp.headers["WWW-Authenticate"] = 'Bearer realm="citegate-review"'
    return resp


@web.middleware
async def guard(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """Security headers on every response; errors become pages without internals."""
    try:
        resp = await handler(request)
    except web.HTTPRedirection as exc:
        resp = see_other(exc.headers.get("Location", "/"), exc.status)
    except web.HTTPException as exc:
        message = exc.text if exc.status in (400, 401, 403, 409) and exc.text else ""
        resp = error_response(request, exc.status, message or ERROR_TITLES.get(exc.status, ""))
    except InputError as exc:
        resp = error_response(request, 400, exc.message)
    except Conflict as exc:
        resp = error_response(request, 409, str(exc))
    except Unavailable as exc:
        resp = error_response(request, 503, str(exc))
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("unhandled error serving %s %s", request.method, request.path)
        resp = error_response(request, 500, "the server could not handle this request")
    for k, v in SECURITY_HEADERS.items():
        resp.headers.setdefault(k, v)
    if request.path.startswith("/static/"):
        resp.headers.setdefault("Cache-Control", "public, max-age=300")
    else:
        resp.headers.setdefault("Cache-Control", "no-store")
    return resp


def see_other(location: Any, status: int = 303) -> web.Response:
    return web.Response(status=status, headers={"Location": str(location)})


def _bearer(request: web.Request) -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


def api_reviewer(request: web.Request) -> str:
    token = _bearer(request)
    reviewer = request.app[SERVICE].tokens.reviewer(token) if token else None
    if reviewer is None:
        raise web.HTTPUnauthorized(text="a valid `Authorization: Bearer <token>` is required")
    return reviewer


def page_session(request: web.Request) -> Session | None:
    service = request.app[SERVICE]
    session = service.sessions.get(request.cookies.get(SESSION_COOKIE))
    if session is not None and not service.tokens.knows(session.reviewer):
        service.sessions.drop(request.cookies.get(SESSION_COOKIE))
        return None
    return session


def require_session(request: web.Request) -> Session:
    session = page_session(request)
    if session is None:
        if request.method == "GET":
            raise web.HTTPSeeOther("/login?" + urlencode({"next": request.path_qs}))
        raise web.HTTPUnauthorized(text="sign in first")
    return session


def check_csrf(session: Session, form: Mapping[str, Any]) -> None:
    if not same(str(form.get("csrf", "")), session.csrf):
        raise web.HTTPForbidden(text="the form's CSRF token is missing or wrong; reload the page")


async def read_form(request: web.Request) -> Mapping[str, Any]:
    """The form body, or InputError: aiohttp raises ValueError or HttpProcessingError for a
    malformed one (a multipart part without a name or with a broken header, bad encoding),
    which is the sender's mistake, not a 500."""
    try:
        return await request.post()
    except (ValueError, HttpProcessingError) as exc:
        detail = " ".join(str(exc).split())[:200] or type(exc).__name__
        raise InputError(f"the form body could not be read: {detail}") from None


def safe_next(target: str | None) -> str:
    """Only local paths: never redirect a reviewer to another site after signing in. The
    result goes into a `Location` header, so control characters are refused (aiohttp would
    drop the connection rather than write them) and anything else beyond ASCII is escaped."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/queue"
    if any(ord(c) < 32 or ord(c) == 127 for c in target):
        return "/queue"
    return quote(target, safe="/?&=%#:@!$'()*+,;~-._")


# -- handlers ------------------------------------------------------------------------------------


async def healthz(request: web.Request) -> web.Response:
    return web.Response(text="ok\n")


async def readyz(request: web.Request) -> web.Response:
    ready = request.app[SERVICE].caught_up.is_set()
    return web.Response(text="ready\n" if ready else "catching up\n", status=200 if ready else 503)


async def metrics(request: web.Request) -> web.Response:
    service = request.app[SERVICE]
    service.metrics.refresh(service.queue, service.now_ms(), service.caught_up.is_set())
    resp = web.Response(body=generate_latest(service.metrics.registry))
    resp.headers["Content-Type"] = CONTENT_TYPE_LATEST
    return resp


async def static(request: web.Request) -> web.Response:
    name = request.match_info["name"]
    if name not in STATIC:
        raise web.HTTPNotFound()
    data = resources.files("stream.review").joinpath("static", name).read_bytes()
    return web.Response(body=data, content_type=STATIC[name], charset="utf-8")


async def login_form(
    request: web.Request, error: str | None = None, status: int = 200
) -> web.Response:
    if error is None and page_session(request) is not None:
        raise web.HTTPSeeOther(safe_next(request.query.get("next")))
    token = secrets.token_urlsafe(32)
    resp = render(
        request,
        "login.html",
        status,
        login_csrf=token,
        next=safe_next(request.query.get("next")),
        error=error,
    )
    resp.set_cookie(
        LOGIN_COOKIE, token, httponly=True, samesite="Strict", path="/login", max_age=3600
    )
    return resp


async def login(request: web.Request) -> web.StreamResponse:
    form = await read_form(request)
    if not same(str(form.get("login_csrf", "")), request.cookies.get(LOGIN_COOKIE)):
        raise web.HTTPForbidden(
            text="the sign-in form expired or came from another site; reload it"
        )
    service = request.app[SERVICE]
    reviewer = service.tokens.reviewer(str(form.get("token", "")).strip())
    if reviewer is None:
        log.info("failed sign-in from %s", request.remote)
        return await login_form(request, "That token is not valid.", 401)
    sid, _ = service.sessions.create(reviewer)
    resp = see_other(safe_next(str(form.get("next", ""))))
    resp.set_cookie(SESSION_COOKIE, sid, httponly=True, samesite="Strict", path="/")
    resp.del_cookie(LOGIN_COOKIE, path="/login")
    log.info("reviewer %s signed in", reviewer)
    return resp


async def logout(request: web.Request) -> web.StreamResponse:
    session = require_session(request)
    check_csrf(session, await read_form(request))
    request.app[SERVICE].sessions.drop(request.cookies.get(SESSION_COOKIE))
    resp = see_other("/login")
    resp.del_cookie(SESSION_COOKIE, path="/")
    return resp


async def index(request: web.Request) -> web.StreamResponse:
    raise web.HTTPSeeOther("/queue")


def _queue_data(service: ReviewService, filters: Filters) -> dict[str, Any]:
    now = service.now_ms()
    items = service.queue.pending(filters, now)
    return {
        "ready": service.caught_up.is_set(),
        "count": len(items),
        "oldest_age_s": round(items[0].age_s(now), 3) if items else None,
        "depth": service.queue.depth(),
        "items": [queue_row(i, now) for i in items],
    }


async def queue_page(request: web.Request) -> web.Response:
    session = require_session(request)
    service = request.app[SERVICE]
    filters = parse_filters(request.query)
    return render(
        request,
        "queue.html",
        session=session,
        data=_queue_data(service, filters),
        facets=service.queue.facets(),
        filters=filters,
        min_age_min=request.query.get("min_age_min", ""),
        reviewed=request.query.get("reviewed"),
        statuses=REVIEWABLE,
    )


async def _view(request: web.Request) -> dict[str, Any]:
    service = request.app[SERVICE]
    item = service.queue.get(request.match_info["answer_id"])
    if item is None:
        raise web.HTTPNotFound()
    answer = await service.answer_event(item)
    return await answer_view(item, answer, service.store, service.now_ms())


async def answer_page(request: web.Request) -> web.Response:
    session = require_session(request)
    view = await _view(request)
    return render(
        request,
        "answer.html",
        session=session,
        view=view,
        labels=list(Label),
        decisions=list(ReviewDecision),
    )


async def review_form(request: web.Request) -> web.StreamResponse:
    session = require_session(request)
    form = await read_form(request)
    check_csrf(session, form)
    answer_id = request.match_info["answer_id"]
    service = request.app[SERVICE]
    item = service.queue.get(answer_id)
    if item is None:
        raise Conflict("this answer is not waiting for a review any more")
    try:
        choice = ReviewDecision(str(form.get("decision")))
    except ValueError:
        raise InputError("choose publish, reject or regenerate for the answer") from None
    labels = []
    for i, cid in enumerate(claim_ids(item)):
        try:
            label = Label(str(form.get(f"label-{i}")))
        except ValueError:
            raise InputError(f"claim {i + 1} needs a label") from None
        labels.append(ClaimLabel(cid, label, _text(form.get(f"note-{i}"), "note", MAX_NOTE_CHARS)))
    note = _text(form.get("note"), "note", MAX_NOTE_CHARS)
    reviewed = form.get("decision_event_id")
    await service.submit(
        answer_id, session.reviewer, choice, labels, note, str(reviewed) if reviewed else None
    )
    raise web.HTTPSeeOther("/queue?" + urlencode({"reviewed": answer_id}))


async def api_queue(request: web.Request) -> web.Response:
    api_reviewer(request)
    service = request.app[SERVICE]
    return json_response(_queue_data(service, parse_filters(request.query)))


async def api_answer(request: web.Request) -> web.Response:
    api_reviewer(request)
    return json_response(await _view(request))


async def api_review(request: web.Request) -> web.Response:
    reviewer = api_reviewer(request)
    if request.content_type != "application/json":
        raise InputError("send the review as application/json")
    try:
        body = orjson.loads(await request.read())
    except orjson.JSONDecodeError:
        raise InputError("the body is not JSON") from None
    choice, labels, note = parse_review(body)
    reviewed = body.get("decision_event_id")
    if reviewed is not None and not isinstance(reviewed, str):
        raise InputError("decision_event_id must be a string")
    event = await request.app[SERVICE].submit(
        request.match_info["answer_id"], reviewer, choice, labels, note, reviewed
    )
    return json_response({"event_id": event["event_id"], "review": event}, 201)


def make_app(service: ReviewService) -> web.Application:
    app = web.Application(client_max_size=MAX_REQUEST_BYTES, middlewares=[guard])
    app[SERVICE] = service
    app[TEMPLATES] = templates()
    app.router.add_get("/", index)
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
    app.router.add_get("/metrics", metrics)
    app.router.add_get("/static/{name}", static)
    app.router.add_get("/login", login_form)
    app.router.add_post("/login", login)
    app.router.add_post("/logout", logout)
    app.router.add_get("/queue", queue_page)
    app.router.add_get("/answers/{answer_id}", answer_page)
    app.router.add_post("/answers/{answer_id}/review", review_form)
    app.router.add_get("/api/queue", api_queue)
    app.router.add_get("/api/answers/{answer_id}", api_answer)
    app.router.add_post("/api/answers/{answer_id}/review", api_review)
    return app


ACCESS_LOG_FORMAT = '%a "%r" %s %b %Tfs'
"""No headers (Authorization, Cookie) and no bodies: tokens never reach the log."""


async def serve(app: web.Application, host: str, port: int) -> web.AppRunner:
    runner = web.AppRunner(app, access_log_format=ACCESS_LOG_FORMAT, handle_signals=False)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    return runner
