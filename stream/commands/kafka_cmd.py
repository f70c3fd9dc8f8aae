"""`citegate broker`, `produce` and `tail`: small Kafka helpers for integrators and operators."""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
import threading
import uuid
from pathlib import Path
from typing import Any

import orjson

from stream.errors import BrokerError, InputError, UsageError
from stream.kafka.clients import bootstrap_servers
from stream.kafka.tools import Payload, produce, tail
from stream.settings import Settings


def register(sub: Any) -> None:
    b = sub.add_parser(
        "broker",
        help="run the embedded broker on its own until Ctrl-C (memory or S3 storage)",
        description="Start the bundled Kafka-compatible broker (Tansu) and print its address, "
        "so workers can be started, stopped and restarted against it. With the default memory "
        "storage everything it holds is lost when it stops; with --storage s3://BUCKET/ its "
        "topics, records and committed offsets live in an S3-compatible bucket and survive "
        "restarts (endpoint and credentials from AWS_ENDPOINT, AWS_ACCESS_KEY_ID, "
        "AWS_SECRET_ACCESS_KEY, AWS_REGION; AWS_ALLOW_HTTP=true for a plain-HTTP endpoint; the "
        "bucket is created if missing).",
    )
    b.add_argument("--host", default="127.0.0.1", help="address to listen on (default: loopback)")
    b.add_argument("--port", type=int, default=None, help="fixed port (default: a free one)")
    b.add_argument(
        "--storage",
        default="memory://tansu/",
        help="memory://tansu/ (default, lost on stop) or s3://BUCKET/ (survives restarts)",
    )
    b.set_defaults(handler=run_broker)

    p = sub.add_parser("produce", help="send answer events from a JSON or JSONL file")
    p.add_argument("file", help="JSON object, JSON array or JSONL; - for stdin")
    p.add_argument("--broker", default=None, help="kafka://host:port[,host:port]")
    p.add_argument("--topic", default=None, help="default: the answers topic")
    p.add_argument(
        "--raw",
        action="store_true",
        help="send each line's bytes unchanged (for testing dead letters)",
    )
    p.set_defaults(handler=run_produce)

    t = sub.add_parser("tail", help="print events from a topic as JSON lines")
    t.add_argument("topic", help="topic to read, e.g. rag.decisions")
    t.add_argument("--broker", default=None, help="kafka://host:port[,host:port]")
    t.add_argument("--from-beginning", action="store_true", help="start at the oldest event")
    t.add_argument("--max", type=int, default=None, help="stop after N events")
    t.add_argument(
        "--idle-timeout",
        type=float,
        default=None,
        help="stop after this many seconds without events",
    )
    t.set_defaults(handler=run_tail)


def _bootstrap(settings: Settings) -> list[str]:
    if settings.broker == "embedded":
        raise UsageError(
            "--broker must name a running broker (kafka://host:port); "
            "the embedded one lives inside `citegate worker`/`demo`"
        )
    return bootstrap_servers(settings.broker)


def _payloads(path: str, raw: bool) -> list[Payload]:
    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
    if raw:
        return [(None, line) for line in data.splitlines() if line.strip()]
    try:
        obj = orjson.loads(data)
        items = obj if isinstance(obj, list) else [obj]
    except orjson.JSONDecodeError:
        items = []
        for n, line in enumerate(data.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                items.append(orjson.loads(line))
            except orjson.JSONDecodeError as exc:
                raise InputError(
                    f"{path}:{n}: not JSON: {exc} (use --raw to send it anyway)"
                ) from None
    out = []
    for item in items:
        if not isinstance(item, dict):
            raise InputError(f"{path}: every event must be a JSON object")
        item.setdefault("event_id", uuid.uuid4().hex)
        key = item.get("answer_id")
        out.append((key.encode() if isinstance(key, str) else None, orjson.dumps(item)))
    return out


def run_produce(args: argparse.Namespace) -> int:
    settings = Settings.from_env(broker=args.broker)
    payloads = _payloads(args.file, args.raw)
    if not payloads:
        raise InputError(f"{args.file}: no events to send")
    topic = args.topic or settings.topic_answers
    sent = asyncio.run(produce(settings, _bootstrap(settings), topic, payloads))
    print(f"sent {sent} events to {args.topic or settings.topic_answers}", file=sys.stderr)
    return 0


def _print_line(line: dict[str, Any]) -> None:
    sys.stdout.write(orjson.dumps(line).decode() + "\n")
    sys.stdout.flush()


def run_tail(args: argparse.Namespace) -> int:
    settings = Settings.from_env(broker=args.broker)
    asyncio.run(
        tail(
            settings,
            _bootstrap(settings),
            args.topic,
            args.from_beginning,
            args.max,
            args.idle_timeout,
            _print_line,
        )
    )
    return 0


def run_broker(args: argparse.Namespace) -> int:
    """Run until SIGINT/SIGTERM; the address goes to stdout so scripts can read it."""
    from stream.kafka.embedded import BrokerStartError, EmbeddedBroker

    if args.port is not None and not 1 <= args.port <= 65535:
        raise UsageError("--port must be 1..65535")
    broker = EmbeddedBroker(host=args.host, port=args.port, storage=args.storage)
    where = broker.prepare_storage()  # a clear error (exit 2) when the store is unusable
    stop = threading.Event()
    handlers = {s: signal.signal(s, lambda *_: stop.set()) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        broker.start()
    except BrokerStartError as exc:
        first = str(exc).splitlines()[0]
        raise BrokerError(f"the embedded broker did not start: {first}") from None
    try:
        print(broker.url, flush=True)
        print(
            f"embedded broker ({where}) at {broker.url}; "
            f"e.g. citegate worker --broker {broker.url}; Ctrl-C stops it",
            file=sys.stderr,
            flush=True,
        )
        while not stop.wait(0.5):
            if not broker.running:
                raise BrokerError("the embedded broker exited unexpectedly")
    finally:
        broker.stop()
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
    print("embedded broker stopped", file=sys.stderr)
    return 0
