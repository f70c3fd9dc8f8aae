"""Semantic checkers: the Checker protocol and the built-in rules checker.

A checker sees one claim and only its cited fragments, never the whole answer (seed 000), and
answers with the seed 000 contract. The rules checker is the cheap, auditable first gate of
seed 001, grown up: it locates the window of the fragment that covers the claim, turns what it
sees there into named features (`stream.verify.features`), and scores them with two small
linear models — entailment and contradiction — whose weights and thresholds are plain numbers
in a config that `citegate calibrate` fits on labelled data of the user's domain. Numbers,
dates and versions the evidence does not contain veto `entailed` outright: exact where
exactness is possible.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Protocol

from stream.verify.claims import strip_markers
from stream.verify.codes import SignalCode, SupportStatus, Verdict
from stream.verify.features import (
    FEATURES,
    RISK_FEATURES,
    WINDOW_SENTENCES,
    Features,
    Window,
    extract,
    sentence_coverage,
)
from stream.verify.model import (
    CheckRequest,
    CheckResult,
    EvidenceSpan,
    Ref,
    RiskSignal,
)
from stream.verify.signals import SCOPE_SIGNALS
from stream.verify.text import split_sentences
from stream.verify.tokens import jaccard
from stream.verify.units import normalize_zh, quantities, same_amount


class Checker(Protocol):
    """Anything that can judge one claim against its fragments."""

    @property
    def ref(self) -> Ref: ...

    def check(self, request: CheckRequest) -> CheckResult: ...


BASE_VERSION = "rules-3.15"
CLASH_SLACK = 1
"""Unaligned parts a `contradicted` claim may have beside its clashing slots: one word a
resource misses (`一并`) leaves the clash named; a claim that fails to align in several places
is `insufficient`, whatever number it shares with some sentence."""

# Fitted by `citegate calibrate` on the labelled dev files of ../shared/eval (en, ru, zh; each
# file weighted equally, classes balanced) on the claims the alignment lets through (the only
# ones the entailment model decides), with the risk features' weights constrained to <= 0.
# See docs/checker-quality.md for the figures.
DEFAULT_ENTAIL: dict[str, float] = {
    "bias": 0.506445,
    "alignment_mismatches": 0.0,
    "antonym": 0.0,
    "bigram_coverage": 0.512321,
    "char3_coverage": 1.494215,
    "coverage": 0.543987,
    "coverage_all": -3.02866,
    "coverage_unweighted": 0.160744,
    "coverage_x_negation": -0.280527,
    "entity_coverage": 0.206764,
    "jaccard": 0.59112,
    "log_claim_tokens": 0.673594,
    "log_uncovered": 0.781901,
    "log_window_tokens": -0.455617,
    "negation_claim_only": 0.0,
    "negation_evidence_only": -0.381929,
    "sentence_coverage": -0.048358,
    "signal_absolute_unsupported": -1.617835,
    "signal_bound_mismatch": 0.0,
    "signal_condition_dropped": 0.0,
    "signal_date_mismatch": 0.0,
    "signal_entity_mismatch": 0.0,
    "signal_identifier_mismatch": 0.0,
    "signal_inference_cue": 0.0,
    "signal_modality_strengthened": 0.0,
    "signal_negation_mismatch": -0.11361,
    "signal_number_mismatch": 0.0,
    "signal_number_unsupported": 0.0,
    "signal_order_mismatch": 0.0,
    "signal_quantifier_widened": 0.0,
    "signal_unit_mismatch": 0.0,
    "signal_unlinked_citations": 0.0,
    "signal_version_mismatch": 0.0,
    "slot_conflict": 0.0,
    "unaligned_share": 0.0,
    "uncovered_run": -0.300828,
}
DEFAULT_CONTRADICT: dict[str, float] = {
    "bias": 1.608876,
    "alignment_mismatches": -0.119875,
    "antonym": 0.361237,
    "bigram_coverage": 1.277433,
    "char3_coverage": -0.553783,
    "coverage": 0.758165,
    "coverage_all": -0.989168,
    "coverage_unweighted": 0.940629,
    "coverage_x_negation": 1.049767,
    "entity_coverage": 0.423329,
    "jaccard": -1.324998,
    "log_claim_tokens": -1.168689,
    "log_uncovered": 0.546258,
    "log_window_tokens": -0.116252,
    "negation_claim_only": 0.198542,
    "negation_evidence_only": -0.247533,
    "sentence_coverage": -0.104705,
    "signal_absolute_unsupported": 0.484767,
    "signal_bound_mismatch": -0.332244,
    "signal_condition_dropped": -0.037574,
    "signal_date_mismatch": 0.764831,
    "signal_entity_mismatch": 0.139938,
    "signal_identifier_mismatch": 0.0,
    "signal_inference_cue": -0.161094,
    "signal_modality_strengthened": 0.044423,
    "signal_negation_mismatch": 0.483375,
    "signal_number_mismatch": -0.468276,
    "signal_number_unsupported": 0.328124,
    "signal_order_mismatch": -0.413394,
    "signal_quantifier_widened": 0.232461,
    "signal_unit_mismatch": -0.924055,
    "signal_unlinked_citations": 0.0,
    "signal_version_mismatch": -0.016086,
    "slot_conflict": 0.468512,
    "unaligned_share": -0.341467,
    "uncovered_run": -0.023241,
}


DEFAULT_LANGUAGE_THRESHOLDS: dict[str, float] = {"en": 0.2, "zh": 0.2}
"""`calibrate` per language on the dev files: for English (five files) and Chinese (OCNLI) the
lowest threshold of its grid (0.2) has the best mean BAcc and keeps every file's false-accept
rate <= 0.018, because the complete alignment has already refused what the score would;
Russian keeps the shared threshold (TERRa). See docs/checker-quality.md."""


DEFAULT_VETOES: frozenset[str] = frozenset(
    {SignalCode.NUMBER_UNSUPPORTED, SignalCode.DATE_MISMATCH, SignalCode.VERSION_MISMATCH}
)
"""Request signals that veto `entailed` by themselves: the exact ones. The alignment's
mismatches always veto while `require_alignment` holds."""


def check_monotone(weights: Mapping[str, float]) -> None:
    """Refuse entailment weights that let a risk feature raise the score."""
    bad = sorted(k for k, v in weights.items() if k in RISK_FEATURES and v > 0)
    if bad:
        raise ValueError(
            "risk features must have entailment weights <= 0 (a risk signal may only lower "
            f"confidence): {', '.join(bad)}"
        )


@dataclass(frozen=True, slots=True)
class RulesConfig:
    """Everything that decides the rules checker's verdicts; its hash names the version."""

    entail_weights: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_ENTAIL))
    entail_threshold: float = 0.48
    """For languages `entail_thresholds` does not name. `calibrate` chose 0.45 for Russian as
    the lowest threshold keeping TERRa's false-accept rate <= 0.05 (0.049); 0.48 leaves a
    margin for data the fit has not seen."""
    entail_thresholds: Mapping[str, float] = field(
        default_factory=lambda: dict(DEFAULT_LANGUAGE_THRESHOLDS)
    )
    """Per language (`en`, `zh`): the threshold `calibrate` picks on that language's files
    alone. Where the complete alignment already holds false accepts far below the cap, a
    threshold tuned for another language only refuses faithful claims."""
    contradict_weights: Mapping[str, float] = field(
        default_factory=lambda: dict(DEFAULT_CONTRADICT)
    )
    contradict_threshold: float = 0.53
    related_coverage: float = 0.25
    clash_coverage: float = 0.75
    """A polarity clash (negation on one side, antonyms) in a window covering this much of
    the claim makes it `contradicted`, whatever the models say: the evidence restates the
    claim with the opposite sign. The same holds for a slot mismatch (number, unit,
    identifier) when the rest of the claim aligns."""
    unlinked_coverage: float = 0.75
    """Several windows together cover this much of the claim while the best one does not:
    the `unlinked_citations` signal (support spread over citations)."""
    max_uncovered_run: int = 4
    """This many consecutive claim tokens missing from the evidence are an unsupported clause:
    a compound claim is not entailed when only part of it is supported (seed 000 check 8)."""
    require_alignment: bool = True
    """Every content unit of the claim must align with the evidence before `entailed`."""
    max_unaligned_share: float = 0.0
    """Share of the claim's units that may stay unaligned in an `entailed` claim (0: none)."""
    window_sentences: int = WINDOW_SENTENCES
    max_window_chars: int = 2000
    veto_signals: frozenset[str] = DEFAULT_VETOES
    base_version: str = BASE_VERSION
    calibrated: bool = False

    def __post_init__(self) -> None:
        check_monotone(self.entail_weights)
        for language, threshold in self.entail_thresholds.items():
            if not 0.0 <= threshold <= 1.0:
                raise ValueError(f"entail threshold for {language!r} must be in [0, 1]")

    def threshold_for(self, language: str) -> float:
        """The entailment threshold of `language` (`en-GB` reads as `en`)."""
        if not self.entail_thresholds:
            return self.entail_threshold
        key = language.split("-", 1)[0].split("_", 1)[0].lower()
        return self.entail_thresholds.get(key, self.entail_threshold)

    @property
    def version(self) -> str:
        """`rules-3.5` for the built-in model, `rules-3.5+<hash>` for any other config: a
        changed weight, threshold or veto list changes the version every verdict carries."""
        digest = self.digest()
        if not self.calibrated and digest == _default_digest():
            return self.base_version
        return f"{self.base_version}+{digest[:8]}"

    def model(self) -> dict[str, Any]:
        """The parameters that change verdicts, in a canonical form."""
        return {
            "thresholds": {
                "entail": self.entail_threshold,
                "entail_by_language": dict(sorted(self.entail_thresholds.items())),
                "contradict": self.contradict_threshold,
                "related_coverage": self.related_coverage,
                "clash_coverage": self.clash_coverage,
                "unlinked_coverage": self.unlinked_coverage,
                "max_uncovered_run": self.max_uncovered_run,
                "max_unaligned_share": self.max_unaligned_share,
            },
            "alignment": {"required": self.require_alignment},
            "window": {"sentences": self.window_sentences, "max_chars": self.max_window_chars},
            "vetoes": {"signals": sorted(self.veto_signals)},
            "entail_weights": {k: round(v, 6) for k, v in sorted(self.entail_weights.items())},
            "contradict_weights": {
                k: round(v, 6) for k, v in sorted(self.contradict_weights.items())
            },
        }

    def digest(self) -> str:
        canonical = json.dumps(self.model(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode()).hexdigest()

    def replace_model(
        self,
        entail: Mapping[str, float],
        entail_threshold: float,
        contradict: Mapping[str, float],
        contradict_threshold: float,
    ) -> RulesConfig:
        return replace(
            self,
            entail_weights=dict(entail),
            entail_threshold=entail_threshold,
            contradict_weights=dict(contradict),
            contradict_threshold=contradict_threshold,
            calibrated=True,
        )

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> RulesConfig:
        """Build from a parsed checker config (TOML); unknown feature names, unknown signal
        codes and risk features with positive entailment weights are refused."""
        d = cls()
        thresholds = data.get("thresholds", {})
        window = data.get("window", {})
        entail = {str(k): float(v) for k, v in data.get("entail_weights", {}).items()}
        contra = {str(k): float(v) for k, v in data.get("contradict_weights", {}).items()}
        for name in (*entail, *contra):
            if name != "bias" and name not in FEATURES:
                raise ValueError(f"unknown feature {name!r} in checker config")
        vetoes = frozenset(str(s) for s in data.get("vetoes", {}).get("signals", d.veto_signals))
        unknown = sorted(vetoes - {c.value for c in SignalCode})
        if unknown:
            raise ValueError(f"unknown veto signal(s) {', '.join(unknown)} in checker config")
        return cls(
            entail_weights=entail or dict(DEFAULT_ENTAIL),
            entail_threshold=float(thresholds.get("entail", d.entail_threshold)),
            entail_thresholds={
                str(k): float(v)
                for k, v in thresholds.get("entail_by_language", d.entail_thresholds).items()
            },
            contradict_weights=contra or dict(DEFAULT_CONTRADICT),
            contradict_threshold=float(thresholds.get("contradict", d.contradict_threshold)),
            related_coverage=float(thresholds.get("related_coverage", d.related_coverage)),
            clash_coverage=float(thresholds.get("clash_coverage", d.clash_coverage)),
            unlinked_coverage=float(thresholds.get("unlinked_coverage", d.unlinked_coverage)),
            max_uncovered_run=int(thresholds.get("max_uncovered_run", d.max_uncovered_run)),
            max_unaligned_share=float(thresholds.get("max_unaligned_share", d.max_unaligned_share)),
            require_alignment=bool(data.get("alignment", {}).get("required", True)),
            window_sentences=int(window.get("sentences", d.window_sentences)),
            max_window_chars=int(window.get("max_chars", d.max_window_chars)),
            veto_signals=vetoes,
            base_version=str(data.get("checker", {}).get("base", BASE_VERSION)),
            calibrated=bool(data.get("checker", {}).get("calibrated", True)),
        )


@lru_cache(maxsize=1)
def _default_digest() -> str:
    return RulesConfig().digest()


Terms = tuple[float, tuple[tuple[str, float], ...]]


def _terms(weights: Mapping[str, float]) -> Terms:
    """(bias, non-zero weights): zero weights cost a lookup per claim and change nothing."""
    bias = weights.get("bias", 0.0)
    return bias, tuple((k, w) for k, w in weights.items() if k != "bias" and w != 0.0)


def _score(
    terms: tuple[float, tuple[tuple[str, float], ...]], values: Mapping[str, float]
) -> float:
    bias, weights = terms
    z = bias + sum(w * values.get(k, 0.0) for k, w in weights)
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def _stated_elsewhere(signal: RiskSignal, request: CheckRequest) -> bool:
    """Another sentence of the cited text states the claim's amount of a number clash and
    carries the claim's words (`ELSEWHERE_COVERAGE`): the claim restates that sentence, which
    the window search missed (a passage or a whole document as the source, a sentence that
    shares more words but another amount), so the clash is no contradiction. An amount of
    another item (`for this:`) or in a sentence about something else stays one."""
    if signal.code is not SignalCode.NUMBER_MISMATCH or "for this:" in signal.detail:
        return False
    said = quantities(normalize_zh(signal.detail.split(" (", 1)[0]))
    if not said:
        return False
    claim = normalize_zh(strip_markers(request.claim))
    for fragment in request.fragments:
        text = fragment.text[:_ELSEWHERE_CHARS]
        for a, b in split_sentences(text):
            sentence = normalize_zh(text[a:b])
            if any(same_amount(q, e) for e in quantities(sentence) for q in said) and (
                sentence_coverage(claim, sentence) >= ELSEWHERE_COVERAGE
            ):
                return True
    return False


_ELSEWHERE_CHARS = 20_000
"""How much of a cited text `_stated_elsewhere` reads (it runs only for a number clash)."""
ELSEWHERE_COVERAGE = 0.8
"""How much of a claim a sentence stating its amount must carry to be the one it restates."""


class RulesChecker:
    """Lexical features + two linear models + vetoes; deterministic, fast, explainable."""

    def __init__(self, config: RulesConfig | None = None) -> None:
        self.config = config or RulesConfig()
        self._ref = Ref("rules", self.config.version)
        self._entail = _terms(self.config.entail_weights)
        self._contradict = _terms(self.config.contradict_weights)

    @property
    def ref(self) -> Ref:
        return self._ref

    def check(self, request: CheckRequest) -> CheckResult:
        cfg = self.config
        cid = request.claim_id
        if not request.fragments:
            return CheckResult(
                cid,
                Verdict.INSUFFICIENT,
                confidence=1.0,
                support_status=SupportStatus.MISSING_CITATION,
                reason="no evidence fragment to compare with",
            )
        feats = extract(
            request.claim,
            request.fragments,
            request.signals,
            width=cfg.window_sentences,
            max_chars=cfg.max_window_chars,
        )
        if feats is None:
            return CheckResult(
                cid, Verdict.UNKNOWN, reason="the claim has no content words to check"
            )
        return self._judge(request, feats)

    def _judge(self, request: CheckRequest, feats: Features) -> CheckResult:
        cfg = self.config
        signals = list(feats.signals)
        coverage = feats.values["coverage"]
        if (
            len([w for w in feats.windows if w.covered]) > 1
            and feats.best.coverage < cfg.unlinked_coverage <= feats.values["coverage_all"]
        ):
            signals.append(
                RiskSignal(
                    SignalCode.UNLINKED_CITATIONS, "support is spread over several citations"
                )
            )
        p_entail = _score(self._entail, feats.values)
        p_contra = _score(self._contradict, feats.values)
        aligned = feats.alignment
        # The request's cheap signals veto only where they are exact (numbers, dates,
        # versions); polarity, scope and modality are judged by the alignment, slot by slot.
        vetoes = [s for s in request.signals if s.code.value in cfg.veto_signals]
        if cfg.require_alignment:
            vetoes += [m for m in aligned.mismatches if m not in vetoes]
        scope = [s for s in signals if s.code in SCOPE_SIGNALS]
        gap = cfg.require_alignment and aligned.unaligned_weight > cfg.max_unaligned_share
        complete = cfg.require_alignment and aligned.complete
        used = self._used_windows(feats)
        evidence = tuple(_span(w) for w in used if w.covered)
        ids = tuple(dict.fromkeys(w.fragment.citation_id for w in used if w.covered))
        claimed = [
            s.detail.split(" (")[0] for s in vetoes if s.code is not SignalCode.INFERENCE_CUE
        ]
        unsupported = tuple(dict.fromkeys([*claimed, *aligned.unaligned]))
        jac = max(jaccard(set(feats.claim_tokens), set(w.tokens)) for w in feats.windows)
        pct = f"{coverage:.0%}"
        found = tuple(signals)

        def result(
            verdict: Verdict,
            conf: float,
            status: SupportStatus,
            reason: str,
            ids_: tuple[str, ...] = ids,
            parts: tuple[str, ...] = unsupported,
        ) -> CheckResult:
            return CheckResult(
                request.claim_id,
                verdict,
                ids_,
                parts,
                round(conf, 4),
                round(p_entail, 4),
                jac,
                evidence,
                status,
                reason,
                found,
            )

        aligned_share = 1.0 - aligned.unaligned_weight
        threshold = cfg.threshold_for(request.language)
        if (
            p_entail >= threshold
            and evidence  # an entailed verdict names the evidence it rests on (tests/fuzz)
            and not vetoes
            and not gap
            and complete
        ):
            read = "; ".join(
                f"{word!r} read as a paraphrase of {' / '.join(map(repr, spare))}"
                for word, spare in aligned.paraphrased
            )
            return result(
                Verdict.ENTAILED,
                p_entail,
                SupportStatus.SUPPORTED,
                f"every unit of the claim aligns with the evidence (p={p_entail:.2f})"
                + (f"; {read}" if read else ""),
                parts=(),
            )
        # `contradicted` needs a slot of the aligned span with another value, named on both
        # sides, in a claim that otherwise aligns; failing to align is only `insufficient`
        clashing = [c for c in aligned.contradictions if not _stated_elsewhere(c, request)]
        elsewhere = [u for u in aligned.unaligned if not any(u in s.detail for s in clashing)]
        if clashing and len(elsewhere) <= CLASH_SLACK and aligned_share >= cfg.clash_coverage:
            named = "; ".join(f"{s.code.value}: {s.detail}" for s in clashing[:3])
            return result(
                Verdict.CONTRADICTED,
                max(p_contra, aligned_share),
                SupportStatus.CONTRADICTS_EVIDENCE,
                f"the evidence states another value ({named})",
            )
        if coverage < cfg.related_coverage and not (coverage > 0 and scope):
            return result(
                Verdict.INSUFFICIENT,
                1 - p_entail,
                SupportStatus.WRONG_CITATION,
                f"cited fragment is unrelated to the claim ({pct} covered)",
                ids_=(),
            )
        why = "; ".join(f"{s.code.value}: {s.detail}" for s in vetoes[:4])
        if aligned.unaligned:
            missing = ", ".join(repr(p) for p in aligned.unaligned[:4])
            why = (
                f"{why}; not in the evidence: {missing}"
                if why
                else f"not in the evidence: {missing}"
            )
        why = why or f"p={p_entail:.2f} below {threshold:.2f}"
        return result(
            Verdict.INSUFFICIENT,
            1 - p_entail,
            SupportStatus.BEYOND_EVIDENCE,
            f"claim goes beyond its evidence ({pct} covered; {why})",
        )

    @staticmethod
    def _used_windows(feats: Features) -> list[Window]:
        extra = [w for w in feats.windows if w is not feats.best and w.covered - feats.best.covered]
        return [feats.best, *extra]


def _span(window: Window) -> EvidenceSpan:
    f = window.fragment
    base = f.offset if f.offset is not None else 0
    return EvidenceSpan(
        f.citation_id,
        base + window.start,
        base + window.end,
        f.text[window.start : window.end],
        f.document_id,
        f.document_version,
    )
