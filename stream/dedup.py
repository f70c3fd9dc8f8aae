"""Duplicate suppression for input `event_id`s within a time window, bounded in memory.

The in-memory index is rebuilt at start from a compacted Kafka topic (`<group>.seen-events`)
that the worker appends to *after* an answer's outputs are acknowledged and *before* its offset
is committed. A crash between the two yields the same outputs again, with the same
deterministic ids — never a lost answer.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable


class SeenEvents:
    """event_id -> first-seen wall time, expiring after `window_s`, at most `max_entries`."""

    def __init__(
        self,
        window_s: float,
        max_entries: int = 1_000_000,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.window_s = window_s
        self.max_entries = max_entries
        self._clock = clock
        self._seen: OrderedDict[str, float] = OrderedDict()

    def __len__(self) -> int:
        return len(self._seen)

    def contains(self, event_id: str) -> bool:
        seen_at = self._seen.get(event_id)
        if seen_at is None:
            return False
        if self._clock() - seen_at > self.window_s:
            del self._seen[event_id]
            return False
        return True

    def add(self, event_id: str, seen_at: float | None = None) -> None:
        """Remember `event_id`; restoring from the changelog passes the original time."""
        at = self._clock() if seen_at is None else seen_at
        if self._clock() - at > self.window_s:
            return
        self._seen[event_id] = at
        self._seen.move_to_end(event_id)
        self._expire()

    def _expire(self) -> None:
        now = self._clock()
        while self._seen:
            oldest_id, oldest_at = next(iter(self._seen.items()))
            if now - oldest_at <= self.window_s and len(self._seen) <= self.max_entries:
                break
            del self._seen[oldest_id]
