"""CPU time and RSS of a process tree, read from /proc (Linux; the bench says so elsewhere)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


@dataclass(frozen=True, slots=True)
class Usage:
    cpu_s: float
    rss_bytes: dict[int, int]
    """Resident set size per process of the tree (pid -> bytes)."""


def _stat(pid: int) -> list[str] | None:
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name may contain spaces: fields start after its closing parenthesis.
    return raw[raw.rfind(")") + 2 :].split()


def children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        fields = _stat(int(entry.name))
        if fields is not None and int(fields[1]) == pid:
            out.append(int(entry.name))
    return out


def tree(pid: int) -> list[int]:
    pids, todo = [], [pid]
    while todo:
        p = todo.pop()
        pids.append(p)
        todo.extend(children(p))
    return pids


def usage_of(pids: Sequence[int]) -> Usage:
    """CPU seconds (user + system) summed over `pids`, and each one's RSS (gone ones skipped)."""
    cpu, rss = 0.0, {}
    for p in pids:
        fields = _stat(p)
        if fields is None:
            continue
        cpu += (int(fields[11]) + int(fields[12])) / _TICKS
        rss[p] = int(fields[21]) * _PAGE
    return Usage(cpu, rss)
