"""`citegate eval`: measure a checker on labelled claim files (see `stream.quality.evaluate`).

All files are read and validated before the first checker call, so a typo in the last file
does not waste a long (possibly paid) model run on the first ones.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import orjson
from tqdm import tqdm

from stream.checkers.factory import make_checker
from stream.commands.render import table
from stream.quality.evaluate import (
    PREDICTED,
    FileResult,
    LabelledClaim,
    load_records,
    mutation_catch,
    predict,
    score,
)
from stream.settings import Settings
from stream.verify.align import warm


def _positive(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {value!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return n


def register(sub: Any) -> None:
    p = sub.add_parser("eval", help="measure the checker on labelled claim files (JSONL)")
    p.add_argument("files", nargs="+", metavar="FILE", help="labelled claims, JSONL")
    p.add_argument(
        "--checker",
        default=None,
        metavar="NAME|CONFIG",
        help="checker to measure: rules, llm, model:DIR, cascade or a config "
        "(default: $CITEGATE_CHECKER, else rules)",
    )
    p.add_argument(
        "--format",
        choices=("json", "table"),
        default=None,
        help="output format (default: table on a terminal, else json)",
    )
    p.add_argument(
        "--report",
        metavar="DIR",
        default=None,
        help="write report.md, report.html and plots to DIR (needs citegate[eval])",
    )
    p.add_argument("--limit", type=_positive, default=None, metavar="N", help="first N per file")
    p.add_argument(
        "--no-mutations",
        dest="mutations",
        action="store_false",
        help="skip the mutation catch rate (mutants of each file's entailed claims)",
    )
    p.set_defaults(handler=run)


async def _evaluate(
    spec: str,
    settings: Settings,
    loaded: list[tuple[str, list[LabelledClaim]]],
    mutations: bool = True,
) -> tuple[list[FileResult], str]:
    checker = make_checker(spec, settings)
    # the tables load before the clock starts, as a worker loads them at start
    warm({r.language for _, records in loaded for r in records})
    total = sum(len(records) for _, records in loaded)
    try:
        results = []
        with tqdm(
            total=total, unit="claim", file=sys.stderr, disable=None, leave=False, mininterval=0.5
        ) as bar:
            for name, records in loaded:
                bar.set_description(Path(name).name)
                predictions, seconds = await predict(checker, records, on_batch=bar.update)
                result = score(name, records, predictions, seconds)
                if mutations:
                    caught = await mutation_catch(checker, records, result.predicted)
                    result = replace(result, mutation=caught)
                results.append(result)
        ref = checker.ref
        return results, f"{ref.name} {ref.version}"
    finally:
        await checker.close()


def render(results: list[FileResult]) -> str:
    """Per-file summary table, then the confusion matrix of each three-way file."""

    def f(value: float | None, digits: int = 4) -> str:
        return "-" if value is None else f"{value:.{digits}f}"

    rows = [
        [
            r.file,
            r.dataset,
            r.language,
            str(r.n),
            f(r.binary_bacc),
            f(r.macro_f1),
            f(r.unknown_rate),
            f(r.false_accept_rate),
            f(r.accept_recall),
            f(r.mutation.rate if r.mutation else None),
            f(r.claims_per_s, 1),
        ]
        for r in results
    ]
    head = [
        "file",
        "dataset",
        "lang",
        "n",
        "bacc",
        "macro_f1",
        "unknown",
        "false_accept",
        "accept_recall",
        "mutation_catch",
        "claims/s",
    ]
    out = [table(head, rows)]
    for r in results:
        if r.mutation and r.mutation.mutants:
            catch = r.mutation.to_json()
            ops = [[op, str(rate)] for op, rate in catch["mutation_catch"].items()]
            out += [
                "",
                f"{r.file}: mutation catch by operator ({r.mutation.mutants} mutants; "
                f"of accepted originals: {catch['mutation_catch_rate_accepted']})",
                table(["operator", "caught"], ops),
            ]
    for r in results:
        if r.confusion is not None:
            matrix = [[g, *(str(r.confusion[g][p]) for p in PREDICTED)] for g in r.confusion]
            out += ["", f"{r.file}: gold (rows) x predicted", table(["gold", *PREDICTED], matrix)]
    return "\n".join(out) + "\n"


def run(args: argparse.Namespace) -> int:
    fmt = args.format or ("table" if sys.stdout.isatty() else "json")
    report = Path(args.report) if args.report else None
    if report is not None:
        from stream.quality.report import require_plotting

        require_plotting()
    settings = Settings.from_env()
    spec = args.checker if args.checker is not None else settings.checker
    loaded = [(name, load_records(Path(name), name, args.limit)) for name in args.files]
    results, checker_name = asyncio.run(_evaluate(spec, settings, loaded, args.mutations))
    if fmt == "json":
        doc = {"results": [r.to_json() for r in results]}
        sys.stdout.write(orjson.dumps(doc, option=orjson.OPT_INDENT_2).decode() + "\n")
    else:
        sys.stdout.write(render(results))
    if report is not None:
        from stream.quality.report import write_report

        path = write_report(results, checker_name, report)
        sys.stderr.write(f"citegate: report written to {path}\n")
    return 0
