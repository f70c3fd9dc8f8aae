"""Fitting the lexical head (`stream.checkers.lexical`): two small logistic models, numpy only.

1. **Features → entailed**, on the records the cross-encoder trained on, with one hard-negative
   mutant per entailed claim where the mutation suite makes one (as the cross-encoder's
   training has), standardised, L2-penalised (`FEATURE_L2`): ten features, no need for more.
2. **Combiner** of the cross-encoder's logit and the features' logit, on the held-out records
   whose scores choose the threshold. Its weights are pulled towards (1, 1) — the two logits
   simply added — so a small held-out set cannot swing them. The scores the threshold is
   chosen on are cross-fitted (each part scored by a combiner fitted without it): no held-out
   record's own label moves its own score.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from stream.checkers.lexical import FEATURES, LexicalHead, logit

FEATURE_L2 = 30.0
"""Measured on the dev files (5-fold, features alone): 30 against 1 was as good on four files
and better on the smallest (WiCE 0.622 against 0.607 binary BAcc)."""
COMBINER_L2 = 5.0
COMBINER_PARTS = 5

Matrix = NDArray[np.float64]


def logistic(
    x: Matrix,
    y: NDArray[np.bool_],
    l2: float,
    prior: NDArray[np.float64] | None = None,
    iters: int = 40,
) -> NDArray[np.float64]:
    """Weights [bias, w...] of an L2-penalised logistic regression by Newton's method; the
    penalty pulls w (not the bias) towards `prior` (zero by default). Class-balanced, as the
    cross-encoder's loss is, so the bias does not follow the file's share of entailed claims."""
    z = np.c_[np.ones(len(x)), x]
    d = z.shape[1]
    target = np.zeros(d) if prior is None else np.r_[0.0, prior]
    penalty = l2 * np.diag(np.r_[0.0, np.ones(d - 1)])
    yf = y.astype(np.float64)
    pos = max(1.0, float(yf.sum()))
    neg = max(1.0, float(len(yf) - yf.sum()))
    sample = np.where(y, len(yf) / (2 * pos), len(yf) / (2 * neg))
    w = target.copy()
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-np.clip(z @ w, -30.0, 30.0)))
        grad = z.T @ (sample * (p - yf)) + penalty @ (w - target)
        hess = z.T @ (z * (sample * p * (1.0 - p))[:, None]) + penalty + 1e-9 * np.eye(d)
        step = np.linalg.solve(hess, grad)
        w = w - step
        if float(np.abs(step).max()) < 1e-8:
            break
    return w


@dataclass(frozen=True, slots=True)
class FeatureModel:
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float

    def logits(self, rows: Sequence[Sequence[float] | None]) -> list[float]:
        head = LexicalHead(FEATURES, self.mean, self.scale, self.weights, self.bias, 1.0, 1.0, 0.0)
        return [head.lexical(r) for r in rows]


def fit_features(rows: Sequence[Sequence[float] | None], positive: Sequence[bool]) -> FeatureModel:
    """Step 1. Rows without features (no content word) do not take part."""
    kept = [(r, g) for r, g in zip(rows, positive, strict=True) if r is not None]
    x = np.array([r for r, _ in kept], dtype=np.float64).reshape(len(kept), len(FEATURES))
    y = np.array([g for _, g in kept], dtype=np.bool_)
    if len(kept) == 0 or y.all() or not y.any():
        zeros = (0.0,) * len(FEATURES)
        return FeatureModel(zeros, (1.0,) * len(FEATURES), zeros, 0.0)
    mean = x.mean(axis=0)
    scale = np.maximum(x.std(axis=0), 1e-6)
    w = logistic((x - mean) / scale, y, FEATURE_L2)
    return FeatureModel(
        tuple(map(float, mean)), tuple(map(float, scale)), tuple(map(float, w[1:])), float(w[0])
    )


def _combiner(z: Matrix, y: NDArray[np.bool_]) -> tuple[float, float, float]:
    if y.all() or not y.any():
        return (0.0, 1.0, 1.0)
    w = logistic(z, y, COMBINER_L2, prior=np.array([1.0, 1.0]))
    return (float(w[0]), float(w[1]), float(w[2]))


def _apply(c: tuple[float, float, float], z: Matrix) -> NDArray[np.float64]:
    out: NDArray[np.float64] = 1.0 / (1.0 + np.exp(-np.clip(c[0] + z @ np.array(c[1:]), -30, 30)))
    return out


def parts_of(positive: Sequence[bool], rng: random.Random) -> list[list[int]]:
    """`COMBINER_PARTS` disjoint parts, each with its share of either label."""
    order = list(range(len(positive)))
    rng.shuffle(order)
    order.sort(key=lambda i: bool(positive[i]))
    return [order[k::COMBINER_PARTS] for k in range(COMBINER_PARTS)]


def cross_fit(z: Matrix, y: NDArray[np.bool_], parts: Sequence[Sequence[int]]) -> list[float]:
    """Each record's combined score from a combiner fitted on the other parts only."""
    crossed = np.zeros(len(y))
    for part in parts:
        if not part:
            continue
        rest = np.ones(len(y), dtype=np.bool_)
        rest[list(part)] = False
        crossed[list(part)] = _apply(_combiner(z[rest], y[rest]), z[list(part)])
    return [float(v) for v in crossed]


def fit_head(
    features: FeatureModel,
    p_model: Sequence[float],
    lexical: Sequence[float],
    positive: Sequence[bool],
    rng: random.Random,
) -> tuple[LexicalHead, list[float]]:
    """Step 2 on the held-out records: the head to ship, and each held-out record's combined
    score from a combiner fitted without its part (what the threshold is chosen on)."""
    z = np.array([[logit(p), x] for p, x in zip(p_model, lexical, strict=True)], dtype=np.float64)
    y = np.array(positive, dtype=np.bool_)
    crossed = cross_fit(z, y, parts_of(positive, rng))
    offset, a, b = _combiner(z, y)
    head = LexicalHead(
        FEATURES, features.mean, features.scale, features.weights, features.bias, a, b, offset
    )
    return head, crossed


def auc(scores: Sequence[float], positive: Sequence[bool]) -> float | None:
    """Rank AUC (ties count half), for the manifest's account of each part."""
    pos = [s for s, g in zip(scores, positive, strict=True) if g]
    neg = [s for s, g in zip(scores, positive, strict=True) if not g]
    if not pos or not neg:
        return None
    ranked = sorted(neg)
    total = 0.0
    for s in pos:
        lo = bisect.bisect_left(ranked, s)
        hi = bisect.bisect_right(ranked, s)
        total += lo + 0.5 * (hi - lo)
    return total / (len(pos) * len(neg))
