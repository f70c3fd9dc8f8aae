"""`citegate calibrate`: fit the rules checker on labelled claims of your domain.

Prints, per file, the figures of the checker it starts from and those of the fitted one
measured by 5-fold cross-validation on the same files (never in-sample, which would flatter
it), then writes the config whose hash becomes the new checker version.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from tqdm import tqdm

from stream.checkers.config import dumps_rules_config, load_rules_config
from stream.commands.render import table
from stream.errors import UsageError
from stream.quality.evaluate import (
    binary_bacc,
    confusion_matrix,
    false_accept_rate,
    load_records,
    macro_f1,
)
from stream.verify.checkers import RulesConfig
from stream.verify.model import Fragment


def register(sub: Any) -> None:
    p = sub.add_parser("calibrate", help="fit the rules checker on labelled claims (JSONL)")
    p.add_argument("files", nargs="+", metavar="FILE", help="labelled claims, eval format")
    p.add_argument("-o", "--output", required=True, help="checker config to write (TOML)")
    p.add_argument("--base", default=None, help="start from this checker config")
    p.add_argument("--folds", type=int, default=5, help="cross-validation folds (>= 2)")
    p.add_argument("--l2", type=float, default=30.0, help="L2 regularisation strength")
    p.add_argument("--limit", type=int, default=None, help="first N records per file")
    p.add_argument(
        "--max-false-accept",
        type=float,
        default=0.05,
        metavar="RATE",
        help="highest false-accept rate the threshold may allow on any file (default 0.05)",
    )
    p.set_defaults(handler=run)


def _figures(
    gold: tuple[str, ...], predicted: list[str]
) -> tuple[float | None, float | None, float | None]:
    bacc = binary_bacc(gold, predicted)
    f1 = macro_f1(confusion_matrix(gold, predicted)) if "contradicted" in gold else None
    return bacc, f1, false_accept_rate(gold, predicted)


def _fmt(v: float | None) -> str:
    return "-" if v is None else f"{v:.3f}"


def run(args: argparse.Namespace) -> int:
    if args.folds < 2:
        raise UsageError("--folds must be at least 2")
    if not 0.0 <= args.max_false_accept <= 1.0:
        raise UsageError("--max-false-accept must be between 0 and 1")
    try:
        from stream.quality.calibration import (
            LabelledSet,
            cross_validated,
            decide_matrix,
            featurize,
            fit,
        )
    except ImportError:
        raise UsageError("calibrate needs numpy: pip install 'citegate[eval]'") from None
    base = load_rules_config(args.base) if args.base else RulesConfig()
    files = [(f, load_records(Path(f), limit=args.limit)) for f in args.files]
    total = sum(len(r) for _, r in files)
    bar = tqdm(total=total, unit="claim", file=sys.stderr, disable=None, leave=False)
    sets = []
    for name, records in files:
        rows = []
        for r in records:
            fragments = tuple(
                Fragment(f"e{i}", text, doc) for i, (doc, text) in enumerate(r.evidence, start=1)
            )
            rows.append(featurize(r.claim, fragments, base))
            bar.update()
        language = records[0].language if records else ""
        sets.append(LabelledSet.from_rows(name, rows, tuple(r.label for r in records), language))
    bar.close()
    try:
        fitted = fit(sets, base, args.l2, args.max_false_accept)
        held_out = cross_validated(sets, base, args.folds, args.l2, args.max_false_accept)
    except ValueError as exc:
        raise UsageError(f"cannot calibrate: {exc}") from None
    rows_out, summary = [], {}
    for s, cv in zip(sets, held_out, strict=True):
        b_bacc, b_f1, b_far = _figures(s.labels, list(decide_matrix(base, s.x, s.language)))
        a_bacc, a_f1, a_far = _figures(s.labels, list(cv))
        rows_out.append(
            [
                Path(s.name).name,
                str(len(s.labels)),
                _fmt(b_bacc),
                _fmt(a_bacc),
                _fmt(b_f1),
                _fmt(a_f1),
                _fmt(b_far),
                _fmt(a_far),
            ]
        )
        summary[Path(s.name).name] = (
            f"bacc {_fmt(b_bacc)} -> {_fmt(a_bacc)}, macro-F1 {_fmt(b_f1)} -> {_fmt(a_f1)}, "
            f"false accepts {_fmt(b_far)} -> {_fmt(a_far)}"
        )
    Path(args.output).write_text(dumps_rules_config(fitted, args.files, summary), "utf-8")
    print(f"checker version: {base.version} -> {fitted.version}")
    print(
        table(
            [
                "file",
                "n",
                "bacc before",
                f"bacc after ({args.folds}-fold cv)",
                "macro-F1 before",
                "macro-F1 after",
                "false-accept before",
                "false-accept after",
            ],
            rows_out,
        )
    )
    print(f"wrote {args.output}")
    return 0
