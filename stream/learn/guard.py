"""The mutant guard: a learned model may not lift one-word edits of claims it was held out on.

The false-accept target is met on a file's own not-entailed claims, and those are rarely a
faithful claim with one word changed. A cross-encoder fine-tuned for minutes can score such an
edit as high as the claim it came from: a HealthVer model, in the cascade, lifted an entity
swap and an added reason of the public mutation suite (docs/checker-quality.md). So `citegate
learn` also makes the mutants of its held-out entailed claims (the operators `citegate eval`
measures the mutation catch with), keeps those the cascade would hand to the model (the rules
name no slot mismatch and nothing the model may not lift: `stream.checkers.cascade.may_lift`),
scores them with the held-out model, and sets the threshold above them: at most `mutant_far`
of them accepted, none by default. What that costs in accepted entailed claims is in the
model's `[cv]` figures, which are computed at the guarded thresholds.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from stream.checkers.cascade import may_lift
from stream.learn.data import POSITIVE
from stream.quality.evaluate import LabelledClaim, to_request
from stream.quality.mutations import mutants
from stream.verify.checkers import RulesChecker

MAX_PROBES = 2000
"""At most this many mutants are scored per run (a seeded sample): the rules check and the
model's score cost a few to a hundred milliseconds each."""


@dataclass(frozen=True, slots=True)
class Probe:
    """A mutant of held-out entailed claim `record` (its index in the pool) that the cascade
    would hand to the learned model."""

    record: int
    operator: str
    claim: LabelledClaim


def probes(
    pool: Sequence[LabelledClaim],
    indices: Iterable[int],
    rng: random.Random,
    limit: int = MAX_PROBES,
) -> list[Probe]:
    """The mutants of the entailed records among `indices` that the rules leave to the model."""
    rules = RulesChecker()
    made: list[Probe] = []
    for i in indices:
        record = pool[i]
        if record.label != POSITIVE:
            continue
        for m in mutants(record.claim, record.language):
            edited = replace(record, id=f"{record.id}~{m.operator}", claim=m.claim)
            made.append(Probe(i, m.operator, edited))
    if len(made) > limit:
        made = sorted(rng.sample(made, limit), key=lambda p: (p.record, p.operator))
    out = []
    for probe in made:
        request = to_request(probe.claim)
        if may_lift(request, rules.check(request)):
            out.append(probe)
    return out


def guard_threshold(scores: Sequence[float], mutant_far: float) -> float:
    """The lowest threshold at which at most `mutant_far` of `scores` are accepted (0 when
    that allows every one). Never above 1: a mutant scored 1.0 stays accepted, and says so in
    the figures."""
    ranked = sorted(scores, reverse=True)
    allowed = math.floor(mutant_far * len(ranked) + 1e-9)
    if allowed >= len(ranked):
        return 0.0
    return min(1.0, math.nextafter(ranked[allowed], math.inf))


@dataclass(frozen=True, slots=True)
class Held:
    """The held-out mutants of one run, their scores, and the share that may pass."""

    probes: Sequence[Probe]
    scores: Sequence[float]
    mutant_far: float


@dataclass(frozen=True, slots=True)
class GuardFigures:
    """What the guard saw and did, for `model.toml` and the closing line of `citegate learn`."""

    mutant_far: float
    judged: int
    """Held-out mutants the model would judge in the cascade."""
    accepted_at_far_threshold: int
    """Of those, accepted at the threshold the false-accept target alone would choose."""
    accepted: int
    """Of those, accepted at the shipped threshold."""
    threshold_without_guard: float
    recall_without_guard: float | None = None
    """Held-out accept recall at the thresholds without the guard: what the guard cost."""

    def as_dict(self) -> dict[str, float | int]:
        out: dict[str, float | int] = {
            "mutant_far": self.mutant_far,
            "mutants_judged": self.judged,
            "mutants_accepted_without_guard": self.accepted_at_far_threshold,
            "mutants_accepted": self.accepted,
            "threshold_without_guard": round(self.threshold_without_guard, 6),
        }
        if self.recall_without_guard is not None:
            out["accept_recall_without_guard"] = round(self.recall_without_guard, 4)
        return out


def guard_figures(
    scores: Sequence[float],
    far_threshold: float,
    threshold: float,
    mutant_far: float,
    recall_without_guard: float | None = None,
) -> GuardFigures:
    return GuardFigures(
        mutant_far,
        len(scores),
        sum(s >= far_threshold for s in scores),
        sum(s >= threshold for s in scores),
        far_threshold,
        recall_without_guard,
    )
