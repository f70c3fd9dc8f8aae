"""Training examples from labelled claims: what the cross-encoder sees, and the folds.

A record becomes one (claim, evidence window) pair — the window of its fragments the run-time
checker would score first (`stream.checkers.pairs.best_windows`) — labelled entailed or not.
With `mutants`, each entailed claim also yields `per_claim` edited copies (a number, unit,
name, quantifier, polarity, condition … changed by `stream.quality.mutations`, each by another
operator) labelled not entailed against the same window: the one-word edits that keep a real
sentence are the hallucinations a gate must not let through, and fine-tuned cross-encoders are
known to be blind to them unless they are shown some.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from stream.checkers.modeldir import Recipe
from stream.checkers.pairs import PairTokenizer, best_windows
from stream.quality.evaluate import LabelledClaim
from stream.quality.mutations import mutants
from stream.verify.model import Fragment

POSITIVE = "entailed"


@dataclass(frozen=True, slots=True)
class Example:
    claim: str
    evidence: str
    label: bool
    kind: str
    """`record` or `mutant:<operator>`."""


def fragments(record: LabelledClaim) -> tuple[Fragment, ...]:
    """The record's evidence as the stage would cite it (e1..eN), like `citegate eval`."""
    return tuple(
        Fragment(f"e{i}", text, doc) for i, (doc, text) in enumerate(record.evidence, start=1)
    )


def examples(
    records: Sequence[LabelledClaim],
    recipe: Recipe,
    rng: random.Random,
    *,
    with_mutants: bool,
    pairs: PairTokenizer | None = None,
    per_claim: int = 1,
) -> list[Example]:
    out: list[Example] = []
    for r in records:
        fits = pairs.fitter(r.claim) if pairs is not None else None
        found = best_windows(r.claim, fragments(r), recipe.window_chars, 1, fits)
        window = found[0].text if found else ""
        positive = r.label == POSITIVE
        out.append(Example(r.claim, window, positive, "record"))
        if with_mutants and positive and window:
            made = mutants(r.claim, r.language)
            chosen = [rng.choice(made)] if made and per_claim == 1 else made
            if len(chosen) > per_claim:
                chosen = rng.sample(made, per_claim)
            for m in chosen:
                out.append(Example(m.claim, window, False, f"mutant:{m.operator}"))
    return out


def stratified_folds(
    records: Sequence[LabelledClaim], k: int, rng: random.Random
) -> list[list[int]]:
    """k disjoint index lists, each with about the same share of every (dataset, label)."""
    strata: dict[tuple[str, bool], list[int]] = {}
    for i, r in enumerate(records):
        strata.setdefault((r.dataset, r.label == POSITIVE), []).append(i)
    folds: list[list[int]] = [[] for _ in range(k)]
    offset = 0
    for key in sorted(strata):
        members = strata[key]
        rng.shuffle(members)
        for j, i in enumerate(members):
            folds[(j + offset) % k].append(i)
        offset += len(members)
    return [sorted(f) for f in folds]


def subsample(
    records: Sequence[LabelledClaim], limit: int | None, rng: random.Random
) -> list[LabelledClaim]:
    """At most `limit` records, drawn at random (seeded), keeping file order."""
    if limit is None or len(records) <= limit:
        return list(records)
    keep = sorted(rng.sample(range(len(records)), limit))
    return [records[i] for i in keep]
