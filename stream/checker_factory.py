"""Checker selection from settings (`CITEGATE_CHECKER` / `--checker`)."""

from __future__ import annotations

from stream.checking import AsyncChecker, SyncChecker
from stream.errors import UsageError
from stream.settings import Settings
from stream.verify.checkers import RulesChecker


def make_checker(spec: str, settings: Settings | None = None) -> AsyncChecker:
    """`rules` is built in; calibrated configs and model checkers plug in here."""
    if spec in {"", "rules"}:
        return SyncChecker(RulesChecker())
    raise UsageError(f"unknown checker {spec!r}; available: rules")
