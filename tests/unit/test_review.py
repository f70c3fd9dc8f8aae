"""The review server without Kafka: queue state, review events, tokens and sessions, and the
aiohttp app (escaping, CSP, auth, CSRF, limits, logging) driven in-process."""

from __future__ import annotations

import logging
import os
import re
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from stream.codec import answer_from_obj, schema_error
from stream.errors import UsageError
from stream.events import Envelope, Source, claim_verdict_event, decision_event
from stream.quality.evaluate import parse_record
from stream.review.auth import Sessions, TokenFile, add_token, parse_tokens, token_hash
from stream.review.events import ClaimLabel, Label, ReviewDecision, agrees, review_event
from stream.review.export import eval_record, evidence_for, guess_language
from stream.review.metrics import ReviewMetrics
from stream.review.queue import Filters, ReviewQueue
from stream.review.server import ReviewService, make_app, safe_next
from stream.review.view import segments
from stream.settings import Settings
from stream.stage import OutRecord
from stream.verify.checkers import RulesChecker
from stream.verify.citations import DocumentSnapshot, sha256_hex
from stream.verify.model import Document
from stream.verify.pipeline import verify_answer
from stream.verify.policy import Policy

XSS_DOC = 'doc"><script>window.__xss=1</script>'
# The answer text is the quote itself: every published sentence must be covered by a claim, so
# the script payload lives inside the covered sentence rather than in a trailing one.
QUOTE = (
    'Ibuprofen relieves mild pain <img src=x onerror="alert(2)"> and fever '
    "<script>window.__xss=3</script>."
)
DOC_TEXT = f"Patient leaflet. {QUOTE} Do not exceed the dose."
NEWER_TEXT = "Patient leaflet, 2027. Ibuprofen relieves mild pain."


def doc(document_id: str, version: str, text: str) -> Document:
    return Document(document_id, version, text, sha256_hex(text))


def answer_obj(answer_id: str = "a1", event_id: str = "evt-1", **extra: Any) -> dict[str, Any]:
    start = DOC_TEXT.index(QUOTE)
    return {
        "schema": "citegate.answer.v1",
        "event_id": event_id,
        "answer_id": answer_id,
        "language": "en",
        "risk_domain": "medical",
        "corpus": {"id": "kb", "version": "1"},
        "generator": {"name": "gen", "version": "2"},
        "retriever": {"name": "ret", "version": "3"},
        "answer": QUOTE,
        "claims": [{"id": "c1", "text": QUOTE, "citation_ids": ["q1"]}],
        "citations": [
            {
                "id": "q1",
                "document_id": XSS_DOC,
                "document_version": "v1",
                "start": start,
                "end": start + len(QUOTE),
                "quote": QUOTE,
            }
        ],
        **extra,
    }


def events_for(obj: dict[str, Any], offset: int = 5) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(decision, verdicts) exactly as the worker would publish them."""
    snapshot = DocumentSnapshot.of([doc(XSS_DOC, "v1", DOC_TEXT)])
    policy = Policy(force_review_domains=frozenset({"medical"}))
    result = verify_answer(answer_from_obj(obj), snapshot, RulesChecker(), policy)
    env = Envelope(Source("rag.answers", 0, offset), None, 0.01, "live")
    verdicts = [claim_verdict_event(result, v, env) for v in result.verdicts]
    return decision_event(result, RulesChecker().ref, env), verdicts


class FakeStore:
    """Just the two lookups the view uses."""

    def __init__(self, docs: list[Document]) -> None:
        self.docs = {(d.document_id, d.version): d for d in docs}

    async def get(self, document_id: str, version: str) -> Document | None:
        return self.docs.get((document_id, version))

    async def latest(self, document_id: str) -> Document | None:
        found = [d for (i, _), d in self.docs.items() if i == document_id]
        return found[-1] if found else None


# -- queue ---------------------------------------------------------------------------------------


def test_queue_tolerates_any_interleaving_and_orders_oldest_first() -> None:
    d1, v1 = events_for(answer_obj("a1", "e1"))
    d2, v2 = events_for(answer_obj("a2", "e2"))
    assert d1["final_status"] == "manual_review"
    q = ReviewQueue()
    q.add_decision(d2, 2000)  # a decision before its verdicts
    for v in v1 + v2:
        q.add_verdict(v)
    q.add_decision(d1, 1000)
    q.add_decision(d1, 1000)  # a redelivered duplicate changes nothing
    items = q.pending(Filters(), now_ms=10_000)
    assert [i.answer_id for i in items] == ["a1", "a2"]
    assert list(items[0].verdicts) == ["c1"]
    assert q.depth() == {"manual_review": 2, "regenerate_or_abstain": 0}
    assert q.oldest_age_s(10_000)["manual_review"] == 9.0
    assert items[0].age_s(10_000) == 9.0


def test_a_review_read_before_its_decision_still_keeps_the_answer_out() -> None:
    d, _ = events_for(answer_obj())
    review = {"event_id": "r" * 32, "source_event_id": d["event_id"], "answer_id": "a1"}
    q = ReviewQueue()
    assert q.add_review(review, 5) is None
    q.add_decision(d, 1)
    assert q.pending(Filters(), 10) == []
    assert q.get("a1") is None


def test_review_removes_only_the_decision_it_names() -> None:
    d, verdicts = events_for(answer_obj())
    q = ReviewQueue()
    q.add_decision(d, 1)
    for v in verdicts:
        q.add_verdict(v)
    stale = {"event_id": "1" * 32, "source_event_id": "0" * 32, "answer_id": "a1"}
    assert q.add_review(stale, 2) is None
    assert q.get("a1") is not None
    removed = q.add_review({**stale, "source_event_id": d["event_id"]}, 3)
    assert removed is not None
    assert removed.item.answer_id == "a1"
    assert q.get("a1") is None


def test_a_newer_non_review_decision_supersedes_and_replays_are_ignored() -> None:
    d, _ = events_for(answer_obj())
    q = ReviewQueue()
    q.add_decision({**d, "replay_id": "r1", "mode": "replay", "event_id": "f" * 32}, 1)
    assert q.get("a1") is None
    q.add_decision(d, 1)
    q.add_decision({**d, "event_id": "e" * 32, "final_status": "accept"}, 2)
    assert q.get("a1") is None


def test_filters_status_slice_and_age() -> None:
    d, _ = events_for(answer_obj())
    regen = {**d, "answer_id": "a2", "event_id": "a" * 32, "final_status": "regenerate_or_abstain"}
    q = ReviewQueue()
    q.add_decision(d, 0)
    q.add_decision(regen, 50_000)
    ids = lambda f: [i.answer_id for i in q.pending(f, 60_000)]  # noqa: E731
    assert ids(Filters()) == ["a1"]
    both = frozenset({"manual_review", "regenerate_or_abstain"})
    assert ids(Filters(statuses=both)) == ["a1", "a2"]
    assert ids(Filters(statuses=both, generator="gen")) == ["a1", "a2"]
    assert ids(Filters(statuses=both, generator="gen@2")) == ["a1", "a2"]
    assert ids(Filters(statuses=both, generator="gen@9")) == []
    assert ids(Filters(statuses=both, checker="rules")) == ["a1", "a2"]
    assert ids(Filters(statuses=both, min_age_s=30)) == ["a1"]
    assert q.facets()["generator"] == ["gen@2"]


def test_orphan_verdict_groups_are_bounded() -> None:
    q = ReviewQueue(max_orphans=3)
    for i in range(10):
        q.add_verdict(
            {
                "source_event_id": f"s{i}",
                "claim_id": "c1",
                "checker": {"name": "rules", "version": "1"},
            }
        )
    assert len(q._verdicts) == 3


# -- review events -------------------------------------------------------------------------------


def test_review_event_is_schema_valid_and_its_id_deterministic() -> None:
    d, verdicts = events_for(answer_obj())
    by_claim = {v["claim_id"]: v for v in verdicts}
    labels = [ClaimLabel("c1", Label.NOT_SUPPORTED, "<b>no</b>")]
    e1 = review_event(d, 1000, by_claim, "alice", ReviewDecision.REJECT, labels, None, 2000)
    e2 = review_event(d, 1000, by_claim, "alice", ReviewDecision.REJECT, labels, None, 9000)
    assert schema_error("review", e1) is None
    assert e1["event_id"] == e2["event_id"]  # a retried submission is the same event
    assert e1["reviewed_at"] == "1970-01-01T00:00:02.000Z"
    assert e1["source_event_id"] == d["event_id"]
    assert e1["claims"][0]["checker_verdict"] == "entailed"
    other = review_event(d, 1000, by_claim, "bob", ReviewDecision.REJECT, labels, None, 2000)
    assert other["event_id"] != e1["event_id"]
    assert schema_error("review", {**e1, "decision": "ship"}) is not None


def test_agreement_maps_labels_to_verdicts() -> None:
    assert agrees(Label.SUPPORTED, "entailed")
    assert agrees(Label.NOT_SUPPORTED, "insufficient")
    assert agrees(Label.CONTRADICTED, "contradicted")
    assert not agrees(Label.SUPPORTED, "unknown")
    assert not agrees(Label.CONTRADICTED, None)


# -- tokens and sessions -------------------------------------------------------------------------


def test_add_token_stores_only_a_hash_in_a_private_file(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "tokens"
    token = add_token(path, "alice")
    text = path.read_text("utf-8")
    assert token not in text
    assert text == f"alice:sha256:{token_hash(token)}\n"
    assert os.stat(path).st_mode & 0o777 == 0o600
    with pytest.raises(UsageError, match="already has a token"):
        add_token(path, "alice")
    with pytest.raises(UsageError, match="reviewer name"):
        add_token(path, "bad name")
    tokens = TokenFile(path)
    assert tokens.reviewer(token) == "alice"
    assert tokens.reviewer(token + "x") is None
    assert tokens.reviewer("") is None
    assert tokens.reviewer("x" * 10_000) is None


def test_token_file_reloads_and_rejects_malformed_lines(tmp_path: Path) -> None:
    path = tmp_path / "tokens"
    token = add_token(path, "alice")
    tokens = TokenFile(path)
    assert tokens.knows("alice")
    path.write_text("# nobody\n", "utf-8")
    assert not tokens.knows("alice")
    assert tokens.reviewer(token) is None
    for bad in ("alice:md5:abc", "al ice:sha256:" + "0" * 64, "a:sha256:xyz"):
        with pytest.raises(UsageError, match="tokens:1"):
            parse_tokens(bad, "tokens")
    with pytest.raises(UsageError, match="twice"):
        parse_tokens(f"a:sha256:{'0' * 64}\na:sha256:{'1' * 64}", "tokens")
    with pytest.raises(UsageError, match="does not exist"):
        TokenFile(tmp_path / "missing")


def test_sessions_expire_on_the_injected_clock() -> None:
    now = [100.0]
    sessions = Sessions(ttl_s=10, clock=lambda: now[0])
    sid, session = sessions.create("alice")
    assert sessions.get(sid) == session
    assert sessions.get("other") is None
    now[0] = 111.0
    assert sessions.get(sid) is None


def test_safe_next_only_follows_local_paths() -> None:
    assert safe_next("/answers/a1") == "/answers/a1"
    for bad in (None, "", "//evil.test/", "https://evil.test/", "/\\evil", "evil"):
        assert safe_next(bad) == "/queue"
    # Found by tests/fuzz (review_form): a control character in `next` reached the Location
    # header, and aiohttp dropped the connection instead of answering.
    for bad in ("/q\x00ueue", "/queue\r\nSet-Cookie: x=1", "/a\tb", "/a\x7f"):
        assert safe_next(bad) == "/queue"
    assert safe_next("/answers/ответ?x=1") == "/answers/%D0%BE%D1%82%D0%B2%D0%B5%D1%82?x=1"


# -- view and export -----------------------------------------------------------------------------


def test_segments_mark_claim_spans_and_skip_overlaps() -> None:
    text = "One. Two. Three."
    out = segments(text, [(5, 9, "c2"), (0, 4, "c1"), (2, 6, "bad"), (50, 60, "out")])
    assert "".join(s["text"] for s in out) == text
    assert [(s["text"], s["claim_id"]) for s in out][:3] == [
        ("One.", "c1"),
        (" ", None),
        ("Two.", "c2"),
    ]


async def test_export_record_is_read_by_the_eval_parser() -> None:
    d, verdicts = events_for(answer_obj())
    by_claim = {v["claim_id"]: v for v in verdicts}
    labels = [ClaimLabel("c1", Label.CONTRADICTED, None)]
    review = review_event(d, 1, by_claim, "alice", ReviewDecision.REJECT, labels, None, 2)
    store = FakeStore([doc(XSS_DOC, "v1", DOC_TEXT)])
    evidence = await evidence_for(by_claim["c1"], answer_obj(), store)  # type: ignore[arg-type]
    assert evidence == [{"document_id": XSS_DOC, "text": QUOTE}]
    record = eval_record(review, review["claims"][0], by_claim["c1"], evidence, "en")
    parsed = parse_record(record, "x:1")
    assert (parsed.id, parsed.label, parsed.claim) == ("a1/c1", "contradicted", QUOTE)
    assert parsed.evidence == ((XSS_DOC, QUOTE),)
    # Without the store, the answer's own quote is the evidence.
    assert await evidence_for(by_claim["c1"], answer_obj(), None) == evidence
    assert guess_language("Журнал операций") == "ru"
    assert guess_language("全局 fetch API") == "zh"
    assert guess_language("Audit logs") == "en"


# -- the app -------------------------------------------------------------------------------------


class App:
    def __init__(self, tmp_path: Path, fail_fetch: bool = False) -> None:
        self.tokens_path = tmp_path / "tokens"
        self.token = add_token(self.tokens_path, "alice")
        self.published: list[OutRecord] = []
        self.now = 1_000_000.0
        self.decision, verdicts = events_for(answer_obj())
        self.fail_fetch = fail_fetch

        async def publish(records: list[OutRecord]) -> None:
            self.published.extend(records)

        async def fetch(decision: Any) -> dict[str, Any] | None:
            if self.fail_fetch:
                raise RuntimeError("secret internal detail")
            return answer_obj()

        queue = ReviewQueue()
        queue.add_decision(self.decision, int((self.now - 90) * 1000))
        for v in verdicts:
            queue.add_verdict(v)
        self.service = ReviewService(
            settings=Settings(),
            queue=queue,
            tokens=TokenFile(self.tokens_path),
            publish=publish,
            fetch_answer=fetch,
            store=FakeStore(  # type: ignore[arg-type]
                [doc(XSS_DOC, "v1", DOC_TEXT), doc(XSS_DOC, "v2", NEWER_TEXT)]
            ),
            clock=lambda: self.now,
        )
        self.service.caught_up.set()

    def client(self) -> TestClient[Any, Any]:
        return TestClient(TestServer(make_app(self.service)))

    def bearer(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


async def sign_in(client: TestClient[Any, Any], token: str) -> None:
    page = await (await client.get("/login")).text()
    login_csrf = re.search(r'name="login_csrf" value="([^"]+)"', page)
    assert login_csrf
    resp = await client.post(
        "/login", data={"token": token, "login_csrf": login_csrf.group(1), "next": "/queue"}
    )
    assert resp.status == 200
    assert str(resp.url).endswith("/queue")


async def test_every_answer_text_renders_as_text_under_a_strict_csp(tmp_path: Path) -> None:
    app = App(tmp_path)
    async with app.client() as client:
        await sign_in(client, app.token)
        resp = await client.get("/answers/a1")
        html = await resp.text()
        assert resp.status == 200
        csp = resp.headers["Content-Security-Policy"]
        assert "default-src 'self'" in csp
        assert "script-src 'none'" in csp
        assert resp.headers["X-Content-Type-Options"] == "nosniff"
        # The only tags are the template's: no payload survives as markup.
        assert "<script" not in html
        assert "<img" not in html
        assert "onerror=" not in html.replace("onerror=&#34;", "")
        assert "&lt;script&gt;window.__xss=3&lt;/script&gt;" in html
        assert "&lt;img src=x onerror=&#34;alert(2)&#34;&gt;" in html
        assert "doc&#34;&gt;&lt;script&gt;window.__xss=1&lt;/script&gt;" in html
        # The quote is highlighted inside its document, and the newer version is named.
        assert re.search(r"Patient leaflet\. <mark class=\"quote\">Ibuprofen", html)
        assert "A newer version of this document exists" in html
        assert 'lang="en"' in html
        queue = await (await client.get("/queue")).text()
        assert "90 s" in queue  # the answer has waited 90 s
        assert "<script" not in queue


async def test_api_needs_a_bearer_token_and_never_the_cookie(tmp_path: Path) -> None:
    app = App(tmp_path)
    async with app.client() as client:
        await sign_in(client, app.token)  # the session cookie is in the jar now
        for headers in ({}, {"Authorization": "Bearer nope"}, {"Authorization": app.token}):
            resp = await client.get("/api/queue", headers=headers)
            assert resp.status == 401
            assert (await resp.json())["error"] == "Sign in required"
        resp = await client.get("/api/queue", headers=app.bearer())
        body = await resp.json()
        assert body["count"] == 1
        assert body["oldest_age_s"] == 90.0
        assert (await client.get("/healthz")).status == 200


async def test_forms_need_the_csrf_token(tmp_path: Path) -> None:
    app = App(tmp_path)
    async with app.client() as client:
        resp = await client.post("/login", data={"token": app.token})
        assert resp.status == 403
        await sign_in(client, app.token)
        form = {"decision": "publish", "label-0": "supported"}
        resp = await client.post("/answers/a1/review", data=form)
        assert resp.status == 403
        resp = await client.post("/answers/a1/review", data={**form, "csrf": "forged"})
        assert resp.status == 403
        assert app.published == []
        page = await (await client.get("/answers/a1")).text()
        csrf = re.search(r'name="csrf" value="([^"]+)"', page)
        assert csrf
        resp = await client.post(
            "/answers/a1/review", data={**form, "csrf": csrf.group(1)}, allow_redirects=False
        )
        assert resp.status == 303
        assert resp.headers["Location"] == "/queue?reviewed=a1"
        assert [r.topic for r in app.published] == ["rag.reviews", "rag.released"]


async def test_api_review_publishes_once_and_answers_409_after(tmp_path: Path) -> None:
    app = App(tmp_path)
    body = {"decision": "reject", "claims": [{"claim_id": "c1", "label": "contradicted"}]}
    async with app.client() as client:
        resp = await client.post("/api/answers/a1/review", json=body, headers=app.bearer())
        assert resp.status == 201
        (record,) = app.published
        assert record.key == b"a1"
        assert record.topic == "rag.reviews"
        resp = await client.post("/api/answers/a1/review", json=body, headers=app.bearer())
        assert resp.status == 409
        assert (await client.get("/api/answers/a1", headers=app.bearer())).status == 404
    text = app.service.metrics.registry
    assert text.get_sample_value("citegate_reviews_total", {"decision": "reject"}) == 1
    assert (
        text.get_sample_value(
            "citegate_review_claims_total",
            {
                "checker": "rules",
                "checker_version": RulesChecker().ref.version,
                "verdict": "entailed",
                "label": "contradicted",
                "agreement": "disagree",
            },
        )
        == 1
    )
    assert (
        text.get_sample_value(
            "citegate_review_latency_seconds_count", {"final_status": "manual_review"}
        )
        == 1
    )


async def test_limits_and_error_pages_hide_internals(tmp_path: Path) -> None:
    app = App(tmp_path, fail_fetch=True)
    async with app.client() as client:
        resp = await client.post(
            "/api/answers/a1/review",
            data=b"{" + b" " * (300 * 1024) + b"}",
            headers={**app.bearer(), "Content-Type": "application/json"},
        )
        assert resp.status == 413
        note = {"claim_id": "c1", "label": "supported", "note": "x" * 2001}
        resp = await client.post(
            "/api/answers/a1/review",
            json={"decision": "publish", "claims": [note]},
            headers=app.bearer(),
        )
        assert resp.status == 400
        assert "2000" in (await resp.json())["message"]
        await sign_in(client, app.token)
        resp = await client.get("/answers/nope")
        assert resp.status == 404
        assert "Traceback" not in await resp.text()
        resp = await client.get("/answers/a1")  # the answer fetch blows up
        assert resp.status == 500
        text = await resp.text()
        assert "secret internal detail" not in text
        assert "Traceback" not in text
        assert resp.headers["Content-Security-Policy"]
        assert (await client.get("/static/../server.py")).status == 404


async def test_tokens_never_reach_the_log(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    app = App(tmp_path)
    async with app.client() as client:
        await sign_in(client, app.token)
        await client.post("/login", data={"token": app.token + "wrong"})
        await client.get("/api/queue", headers=app.bearer())
        body = {"decision": "publish", "claims": [{"claim_id": "c1", "label": "supported"}]}
        await client.post("/api/answers/a1/review", json=body, headers=app.bearer())
    assert "review " in caplog.text  # the review itself is logged...
    assert app.token not in caplog.text  # ...the token never
    assert app.token[:12] not in caplog.text


async def test_metrics_refresh_from_the_queue(tmp_path: Path) -> None:
    app = App(tmp_path)
    async with app.client() as client:
        text = await (await client.get("/metrics")).text()
    assert 'citegate_review_queue_depth{final_status="manual_review"} 1.0' in text
    assert 'citegate_review_queue_oldest_age_seconds{final_status="manual_review"} 90.0' in text
    assert "citegate_review_ready 1.0" in text
    assert ReviewMetrics().exposed_names() >= {"citegate_review_latency_seconds_bucket"}


# -- command line --------------------------------------------------------------------------------


def test_cli_add_token_prints_the_token_once_and_errors_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from stream.cli import main

    for name in ("CITEGATE_BROKER", "CITEGATE_REVIEW_TOKENS_FILE"):
        monkeypatch.delenv(name, raising=False)
    path = tmp_path / "tokens"
    assert main(["review", "add-token", "carol", "--tokens-file", str(path)]) == 0
    out, err = capsys.readouterr()
    token = out.strip()
    assert token.startswith("cgr_")
    assert token not in err
    assert TokenFile(path).reviewer(token) == "carol"
    assert main(["review", "add-token", "carol", "--tokens-file", str(path)]) == 2
    _, err = capsys.readouterr()
    assert err.count("\n") == 1
    assert "already has a token" in err
    # The server needs a real broker; the embedded one lives inside `worker`/`demo`.
    assert main(["review", "--tokens-file", str(path)]) == 2
    _, err = capsys.readouterr()
    assert err.count("\n") == 1
    assert "--broker" in err
    monkeypatch.setenv("CITEGATE_REVIEW_PORT", "70000")
    assert main(["review", "--broker", "kafka://127.0.0.1:9"]) == 2
    _, err = capsys.readouterr()
    assert "review_port must be 1..65535" in err
