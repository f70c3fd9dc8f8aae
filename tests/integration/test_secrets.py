"""No password, API key or token reaches a log line, an error message, a repr or a metric.

One run is given all of them — the store password in its URL, the SASL password, the model API
key and a token in the model URL — and every byte the worker, the CLI and replay write (logs,
stdout, stderr, /metrics, /readyz, the replay report) is searched for each of them.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from stream.kafka.embedded import find_free_port
from tests.integration.conftest import (
    DEMO_ANSWERS,
    Events,
    StackFactory,
    demo_answers,
)
from tests.integration.test_replay import replay

pytestmark = pytest.mark.integration

STORE_PW = "st0re-Pw-1f9e2"
SASL_PW = "sasl-Pw-77c1d"
API_KEY = "sk-key-0b3a5e"
TOKEN = "tok-93d7aa"
SECRETS = (STORE_PW, SASL_PW, API_KEY, TOKEN)


def with_password(url: str, password: str) -> str:
    parts = urlsplit(url)
    user, _, host = parts.netloc.rpartition("@")
    netloc = f"{user or 'postgres'}:{password}@{host}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def assert_clean(where: str, text: str) -> None:
    for secret in SECRETS:
        assert secret not in text, f"{where} shows a secret:\n{text[-3000:]}"


async def test_no_secret_in_worker_cli_or_replay_output(
    postgres_schema_url: str, make_stack: StackFactory, tmp_path: Path
) -> None:
    store = with_password(postgres_schema_url, STORE_PW)  # trust auth accepts any password
    env = {
        "CITEGATE_SASL_USERNAME": "svc",
        "CITEGATE_SASL_PASSWORD": SASL_PW,
        "CITEGATE_LLM_API_KEY": API_KEY,
        "CITEGATE_LLM_URL": f"http://svc:{TOKEN}@127.0.0.1:9/v1?token={TOKEN}",
        "CITEGATE_LLM_MODEL": "none",
        "CITEGATE_LOG_LEVEL": "debug",
    }
    stack = await make_stack(store=store, env=env)
    worker = await stack.start_worker()
    answers = demo_answers()
    await stack.produce_answers(answers)
    await stack.produce([(b"poison", b"\xff not utf-8")])

    def done(events: Events) -> bool:
        decided = {e["answer_id"] for e in events[stack.topic_decisions]}
        return len(decided) == len(answers) and len(events[stack.topic_dlq]) >= 1

    await stack.read_until([stack.topic_decisions, stack.topic_dlq], done)
    captured = {
        "/metrics": (await stack.get(worker, "/metrics"))[1],
        "/readyz": (await stack.get(worker, "/readyz"))[1],
    }
    await worker.stop()
    captured["worker log"] = worker.log_path.read_text("utf-8", "replace")
    assert "settings:" in captured["worker log"], "the startup settings line is logged"
    assert "***" in captured["worker log"]

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "stream.cli", *args],
            env=stack.env,
            cwd=stack.root,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )

    unreachable = with_password(
        postgres_schema_url.replace(":5432", f":{find_free_port()}"), STORE_PW
    )
    runs = {
        "verify": cli("verify", str(DEMO_ANSWERS), "--corpus", store, "--format", "json"),
        "verify, store down": cli("verify", str(DEMO_ANSWERS), "--corpus", unreachable),
        "corpus versions": cli("corpus", "versions", "retention-policy", "--store", store),
        "corpus, store down": cli("corpus", "versions", "x", "--store", unreachable),
        "worker, bad port": cli("worker", "--store", store.replace(":5432", ":x")),
    }
    for name, proc in runs.items():
        assert "Traceback" not in proc.stderr, (name, proc.stderr)
        assert_clean(f"{name} stdout", proc.stdout)
        assert_clean(f"{name} stderr", proc.stderr)
    assert runs["verify, store down"].returncode == 2
    assert "***" in runs["verify, store down"].stderr

    proc = await replay(stack, "secrets-replay")
    captured["replay stdout"] = proc.stdout
    captured["replay stderr"] = proc.stderr
    captured["replay report"] = "".join(
        p.read_text("utf-8", "replace") for p in (stack.root / "replays").rglob("*") if p.is_file()
    )
    for where, text in captured.items():
        assert_clean(where, text)
