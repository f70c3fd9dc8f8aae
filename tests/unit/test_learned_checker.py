"""`--checker model:DIR`: a learned model directory is loaded, checked and run by ONNX Runtime.

The model directories are tiny but real (tests/learned.py): exported by `export_onnx`, sealed
by `seal`, loaded by `load_model_dir`, scored by `ModelScorer` — the code paths a model trained
by `citegate learn` takes. Training itself runs in tests/integration/test_learn_loop.py.
"""

from __future__ import annotations

import math
import tomllib
from pathlib import Path

import pytest

from stream.checkers.factory import check_spec, make_checker
from stream.checkers.modeldir import Recipe, load_model_dir
from stream.checkers.pairs import Window, best_windows, windows
from stream.errors import UsageError
from stream.learn.threshold import choose_threshold, figures
from stream.settings import Settings
from stream.verify.codes import SupportStatus, Verdict
from stream.verify.model import CheckRequest, Fragment
from tests.learned import tiny_model_dir


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tiny_model_dir(tmp_path_factory.mktemp("m") / "model", gain=40.0, threshold=0.5)


def request(cid: str, claim: str, *texts: str) -> CheckRequest:
    frags = tuple(Fragment(f"e{i}", t, "doc", "v1", 100) for i, t in enumerate(texts, 1))
    return CheckRequest(cid, claim, frags, "en")


async def test_verdicts_follow_the_threshold_and_name_the_window(model: Path) -> None:
    checker = make_checker(f"model:{model}", Settings())
    long_text = "the claim is in it. " * 12 + "yes yes yes yes the data was kept. " + "no. " * 30
    out = await checker.check_many(
        [
            request("up", "yes the claim", "yes yes yes yes the evidence"),
            request("down", "the claim", "no evidence of the data"),
            request("long", "the data is kept", long_text),
            request("none", "the claim"),
        ]
    )
    assert out["up"].verdict is Verdict.ENTAILED
    assert out["up"].evidence_citation_ids == ("e1",)
    assert out["up"].score >= 0.5
    assert out["down"].verdict is Verdict.INSUFFICIENT
    assert out["down"].support_status is SupportStatus.BEYOND_EVIDENCE
    assert "below threshold" in out["down"].reason
    # long evidence: windows are scored one by one and the claim takes the best one
    assert out["long"].verdict is Verdict.ENTAILED, out["long"].reason
    (span,) = out["long"].evidence
    assert "yes yes" in span.text
    assert long_text[span.start - 100 : span.end - 100] == span.text  # document offsets
    assert out["none"].support_status is SupportStatus.MISSING_CITATION
    assert checker.ref.name == "model"
    digest = tomllib.loads((model / "model.toml").read_text())["model"]["digest"]
    assert checker.ref.version == f"tiny+{digest[:12]}"
    await checker.close()


async def test_a_failure_at_run_time_leaves_claims_unknown(model: Path) -> None:
    checker = make_checker(f"model:{model}", Settings())
    checker.scorer.session = None  # type: ignore[attr-defined]  # the session dies
    out = await checker.check_many([request("c", "yes", "yes yes")])
    assert "c" not in out  # left out: `unknown` downstream, never `entailed`


def test_broken_model_directories_are_one_usage_error(model: Path, tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="not found"):
        load_model_dir(tmp_path / "missing")
    copy = tmp_path / "copy"
    copy.mkdir()
    for f in model.iterdir():
        (copy / f.name).write_bytes(f.read_bytes())
    load_model_dir(copy)
    onnx = copy / "model.onnx"
    data = bytearray(onnx.read_bytes())
    data[len(data) // 2] ^= 0xFF
    onnx.write_bytes(bytes(data))
    with pytest.raises(UsageError, match="damaged"):
        load_model_dir(copy)
    onnx.write_bytes((model / "model.onnx").read_bytes())
    manifest = copy / "model.toml"
    text = manifest.read_text()
    manifest.write_text(text.replace("format = 1", "format = 99"))
    with pytest.raises(UsageError, match="format 99"):
        load_model_dir(copy)
    manifest.write_text(text.replace("threshold = 0.5", "threshold = 0.1"))
    with pytest.raises(UsageError, match="digest"):
        load_model_dir(copy)
    manifest.write_text("not toml [")
    with pytest.raises(UsageError, match="not valid TOML"):
        check_spec(f"model:{copy}", Settings())
    with pytest.raises(UsageError, match="not found"):
        check_spec("cascade", Settings(model=str(tmp_path / "nope")))


def test_windows_cover_long_fragments_and_rank_by_the_claim() -> None:
    text = " ".join(f"Sentence {i} is about topic {i}." for i in range(40))
    ws = windows(Fragment("e1", text), 120)
    assert ws[0].start == 0
    assert all(len(w.text) <= 120 for w in ws)
    assert ws[-1].end == len(text)
    assert all(text[w.start : w.end] == w.text for w in ws)
    best = best_windows("topic 33", [Fragment("e1", text)], 120, 2)
    assert "topic 33" in best[0].text
    assert len(best) == 2
    assert best_windows("x", [Fragment("e1", "short.")], 120, 3) == [Window("e1", 0, 6, "short.")]
    # evidence that fits the model's input next to the claim is read whole, in one pair
    assert best_windows("topic 33", [Fragment("e1", text)], 120, 3, lambda t: True) == [
        Window("e1", 0, len(text), text)
    ]


def test_evidence_that_fits_is_one_pair(model: Path) -> None:
    from stream.checkers.model import model_checker

    checker = model_checker(str(model))
    fits = checker.scorer.tokenizer.fitter("the claim")
    assert fits("the data was kept. " * 10)  # 50 words: fits in 64 tokens with the claim
    assert not fits("the data was kept. " * 20)
    assert not fits("x" * 10_000)


def test_threshold_meets_the_target_false_accept_rate() -> None:
    p = [0.1, 0.2, 0.3, 0.95, 0.6, 0.7, 0.8, 0.9]
    positive = [False, False, False, False, True, True, True, True]
    p = [0.55, 0.6, 0.7, 0.99, 0.65, 0.8, 0.9, 0.95]
    t = choose_threshold(p, positive, 0.25)  # one of four negatives may pass
    assert t > 0.7
    assert math.isclose(t, 0.7, abs_tol=1e-9)
    accepted = [x >= t for x in p]
    fig = figures(accepted, positive)
    assert fig.false_accept_rate == 0.25
    assert fig.accept_recall == 0.75  # 0.65 is below
    assert choose_threshold(p, positive, 0.0) > 0.99
    assert choose_threshold([0.1, 0.9], [False, True], 0.5) == 0.5  # never below the floor
    with pytest.raises(ValueError, match="no not-entailed"):
        choose_threshold([0.9], [True], 0.02)


def test_recipe_changes_change_the_version(model: Path) -> None:
    from stream.checkers.modeldir import digest

    loaded = load_model_dir(model)
    assert digest(loaded.files, loaded.recipe) == loaded.digest
    assert digest(loaded.files, Recipe(0.6, 64, 120, 3)) != loaded.digest


async def test_a_model_judges_only_the_languages_it_was_trained_on(tmp_path: Path) -> None:
    from stream.checkers.base import SyncChecker
    from stream.checkers.cascade import CascadeChecker
    from stream.checkers.model import model_checker
    from stream.checkers.modeldir import primary_language
    from stream.verify.checkers import RulesChecker

    assert primary_language("en-GB") == primary_language("EN_us") == "en"
    yes = tiny_model_dir(tmp_path / "en", gain=0.0, bias=10.0, languages=("en",))
    assert tomllib.loads((yes / "model.toml").read_text())["input"]["languages"] == ["en"]
    checker = model_checker(str(yes), threaded=False)

    def claim(cid: str, language: str, text: str, quote: str) -> CheckRequest:
        return CheckRequest(cid, text, (Fragment("q1", quote),), language)

    en = claim("en", "en-GB", "Backups stay around for a week.", "Backups are retained for 7 days.")
    ru = claim("ru", "ru", "Копии хранят неделю.", "Резервные копии хранятся 7 дней.")
    out = await checker.check_many([en, ru])
    assert out["en"].verdict is Verdict.ENTAILED
    assert out["ru"].verdict is Verdict.UNKNOWN
    assert out["ru"].reason == "learned model: trained on en claims, not 'ru'"
    # in the cascade the Russian claim keeps the rules' verdict: never lifted, never `unknown`
    rules = RulesChecker()
    assert rules.check(ru).verdict is Verdict.INSUFFICIENT
    cascade = CascadeChecker(SyncChecker(rules), learned=checker)
    both = await cascade.check_many([en, ru])
    assert both["ru"].verdict is Verdict.INSUFFICIENT
    assert both["ru"].reason == rules.check(ru).reason
    assert both["en"].verdict is Verdict.ENTAILED
    assert cascade.settled == {"rules": 1, "model": 1, "llm": 0}
    # a directory written before languages were recorded judges every language, as it did
    old = model_checker(str(tiny_model_dir(tmp_path / "old", gain=0.0, bias=10.0)))
    assert (await old.check_many([ru]))["ru"].verdict is Verdict.ENTAILED


def test_a_mistyped_language_list_is_one_usage_error(tmp_path: Path) -> None:
    path = tiny_model_dir(tmp_path / "m", languages=("en",))
    toml = path / "model.toml"
    toml.write_text(toml.read_text().replace('languages = ["en"]', 'languages = "en"'))
    with pytest.raises(UsageError, match="languages"):
        load_model_dir(path)
