"""Checkers as the edge sees them: asynchronous, batched, never failing open.

The pure core's `Checker` is synchronous (the rules checker needs no I/O). Model checkers call
HTTP endpoints, so the edge talks to every checker through `AsyncChecker.check_many`; a
missing result for a claim is read by the core as `unknown`, never as `entailed`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from stream.verify.checkers import Checker
from stream.verify.model import CheckRequest, CheckResult, Ref
from stream.verify.pipeline import run_checker


class AsyncChecker(Protocol):
    @property
    def ref(self) -> Ref: ...

    async def check_many(self, requests: Sequence[CheckRequest]) -> dict[str, CheckResult]:
        """Results by claim id; a claim left out (failure) becomes `unknown` downstream."""
        ...

    async def close(self) -> None: ...


class SyncChecker:
    """Runs a pure, synchronous checker (the rules checker) inline: it is CPU-cheap."""

    def __init__(self, checker: Checker) -> None:
        self.checker = checker

    @property
    def ref(self) -> Ref:
        return self.checker.ref

    async def check_many(self, requests: Sequence[CheckRequest]) -> dict[str, CheckResult]:
        return run_checker(self.checker, requests)

    async def close(self) -> None:
        return None
