"""Features of one claim against its cited fragments, for the rules checker's linear model.

Everything is lexical and cheap: where in each fragment the claim's content is (the best window
of up to N sentences), how much of the claim that window covers (weighted by informativeness,
unweighted, as token bigrams and character trigrams), named entities and numbers, polarity, and
the risk signals. Each fragment is tokenised once and its tokens are mapped to sentences by
position, so long documents cost one pass.
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass
from functools import lru_cache

from stream.verify.align import Alignment, align, span_keys
from stream.verify.analysis import DocumentAnalysis, located
from stream.verify.claims import strip_markers
from stream.verify.codes import SignalCode
from stream.verify.lexicon import keys
from stream.verify.model import Fragment, RiskSignal
from stream.verify.signals import NEGATION, is_cjk, risk_signals
from stream.verify.text import split_sentences
from stream.verify.tokens import token_spans, token_weight, tokens
from stream.verify.units import has_cjk, magnitude, normalize_zh, quantities, short_cache

ANTONYMS: tuple[tuple[str, str], ...] = (
    ("allow", "prohibit"), ("allow", "forbid"), ("permit", "prohibit"), ("increase", "decrease"),
    ("increase", "reduce"), ("rise", "fall"), ("more", "less"), ("higher", "lower"),
    ("safe", "unsafe"), ("effective", "ineffective"), ("true", "false"), ("before", "after"),
    ("warm", "cool"), ("gain", "loss"), ("positive", "negative"), ("accept", "reject"),
    ("разреш", "запрещ"), ("увелич", "уменьш"), ("повыш", "сниж"), ("больш", "меньш"),
    ("允许", "禁止"), ("增加", "减少"), ("提高", "降低"), ("上升", "下降"), ("安全", "危险"),
)  # fmt: skip


_ANTONYM_STEMS = frozenset(w for pair in ANTONYMS for w in pair)
_STEM_LENGTHS = sorted({len(w) for w in _ANTONYM_STEMS if not is_cjk(w)})
_CJK_STEMS = tuple(w for w in _ANTONYM_STEMS if is_cjk(w))
_WORDS = re.compile(r"[^\W\d_]+")


def _antonym_stems(text: str) -> set[str]:
    """Antonym stems present in `text`: Latin/Cyrillic as word prefixes, CJK as substrings."""
    found = {w for w in _CJK_STEMS if w in text}
    for word in _WORDS.findall(text.lower()):
        for n in _STEM_LENGTHS:
            if len(word) >= n and word[:n] in _ANTONYM_STEMS:
                found.add(word[:n])
    return found


_ENTITY = re.compile(r"\b[A-Z][\w'-]*[a-z][\w'-]*|\b[A-Z]{2,}\b|\b[A-ZА-ЯЁ][а-яё]{2,}")

_WARNING_FEATURES: tuple[str, ...] = (
    "negation_claim_only",
    "negation_evidence_only",
    "coverage_x_negation",
    "antonym",
    "unaligned_share",
    "alignment_mismatches",
    "slot_conflict",
    "states_other",
    "paraphrased",
)

FEATURES: tuple[str, ...] = (
    "coverage",
    "coverage_unweighted",
    "coverage_all",
    "sentence_coverage",
    "bigram_coverage",
    "char3_coverage",
    "entity_coverage",
    "jaccard",
    "log_claim_tokens",
    "log_window_tokens",
    "log_uncovered",
    "uncovered_run",
    "order_agreement",
    "claim_window_ratio",
    *_WARNING_FEATURES,
    *(f"signal_{c.value}" for c in SignalCode),
)
"""Feature names, in the order of `Features.values`; the checker config weights them by name."""

RISK_FEATURES: frozenset[str] = frozenset(
    {*_WARNING_FEATURES, *(f"signal_{c.value}" for c in SignalCode)}
)
"""Features that say something is wrong: their entailment weights must be <= 0, so that a risk
signal can only lower the confidence in `entailed`, never raise it."""


@dataclass(frozen=True, slots=True)
class Window:
    """The stretch of one fragment that covers most of the claim."""

    fragment: Fragment
    start: int
    end: int
    covered: frozenset[str]
    coverage: float
    tokens: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Features:
    values: dict[str, float]
    best: Window
    windows: tuple[Window, ...]
    union: frozenset[str]
    claim_tokens: tuple[str, ...]
    contradiction: str | None
    alignment: Alignment
    signals: tuple[RiskSignal, ...]
    """The request's signals plus the alignment's mismatches, without duplicates."""


PAIR_MIN_TOKENS = 2
"""A claim rests on two adjacent sentences only when the second adds this many of its words:
one word found next door is how a swapped entity (`heartburn` for `rash`) or number aligns."""
LEXICON_SENTENCES = 6
"""How many of a fragment's sentences (by words shared with the claim) get lexicon keys."""
WINDOW_SENTENCES = 2
"""A claim rests on one sentence or two adjacent ones (a merged claim); nothing else of a
passage counts for or against it."""


def _fragment_windows(
    fragment: Fragment,
    weights: dict[str, float],
    total: float,
    width: int,
    max_chars: int,
    match: dict[str, frozenset[str]],
) -> tuple[Window, float]:
    """Best window of up to `width` sentences, and the best single sentence's coverage.

    A claim token covers a sentence when it or one of its lexicon keys (lemma, derivation,
    synonym) occurs there; ties keep the shorter window."""
    text, analysis, offset = fragment.text, fragment.analysis, fragment.offset
    sentences, per_sentence = located(_index, text, analysis, offset)
    exact = [frozenset(weights.keys() & set(toks)) for toks in per_sentence]
    # only the sentences that share most words with the claim (and their neighbours, for a
    # pair) are looked up in the lexicon: a long document has hundreds of sentences, and the
    # one a claim comes from shares words with it
    ranked = sorted(range(len(sentences)), key=lambda i: -math.fsum(weights[t] for t in exact[i]))[
        :LEXICON_SENTENCES
    ]
    expand = {j for i in ranked if exact[i] for j in (i - 1, i, i + 1)}
    amounts = any(k[:1] == "≈" for m in match.values() for k in m)
    matched_by: dict[str, set[str]] = {}  # a key -> the claim tokens it matches
    for t in weights:
        for key in match[t]:
            matched_by.setdefault(key, set()).add(t)
    hits = []
    for i, ((a, b), toks) in enumerate(zip(sentences, per_sentence, strict=True)):
        present = set(toks)
        if i in expand and any(m - present for m in match.values()):
            at = None if offset is None else offset + a
            present |= located(span_keys, text[a:b], analysis, at)
            if amounts:
                present |= located(_amount_key_set, text[a:b], analysis, at)
        hit: set[str] = set()
        for key in present & matched_by.keys():
            hit |= matched_by[key]
        hits.append(frozenset(hit))
    # Chinese tokens are character pairs: one word found next door adds two or three of them
    pair_min = PAIR_MIN_TOKENS + (1 if any(has_cjk(t) for t in weights) else 0)
    best_cov, best = -1.0, (0, 0, frozenset[str]())
    single = 0.0
    for i in range(len(sentences)):
        if not hits[i]:
            continue
        covered: frozenset[str] = frozenset()
        for k in range(i, min(i + width, len(sentences))):
            if k > i and sentences[k][1] - sentences[i][0] > max_chars:
                break
            covered = covered | hits[k]
            score = (
                math.fsum(weights[t] for t in covered) / total
            )  # order-free: sets iterate by hash
            if k == i:
                single = max(single, score)
            shorter = k - i < best[1] - best[0]
            if k > i and len(covered - hits[i]) < pair_min:
                continue  # a neighbour adding one word is no merged claim: maybe a swap
            if score > best_cov + 1e-9 or (score > best_cov - 1e-9 and shorter):
                best_cov, best = score, (i, k, covered)
    i, k, covered = best
    window_tokens = tuple(t for toks in per_sentence[i : k + 1] for t in toks)
    window = Window(
        fragment, sentences[i][0], sentences[k][1], covered, max(best_cov, 0.0), window_tokens
    )
    return window, single


@short_cache(maxsize=256)
def _claim_match(claim: str) -> tuple[tuple[str, ...], dict[str, float], dict[str, frozenset[str]]]:
    """Claim tokens, their weights, and what each may match: itself and its word's keys."""
    # Chinese numerals are read as digits (`十天` is `10天`), as the evidence's are (`_index`)
    claim = _numerals_read(claim)
    spans = token_spans(claim)
    claim_tokens = tuple(t for t, _, _ in spans)
    weights = {t: token_weight(t) for t in claim_tokens}
    match: dict[str, set[str]] = {t: {t} for t in claim_tokens}
    for tok, a, b in spans:
        raw = claim[a:b].lower()
        if not tok.startswith("#") and not has_cjk(raw):
            match[tok] |= keys(raw)
    for key, (x, y) in _amount_keys(claim):
        # `one day` covers a sentence stating `24 hours`: its tokens match the amount's key
        for tok, a, b in spans:
            if x <= a and b <= y:
                match[tok].add(key)
    return claim_tokens, weights, {t: frozenset(m) for t, m in match.items()}


def _amount_keys(text: str) -> list[tuple[str, tuple[int, int]]]:
    """(key of the amount in its base unit, span) of each exactly convertible amount of
    `text` as written (`one day` and `24 hours` share `≈86400.0 s`)."""
    out = []
    for q in quantities(normalize_zh(text)):
        mag = magnitude(q)
        at = text.find(q.text)
        if mag is not None and at >= 0:
            out.append((f"≈{mag[0]} {mag[1]}", (at, at + len(q.text))))
    return out


def _amount_key_set(text: str) -> frozenset[str]:
    """The amount keys of a sentence: a document's are computed once per version (`located`)."""
    return frozenset(k for k, _ in _amount_keys(text))


@short_cache(maxsize=256)
def _index(text: str) -> tuple[list[tuple[int, int]], list[tuple[str, ...]]]:
    """Sentences and their tokens; cached because one document is often cited many times
    (documents up to CACHE_TEXT_CHARS: the cache holds their tokens, so it stays small)."""
    sentences = split_sentences(text) or [(0, len(text))]
    return sentences, [tokens(_numerals_read(text[a:b])) for a, b in sentences]


def _numerals_read(text: str) -> str:
    """Chinese text with its numerals as digits: `一天` and `1天` are the same tokens when a
    window is chosen, so a claim writing the number another way still finds its sentence."""
    return normalize_zh(text) if has_cjk(text) else text


def _longest_run(claim_tokens: tuple[str, ...], covered: frozenset[str]) -> int:
    """Longest stretch of consecutive claim tokens the evidence lacks: a whole unsupported
    clause (`… and a built-in SQL database`) rather than a scattered paraphrase."""
    best = run = 0
    for tok in claim_tokens:
        run = run + 1 if tok not in covered else 0
        best = max(best, run)
    return best


def _order_agreement(claim_tokens: tuple[str, ...], window_tokens: tuple[str, ...]) -> float:
    """Share of consecutive shared claim tokens that keep their order in the evidence: a
    claim that reuses a sentence's words in another arrangement (`the victim said she became
    a woman`) says something else than one that keeps them."""
    first: dict[str, int] = {}
    for i, t in enumerate(window_tokens):
        first.setdefault(t, i)
    positions = [first[t] for t in dict.fromkeys(claim_tokens) if t in first]
    if len(positions) < 2:
        return 1.0
    kept = sum(1 for a, b in itertools.pairwise(positions) if a < b)
    return kept / (len(positions) - 1)


def _char3(text: str) -> set[str]:
    folded = " ".join(text.lower().split())
    return {folded[i : i + 3] for i in range(len(folded) - 2)}


def contradiction(claim: str, evidence: str) -> str | None:
    """A polarity clash between claim and evidence, described, or None."""
    claim_neg, evid_neg = NEGATION.search(claim), NEGATION.search(evidence)
    if bool(claim_neg) != bool(evid_neg):
        return "only the claim is negated" if claim_neg else "only the evidence is negated"
    in_claim, in_evidence = _antonym_stems(claim), _antonym_stems(evidence)
    for left, right in ANTONYMS:
        for a, b in ((left, right), (right, left)):
            if a in in_claim and b in in_evidence and a not in in_evidence:
                return f"the claim says {a!r}… where the evidence says {b!r}…"
    return None


@lru_cache(maxsize=256)
def _window_of(
    claim: str, fragment: Fragment, width: int, max_chars: int
) -> tuple[Window, float] | None:
    """The best window of `fragment` for `claim` (cached: the request's signals and the
    checker ask for the same one), None when the claim has no content token."""
    _, weights, match = _claim_match(claim)
    total = sum(weights.values())
    if total == 0:
        return None
    # a claim of several sentences (a quoted passage) may rest on as many
    width = max(width, len(split_sentences(claim)))
    return _fragment_windows(fragment, weights, total, width, max_chars, match)


def sentence_coverage(claim: str, sentence: str) -> float:
    """The share of `claim`'s token weight that `sentence` carries, by word or lexicon key,
    measured as a window's coverage is."""
    _, weights, match = _claim_match(claim)
    total = math.fsum(weights.values())
    if total == 0:
        return 0.0
    present = set(tokens(sentence)) | span_keys(sentence)
    return math.fsum(w for t, w in weights.items() if match[t] & present) / total


def localize(
    claim_text: str,
    fragments: tuple[Fragment, ...],
    width: int = WINDOW_SENTENCES,
    max_chars: int = 2000,
) -> list[str]:
    """The evidence text signals look at: the sentence or adjacent pair of each fragment the
    claim aligns to best. Another sentence of a passage neither supports a claim's number nor
    contradicts it with its negation."""
    claim = strip_markers(claim_text)
    out = []
    for fragment in fragments:
        found = _window_of(claim, fragment, width, max_chars)
        out.append(fragment.text if found is None else fragment.text[found[0].start : found[0].end])
    return out


def used_windows(claim: str, fragments: tuple[Fragment, ...]) -> list[Window]:
    """The windows a claim rests on: the best one, and those of other citations that cover
    something it does not (support spread over several citations)."""
    windows = [
        w
        for f in fragments
        if (found := _window_of(claim, f, WINDOW_SENTENCES, 2000))
        for w in (found[0],)
    ]
    if not windows:
        return []
    best = max(windows, key=lambda w: w.coverage)
    return [best, *(w for w in windows if w is not best and w.covered - best.covered)]


def evidence_view(
    claim: str, fragments: tuple[Fragment, ...]
) -> tuple[str, DocumentAnalysis | None, int | None]:
    """The text of the used windows, joined (what the claim is aligned with), with the
    analysis of its document and its offset there when it is one window of an analysed
    document (several windows joined are no span of one)."""
    used = used_windows(claim, fragments)
    text = "\n".join(w.fragment.text[w.start : w.end] for w in used)
    if len(used) == 1 and (at := used[0].fragment.offset) is not None:
        return text, used[0].fragment.analysis, at + used[0].start
    return text, None, None


def evidence_signals(claim_text: str, fragments: tuple[Fragment, ...]) -> tuple[RiskSignal, ...]:
    """Risk signals of a claim against the part of the fragments it relies on: the same
    span the rules checker aligns it with."""
    claim = strip_markers(claim_text)
    span, analysis, offset = evidence_view(claim, fragments) if fragments else ("", None, None)
    if not span:
        local = localize(claim, fragments)
        return risk_signals(claim, local, local)
    return risk_signals(claim, [span], [span], analysis=analysis, offset=offset)


def extract(
    claim_text: str,
    fragments: tuple[Fragment, ...],
    signals: tuple[RiskSignal, ...],
    *,
    width: int = WINDOW_SENTENCES,
    max_chars: int = 2000,
) -> Features | None:
    """Features for a claim with at least one content token and one fragment, else None."""
    claim = strip_markers(claim_text)
    claim_tokens, weights, _ = _claim_match(claim)
    total = sum(weights.values())
    if not fragments or total == 0:
        return None
    windows, singles = [], []
    for fragment in fragments:
        chosen = _window_of(claim, fragment, width, max_chars)
        assert chosen is not None  # total > 0
        window, single = chosen
        windows.append(window)
        singles.append(single)
    best = max(windows, key=lambda w: w.coverage)
    union = frozenset().union(*(w.covered for w in windows))
    claim_set = set(claim_tokens)
    window_set = set(best.tokens)
    window_text = best.fragment.text[best.start : best.end]
    claim_bigrams = set(itertools.pairwise(claim_tokens))
    window_bigrams = set(zip(best.tokens, best.tokens[1:], strict=False))
    claim_grams = _char3(claim)
    entities = {e.lower() for e in _ENTITY.findall(claim)}
    lowered = window_text.lower()
    clash = contradiction(claim, window_text)
    claim_neg = NEGATION.search(claim) is not None
    window_neg = NEGATION.search(window_text) is not None
    span, analysis, offset = evidence_view(claim, fragments)
    aligned = align(claim, span, analysis=analysis, offset=offset)
    found = tuple(dict.fromkeys((*signals, *aligned.mismatches)))
    codes = {s.code for s in found}
    coverage = best.coverage
    values = {
        "coverage": coverage,
        "coverage_unweighted": len(claim_set & window_set) / len(claim_set),
        "coverage_all": math.fsum(weights[t] for t in union) / total,
        "sentence_coverage": max(singles),
        "bigram_coverage": (
            len(claim_bigrams & window_bigrams) / len(claim_bigrams) if claim_bigrams else coverage
        ),
        "char3_coverage": (
            len(claim_grams & _char3(window_text)) / len(claim_grams) if claim_grams else 0.0
        ),
        "entity_coverage": (
            sum(1 for e in entities if e in lowered) / len(entities) if entities else 1.0
        ),
        "jaccard": len(claim_set & window_set) / len(claim_set | window_set),
        "log_claim_tokens": math.log1p(len(claim_tokens)),
        "log_window_tokens": math.log1p(len(best.tokens)),
        "log_uncovered": math.log1p(len(claim_set - window_set)),
        "uncovered_run": float(_longest_run(claim_tokens, union)),
        "negation_claim_only": float(claim_neg and not window_neg),
        "negation_evidence_only": float(window_neg and not claim_neg),
        "coverage_x_negation": coverage * float(claim_neg != window_neg),
        "antonym": float(clash is not None and "says" in clash),
        "unaligned_share": aligned.unaligned_weight,
        "alignment_mismatches": float(len(aligned.mismatches)),
        "slot_conflict": float(aligned.slot_conflict),
        "states_other": float(bool(aligned.contradictions)),
        "paraphrased": float(len(aligned.paraphrased)),
        "order_agreement": _order_agreement(claim_tokens, best.tokens),
        "claim_window_ratio": min(1.0, len(claim_set) / max(1, len(window_set))),
        **{f"signal_{c.value}": float(c in codes) for c in SignalCode},
    }
    return Features(values, best, tuple(windows), union, claim_tokens, clash, aligned, found)
