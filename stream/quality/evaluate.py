"""Checker quality on labelled claims: the numbers behind `citegate eval`.

A checker is only worth tuning against figures that mean the same thing from run to run, so
this module fixes the recipe: every record goes through the same `AsyncChecker.check_many`
path the stream stage uses (a missing result is `unknown`, as downstream), and each file gets
binary balanced accuracy (entailed vs. not, robust to the skewed label mix of the data sets),
macro-F1 and a confusion matrix only where three-way gold labels exist, the rate of `unknown`
answers and throughput. A gate is judged by what it lets through, so each file also gets the
false-accept rate (non-entailed gold decided `entailed`), the accept recall, and the share of
mutants of its entailed claims (`stream.quality.mutations`) the checker refuses. No CLI and no
plotting here, so tests can drive it with a fake checker.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import orjson

from stream.checkers.base import AsyncChecker
from stream.errors import InputError
from stream.quality.mutations import mutants
from stream.verify.codes import Verdict
from stream.verify.features import evidence_signals
from stream.verify.model import CheckRequest, CheckResult, Fragment

LABELS: tuple[str, ...] = ("entailed", "contradicted", "insufficient")
"""Gold labels; predictions may also be `unknown` (a checker that could not decide)."""
PREDICTED: tuple[str, ...] = (*LABELS, "unknown")
BATCH_SIZE = 256
ROUND = 4


@dataclass(frozen=True, slots=True)
class LabelledClaim:
    """One labelled claim with the evidence it cites."""

    id: str
    dataset: str
    language: str
    claim: str
    evidence: tuple[tuple[str | None, str], ...]
    """(document_id, text) per cited passage, in file order."""
    label: str


@dataclass(frozen=True, slots=True)
class Prediction:
    verdict: str
    confidence: float

    @property
    def p_entailed(self) -> float:
        """The checker's belief that the claim is entailed, for PR curves and calibration."""
        if self.verdict == Verdict.UNKNOWN:
            return 0.5
        if self.verdict == Verdict.ENTAILED:
            return self.confidence
        return 1.0 - self.confidence


UNKNOWN = Prediction(Verdict.UNKNOWN.value, 0.0)


@dataclass(frozen=True, slots=True)
class MutationCatch:
    """How many mutants of a file's entailed claims the checker refused (not `entailed`)."""

    mutants: int = 0
    caught: int = 0
    by_operator: dict[str, tuple[int, int]] = field(default_factory=dict)
    """operator -> (caught, mutants)."""
    by_language: dict[str, tuple[int, int]] = field(default_factory=dict)
    accepted_mutants: int = 0
    """Mutants whose original claim the checker accepted: the ones that test the gate."""
    accepted_caught: int = 0

    @property
    def rate(self) -> float | None:
        return self.caught / self.mutants if self.mutants else None

    def to_json(self) -> dict[str, Any]:
        def rates(table: dict[str, tuple[int, int]]) -> dict[str, float]:
            return {k: round(c / n, ROUND) for k, (c, n) in sorted(table.items()) if n}

        accepted = (
            round(self.accepted_caught / self.accepted_mutants, ROUND)
            if self.accepted_mutants
            else None
        )
        return {
            "mutation_catch_rate": _round(self.rate),
            "mutation_catch": rates(self.by_operator),
            "mutation_catch_by_language": rates(self.by_language),
            "mutants": self.mutants,
            "mutation_catch_rate_accepted": accepted,
            "mutants_of_accepted": self.accepted_mutants,
        }


@dataclass(frozen=True, slots=True)
class FileResult:
    """Metrics for one input file plus the per-record data the report plots."""

    file: str
    dataset: str
    language: str
    n: int
    binary_bacc: float | None
    macro_f1: float | None
    confusion: dict[str, dict[str, int]] | None
    unknown_rate: float
    claims_per_s: float | None
    false_accept_rate: float | None = None
    accept_recall: float | None = None
    mutation: MutationCatch | None = None
    gold: tuple[str, ...] = ()
    predicted: tuple[str, ...] = ()
    p_entailed: tuple[float, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """Exactly the keys `citegate eval --format json` promises, floats to 4 decimals."""
        return {
            "file": self.file,
            "dataset": self.dataset,
            "language": self.language,
            "n": self.n,
            "binary_bacc": _round(self.binary_bacc),
            "macro_f1": _round(self.macro_f1),
            "confusion": self.confusion,
            "unknown_rate": _round(self.unknown_rate),
            "claims_per_s": _round(self.claims_per_s),
            "false_accept_rate": _round(self.false_accept_rate),
            "accept_recall": _round(self.accept_recall),
            **(self.mutation or MutationCatch()).to_json(),
        }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, ROUND)


def _str(obj: dict[str, Any], key: str, where: str, *, empty: bool = False) -> str:
    value = obj.get(key)
    if not isinstance(value, str) or (not empty and not value.strip()):
        raise InputError(f"{where}: `{key}` must be a non-empty string")
    return value


def parse_record(obj: Any, where: str) -> LabelledClaim:
    """Validate one decoded line; `where` (file:line) prefixes every error."""
    if not isinstance(obj, dict):
        raise InputError(f"{where}: expected a JSON object")
    label = obj.get("label")
    if label not in LABELS:
        raise InputError(f"{where}: `label` must be one of {', '.join(LABELS)}, got {label!r}")
    evidence = obj.get("evidence")
    if not isinstance(evidence, list):
        raise InputError(f"{where}: `evidence` must be a list")
    items: list[tuple[str | None, str]] = []
    for i, item in enumerate(evidence, start=1):
        if not isinstance(item, dict) or not isinstance(item.get("text"), str):
            raise InputError(f"{where}: evidence[{i}] must be an object with a string `text`")
        doc = item.get("document_id")
        if doc is not None and not isinstance(doc, str):
            raise InputError(f"{where}: evidence[{i}].document_id must be a string")
        items.append((doc, item["text"]))
    return LabelledClaim(
        id=_str(obj, "id", where),
        dataset=_str(obj, "source_dataset", where),
        language=_str(obj, "language", where),
        claim=_str(obj, "claim", where),
        evidence=tuple(items),
        label=label,
    )


def load_records(
    path: Path, name: str | None = None, limit: int | None = None
) -> list[LabelledClaim]:
    """Read a labelled JSONL file (first `limit` records); any bad line is an InputError."""
    name = name or str(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {name}: {exc.strerror or exc}") from None
    records: list[LabelledClaim] = []
    seen: set[str] = set()
    for lineno, line in enumerate(data.splitlines(), start=1):
        if limit is not None and len(records) >= limit:
            break
        if not line.strip():
            continue
        where = f"{name}:{lineno}"
        try:
            obj = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            raise InputError(f"{where}: not JSON: {exc}") from None
        record = parse_record(obj, where)
        if record.id in seen:
            # Results come back keyed by claim id: a duplicate would silently share a verdict.
            raise InputError(f"{where}: duplicate id {record.id!r}")
        seen.add(record.id)
        records.append(record)
    if not records:
        raise InputError(f"{name}: no records")
    return records


def to_request(record: LabelledClaim) -> CheckRequest:
    """The claim as the stage would send it: cited passages e1..eN plus the cheap signals."""
    fragments = tuple(
        Fragment(citation_id=f"e{i}", text=text, document_id=doc)
        for i, (doc, text) in enumerate(record.evidence, start=1)
    )
    return CheckRequest(
        claim_id=record.id,
        claim=record.claim,
        fragments=fragments,
        language=record.language,
        signals=evidence_signals(record.claim, fragments),
    )


async def predict(
    checker: AsyncChecker,
    records: Sequence[LabelledClaim],
    batch_size: int = BATCH_SIZE,
    on_batch: Callable[[int], object] | None = None,
) -> tuple[list[Prediction], float]:
    """Predictions in record order and the seconds spent judging them.

    The time covers building each request (its risk signals) and `check_many`, i.e. what the
    stage spends per claim after the deterministic checks; file reading is left out.
    """
    out: list[Prediction] = []
    seconds = 0.0
    for start in range(0, len(records), batch_size):
        batch = records[start : start + batch_size]
        began = time.perf_counter()
        requests = [to_request(r) for r in batch]
        results: dict[str, CheckResult] = await checker.check_many(requests)
        seconds += time.perf_counter() - began
        for record in batch:
            result = results.get(record.id)
            if result is None:
                out.append(UNKNOWN)
            else:
                out.append(Prediction(Verdict(result.verdict).value, float(result.confidence)))
        if on_batch is not None:
            on_batch(len(batch))
    return out, seconds


def binary_bacc(gold: Sequence[str], predicted: Sequence[str]) -> float | None:
    """Mean recall of "entailed" and "not entailed" over the classes present in gold.

    `unknown` counts as not entailed: a claim the checker cannot confirm is not published.
    """
    recalls = []
    for positive in (True, False):
        rows = [p for g, p in zip(gold, predicted, strict=True) if (g == "entailed") is positive]
        if rows:
            recalls.append(sum((p == "entailed") is positive for p in rows) / len(rows))
    return sum(recalls) / len(recalls) if recalls else None


def false_accept_rate(gold: Sequence[str], predicted: Sequence[str]) -> float | None:
    """Share of non-entailed gold claims decided `entailed` (None when there are none)."""
    rows = [p for g, p in zip(gold, predicted, strict=True) if g != "entailed"]
    return sum(p == "entailed" for p in rows) / len(rows) if rows else None


def accept_recall(gold: Sequence[str], predicted: Sequence[str]) -> float | None:
    """Share of entailed gold claims decided `entailed` (None when there are none)."""
    rows = [p for g, p in zip(gold, predicted, strict=True) if g == "entailed"]
    return sum(p == "entailed" for p in rows) / len(rows) if rows else None


async def mutation_catch(
    checker: AsyncChecker,
    records: Sequence[LabelledClaim],
    predicted: Sequence[str],
    batch_size: int = BATCH_SIZE,
) -> MutationCatch:
    """Apply every mutation operator to each gold-entailed claim and judge the mutants
    against the original evidence; a mutant decided `entailed` is a miss."""
    made: list[tuple[LabelledClaim, str, bool]] = []
    for record, pred in zip(records, predicted, strict=True):
        if record.label != "entailed":
            continue
        for i, m in enumerate(mutants(record.claim, record.language)):
            mutant = replace(record, id=f"{record.id}#mut{i}:{m.operator}", claim=m.claim)
            made.append((mutant, m.operator, pred == "entailed"))
    if not made:
        return MutationCatch()
    predictions, _ = await predict(checker, [m for m, _, _ in made], batch_size)
    by_op: dict[str, list[int]] = {}
    by_lang: dict[str, list[int]] = {}
    caught = accepted = accepted_caught = 0
    for (mutant, op, original_accepted), p in zip(made, predictions, strict=True):
        hit = int(p.verdict != Verdict.ENTAILED)
        caught += hit
        for table, key in ((by_op, op), (by_lang, mutant.language)):
            cell = table.setdefault(key, [0, 0])
            cell[0] += hit
            cell[1] += 1
        if original_accepted:
            accepted += 1
            accepted_caught += hit
    return MutationCatch(
        len(made),
        caught,
        {k: (v[0], v[1]) for k, v in by_op.items()},
        {k: (v[0], v[1]) for k, v in by_lang.items()},
        accepted,
        accepted_caught,
    )


def confusion_matrix(gold: Sequence[str], predicted: Sequence[str]) -> dict[str, dict[str, int]]:
    """gold → predicted → count, every cell present (zeros included) for stable output."""
    matrix = {g: dict.fromkeys(PREDICTED, 0) for g in LABELS}
    for g, p in zip(gold, predicted, strict=True):
        matrix[g][p] += 1
    return matrix


def macro_f1(matrix: dict[str, dict[str, int]]) -> float:
    """Unweighted mean F1 of the three labels; an empty precision or recall gives F1 = 0."""
    scores = []
    for label in LABELS:
        tp = matrix[label][label]
        gold_n = sum(matrix[label].values())
        pred_n = sum(row[label] for row in matrix.values())
        scores.append(2 * tp / (gold_n + pred_n) if gold_n + pred_n else 0.0)
    return sum(scores) / len(scores)


def _names(values: Sequence[str]) -> tuple[str, str]:
    counts = Counter(values)
    return "+".join(v for v, _ in counts.most_common()), counts.most_common(1)[0][0]


def score(
    file: str, records: Sequence[LabelledClaim], predictions: Sequence[Prediction], seconds: float
) -> FileResult:
    """All metrics of one file from gold records and predictions in the same order."""
    if len(records) != len(predictions):
        raise ValueError("records and predictions differ in length")
    gold = tuple(r.label for r in records)
    pred = tuple(p.verdict for p in predictions)
    n = len(gold)
    three_way = "contradicted" in gold
    matrix = confusion_matrix(gold, pred) if three_way else None
    dataset, _ = _names([r.dataset for r in records])
    _, language = _names([r.language for r in records])
    return FileResult(
        file=file,
        dataset=dataset,
        language=language,
        n=n,
        binary_bacc=binary_bacc(gold, pred),
        macro_f1=macro_f1(matrix) if matrix is not None else None,
        confusion=matrix,
        unknown_rate=sum(p == "unknown" for p in pred) / n if n else 0.0,
        claims_per_s=n / seconds if seconds > 0 else None,
        false_accept_rate=false_accept_rate(gold, pred),
        accept_recall=accept_recall(gold, pred),
        gold=gold,
        predicted=pred,
        p_entailed=tuple(p.p_entailed for p in predictions),
    )


async def evaluate_file(
    checker: AsyncChecker,
    path: Path,
    name: str | None = None,
    limit: int | None = None,
    batch_size: int = BATCH_SIZE,
    on_batch: Callable[[int], object] | None = None,
    mutations: bool = True,
) -> FileResult:
    """Load, check and score one labelled file; `name` is how the file is reported."""
    name = name or str(path)
    records = load_records(path, name, limit)
    predictions, seconds = await predict(checker, records, batch_size, on_batch)
    result = score(name, records, predictions, seconds)
    if not mutations:
        return result
    caught = await mutation_catch(checker, records, result.predicted, batch_size)
    return replace(result, mutation=caught)
