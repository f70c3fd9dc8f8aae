"""The fault suite: real workers on the embedded broker and the local PostgreSQL, one fault per
scenario, loopback only, every wait bounded. Prints one table of figures.

    python -m tests.faults.suite [--only sigkill,poison,...] [--json PATH]   (make faults)

Per scenario: valid answers sent, answers decided, lost (sent, never decided), duplicate
decisions left after deduplicating by event id (an answer decided twice under different ids),
accepts while the corpus was unavailable (wrong by definition: nothing is cached in that
scenario, so every accept would have read the store), and the time from the end of the fault
until every answer sent so far was decided. A harness task plays the supervisor: it restarts a
worker process that exited, as systemd or Kubernetes would; nothing else is restarted by hand.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import asyncpg
import orjson
from aiokafka import AIOKafkaConsumer

from stream.kafka.embedded import EmbeddedBroker, create_topics, find_free_port
from tests.faults.common import (
    DECIDE_WAIT_S,
    TARGET_RECOVER_S,
    Decisions,
    Row,
    Supervisor,
    demo_id,
    finish,
    new_stack,
    produce,
    workload,
)
from tests.faults.durable import durable_broker_restart, s3_store_paused
from tests.integration.conftest import DEFAULT_POSTGRES_DSN, Stack, with_address, with_query
from tests.integration.test_corpus_outage import TcpProxy

__all__ = ["SCENARIOS", "TARGET_RECOVER_S", "main", "run", "table"]

# -- scenarios ---------------------------------------------------------------------------------


async def sigkill(root: Path, bootstrap: str) -> Row:
    """Repeated SIGKILL of the only worker while answers keep arriving."""
    row = Row("SIGKILL worker x3")
    stack = await new_stack(root, bootstrap, "sigkill")
    decisions, sup = Decisions(stack), Supervisor(stack)
    try:
        await stack.start_worker()
        await decisions.start()
        sup.start()
        sent: list[dict[str, Any]] = []
        last_kill = time.monotonic()
        for round_ in range(4):
            batch = workload(f"k{round_}", 150)
            sent += batch
            await produce(stack, batch, chunk_size=50, pause_s=0.1)
            if round_ < 3:
                await asyncio.sleep(0.5)  # let it get into the batch
                for w in sup.live():
                    w.kill()
                last_kill = time.monotonic()
        took = await decisions.wait({a["answer_id"] for a in sent})
        row.recover_s = None if took is None else round(time.monotonic() - last_kill, 1)
        row.restarts = sup.restarts
        return finish(row, decisions, sent)
    finally:
        await sup.stop()
        await decisions.stop()
        stack.close(print_logs=False)


async def sigstop(root: Path, bootstrap: str) -> Row:
    """SIGSTOP one of two workers for 3x the session timeout, then SIGCONT."""
    row = Row("SIGSTOP 6 s (2 workers)")
    stack = await new_stack(root, bootstrap, "sigstop")
    decisions, sup = Decisions(stack), Supervisor(stack)
    try:
        frozen = await stack.start_worker()
        await stack.start_worker()
        await decisions.start()
        sup.start()
        first = workload("s0", 150)
        await produce(stack, first)
        frozen.proc.send_signal(signal.SIGSTOP)
        second = workload("s1", 150)
        await produce(stack, second, chunk_size=25, pause_s=0.5)
        await asyncio.sleep(max(0.0, 6.0 - 0.5 * 5))
        frozen.proc.send_signal(signal.SIGCONT)
        resumed = time.monotonic()
        took = await decisions.wait({a["answer_id"] for a in first + second})
        row.recover_s = None if took is None else round(time.monotonic() - resumed, 1)
        row.restarts = sup.restarts
        if frozen.running():
            row.notes.append("the stopped worker resumed by itself")
        return finish(row, decisions, first + second)
    finally:
        await sup.stop()
        await decisions.stop()
        stack.close(print_logs=False)


async def broker_restart(root: Path, bootstrap: str) -> Row:
    return await _broker_restart(root, reprovision=True)


async def broker_restart_bare(root: Path, bootstrap: str) -> Row:
    return await _broker_restart(root, reprovision=False)


async def topic_exists(bootstrap: str, topic: str, wait_s: float) -> bool:
    consumer = AIOKafkaConsumer(bootstrap_servers=bootstrap, group_id=None)
    await consumer.start()
    try:
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline:
            await consumer._client.force_metadata_update()
            if consumer.partitions_for_topic(topic):
                return True
            await asyncio.sleep(0.5)
        return False
    finally:
        await consumer.stop()


async def _broker_restart(root: Path, *, reprovision: bool) -> Row:
    """Kill the memory-only broker and start it again on the same port: a broker that lost its
    log (inputs, outputs, committed offsets, the duplicate index). With `reprovision` the
    platform recreates the input topic at once; without it the topics exist again only when a
    worker creates them (two workers, so both have to notice)."""
    name = "memory broker (loses its log): kill + restart" + (
        ", topics re-provisioned" if reprovision else ", topics not recreated"
    )
    row = Row(name)
    port = find_free_port()
    broker = EmbeddedBroker(port=port).start()
    stack = await new_stack(
        root,
        broker.bootstrap,
        "broker" + ("" if reprovision else "-bare"),
        env={
            "CITEGATE_STALL_S": "10",
            "CITEGATE_RESTORE_TIMEOUT_S": "15",
            "CITEGATE_LOG_LEVEL": "debug",
        },
    )
    decisions, sup = Decisions(stack), Supervisor(stack)
    try:
        await stack.start_worker()
        if not reprovision:
            await stack.start_worker()
        await decisions.start()
        sup.start()
        before = workload("b0", 100)
        await produce(stack, before)
        if await decisions.wait({a["answer_id"] for a in before}) is None:
            row.notes.append("answers before the restart were not all decided")
        broker.stop()
        await asyncio.sleep(2.0)
        broker = EmbeddedBroker(port=port).start()
        back = time.monotonic()
        if reprovision:
            # The platform re-provisions the topics at once.
            await create_topics(broker.bootstrap, [stack.topic_answers, *stack.output_topics], 4)
        elif not await topic_exists(broker.bootstrap, stack.topic_answers, DECIDE_WAIT_S):
            row.notes.append("no worker recreated the input topic")
            return finish(row, decisions, [])
        after = workload("b1", 100)
        stack.produced_end.clear()
        await produce(stack, after)
        await decisions.restart()
        took = await decisions.wait({a["answer_id"] for a in after})
        row.recover_s = None if took is None else round(time.monotonic() - back, 1)
        row.restarts = sup.restarts
        codes = sorted(set(sup.exit_codes))
        row.notes.append(
            f"worker exited {codes} and was restarted" if codes else "worker resumed by itself"
        )
        row.notes.append("decided before the kill are not counted again: the broker lost them")
        return finish(row, decisions, after)
    finally:
        await sup.stop()
        await decisions.stop()
        stack.close(print_logs=False)
        broker.stop()


class HangingProxy(TcpProxy):
    """`hang()`: accept connections and never answer, like a wedged server."""

    hanging = False

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self.hanging:
            await super()._accept(reader, writer)
            return
        self._writers.add(writer)
        with contextlib.suppress(ConnectionError, OSError, asyncio.CancelledError):
            while await reader.read(65536):
                pass


async def store_outage(root: Path, bootstrap: str) -> Row:
    """PostgreSQL refuses connections, then accepts and hangs, then comes back."""
    row = Row("store refuses, then hangs")
    dsn = DEFAULT_POSTGRES_DSN
    schema = f"citegate_faults_{uuid.uuid4().hex[:10]}"
    parts = urlsplit(dsn)
    proxy = HangingProxy(parts.hostname or "127.0.0.1", parts.port or 5432)
    await proxy.start()
    store = with_address(with_query(dsn, schema=schema), "127.0.0.1", proxy.port)
    env = {
        "CITEGATE_CACHE_BYTES": "1",  # nothing cached: every answer must read the store
        "CITEGATE_NEGATIVE_CACHE_S": "0.1",
        "CITEGATE_CORPUS_TIMEOUT_S": "1",
        "CITEGATE_CORPUS_RETRIES": "2",
        "CITEGATE_CORPUS_BACKOFF_S": "0.05",
    }
    stack = await new_stack(root, bootstrap, "store", env=env, store=store)
    decisions, sup = Decisions(stack), Supervisor(stack)
    try:
        await stack.start_worker()
        await decisions.start()
        sup.start()
        up = workload("u0", 50)
        await produce(stack, up)
        await decisions.wait({a["answer_id"] for a in up})
        accepts = {demo_id(a) for a in up if decisions.status(a["answer_id"]) == "accept"}
        await proxy.stop()  # refuses
        refused = workload("u1", 50)
        await produce(stack, refused, chunk_size=10, pause_s=0.5)
        await decisions.wait({a["answer_id"] for a in refused})
        proxy.hanging = True
        await proxy.start()  # accepts, never answers
        await asyncio.sleep(2.5)  # past the breaker window: lookups meet the hanging store
        hung = workload("u2", 50)
        await produce(stack, hung, chunk_size=10, pause_s=1.0)
        await decisions.wait({a["answer_id"] for a in hung})
        await proxy.stop()
        proxy.hanging = False
        await proxy.start()
        back = time.monotonic()
        # Probe with answers accepted before the outage until one is accepted again.
        probes: list[dict[str, Any]] = []
        accepted_at: float | None = None
        template = next(a for a in up if demo_id(a) in accepts)
        while accepted_at is None and time.monotonic() - back < DECIDE_WAIT_S:
            probe = {**template, "answer_id": f"pr-{len(probes):04d}-{demo_id(template)}"}
            probe["event_id"] = f"evt-probe-{len(probes)}"
            probes.append(probe)
            await produce(stack, [probe])
            await decisions.wait({probe["answer_id"]}, 10)
            if decisions.status(probe["answer_id"]) == "accept":
                accepted_at = time.monotonic()
            else:
                await asyncio.sleep(0.5)
        after = workload("u3", 50)
        await produce(stack, after)
        every = up + refused + hung + probes + after
        took = await decisions.wait({a["answer_id"] for a in every})
        if accepted_at is not None and took is not None:
            row.recover_s = round(accepted_at - back, 1)
        row.notes.append(f"{len(probes)} probes until the first accept")
        during = [a["answer_id"] for a in refused + hung]
        row.wrong_accepts = sum(decisions.status(i) == "accept" for i in during)
        # The store being back means: what was accepted before the outage is accepted again.
        accepted_after = sum(decisions.status(a["answer_id"]) == "accept" for a in after)
        expected = sum(demo_id(a) in accepts for a in after)
        row.notes.append(f"after recovery {accepted_after}/{expected} accepted as before")
        row.restarts = sup.restarts
        return finish(row, decisions, every)
    finally:
        await sup.stop()
        await decisions.stop()
        stack.close(print_logs=False)
        await proxy.stop()
        with contextlib.suppress(Exception):
            conn = await asyncpg.connect(dsn, timeout=3)
            await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
            await conn.close()


def poisons() -> list[tuple[str, bytes]]:
    deep = b"[" * 200_000 + b"]" * 200_000
    return [
        ("oversize 2 MiB", b'{"answer": "' + b"x" * (2 * 1024 * 1024) + b'"}'),
        ("not UTF-8", b'{"answer": "\xff\xfe"}'),
        ("deep nesting", deep),
        ("schema-invalid", orjson.dumps({"answer": 3, "claims": "x"})),
        ("not JSON", b'{"answer": "unterminated'),
    ]


async def poison_burst(root: Path, bootstrap: str) -> Row:
    """Poison records (oversize, not UTF-8, deep nesting, schema-invalid) between answers."""
    row = Row("poison burst")
    stack = await new_stack(root, bootstrap, "poison")
    decisions, sup = Decisions(stack), Supervisor(stack)
    try:
        await stack.start_worker()
        await decisions.start()
        sup.start()
        answers = workload("p", 100)
        bad = poisons() * 4
        bad.insert(0, ("oversize 12 MiB", b'{"answer": "' + b"y" * (12 * 1024 * 1024) + b'"}'))
        records: list[tuple[bytes | None, bytes]] = []
        for i, a in enumerate(answers):
            records.append((a["answer_id"].encode(), orjson.dumps(a)))
            if i % 5 == 0 and bad:
                records.append((b"poison", bad.pop(0)[1]))
        poisoned = sum(k == b"poison" for k, _ in records)
        started = time.monotonic()
        await stack.produce(records)
        took = await decisions.wait({a["answer_id"] for a in answers})
        row.recover_s = None if took is None else round(time.monotonic() - started, 1)
        letters = await dead_letters(stack, poisoned)
        ids = [e["event_id"] for e in letters]
        row.notes.append(f"{poisoned} poison records -> {len(set(ids))} dead letters")
        if len(ids) != len(set(ids)):
            row.notes.append(f"{len(ids) - len(set(ids))} dead letters repeated")
        largest = max((len(orjson.dumps(e)) for e in letters), default=0)
        row.notes.append(f"largest dead letter {largest // 1024} KiB")
        row.restarts = sup.restarts
        return finish(row, decisions, answers)
    finally:
        await sup.stop()
        await decisions.stop()
        stack.close(print_logs=False)


async def dead_letters(stack: Stack, expected: int) -> list[dict[str, Any]]:
    events = await stack.read_until(
        [stack.topic_dlq], lambda ev: len(ev[stack.topic_dlq]) >= expected, wait_s=30
    )
    return [e.value for e in events[stack.topic_dlq]]


async def two_workers_one_killed(root: Path, bootstrap: str) -> Row:
    """Two workers share the partitions; one is killed and stays dead."""
    row = Row("2 workers, 1 killed")
    stack = await new_stack(root, bootstrap, "pair")
    decisions = Decisions(stack)
    try:
        victim = await stack.start_worker()
        await stack.start_worker()
        await decisions.start()
        first = workload("w0", 200)
        await produce(stack, first, chunk_size=50, pause_s=0.2)
        victim.kill()
        killed = time.monotonic()
        second = workload("w1", 200)
        await produce(stack, second, chunk_size=50, pause_s=0.2)
        took = await decisions.wait({a["answer_id"] for a in first + second})
        row.recover_s = None if took is None else round(time.monotonic() - killed, 1)
        row.notes.append("the survivor took the partitions over; no restart")
        return finish(row, decisions, first + second)
    finally:
        await decisions.stop()
        stack.close(print_logs=False)


SCENARIOS: dict[str, Callable[[Path, str], Awaitable[Row]]] = {
    "sigkill": sigkill,
    "sigstop": sigstop,
    "broker": broker_restart,
    "broker-bare": broker_restart_bare,
    "store": store_outage,
    "poison": poison_burst,
    "pair": two_workers_one_killed,
    "durable-broker": durable_broker_restart,
    "durable-s3-pause": s3_store_paused,
}


def table(rows: list[Row]) -> str:
    head = (
        "| scenario | sent | decided | lost | duplicate decisions after id dedup "
        "| accepts while corpus unavailable | time to recover (s) | restarts | notes |"
    )
    lines = [head, "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        wrong = "-" if r.wrong_accepts is None else str(r.wrong_accepts)
        recover = f"not within {DECIDE_WAIT_S:.0f}s" if r.recover_s is None else f"{r.recover_s}"
        lines.append(
            f"| {r.scenario} | {r.sent} | {r.decided} | {r.lost} | {r.duplicates} | {wrong} "
            f"| {recover} | {r.restarts} | {'; '.join([*r.failures, *r.notes])} |"
        )
    return "\n".join(lines)


async def run(names: list[str], root: Path) -> list[Row]:
    broker = EmbeddedBroker().start()
    rows = []
    try:
        for name in names:
            started = time.monotonic()
            print(f"faults: running {name} ...", file=sys.stderr, flush=True)
            try:
                row = await asyncio.wait_for(SCENARIOS[name](root, broker.bootstrap), 300)
            except BaseException as exc:
                if isinstance(exc, (KeyboardInterrupt, asyncio.CancelledError)):
                    raise
                row = Row(name, notes=[f"scenario failed: {type(exc).__name__}: {exc}"[:300]])
            row.seconds = round(time.monotonic() - started, 1)
            print(f"faults: {name} done in {row.seconds}s", file=sys.stderr, flush=True)
            rows.append(row)
    finally:
        broker.stop()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.faults.suite")
    parser.add_argument("--only", default=",".join(SCENARIOS), help="comma list of scenarios")
    parser.add_argument("--json", default=None, help="also write the rows as JSON here")
    parser.add_argument("--workdir", default=None)
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.only.split(",") if n.strip()]
    unknown = sorted(set(names) - SCENARIOS.keys())
    if unknown:
        parser.error(f"unknown scenarios {unknown}; known: {', '.join(SCENARIOS)}")
    root = Path(args.workdir or f"/tmp/citegate-faults-{uuid.uuid4().hex[:8]}")
    started = time.monotonic()
    rows = asyncio.run(run(names, root))
    print(table(rows))
    print(f"\n{len(rows)} scenarios in {time.monotonic() - started:.0f}s; logs under {root}")
    if args.json:
        Path(args.json).write_bytes(orjson.dumps([asdict(r) for r in rows]))
    return 0 if all(r.ok() for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
