"""The acceptance threshold and the figures at it, from held-out scores.

A gate is judged by what it lets through, so the threshold is the lowest score whose
false-accept rate on held-out not-entailed claims stays at or under the target: it accepts as
many entailed claims as that allows. It never goes below 0.5 (the class-balanced model's own
"more likely than not"), which matters when the held-out set has few not-entailed claims.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

FLOOR = 0.5


def choose_threshold(p: Sequence[float], positive: Sequence[bool], target_far: float) -> float:
    negatives = sorted((s for s, g in zip(p, positive, strict=True) if not g), reverse=True)
    if not negatives:
        raise ValueError("no not-entailed held-out claims to choose a threshold on")
    allowed = math.floor(target_far * len(negatives) + 1e-9)
    if allowed >= len(negatives):
        return FLOOR
    return max(FLOOR, math.nextafter(negatives[allowed], math.inf))


@dataclass(frozen=True, slots=True)
class Figures:
    n: int
    entailed: int
    false_accept_rate: float | None
    accept_recall: float | None
    binary_bacc: float | None

    def as_dict(self) -> dict[str, float | int]:
        out: dict[str, float | int] = {"n": self.n, "entailed": self.entailed}
        for key in ("false_accept_rate", "accept_recall", "binary_bacc"):
            value = getattr(self, key)
            if value is not None:
                out[key] = round(value, 4)
        return out


def figures(accepted: Sequence[bool], positive: Sequence[bool]) -> Figures:
    pos = [a for a, g in zip(accepted, positive, strict=True) if g]
    neg = [a for a, g in zip(accepted, positive, strict=True) if not g]
    recall = sum(pos) / len(pos) if pos else None
    far = sum(neg) / len(neg) if neg else None
    parts = [x for x in (recall, None if far is None else 1.0 - far) if x is not None]
    bacc = sum(parts) / len(parts) if parts else None
    return Figures(len(positive), len(pos), far, recall, bacc)
