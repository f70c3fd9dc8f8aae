"""Cheap risk signals (seed 000 step 4, seed 001 number/inference rules).

Signals never decide a verdict alone; they explain it, tighten the rules checker and route
claims to a stronger checker. Each names the text that triggered it, e.g. the number `80%`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from stream.verify.analysis import DocumentAnalysis, located
from stream.verify.codes import SignalCode
from stream.verify.model import RiskSignal
from stream.verify.numerals import NUMBER_WORD_TOKENS
from stream.verify.tokens import number_token
from stream.verify.units import (
    Quantity,
    approximate_at,
    bound_met,
    bounds,
    has_cjk,
    identifiers,
    normalize_clock,
    normalize_zh,
    quantities,
    rounds_to,
    same_amount,
    short_cache,
)

_LETTER = "A-Za-z\u00c0-\u024f\u0400-\u04ff"
_NUM_RE = re.compile(
    # a number standing alone (not part of COVID-19, H1N1, v2), with an optional percent unit;
    # CJK characters are word characters to `\w` but never part of a number: `50个` is 50
    rf"(?<![{_LETTER}\d_.\-/])(\d{{1,3}}(?:[ \u00a0\u202f]\d{{3}})+(?!\d)|\d+(?:[.,]\d+)*)"
    rf"(?![{_LETTER}\d_\-/]*[{_LETTER}])"
    r"(\s?(?:%|％|percent\b|per cent\b|процент\w*))?",
    re.IGNORECASE,
)
_BOUND_SCAN_CHARS = 20_000
"""How much of the cited text is read for the bounds on its amounts (only for a claim that
bounds an amount the text does not state)."""
_YEAR_RE = re.compile(r"(?<!\d)(1[89]\d{2}|20\d{2}|21\d{2})(?!\d)")
_VERSION_RE = re.compile(r"(?i)(?:\bv|\bversion\s|\bверси\w*\s|[a-z]\s)(\d+(?:\.\d+)+)")


_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


class Lexicon:
    """A word list matched on whole words (Latin, Cyrillic) or substrings (CJK), fast.

    Python's regex engine is slow on long alternations tried at every position of a long
    document; splitting a text into words once (C speed) and looking them up in a set is not.
    """

    __slots__ = ("cjk", "phrases", "words")

    def __init__(self, *items: str) -> None:
        lowered = [i.lower() for i in items]
        self.words = frozenset(w for w in lowered if " " not in w and not is_cjk(w))
        self.phrases = tuple(w for w in lowered if " " in w)
        self.cjk = tuple(sorted((w for w in lowered if is_cjk(w)), key=len, reverse=True))

    def findall(self, text: str) -> list[str]:
        """Matches in order of appearance for words; phrases and CJK entries after them."""
        lowered, words = _scan(text)
        found = [w for w in words if w in self.words] if self.words & set(words) else []
        found += [p for p in self.phrases if p in lowered]
        for w in self.cjk:
            if w in text and not any(w in longer for longer in found):
                found.append(w)
        return found

    def search(self, text: str) -> str | None:
        hits = self.findall(text)
        return hits[0] if hits else None


@short_cache(maxsize=1024)
def _scan(text: str) -> tuple[str, tuple[str, ...]]:
    """Lower-cased text and its words, once per text (every lexicon reads the same texts)."""
    lowered = text.lower().replace("’", "'")
    return lowered, tuple(_WORD.findall(lowered))


def is_cjk(word: str) -> bool:
    return any("\u3400" <= c <= "\u9fff" for c in word)


NEGATION = Lexicon(
    "not",
    "no",
    "never",
    "none",
    "nobody",
    "nothing",
    "neither",
    "nor",
    "cannot",
    "can't",
    "don't",
    "doesn't",
    "didn't",
    "isn't",
    "aren't",
    "wasn't",
    "weren't",
    "won't",
    "without",
    "не",
    "нет",
    "ни",
    "никогда",
    "ничего",
    "никто",
    "без",
    "нельзя",
    "不",
    "没",
    "没有",
    "无",
    "非",
    "未",
    "别",
    "勿",
    "无需",
    "不能",
    "不是",
)
ABSOLUTE = Lexicon(
    "always",
    "only",
    "all",
    "every",
    "never",
    "must",
    "guaranteed",
    "completely",
    "entirely",
    "всегда",
    "только",
    "все",
    "всё",
    "всех",
    "обязательно",
    "никогда",
    "полностью",
    "所有",
    "一定",
    "必然",
    "完全",
    "总是",
    "全部",
    "只有",
    "一切",
)
POSSIBILITY = Lexicon(
    "may",
    "might",
    "can",
    "could",
    "possibly",
    "potentially",
    "likely",
    "sometimes",
    "может",
    "могут",
    "возможно",
    "иногда",
    "вероятно",
    "可能",
    "或许",
    "也许",
    "有时",
    "可以",
)
GUARANTEE = Lexicon(
    "will",
    "always",
    "guarantees",
    "guaranteed",
    "definitely",
    "certainly",
    "ensures",
    "будет",
    "будут",
    "всегда",
    "гарантирует",
    "гарантированно",
    "обязательно",
    "точно",
    "一定",
    "必然",
    "必定",
    "肯定",
    "保证",
    "总是",
)
INFERENCE = Lexicon(
    "therefore",
    "thus",
    "hence",
    "consequently",
    "which means",
    "this means",
    "so that",
    "поэтому",
    "следовательно",
    "значит",
    "таким образом",
    "отсюда",
    "因此",
    "所以",
    "这意味着",
    "由此可见",
    "意味着",
    "因而",
    "从而",
)


def numbers(text: str) -> dict[str, str]:
    """Number tokens in `text` mapped to how they were written (`#80%` -> `80%`)."""
    found: dict[str, str] = {}
    for m in _NUM_RE.finditer(text):
        raw, unit = m.group(1), m.group(2)
        token = number_token(raw + ("%" if unit else ""))
        found.setdefault(token, m.group(0).strip())
    return found


def _found(lexicon: Lexicon, text: str) -> list[str]:
    return lexicon.findall(text)


def _scoped(
    claim: str, evidence: str, analysis: DocumentAnalysis | None, offset: int | None
) -> list[RiskSignal]:
    """Negation, absolute words and modality of the claim against its evidence span, by what
    they apply to and by class: `not refunded unless damaged` is `refunded only if damaged`,
    `has to` is `must`, `every` is `all`, and a negation elsewhere in the span that the claim
    does not talk about is no mismatch. They come from the alignment of the claim with the
    span (`stream.verify.align`), which the rules checker computes for the same pair."""
    from stream.verify.align import align

    found = align(claim, evidence, analysis=analysis, offset=offset).mismatches
    out = [s for s in found if s.code is SignalCode.NEGATION_MISMATCH][:1]
    widened = [s for s in found if s.code is SignalCode.QUANTIFIER_WIDENED]
    if widened:  # the first absolute word the evidence lacks
        out.append(RiskSignal(SignalCode.ABSOLUTE_UNSUPPORTED, widened[0].detail.split(" (")[0]))
    out += [s for s in found if s.code is SignalCode.MODALITY_STRENGTHENED]
    return out


@dataclass(frozen=True, slots=True)
class EvidenceFacts:
    """What the signals look up in the evidence, whatever the claim: its numbers (however
    written), years, versions and inference cues."""

    numbers: Mapping[str, str]
    years: frozenset[str]
    versions: frozenset[str]
    inference: frozenset[str]


def evidence_facts(text: str) -> EvidenceFacts:
    found = numbers(text)
    clock = normalize_clock(text)
    if clock != text:  # `6 pm` in the evidence supports a claim's `18:00`
        for token, written in numbers(clock).items():
            found.setdefault(token, written)
    if has_cjk(text):  # `两个` in the evidence supports a claim's `2个`
        for token, written in numbers(normalize_zh(text)).items():
            found.setdefault(token, written)
    for word in _scan(text)[1]:
        if word in NUMBER_WORD_TOKENS:  # `five` in the evidence supports a claim's `5`
            found.setdefault(NUMBER_WORD_TOKENS[word], word)
    for ident in identifiers(text):  # `v1` supports a claim's `version 1`
        found.setdefault(number_token(ident.value), ident.text)
    return EvidenceFacts(
        found,
        frozenset(_YEAR_RE.findall(text)),
        frozenset(_VERSION_RE.findall(text)),
        frozenset(_found(INFERENCE, text)),
    )


def _n_quantities(text: str) -> tuple[Quantity, ...]:
    return quantities(normalize_zh(text))


def risk_signals(
    claim: str,
    evidence: Iterable[str],
    facts: Iterable[str] | None = None,
    *,
    analysis: DocumentAnalysis | None = None,
    offset: int | None = None,
) -> tuple[RiskSignal, ...]:
    """Signals for one claim against the text of its cited fragments (may be empty).

    `facts` is where numbers, dates and versions are looked up (default: `evidence`): a number
    is supported if the cited fragment states it anywhere, while polarity and scope words are
    judged against the part of the fragment that carries the claim. `analysis` and `offset`
    say where the joined evidence sits in an analysed document (see `stream.verify.analysis`).
    """
    texts = list(evidence)
    joined = "\n".join(texts)
    facts_text = joined if facts is None else "\n".join(facts)
    if facts_text != joined:
        analysis = None  # two texts: neither is one span of a document
    out: list[RiskSignal] = []

    ev = located(evidence_facts, facts_text, analysis, offset)
    ev_numbers = dict(ev.numbers)
    claim_years = set(_YEAR_RE.findall(claim))
    ev_years = ev.years
    for year in sorted(claim_years - ev_years):
        if ev_years:
            others = ", ".join(sorted(ev_years)[:5])
            out.append(RiskSignal(SignalCode.DATE_MISMATCH, f"{year} (evidence has {others})"))
    claim_versions = set(_VERSION_RE.findall(claim))
    ev_versions = ev.versions
    for version in sorted(claim_versions - ev_versions):
        if ev_versions:
            others = ", ".join(sorted(ev_versions)[:5])
            out.append(
                RiskSignal(SignalCode.VERSION_MISMATCH, f"{version} (evidence has {others})")
            )
    flagged = {s.detail.split(" ")[0] for s in out}
    claim_n = normalize_zh(claim)
    claim_quantities = quantities(claim_n)
    # the evidence's amounts, read once, and only for a claim amount with a unit or an `about`
    approximate = [approximate_at(claim_n, claim_n.find(q.text)) for q in claim_quantities]
    stated = (
        located(_n_quantities, facts_text, analysis, offset)
        if any(q.unit is not None or a for q, a in zip(claim_quantities, approximate, strict=True))
        else ()
    )
    for q, about in zip(claim_quantities, approximate, strict=True):
        # `2 weeks` is supported by `14 days`: the same amount, exactly converted
        if q.unit is not None and any(same_amount(q, e) for e in stated):
            ev_numbers.setdefault(number_token(q.value), q.text)
            for token in numbers(q.text):  # `36 тысяч рублей` is `36 000 рублей`: its `36` too
                ev_numbers.setdefault(token, q.text)
            if q.unit == "%":  # `half of` in the evidence supports a claim's `50%`
                ev_numbers.setdefault(number_token(q.value) + "%", q.text)
        elif about and any(rounds_to(e, q) for e in stated):
            # `about 97%` is supported by `97.1%`
            ev_numbers.setdefault(number_token(q.value), q.text)
            ev_numbers.setdefault(number_token(q.value) + "%", q.text)
    bounded = [q for q in claim_quantities if q.unit is not None]
    claim_bounds = bounds(claim_n) if bounded else {}
    if any(k != {"exact"} for k in claim_bounds.values()):
        # `more than a year` is supported by `two years`: an amount inside the claim's bound
        ev_bounds: dict[str, frozenset[str]] | None = None
        for q in bounded:
            if number_token(q.value) in ev_numbers or not claim_bounds.get(f"#{q.value}"):
                continue
            if ev_bounds is None:
                ev_bounds = bounds(normalize_zh(facts_text[:_BOUND_SCAN_CHARS]))
            if any(bound_met(q, e, claim_bounds, ev_bounds) for e in stated):
                ev_numbers.setdefault(number_token(q.value), q.text)
    # a Chinese claim is read as the evidence's Chinese is (`下午6点` is `18:00`)
    read = claim_n if has_cjk(claim) else normalize_clock(claim)
    for token, written in numbers(read).items():
        if token not in ev_numbers and token.rstrip("%") not in flagged and written not in flagged:
            alt = token[:-1] if token.endswith("%") else token + "%"
            if token.endswith("%") or alt not in ev_numbers:
                out.append(RiskSignal(SignalCode.NUMBER_UNSUPPORTED, written))

    if texts:
        out += _scoped(claim, joined, analysis, offset)

    ev_inference = ev.inference if facts_text == joined else frozenset(_found(INFERENCE, joined))
    for cue in dict.fromkeys(_found(INFERENCE, claim)):
        if cue not in ev_inference:
            out.append(RiskSignal(SignalCode.INFERENCE_CUE, cue))
    return tuple(out)


SCOPE_SIGNALS = frozenset(
    {SignalCode.ABSOLUTE_UNSUPPORTED, SignalCode.INFERENCE_CUE, SignalCode.MODALITY_STRENGTHENED}
)
"""Signals that mark a claim as going beyond its evidence rather than citing the wrong text."""
