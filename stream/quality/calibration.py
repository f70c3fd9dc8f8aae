"""Fitting the rules checker on labelled data: two logistic regressions and two thresholds.

Transparent on purpose: the entailment score is a logistic regression over the named lexical
features of `stream.verify.features`, the contradiction score another one; each data file weighs
the same whatever its size, classes are balanced, and the thresholds maximise the mean balanced
accuracy (entailment) and macro-F1 (contradiction) over the files. The result is a small TOML
file a reviewer can read; its hash becomes part of the checker version.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from stream.verify.checkers import RulesConfig
from stream.verify.features import FEATURES, RISK_FEATURES, evidence_signals, extract
from stream.verify.model import Fragment

Matrix = NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class LabelledSet:
    """Features and gold labels of one labelled file."""

    name: str
    x: Matrix
    labels: tuple[str, ...]
    language: str = ""
    """The file's language (its first record's); thresholds are picked per language."""

    @classmethod
    def from_rows(
        cls,
        name: str,
        rows: Sequence[Sequence[float]],
        labels: tuple[str, ...],
        language: str = "",
    ) -> LabelledSet:
        return cls(name, np.array(rows, dtype=np.float64), labels, language)


def featurize(claim: str, fragments: tuple[Fragment, ...], config: RulesConfig) -> list[float]:
    feats = extract(
        claim,
        fragments,
        evidence_signals(claim, fragments),
        width=config.window_sentences,
        max_chars=config.max_window_chars,
    )
    if feats is None:
        return [0.0] * len(FEATURES)
    return [feats.values[name] for name in FEATURES]


def fit_logistic(
    x: Matrix, y: NDArray[np.bool_], weight: Matrix, l2: float = 1.0, iterations: int = 50
) -> tuple[float, Matrix]:
    """(bias, coefficients) by Newton's method on standardised features, mapped back to raw."""
    mean, std = x.mean(axis=0), x.std(axis=0)
    std[std < 1e-9] = 1.0
    z = np.hstack([np.ones((len(x), 1)), (x - mean) / std])
    beta = np.zeros(z.shape[1])
    penalty = np.full(z.shape[1], l2)
    penalty[0] = 0.0
    target = y.astype(np.float64)
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(z @ beta, -30, 30)))
        gradient = z.T @ (weight * (p - target)) + penalty * beta
        hessian = (z * (weight * p * (1 - p))[:, None]).T @ z + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if np.max(np.abs(step)) < 1e-7:
            break
    coef = beta[1:] / std
    bias = float(beta[0] - np.sum(beta[1:] * mean / std))
    return bias, coef


def fit_monotone(
    x: Matrix, y: NDArray[np.bool_], weight: Matrix, l2: float
) -> tuple[float, Matrix]:
    """`fit_logistic` with every risk feature's weight constrained to <= 0.

    Active-set iteration: a risk feature that comes out positive is fixed at 0 and the rest is
    refitted without it, until none is positive. A gate must never learn that a risk signal
    (say, a strengthened modality) makes a claim more likely to be entailed.
    """
    free = np.ones(x.shape[1], dtype=bool)
    risk = np.array([name in RISK_FEATURES for name in FEATURES])
    while True:
        bias, sub = fit_logistic(x[:, free], y, weight, l2)
        coef = np.zeros(x.shape[1])
        coef[free] = sub
        positive = risk & free & (coef > 0)
        if not positive.any():
            return bias, coef
        free &= ~positive


def _weights(sets: Sequence[LabelledSet], positive: NDArray[np.bool_]) -> Matrix:
    """Each file weighs the same; within the pool, both classes weigh the same."""
    per_file = np.concatenate([np.full(len(s.labels), 1.0 / len(s.labels)) for s in sets])
    w = per_file.copy()
    for cls in (True, False):
        mask = positive == cls
        if mask.any():
            w[mask] *= 0.5 / per_file[mask].sum()
    return w * len(w)


def sigmoid(v: Matrix) -> Matrix:
    result: Matrix = 1.0 / (1.0 + np.exp(-np.clip(v, -30, 30)))
    return result


def bacc(gold: NDArray[np.bool_], predicted: NDArray[np.bool_]) -> float:
    recalls = [
        float((predicted[gold == c] == c).mean()) for c in (True, False) if (gold == c).any()
    ]
    return float(np.mean(recalls)) if recalls else 0.0


def fit(
    sets: Sequence[LabelledSet],
    base: RulesConfig,
    l2: float = 30.0,
    max_false_accept: float = 0.05,
) -> RulesConfig:
    """A new config from labelled sets (at least one entailed and one other record)."""
    labels = np.array([label for s in sets for label in s.labels])
    entailed = labels == "entailed"
    if entailed.all() or not entailed.any():
        raise ValueError("calibration needs both entailed and not-entailed records")
    train = _gated(sets, base) or list(sets)
    tx = np.vstack([s.x for s in train])
    ty = np.array([label == "entailed" for s in train for label in s.labels])
    bias, coef = fit_monotone(tx, ty, _weights(train, ty), l2)
    entail = {"bias": bias, **dict(zip(FEATURES, map(float, coef), strict=True))}
    contra = dict(base.contradict_weights)
    contra_threshold = base.contradict_threshold
    contradicted = labels == "contradicted"
    with_contra = [s for s in sets if "contradicted" in s.labels]
    if contradicted.sum() >= 10 and with_contra:
        cx = np.vstack([s.x for s in with_contra])
        cy = np.array([label == "contradicted" for s in with_contra for label in s.labels])
        cbias, ccoef = fit_logistic(cx, cy, _weights(with_contra, cy), l2)
        contra = {"bias": cbias, **dict(zip(FEATURES, map(float, ccoef), strict=True))}
        contra_threshold = _best_contra_threshold(with_contra, cbias, ccoef)
    model = replace(
        base.replace_model(entail, base.entail_threshold, contra, contra_threshold),
        entail_thresholds={},
    )
    threshold = _best_threshold(sets, model, max_false_accept)
    by_language = {
        language: _best_threshold(
            [s for s in sets if s.language == language], model, max_false_accept
        )
        for language in sorted({s.language for s in sets if s.language})
    }
    return replace(model, entail_threshold=threshold, entail_thresholds=by_language)


def _gated(sets: Sequence[LabelledSet], base: RulesConfig) -> list[LabelledSet]:
    """The records the alignment and vetoes let through, per file (empty if too few).

    The entailment model only ever decides among these, so it is fitted on them: a model fitted
    on everything mostly learns overlap, which the alignment has already settled.
    """
    open_gate = replace(base, entail_threshold=0.0, entail_thresholds={})
    out = []
    for s in sets:
        mask = decide_matrix(open_gate, s.x) == "entailed"
        labels = tuple(label for label, keep in zip(s.labels, mask, strict=True) if keep)
        if labels:
            out.append(LabelledSet(s.name, s.x[mask], labels))
    positives = sum(label == "entailed" for s in out for label in s.labels)
    negatives = sum(label != "entailed" for s in out for label in s.labels)
    return out if min(positives, negatives) >= 20 else []


def false_accept_rate(gold: NDArray[np.bool_], predicted: NDArray[np.bool_]) -> float:
    """Share of not-entailed records decided entailed (0 when there are none)."""
    negatives = ~gold
    return float(predicted[negatives].mean()) if negatives.any() else 0.0


def _best_threshold(
    sets: Sequence[LabelledSet], config: RulesConfig, max_false_accept: float
) -> float:
    """The entailment threshold of the precision-first operating point.

    Among thresholds whose full decisions (vetoes and alignment included) keep the
    false-accept rate of every file at or below `max_false_accept`, the one with the best mean
    balanced accuracy; if none does, the one with the lowest worst-file false-accept rate.
    """
    grid = np.linspace(0.2, 0.95, 76)
    best: tuple[float, float, float] | None = None
    fallback: tuple[float, float] | None = None
    for t in grid:
        candidate = replace(config, entail_threshold=float(t))
        baccs, fars = [], []
        for s in sets:
            gold = np.array([lbl == "entailed" for lbl in s.labels])
            pred = decide_matrix(candidate, s.x, s.language) == "entailed"
            baccs.append(bacc(gold, pred))
            fars.append(false_accept_rate(gold, pred))
        worst = max(fars)
        if fallback is None or worst < fallback[0] - 1e-12:
            fallback = (worst, float(t))
        if worst <= max_false_accept:
            mean = float(np.mean(baccs))
            if best is None or mean > best[0] + 1e-12:
                best = (mean, worst, float(t))
    chosen = best[2] if best is not None else fallback[1] if fallback is not None else 0.5
    return round(chosen, 3)


def _best_contra_threshold(sets: Sequence[LabelledSet], bias: float, coef: Matrix) -> float:
    grid = np.linspace(0.2, 0.9, 71)
    scores = []
    for t in grid:
        per_file = [
            bacc(
                np.array([lbl == "contradicted" for lbl in s.labels]),
                sigmoid(bias + s.x @ coef) >= t,
            )
            for s in sets
        ]
        scores.append(float(np.mean(per_file)))
    return round(float(grid[int(np.argmax(scores))]), 3)


def decide_matrix(config: RulesConfig, x: Matrix, language: str = "") -> NDArray[np.str_]:
    """The rules checker's verdicts computed from a feature matrix of claims in `language`
    (mirrors `RulesChecker`).

    Calibration evaluates many candidate configs on the same features; recomputing features
    per candidate would cost minutes. A test keeps this in step with the checker itself.
    """
    col = {name: x[:, i] for i, name in enumerate(FEATURES)}

    def score(weights: Mapping[str, float]) -> Matrix:
        z = np.full(len(x), weights.get("bias", 0.0))
        for name, w in weights.items():
            if name != "bias":
                z = z + w * col[name]
        return sigmoid(z)

    p_entail, p_contra = score(config.entail_weights), score(config.contradict_weights)
    coverage = col["coverage"]
    veto = np.zeros(len(x), dtype=bool)
    for code in config.veto_signals:
        veto |= col[f"signal_{code}"] > 0
    gap = np.zeros(len(x), dtype=bool)
    complete = np.ones(len(x), dtype=bool)
    if config.require_alignment:
        gap = col["unaligned_share"] > config.max_unaligned_share
        mismatched = col["alignment_mismatches"] > 0
        veto |= mismatched
        complete = (col["unaligned_share"] == 0) & ~mismatched
    threshold = config.threshold_for(language)
    entailed = (p_entail >= threshold) & ~veto & ~gap & complete
    # `contradicted` rests on a slot of the aligned span with another value, in a claim that
    # otherwise aligns (the checker's rule; the contradiction model only sets confidence)
    contra = (
        ~entailed
        & (col["states_other"] > 0)
        & (1.0 - col["unaligned_share"] >= config.clash_coverage)
    )
    del p_contra, coverage
    no_content = ~x.any(axis=1)
    out = np.where(entailed, "entailed", np.where(contra, "contradicted", "insufficient"))
    return np.where(no_content, "unknown", out)


def folds(sets: Sequence[LabelledSet], k: int, seed: int = 0) -> list[list[NDArray[np.int_]]]:
    """Per file, k disjoint index folds (shuffled with a fixed seed, so runs repeat)."""
    rng = np.random.default_rng(seed)
    out = []
    for s in sets:
        order = rng.permutation(len(s.labels))
        out.append([order[i::k] for i in range(k)])
    return out


def cross_validated(
    sets: Sequence[LabelledSet],
    base: RulesConfig,
    k: int = 5,
    l2: float = 30.0,
    max_false_accept: float = 0.05,
) -> list[NDArray[np.str_]]:
    """Held-out verdicts per file: each fold is judged by a config fitted without it."""
    parts = folds(sets, k)
    predictions = [np.empty(len(s.labels), dtype=object) for s in sets]
    for fold in range(k):
        train = []
        for s, file_folds in zip(sets, parts, strict=True):
            keep = np.setdiff1d(np.arange(len(s.labels)), file_folds[fold])
            train.append(
                LabelledSet(s.name, s.x[keep], tuple(s.labels[i] for i in keep), s.language)
            )
        config = fit(train, base, l2, max_false_accept)
        for i, (s, file_folds) in enumerate(zip(sets, parts, strict=True)):
            idx = file_folds[fold]
            predictions[i][idx] = decide_matrix(config, s.x[idx], s.language)
    return [p.astype(str) for p in predictions]
