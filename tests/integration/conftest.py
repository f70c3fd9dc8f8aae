"""Fixtures for the stream-stage integration tests: a real broker, real worker processes.

* `broker_bootstrap` (session): `CITEGATE_TEST_BROKER` (`host:port` or `kafka://…`) when set,
  else the embedded Tansu broker, started once and stopped at the end of the session.
* `postgres_dsn` (session) and `postgres_schema_url`: the real PostgreSQL server
  (`CITEGATE_TEST_POSTGRES_DSN`, default `postgresql://postgres@127.0.0.1:5432/test`) and a
  fresh schema per test, dropped afterwards.
* `make_stack` (function): `await make_stack(env=…, store=…)` gives a fresh namespace (unique
  topics and group id), a corpus store with the demo corpus imported, and the helpers
  `start_worker()`, `produce()`, `read_until()`, `wait_committed()` and `scrape()`. Every worker
  it started is stopped at teardown (SIGTERM, then SIGKILL); on failure the worker logs are
  printed.

A missing service skips the tests that need it locally and fails them under `CI=true`.
Nothing here sleeps and hopes: every wait polls a condition under a bounded deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import IO, Any, NoReturn
from urllib.parse import urlsplit, urlunsplit

import aiohttp
import asyncpg
import orjson
import pytest
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient
from prometheus_client.parser import text_string_to_metric_families

from stream.corpus.jsonfile import iter_documents
from stream.corpus.store import open_store
from stream.kafka.clients import bootstrap_servers
from stream.kafka.embedded import BrokerStartError, EmbeddedBroker, create_topics, find_free_port
from stream.secret import redact_url
from stream.verify.citations import sha256_hex
from stream.verify.model import Document

PARTITIONS = 4
SESSION_TIMEOUT_MS = 2000
DEFAULT_POSTGRES_DSN = "postgresql://postgres@127.0.0.1:5432/test"
DEMO_CORPUS = Path(str(resources.files("stream").joinpath("demo", "corpus.jsonl")))
DEMO_ANSWERS = Path(str(resources.files("stream").joinpath("demo", "answers.jsonl")))

Events = dict[str, list["Event"]]


def service_missing(reason: str) -> NoReturn:
    """Skip locally; under CI a missing service is a failure, not a silent skip."""
    if os.environ.get("CI") == "true":
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)


def demo_answers() -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in DEMO_ANSWERS.read_bytes().splitlines() if line]


def document(document_id: str, version: str, text: str, **meta: str) -> Document:
    return Document(document_id, version, text, sha256_hex(text), **meta)


# -- broker ------------------------------------------------------------------------------------


async def _probe_broker(bootstrap: str) -> None:
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=5000)
    try:
        async with asyncio.timeout(8):
            await admin.start()
            await admin.describe_cluster()
    finally:
        with contextlib.suppress(Exception):
            await admin.close()


@pytest.fixture(scope="session")
def broker_bootstrap() -> Iterator[str]:
    """`host:port[,host:port]` of a running Kafka-compatible broker for the whole session."""
    configured = os.environ.get("CITEGATE_TEST_BROKER", "").strip()
    if configured:
        bootstrap = ",".join(bootstrap_servers(configured))
        try:
            asyncio.run(_probe_broker(bootstrap))
        except Exception as exc:  # noqa: BLE001 — whatever the failure, there is no broker
            service_missing(
                f"CITEGATE_TEST_BROKER={configured} is not reachable ({type(exc).__name__}: {exc})"
            )
        yield bootstrap
        return
    try:
        broker = EmbeddedBroker().start()
    except (BrokerStartError, OSError) as exc:
        service_missing(f"the embedded broker could not start: {exc}")
    try:
        yield broker.bootstrap
    finally:
        broker.stop()


# -- PostgreSQL --------------------------------------------------------------------------------


def with_query(dsn: str, **params: str) -> str:
    return dsn + ("&" if "?" in dsn else "?") + "&".join(f"{k}={v}" for k, v in params.items())


def with_address(dsn: str, host: str, port: int) -> str:
    """The DSN pointed at another host:port (user and password kept)."""
    parts = urlsplit(dsn)
    userinfo = parts.netloc.rpartition("@")[0]
    netloc = f"{userinfo}@{host}:{port}" if userinfo else f"{host}:{port}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


@pytest.fixture(scope="session")
def postgres_dsn() -> str:
    """DSN of the real PostgreSQL server; skip locally / fail under CI when unreachable."""
    dsn = os.environ.get("CITEGATE_TEST_POSTGRES_DSN", DEFAULT_POSTGRES_DSN)

    async def probe() -> None:
        conn = await asyncpg.connect(dsn, timeout=3)
        await conn.close()

    try:
        asyncio.run(probe())
    except (OSError, TimeoutError, asyncpg.PostgresError) as exc:
        service_missing(
            f"PostgreSQL not reachable at {redact_url(dsn)} ({type(exc).__name__}: {exc})"
        )
    return dsn


@pytest.fixture
def postgres_schema_url(postgres_dsn: str) -> Iterator[str]:
    """A store URL with a fresh schema (`?schema=…`), dropped after the test."""
    schema = f"citegate_it_{uuid.uuid4().hex[:12]}"
    yield with_query(postgres_dsn, schema=schema)

    async def drop() -> None:
        conn = await asyncpg.connect(postgres_dsn, timeout=3)
        try:
            await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        finally:
            await conn.close()

    asyncio.run(drop())


# -- worker processes --------------------------------------------------------------------------


@dataclass
class Worker:
    """One `python -m stream.cli worker` subprocess."""

    proc: subprocess.Popen[bytes]
    web_port: int
    log_path: Path
    log_file: IO[bytes]
    started_at: float = field(default_factory=time.monotonic)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.web_port}{path}"

    def running(self) -> bool:
        return self.proc.poll() is None

    def log_tail(self, limit: int = 6000) -> str:
        data = self.log_path.read_bytes()
        return data[-limit:].decode("utf-8", "replace")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no commit, no leave-group — a crash."""
        if self.running():
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    async def stop(self, wait_s: float = 20.0) -> int:
        """SIGTERM and wait (bounded) for a clean exit; SIGKILL if it does not come."""
        if self.running():
            self.proc.send_signal(signal.SIGTERM)
        try:
            return await asyncio.to_thread(self.proc.wait, wait_s)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return await asyncio.to_thread(self.proc.wait, 10)

    def close(self) -> None:
        """Teardown: SIGTERM, then SIGKILL; always reaps the process."""
        if self.running():
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.proc.wait(timeout=10)
        self.log_file.close()


@dataclass(frozen=True, slots=True)
class Event:
    """One record read back from a topic, value parsed (JSON) when it parses."""

    topic: str
    partition: int
    offset: int
    timestamp: int
    key: bytes | None
    raw: bytes | None
    value: Any

    def __getitem__(self, name: str) -> Any:
        return self.value[name]

    def get(self, name: str, default: Any = None) -> Any:
        return self.value.get(name, default) if isinstance(self.value, dict) else default


def _parse(raw: bytes | None) -> Any:
    if raw is None:
        return None
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        return raw


def metric_value(families: Mapping[str, Any], sample: str, **labels: str) -> float:
    """Sum of the samples named `sample` whose labels include `labels` (0 when absent)."""
    total = 0.0
    for family in families.values():
        for s in family.samples:
            if s.name == sample and all(s.labels.get(k) == v for k, v in labels.items()):
                total += s.value
    return total


class Stack:
    """One test's namespace: topics, group, store, env, the workers it started."""

    def __init__(
        self, bootstrap: str, root: Path, env: Mapping[str, str], store: str | None
    ) -> None:
        self.bootstrap = bootstrap
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        ns = f"it-{uuid.uuid4().hex[:12]}"
        self.namespace = ns
        self.group_id = f"{ns}-group"
        self.topic_answers = f"{ns}.answers"
        self.topic_verdicts = f"{ns}.claim-verdicts"
        self.topic_decisions = f"{ns}.decisions"
        self.topic_dlq = f"{ns}.answers.dlq"
        self.topic_released = f"{ns}.released"
        self.store = store or f"sqlite:///{root / 'corpus.db'}"
        base = {k: v for k, v in os.environ.items() if not k.startswith("CITEGATE_")}
        self.env: dict[str, str] = {
            **base,
            "PYTHONUNBUFFERED": "1",
            "CITEGATE_TOPIC_ANSWERS": self.topic_answers,
            "CITEGATE_TOPIC_VERDICTS": self.topic_verdicts,
            "CITEGATE_TOPIC_DECISIONS": self.topic_decisions,
            "CITEGATE_TOPIC_DLQ": self.topic_dlq,
            "CITEGATE_TOPIC_RELEASED": self.topic_released,
            "CITEGATE_GROUP_ID": self.group_id,
            "CITEGATE_SESSION_TIMEOUT_MS": str(SESSION_TIMEOUT_MS),
            "CITEGATE_PARTITIONS": str(PARTITIONS),
            "CITEGATE_FORCE_REVIEW_DOMAINS": "medical",
            "CITEGATE_LOG_LEVEL": "info",
            **env,
        }
        self.workers: list[Worker] = []
        self.produced_end: dict[TopicPartition, int] = {}
        """Next offset after the last record this stack produced, per answers partition."""

    @property
    def output_topics(self) -> list[str]:
        return [self.topic_verdicts, self.topic_decisions, self.topic_dlq]

    async def setup(self, documents: Iterable[Document]) -> None:
        store = open_store(self.store)
        try:
            await store.put_many([*iter_documents(DEMO_CORPUS), *documents])
        finally:
            await store.close()
        await create_topics(
            self.bootstrap,
            [self.topic_answers, *self.output_topics, self.topic_released],
            PARTITIONS,
        )

    # -- workers ---------------------------------------------------------------------------

    async def start_worker(
        self,
        *,
        ready_timeout: float = 30.0,
        env: Mapping[str, str] | None = None,
        processes: int = 1,
    ) -> Worker:
        """Launch a worker on this namespace and wait (bounded) until /readyz answers 200.

        `processes` > 1 starts `citegate worker --processes N`: a supervisor whose /readyz
        answers 200 once every child is ready.
        """
        if processes > 1:
            ready_timeout = max(ready_timeout, 30.0 * processes)
        worker = self._spawn(env or {}, processes)
        n = len(self.workers) - 1
        deadline = time.monotonic() + ready_timeout
        async with aiohttp.ClientSession() as session:
            while True:
                if not worker.running():
                    pytest.fail(
                        f"worker {n} exited with code {worker.proc.returncode} before it was "
                        f"ready\n--- {worker.log_path} ---\n{worker.log_tail()}",
                        pytrace=False,
                    )
                with contextlib.suppress(aiohttp.ClientError, TimeoutError):
                    async with session.get(
                        worker.url("/readyz"), timeout=aiohttp.ClientTimeout(total=1)
                    ) as resp:
                        if resp.status == 200:
                            return worker
                if time.monotonic() > deadline:
                    pytest.fail(
                        f"worker {n} was not ready within {ready_timeout:.0f}s\n"
                        f"--- {worker.log_path} ---\n{worker.log_tail()}",
                        pytrace=False,
                    )
                await asyncio.sleep(0.1)

    def _spawn(self, env: Mapping[str, str], processes: int = 1) -> Worker:
        port = find_free_port()
        log_path = self.root / f"worker-{len(self.workers)}.log"
        log_file = log_path.open("ab")
        cmd = [
            sys.executable,
            "-m",
            "stream.cli",
            "worker",
            "--broker",
            f"kafka://{self.bootstrap}",
            "--store",
            self.store,
            "--web-port",
            str(port),
            "--processes",
            str(processes),
        ]
        proc = subprocess.Popen(
            cmd,
            env={**self.env, **env},
            cwd=self.root,
            stdin=subprocess.DEVNULL,
            stdout=log_file,
            stderr=subprocess.STDOUT,
        )
        worker = Worker(proc, port, log_path, log_file)
        self.workers.append(worker)
        return worker

    async def get(self, worker: Worker, path: str) -> tuple[int, str]:
        async with (
            aiohttp.ClientSession() as session,
            session.get(worker.url(path), timeout=aiohttp.ClientTimeout(total=5)) as resp,
        ):
            return resp.status, await resp.text()

    async def scrape(self, worker: Worker) -> dict[str, Any]:
        """The worker's /metrics, parsed: family name -> family."""
        status, text = await self.get(worker, "/metrics")
        assert status == 200, text
        return {f.name: f for f in text_string_to_metric_families(text)}

    async def wait_metric(
        self, worker: Worker, sample: str, minimum: float, wait_s: float = 20.0, **labels: str
    ) -> float:
        deadline = time.monotonic() + wait_s
        while True:
            value = metric_value(await self.scrape(worker), sample, **labels)
            if value >= minimum:
                return value
            if time.monotonic() > deadline:
                self.fail(f"{sample}{labels or ''} stayed at {value}, wanted >= {minimum}")
            await asyncio.sleep(0.1)

    def fail(self, message: str) -> NoReturn:
        logs = "\n".join(
            f"--- worker {i} (pid {w.pid}, {'running' if w.running() else 'exited'}) ---\n"
            f"{w.log_tail(3000)}"
            for i, w in enumerate(self.workers)
        )
        pytest.fail(f"{message}\n{logs}", pytrace=False)

    def close(self, print_logs: bool) -> None:
        for i, w in enumerate(self.workers):
            w.close()
            if print_logs:
                text = w.log_path.read_bytes()[-20000:].decode("utf-8", "replace")
                print(f"--- worker {i} log ({w.log_path}) ---\n{text}")

    # -- Kafka -----------------------------------------------------------------------------

    async def produce(
        self,
        records: Iterable[tuple[bytes | None, bytes]],
        *,
        topic: str | None = None,
        chunk_size: int | None = None,
        pause_s: float = 0.0,
    ) -> list[tuple[int, int]]:
        """Send (key, value) records, acked; returns (partition, offset) of each, in order.

        With `chunk_size`, records go out in acknowledged chunks with `pause_s` between them
        (a steady background stream rather than one burst).
        """
        topic = topic or self.topic_answers
        items = list(records)
        producer = AIOKafkaProducer(
            bootstrap_servers=self.bootstrap,
            acks="all",
            enable_idempotence=False,
            linger_ms=2,
            max_request_size=16 * 1024 * 1024,
        )
        await producer.start()
        placed: list[tuple[int, int]] = []
        try:
            step = chunk_size or len(items) or 1
            for start in range(0, len(items), step):
                if start and pause_s:
                    await asyncio.sleep(pause_s)
                chunk = items[start : start + step]
                futures = [await producer.send(topic, key=k, value=v) for k, v in chunk]
                for meta in await asyncio.gather(*futures):
                    placed.append((meta.partition, meta.offset))
                    tp = TopicPartition(topic, meta.partition)
                    self.produced_end[tp] = max(self.produced_end.get(tp, 0), meta.offset + 1)
        finally:
            await producer.stop()
        return placed

    async def produce_answers(
        self, answers: Iterable[Mapping[str, Any]], **kwargs: Any
    ) -> list[tuple[int, int]]:
        return await self.produce(
            [(str(a["answer_id"]).encode(), orjson.dumps(a)) for a in answers], **kwargs
        )

    async def read_until(
        self,
        topics: Iterable[str],
        predicate: Callable[[Events], bool],
        wait_s: float = 30.0,
        what: str = "the expected events",
    ) -> Events:
        """Read `topics` from the beginning (no consumer group) until `predicate(events)`.

        Returns every event read so far, per topic, in partition order. Fails with the counts
        read and the worker logs when the deadline passes first.
        """
        topics = list(topics)
        events: Events = {t: [] for t in topics}
        consumer = AIOKafkaConsumer(
            bootstrap_servers=self.bootstrap,
            group_id=None,
            enable_auto_commit=False,
            auto_offset_reset="earliest",
            fetch_max_wait_ms=100,
        )
        await consumer.start()
        deadline = time.monotonic() + wait_s
        try:
            tps: list[TopicPartition] = []
            for t in topics:
                parts = consumer.partitions_for_topic(t)
                while not parts:
                    if time.monotonic() > deadline:
                        self.fail(f"topic {t} does not exist")
                    await consumer._client.force_metadata_update()
                    parts = consumer.partitions_for_topic(t)
                tps.extend(TopicPartition(t, p) for p in sorted(parts))
            consumer.assign(tps)
            await consumer.seek_to_beginning(*tps)
            while not predicate(events):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    counts = ", ".join(f"{t}: {len(v)}" for t, v in events.items())
                    self.fail(f"timed out after {wait_s:.0f}s waiting for {what} ({counts})")
                batches = await consumer.getmany(timeout_ms=int(min(remaining, 0.2) * 1000) + 1)
                for tp, recs in batches.items():
                    events[tp.topic].extend(
                        Event(
                            r.topic,
                            r.partition,
                            r.offset,
                            r.timestamp,
                            r.key,
                            r.value,
                            _parse(r.value),
                        )
                        for r in recs
                    )
        finally:
            await consumer.stop()
        return events

    async def committed(self) -> dict[TopicPartition, int]:
        """The group's committed input offsets (OffsetFetch; the group is not joined)."""
        consumer = AIOKafkaConsumer(
            bootstrap_servers=self.bootstrap, group_id=self.group_id, enable_auto_commit=False
        )
        await consumer.start()
        try:
            out = {}
            for tp in self.produced_end:
                offset = await consumer.committed(tp)
                out[tp] = -1 if offset is None else offset
            return out
        finally:
            await consumer.stop()

    async def wait_committed(self, wait_s: float = 30.0) -> None:
        """Wait until the group committed past everything this stack produced.

        The stage commits an input offset only after that input's outputs are acknowledged,
        so afterwards every output of every produced input is on the broker: a safe point to
        assert that something did *not* happen (no second decision, no extra verdict).
        """
        deadline = time.monotonic() + wait_s
        while True:
            committed = await self.committed()
            behind = {
                tp: (committed.get(tp, 0), end)
                for tp, end in self.produced_end.items()
                if committed.get(tp, 0) < end
            }
            if not behind:
                return
            if time.monotonic() > deadline:
                self.fail(f"group {self.group_id} did not commit past its inputs: {behind}")
            await asyncio.sleep(0.1)


StackFactory = Callable[..., Awaitable[Stack]]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    setattr(item, f"citegate_rep_{report.when}", report)
    return report


@pytest.fixture
def make_stack(
    broker_bootstrap: str, tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[StackFactory]:
    """`await make_stack(env={...}, store=URL, documents=[...])` -> a fresh `Stack`."""
    stacks: list[Stack] = []

    async def factory(
        *,
        env: Mapping[str, str] | None = None,
        store: str | None = None,
        documents: Iterable[Document] = (),
    ) -> Stack:
        stack = Stack(broker_bootstrap, tmp_path / f"stack-{len(stacks)}", env or {}, store)
        stacks.append(stack)
        await stack.setup(documents)
        return stack

    yield factory
    report = getattr(request.node, "citegate_rep_call", None)
    failed = report is None or report.failed
    for stack in stacks:
        stack.close(print_logs=failed)


@contextlib.asynccontextmanager
async def background(coro: Awaitable[Any]) -> AsyncIterator[asyncio.Task[Any]]:
    """Run `coro` as a task for the block; cancel it if still running when the block exits."""
    task = asyncio.ensure_future(coro)
    try:
        yield task
    finally:
        if not task.done():
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
