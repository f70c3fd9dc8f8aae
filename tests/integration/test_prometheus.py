"""The shipped Prometheus rules and Grafana dashboard against a real worker and real Prometheus.

A worker on the embedded broker decides the demo answers twice (two phases, so every counter
has an earlier sample and `rate()` sees an increase), with dead letters and duplicates in both;
a `citegate review` server follows the same topics and one held answer is reviewed between the
phases. The real `prometheus` binary scrapes both every second with the repo's prometheus.yml
(targets and intervals replaced) and the repo's rules files. Then every recording rule's expression, every
recorded series, and every Grafana panel (and template variable) query must return data.
Missing `prometheus` skips locally and fails under `CI=true`.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import math
import re
import shutil
import subprocess
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import aiohttp
import orjson
import pytest

from stream.kafka.embedded import find_free_port
from tests.integration.conftest import Events, Stack, StackFactory, demo_answers, service_missing
from tests.integration.review_helpers import ReviewEnv, ReviewServer, api_queue_ids

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
PROMETHEUS_DIR = REPO / "deploy" / "prometheus"
DASHBOARDS_DIR = REPO / "deploy" / "grafana" / "dashboards"
ALL_STATUSES = {"accept", "reject", "manual_review", "regenerate_or_abstain"}
POISON = [(b"k-json", b'{"answer": "unterminated'), (b"k-schema", b'{"answer": 5}')]
"""Two inputs the worker dead-letters (not_json, schema_invalid), produced in each phase."""

# Grafana variables -> values for a query against the test's 1 s scrapes. `$mode` is a single
# value in practice; every other version variable is "All" (`.*`).
GRAFANA_FIXED = {
    "__rate_interval": "30s",
    "__interval": "15s",
    "__range": "5m",
    "__range_s": "300",
    "mode": "live",
}
GRAFANA_VAR = re.compile(r"\$\{(\w+)(?::[^}]*)?\}|\[\[(\w+)\]\]|\$(\w+)")
LABEL_VALUES = re.compile(r"^\s*label_values\((?:(.*),\s*)?(\w+)\)\s*$", re.S)


# -- prometheus --------------------------------------------------------------------------------


@dataclass
class Prometheus:
    """One `prometheus` subprocess on a loopback port, with its own TSDB directory."""

    proc: subprocess.Popen[bytes]
    port: int
    log_path: Path
    log_file: IO[bytes]

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def log_tail(self, limit: int = 4000) -> str:
        return self.log_path.read_bytes()[-limit:].decode("utf-8", "replace")

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.proc.wait(timeout=10)
        self.log_file.close()

    async def api(self, path: str, **params: str) -> Any:
        async with (
            aiohttp.ClientSession() as session,
            session.get(self.url(path), params=params, timeout=aiohttp.ClientTimeout(10)) as resp,
        ):
            body = await resp.json()
        if body.get("status") != "success":
            raise AssertionError(f"{path} {params}: {body.get('errorType')}: {body.get('error')}")
        return body["data"]

    async def query(self, expr: str, at: float | None = None) -> list[Any]:
        """Instant query; the result as a list of samples (a scalar is one sample)."""
        params = {"query": expr}
        if at is not None:
            params["time"] = f"{at:.3f}"
        data = await self.api("/api/v1/query", **params)
        if data["resultType"] in ("scalar", "string"):
            return [{"metric": {}, "value": data["result"]}]
        return list(data["result"])

    async def value(self, expr: str) -> float:
        """The single value of `expr`, NaN when it returns nothing."""
        result = await self.query(expr)
        return float(result[0]["value"][1]) if result else math.nan


def prometheus_config(target: str, rules_dir: Path, review_target: str) -> str:
    """The repo's prometheus.yml for the test: targets, 1 s intervals, rules from `rules_dir`.

    Plain text edits, each asserted, so a change to the shipped file fails here loudly.
    """
    text = (PROMETHEUS_DIR / "prometheus.yml").read_text("utf-8")
    edits = [
        (r"(?m)^(\s*-\s*)citegate:6066\s*$", rf"\g<1>{target}"),
        (r"(?m)^(\s*-\s*)citegate-review:8088\s*$", rf"\g<1>{review_target}"),
        (r"(?m)^(\s*scrape_interval:\s*)15s\s*$", r"\g<1>1s"),
        (r"(?m)^(\s*evaluation_interval:\s*)15s\s*$", r"\g<1>1s"),
        (r"(?m)^(\s*scrape_timeout:\s*)10s\s*$", r"\g<1>1s"),
        (r"(?m)^(\s*-\s*)rules/\*\.yml\s*$", rf"\g<1>{rules_dir}/*.yml"),
    ]
    for pattern, replacement in edits:
        text, n = re.subn(pattern, replacement, text)
        assert n, f"deploy/prometheus/prometheus.yml no longer matches {pattern!r}"
    assert re.search(r"(?m)^\s*-\s*job_name:\s*citegate\s*$", text), "job `citegate` is missing"
    return text


@pytest.fixture
def start_prometheus(tmp_path: Path) -> Iterator[Callable[[str, str], Prometheus]]:
    """`start_prometheus(worker, review)` (`127.0.0.1:PORT` each) -> a running Prometheus
    scraping a worker and a review server."""
    binary = shutil.which("prometheus")
    if binary is None:
        service_missing(
            "the prometheus binary is not on PATH (Debian package `prometheus`; .ci/run installs it)"
        )
    started: list[Prometheus] = []

    def start(target: str, review_target: str) -> Prometheus:
        root = tmp_path / "prometheus"
        root.mkdir()
        config = root / "prometheus.yml"
        config.write_text(
            prometheus_config(target, PROMETHEUS_DIR / "rules", review_target), "utf-8"
        )
        port = find_free_port()
        log_path = root / "prometheus.log"
        log_file = log_path.open("ab")
        proc = subprocess.Popen(
            [
                binary,
                f"--config.file={config}",
                f"--storage.tsdb.path={root / 'data'}",
                f"--web.listen-address=127.0.0.1:{port}",
                "--log.level=warn",
            ],
            cwd=root,
            stdin=subprocess.DEVNULL,
            stdout=log_file,
            stderr=subprocess.STDOUT,
        )
        prom = Prometheus(proc, port, log_path, log_file)
        started.append(prom)
        return prom

    yield start
    for prom in started:
        prom.close()


async def wait_until(
    prom: Prometheus,
    what: str,
    check: Callable[[], Any],
    wait_s: float = 20.0,
    *,
    required: bool = True,
) -> Any:
    """Poll the async `check()` until it returns something truthy; after `wait_s`, fail (or
    return the last result when not `required`)."""
    deadline = time.monotonic() + wait_s
    last: Any = None
    while True:
        if prom.proc.poll() is not None:
            pytest.fail(f"prometheus exited ({prom.proc.returncode})\n{prom.log_tail()}")
        with contextlib.suppress(aiohttp.ClientError, TimeoutError):
            last = await check()
            if last:
                return last
        if time.monotonic() > deadline:
            if not required:
                return last
            pytest.fail(
                f"timed out after {wait_s:.0f}s waiting for {what} (last: {last!r})\n"
                f"--- prometheus log ---\n{prom.log_tail()}",
                pytrace=False,
            )
        await asyncio.sleep(0.2)


# -- workload ----------------------------------------------------------------------------------


async def run_phase(stack: Stack, phase: int) -> None:
    """Decide every demo answer once more (new ids), plus one duplicate and the poison inputs."""
    answers = []
    for a in demo_answers():
        b = copy.deepcopy(a)
        b["answer_id"] = f"{a['answer_id']}-p{phase}"
        b["event_id"] = f"{a['event_id']}-p{phase}"
        answers.append(b)
    records = [(str(a["answer_id"]).encode(), orjson.dumps(a)) for a in answers]
    records.append(records[0])  # same event_id: skipped as a duplicate
    await stack.produce([*records, *POISON])
    ids = {a["answer_id"] for a in answers}

    def done(events: Events) -> bool:
        decided = {e["answer_id"] for e in events[stack.topic_decisions]}
        return ids <= decided and len(events[stack.topic_dlq]) >= phase * len(POISON)

    events = await stack.read_until(stack.output_topics, done, what=f"phase {phase} outputs")
    statuses = {e["final_status"] for e in events[stack.topic_decisions] if e["answer_id"] in ids}
    assert statuses == ALL_STATUSES, statuses
    worker = stack.workers[0]
    await stack.wait_metric(worker, "citegate_duplicates_skipped_total", phase)
    await stack.wait_metric(worker, "citegate_dead_letters_total", phase * len(POISON))


# -- dashboards --------------------------------------------------------------------------------


def grafana_substitute(expr: str) -> str:
    def value(m: re.Match[str]) -> str:
        name = m.group(1) or m.group(2) or m.group(3)
        return GRAFANA_FIXED.get(name, ".*")

    return GRAFANA_VAR.sub(value, expr)


def dashboard_queries() -> list[tuple[str, str]]:
    """(where, PromQL) for every panel target and every `label_values` template variable."""
    files = sorted(DASHBOARDS_DIR.rglob("*.json"))
    assert files, f"no Grafana dashboard under {DASHBOARDS_DIR}"
    out: list[tuple[str, str]] = []

    def panels(items: list[Any], file: str) -> None:
        for p in items:
            for t in p.get("targets", []):
                if t.get("expr") and not t.get("hide"):
                    where = f"{file}: panel {p.get('title')!r} target {t.get('refId', '?')}"
                    out.append((where, grafana_substitute(t["expr"])))
            panels(p.get("panels", []), file)

    for path in files:
        dash = json.loads(path.read_text("utf-8"))
        dash = dash.get("dashboard", dash)
        name = path.relative_to(REPO).as_posix()
        panels(dash.get("panels", []), name)
        for row in dash.get("rows", []):  # the pre-5.0 layout
            panels(row.get("panels", []), name)
        for var in dash.get("templating", {}).get("list", []):
            query = var.get("query")
            query = query.get("query") if isinstance(query, dict) else query
            if var.get("type") != "query" or not isinstance(query, str):
                continue
            m = LABEL_VALUES.match(query)
            if m and m.group(1):
                promql = f"count by ({m.group(2)}) ({m.group(1)})"
            elif m:
                continue  # label_values(label): every series; nothing to evaluate
            else:
                promql = query
            out.append((f"{name}: variable ${var.get('name')}", grafana_substitute(promql)))
    return out


def finite(result: list[Any]) -> bool:
    return any(math.isfinite(float(s["value"][1])) for s in result)


# -- the test ----------------------------------------------------------------------------------


@pytest.fixture
async def review_env(make_stack: StackFactory) -> AsyncIterator[ReviewEnv]:
    env = ReviewEnv(await make_stack())
    try:
        yield env
    finally:
        env.close()


async def test_rules_and_dashboards_return_data_from_a_real_prometheus(
    review_env: ReviewEnv, start_prometheus: Callable[[str, str], Prometheus]
) -> None:
    started = time.monotonic()
    stack = review_env.stack
    worker = await stack.start_worker()
    await run_phase(stack, 1)
    review = await review_env.start_server()

    prom = start_prometheus(f"127.0.0.1:{worker.web_port}", f"127.0.0.1:{review.port}")
    await wait_until(prom, "prometheus to be ready", lambda: ready(prom))

    async def targets_up() -> bool:
        data = await prom.api("/api/v1/targets", state="active")
        up = {t["labels"].get("job") for t in data["activeTargets"] if t["health"] == "up"}
        return {"citegate", "citegate-review"} <= up

    await wait_until(prom, "the citegate and citegate-review targets to be up", targets_up)

    async def scrapes() -> float:
        return await prom.value('sum(count_over_time(up{job="citegate"}[10m]))')

    # Phase 1's counters need an earlier sample before phase 2 moves them; so do the review
    # counters before the review below.
    await wait_until(prom, "2 scrapes", lambda: at_least(scrapes, 2))
    await review_one(review_env, review, "demo-007-p1")
    await run_phase(stack, 2)

    async def phase_two_scraped() -> bool:
        answers = await prom.value('sum(citegate_answers_total{job="citegate"})')
        dups = await prom.value('sum(citegate_duplicates_skipped_total{job="citegate"})')
        reviews = await prom.value('sum(citegate_reviews_total{job="citegate-review"})')
        return answers >= 20 and dups >= 2 and reviews >= 1

    await wait_until(prom, "phase 2 in prometheus", phase_two_scraped)
    await wait_until(prom, "5 scrapes", lambda: at_least(scrapes, 5))

    # Every rule loaded from the repo's files, none failing to evaluate.
    groups = (await prom.api("/api/v1/rules"))["groups"]
    rules = [r for g in groups for r in g["rules"]]
    recording = {r["name"]: r["query"] for r in rules if r["type"] == "recording"}
    alerting = [r["name"] for r in rules if r["type"] == "alerting"]
    in_files = rule_names(PROMETHEUS_DIR / "rules")
    assert sorted(recording) == sorted(in_files["record"]), "recording rules loaded != in files"
    assert sorted(alerting) == sorted(in_files["alert"]), "alerts loaded != in files"
    broken = [f"{r['name']}: {r.get('lastError')}" for r in rules if r.get("health") == "err"]
    assert not broken, "rules failing to evaluate:\n" + "\n".join(broken)

    # (a) Recording rules: the expression and, once evaluated, the recorded series.
    async def recorded_all() -> bool:
        return all([finite(await prom.query(name)) for name in recording])

    # Bounded; whatever is still missing afterwards is reported below with everything else.
    await wait_until(prom, "recorded series", recorded_all, 10, required=False)
    at = time.time()
    problems: list[str] = []
    for name, expr in recording.items():
        for what, q in ((f"{name} (expression)", expr), (f"{name} (recorded series)", name)):
            result = await prom.query(q, at)
            if not result:
                problems.append(f"no data: {what}: {q}")
            elif not finite(result):
                problems.append(f"only NaN/Inf: {what}: {q}")

    # (b) Every Grafana panel target and template variable query.
    empty_dash: list[str] = []
    nan_dash: list[str] = []
    queries = dashboard_queries()
    for where, expr in queries:
        try:
            result = await prom.query(expr, at)
        except AssertionError as exc:
            empty_dash.append(f"error: {where}: {exc}")
            continue
        if not result:
            empty_dash.append(f"no data: {where}: {expr}")
        elif not finite(result):
            nan_dash.append(f"{where}: {expr}")
    if nan_dash:  # 0/0 over a window without traffic is NaN: legitimate, but worth seeing
        print("dashboard queries with only NaN/Inf values:\n" + "\n".join(nan_dash))

    # The dead letters fired their alert (no `for:`).
    async def dead_letter_alert() -> bool:
        alerts = (await prom.api("/api/v1/alerts"))["alerts"]
        return any(a["labels"].get("alertname") == "CitegateDeadLetters" for a in alerts)

    await wait_until(prom, "CitegateDeadLetters to fire", dead_letter_alert)

    failures = problems + empty_dash
    assert not failures, f"{len(failures)} queries failed:\n" + "\n".join(failures)
    print(
        f"{len(recording)} recording rules (expression + series), {len(queries)} dashboard"
        f" queries: all returned data ({time.monotonic() - started:.1f}s)"
    )


async def review_one(env: ReviewEnv, server: ReviewServer, answer_id: str) -> None:
    """Review one held answer through the API, labelling every claim `supported`."""
    await wait_until_queued(server, env.token, answer_id)
    headers = {"Authorization": f"Bearer {env.token}"}
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{server.base}/api/answers/{answer_id}", headers=headers) as resp:
            claims = (await resp.json())["claims"]
        body = {
            "decision": "publish",
            "claims": [{"claim_id": c["claim_id"], "label": "supported"} for c in claims],
        }
        async with http.post(
            f"{server.base}/api/answers/{answer_id}/review", json=body, headers=headers
        ) as resp:
            assert resp.status == 201, await resp.text()


async def wait_until_queued(server: ReviewServer, token: str, answer_id: str) -> None:
    deadline = time.monotonic() + 20
    while answer_id not in await api_queue_ids(server, token):
        if time.monotonic() > deadline:
            pytest.fail(f"{answer_id} never reached the review queue\n{server.log()}")
        await asyncio.sleep(0.1)


async def ready(prom: Prometheus) -> bool:
    async with (
        aiohttp.ClientSession() as session,
        session.get(prom.url("/-/ready"), timeout=aiohttp.ClientTimeout(total=1)) as resp,
    ):
        return resp.status == 200


async def at_least(value: Callable[[], Any], minimum: float) -> bool:
    v = await value()
    return not math.isnan(v) and v >= minimum


def rule_names(rules_dir: Path) -> dict[str, list[str]]:
    """`record:` and `alert:` names in the rules files (the files are flat, one rule a line)."""
    out: dict[str, list[str]] = {"record": [], "alert": []}
    for path in sorted(rules_dir.glob("*.yml")):
        for kind, name in re.findall(
            r"(?m)^\s*-\s*(record|alert):\s*(\S+)\s*$", path.read_text("utf-8")
        ):
            out[kind].append(name)
    return out
