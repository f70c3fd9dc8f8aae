"""`citegate demo` (what `make demo` runs): the whole stage end to end on the embedded broker.

Starts the embedded broker, imports the built-in multilingual corpus into SQLite, starts a real
worker process, produces sample answers (both seed examples among them, plus a malformed event
and a redelivered duplicate), waits for every decision, and prints what happened.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import orjson

from stream.client import GateClient, Release
from stream.commands.render import clip, table
from stream.corpus.jsonfile import iter_documents
from stream.corpus.store import open_store
from stream.errors import CitegateError
from stream.kafka.embedded import EmbeddedBroker, find_free_port
from stream.kafka.tools import collect, produce
from stream.settings import Settings

DEMO_FORCE_REVIEW = "medical,legal"


def register(sub: Any) -> None:
    p = sub.add_parser("demo", help="run the stage end to end on the embedded broker")
    p.add_argument("--keep-running", action="store_true", help="leave broker and worker up")
    p.add_argument("--web-port", type=int, default=None, help="worker /metrics port")
    p.add_argument(
        "--review-port",
        type=int,
        default=None,
        help="review page port with --keep-running (default 8088, else a free port)",
    )
    p.add_argument("--workdir", default=".citegate/demo", help="where the SQLite corpus goes")
    p.add_argument("--timeout", type=float, default=90.0, help="give up after this many seconds")
    p.add_argument(
        "--replay",
        action="store_true",
        help="then import a corpus update and replay the answers (--rebase latest)",
    )
    p.set_defaults(handler=run)


def demo_file(name: str) -> bytes:
    return resources.files("stream").joinpath("demo", name).read_bytes()


def demo_answers() -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in demo_file("answers.jsonl").splitlines() if line]


async def import_corpus(store_url: str, path: Path) -> tuple[int, int]:
    store = open_store(store_url)
    try:
        return await store.put_many(iter_documents(path))
    finally:
        await store.close()


WORKER_STOP_S = 5.0
"""How long the demo waits for its worker's clean exit before SIGKILL: the demo's outputs are
acknowledged and committed already, so a kill loses nothing."""


def _terminated(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)  # unwinds through `finally`: the worker is stopped too


def stop_worker(worker: subprocess.Popen[bytes]) -> None:
    if worker.poll() is not None:
        return
    worker.send_signal(signal.SIGTERM)
    try:
        worker.wait(timeout=WORKER_STOP_S)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait()


def wait_ready(
    url: str, proc: subprocess.Popen[bytes], timeout: float, what: str = "the worker"
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise CitegateError(f"{what} exited with code {proc.returncode} before it was ready")
        try:
            with urllib.request.urlopen(url, timeout=1) as resp:  # noqa: S310 — loopback only
                if resp.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise CitegateError(f"{what} was not ready within {timeout:.0f}s")


@dataclass(frozen=True, slots=True)
class DemoReview:
    proc: subprocess.Popen[bytes]
    port: int
    token: str


def _port_free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def start_review(
    broker_url: str, store: str, workdir: Path, port: int | None, timeout: float
) -> DemoReview:
    """`citegate review` on the demo's topics with a fresh demo token (printed once)."""
    from stream.review.auth import add_token

    tokens = workdir / "review-tokens"
    tokens.unlink(missing_ok=True)
    token = add_token(tokens, "demo")
    port = port or (8088 if _port_free(8088) else find_free_port())
    cmd = [
        sys.executable,
        "-m",
        "stream.cli",
        "review",
        "--broker",
        broker_url,
        "--store",
        store,
        "--port",
        str(port),
        "--tokens-file",
        str(tokens),
    ]
    log_path = workdir / "review.log"
    with log_path.open("wb") as log_file:
        proc = subprocess.Popen(cmd, stdout=log_file, stderr=subprocess.STDOUT)
    try:
        wait_ready(f"http://127.0.0.1:{port}/readyz", proc, timeout, "the review server")
    except CitegateError:
        sys.stderr.write(log_path.read_text("utf-8", "replace")[-3000:])
        proc.kill()
        proc.wait()
        raise
    return DemoReview(proc, port, token)


Slice = tuple[str, str, str, str]


def by_slice(events: Iterable[dict[str, Any]], field: str) -> dict[Slice, Counter[str]]:
    """Counts of `field` per (generator, retriever, corpus, checker) name@version."""
    out: dict[Slice, Counter[str]] = {}
    for e in events:
        g, r, c, k = (
            f"{e[x]['name']}@{e[x]['version']}"
            for x in ("generator", "retriever", "corpus", "checker")
        )
        out.setdefault((g, r, c, k), Counter())[e[field]] += 1
    return out


def report(
    answers: list[dict[str, Any]], events: dict[str, list[dict[str, Any]]], settings: Settings
) -> str:
    verdicts = events[settings.topic_verdicts]
    decisions = {d["answer_id"]: d for d in events[settings.topic_decisions]}
    lines = []
    rows = []
    for a in answers:
        d = decisions.get(a["answer_id"])
        if d is None:
            continue
        for v in (v for v in verdicts if v["answer_id"] == a["answer_id"]):
            signals = ", ".join(f"{s['code']}({s['detail']})" for s in v["risk_signals"])
            rows.append(
                [
                    a["answer_id"],
                    a.get("language", "?"),
                    v["claim_id"],
                    v["verdict"],
                    v["support_status"],
                    clip(v["text"], 40),
                    clip(signals, 34) or "-",
                    d["final_status"],
                ]
            )
    lines.append(
        table(
            ["answer", "lang", "claim", "verdict", "support", "text", "signals", "decision"], rows
        )
    )
    mix = Counter(d["final_status"] for d in decisions.values())
    lines.append("\ndecision mix: " + ", ".join(f"{k}={mix[k]}" for k in sorted(mix)))
    slices = by_slice(verdicts, "verdict")
    dec_slices = by_slice(decisions.values(), "final_status")
    srows = []
    for key in sorted(set(slices) | set(dec_slices)):
        vc, dc = slices.get(key, Counter()), dec_slices.get(key, Counter())
        srows.append(
            [
                *key,
                " ".join(f"{k}={vc[k]}" for k in sorted(vc)),
                " ".join(f"{k}={dc[k]}" for k in sorted(dc)),
            ]
        )
    lines.append("\nby version slice (the numbers the Grafana dashboard shows):")
    lines.append(
        table(["generator", "retriever", "corpus", "checker", "verdicts", "decisions"], srows)
    )
    dlq = events[settings.topic_dlq]
    lines.append(
        "\ndead letters: "
        + (", ".join(f"{d['reason']} (offset {d['source']['offset']})" for d in dlq) or "none")
    )
    return "\n".join(lines)


async def through_the_gate(
    settings: Settings, bootstrap: str, answers: list[dict[str, Any]], wait_s: float
) -> list[Release]:
    """Submit every answer with the client and wait for its decision, send the malformed and
    the duplicate record as they are, then read what delivery may show off `rag.released`."""
    async with GateClient(settings=settings, timeout_s=wait_s) as gate:
        decisions = await asyncio.gather(*(gate.submit(a) for a in answers))
        duplicate = (answers[1]["answer_id"].encode(), orjson.dumps(answers[1]))
        await produce(
            settings,
            [bootstrap],
            settings.topic_answers,
            [(b"demo-broken", b'{"answer": "unterminated'), duplicate],
        )
        wanted = {d.answer_id for d in decisions if d.publish}
        releases: list[Release] = []
        if not wanted:
            return releases
        async with (
            asyncio.timeout(wait_s),
            contextlib.aclosing(gate.releases(from_beginning=True)) as stream,
        ):
            async for release in stream:
                if release.answer_id in wanted:
                    wanted.discard(release.answer_id)
                    releases.append(release)
                if not wanted:
                    break
    return releases


def released_report(releases: list[Release]) -> str:
    rows = [[r.answer_id or "-", r.released_by, clip(r.text, 60)] for r in releases]
    rows.sort()
    return "\nreleased on rag.released (what delivery may show):\n" + table(
        ["answer", "by", "text as verified"], rows
    )


def replay_demo(settings: Settings, store: str, workdir: Path) -> str:
    """Import the built-in corpus update and replay every demo answer onto it."""
    from stream.replay.launch import run_replay

    update = workdir / "corpus-update.jsonl"
    update.write_bytes(demo_file("corpus-update.jsonl"))
    inserted, unchanged = asyncio.run(import_corpus(store, update))
    report_path = workdir / "replay"
    # The replay must decide like the live worker did: same store, same review domains.
    settings = settings.with_(
        store=store, force_review_domains=frozenset(DEMO_FORCE_REVIEW.split(","))
    )
    for stale in (report_path.with_name("replay.checkpoint.json"),):
        stale.unlink(missing_ok=True)
    result = asyncio.run(
        run_replay(
            settings,
            replay_id="demo-replay",
            output_topic=settings.topic_replay,
            rebase="latest",
            checker_spec=None,
            since_ms=None,
            until_ms=None,
            offsets=None,
            checkpoint=report_path.with_name("replay.checkpoint.json"),
            report=report_path,
            limit=None,
            batch_size=500,
        )
    )
    return (
        f"\ncorpus update: {inserted} new document versions ({unchanged} unchanged); "
        f"replay --rebase latest wrote {report_path}.json and {report_path}.md\n\n"
        + result.markdown()
    )


def run(args: argparse.Namespace) -> int:
    started = time.monotonic()
    workdir = Path(args.workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    store = f"sqlite:///{(workdir / 'corpus.db').resolve()}"
    corpus = workdir / "corpus.jsonl"
    corpus.write_bytes(demo_file("corpus.jsonl"))
    inserted, unchanged = asyncio.run(import_corpus(store, corpus))
    print(f"corpus: {inserted} documents imported, {unchanged} unchanged -> {store}")
    web_port = args.web_port or find_free_port()
    with EmbeddedBroker() as broker:
        print(f"embedded broker: {broker.url} (memory only)")
        env = {
            **os.environ,
            "CITEGATE_FORCE_REVIEW_DOMAINS": DEMO_FORCE_REVIEW,
            "CITEGATE_SESSION_TIMEOUT_MS": "2000",
            "CITEGATE_LOG_LEVEL": "warning",
        }
        cmd = [
            sys.executable,
            "-m",
            "stream.cli",
            "worker",
            "--broker",
            broker.url,
            "--store",
            store,
            "--web-port",
            str(web_port),
        ]
        log_path = workdir / "worker.log"
        with log_path.open("wb") as log_file:
            # Its own session: Ctrl-C reaches only this process, which then stops the worker
            # once (SIGTERM), instead of both racing through two shutdowns.
            worker = subprocess.Popen(
                cmd,
                env=env,
                stdout=log_file,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        previous = signal.signal(signal.SIGTERM, _terminated)
        print(f"worker log: {log_path}")
        children: list[subprocess.Popen[bytes]] = []
        try:
            try:
                wait_ready(f"http://127.0.0.1:{web_port}/readyz", worker, args.timeout)
            except CitegateError:
                sys.stderr.write(log_path.read_text("utf-8", "replace")[-3000:])
                raise
            print(
                f"worker ready after {time.monotonic() - started:.1f}s; "
                f"metrics at http://127.0.0.1:{web_port}/metrics"
            )
            settings = Settings.from_env({}, broker=broker.url)
            answers = demo_answers()
            remaining = max(5.0, args.timeout - (time.monotonic() - started))
            releases = asyncio.run(through_the_gate(settings, broker.bootstrap, answers, remaining))
            print(
                f"submitted {len(answers)} answers with GateClient.submit, then 1 malformed "
                "event and 1 duplicate delivery"
            )
            topics = [settings.topic_verdicts, settings.topic_decisions, settings.topic_dlq]

            def done(ev: dict[str, list[dict[str, Any]]]) -> bool:
                return (
                    len({d["answer_id"] for d in ev[settings.topic_decisions]}) >= len(answers)
                    and len(ev[settings.topic_dlq]) >= 1
                )

            remaining = max(5.0, args.timeout - (time.monotonic() - started))
            events = asyncio.run(collect(broker.bootstrap, topics, done, remaining))
            print(report(answers, events, settings))
            print(released_report(releases))
            decided = len({d["answer_id"] for d in events[settings.topic_decisions]})
            dupes = len(events[settings.topic_decisions]) - decided
            print(
                f"\n{decided}/{len(answers)} answers decided, {dupes} duplicate decisions, "
                f"in {time.monotonic() - started:.1f}s"
            )
            if args.replay:
                print(replay_demo(settings, store, workdir))
            if args.keep_running:
                review = start_review(broker.url, store, workdir, args.review_port, args.timeout)
                children.append(review.proc)
                print(
                    f"review page: http://127.0.0.1:{review.port}/ (sign in with the demo "
                    f"token {review.token}; log {workdir / 'review.log'})"
                )
                print("keeping the broker, worker and review server up; Ctrl-C to stop")
                # SIGTERM (e.g. `timeout`) unwinds through `finally` like Ctrl-C: children are
                # stopped, not orphaned.
                with contextlib.suppress(KeyboardInterrupt):
                    worker.wait()
            return 0 if decided == len(answers) else 1
        finally:
            signal.signal(signal.SIGTERM, previous)
            for child in (*children, worker):
                stop_worker(child)
