"""Checker selection from settings (`CITEGATE_CHECKER` / `--checker`)."""

from __future__ import annotations

from stream.errors import UsageError
from stream.verify.checkers import Checker, RulesChecker


def make_checker(spec: str) -> Checker:
    """`rules` is built in; other checkers (model-backed, calibrated configs) plug in here."""
    if spec in {"", "rules"}:
        return RulesChecker()
    raise UsageError(f"unknown checker {spec!r}; available: rules")
