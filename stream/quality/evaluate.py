"""Checker quality on labelled claims: the numbers behind `citegate eval`.

A checker is only worth tuning against figures that mean the same thing from run to run, so
this module fixes the recipe: every record goes through the same `AsyncChecker.check_many`
path the stream stage uses (a missing result is `unknown`, as downstream), and each file gets
binary balanced accuracy (entailed vs. not, robust to the skewed label mix of the data sets),
macro-F1 and a confusion matrix only where three-way gold labels exist, the rate of `unknown`
answers and throughput. No CLI and no plotting here, so tests can drive it with a fake checker.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from stream.checkers.base import AsyncChecker
from stream.errors import InputError
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
) -> FileResult:
    """Load, check and score one labelled file; `name` is how the file is reported."""
    name = name or str(path)
    records = load_records(path, name, limit)
    predictions, seconds = await predict(checker, records, batch_size, on_batch)
    return score(name, records, predictions, seconds)
