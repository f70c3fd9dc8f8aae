"""Risk signals may only lower the entailment score, and every verdict threshold is versioned."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from stream.checkers.config import dumps_rules_config, load_rules_config
from stream.errors import UsageError
from stream.quality.calibration import LabelledSet, fit, fit_logistic
from stream.verify.checkers import DEFAULT_ENTAIL, RulesChecker, RulesConfig
from stream.verify.codes import Verdict
from stream.verify.features import FEATURES, RISK_FEATURES, evidence_signals
from stream.verify.model import CheckRequest, Fragment


def test_shipped_weights_never_reward_a_risk_signal() -> None:
    risky = {k: v for k, v in DEFAULT_ENTAIL.items() if k in RISK_FEATURES}
    assert {f"signal_{c}" for c in ("modality_strengthened", "inference_cue")} <= set(risky)
    assert all(v <= 0 for v in risky.values()), risky


def test_a_config_that_rewards_a_risk_signal_is_refused(tmp_path: Path) -> None:
    weights = dict(DEFAULT_ENTAIL, signal_modality_strengthened=0.6)
    with pytest.raises(ValueError, match="signal_modality_strengthened"):
        RulesConfig(entail_weights=weights)
    text = dumps_rules_config(RulesConfig()).replace(
        "signal_inference_cue = 0.0", "signal_inference_cue = 0.25"
    )
    assert "signal_inference_cue = 0.25" in text
    path = tmp_path / "bad.toml"
    path.write_text(text, "utf-8")
    with pytest.raises(UsageError, match="signal_inference_cue"):
        load_rules_config(path)
    data = tmp_path / "one.jsonl"
    data.write_text(
        '{"id": "a", "source_dataset": "t", "language": "en", "claim": "It rains.", '
        '"evidence": [{"text": "It rains."}], "label": "entailed"}\n',
        "utf-8",
    )
    proc = subprocess.run(
        [sys.executable, "-m", "stream.cli", "eval", str(data), "--checker", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2, proc.stderr
    assert "signal_inference_cue" in proc.stderr
    assert "Traceback" not in proc.stderr


def _sets(seed: int = 0) -> list[LabelledSet]:
    """Synthetic features where a risk signal fires more often on entailed records."""
    rng = np.random.default_rng(seed)
    n = 400
    entailed = rng.random(n) < 0.5
    x = np.zeros((n, len(FEATURES)))
    col = {name: i for i, name in enumerate(FEATURES)}
    x[:, col["coverage"]] = np.where(entailed, 0.8, 0.4) + rng.normal(0, 0.15, n)
    x[:, col["signal_modality_strengthened"]] = rng.random(n) < np.where(entailed, 0.7, 0.2)
    x[:, col["signal_inference_cue"]] = rng.random(n) < np.where(entailed, 0.5, 0.1)
    labels = tuple("entailed" if e else "insufficient" for e in entailed)
    return [LabelledSet("synthetic", x, labels)]


def test_calibrate_clips_risk_weights_that_the_data_would_make_positive() -> None:
    sets = _sets()
    x, labels = sets[0].x, np.array([lbl == "entailed" for lbl in sets[0].labels])
    _, free = fit_logistic(x, labels, np.ones(len(x)), l2=1.0)
    unconstrained = dict(zip(FEATURES, free, strict=True))
    # the data do reward the signals, so an unconstrained fit would learn positive weights
    assert unconstrained["signal_modality_strengthened"] > 0
    assert unconstrained["signal_inference_cue"] > 0
    fitted = fit(sets, RulesConfig(), l2=1.0)
    assert all(v <= 0 for k, v in fitted.entail_weights.items() if k in RISK_FEATURES)
    assert fitted.entail_weights["coverage"] > 0
    # and what calibrate writes loads back unchanged
    assert RulesConfig.from_mapping(fitted.model()).entail_weights == pytest.approx(
        {k: round(v, 6) for k, v in fitted.entail_weights.items()}
    )


@pytest.mark.parametrize(
    "change",
    [
        {"entail_threshold": 0.6},
        {"entail_thresholds": {"en": 0.3, "zh": 0.2}},
        {"entail_thresholds": {}},
        {"unlinked_coverage": 0.7},
        {"clash_coverage": 0.8},
        {"max_unaligned_share": 0.1},
        {"require_alignment": False},
        {"veto_signals": frozenset({"number_mismatch"})},
    ],
)
def test_every_verdict_threshold_changes_the_version(change: dict[str, object]) -> None:
    base = RulesConfig()
    assert base.version == "rules-3.15"
    changed = replace(base, **change)  # type: ignore[arg-type]
    assert changed.version.startswith("rules-3.15+")
    assert changed.version != base.version


def test_a_language_threshold_applies_to_its_language_only() -> None:
    config = replace(RulesConfig(), entail_threshold=0.48, entail_thresholds={"en": 0.2})
    assert config.threshold_for("en") == 0.2
    assert config.threshold_for("en-GB") == 0.2  # a region reads as its language
    assert config.threshold_for("EN_us") == 0.2
    assert config.threshold_for("ru") == 0.48
    assert replace(config, entail_thresholds={}).threshold_for("en") == 0.48
    with pytest.raises(ValueError, match="must be in"):
        replace(config, entail_thresholds={"en": 1.5})
    # the mapping survives the canonical model (what calibrate writes and a config reads)
    again = RulesConfig.from_mapping(config.model())
    assert again.entail_thresholds == {"en": 0.2}
    assert again.digest() == config.digest()


def test_calibrate_picks_a_threshold_per_language() -> None:
    """A language whose files hold false accepts far under the cap gets the grid's lowest
    threshold; one that needs a higher threshold keeps it, and the shared threshold (for
    languages without their own) meets the cap on every file."""
    rng = np.random.default_rng(3)
    base = replace(RulesConfig(), require_alignment=False)

    def labelled(language: str, negatives_high: bool) -> LabelledSet:
        rows, labels = [], []
        for i in range(200):
            entailed = i % 2 == 0
            x = np.zeros(len(FEATURES))
            cov = rng.uniform(0.6, 1.0) if entailed else rng.uniform(0.0, 0.5)
            if negatives_high and not entailed and i % 10 == 1:
                cov = rng.uniform(0.8, 1.0)  # not entailed, yet fully covered
            x[FEATURES.index("coverage")] = cov
            x[FEATURES.index("bigram_coverage")] = cov
            rows.append(x)
            labels.append("entailed" if entailed else "insufficient")
        return LabelledSet.from_rows(language, rows, tuple(labels), language)

    fitted = fit([labelled("en", False), labelled("ru", True)], base, max_false_accept=0.05)
    assert set(fitted.entail_thresholds) == {"en", "ru"}
    assert fitted.entail_thresholds["ru"] > fitted.entail_thresholds["en"] + 0.2
    assert fitted.entail_threshold == fitted.entail_thresholds["ru"]


def test_the_shipped_thresholds_judge_a_complete_claim_by_its_language() -> None:
    """A claim every unit of which aligns, scored between the English and the shared
    threshold: entailed as English, held as a claim in a language without its own threshold."""
    evidence = (
        "There are significant differences in the clinical and laboratory courses between "
        "COVID-19 and influenza."
    )
    claim = "COVID-19 differs from influenza."
    fragments = (Fragment("e1", evidence),)
    checker = RulesChecker()
    en = checker.check(
        CheckRequest("c", claim, fragments, "en", evidence_signals(claim, fragments))
    )
    de = checker.check(
        CheckRequest("c", claim, fragments, "de", evidence_signals(claim, fragments))
    )
    config = checker.config
    assert config.threshold_for("en") <= en.score < config.threshold_for("de")
    assert en.verdict is Verdict.ENTAILED
    assert de.verdict is Verdict.INSUFFICIENT
    assert f"below {config.threshold_for('de'):.2f}" in de.reason
