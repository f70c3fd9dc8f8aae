"""`citegate learn`, end to end: split, fine-tuning, int8 export, threshold, `model.toml`.

By default (`folds` = 1) one stratified fifth is held out: the model trained on the rest
scores it through the exported int8 ONNX model and the run-time scorer (`stream.checkers.
model`), exactly as the stage will; the threshold is chosen on those scores for the target
false-accept rate, and that model is the one shipped — its threshold is calibrated on its own
scores. The figures in `model.toml` judge each half of the held-out fifth at the threshold
chosen on the other half, so no record's own label sets the threshold that judges it.

With `folds` = K >= 2, K models are each trained without one fold and score it; the threshold
is chosen on all held-out scores and a final model is trained on every record. That uses all
records for the shipped model but costs K + 1 runs, and the final model's scores need not be
calibrated like the fold models' (measured: docs/checker-quality.md).
"""

from __future__ import annotations

import copy
import logging
import os
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import orjson
import torch

from stream.checkers.model import ModelScorer
from stream.checkers.modeldir import (
    MANIFEST,
    ModelDir,
    Recipe,
    file_sha256,
    load_model_dir,
    primary_language,
)
from stream.checkers.pairs import PairTokenizer
from stream.errors import UsageError
from stream.learn import guard, manifest
from stream.learn.bases import Base, base
from stream.learn.data import POSITIVE, examples, fragments, stratified_folds, subsample
from stream.learn.encoder import CrossEncoder
from stream.learn.export import export_onnx
from stream.learn.threshold import Figures, choose_threshold, figures
from stream.learn.train import TrainOptions, TrainStats, train
from stream.quality.evaluate import LabelledClaim, load_records

log = logging.getLogger("citegate.learn")


@dataclass(frozen=True, slots=True)
class LearnOptions:
    files: tuple[str, ...]
    output: Path
    base: str
    target_far: float = 0.02
    mutant_far: float = 0.0
    epochs: float = 3.0
    max_minutes: float = 30.0
    seed: int = 0
    folds: int = 1
    max_records: int | None = None
    mutants: bool = True
    mutants_per_claim: int = 3
    layers: int | None = None
    threads: int | None = None
    bf16: bool = False
    recipe: Recipe = field(default_factory=lambda: Recipe(threshold=0.5))
    train: TrainOptions = field(default_factory=TrainOptions)
    scores_out: Path | None = None
    cv_only: bool = False


@dataclass(frozen=True, slots=True)
class TrainingFile:
    path: str
    records: int
    used: int
    entailed: int
    sha256: str


def say(message: str) -> None:
    sys.stderr.write(f"citegate learn: {message}\n")


def _load(options: LearnOptions) -> tuple[list[TrainingFile], list[LabelledClaim]]:
    files: list[TrainingFile] = []
    pool: list[LabelledClaim] = []
    rng = random.Random(options.seed)
    for name in options.files:
        records = load_records(Path(name), name)
        used = subsample(records, options.max_records, rng)
        entailed = sum(r.label == POSITIVE for r in used)
        files.append(TrainingFile(name, len(records), len(used), entailed, file_sha256(Path(name))))
        pool += used
    positives = sum(r.label == POSITIVE for r in pool)
    if positives < 2 or len(pool) - positives < 2:
        raise UsageError("learn needs at least 2 entailed and 2 not-entailed claims")
    if options.folds > 1 and len(pool) < 2 * options.folds:
        raise UsageError(f"{len(pool)} claims are too few for {options.folds} folds")
    return files, pool


def _fresh(pristine: CrossEncoder) -> CrossEncoder:
    return copy.deepcopy(pristine)


def _fit(
    pristine: CrossEncoder,
    pairs: PairTokenizer,
    records: Sequence[LabelledClaim],
    options: LearnOptions,
    seconds: float,
    desc: str,
) -> tuple[CrossEncoder, TrainStats]:
    rng = random.Random(options.seed)
    data = examples(
        records,
        options.recipe,
        rng,
        with_mutants=options.mutants,
        pairs=pairs,
        per_claim=options.mutants_per_claim,
    )
    model = _fresh(pristine)
    stats = train(
        model,
        pairs,
        data,
        replace(options.train, seconds=seconds, epochs=options.epochs, bf16=options.bf16),
        desc=desc,
    )
    return model, stats


def _write_model(model: CrossEncoder, pairs: PairTokenizer, directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    export_onnx(model, directory)
    pairs.save(directory)


def _score(directory: Path, recipe: Recipe, records: Sequence[LabelledClaim]) -> list[float]:
    """Held-out scores through the shipped path: int8 ONNX model, windows, best window."""
    scorer = ModelScorer(
        ModelDir(directory, recipe, {}, "", "fold", {}), threads=torch.get_num_threads()
    )
    out: list[float] = []
    for start in range(0, len(records), 64):
        chunk = records[start : start + 64]
        out += [s.p for s in scorer.score([(r.claim, fragments(r)) for r in chunk])]
    return out


def _threshold(
    pool: Sequence[LabelledClaim],
    indices: Sequence[int],
    p: Sequence[float],
    probes: Sequence[guard.Probe],
    q: Sequence[float],
    options: LearnOptions,
) -> tuple[float, float]:
    """(threshold, the threshold the false-accept target alone gives) on the held-out scores
    of `indices`: the guard raises it above the scores of their mutants (`guard`)."""
    far = choose_threshold(
        [p[i] for i in indices], [pool[i].label == POSITIVE for i in indices], options.target_far
    )
    chosen = set(indices)
    mine = [s for probe, s in zip(probes, q, strict=True) if probe.record in chosen]
    return max(far, guard.guard_threshold(mine, options.mutant_far)), far


def _cv_figures(
    pool: Sequence[LabelledClaim],
    folds: Sequence[Sequence[int]],
    p: Sequence[float],
    probes: Sequence[guard.Probe],
    q: Sequence[float],
    options: LearnOptions,
) -> tuple[list[bool], list[float]]:
    """Accept decisions where no record's own label sets the threshold that judges it: fold
    k's threshold comes from the other folds' scores (and their mutants'); with one held-out
    fifth, each half of it is judged at the threshold chosen on the other half (alternate
    records of each label)."""
    positive = [r.label == POSITIVE for r in pool]
    parts = list(folds)
    if len(parts) == 1:
        ranked = sorted(parts[0], key=lambda i: (positive[i], i))
        parts = [ranked[0::2], ranked[1::2]]
    accepted = [False] * len(pool)
    thresholds: list[float] = []
    everything = [i for f in parts for i in f]
    for k, part in enumerate(parts):
        others = [i for j, f in enumerate(parts) if j != k for i in f]
        if all(positive[i] for i in others):  # too few records to hold any negative out
            others = everything
        t, _ = _threshold(pool, others, p, probes, q, options)
        thresholds.append(t)
        for i in part:
            accepted[i] = p[i] >= t
    return accepted, thresholds


def learn(options: LearnOptions) -> Path:
    began = time.monotonic()
    if options.threads:
        torch.set_num_threads(options.threads)
    files, pool = _load(options)
    b: Base = base(options.base)
    say(f"base {b.name} from the {b.pip_name} wheel; {len(pool)} claims from {len(files)} file(s)")
    pristine, pairs = b.load(options.recipe.max_length)
    if options.layers is not None:
        if not 1 <= options.layers <= len(pristine.layers):
            raise UsageError(f"--layers must be between 1 and {len(pristine.layers)}")
        pristine.layers = pristine.layers[: options.layers]
    recipe = replace(options.recipe, claim_prefix=b.claim_prefix, evidence_prefix=b.evidence_prefix)
    options = replace(options, recipe=recipe)
    rng = random.Random(options.seed)
    k = options.folds
    folds = stratified_folds(pool, k, rng) if k > 1 else [stratified_folds(pool, 5, rng)[0]]
    runs = k + (0 if k == 1 or options.cv_only else 1)
    per_run = max(10.0, options.max_minutes * 60.0 * 0.85 / runs)
    p = [0.0] * len(pool)
    held_out = [i for f in folds for i in f]
    probes = (
        guard.probes(pool, held_out, random.Random(options.seed)) if options.mutant_far < 1 else []
    )
    q = [0.0] * len(probes)
    if options.mutant_far < 1:
        say(f"guard: {len(probes)} mutants of held-out entailed claims reach the model tier")
    size = 0
    stats: list[TrainStats] = []
    out = options.output
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".learn-", dir=out.parent))
    try:
        for n, fold in enumerate(folds, start=1):
            held = set(fold)
            rest = [r for i, r in enumerate(pool) if i not in held]
            label = f"fold {n}/{len(folds)}" if k > 1 else "held-out fifth"
            say(f"{label}: training on {len(rest)} claims, {len(fold)} held out")
            model, st = _fit(pristine, pairs, rest, options, per_run, label)
            stats.append(st)
            target = staging if k == 1 else staging / f"fold{n}"
            _write_model(model, pairs, target)
            for i, s in zip(fold, _score(target, recipe, [pool[i] for i in fold]), strict=True):
                p[i] = s
            mine = [j for j, probe in enumerate(probes) if probe.record in held]
            scores = _score(target, recipe, [probes[j].claim for j in mine])
            for j, s in zip(mine, scores, strict=True):
                q[j] = s
            size = sum(f.stat().st_size for f in target.iterdir() if f.is_file())
            if k > 1:
                shutil.rmtree(target)
        scored = sorted(i for f in folds for i in f)
        positive = [pool[i].label == POSITIVE for i in scored]
        threshold, far_threshold = _threshold(pool, scored, p, probes, q, options)
        accepted, fold_thresholds = _cv_figures(pool, folds, p, probes, q, options)
        unguarded, _ = _cv_figures(pool, folds, p, probes, q, replace(options, mutant_far=1.0))
        guarded = guard.guard_figures(
            q,
            far_threshold,
            threshold,
            options.mutant_far,
            figures([unguarded[i] for i in scored], positive).accept_recall,
        )
        if k > 1 and not options.cv_only:
            say(f"final model: training on all {len(pool)} claims")
            model, st = _fit(pristine, pairs, pool, options, per_run, "final model")
            stats.append(st)
            _write_model(model, pairs, staging)
        if options.scores_out is not None:
            edits = guard.Held(probes, q, options.mutant_far)
            _write_scores(options.scores_out, pool, folds, p, edits, fold_thresholds, stats, size)
        if k > 1 and options.cv_only:
            say("--cv-only: held-out scores written, no model")
            return out
        languages = tuple(sorted({primary_language(r.language) for r in pool}))
        final = replace(recipe, threshold=threshold, languages=languages)
        cv = figures([accepted[i] for i in scored], positive)
        per_file = _per_file(files, pool, scored, accepted)
        _write_manifest(
            staging, options, b, files, final, cv, guarded, per_file, stats, fold_thresholds, began
        )
        load_model_dir(staging)  # what we ship must load
        _install(staging, out)
        say(
            f"wrote {out}: threshold {threshold:.3f}; held out: false accepts "
            f"{_pct(cv.false_accept_rate)}, accept recall {_pct(cv.accept_recall)}, "
            f"BAcc {cv.binary_bacc or 0:.3f} ({time.monotonic() - began:.0f} s)"
        )
        say(
            f"guard: of {guarded.judged} held-out mutants the model judges, "
            f"{guarded.accepted_at_far_threshold} pass the false-accept threshold "
            f"{far_threshold:.3f} and {guarded.accepted} the shipped one; accept recall held "
            f"out {_pct(guarded.recall_without_guard)} without the guard"
        )
        return out
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)


def _pct(v: float | None) -> str:
    return "-" if v is None else f"{v:.1%}"


def _per_file(
    files: Sequence[TrainingFile],
    pool: Sequence[LabelledClaim],
    scored: Sequence[int],
    accepted: Sequence[bool],
) -> list[dict[str, Any]]:
    out = []
    start = 0
    for f in files:
        idx = [i for i in scored if start <= i < start + f.used]
        start += f.used
        fig = figures([accepted[i] for i in idx], [pool[i].label == POSITIVE for i in idx])
        out.append({"file": Path(f.path).name, **fig.as_dict()})
    return out


def _write_scores(
    path: Path,
    pool: Sequence[LabelledClaim],
    folds: Sequence[Sequence[int]],
    p: Sequence[float],
    held: guard.Held,
    thresholds: Sequence[float],
    stats: Sequence[TrainStats],
    size: int,
) -> None:
    """Held-out score per record (JSONL), `PATH.runs.json` (each run's training figures) and
    `PATH.mutants.jsonl` (the guard's held-out mutants: the record each edits and its score)."""
    runs = [
        {"examples": s.examples, "steps": s.steps, "seen": s.seen, "seconds": round(s.seconds, 1),
         "stopped_by": s.stopped_by}
        for s in stats
    ]  # fmt: skip
    meta = {
        "runs": runs,
        "fold_thresholds": list(thresholds),
        "last_model_bytes": size,
        "mutant_far": held.mutant_far,
    }
    path.with_name(path.name + ".runs.json").write_bytes(orjson.dumps(meta))
    fold_of = {i: n for n, f in enumerate(folds) for i in f}
    with path.with_name(path.name + ".mutants.jsonl").open("wb") as f:
        for probe, score in zip(held.probes, held.scores, strict=True):
            row = {"of": pool[probe.record].id, "operator": probe.operator, "p": round(score, 6)}
            f.write(orjson.dumps(row | {"fold": fold_of[probe.record]}) + b"\n")
    with path.open("wb") as f:
        for i, r in enumerate(pool):
            if i in fold_of:
                row = {"id": r.id, "label": r.label, "dataset": r.dataset, "p": round(p[i], 6)}
                row |= {"fold": fold_of[i], "threshold": thresholds[fold_of[i]]}
                f.write(orjson.dumps(row) + b"\n")


def _write_manifest(
    directory: Path,
    options: LearnOptions,
    b: Base,
    files: Sequence[TrainingFile],
    recipe: Recipe,
    cv: Figures,
    guarded: guard.GuardFigures,
    per_file: Sequence[dict[str, Any]],
    stats: Sequence[TrainStats],
    fold_thresholds: Sequence[float],
    began: float,
) -> None:
    base_table = {
        "name": b.name,
        "wheel": b.pip_name,
        "licence": b.licence,
        "sha256": b.digest(),
        "layers": options.layers or 0,
    }
    tables: dict[str, dict[str, Any]] = {
        "training": {
            "seed": options.seed,
            "epochs": options.epochs,
            "max_minutes": options.max_minutes,
            "mutants": options.mutants,
            "mutants_per_claim": options.mutants_per_claim if options.mutants else 0,
            "lr": options.train.lr,
            "train_layers": options.train.train_top or 0,
            "max_records_per_file": options.max_records or 0,
            "runs": len(stats),
            "examples_per_run": [s.examples for s in stats],
            "steps_per_run": [s.steps for s in stats],
            "seconds_per_run": [round(s.seconds, 1) for s in stats],
            "stopped_by": [s.stopped_by for s in stats],
            "threads": torch.get_num_threads(),
            "bf16": options.bf16,
            "wall_seconds": round(time.monotonic() - began, 1),
        },
        "cv": {
            "method": f"{options.folds}-fold"
            if options.folds > 1
            else "held-out fifth (each half judged at the threshold from the other)",
            "target_far": options.target_far,
            "fold_thresholds": [round(t, 4) for t in fold_thresholds],
            **cv.as_dict(),
        },
        "guard": guarded.as_dict(),
    }
    arrays = {
        "training.files": [
            {"path": f.path, "records": f.records, "used": f.used, "entailed": f.entailed,
             "sha256": f.sha256}
            for f in files
        ],
        "cv.files": list(per_file),
    }  # fmt: skip
    header = [
        "citegate learned checker, written by `citegate learn`.",
        f"use: citegate worker --checker model:{options.output}  (or cascade with CITEGATE_MODEL)",
    ]
    manifest.seal(directory, recipe, base_table, tables, arrays, header)


def _install(staging: Path, out: Path) -> None:
    """Move the finished directory into place; replace only an older model directory."""
    if out.exists():
        if not (out / MANIFEST).exists() and any(out.iterdir()):
            raise UsageError(f"{out} exists and is not a model directory; choose another -o")
        shutil.rmtree(out)
    os.replace(staging, out)
