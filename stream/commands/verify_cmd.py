"""`citegate verify`: run the verification core on answer files, offline, no Kafka."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

import orjson
from tqdm import tqdm

from stream.checkers.base import SyncChecker
from stream.checkers.factory import make_checker
from stream.codec import answer_from_obj, decode_json
from stream.commands.render import render_table
from stream.errors import CitegateError, InputError
from stream.events import verify_report
from stream.settings import Settings
from stream.verify.citations import CheckOptions, DocumentSnapshot, citation_refs
from stream.verify.codes import FinalStatus, InputCode
from stream.verify.model import Answer
from stream.verify.parse import Limits
from stream.verify.pipeline import finish, prepare, run_checker
from stream.verify.policy import Policy


def register(sub: Any) -> None:
    p = sub.add_parser("verify", help="verify answer files against a corpus (offline)")
    p.add_argument("input", help="answer JSON, JSONL of answers, or - for stdin")
    p.add_argument(
        "--corpus",
        metavar="SRC",
        default=None,
        help="documents.json, JSONL, sqlite:///PATH or postgresql://… store",
    )
    p.add_argument(
        "--format",
        choices=("json", "table"),
        default=None,
        help="output format (default: table on a terminal, else json)",
    )
    p.add_argument(
        "--relocate-quotes",
        action="store_true",
        help="accept a quote found exactly once elsewhere, with a warning",
    )
    p.add_argument(
        "--checker",
        default=None,
        metavar="NAME|CONFIG",
        help="rules (default), llm, model:DIR, cascade, or a calibrated checker config (.toml)",
    )
    p.add_argument(
        "--force-review-domains",
        default="",
        help="comma list of risk domains that always need manual review",
    )
    p.set_defaults(handler=run)


def _read_input(path: str) -> bytes:
    try:
        if path == "-":
            return sys.stdin.buffer.read()
        return Path(path).read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None


def _answers(data: bytes, name: str, max_bytes: int) -> tuple[bool, Iterator[tuple[int, Any]]]:
    """(is_single, (line_number, decoded_or_exception) ...) for a JSON or JSONL input.

    Every answer obeys the worker's limits (`CITEGATE_MAX_EVENT_BYTES` per answer), and its
    problems are reported in the worker's order: size, UTF-8, JSON.
    """
    body = data.strip()
    if not body:
        raise InputError(f"{name}: no answers (the input is empty)")
    if b"\n" not in body:
        try:
            obj = decode_json(body, max_bytes)  # one answer: its own error if it is not one
        except InputError as exc:
            if exc.code == InputCode.NOT_JSON:
                raise InputError(
                    f"{name}: not a JSON answer or JSONL file ({exc.message})", code=exc.code
                ) from None
            raise InputError(f"{name}: {exc.message}", code=exc.code) from None
        if isinstance(obj, dict):
            return True, iter([(1, obj)])
        if not isinstance(obj, list):
            raise InputError(f"{name}: not a JSON answer, array of answers or JSONL file")
    try:
        whole = orjson.loads(body)
    except orjson.JSONDecodeError:
        whole = None
    if isinstance(whole, dict):
        if len(body) > max_bytes:
            decode_json(body, max_bytes)  # raises the worker's `oversize` error
        return True, iter([(1, whole)])
    if isinstance(whole, list):
        return False, (
            (n, _sized(item, max_bytes, f"{name}[{n - 1}]")) for n, item in enumerate(whole, 1)
        )

    def lines() -> Iterator[tuple[int, Any]]:
        for n, line in enumerate(data.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                yield n, decode_json(line, max_bytes)
            except InputError as exc:
                yield n, InputError(f"{name}:{n}: {exc.message}", code=exc.code)

    return False, lines()


def _sized(item: Any, max_bytes: int, where: str) -> Any:
    size = len(orjson.dumps(item))
    if size > max_bytes:
        return InputError(
            f"{where}: answer is {size} bytes; the limit is {max_bytes}", code=InputCode.OVERSIZE
        )
    return item


def load_snapshot(
    src: str | None, refs: Iterable[tuple[str, str | None]] | None = None
) -> DocumentSnapshot:
    """Documents for the run: a whole file corpus, or just the cited ones from a store."""
    if src is None:
        return DocumentSnapshot()
    from stream.corpus.offline import snapshot_from_source

    return snapshot_from_source(src, refs)


def _decode_all(
    items: Iterator[tuple[int, Any]], limits: Limits
) -> list[tuple[int, Answer | CitegateError]]:
    parsed: list[tuple[int, Answer | CitegateError]] = []
    for lineno, obj in items:
        try:
            if isinstance(obj, CitegateError):
                raise obj
            parsed.append((lineno, answer_from_obj(obj, limits)))
        except CitegateError as exc:
            parsed.append((lineno, exc))
    return parsed


def run(args: argparse.Namespace) -> int:
    fmt = args.format or ("table" if sys.stdout.isatty() else "json")
    data = _read_input(args.input)
    name = "<stdin>" if args.input == "-" else args.input
    settings = Settings.from_env()
    single, items = _answers(data, name, settings.max_event_bytes)
    limits = Limits(settings.max_claims, settings.max_citations_per_claim)
    parsed = _decode_all(items, limits)
    if not parsed:
        raise InputError(f"{name}: no answers")
    refs = [r for _, a in parsed if isinstance(a, Answer) for r in citation_refs(a)]
    snapshot = load_snapshot(args.corpus, refs)
    checker = make_checker(args.checker or settings.checker, settings)
    policy = Policy(
        frozenset(d.strip().lower() for d in args.force_review_domains.split(",") if d.strip())
    )
    options = CheckOptions(relocate_quotes=args.relocate_quotes)
    out: IO[str] = sys.stdout
    all_accepted, input_errors = True, 0
    total = len(parsed)
    progress = (
        tqdm(
            parsed,
            total=total,
            unit="answer",
            file=sys.stderr,
            disable=None,
            leave=False,
            mininterval=0.5,
        )
        if not single
        else parsed
    )
    for lineno, answer in progress:
        if isinstance(answer, CitegateError):
            exc = answer
            input_errors += 1
            message = exc.message if single else f"{name}:{lineno}: {exc.message}"
            if single:
                raise InputError(message, code=exc.code) from None
            sys.stderr.write(f"citegate: error: {message}\n")
            err = {
                "ok": False,
                "input_error": {"code": exc.code, "message": message, "line": lineno},
            }
            out.write(orjson.dumps(err).decode() + "\n")
            continue
        prepared = prepare(answer, snapshot, options)
        if isinstance(checker, SyncChecker):
            # The rules checker is pure: no event loop per answer (one cost more than it).
            results = run_checker(checker.checker, prepared.requests)
        else:
            results = asyncio.run(checker.check_many(prepared.requests))
        result = finish(prepared, results, checker.ref, policy)
        all_accepted &= result.decision.final_status is FinalStatus.ACCEPT
        report = verify_report(result, checker.ref)
        if fmt == "json":
            opts = orjson.OPT_INDENT_2 if single else 0
            out.write(orjson.dumps(report, option=opts).decode() + "\n")
        else:
            out.write(render_table(report, color=out.isatty()) + "\n")
    if input_errors:
        return 2
    return 0 if all_accepted else 1
