"""The measurements behind `citegate bench`, each against its floor, on one embedded broker.

Every worker is a real `citegate worker` subprocess, every floor a real subprocess too (the
bare loop, the seeds' pipeline), so both sides pay the same process and client costs. A
throughput run warms the consumer up, then drains a burst of answers: its rate runs from the
first input's to the last decision's broker timestamp (process start and group join excluded).
Every wait is bounded by `Sizes.timeout_s`.
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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import aiohttp
import orjson
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition

from stream.corpus.store import open_store
from stream.errors import CitegateError
from stream.kafka.embedded import create_topics, find_free_port
from stream.verify.citations import sha256_hex
from stream.verify.model import Document
from stream.worker.bench import procs, profile, synth

PARTITIONS = 4
WARM_START = 10_000_000
"""Answer numbers of warm-up answers (the measured ones count from 0)."""
SAMPLE_S = 0.1


class BenchError(CitegateError):
    """A benchmark step did not finish within its bound, or a process it started failed."""

    code = "bench_failed"


@dataclass(frozen=True, slots=True)
class Sizes:
    docs: int
    hot_docs: int
    """Documents the throughput, latency and scaling runs cite: a working set the cache holds
    (a stage in production mostly sees recent documents); the memory run cites all `docs`."""
    sentences: int
    answers: int
    """Answers of 4 claims in the throughput runs (a)."""
    scale_claims: int
    """Claims per scaling run (d): answers = scale_claims / claims per answer."""
    latency_s: float
    verify_answers: int
    cache_bytes: int
    timeout_s: float


FULL = Sizes(30_000, 2_000, 30, 6_000, 12_800, 10.0, 3_000, 32 << 20, 240.0)
QUICK = Sizes(1_500, 300, 30, 1_200, 2_560, 3.0, 600, 2 << 20, 90.0)


@dataclass(frozen=True, slots=True)
class Throughput:
    answers_s: float
    claims_s: float
    cpu_us_per_claim: float
    rss_max: int
    """Largest RSS of one process of the tree while the second half was processed."""
    cores: float = 0.0
    """CPU seconds of the process tree per second of the burst: cores it actually got."""
    broker_cores: float = 0.0
    """The same for the embedded broker (when the bench started it): the competition."""
    verdict_bytes: int = 0
    decision_bytes: int = 0
    rss_warm: int = 0
    """Largest RSS of one process of the tree after the warm-up, before the burst."""


@dataclass(frozen=True, slots=True)
class Latency:
    rate: float
    p50_ms: float
    p99_ms: float


@dataclass(frozen=True, slots=True)
class Variant:
    """A worker run of the tracing comparison: its name and the environment it differs by
    (`PYTHONPATH` to an earlier checkout, `OTEL_*` to turn tracing on)."""

    name: str
    env: dict[str, str] = field(default_factory=dict)


def trace_headers(i: int) -> list[tuple[str, bytes]]:
    """A distinct, sampled W3C trace context per answer (never the all-zero ids)."""
    return [("traceparent", f"00-{i + 1:032x}-{i + 1:016x}-01".encode())]


@dataclass
class Namespace:
    prefix: str = field(default_factory=lambda: f"bench-{uuid.uuid4().hex[:10]}")

    @property
    def answers(self) -> str:
        return f"{self.prefix}.answers"

    @property
    def verdicts(self) -> str:
        return f"{self.prefix}.verdicts"

    @property
    def decisions(self) -> str:
        return f"{self.prefix}.decisions"

    @property
    def group(self) -> str:
        return f"{self.prefix}-group"


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Bench:
    def __init__(self, bootstrap: str, root: Path, sizes: Sizes, log: Callable[[str], None]):
        self.bootstrap = bootstrap
        self.root = root
        self.sizes = sizes
        self.log = log
        self.store = f"sqlite:///{root / 'corpus.db'}"
        self.docs: list[synth.SynthDoc] = []
        self._payloads: dict[tuple[int, int, int, int, bool, str], list[tuple[bytes, bytes]]] = {}
        self._procs: list[subprocess.Popen[bytes]] = []
        self._logs: dict[int, Path] = {}
        self.profile_to: Path | None = None
        """Where the next single-process worker throughput run writes its py-spy samples."""
        self.profiled: Path | None = None
        self.broker_pids: list[int] = []
        """The embedded broker's process, when the bench started it (for its CPU share)."""

    # -- corpus and inputs -----------------------------------------------------------------

    async def setup(self) -> None:
        s = self.sizes
        self.docs = [synth.make_doc(i, s.sentences) for i in range(s.docs)]
        store = open_store(self.store)
        try:
            batch = 2000
            for start in range(0, len(self.docs), batch):
                await store.put_many(
                    Document(d.document_id, d.version, d.text, sha256_hex(d.text), d.title)
                    for d in self.docs[start : start + batch]
                )
        finally:
            await store.close()

    def doc_bytes(self) -> int:
        return sum(len(d.text.encode()) for d in self.docs) // max(len(self.docs), 1)

    def payloads(
        self,
        claims: int,
        count: int,
        seed: int = 1,
        start: int = 0,
        *,
        cold: bool = False,
        popularity: str = "uniform",
    ) -> list[tuple[bytes, bytes]]:
        """Answers as (key, value) records with distinct claim texts, citing the hot working
        set (or, `cold`, the whole corpus) uniformly or by Zipf popularity; ids from `start`
        on (warm-up answers use other ids, or the duplicate index would skip the measured
        ones)."""
        key = (claims, count, seed, start, cold, popularity)
        if key not in self._payloads:
            docs = self.docs if cold else self.docs[: self.sizes.hot_docs]
            made = synth.answers(count, docs, claims, seed + claims, start, popularity)
            self._payloads[key] = [(a["answer_id"].encode(), orjson.dumps(a)) for a in made]
        return self._payloads[key]

    # -- Kafka helpers -----------------------------------------------------------------------

    async def topics(self, ns: Namespace) -> None:
        await create_topics(self.bootstrap, [ns.answers, ns.verdicts, ns.decisions], PARTITIONS)

    async def produce(
        self, topic: str, records: Iterable[tuple[bytes, bytes]], *, traced: bool = False
    ) -> int:
        """Send as fast as the client goes; returns the earliest broker timestamp (ms).
        `traced`: every record carries its own W3C `traceparent` header, as from a generator."""
        producer = AIOKafkaProducer(
            bootstrap_servers=self.bootstrap, acks="all", linger_ms=5, max_batch_size=1 << 20
        )
        await producer.start()
        try:
            futures = [
                await producer.send(
                    topic, key=k, value=v, headers=trace_headers(i) if traced else None
                )
                for i, (k, v) in enumerate(records)
            ]
            return int(min(m.timestamp for m in await asyncio.gather(*futures)))
        finally:
            await producer.stop()

    async def _reader(self, topic: str) -> AIOKafkaConsumer:
        consumer = AIOKafkaConsumer(
            bootstrap_servers=self.bootstrap,
            group_id=None,
            enable_auto_commit=False,
            auto_offset_reset="earliest",
            fetch_max_wait_ms=100,
        )
        await consumer.start()
        deadline = time.monotonic() + 10
        parts = consumer.partitions_for_topic(topic)
        while not parts:
            if time.monotonic() > deadline:
                await consumer.stop()
                raise BenchError(f"topic {topic} does not exist")
            await consumer._client.force_metadata_update()
            parts = consumer.partitions_for_topic(topic)
        tps = [TopicPartition(topic, p) for p in sorted(parts)]
        consumer.assign(tps)
        await consumer.seek_to_beginning(*tps)
        return consumer

    async def sample_sizes(self, topic: str, limit: int = 400) -> int:
        """Mean value size of the first `limit` records of a topic."""
        consumer = await self._reader(topic)
        sizes: list[int] = []
        deadline = time.monotonic() + 10
        try:
            while len(sizes) < limit and time.monotonic() < deadline:
                for recs in (await consumer.getmany(timeout_ms=200)).values():
                    sizes.extend(len(r.value or b"") for r in recs)
        finally:
            await consumer.stop()
        return int(sum(sizes) / len(sizes)) if sizes else 0

    async def observe(
        self, topic: str, keys: set[bytes], pids: Sequence[int] = ()
    ) -> tuple[dict[bytes, int], list[tuple[int, procs.Usage]]]:
        """Read `topic` until every key has a record; sample the processes' usage meanwhile.

        Returns the first timestamp per key and (records seen, usage) samples.
        """
        consumer = await self._reader(topic)
        seen: dict[bytes, int] = {}
        samples: list[tuple[int, procs.Usage]] = []
        deadline = time.monotonic() + self.sizes.timeout_s
        try:
            while not keys <= seen.keys():
                if time.monotonic() > deadline:
                    raise BenchError(
                        f"{len(keys - seen.keys())} of {len(keys)} answers undecided after "
                        f"{self.sizes.timeout_s:.0f}s on {topic}"
                    )
                self._check_alive()
                batches = await consumer.getmany(timeout_ms=int(SAMPLE_S * 1000))
                for recs in batches.values():
                    for r in recs:
                        if r.key is not None:
                            seen.setdefault(r.key, r.timestamp)
                if pids:
                    samples.append((len(seen), procs.usage_of(pids)))
        finally:
            await consumer.stop()
        return seen, samples

    # -- processes --------------------------------------------------------------------------

    def _spawn(self, argv: list[str], env: dict[str, str], name: str) -> subprocess.Popen[bytes]:
        log: IO[bytes] = (self.root / f"{name}.log").open("ab")
        base = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("CITEGATE_", "OTEL_")) and k != "PYTHONPATH"
        }
        proc = subprocess.Popen(
            [sys.executable, "-m", *argv],
            env={**base, "PYTHONUNBUFFERED": "1", **env},
            cwd=self.root,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        self._procs.append(proc)
        self._logs[proc.pid] = self.root / f"{name}.log"
        return proc

    def _check_alive(self) -> None:
        for p in self._procs:
            if p.poll() is not None:
                tail = self._logs[p.pid].read_bytes()[-2000:].decode(errors="replace")
                raise BenchError(f"{p.args!r} exited with {p.returncode}:\n{tail}")

    async def stop(self, proc: subprocess.Popen[bytes]) -> None:
        self._procs.remove(proc)
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.to_thread(proc.wait, 30)
        except subprocess.TimeoutExpired:
            proc.kill()
            await asyncio.to_thread(proc.wait, 10)

    def close(self) -> None:
        for p in self._procs:
            if p.poll() is None:
                p.kill()
            p.wait(10)
        self._procs.clear()

    async def start_worker(
        self, ns: Namespace, processes: int = 1, variant: Variant | None = None
    ) -> tuple[Any, list[int]]:
        port = find_free_port()
        argv = [
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
        env = {
            "CITEGATE_TOPIC_ANSWERS": ns.answers,
            "CITEGATE_TOPIC_VERDICTS": ns.verdicts,
            "CITEGATE_TOPIC_DECISIONS": ns.decisions,
            "CITEGATE_TOPIC_DLQ": f"{ns.prefix}.dlq",
            "CITEGATE_GROUP_ID": ns.group,
            "CITEGATE_PARTITIONS": str(PARTITIONS),
            "CITEGATE_CACHE_BYTES": str(self.sizes.cache_bytes),
            "CITEGATE_TOPIC_RELEASED": f"{ns.prefix}.released",
            "CITEGATE_LOG_LEVEL": "warning",
            **(variant.env if variant is not None else {}),
        }
        proc = self._spawn(argv, env, f"worker-{ns.prefix}")
        deadline = time.monotonic() + 60
        async with aiohttp.ClientSession() as session:
            while True:
                self._check_alive()
                with contextlib.suppress(aiohttp.ClientError, TimeoutError):
                    async with session.get(
                        f"http://127.0.0.1:{port}/readyz", timeout=aiohttp.ClientTimeout(total=2)
                    ) as resp:
                        if resp.status == 200:
                            break
                if time.monotonic() > deadline:
                    tail = self._logs[proc.pid].read_bytes()[-2000:].decode(errors="replace")
                    raise BenchError(f"worker not ready within 60s:\n{tail}")
                await asyncio.sleep(0.1)
        return proc, procs.tree(proc.pid)

    def start_bare(self, ns: Namespace, claims: int, vbytes: int, dbytes: int) -> Any:
        argv = [
            "stream.worker.bench.bare",
            self.bootstrap,
            ns.group,
            ns.answers,
            ns.prefix,
            str(claims),
            str(vbytes),
            str(dbytes),
        ]
        return self._spawn(argv, {}, f"bare-{ns.prefix}")

    # -- measurements -----------------------------------------------------------------------

    async def throughput(
        self,
        claims: int,
        count: int,
        *,
        processes: int = 1,
        bare: tuple[int, int] | None = None,
        cold: bool = False,
        variant: Variant | None = None,
        popularity: str = "uniform",
    ) -> Throughput:
        """Answers/s from the first input's to the last decision's broker timestamp.

        The worker (or, with `bare=(verdict bytes, decision bytes)`, the bare loop) is started
        and warmed up first (group joined, caches primed), then `count` answers go out in one
        burst: the backlog is drained at full speed. Its CPU is the process tree's over the
        burst, divided by the claims. The warm-up cites most of the hot working set, so the
        corpus cache is warm; `cold` answers cite the whole corpus instead (the memory run).
        With `popularity="zipf"` the warm-up and the burst cite documents by popularity.
        """
        ns = Namespace()
        await self.topics(ns)
        traced = variant is not None
        if bare is None:
            proc, pids = await self.start_worker(ns, processes, variant)
        else:
            proc = self.start_bare(ns, claims, *bare)
            pids = [proc.pid]
        try:
            warm = self.payloads(
                4, self.sizes.hot_docs // 2, seed=3, start=WARM_START, popularity=popularity
            )
            await self.produce(ns.answers, warm, traced=traced)
            await self.observe(ns.decisions, {k for k, _ in warm})
            records = self.payloads(claims, count, cold=cold, popularity=popularity)
            spy = None
            if self.profile_to is not None and bare is None and processes == 1 and not cold:
                spy = profile.start(proc.pid, self.profile_to)
                if spy is None:
                    self.log("bench: py-spy not found (pip install py-spy); no profile")
                self.profiled, self.profile_to = self.profile_to, None
            before = procs.usage_of(pids)
            broker_before = procs.usage_of(self.broker_pids)
            started = time.monotonic()
            first_in = await self.produce(ns.answers, records, traced=traced)
            seen, samples = await self.observe(ns.decisions, {k for k, _ in records}, pids)
            wall = time.monotonic() - started
            broker_cpu = procs.usage_of(self.broker_pids).cpu_s - broker_before.cpu_s
            if spy is not None:
                profile.stop(spy)
        finally:
            await self.stop(proc)
        last_out = max(seen[k] for k, _ in records)
        rate = count / (max(last_out - first_in, 1) / 1000)
        after = samples[-1][1] if samples else before
        cpu = (after.cpu_s - before.cpu_s) / (count * claims) * 1e6
        rss = max(
            (max(u.rss_bytes.values(), default=0) for n, u in samples if n >= count / 2),
            default=0,
        )
        cores = (after.cpu_s - before.cpu_s) / wall
        vbytes = dbytes = 0
        if bare is None and claims == 4 and processes == 1 and not cold:
            vbytes = await self.sample_sizes(ns.verdicts)
            dbytes = await self.sample_sizes(ns.decisions)
        warm_rss = max(before.rss_bytes.values(), default=0)
        return Throughput(
            rate, rate * claims, cpu, rss, cores, broker_cpu / wall, vbytes, dbytes, warm_rss
        )

    async def latency(self, rate: float, vbytes: int, dbytes: int, *, bare: bool) -> Latency:
        """Input→decision latency at a steady offered rate (broker timestamps both ends)."""
        ns = Namespace()
        await self.topics(ns)
        total = max(int(rate * self.sizes.latency_s), 20)
        warm = self.payloads(4, 40, seed=7, start=WARM_START)
        records = self.payloads(4, total, seed=11)
        if bare:
            proc = self.start_bare(ns, 4, vbytes, dbytes)
        else:
            proc, _ = await self.start_worker(ns)
        try:
            await self.produce(ns.answers, warm)
            await self.observe(ns.decisions, {k for k, _ in warm})
            sent = await self.paced(ns.answers, records, rate)
            seen, _ = await self.observe(ns.decisions, set(sent) | {k for k, _ in warm})
        finally:
            await self.stop(proc)
        lat = [max(seen[k] - t, 0) for k, t in sent.items()]
        return Latency(rate, percentile(lat, 0.5), percentile(lat, 0.99))

    async def paced(
        self, topic: str, records: Sequence[tuple[bytes, bytes]], rate: float
    ) -> dict[bytes, int]:
        """Send at `rate` records/s; returns each key's broker timestamp (send time)."""
        producer = AIOKafkaProducer(bootstrap_servers=self.bootstrap, acks="all", linger_ms=0)
        await producer.start()
        try:
            start = time.monotonic()
            futures = []
            for i, (k, v) in enumerate(records):
                delay = start + i / rate - time.monotonic()
                if delay > 0:
                    await asyncio.sleep(delay)
                futures.append((k, await producer.send(topic, key=k, value=v)))
            return {k: (await f).timestamp for k, f in futures}
        finally:
            await producer.stop()

    def verify_vs_seed(self, popularity: str = "uniform") -> tuple[float, float, int]:
        """(citegate verify claims/s, seed pipeline claims/s, claims), process start included."""
        records = self.payloads(4, self.sizes.verify_answers, seed=5, popularity=popularity)
        answers_path = self.root / f"verify-answers-{popularity}.jsonl"
        corpus_path = self.root / f"verify-corpus-{popularity}.jsonl"
        answers_path.write_bytes(b"\n".join(v for _, v in records) + b"\n")
        cited = {c["document_id"] for _, v in records for c in orjson.loads(v)["citations"]}
        corpus_path.write_bytes(
            b"\n".join(orjson.dumps(d.to_obj()) for d in self.docs if d.document_id in cited)
            + b"\n"
        )
        claims = sum(len(orjson.loads(v)["claims"]) for _, v in records)
        verify = ["stream.cli", "verify", str(answers_path), "--corpus", str(corpus_path)]
        seed = ["stream.worker.bench.reference", str(answers_path), str(corpus_path)]
        return claims / self._timed(verify), claims / self._timed(seed), claims

    def _timed(self, argv: list[str]) -> float:
        base = {k: v for k, v in os.environ.items() if not k.startswith("CITEGATE_")}
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", *argv],
            env=base,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            timeout=self.sizes.timeout_s,
            check=False,
        )
        elapsed = time.perf_counter() - started
        if done.returncode not in (0, 1):
            raise BenchError(f"{argv[0]} failed: {done.stderr.decode(errors='replace')[-400:]}")
        return elapsed
