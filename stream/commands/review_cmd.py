"""`citegate review`: the reviewer web page and API; `review export`; `review add-token`."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path
from typing import Any

from stream.commands.worker_cmd import setting_option
from stream.errors import UsageError
from stream.kafka.clients import broker_errors
from stream.settings import Settings


def _common(p: Any) -> None:
    p.add_argument("--broker", default=None, help="kafka://host:port[,host:port]")
    p.add_argument("--store", default=None, help="corpus store URL (document versions)")
    setting_option(p, "topic_decisions")
    setting_option(p, "topic_verdicts")
    setting_option(p, "topic_reviews")


def register(sub: Any) -> None:
    p = sub.add_parser(
        "review",
        help="serve the manual-review queue (web page + JSON API); export reviewed labels",
        description="Without an action: run the review server. Actions: export, add-token.",
    )
    _common(p)
    p.add_argument("--host", default=None, help="listen address (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=None, help="listen port (default 8088)")
    p.add_argument("--tokens-file", default=None, help="reviewer token hashes")
    setting_option(p, "log_level")
    p.set_defaults(handler=run_server)
    actions = p.add_subparsers(dest="action", metavar="ACTION", parser_class=type(p))

    e = actions.add_parser("export", help="write reviewed claims as eval records (JSONL)")
    _common(e)
    e.add_argument("--out", required=True, help="JSONL file to write")
    e.add_argument(
        "--no-store", action="store_true", help="take evidence text from the events only"
    )
    e.set_defaults(handler=run_export)

    t = actions.add_parser("add-token", help="create a reviewer token and print it once")
    t.add_argument("name", help="reviewer name: 1-64 of A-Z a-z 0-9 . _ @ -")
    t.add_argument("--tokens-file", default=None, help="reviewer token hashes")
    t.set_defaults(handler=run_add_token)


def settings_from_args(args: argparse.Namespace) -> Settings:
    names = {
        "broker": "broker",
        "store": "store",
        "topic_decisions": "topic_decisions",
        "topic_verdicts": "topic_verdicts",
        "topic_reviews": "topic_reviews",
        "host": "review_host",
        "port": "review_port",
        "tokens_file": "review_tokens_file",
        "log_level": "log_level",
    }
    overrides = {field: getattr(args, arg, None) for arg, field in names.items()}
    settings = Settings.from_env(**overrides)
    if settings.broker == "embedded":
        raise UsageError("--broker must name a running broker (kafka://host:port)")
    return settings


def run_server(args: argparse.Namespace) -> int:
    from stream.review.launch import run_review

    settings = settings_from_args(args)
    logging.basicConfig(
        level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    with broker_errors(settings.broker):
        try:
            return asyncio.run(run_review(settings))
        except OSError as exc:
            where = f"{settings.review_host}:{settings.review_port}"
            raise UsageError(f"cannot listen on {where}: {exc.strerror or exc}") from None


def run_export(args: argparse.Namespace) -> int:
    from stream.review.export import export_reviews

    settings = settings_from_args(args)
    out = Path(args.out)
    with broker_errors(settings.broker):
        summary = asyncio.run(export_reviews(settings, out, use_store=not args.no_store))
    print(
        f"wrote {summary.records} reviewed claims from {summary.reviews} reviews to {out}"
        + (
            f" ({summary.skipped_claims} claims skipped: verdict gone)"
            if summary.skipped_claims
            else ""
        ),
        file=sys.stderr,
    )
    return 0


def run_add_token(args: argparse.Namespace) -> int:
    from stream.review.auth import add_token

    path = Path(args.tokens_file or Settings.from_env().review_tokens_file)
    token = add_token(path, args.name)
    print(f"added reviewer {args.name} to {path}; the token (shown once):", file=sys.stderr)
    print(token)
    return 0
