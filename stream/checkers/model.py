"""`--checker model:DIR`: a cross-encoder trained by `citegate learn`, run by ONNX Runtime.

No PyTorch at run time: the int8 ONNX model, `tokenizers` and numpy. Each claim is scored
against the best few windows of its cited fragments (`stream.checkers.pairs`), the windows of a
batch sorted by length and scored in small padded batches; the claim takes its best window's
probability. At or above the model's threshold (chosen by `citegate learn` on held-out claims
for a target false-accept rate) the claim is `entailed`, below it `insufficient`. Any failure
leaves the claims out, i.e. `unknown`, never `entailed`.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from stream.checkers.base import CheckerErrors
from stream.checkers.modeldir import ONNX_FILE, ModelDir, load_model_dir, require_runtime
from stream.checkers.pairs import PairTokenizer, Window, best_windows
from stream.errors import UsageError
from stream.metrics import Metrics
from stream.verify.codes import SupportStatus, Verdict
from stream.verify.model import CheckRequest, CheckResult, EvidenceSpan, Fragment, Ref

INFER_BATCH = 4
"""Pairs per ONNX Runtime call, sorted by length. Measured on the 2-core dev machine: larger
batches cost more per pair (their activations outgrow the cache), so batches stay small."""


@dataclass(frozen=True, slots=True)
class Scored:
    p: float
    window: Window | None


class ModelScorer:
    """Probability that each claim is entailed by its fragments (best window)."""

    def __init__(self, model: ModelDir, threads: int = 1) -> None:
        require_runtime()
        import onnxruntime as ort

        r = model.recipe
        self.model = model
        try:
            self.tokenizer = PairTokenizer.load(
                model.path,
                max_length=r.max_length,
                claim_prefix=r.claim_prefix,
                evidence_prefix=r.evidence_prefix,
            )
            options = ort.SessionOptions()
            options.intra_op_num_threads = threads
            options.inter_op_num_threads = 1
            options.log_severity_level = 3
            self.session = ort.InferenceSession(
                str(model.path / ONNX_FILE), options, providers=["CPUExecutionProvider"]
            )
        except UsageError:
            raise
        except Exception as exc:  # noqa: BLE001 — any load failure is one line at start
            raise UsageError(
                f"model directory {model.path}: cannot load the model ({type(exc).__name__}: "
                f"{str(exc).splitlines()[0][:200] if str(exc) else ''})"
            ) from None

    def logits(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        order = sorted(range(len(pairs)), key=lambda i: len(pairs[i][0]) + len(pairs[i][1]))
        out = [0.0] * len(pairs)
        for start in range(0, len(order), INFER_BATCH):
            chunk = order[start : start + INFER_BATCH]
            ids, mask = self.tokenizer.encode([pairs[i] for i in chunk])
            (logit,) = self.session.run(None, {"input_ids": ids, "attention_mask": mask})
            for i, value in zip(
                chunk, np.asarray(logit, dtype=np.float64).reshape(-1), strict=True
            ):
                out[i] = float(value)
        return out

    def score(self, items: Sequence[tuple[str, Sequence[Fragment]]]) -> list[Scored]:
        """Best-window probability per (claim, fragments); no fragments -> p 0."""
        r = self.model.recipe
        pairs: list[tuple[str, str]] = []
        owners: list[tuple[int, Window]] = []
        for n, (claim, fragments) in enumerate(items):
            fits = self.tokenizer.fitter(claim)
            for w in best_windows(claim, fragments, r.window_chars, r.windows, fits):
                pairs.append((claim, w.text))
                owners.append((n, w))
        best = [Scored(0.0, None) for _ in items]
        for (n, w), z in zip(owners, self.logits(pairs), strict=True):
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            if best[n].window is None or p > best[n].p:
                best[n] = Scored(p, w)
        return best


class ModelChecker:
    """AsyncChecker over a `ModelScorer`; inference runs in a thread (ONNX Runtime releases
    the GIL), so the worker's event loop keeps serving Kafka while a batch is scored."""

    def __init__(
        self, scorer: ModelScorer, metrics: Metrics | None = None, *, threaded: bool = True
    ) -> None:
        self.scorer = scorer
        self.threshold = scorer.model.recipe.threshold
        self._ref = Ref("model", scorer.model.version)
        self.errors = CheckerErrors(self._ref, metrics)
        self.threaded = threaded

    @property
    def ref(self) -> Ref:
        return self._ref

    async def check_many(self, requests: Sequence[CheckRequest]) -> dict[str, CheckResult]:
        if self.threaded:
            return await asyncio.to_thread(self.check_now, requests)
        return self.check_now(requests)

    def judges(self, request: CheckRequest) -> bool:
        """Whether the claim is in a language the model was trained on (the cascade hands
        it no other)."""
        return self.scorer.model.recipe.judges(request.language)

    def check_now(self, requests: Sequence[CheckRequest]) -> dict[str, CheckResult]:
        out: dict[str, CheckResult] = {}
        judged = [r for r in requests if r.fragments and self.judges(r)]
        for r in requests:
            if r.fragments and not self.judges(r):
                trained = ", ".join(self.scorer.model.recipe.languages)
                out[r.claim_id] = CheckResult(
                    r.claim_id,
                    Verdict.UNKNOWN,
                    reason=f"learned model: trained on {trained} claims, not {r.language!r}",
                )
            elif not r.fragments:
                out[r.claim_id] = CheckResult(
                    r.claim_id,
                    Verdict.INSUFFICIENT,
                    confidence=1.0,
                    support_status=SupportStatus.MISSING_CITATION,
                    reason="no evidence fragment to compare with",
                )
        try:
            scored = self.scorer.score([(r.claim, r.fragments) for r in judged])
        except Exception as exc:  # noqa: BLE001 — a checker failure must never pass a claim
            self.errors(exc)
            return out  # the judged claims are left out: `unknown` downstream
        for request, s in zip(judged, scored, strict=True):
            out[request.claim_id] = self.result(request, s)
        return out

    def result(self, request: CheckRequest, s: Scored) -> CheckResult:
        t = self.threshold
        w = s.window
        where = f"{w.citation_id}[{w.start}:{w.end}]" if w else "-"
        if w is not None and s.p >= t:
            fragment = next(f for f in request.fragments if f.citation_id == w.citation_id)
            base = fragment.offset or 0
            span = EvidenceSpan(
                w.citation_id,
                base + w.start,
                base + w.end,
                w.text,
                fragment.document_id,
                fragment.document_version,
            )
            return CheckResult(
                request.claim_id,
                Verdict.ENTAILED,
                (w.citation_id,),
                (),
                round(s.p, 4),
                round(s.p, 4),
                evidence=(span,),
                support_status=SupportStatus.SUPPORTED,
                reason=f"learned model: p={s.p:.2f} >= threshold {t:.2f} on {where}",
            )
        return CheckResult(
            request.claim_id,
            Verdict.INSUFFICIENT,
            (),
            (),
            round(1.0 - s.p, 4),
            round(s.p, 4),
            support_status=SupportStatus.BEYOND_EVIDENCE,
            reason=f"learned model: p={s.p:.2f} below threshold {t:.2f} (best window {where})",
        )

    async def close(self) -> None:
        return None


def model_checker(
    path: str, metrics: Metrics | None = None, threads: int = 1, **kwargs: Any
) -> ModelChecker:
    """Load `path` (a `citegate learn` directory) into a checker; bad input is a UsageError."""
    return ModelChecker(ModelScorer(load_model_dir(path), threads), metrics, **kwargs)


Factory = Callable[[str], ModelChecker]
