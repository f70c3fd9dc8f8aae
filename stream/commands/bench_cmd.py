"""`citegate bench`: throughput, latency, core speed, scaling and memory, each against its floor."""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path
from typing import Any

from stream.errors import UsageError


def register(sub: Any) -> None:
    p = sub.add_parser(
        "bench",
        help="measure the stage against its floors (embedded broker; ratios, PASS/MISS)",
    )
    p.add_argument("--runs", type=int, default=3, help="runs whose median is shown (default 3)")
    p.add_argument("--quick", action="store_true", help="small sizes: a smoke run for CI")
    p.add_argument(
        "--broker",
        default="embedded",
        help="kafka://host:port of a broker to use instead of the embedded one",
    )
    p.add_argument(
        "--profile",
        metavar="FILE",
        default=None,
        help="sample the worker with py-spy during the first throughput run; raw stacks to FILE",
    )
    p.add_argument(
        "--tracing",
        action="store_true",
        help="only the tracing figures: the worker with tracing off and on, each answer with a"
        " traceparent (docs/performance.md#tracing)",
    )
    p.add_argument(
        "--memory",
        action="store_true",
        help="only the memory figure (e): the worker's RSS after its warm-up and while it"
        " drains answers citing the whole corpus (docs/performance.md#memory)",
    )
    p.add_argument(
        "--baseline",
        metavar="REV",
        default=None,
        help="with --tracing or --memory: also run the worker of this git commit (before the"
        " change) side by side, e.g. a tag or hash of this repository",
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from stream.kafka.clients import bootstrap_servers
    from stream.kafka.embedded import EmbeddedBroker
    from stream.worker.bench.report import run_all
    from stream.worker.bench.runner import FULL, QUICK

    if not 1 <= args.runs <= 9:
        raise UsageError("--runs must be between 1 and 9")
    sizes = QUICK if args.quick else FULL
    profile = Path(args.profile).resolve() if args.profile else None
    if args.tracing and args.memory:
        raise UsageError("--tracing and --memory are separate runs: choose one")
    if args.baseline and not (args.tracing or args.memory):
        raise UsageError("--baseline goes with --tracing or --memory")
    extra = {"tracing": args.tracing, "memory": args.memory, "baseline": args.baseline}
    with tempfile.TemporaryDirectory(prefix="citegate-bench-") as tmp:
        root = Path(tmp)
        if args.broker == "embedded":
            with EmbeddedBroker() as broker:
                text = asyncio.run(
                    run_all(broker.bootstrap, root, sizes, args.runs, profile, broker.pid, **extra)
                )
        else:
            bootstrap = ",".join(bootstrap_servers(args.broker))
            text = asyncio.run(run_all(bootstrap, root, sizes, args.runs, profile, **extra))
    print(text)
    return 0
