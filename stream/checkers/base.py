"""Checkers as the edge sees them: asynchronous, batched, never failing open.

The pure core's `Checker` is synchronous (the rules checker needs no I/O). Model checkers call
HTTP endpoints, so the edge talks to every checker through `AsyncChecker.check_many`; a
missing result for a claim is read by the core as `unknown`, never as `entailed`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Protocol

from stream.metrics import Metrics
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


log = logging.getLogger("citegate.checker")


class CheckerErrors:
    """Reports checker exceptions: counted every time (`citegate_checker_errors_total`), logged
    with the traceback once per exception kind so a bug is seen without flooding the log."""

    def __init__(self, ref: Ref, metrics: Metrics | None) -> None:
        self.ref = ref
        self.metrics = metrics
        self.logged: set[str] = set()

    def __call__(self, exc: BaseException) -> None:
        kind = type(exc).__name__
        if self.metrics is not None:
            self.metrics.checker_errors.labels(
                checker=self.ref.name,
                checker_version=self.ref.version,
                kind=self.metrics.cap("kind", kind),
            ).inc()
        if kind not in self.logged:
            self.logged.add(kind)
            log.error(
                "checker %s %s failed (%s); its claims become `unknown` (manual review). "
                "Further %s failures are only counted.",
                self.ref.name,
                self.ref.version,
                kind,
                kind,
                exc_info=exc,
            )


class SyncChecker:
    """Runs a pure, synchronous checker (the rules checker) inline: it is CPU-cheap."""

    def __init__(self, checker: Checker, metrics: Metrics | None = None) -> None:
        self.checker = checker
        self.errors = CheckerErrors(checker.ref, metrics)

    @property
    def ref(self) -> Ref:
        return self.checker.ref

    async def check_many(self, requests: Sequence[CheckRequest]) -> dict[str, CheckResult]:
        return run_checker(self.checker, requests, self.errors)

    async def close(self) -> None:
        return None
