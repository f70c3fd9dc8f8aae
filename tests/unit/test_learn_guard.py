"""The mutant guard of `citegate learn`: the threshold rises above the held-out claims'
one-word edits that the cascade would hand to the model, and the figures are computed at it."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from pathlib import Path

import pytest

from stream.checkers.cascade import may_lift
from stream.learn.guard import Probe, guard_figures, guard_threshold, probes
from stream.quality.evaluate import LabelledClaim, to_request
from stream.quality.mutations import mutants
from stream.verify.checkers import RulesChecker
from tests.unit.test_cli_edges import cli
from tests.unit.test_cli_verify import one_line_error

QUOTE = "Backups of the production database are encrypted and stored in Frankfurt for 30 days."


def record(i: int, label: str, claim: str = QUOTE) -> LabelledClaim:
    return LabelledClaim(f"r{i}", "T", "en", claim, (("d", QUOTE),), label)


def test_the_guard_threshold_lets_through_at_most_the_allowed_share() -> None:
    assert guard_threshold([], 0.0) == 0.0
    t = guard_threshold([0.3, 0.8, 0.6], 0.0)
    assert t > 0.8
    assert math.isclose(t, 0.8)
    t = guard_threshold([0.3, 0.8, 0.6], 1 / 3)  # one of three may pass
    assert 0.6 < t < 0.8
    assert guard_threshold([0.3, 0.8], 1.0) == 0.0  # no guard
    assert guard_threshold([1.0], 0.0) == 1.0  # never above 1 ...
    assert guard_figures([1.0], 0.7, 1.0, 0.0).accepted == 1  # ... and the figures say so
    fig = guard_figures([0.3, 0.8, 0.6], 0.5, t, 0.0)
    assert (fig.judged, fig.accepted_at_far_threshold, fig.accepted) == (3, 2, 1)


def test_probes_are_the_entailed_claims_mutants_the_rules_leave_to_the_model() -> None:
    pool = [record(0, "entailed"), record(1, "insufficient"), record(2, "entailed")]
    found = probes(pool, [0, 1], random.Random(0))
    made = mutants(QUOTE, "en")
    assert found, "an edit the rules cannot settle by a slot reaches the model"
    assert {p.record for p in found} == {0}  # not the insufficient one, not record 2
    rules = RulesChecker()
    for p in found:
        assert p.claim.claim in {m.claim for m in made}
        assert p.claim.evidence == pool[0].evidence
        request = to_request(p.claim)
        assert may_lift(request, rules.check(request))
    settled = [m for m in made if m.claim not in {p.claim.claim for p in found}]
    assert any(m.operator == "number" for m in settled)  # 30 -> another number is final
    assert len(probes(pool, [0, 2], random.Random(0), limit=1)) <= 1


def _options(**kw: object) -> object:
    from stream.learn.run import LearnOptions

    return replace(LearnOptions(files=(), output=Path("m"), base="tiny", target_far=0.0), **kw)


def test_the_threshold_and_the_figures_rise_above_held_out_mutants() -> None:
    pytest.importorskip("torch")
    from stream.learn.run import _cv_figures, _threshold

    pool = [record(i, "entailed" if i % 2 == 0 else "insufficient") for i in range(8)]
    p = [0.9, 0.52, 0.8, 0.6, 0.75, 0.51, 0.95, 0.62]
    edits = [Probe(0, "entity", pool[0]), Probe(2, "negation", pool[2])]
    q = [0.85, 0.55]
    options = _options()
    t, far = _threshold(pool, range(8), p, edits, q, options)  # type: ignore[arg-type]
    assert far > 0.62  # no negative may pass ...
    assert math.isclose(far, 0.62)
    assert t > 0.85  # ... nor the entity swap
    assert math.isclose(t, 0.85)
    off = _options(mutant_far=1.0)
    assert _threshold(pool, range(8), p, edits, q, off) == (far, far)  # type: ignore[arg-type]
    # only the mutants of the records that choose the threshold count
    assert _threshold(pool, [1, 3, 4, 5, 6, 7], p, edits, q, options)[0] == far  # type: ignore[arg-type]
    # fold B's threshold comes from fold A, whose record 0 has a mutant at 0.85
    accepted, thresholds = _cv_figures(pool, [[0, 1, 2, 3], [4, 5, 6, 7]], p, edits, q, options)  # type: ignore[arg-type]
    assert math.isclose(thresholds[0], 0.62)
    assert math.isclose(thresholds[1], 0.85)
    assert [i for i, a in enumerate(accepted) if a] == [0, 2, 6]  # 0.75 is below fold B's
    accepted, _ = _cv_figures(pool, [[0, 1, 2, 3], [4, 5, 6, 7]], p, edits, q, off)  # type: ignore[arg-type]
    assert [i for i, a in enumerate(accepted) if a] == [0, 2, 4, 6, 7]  # 7: 0.62 >= 0.6


def test_a_mutant_rate_outside_0_1_is_one_line_and_exit_2(tmp_path: Path) -> None:
    done = cli("learn", str(tmp_path / "x.jsonl"), "-o", str(tmp_path / "m"), "--mutant-far", "2")
    assert done.returncode == 2
    assert "must be between 0 and 1" in one_line_error(done)


def test_training_shows_as_many_edits_of_an_entailed_claim_as_asked() -> None:
    pytest.importorskip("torch")
    from stream.checkers.modeldir import Recipe
    from stream.learn.data import examples

    pool = [record(0, "entailed"), record(1, "insufficient")]
    made = {m.claim: m.operator for m in mutants(QUOTE, "en")}
    assert len(made) >= 3
    for n in (1, 2, 3, 99):
        data = examples(
            pool, Recipe(threshold=0.5), random.Random(0), with_mutants=True, per_claim=n
        )
        edits = [e for e in data if e.kind.startswith("mutant:")]
        assert len(edits) == min(n, len(made))
        assert len({e.kind for e in edits}) == len(edits)  # each by another operator
        assert all(not e.label and made[e.claim] == e.kind[7:] for e in edits)
        assert [e.kind for e in data if not e.kind.startswith("mutant:")] == ["record", "record"]
    none = examples(pool, Recipe(threshold=0.5), random.Random(0), with_mutants=False, per_claim=3)
    assert [e.kind for e in none] == ["record", "record"]
