"""Subcommands of `citegate`, one module each; `register` wires them into the parser."""

from __future__ import annotations

from typing import Any

from stream.commands import (
    bench_cmd,
    calibrate_cmd,
    corpus_cmd,
    demo_cmd,
    eval_cmd,
    kafka_cmd,
    replay_cmd,
    review_cmd,
    verify_cmd,
    worker_cmd,
)


def register(sub: Any) -> None:
    verify_cmd.register(sub)
    corpus_cmd.register(sub)
    worker_cmd.register(sub)
    kafka_cmd.register(sub)
    demo_cmd.register(sub)
    eval_cmd.register(sub)
    calibrate_cmd.register(sub)
    replay_cmd.register(sub)
    bench_cmd.register(sub)
    review_cmd.register(sub)
