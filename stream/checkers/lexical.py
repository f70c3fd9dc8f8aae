"""The lexical head of a learned checker: the rules' alignment features next to the model.

A cross-encoder fine-tuned for minutes on a few hundred labels ranks claims it reads in one
window well, and long evidence or a domain it has not learned badly; the rules core measures
what it cannot (how much of the claim the evidence covers, what stays unaligned, which slot
clashes) for every claim, whatever its length. `citegate learn` fits two small logistic models
on the user's labels: one over these features (on the records the cross-encoder trained on,
with its hard-negative mutants), and a combiner of the two logits (on the held-out records the
threshold is chosen on). Measured on the dev files (docs/checker-quality.md#the-lexical-head),
the features alone reach an accept recall the cross-encoder does not on long web evidence.

The features are those of `stream.verify.features.extract` under the rules version that
computed them: a head fitted on another version's features is refused on load, because the
same names would then measure something else.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from stream.verify.checkers import BASE_VERSION
from stream.verify.features import evidence_signals, extract
from stream.verify.model import Fragment

LEXICAL_FILE = "lexical.json"

FEATURES: tuple[str, ...] = (
    "coverage",
    "coverage_unweighted",
    "bigram_coverage",
    "unaligned_share",
    "log_uncovered",
    "claim_window_ratio",
    "jaccard",
    "states_other",
    "alignment_mismatches",
    "log_claim_tokens",
)
"""Ten of the rules' features: coverage, what stays unaligned, a stated other value, length.
More (all 40 of `extract`) measured no better on five dev files and worse on the smallest
(WiCE, 349 claims: binary BAcc 0.605 with all against 0.622 with these)."""


def feature_values(claim: str, fragments: Sequence[Fragment]) -> list[float] | None:
    """The head's features for a claim against its cited fragments; None when the claim has
    no content word (the head then adds nothing). Signals are the evidence's own, as in
    training, not whatever a request carries."""
    frags = tuple(fragments)
    found = extract(claim, frags, evidence_signals(claim, frags))
    if found is None:
        return None
    return [float(found.values[name]) for name in FEATURES]


def logit(p: float) -> float:
    q = min(max(p, 1e-6), 1.0 - 1e-6)
    return math.log(q / (1.0 - q))


def sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


@dataclass(frozen=True, slots=True)
class LexicalHead:
    """`lexical = bias + sum(w * (x - mean) / scale)`; `p = sigmoid(offset + model_weight *
    logit(p_model) + lexical_weight * lexical)`."""

    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float
    model_weight: float
    lexical_weight: float
    offset: float
    features_version: str = BASE_VERSION

    def __post_init__(self) -> None:
        n = len(self.features)
        if not n or any(len(v) != n for v in (self.mean, self.scale, self.weights)):
            raise ValueError("features, mean, scale and weights differ in length")
        numbers = (*self.mean, *self.scale, *self.weights, self.bias, self.model_weight,
                   self.lexical_weight, self.offset)  # fmt: skip
        if not all(math.isfinite(x) for x in numbers) or min(self.scale) <= 0.0:
            raise ValueError("a weight is not a finite number, or a scale is not positive")

    def lexical(self, values: Sequence[float] | None) -> float:
        """The features' logit; a claim without features sits at the training mean."""
        if values is None:
            return self.bias
        return self.bias + math.fsum(
            w * (x - m) / s
            for w, x, m, s in zip(self.weights, values, self.mean, self.scale, strict=True)
        )

    def combine(self, p_model: float, lexical: float) -> float:
        z = self.offset + self.model_weight * logit(p_model) + self.lexical_weight * lexical
        return sigmoid(z)

    def as_dict(self) -> dict[str, Any]:
        return {
            "features_version": self.features_version,
            "features": list(self.features),
            "mean": [round(x, 9) for x in self.mean],
            "scale": [round(x, 9) for x in self.scale],
            "weights": [round(x, 9) for x in self.weights],
            "bias": round(self.bias, 9),
            "model_weight": round(self.model_weight, 9),
            "lexical_weight": round(self.lexical_weight, 9),
            "offset": round(self.offset, 9),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LexicalHead:
        """Raises ValueError (with what is wrong) for anything this citegate cannot use."""
        version = data.get("features_version")
        if version != BASE_VERSION:
            raise ValueError(
                f"its lexical head was fitted on {version!r} features and this citegate computes "
                f"{BASE_VERSION!r} ones; train the model again"
            )
        names = tuple(str(x) for x in data.get("features", ()))
        unknown = sorted(set(names) - set(FEATURES))
        if unknown:
            raise ValueError(f"its lexical head uses features this citegate lacks: {unknown}")
        try:
            return cls(
                names,
                tuple(float(x) for x in data["mean"]),
                tuple(float(x) for x in data["scale"]),
                tuple(float(x) for x in data["weights"]),
                float(data["bias"]),
                float(data["model_weight"]),
                float(data["lexical_weight"]),
                float(data["offset"]),
                str(version),
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"its lexical head lacks or mistypes {exc}") from None

    def values_of(self, claim: str, fragments: Sequence[Fragment]) -> list[float] | None:
        """This head's features (its own order) for a claim."""
        values = feature_values(claim, fragments)
        if values is None:
            return None
        by_name = dict(zip(FEATURES, values, strict=True))
        return [by_name[name] for name in self.features]
