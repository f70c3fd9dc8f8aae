"""Subcommands of `citegate`, one module each; `register` wires them into the parser.

Each module is imported only when its subcommand runs (or for `--help` of the whole CLI):
the commands pull in aiohttp, aiokafka, numpy and the checkers, and `citegate verify` should
not pay ~0.3 s at every start for the ones it does not use.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

MODULES: dict[str, str] = {
    "verify": "verify_cmd",
    "corpus": "corpus_cmd",
    "worker": "worker_cmd",
    "broker": "kafka_cmd",
    "produce": "kafka_cmd",
    "tail": "kafka_cmd",
    "demo": "demo_cmd",
    "eval": "eval_cmd",
    "calibrate": "calibrate_cmd",
    "learn": "learn_cmd",
    "replay": "replay_cmd",
    "bench": "bench_cmd",
    "review": "review_cmd",
}
"""Subcommand → the module that registers it (in `citegate --help` order)."""


def register(sub: Any, command: str | None = None) -> None:
    """Register every subcommand, or only `command`'s module when it names a known one."""
    names = [MODULES[command]] if command in MODULES else list(dict.fromkeys(MODULES.values()))
    for name in names:
        import_module(f"stream.commands.{name}").register(sub)
