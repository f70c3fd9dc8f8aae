"""`citegate replay`: re-verify past answers after a corpus update and report what changed."""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tqdm import tqdm

from stream.errors import UsageError
from stream.settings import Settings

_RELATIVE = re.compile(r"^(\d+)([smhd])$")
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def register(sub: Any) -> None:
    p = sub.add_parser("replay", help="re-verify past answers with today's corpus and checker")
    p.add_argument("--broker", default=None, help="kafka://host:port[,host:port]")
    p.add_argument("--store", default=None, help="corpus store URL")
    p.add_argument(
        "--since",
        default=None,
        metavar="TIME",
        help="ISO 8601 time or a duration ago (7d, 12h, 30m)",
    )
    p.add_argument("--until", default=None, metavar="TIME", help="ISO 8601 time or duration ago")
    p.add_argument(
        "--partition-offsets",
        default=None,
        metavar="SPEC",
        help="P:START-[END],… e.g. 0:100-200,1:0- (END exclusive; overrides times)",
    )
    p.add_argument(
        "--rebase",
        default=None,
        metavar="latest|VERSION",
        help="re-point every citation to this version of its document",
    )
    p.add_argument(
        "--checker",
        default=None,
        metavar="NAME|CONFIG",
        help="checker to re-verify with: rules, llm, model:DIR, cascade or a TOML config "
        "(default: CITEGATE_CHECKER, as the worker)",
    )
    p.add_argument("--output-topic", default=None, help="default: CITEGATE_TOPIC_REPLAY")
    p.add_argument("--replay-id", default=None, help="reuse to resume; default: a new id")
    p.add_argument(
        "--report",
        default=None,
        metavar="PATH",
        help="write PATH.json and PATH.md (default: .citegate/replays/ID)",
    )
    p.add_argument(
        "--checkpoint",
        default=None,
        metavar="FILE",
        help="default: the report path + .checkpoint.json",
    )
    p.add_argument("--limit", type=int, default=None, help="stop after N answers (resumable)")
    p.add_argument(
        "--batch-size",
        type=int,
        default=500,
        help="answers per batch; a checkpoint is written after each acknowledged batch",
    )
    p.add_argument(
        "--metrics-port",
        type=int,
        default=None,
        help='serve this replay\'s metrics (mode="replay") on /metrics meanwhile',
    )
    p.set_defaults(handler=run)


def parse_time(value: str, now: float | None = None) -> int:
    """Milliseconds since the epoch from ISO 8601 or a duration ago (`7d`)."""
    now = time.time() if now is None else now
    m = _RELATIVE.match(value.strip())
    if m:
        return int((now - int(m.group(1)) * _UNITS[m.group(2)]) * 1000)
    try:
        parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        raise UsageError(f"cannot read time {value!r}; use ISO 8601 or e.g. 7d, 12h") from None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return int(parsed.timestamp() * 1000)


def parse_offsets(spec: str) -> dict[int, tuple[int, int | None]]:
    out: dict[int, tuple[int, int | None]] = {}
    for part in spec.split(","):
        m = re.fullmatch(r"\s*(\d+):(\d+)-(\d*)\s*", part)
        if not m:
            raise UsageError(f"bad --partition-offsets entry {part!r}; use P:START-[END]")
        start, end = int(m.group(2)), int(m.group(3)) if m.group(3) else None
        if end is not None and end < start:
            raise UsageError(f"--partition-offsets {part!r}: END before START")
        partition = int(m.group(1))
        if partition in out:
            raise UsageError(f"--partition-offsets names partition {partition} twice")
        out[partition] = (start, end)
    return out


def run(args: argparse.Namespace) -> int:
    from stream.replay.launch import run_replay

    settings = Settings.from_env(broker=args.broker, store=args.store)
    if args.limit is not None and args.limit < 1:
        raise UsageError("--limit must be at least 1")
    if args.batch_size < 1:
        raise UsageError("--batch-size must be at least 1")
    replay_id = args.replay_id or "replay-" + datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    if not re.fullmatch(r"[A-Za-z0-9._:-]{1,128}", replay_id):
        raise UsageError("--replay-id: letters, digits and . _ : - only (at most 128)")
    report = Path(args.report) if args.report else Path(".citegate/replays") / replay_id
    checkpoint = (
        Path(args.checkpoint)
        if args.checkpoint
        else report.with_name(report.name + ".checkpoint.json")
    )
    since = parse_time(args.since) if args.since else None
    until = parse_time(args.until) if args.until else None
    offsets = parse_offsets(args.partition_offsets) if args.partition_offsets else None
    bar = tqdm(unit="answer", file=sys.stderr, disable=None, dynamic_ncols=True)

    def progress(done: int, remaining: int | None) -> None:
        if remaining is not None:
            bar.total = bar.n + done + remaining
        bar.update(done)

    try:
        result = asyncio.run(
            run_replay(
                settings,
                replay_id=replay_id,
                output_topic=args.output_topic or settings.topic_replay,
                rebase=args.rebase,
                checker_spec=args.checker,
                since_ms=since,
                until_ms=until,
                offsets=offsets,
                checkpoint=checkpoint,
                report=report,
                limit=args.limit,
                batch_size=args.batch_size,
                progress=progress,
                metrics_port=args.metrics_port,
            )
        )
    finally:
        bar.close()
    data = result.to_json()
    changed = len(result.changed) + result.changed_not_listed
    print(
        f"replay {replay_id}: {result.processed} answers in {data['seconds']} s "
        f"({data['answers_per_s']} answers/s); changed {changed}, unchanged "
        f"{result.unchanged}, without original {result.no_original}"
    )
    for transition, n in data["transitions"].items():
        print(f"  {transition}: {n}")
    print(f"report: {report}.json, {report}.md")
    if not result.complete:
        print(f"stopped before the end; rerun with --replay-id {replay_id} to continue")
    return 0
