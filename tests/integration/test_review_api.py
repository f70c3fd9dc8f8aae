"""The review server's API on a real broker and worker: auth, CSRF, one schema-valid review
event per submission, a restart that keeps reviewed answers out, export -> eval/calibrate."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import orjson
import pytest

from stream.codec import schema_error
from stream.quality.evaluate import load_records
from tests.integration.conftest import StackFactory
from tests.integration.review_helpers import (
    HELD,
    XSS_NOTE,
    ReviewEnv,
    csrf_field,
    documents,
    wait_queue,
)

pytestmark = pytest.mark.integration


@pytest.fixture
async def review_env(make_stack: StackFactory) -> AsyncIterator[ReviewEnv]:
    env = ReviewEnv(await make_stack(documents=documents()))
    try:
        yield env
    finally:
        env.close()


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def test_api_review_events_restart_and_export_round_trip(
    review_env: ReviewEnv, tmp_path: Path
) -> None:
    env = review_env
    await env.decide()
    server = await env.start_server()
    await wait_queue(server, env.token, HELD)
    await wait_queue(server, env.token, HELD | {"rv-regen"}, status="all")
    await wait_queue(server, env.token, {"rv-en"}, generator="glm-rag", min_age_min="0")
    # unsafe=True: keep cookies from an IP-address host (127.0.0.1), as browsers do.
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        # No token, a wrong token, and a cookie instead of a token: 401, JSON, no internals.
        for headers in ({}, auth("cgr_wrong"), {"Cookie": "citegate_session=x"}):
            async with http.get(f"{server.base}/api/queue", headers=headers) as resp:
                assert resp.status == 401
                assert resp.headers["WWW-Authenticate"].startswith("Bearer")
                body = await resp.json()
                assert "Traceback" not in orjson.dumps(body).decode()
        async with http.get(f"{server.base}/healthz") as resp:
            assert resp.status == 200
        async with http.get(f"{server.base}/api/answers/nope", headers=auth(env.token)) as resp:
            assert resp.status == 404
        async with http.get(f"{server.base}/answers/rv-en", allow_redirects=False) as resp:
            assert resp.status == 303
            assert resp.headers["Location"].startswith("/login")

        async with http.get(f"{server.base}/api/answers/rv-en", headers=auth(env.token)) as resp:
            assert resp.status == 200
            view = await resp.json()
        assert view["answer_text"].startswith("Passwords must be rotated")
        assert [c["verdict"] for c in view["claims"]] == ["entailed", "contradicted"]
        excerpt = view["claims"][1]["citations"][0]["excerpt"]
        assert excerpt["available"]
        assert excerpt["latest_version"] == "v4"

        # An incomplete or malformed review is refused and publishes nothing.
        bad = [
            {"decision": "publish", "claims": [{"claim_id": "c1", "label": "supported"}]},
            {"decision": "ship", "claims": []},
            {"decision": "reject", "claims": [{"claim_id": "c1", "label": "maybe"}]},
        ]
        for body in bad:
            async with http.post(
                f"{server.base}/api/answers/rv-en/review", json=body, headers=auth(env.token)
            ) as resp:
                assert resp.status == 400, await resp.text()
        async with http.post(
            f"{server.base}/api/answers/rv-en/review",
            data=b"x" * (300 * 1024),
            headers={**auth(env.token), "Content-Type": "application/json"},
        ) as resp:
            assert resp.status == 413

        review = {
            "decision": "reject",
            "note": XSS_NOTE,
            "claims": [
                {"claim_id": "c1", "label": "supported"},
                {"claim_id": "c2", "label": "contradicted", "note": "MFA is required"},
            ],
        }
        async with http.post(
            f"{server.base}/api/answers/rv-en/review", json=review, headers=auth(env.token)
        ) as resp:
            assert resp.status == 201, await resp.text()
            event_id = (await resp.json())["event_id"]
        # The same answer again: 409, nothing more on the topic.
        async with http.post(
            f"{server.base}/api/answers/rv-en/review", json=review, headers=auth(env.other_token)
        ) as resp:
            assert resp.status == 409

        # A browser session: CSRF is enforced on login and on the review form.
        async with http.post(f"{server.base}/login", data={"token": env.token}) as resp:
            assert resp.status == 403
        async with http.get(f"{server.base}/login") as resp:
            login_csrf = csrf_field(await resp.text(), "login_csrf")
        async with http.post(
            f"{server.base}/login",
            data={"token": env.other_token, "login_csrf": login_csrf, "next": "//evil.test/"},
            allow_redirects=False,
        ) as resp:
            assert resp.status == 303
            assert resp.headers["Location"] == "/queue"
            cookie = resp.cookies["citegate_session"]
            assert cookie["httponly"]
            assert cookie["samesite"] == "Strict"
        form = {"decision": "publish", "label-0": "supported"}
        async with http.post(f"{server.base}/answers/rv-ru/review", data=form) as resp:
            assert resp.status == 403
            page = await resp.text()
            assert "CSRF" in page
            assert "Traceback" not in page
            assert "default-src 'self'" in resp.headers["Content-Security-Policy"]
        async with http.get(f"{server.base}/answers/rv-ru") as resp:
            page = await resp.text()
            csrf = csrf_field(page, "csrf")
            decision_id = csrf_field(page, "decision_event_id")
        async with http.post(
            f"{server.base}/answers/rv-ru/review",
            data={**form, "csrf": csrf, "decision_event_id": decision_id},
            allow_redirects=False,
        ) as resp:
            assert resp.status == 303, await resp.text()

        await wait_queue(server, env.token, {"rv-xss"})
        for answer_id, label in (("rv-xss", "not_supported"), ("rv-regen", "supported")):
            async with http.get(
                f"{server.base}/api/answers/{answer_id}", headers=auth(env.token)
            ) as resp:
                claims = (await resp.json())["claims"]
            body = {
                "decision": "regenerate",
                "claims": [{"claim_id": c["claim_id"], "label": label} for c in claims],
            }
            async with http.post(
                f"{server.base}/api/answers/{answer_id}/review", json=body, headers=auth(env.token)
            ) as resp:
                assert resp.status == 201, await resp.text()

    reviews = await env.all_reviews()  # each review was acknowledged before its 201
    by_answer = {e["answer_id"]: e for e in reviews}
    assert sorted(e["answer_id"] for e in reviews) == ["rv-en", "rv-regen", "rv-ru", "rv-xss"]
    for e in reviews:
        assert schema_error("review", e.value) is None, e.value
        assert e.key == e["answer_id"].encode()
    en = by_answer["rv-en"]
    assert en["event_id"] == event_id
    assert en["reviewer"] == {"name": "alice"}
    assert en["note"] == XSS_NOTE
    assert [(c["label"], c["checker_verdict"]) for c in en["claims"]] == [
        ("supported", "entailed"),
        ("contradicted", "contradicted"),
    ]
    assert by_answer["rv-ru"]["reviewer"] == {"name": "bob"}

    # Restart: the queue is rebuilt from the topics, the reviewed answers stay out.
    server.stop()
    server = await env.start_server()
    await wait_queue(server, env.token, set())
    await wait_queue(server, env.token, set(), status="all")
    # The server follows the topics: an answer held after it started joins the queue.
    late = {**env.answers[2], "answer_id": "rv-late", "event_id": "rv-late-evt"}
    await env.stack.produce_answers([late])
    await wait_queue(server, env.token, {"rv-late"})
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"{server.base}/metrics") as resp,
    ):
        text = await resp.text()
    assert 'citegate_review_queue_depth{final_status="manual_review"} 1.0' in text
    assert "citegate_review_ready 1.0" in text

    # Export -> eval -> calibrate on the reviewed claims.
    out = tmp_path / "labels.jsonl"
    cli = [sys.executable, "-m", "stream.cli"]
    broker = ["--broker", f"kafka://{env.stack.bootstrap}", "--store", env.stack.store]
    done = await asyncio.to_thread(
        subprocess.run,
        [*cli, "review", "export", *broker, "--out", str(out)],
        env=env.env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    records = load_records(out)
    assert {r.id for r in records} == {
        "rv-en/c1",
        "rv-en/c2",
        "rv-ru/c1",
        "rv-xss/c1",
        "rv-regen/c1",
        "rv-regen/c2",
    }
    by_id = {r.id: r for r in records}
    assert by_id["rv-en/c2"].label == "contradicted"
    assert by_id["rv-xss/c1"].label == "insufficient"
    assert by_id["rv-ru/c1"].language == "ru"
    assert by_id["rv-ru/c1"].evidence[0][1].startswith("Журнал операций")
    assert by_id["rv-xss/c1"].evidence[0][0].startswith('leaflet"><script>')
    ev = await asyncio.to_thread(
        subprocess.run,
        [*cli, "eval", str(out), "--format", "json"],
        env=env.env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert ev.returncode == 0, ev.stderr
    (result,) = orjson.loads(ev.stdout)["results"]
    assert result["n"] == 6
    assert result["dataset"] == "citegate-review"
    assert result["confusion"] is not None  # three-way gold labels: a contradicted claim
    cal = await asyncio.to_thread(
        subprocess.run,
        [*cli, "calibrate", str(out), "--folds", "2", "-o", str(tmp_path / "rules.toml")],
        env=env.env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert cal.returncode == 0, cal.stderr + cal.stdout
    assert (tmp_path / "rules.toml").read_text("utf-8").strip()
