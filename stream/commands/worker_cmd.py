"""`citegate worker`: run the stage (Faust worker + embedded or external broker)."""

from __future__ import annotations

import argparse
import logging
from typing import Any

from stream.settings import Settings


def add_common(p: Any) -> None:
    p.add_argument("--broker", default=None, help="`embedded` or kafka://host:port[,host:port]")
    p.add_argument("--store", default=None, help="corpus store URL")


def register(sub: Any) -> None:
    p = sub.add_parser("worker", help="run the stream stage")
    add_common(p)
    p.add_argument("--web-port", type=int, default=None, help="port of /metrics, /healthz")
    p.add_argument("--web-host", default=None)
    p.add_argument("--group-id", default=None)
    p.add_argument("--partitions", type=int, default=None)
    p.add_argument("--topic-answers", default=None)
    p.add_argument("--topic-verdicts", default=None)
    p.add_argument("--topic-decisions", default=None)
    p.add_argument("--topic-dlq", default=None)
    p.add_argument("--max-event-bytes", type=int, default=None)
    p.add_argument("--max-claims", type=int, default=None)
    p.add_argument("--max-citations-per-claim", type=int, default=None)
    p.add_argument("--force-review-domains", default=None)
    p.add_argument("--log-level", default=None)
    p.set_defaults(handler=run)


def settings_from_args(args: argparse.Namespace) -> Settings:
    overrides = {
        k: getattr(args, k)
        for k in (
            "broker",
            "store",
            "web_port",
            "web_host",
            "group_id",
            "partitions",
            "topic_answers",
            "topic_verdicts",
            "topic_decisions",
            "topic_dlq",
            "max_event_bytes",
            "max_claims",
            "max_citations_per_claim",
            "log_level",
        )
        if hasattr(args, k)
    }
    domains = getattr(args, "force_review_domains", None)
    if domains is not None:
        overrides["force_review_domains"] = frozenset(
            d.strip().lower() for d in domains.split(",") if d.strip()
        )
    return Settings.from_env(**overrides)


def run(args: argparse.Namespace) -> int:
    from stream.worker.launch import run_worker

    settings = settings_from_args(args)
    logging.basicConfig(
        level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    return run_worker(settings)
