"""Run the realistic suite through `verify_answer` in the three answer forms a user sends.

- ``quote``: structured answer; each claim cites its exact quote (document id/version, code-point
  start/end).
- ``passage``: marker answer (`[S1]`, `[1]`, `【1】`); each source is the retrieved passage of 2–4
  consecutive sentences around the quote, as a corpus range, inline ``text`` in every other answer.
- ``document``: marker answer whose one source names only the document id and version.

Answers are built exactly as an assistant writes them (one sentence per claim, the marker at its
end, before or after the full stop), so the claim splitter is exercised; an answer split otherwise
than written is never scored against the wrong cases: it is reported as a `SplitFailure`, its
cases count as neither accepted nor found.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Literal, Protocol

from stream.codec import answer_from_obj
from stream.verify.checkers import RulesChecker
from stream.verify.citations import DocumentSnapshot, sha256_hex
from stream.verify.claims import strip_markers
from stream.verify.model import AnswerResult, CheckRequest, CheckResult, Document, Ref
from stream.verify.pipeline import finish, prepare, run_checker
from tests.gate.realistic.model import LANGUAGES, Case, Doc, sentence_spans

Form = Literal["quote", "passage", "document"]
FORMS: tuple[Form, ...] = ("quote", "passage", "document")
PACKAGE_DATA = Path(__file__).parent


class SplitMismatch(AssertionError):
    """The claim splitter cut an answer otherwise than its sentences: scores would be wrong."""


class HarnessError(AssertionError):
    """The harness built an answer the deterministic checks refuse: a bug here, not a verdict."""


@dataclass(frozen=True, slots=True)
class Suite:
    """Documents and answers per language."""

    docs: dict[str, tuple[Doc, ...]]
    answers: dict[str, tuple[tuple[Case, ...], ...]]

    @property
    def cases(self) -> dict[str, tuple[Case, ...]]:
        return {
            lang: tuple(c for a in answers for c in a) for lang, answers in self.answers.items()
        }


@dataclass(frozen=True, slots=True)
class Outcome:
    case: Case
    language: str
    form: Form
    answer_id: str
    verdict: str
    reason: str
    signals: tuple[str, ...]
    unsupported: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class AnswerOutcome:
    answer_id: str
    language: str
    form: Form
    decision: str
    cases: tuple[Case, ...]
    verdicts: tuple[str, ...]

    @property
    def all_faithful(self) -> bool:
        return all(c.kind == "faithful" for c in self.cases)


def _load_module(path: Path) -> ModuleType:
    name = f"_realistic_data_{path.parent.name}_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_suite(directory: Path | None = None) -> Suite:
    """The package's own data (``None``) or the en/ru/zh modules of another directory."""
    base = directory or PACKAGE_DATA
    docs: dict[str, tuple[Doc, ...]] = {}
    answers: dict[str, tuple[tuple[Case, ...], ...]] = {}
    for lang in LANGUAGES:
        path = base / f"{lang}.py"
        if not path.is_file():
            continue
        module = _load_module(path)
        docs[lang] = tuple(module.DOCS)
        answers[lang] = tuple(tuple(a) for a in module.ANSWERS)
    if not docs:
        raise FileNotFoundError(f"no en.py, ru.py or zh.py in {base}")
    return Suite(docs, answers)


def snapshot_of(suite: Suite) -> DocumentSnapshot:
    return DocumentSnapshot.of(
        [
            Document(d.id, d.version, d.text, sha256_hex(d.text), d.title)
            for docs in suite.docs.values()
            for d in docs
        ]
    )


# --- building the answer events ---


def _envelope(answer_id: str, language: str, text: str) -> dict[str, Any]:
    return {
        "schema": "citegate.answer.v1",
        "event_id": f"evt-{answer_id}",
        "answer_id": answer_id,
        "created_at": "2026-03-01T12:00:00Z",
        "corpus": {"id": "realistic-kb", "version": "1"},
        "generator": {"name": "assistant", "version": "realistic-suite"},
        "retriever": {"name": "bm25", "version": "1"},
        "language": language,
        "answer": text,
    }


def _separator(language: str) -> str:
    return "" if language == "zh" else " "


def quote_event(answer_id: str, cases: Sequence[Case]) -> dict[str, Any]:
    language = cases[0].doc.language
    claims, citations = [], []
    for i, case in enumerate(cases, start=1):
        start = case.doc.text.index(case.quote)
        claims.append({"id": f"c{i}", "text": case.claim, "citation_ids": [f"q{i}"]})
        citations.append(
            {
                "id": f"q{i}",
                "document_id": case.doc.id,
                "document_version": case.doc.version,
                "start": start,
                "end": start + len(case.quote),
                "quote": case.quote,
            }
        )
    text = _separator(language).join(c.claim for c in cases)
    return _envelope(answer_id, language, text) | {"claims": claims, "citations": citations}


def _marker(key: str, numeric: bool, language: str) -> str:
    if numeric:
        return f"【{key}】" if language == "zh" else f"[{key}]"
    return f"[{key}]"


def _with_marker(claim: str, marker: str, style: int, language: str) -> str:
    """The claim as written with its marker: before the terminator, glued after it, or after it
    with a space (`…item [S1].`, `…item.[S1]`, `…item. [S1]`; zh `…[S1]。`, `…。[S1]`)."""
    body, end = claim[:-1], claim[-1]
    if language == "zh":
        return f"{body}{marker}{end}" if style % 2 == 0 else f"{claim}{marker}"
    return (f"{body} {marker}{end}", f"{claim}{marker}", f"{claim} {marker}")[style % 3]


@dataclass(frozen=True, slots=True)
class _Written:
    text: str
    spans: tuple[tuple[int, int], ...]
    keys: tuple[str, ...]


def _write(cases: Sequence[Case], keys: Sequence[str], numeric: bool, seed: int) -> _Written:
    language = cases[0].doc.language
    sep = _separator(language)
    text, spans = "", []
    for i, (case, key) in enumerate(zip(cases, keys, strict=True)):
        if text:
            text += sep
        sentence = _with_marker(case.claim, _marker(key, numeric, language), seed + i, language)
        spans.append((len(text), len(text) + len(sentence)))
        text += sentence
    return _Written(text, tuple(spans), tuple(keys))


def passage_range(case: Case, k: int) -> tuple[int, int]:
    """The 2–4 sentence passage around ``case.quote``: its length and where the quote sits in it
    (first, middle, last) vary with ``k``."""
    spans = sentence_spans(case.doc)
    q_start = case.doc.text.index(case.quote)
    q_end = q_start + len(case.quote)
    first = next(i for i, (a, b) in enumerate(spans) if a <= q_start < b)
    last = next(i for i, (a, b) in enumerate(spans) if a < q_end <= b)
    n = len(spans)
    size = max(last - first + 1, min(n, 2 + k % 3))
    starts = list(range(max(0, last - size + 1), min(first, n - size) + 1))
    begin = starts[(k // 3) % len(starts)]
    return spans[begin][0], spans[begin + size - 1][1]


def passage_event(answer_id: str, cases: Sequence[Case], n: int) -> tuple[dict[str, Any], _Written]:
    language = cases[0].doc.language
    numeric = n % 3 == 2
    sources: dict[str, dict[str, Any]] = {}
    by_range: dict[tuple[int, int], str] = {}
    keys = []
    for i, case in enumerate(cases):
        lo, hi = passage_range(case, n + i)
        if (lo, hi) not in by_range:
            key = f"{len(by_range) + 1}" if numeric else f"S{len(by_range) + 1}"
            by_range[lo, hi] = key
            source: dict[str, Any] = {
                "document_id": case.doc.id,
                "document_version": case.doc.version,
                "start": lo,
                "end": hi,
            }
            if n % 2 == 1:
                source["text"] = case.doc.text[lo:hi]
                source["title"] = case.doc.title
            sources[key] = source
        keys.append(by_range[lo, hi])
    written = _write(cases, keys, numeric, n)
    return _envelope(answer_id, language, written.text) | {"sources": sources}, written


def document_event(
    answer_id: str, cases: Sequence[Case], n: int
) -> tuple[dict[str, Any], _Written]:
    language = cases[0].doc.language
    numeric = n % 3 == 2
    key = "1" if numeric else "S1"
    source = {"document_id": cases[0].doc.id, "document_version": cases[0].doc.version}
    written = _write(cases, [key] * len(cases), numeric, n)
    return _envelope(answer_id, language, written.text) | {"sources": {key: source}}, written


# --- running and mapping back ---


def _check_split(answer_id: str, result: AnswerResult, written: _Written) -> None:
    got = [(v.claim.span, v.claim.text, v.claim.citation_ids) for v in result.verdicts]
    want = [
        ((lo, hi), " ".join(strip_markers(written.text[lo:hi]).split()), (key,))
        for (lo, hi), key in zip(written.spans, written.keys, strict=True)
    ]
    if got != want:
        raise SplitMismatch(f"{answer_id}: split {got!r}\n  expected {want!r}")


def _check_clean(answer_id: str, result: AnswerResult) -> None:
    problems = [e.detail for e in result.errors]
    problems += [e.detail for v in result.verdicts for e in v.deterministic_errors]
    if problems:
        raise HarnessError(f"{answer_id}: deterministic errors {problems}")


class Judge(Protocol):
    """What judges an answer's claims: the rules checker, or a cascade (`--model DIR`)."""

    @property
    def ref(self) -> Ref: ...

    def __call__(self, requests: Sequence[CheckRequest]) -> Mapping[str, CheckResult]: ...


@dataclass(frozen=True, slots=True)
class RulesJudge:
    """The rules checker alone (the suite's default)."""

    checker: RulesChecker = field(default_factory=RulesChecker)

    @property
    def ref(self) -> Ref:
        return self.checker.ref

    def __call__(self, requests: Sequence[CheckRequest]) -> Mapping[str, CheckResult]:
        return run_checker(self.checker, requests)


def run_answer(
    answer_id: str,
    form: Form,
    cases: Sequence[Case],
    n: int,
    snapshot: DocumentSnapshot,
    judge: Judge | None = None,
) -> tuple[list[Outcome], AnswerOutcome]:
    judge = judge or RulesJudge()
    if form == "quote":
        event, written = quote_event(answer_id, cases), None
    elif form == "passage":
        event, written = passage_event(answer_id, cases, n)
    else:
        event, written = document_event(answer_id, cases, n)
    prepared = prepare(answer_from_obj(event), snapshot)
    result = finish(prepared, judge(prepared.requests), judge.ref)
    _check_clean(answer_id, result)
    if written is not None:
        _check_split(answer_id, result, written)
    elif [v.claim.id for v in result.verdicts] != [f"c{i}" for i in range(1, len(cases) + 1)]:
        raise SplitMismatch(f"{answer_id}: claims {[v.claim.id for v in result.verdicts]}")
    language = cases[0].doc.language
    outcomes = [
        Outcome(
            case,
            language,
            form,
            answer_id,
            v.verdict.value,
            v.reason,
            tuple(f"{s.code.value}: {s.detail}" for s in v.risk_signals),
            v.unsupported_parts,
        )
        for case, v in zip(cases, result.verdicts, strict=True)
    ]
    return outcomes, AnswerOutcome(
        answer_id,
        language,
        form,
        result.decision.final_status.value,
        tuple(cases),
        tuple(o.verdict for o in outcomes),
    )


@dataclass(frozen=True, slots=True)
class SplitFailure:
    """An answer the claim splitter cut otherwise than written: its cases count as not
    accepted (and not found), and `test_every_answer_splits_as_written` fails."""

    answer_id: str
    language: str
    form: Form
    cases: tuple[Case, ...]
    message: str


@dataclass(frozen=True, slots=True)
class Run:
    outcomes: tuple[Outcome, ...]
    answers: tuple[AnswerOutcome, ...]
    split_failures: tuple[SplitFailure, ...] = ()

    def select(self, language: str, form: Form) -> Run:
        return Run(
            tuple(o for o in self.outcomes if (o.language, o.form) == (language, form)),
            tuple(a for a in self.answers if (a.language, a.form) == (language, form)),
            tuple(f for f in self.split_failures if (f.language, f.form) == (language, form)),
        )


def run_suite(suite: Suite, forms: Iterable[Form] = FORMS, judge: Judge | None = None) -> Run:
    snapshot = snapshot_of(suite)
    outcomes: list[Outcome] = []
    answers: list[AnswerOutcome] = []
    failures: list[SplitFailure] = []
    for form in forms:
        for lang, lang_answers in suite.answers.items():
            for n, cases in enumerate(lang_answers):
                answer_id = f"{lang}-{form}-{n:03d}"
                try:
                    got, decided = run_answer(answer_id, form, cases, n, snapshot, judge)
                except SplitMismatch as exc:
                    failures.append(SplitFailure(answer_id, lang, form, tuple(cases), str(exc)))
                    continue
                outcomes += got
                answers.append(decided)
    return Run(tuple(outcomes), tuple(answers), tuple(failures))


# --- figures ---


@dataclass(frozen=True, slots=True)
class Figures:
    """What the acceptance items are stated in, for one language and form."""

    faithful: int
    faithful_accepted: int
    faithful_contradicted: int
    overreach: int
    overreach_accepted: int
    contradiction: int
    contradiction_found: int
    contradiction_accepted: int
    faithful_answers: int
    faithful_answers_all_entailed: int
    faithful_answers_accepted_when_all_entailed: int
    decisions: dict[str, int]
    split_failures: int

    @classmethod
    def of(cls, run: Run) -> Figures:
        unsplit = [c for f in run.split_failures for c in f.cases]

        def count(kind: str, verdict: str | None = None) -> int:
            judged = sum(
                o.case.kind == kind and (verdict is None or o.verdict == verdict)
                for o in run.outcomes
            )
            return judged + (sum(c.kind == kind for c in unsplit) if verdict is None else 0)

        clean = [a for a in run.answers if a.all_faithful]
        entailed = [a for a in clean if all(v == "entailed" for v in a.verdicts)]
        decisions: dict[str, int] = {}
        for a in run.answers:
            decisions[a.decision] = decisions.get(a.decision, 0) + 1
        return cls(
            count("faithful"),
            count("faithful", "entailed"),
            count("faithful", "contradicted"),
            count("overreach"),
            count("overreach", "entailed"),
            count("contradiction"),
            count("contradiction", "contradicted"),
            count("contradiction", "entailed"),
            len(clean),
            len(entailed),
            sum(a.decision == "accept" for a in entailed),
            dict(sorted(decisions.items())),
            len(run.split_failures),
        )


def is_wrong(o: Outcome) -> bool:
    """A verdict a careful judge would object to (or, for contradictions, a missed one)."""
    if o.case.kind == "faithful":
        return o.verdict != "entailed"
    if o.case.kind == "overreach":
        return o.verdict == "entailed"
    return o.verdict != "contradicted"
