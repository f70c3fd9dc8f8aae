"""Where a claim's CPU goes in the pure core, phase by phase, in the bench's own process.

The worker's CPU per claim says how much a claim costs, not where; a profiler's shares move
with its overhead. Here the bench runs the stage's core over the same generated answers (the
hot working set, uniform or Zipf popularity) against an in-memory corpus whose documents keep
their analyses across answers, as the corpus cache keeps them, and times each phase on its own
with the process CPU clock. Phases run in pipeline order on each answer:

decode (JSON, schema, parse) · deterministic checks (`check_citations`) · alignment (each
claim's evidence windows and `align`, which the signals and the checker then read from its
cache) · signals (`prepare` minus the checks it repeats) · checker (features and scores) ·
decision (`finish`) · encode (the verdict and decision events) · analysis: the time spent in
the documents' analyses (computing a span the first time, finding it after), measured inside
and taken out of the phase it happened in.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from stream.codec import decode_answer, encode
from stream.events import Envelope, claim_verdict_event, decision_event
from stream.verify.align import align
from stream.verify.analysis import DocumentAnalysis
from stream.verify.checkers import RulesChecker
from stream.verify.citations import DocumentSnapshot, check_citations, sha256_hex
from stream.verify.claims import strip_markers
from stream.verify.features import evidence_view
from stream.verify.model import Document
from stream.verify.pipeline import finish, prepare, run_checker
from stream.worker.bench.synth import SynthDoc

T = TypeVar("T")
PHASES = (
    "decode",
    "deterministic checks",
    "analysis",
    "alignment",
    "signals",
    "checker",
    "decision",
    "encode",
)
MAX_BYTES = 1 << 20
"""The largest answer event decoded (as the worker's default)."""


@dataclass(frozen=True, slots=True, eq=False)
class TimedAnalysis(DocumentAnalysis):
    """A document analysis that adds the CPU time spent in it to `spent[0]` (ns)."""

    spent: list[int] = field(default_factory=lambda: [0])

    def span(self, fn: Callable[[str], T], start: int, end: int) -> T:
        started = time.process_time_ns()
        try:
            return DocumentAnalysis.span(self, fn, start, end)
        finally:
            self.spent[0] += time.process_time_ns() - started


class Corpus:
    """The documents of the bench with one (timed) analysis each, kept across answers, or
    (`analysed=False`) with none: every claim then derives its evidence's facts itself, as
    before analyses were kept (the text caches of the core still apply)."""

    def __init__(self, docs: Sequence[SynthDoc], *, analysed: bool = True) -> None:
        self.analysed = analysed
        self.spent = [0]
        self.documents = {
            (d.document_id, d.version): Document(
                d.document_id, d.version, d.text, sha256_hex(d.text)
            )
            for d in docs
        }
        self.analyses = {
            key: TimedAnalysis(doc.text, spent=self.spent) for key, doc in self.documents.items()
        }

    def snapshot(self, refs: Sequence[tuple[str, str | None]]) -> DocumentSnapshot:
        keys = {(i, v) for i, v in refs if v is not None and (i, v) in self.documents}
        return DocumentSnapshot(
            {k: self.documents[k] for k in keys},
            {i: (v,) for i, v in keys},
            frozenset(),
            {k: self.analyses[k] for k in keys} if self.analysed else {},
        )


def run(corpus: Corpus, payloads: Sequence[bytes]) -> dict[str, float]:
    """CPU ns per phase over `payloads` (see the module docstring), and `claims`."""
    checker = RulesChecker()
    spent = dict.fromkeys(PHASES, 0.0)
    claims = 0
    inside = corpus.spent  # analysis time so far, ns

    def clock() -> tuple[int, int]:
        return time.process_time_ns(), inside[0]

    for raw in payloads:
        marks = [clock()]
        answer = decode_answer(raw, MAX_BYTES)
        marks.append(clock())
        refs = [(c.document_id, c.document_version) for c in answer.citations if c.document_id]
        snapshot = corpus.snapshot(refs)
        report = check_citations(answer, snapshot)
        marks.append(clock())
        for claim in answer.claims:
            fragments = tuple(
                report.checks[i].fragment
                for i in claim.citation_ids
                if i in report.checks and report.checks[i].status == "valid"
            )
            text = strip_markers(claim.text)
            frags = tuple(f for f in fragments if f is not None and f.text)
            if frags:
                span, analysis, offset = evidence_view(text, frags)
                align(text, span, analysis=analysis, offset=offset)
        marks.append(clock())
        prepared = prepare(answer, snapshot)
        marks.append(clock())
        results = run_checker(checker, prepared.requests)
        marks.append(clock())
        result = finish(prepared, results, checker.ref)
        marks.append(clock())
        env = Envelope()
        for v in result.verdicts:
            encode(claim_verdict_event(result, v, env))
        encode(decision_event(result, checker.ref, env))
        marks.append(clock())
        claims += len(answer.claims)
        step = [(b - a) - (y - x) for (a, x), (b, y) in itertools.pairwise(marks)]
        spent["analysis"] += marks[-1][1] - marks[0][1]
        spent["decode"] += step[0]
        spent["deterministic checks"] += step[1]
        spent["alignment"] += step[2]
        spent["signals"] += max(0, step[3] - step[1])  # prepare repeats the checks
        spent["checker"] += step[4]
        spent["decision"] += step[5]
        spent["encode"] += step[6]
    return {**spent, "claims": float(claims)}


def phases(corpus: Corpus, warm: Sequence[bytes], measured: Sequence[bytes]) -> dict[str, float]:
    """µs of CPU per claim by phase over `measured`, after `warm` (caches and analyses warm)."""
    run(corpus, warm)
    spent = run(corpus, measured)
    claims = max(spent.pop("claims"), 1.0)
    return {k: v / claims / 1000 for k, v in spent.items()}
