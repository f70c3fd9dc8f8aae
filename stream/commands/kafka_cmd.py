"""`citegate produce` and `citegate tail`: small helpers for integrators and operators."""

from __future__ import annotations

import argparse
import asyncio
import sys
import uuid
from pathlib import Path
from typing import Any

import orjson
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition
from aiokafka.errors import KafkaError

from stream.errors import InputError, UsageError
from stream.kafka.clients import (
    bootstrap_servers,
    broker_error,
    consumer_kwargs,
    groupless,
    producer_kwargs,
)
from stream.settings import Settings


def register(sub: Any) -> None:
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
    t.add_argument("topic")
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


def _payloads(path: str, raw: bool) -> list[tuple[bytes | None, bytes]]:
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


async def produce(
    settings: Settings, topic: str, payloads: list[tuple[bytes | None, bytes]]
) -> int:
    kwargs = producer_kwargs(settings, _bootstrap(settings))
    limit = int(kwargs["max_request_size"]) - 1024
    for n, (_, value) in enumerate(payloads, start=1):
        if len(value) > limit:
            raise InputError(
                f"event #{n} is {len(value)} bytes; one produce request holds at most {limit}"
            )
    producer = AIOKafkaProducer(**kwargs)
    try:
        try:
            await producer.start()
            futures = [await producer.send(topic, key=k, value=v) for k, v in payloads]
            await asyncio.gather(*futures)
        finally:
            await producer.stop()
    except (KafkaError, OSError) as exc:
        raise broker_error(exc) from None
    return len(futures)


def run_produce(args: argparse.Namespace) -> int:
    settings = Settings.from_env(broker=args.broker)
    payloads = _payloads(args.file, args.raw)
    if not payloads:
        raise InputError(f"{args.file}: no events to send")
    sent = asyncio.run(produce(settings, args.topic or settings.topic_answers, payloads))
    print(f"sent {sent} events to {args.topic or settings.topic_answers}", file=sys.stderr)
    return 0


async def tail(
    settings: Settings,
    topic: str,
    from_beginning: bool,
    limit: int | None,
    idle_timeout: float | None,
) -> int:
    consumer = AIOKafkaConsumer(**groupless(consumer_kwargs(settings, _bootstrap(settings))))
    try:
        await consumer.start()
    except (KafkaError, OSError) as exc:
        await consumer.stop()
        raise broker_error(exc) from None
    count = 0
    try:
        await consumer.topics()
        parts = consumer.partitions_for_topic(topic) or set()
        tps = [TopicPartition(topic, p) for p in sorted(parts)]
        if not tps:
            raise UsageError(f"topic {topic!r} does not exist")
        consumer.assign(tps)
        if from_beginning:
            await consumer.seek_to_beginning(*tps)
        else:
            await consumer.seek_to_end(*tps)
        loop = asyncio.get_running_loop()
        last = loop.time()
        while limit is None or count < limit:
            batches = await consumer.getmany(timeout_ms=500)
            if not batches and idle_timeout is not None and loop.time() - last > idle_timeout:
                break
            for records in batches.values():
                for r in records:
                    last = loop.time()
                    try:
                        value: Any = orjson.loads(r.value) if r.value is not None else None
                    except orjson.JSONDecodeError:
                        value = r.value.decode("utf-8", "backslashreplace")
                    line = {
                        "topic": r.topic,
                        "partition": r.partition,
                        "offset": r.offset,
                        "key": r.key.decode("utf-8", "backslashreplace") if r.key else None,
                        "value": value,
                    }
                    sys.stdout.write(orjson.dumps(line).decode() + "\n")
                    count += 1
                    if limit is not None and count >= limit:
                        break
            sys.stdout.flush()
    finally:
        await consumer.stop()
    return count


def run_tail(args: argparse.Namespace) -> int:
    settings = Settings.from_env(broker=args.broker)
    try:
        asyncio.run(tail(settings, args.topic, args.from_beginning, args.max, args.idle_timeout))
    except (KafkaError, OSError) as exc:
        raise broker_error(exc) from None
    return 0
