"""`citegate worker`: run the stage (Faust worker + embedded or external broker).

Its flags are the settings a worker is most often started with; each flag's help is the
setting's own description, so `--help`, the environment and docs/configuration.md agree.
"""

from __future__ import annotations

import argparse
import logging
from dataclasses import fields
from typing import Any

from stream.errors import UsageError
from stream.settings import Settings

MAX_PROCESSES = 64

_FIELDS = {f.name: f for f in fields(Settings)}

WORKER_OPTIONS: tuple[tuple[str, type], ...] = (
    ("web_port", int),
    ("web_host", str),
    ("group_id", str),
    ("partitions", int),
    ("topic_answers", str),
    ("topic_verdicts", str),
    ("topic_decisions", str),
    ("topic_dlq", str),
    ("max_event_bytes", int),
    ("max_claims", int),
    ("max_citations_per_claim", int),
    ("batch_max_records", int),
    ("checker", str),
    ("rules_config", str),
    ("model", str),
    ("model_threads", int),
    ("log_level", str),
)
"""Settings exposed as `--flag` (dashes for underscores); the rest come from CITEGATE_*."""


def setting_option(p: Any, name: str, type_: type = str, **kwargs: Any) -> None:
    """`--name` for one setting, with the setting's own help and its environment variable."""
    f = _FIELDS[name]
    default = ",".join(sorted(f.default)) if isinstance(f.default, frozenset) else f.default
    help_ = f"{f.metadata['help']} (env {f.metadata['env']}, default: {default or 'none'})"
    p.add_argument("--" + name.replace("_", "-"), type=type_, default=None, help=help_, **kwargs)


def add_common(p: Any) -> None:
    setting_option(p, "broker")
    setting_option(p, "store")


def register(sub: Any) -> None:
    p = sub.add_parser("worker", help="run the stream stage")
    add_common(p)
    for name, type_ in WORKER_OPTIONS:
        setting_option(p, name, type_)
    setting_option(p, "force_review_domains")
    p.add_argument(
        "--processes",
        type=int,
        default=None,
        metavar="N",
        help="worker processes in the group under one supervisor serving /metrics, /healthz and"
        " /readyz for all (default: the cores this process may use, cgroup quota included;"
        " 1 = no supervisor)",
    )
    p.set_defaults(handler=run)


def settings_from_args(args: argparse.Namespace) -> Settings:
    names = ("broker", "store", *(name for name, _ in WORKER_OPTIONS))
    overrides = {k: getattr(args, k) for k in names if hasattr(args, k)}
    domains = getattr(args, "force_review_domains", None)
    if domains is not None:
        overrides["force_review_domains"] = frozenset(
            d.strip().lower() for d in domains.split(",") if d.strip()
        )
    return Settings.from_env(**overrides)


def run(args: argparse.Namespace) -> int:
    from stream.worker.launch import run_worker

    settings = settings_from_args(args)
    from stream.checkers.factory import check_spec

    check_spec(settings.checker, settings)  # a bad model directory is one line here, not per child
    logging.basicConfig(
        level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    processes = args.processes
    if processes is not None and not 1 <= processes <= MAX_PROCESSES:
        raise UsageError(f"--processes must be between 1 and {MAX_PROCESSES}")
    if processes is None or processes > 1:
        from stream.worker.supervisor import default_processes, run_supervised

        processes = processes or min(default_processes(), MAX_PROCESSES)
        if processes > 1:
            return run_supervised(settings, processes)
    return run_worker(settings)
