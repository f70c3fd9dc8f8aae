"""What every harness shares: the `Harness` record and the checks of a "clear error".

A harness's `check(data)` feeds the bytes to one edge and returns normally when the edge kept
its contract: a valid result, or the edge's own error type with a clear message. It raises
`ContractViolation` when a result is wrong or an error unclear; any other exception escaping
`check` is an unexpected exception, which is what the fuzzer reports as a crash. Hangs and
unbounded memory are caught by libFuzzer (`-timeout`, `-rss_limit_mb`, set by tests.fuzz.run).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

MAX_MESSAGE_CHARS = 1000
"""A clear error is one line of at most this many characters, whatever the input's size."""


class ContractViolation(AssertionError):
    """The edge returned a wrong result or an unclear error."""


@dataclass(frozen=True, slots=True)
class Harness:
    name: str
    edge: str
    """What the harness feeds, in a few words (printed by the runner)."""
    check: Callable[[bytes], None]
    seeds: Callable[[], list[bytes]]
    max_len: int = 16384
    """Largest input libFuzzer generates (inputs grow towards it)."""


def require(condition: bool, message: str) -> None:
    if not condition:
        raise ContractViolation(message)


def clear_message(message: object, what: str) -> None:
    """A clear error: a non-empty, single-line string of bounded length."""
    require(isinstance(message, str), f"{what}: the message is not a string: {message!r}")
    assert isinstance(message, str)
    require(bool(message.strip()), f"{what}: empty message")
    require("\n" not in message and "\r" not in message, f"{what}: multi-line: {message[:300]!r}")
    require(
        len(message) <= MAX_MESSAGE_CHARS,
        f"{what}: message of {len(message)} characters: {message[:200]!r}…",
    )
