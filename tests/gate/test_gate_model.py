"""The mutation suite with a learned model in the cascade (rules -> model).

- A model that says "entailed" to everything (a real ONNX model, tests/learned.py) shows what
  the tiers guarantee on their own: no mutant whose rules verdict names a slot mismatch (or a
  strengthened modality, an absolute word, an inference cue) is lifted, and every faithful
  claim stays accepted. The mutants such a model does lift are the ones a trained model must
  refuse by itself; the test prints how many there are.
- `CITEGATE_TEST_MODEL=DIR` (a model trained by `citegate learn`) runs the suite's own
  assertion on it: no mutant accepted, every faithful claim accepted. Without it that test
  skips: CI cannot train a real model in its time budget (docs/checkers.md has the figures
  of the models trained on the dev files).
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from stream.checkers.base import SyncChecker
from stream.checkers.cascade import CascadeChecker, may_lift
from stream.checkers.model import model_checker
from stream.quality.mutations import mutants
from stream.verify.checkers import RulesChecker
from stream.verify.codes import Verdict
from stream.verify.features import evidence_signals
from stream.verify.model import CheckRequest, Fragment
from tests.gate.pairs import PAIRS
from tests.learned import tiny_model_dir


def suite() -> tuple[list[CheckRequest], list[CheckRequest], dict[str, str]]:
    faithful, mutated, what = [], [], {}
    for n, pair in enumerate(PAIRS):
        fragments = (Fragment("q1", pair.quote),)
        faithful.append(
            CheckRequest(
                f"p{n}", pair.claim, fragments, pair.language,
                evidence_signals(pair.claim, fragments),
            )
        )  # fmt: skip
        for m in mutants(pair.claim, pair.language):
            cid = f"p{n}:{m.operator}"
            what[cid] = f"[{pair.language}/{m.operator}] {m.change}: {m.claim}"
            signals = evidence_signals(m.claim, fragments)
            mutated.append(CheckRequest(cid, m.claim, fragments, pair.language, signals))
    return faithful, mutated, what


def cascade_with(model: Path) -> CascadeChecker:
    return CascadeChecker(SyncChecker(RulesChecker()), learned=model_checker(str(model)))


def test_tiers_refuse_slot_mismatches_even_with_a_model_that_accepts_everything(
    tmp_path: Path,
) -> None:
    yes = tiny_model_dir(tmp_path / "yes", gain=0.0, bias=10.0, threshold=0.5)
    faithful, mutated, what = suite()
    cascade = cascade_with(yes)
    out = asyncio.run(cascade.check_many([*faithful, *mutated]))
    assert all(out[r.claim_id].verdict is Verdict.ENTAILED for r in faithful)
    rules = RulesChecker()
    lifted = [r for r in mutated if out[r.claim_id].verdict is Verdict.ENTAILED]
    for r in lifted:
        first = rules.check(r)
        assert first.verdict is Verdict.INSUFFICIENT
        assert may_lift(r, first), what[r.claim_id]
    assert cascade.settled["model"] == len(lifted)
    # what only the model can refuse: a minority of the suite (the rest is settled by the tiers)
    assert len(lifted) < len(mutated) // 4
    print(f"{len(lifted)} of {len(mutated)} mutants reach the learned model")


def test_no_mutant_is_accepted_with_a_trained_model() -> None:
    configured = os.environ.get("CITEGATE_TEST_MODEL")
    if not configured:
        pytest.skip("set CITEGATE_TEST_MODEL to a directory written by `citegate learn`")
    faithful, mutated, what = suite()
    out = asyncio.run(cascade_with(Path(configured)).check_many([*faithful, *mutated]))
    accepted = [what[r.claim_id] for r in mutated if out[r.claim_id].verdict is Verdict.ENTAILED]
    assert not accepted, "\n".join(accepted)
    assert all(out[r.claim_id].verdict is Verdict.ENTAILED for r in faithful)
