"""`python -m tests.gate.realistic [--data DIR] [--model DIR] [--show] [--list] [--check]`.

The suite's figures (with `--model DIR`, of the cascade rules -> that learned model).

Per language and answer form: faithful claims accepted (n, %), faithful claims called
`contradicted`, overreaching claims accepted, contradictions called `contradicted`, and the
per-answer decisions. ``--show`` lists every case judged wrongly with the checker's reason;
``--list`` prints every case with its quote (for reviewing the labels, no checker run);
``--check`` validates the data only (the held-out minimums apply with ``--data``).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from stream.checkers.base import SyncChecker
from stream.checkers.cascade import CascadeChecker
from stream.checkers.model import model_checker
from stream.errors import UsageError
from stream.verify.checkers import RulesChecker
from stream.verify.model import CheckRequest, CheckResult, Ref
from tests.gate.realistic.harness import FORMS, Figures, Run, Suite, is_wrong, load_suite, run_suite


def _pct(n: int, d: int) -> str:
    return f"{n}/{d} ({100 * n / d:.0f}%)" if d else "0/0"


def report(suite: Suite, run: Run) -> list[str]:
    lines = [
        f"{'lang':4} {'form':8} {'faithful accepted':>18} {'faithful contra.':>17} "
        f"{'overreach acc.':>15} {'contra. found':>15} {'contra. acc.':>12}  "
        "clean answers: all entailed -> accept | decisions | split failures"
    ]
    for lang in suite.answers:
        for form in FORMS:
            f = Figures.of(run.select(lang, form))
            decisions = ", ".join(f"{k} {v}" for k, v in f.decisions.items())
            lines.append(
                f"{lang:4} {form:8} {_pct(f.faithful_accepted, f.faithful):>18} "
                f"{_pct(f.faithful_contradicted, f.faithful):>17} "
                f"{_pct(f.overreach_accepted, f.overreach):>15} "
                f"{_pct(f.contradiction_found, f.contradiction):>15} "
                f"{_pct(f.contradiction_accepted, f.contradiction):>12}  "
                f"{f.faithful_answers}: {f.faithful_answers_all_entailed} -> "
                f"{f.faithful_answers_accepted_when_all_entailed} | {decisions} | {f.split_failures}"
            )
    return lines


def show(run: Run) -> list[str]:
    lines = []
    for o in run.outcomes:
        if is_wrong(o):
            lines.append(
                f"[{o.language}/{o.form}/{o.case.kind}] {o.answer_id} {o.verdict}: {o.case.claim}"
            )
            lines.append(f"    note: {o.case.note}")
            lines.append(f"    quote: {o.case.quote}")
            lines.append(f"    reason: {o.reason}")
            if o.unsupported:
                lines.append(f"    unsupported: {', '.join(o.unsupported)}")
            if o.signals:
                lines.append(f"    signals: {'; '.join(o.signals)}")
    return lines


def listing(suite: Suite) -> list[str]:
    lines = []
    for lang, answers in suite.answers.items():
        for n, cases in enumerate(answers):
            lines.append(f"== {lang} answer {n} ({cases[0].doc.id})")
            for c in cases:
                lines.append(f"  [{c.kind}] {c.claim}")
                lines.append(f"      note: {c.note}")
                lines.append(f"      quote: {c.quote}")
    return lines


def counts(suite: Suite) -> str:
    lines = []
    for lang, answers in suite.answers.items():
        cases = [c for a in answers for c in a]
        by_kind = {
            k: sum(c.kind == k for c in cases) for k in ("faithful", "overreach", "contradiction")
        }
        lines.append(
            f"{lang}: {len(suite.docs[lang])} documents, {len(answers)} answers, "
            + ", ".join(f"{k} {v}" for k, v in by_kind.items())
        )
    return "\n".join(lines)


class CascadeJudge:
    """Rules, then the learned model where the cascade lets it lift (`--model DIR`)."""

    def __init__(self, cascade: CascadeChecker) -> None:
        self.cascade = cascade
        self.loop = asyncio.new_event_loop()

    @classmethod
    def of(cls, model: Path) -> CascadeJudge:
        return cls(CascadeChecker(SyncChecker(RulesChecker()), learned=model_checker(str(model))))

    @property
    def ref(self) -> Ref:
        return self.cascade.ref

    def __call__(self, requests: Sequence[CheckRequest]) -> Mapping[str, CheckResult]:
        return self.loop.run_until_complete(self.cascade.check_many(requests))

    def close(self) -> None:
        self.loop.run_until_complete(self.cascade.close())
        self.loop.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.gate.realistic", description=__doc__)
    parser.add_argument("--data", type=Path, help="directory with en.py/ru.py/zh.py data modules")
    parser.add_argument("--show", action="store_true", help="list every wrongly judged case")
    parser.add_argument("--list", action="store_true", help="print the cases, run nothing")
    parser.add_argument("--check", action="store_true", help="validate the data, run nothing")
    parser.add_argument(
        "--model",
        type=Path,
        metavar="DIR",
        help="judge with the cascade rules -> model (a directory written by `citegate learn`)",
    )
    args = parser.parse_args(argv)
    if args.data is not None and not args.data.is_dir():
        print(f"error: --data {args.data} is not a directory", file=sys.stderr)
        return 2
    try:
        suite = load_suite(args.data)
    except (ImportError, FileNotFoundError, AttributeError, ValueError, SyntaxError) as exc:
        print(f"error: cannot load the suite: {exc}", file=sys.stderr)
        return 2
    if args.list:
        print("\n".join(listing(suite)))
        return 0
    if args.check:
        from tests.gate.realistic.wellformed import HELDOUT, PUBLIC, validate

        problems = validate(suite, PUBLIC if args.data is None else HELDOUT)
        print("\n".join(problems) or "data well-formed")
        print(counts(suite))
        return 1 if problems else 0
    judge = None
    if args.model is not None:
        try:
            judge = CascadeJudge.of(args.model)
        except (UsageError, OSError) as exc:
            print(f"error: --model {args.model}: {exc}", file=sys.stderr)
            return 2
    try:
        run = run_suite(suite, judge=judge)
    finally:
        if judge is not None:
            judge.close()
    for failure in run.split_failures:
        print(f"SPLIT MISMATCH {failure.message}", file=sys.stderr)
    if args.show:
        print("\n".join(show(run)))
        print()
    print("\n".join(report(suite, run)))
    return 1 if run.split_failures else 0


if __name__ == "__main__":
    sys.exit(main())
