"""The lexical head of a learned checker: fitting (stream.learn.stack), its file, its use.

The head puts the rules' alignment features next to the cross-encoder's score; these tests pin
what makes that safe to ship: a held-out record's own label never moves the score the threshold
is chosen on, a small held-out set cannot swing the combiner far from adding the two logits, a
head fitted on other features is refused, and the checker says what each part scored.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from stream.checkers.lexical import FEATURES, LEXICAL_FILE, LexicalHead, feature_values
from stream.errors import UsageError
from stream.verify.checkers import BASE_VERSION
from stream.verify.model import CheckRequest, Fragment
from tests.learned import need_learn_extra


def head(**kw: object) -> LexicalHead:
    n = len(FEATURES)
    values: dict[str, object] = {
        "features": FEATURES,
        "mean": (0.5,) * n,
        "scale": (0.25,) * n,
        "weights": (1.0,) + (0.0,) * (n - 1),
        "bias": -0.5,
        "model_weight": 1.0,
        "lexical_weight": 1.0,
        "offset": 0.0,
    }
    return LexicalHead(**(values | kw))  # type: ignore[arg-type]


def test_logistic_finds_the_direction_and_a_prior_holds_a_small_sample() -> None:
    from stream.learn.stack import logistic

    rng = np.random.default_rng(0)
    x = rng.normal(size=(400, 2))
    y = (x[:, 0] - 0.2 * x[:, 1] + 0.3 * rng.normal(size=400)) > 0
    w = logistic(x, y, l2=1.0)
    assert w[1] > 2.0
    assert w[2] < 0.0
    assert abs(w[1]) > 3 * abs(w[2])
    # four records: the penalty keeps the weights near the prior (the logits added)
    few = logistic(x[:4], y[:4], l2=5.0, prior=np.array([1.0, 1.0]))
    assert np.allclose(few[1:], [1.0, 1.0], atol=0.5)


def test_crossed_scores_do_not_see_their_own_label() -> None:
    from stream.learn.stack import FeatureModel, auc, cross_fit, fit_head, parts_of

    rng = random.Random(1)
    n = 60
    positive = [i % 3 == 0 for i in range(n)]
    p_model = [min(0.95, max(0.05, (0.7 if g else 0.4) + rng.uniform(-0.3, 0.3))) for g in positive]
    lexical = [(1.0 if g else -0.5) + rng.uniform(-1.5, 1.5) for g in positive]
    z = np.array([[np.log(p / (1 - p)), x] for p, x in zip(p_model, lexical, strict=True)])
    y = np.array(positive)
    parts = parts_of(positive, random.Random(7))
    assert sorted(i for part in parts for i in part) == list(range(n))
    crossed = cross_fit(z, y, parts)
    for i in (0, 1, 2, 30):
        flipped = y.copy()
        flipped[i] = not flipped[i]
        again = cross_fit(z, flipped, parts)
        assert again[i] == crossed[i]  # its own label moved nothing of its own score
        assert again != crossed  # (but it did move the others')
    zeros = (0.0,) * len(FEATURES)
    fm = FeatureModel(zeros, (1.0,) * len(FEATURES), zeros, 0.0)
    h, shipped = fit_head(fm, p_model, lexical, positive, random.Random(7))
    assert shipped == crossed
    assert h.model_weight > 0
    assert h.lexical_weight > 0
    # here both parts carry signal: the combination ranks better than either alone
    both = auc(crossed, positive) or 0.0
    assert both > max(auc(p_model, positive) or 0.0, auc(lexical, positive) or 0.0) - 0.02


def test_features_are_the_rules_alignment_measures() -> None:
    frags = (Fragment("e1", "Refunds are issued within 14 days of receiving the item.", "kb"),)
    close = feature_values("Refunds are issued within 14 days.", frags)
    far = feature_values("The museum opens at nine on Sundays.", frags)
    assert close is not None
    assert far is not None
    assert len(close) == len(FEATURES)
    at = FEATURES.index("coverage")
    assert close[at] > 0.9 > 0.3 > far[at]
    assert feature_values("the of and", frags) is None  # no content word: no features
    h = head()
    assert h.lexical(close) > h.lexical(far)
    assert h.lexical(None) == h.bias


def test_the_head_file_is_checked() -> None:
    h = head()
    assert LexicalHead.from_dict(h.as_dict()) == h
    with pytest.raises(ValueError, match="train the model again"):
        LexicalHead.from_dict(h.as_dict() | {"features_version": "rules-0.1"})
    with pytest.raises(ValueError, match="lacks"):
        LexicalHead.from_dict(h.as_dict() | {"features": [*FEATURES, "shoe_size"]})
    with pytest.raises(ValueError, match="finite"):
        LexicalHead.from_dict(h.as_dict() | {"bias": float("nan")})
    with pytest.raises(ValueError, match="length"):
        LexicalHead.from_dict(h.as_dict() | {"mean": [0.0]})
    assert h.as_dict()["features_version"] == BASE_VERSION


def _with_head(model: Path, data: dict[str, object]) -> Path:
    from stream.checkers.modeldir import Recipe, load_model_dir
    from stream.learn.manifest import seal

    (model / LEXICAL_FILE).write_text(json.dumps(data))
    old = load_model_dir(model, verify=False)
    seal(model, Recipe(old.recipe.threshold, max_length=64, window_chars=120), {"name": "tiny"})
    return model


async def test_the_checker_combines_both_and_says_what_each_scored(tmp_path: Path) -> None:
    need_learn_extra()
    from stream.checkers.model import model_checker
    from tests.learned import tiny_model_dir

    plain = tiny_model_dir(tmp_path / "plain", gain=40.0)
    both = _with_head(tiny_model_dir(tmp_path / "both", gain=40.0), head(bias=-4.0).as_dict())
    frags = (Fragment("e1", "yes yes the data was kept", "doc", "v1", 0),)
    req = CheckRequest("c", "yes the data was kept", frags, "en")
    alone = model_checker(str(plain), threaded=False).check_now([req])["c"]
    combined = model_checker(str(both), threaded=False).check_now([req])["c"]
    assert combined.score < alone.score  # the features' negative bias pulls it down
    assert "cross-encoder p=" in combined.reason
    assert "lexical features p=" in combined.reason
    assert "lexical" not in alone.reason
    assert model_checker(str(both)).ref.version != model_checker(str(plain)).ref.version


def test_a_head_on_other_features_or_damaged_is_one_usage_error(tmp_path: Path) -> None:
    need_learn_extra()
    from stream.checkers.modeldir import load_model_dir
    from tests.learned import tiny_model_dir

    stale = _with_head(
        tiny_model_dir(tmp_path / "stale"), head().as_dict() | {"features_version": "x"}
    )
    with pytest.raises(UsageError, match="train the model again"):
        load_model_dir(stale)
    broken = _with_head(tiny_model_dir(tmp_path / "broken"), head().as_dict())
    (broken / LEXICAL_FILE).write_text("{")
    with pytest.raises(UsageError, match="damaged"):
        load_model_dir(broken)


def test_format_1_directories_still_load(tmp_path: Path) -> None:
    need_learn_extra()
    import tomllib

    from stream.checkers.modeldir import digest, load_model_dir
    from tests.learned import tiny_model_dir

    model = tiny_model_dir(tmp_path / "old")
    text = (model / "model.toml").read_text()
    loaded = load_model_dir(model)
    old = digest(loaded.files, loaded.recipe, 1)
    text = text.replace("format = 2", "format = 1").replace(loaded.digest, old)
    (model / "model.toml").write_text(text)
    again = load_model_dir(model)
    assert tomllib.loads(text)["model"]["format"] == 1
    assert again.lexical is None
    assert again.digest == old
