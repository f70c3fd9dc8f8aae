"""Language-aware content tokens for lexical coverage.

One tokenizer serves mixed-script text: Han/kana runs become character bigrams (no dictionary
needed), Latin and Cyrillic words are lower-cased, stop words dropped and Snowball-stemmed, and
numbers become value tokens so `30` matches `30` whatever surrounds it.
"""

from __future__ import annotations

import itertools
import re
from functools import lru_cache
from itertools import chain

import snowballstemmer

from stream.verify.numerals import NUMBER_WORD_TOKENS

_STEMMERS = {
    "en": snowballstemmer.stemmer("english"),
    "ru": snowballstemmer.stemmer("russian"),
}

ADDRESSEE = frozenset(
    """you your yours yourself yourselves we our ours us
    вы вас вам вами ваш ваша ваше ваши вашего вашей вашему вашим ваших вашу вашими
    мы нас нам нами наш наша наше наши нашего нашей нашему нашим наших нашу""".split()
)
"""Who an assistant addresses (`you will get your refund`) is the reader the document's rules
apply to, not a fact to check."""
EN_STOP = frozenset(
    """a an the and or but if of to in on at by for with from as is are was were be been being
    it its this that these those there here which who whom whose what when where why how
    than then so such into onto over under about after before between through during can
    could may might will would shall should do does did has have had having i you he she we
    they me him her us them my your his our their also very just more most some any each
    other both own same too s t""".split()
)
RU_STOP = frozenset(
    """и в во на с со к ко о об от до по за из у же ли бы а но да или что чтобы как так это
    этот эта эти тот та те то он она оно они его её ее их ему ей им я мы вы ты был была было
    были быть есть для при про над под без через уже ещё еще также тоже лишь""".split()
)
ZH_STOP_CHARS = frozenset("的了和与及是把该中在也而之其或并被将对就都")

_TOKEN_RE = re.compile(
    r"(?P<num>\d+(?:[.,]\d+)*%?)"
    r"|(?P<cjk>[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+)"
    r"|(?P<cyr>[а-яё]+(?:-[а-яё]+)*)"
    r"|(?P<lat>[a-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff]+"
    r"(?:['.\-][a-z0-9\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff]+)*)",
    re.IGNORECASE,
)
# The same pattern without groups: `findall` then yields plain strings.
_RAW_RE = re.compile(re.sub(r"\(\?P<\w+>", "(?:", _TOKEN_RE.pattern), re.IGNORECASE)


def number_token(raw: str) -> str:
    """Canonical number token: `1,5` and `1.5` agree; thousands separators are dropped."""
    percent = raw.endswith("%")
    body = re.sub(r"(?<=\d)[ \u00a0\u202f](?=\d{3})", "", raw.rstrip("%"))
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+", body):
        body = body.replace(",", "")
    body = body.replace(",", ".")
    if "." in body and body.count(".") == 1:
        head, tail = body.split(".")
        tail = tail.rstrip("0")
        body = f"{head}.{tail}" if tail else head
    return f"#{body}{'%' if percent else ''}"


@lru_cache(maxsize=65536)
def _stem(word: str, lang: str) -> str:
    return str(_STEMMERS[lang].stemWord(word))


def _word_tokens(word: str, lang: str, stop: frozenset[str]) -> list[str]:
    parts = re.split(r"[-']", word) if lang == "ru" else [word]
    out = []
    for part in parts:
        if part in NUMBER_WORD_TOKENS:
            out.append(NUMBER_WORD_TOKENS[part])
            continue
        if len(part) < 2 and not part.isdigit():
            continue
        if part in stop:
            continue
        out.append(_stem(part, lang))
    return out


def token_spans(text: str) -> list[tuple[str, int, int]]:
    """Content tokens with the `[start, end)` span of the text each came from."""
    out: list[tuple[str, int, int]] = []
    for m in _TOKEN_RE.finditer(text):
        kind = m.lastgroup
        value = m.group().lower()
        start, end = m.span()
        if kind == "num":
            out.append((number_token(value), start, end))
        elif kind == "cjk":
            kept = [(c, start + i) for i, c in enumerate(value) if c not in ZH_STOP_CHARS]
            if len(kept) == 1:
                out.append((kept[0][0], kept[0][1], kept[0][1] + 1))
            for (a, pa), (b, pb) in itertools.pairwise(kept):
                out.append((a + b, pa, pb + 1))
        elif kind == "lat" and "." in value:
            out.append((value, start, end))  # names such as node.js stay whole
        else:
            lang, stop = ("ru", RU_STOP) if kind == "cyr" else ("en", EN_STOP)
            out.extend((tok, start, end) for tok in _word_tokens(value, lang, stop))
    return out


@lru_cache(maxsize=65536)
def _word_to_tokens(raw: str) -> tuple[str, ...]:
    """Tokens of one raw match of the token pattern (cached: vocabularies repeat)."""
    return tuple(tok for tok, _, _ in token_spans(raw))


def tokens(text: str) -> tuple[str, ...]:
    """Content tokens of `text` in order (duplicates kept; callers make sets as needed).

    `findall` runs at C speed and each distinct raw word is tokenised once per process, which
    keeps long documents cheap; positions are left to `token_spans`.
    """
    return tuple(chain.from_iterable(map(_word_to_tokens, _RAW_RE.findall(text))))


def token_weight(token: str) -> float:
    """Rough informativeness without corpus statistics: numbers and long stems weigh more."""
    if token.startswith("#"):
        return 2.0
    if len(token) == 2 and not token.isascii():
        return 1.0  # a CJK bigram
    return min(2.0, 0.6 + 0.2 * len(token))


def jaccard(left: set[str] | frozenset[str], right: set[str] | frozenset[str]) -> float:
    """Seed 001's similarity: |A∩B| / |A∪B| over token sets."""
    union = len(left | right)
    return len(left & right) / union if union else 0.0
