"""Word keys: what a claim's word may align with in the evidence, per language.

Two words align when their key sets meet. A word's keys are its Snowball stem, the stems of
its lemmas, and the ids of the synonym groups and derivation pairs of curated lexical
resources that it belongs to — so a faithful paraphrase aligns (`kept` / `retained`,
`хранятся` / `хранение`, `удалить` / `удаление`, `删除` / `去除`) while a different word does
not. The relations come from tables compiled by `stream.lexicon.build` (WordNet for English,
wiki-ru-wordnet for Russian, Tongyici Cilin for Chinese; see docs/checker-quality.md); Russian
lemmas come from pymorphy3 (OpenCorpora dictionaries). Nothing is fetched at run time; each
table is read once, on first use.
"""

from __future__ import annotations

import gzip
import hashlib
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar, cast

from stream.verify.tokens import _stem

LEXICON_VERSION = "lex-1"
"""Changes whenever the tables or the key rules change: part of the checker version."""

_DATA = Path(__file__).parent / "data"
_V = TypeVar("_V")

EMPTY: frozenset[str] = frozenset()
"""The one empty key set: most words have no keys of a given kind, and each cached empty
frozenset would be 216 bytes of its own."""


def frozen(found: Iterable[str]) -> frozenset[str]:
    """`found` as a frozenset, sharing `EMPTY` when there is nothing."""
    out = frozenset(found)
    return out if out else EMPTY


def union(sets: Iterable[frozenset[str]]) -> frozenset[str]:
    """The union of `sets`; one of them itself when the others add nothing, so cached results
    share their sets instead of copying them."""
    out = EMPTY
    for one in sets:
        if not out:
            out = one
        elif one and not one <= out:
            out = out | one
    return out


class Table:
    """Synonym groups, derivation pairs and irregular forms of one language.

    Built once per process and kept for its life, so it is built compactly: every word, key,
    tuple and set that occurs more than once is one shared object (the same word is a key of
    several maps; most Chinese words share their one class), and the text is read line by
    line rather than held whole beside the maps it becomes."""

    __slots__ = ("antonyms", "bases", "fields", "groups", "kinds", "pos")

    def __init__(self, language: str, lines: Iterable[str]) -> None:
        shared: dict[Any, Any] = {}

        def one(value: _V) -> _V:
            """The one object equal to `value` this table holds."""
            return cast("_V", shared.setdefault(value, value))

        groups: dict[str, list[str]] = {}
        bases: dict[str, list[str]] = {}
        self.kinds: dict[str, str] = {}
        self.pos: dict[str, frozenset[str]] = {}
        antonyms: dict[str, set[str]] = {}
        fields: dict[str, list[str]] = {}
        for n, line in enumerate(lines):
            kind, _, rest = line.rstrip("\n").partition(" ")
            if kind.startswith("@"):
                self.pos[kind[1:]] = frozenset(one(w) for w in rest.split())
                continue
            if kind == "%":
                code, _, members = rest.partition(" ")
                if language == "en":  # `% word sense,sense,…`
                    fields[one(code)] = [one(f"en%{m}") for m in members.split(",")]
                else:  # `% class word word …`
                    key = one(f"{language}%{code}")
                    for w in members.split():
                        fields.setdefault(one(w), []).append(key)
                continue
            if kind == "!":
                a, _, b = rest.partition(" ")
                a, b = one(a), one(b)
                antonyms.setdefault(a, set()).add(b)
                antonyms.setdefault(b, set()).add(a)
                continue
            if kind == "^":
                word, _, senses = rest.partition(" ")
                self.kinds[one(word)] = one(senses)  # parsed on use: most are never asked for
                continue
            words = [one(w) for w in rest.split()]
            if kind in ("=", "+"):
                key = f"{language}{kind}{n}"
                for w in words:
                    groups.setdefault(w, []).append(key)
            elif kind == "~" and words:
                for form in words[1:]:
                    bases.setdefault(form, []).append(words[0])
        self.groups = {w: one(tuple(k)) for w, k in groups.items()}
        self.antonyms = {w: one(frozenset(v)) for w, v in antonyms.items()}
        self.fields = {w: one(frozenset(v)) for w, v in fields.items()}
        self.bases = {w: one(tuple(b)) for w, b in bases.items()}

    def members(self) -> dict[str, tuple[str, ...]]:
        """Synonym group -> its words, in the order the table lists them."""
        out: dict[str, list[str]] = {}
        for word, keys in self.groups.items():
            for k in keys:
                out.setdefault(k, []).append(word)
        return {k: tuple(v) for k, v in out.items()}


COMPILED_FORMAT = "1"
"""The layout of a compiled table (`compiled_items`); a file of another layout is not read."""

# One map per key prefix. A word never holds a space, so `<prefix> <word>` is unambiguous.
_G, _B, _K, _A, _F, _P, _M, _SOURCE = "g", "b", "k", "a", "f", "p", "m", "v"


def _split(raw: bytes) -> tuple[str, ...]:
    return tuple(sys.intern(w) for w in raw.decode().split(" "))


def _split_set(raw: bytes) -> frozenset[str]:
    return frozenset(_split(raw))


class _View(Mapping[str, _V]):
    """One map of a compiled table, read in place: its values are decoded on lookup (the
    callers cache what they derive), so the process holds the compact automaton only."""

    __slots__ = ("_dawg", "_decode", "_prefix")

    def __init__(self, dawg: Any, prefix: str, decode: Callable[[bytes], _V]) -> None:
        self._dawg = dawg
        self._prefix = f"{prefix} "
        self._decode = decode

    def __getitem__(self, key: str) -> _V:
        found = self._dawg.get(self._prefix + key)
        if found is None:
            raise KeyError(key)
        return self._decode(found[0])

    def get(self, key: str, default: Any = None, /) -> Any:  # no KeyError raised per miss
        found = self._dawg.get(self._prefix + key)
        return default if found is None else self._decode(found[0])

    def __contains__(self, key: object, /) -> bool:
        return isinstance(key, str) and (self._prefix + key) in self._dawg

    def __iter__(self) -> Iterator[str]:
        cut = len(self._prefix)
        return (k[cut:] for k in self._dawg.iterkeys(self._prefix))

    def __len__(self) -> int:
        return sum(1 for _ in self)


class Compiled:
    """A `Table` compiled by `stream.lexicon.compiled` into one DAWG file (the DAWG2 package,
    which pymorphy3 already reads its dictionaries with): the same maps, read in place. It
    loads in milliseconds and holds about 30 MB less than the dicts the text becomes
    (docs/performance.md#memory)."""

    __slots__ = ("antonyms", "bases", "fields", "groups", "kinds", "member_map", "pos")

    def __init__(self, dawg: Any) -> None:
        self.groups: Mapping[str, tuple[str, ...]] = _View(dawg, _G, _split)
        self.bases: Mapping[str, tuple[str, ...]] = _View(dawg, _B, _split)
        self.kinds: Mapping[str, str] = _View(dawg, _K, bytes.decode)
        self.antonyms: Mapping[str, frozenset[str]] = _View(dawg, _A, _split_set)
        self.fields: Mapping[str, frozenset[str]] = _View(dawg, _F, _split_set)
        self.member_map: Mapping[str, tuple[str, ...]] = _View(dawg, _M, _split)
        self.pos: dict[str, Mapping[str, bool]] = {
            cat: _View(dawg, f"{_P} {cat}", bool)
            for cat in dawg.get(f"{_P} ", [b""])[0].decode().split()
        }

    def members(self) -> Mapping[str, tuple[str, ...]]:
        return self.member_map


_LISTED = frozenset({"ru", "zh"})
"""Languages whose synonym groups the core lists member by member (`_ru_members`,
`zh_synonyms`); English only tests membership, so its compiled table leaves the lists out."""


def compiled_items(language: str, table: Table, source_digest: str) -> Iterator[tuple[str, bytes]]:
    """The entries of `table` compiled: `<prefix> <word>` -> its value, space-separated, in the
    table's own order (a synonym group's members keep the order the text lists them in, so both
    forms give the same verdicts); `v ` names the format and the text it was compiled from."""
    yield f"{_SOURCE} ", f"{COMPILED_FORMAT} {source_digest}".encode()
    members = table.members() if language in _LISTED else {}
    for prefix, mapping in ((_G, table.groups), (_B, table.bases), (_M, members)):
        for word, values in mapping.items():
            yield f"{prefix} {word}", " ".join(values).encode()
    for prefix, sets in ((_A, table.antonyms), (_F, table.fields)):
        for word, value in sets.items():
            yield f"{prefix} {word}", " ".join(sorted(value)).encode()
    for word, senses in table.kinds.items():
        yield f"{_K} {word}", senses.encode()
    yield f"{_P} ", " ".join(table.pos).encode()
    for cat, words in table.pos.items():
        for word in words:
            yield f"{_P} {cat} {word}", b"1"


def text_path(language: str) -> Path:
    return _DATA / f"lexicon-{language}.txt.gz"


def compiled_path(language: str) -> Path:
    return _DATA / f"lexicon-{language}.dawg"


def source_digest(language: str) -> str:
    return hashlib.sha256(text_path(language).read_bytes()).hexdigest()


def text_table(language: str) -> Table:
    with gzip.open(text_path(language), "rt", encoding="utf-8") as lines:
        return Table(language, lines)


def compiled_table(language: str) -> Compiled | None:
    """The compiled table when it is there and was compiled from today's text in this format;
    None otherwise (the caller reads the text)."""
    path = compiled_path(language)
    if not path.is_file():
        return None
    try:
        import dawg  # DAWG2, installed with pymorphy3[fast]
    except ImportError:
        return None
    automaton = dawg.BytesDAWG().load(str(path))
    stamp = automaton.get(f"{_SOURCE} ")
    if stamp is None or stamp[0].decode() != f"{COMPILED_FORMAT} {source_digest(language)}":
        return None
    return Compiled(automaton)


@lru_cache(maxsize=3)
def table(language: str) -> Table | Compiled:
    """The language's table: compiled when `make` has compiled it, else read from its text."""
    return compiled_table(language) or text_table(language)


def _senses(word: str) -> tuple[frozenset[str], frozenset[str]]:
    """(own top noun senses, their hypernyms within a few steps) of an English base form."""
    raw = table("en").kinds.get(word)
    if raw is None:
        return EMPTY, EMPTY
    own, _, up = raw.partition(" ")
    return frozenset(f"h{o}" for o in own.split(",")), frozenset(f"h{u}" for u in up.split(","))


_RU_PREFIXES = (
    "пере", "пред", "пред", "раз", "рас", "под", "над", "без", "бес", "воз", "вос", "вз",
    "от", "об", "вы", "за", "на", "по", "про", "при", "со", "из", "ис", "до", "с", "у", "о",
)  # fmt: skip
"""Verbal prefixes that make a perfective partner (делить / разделить, чистить / очистить)."""


def _ru_verb_roots(word: str) -> list[tuple[str, str | None]]:
    """(root, root without its prefix or None) of the verb parses of a Russian word."""
    out = []
    for lemma, pos in ru_lemmas(word.replace("ё", "е")):
        if pos not in {"INFN", "VERB", "PRTF", "PRTS", "GRND"}:
            continue
        for root in ru_roots(lemma, shortest=3):
            stripped = next(
                (
                    root[len(p) :]
                    for p in _RU_PREFIXES
                    if root.startswith(p) and len(root) - len(p) >= 3
                ),
                None,
            )
            out.append((root, stripped))
    return out


def _ru_noun_bare_roots(word: str) -> list[str]:
    """The roots of a Russian action noun's parses without their verbal prefix (`оплата` ->
    `плат`), for aligning it with the unprefixed verb (`платить`): only roots of five letters
    or more that keep four without the prefix (not `задача` -> `дач`)."""
    out: list[str] = []
    for lemma, pos in ru_lemmas(word.replace("ё", "е")):
        if pos != "NOUN":
            continue
        for root in ru_roots(lemma, shortest=5):
            out.extend(
                root[len(p) :]
                for p in _RU_PREFIXES
                if root.startswith(p) and len(root) - len(p) >= 4
            )
    return out


@lru_cache(maxsize=65536)
def claim_keys(word: str) -> frozenset[str]:
    """What a claim's word may align with beyond `keys`: a kind of what the evidence names
    (`fees` for `costs`), and a Russian verb's aspect partner made by a prefix (`разделить`
    for `делить`, `делить` for `разделить`; never `выделить` for `разделить`); a Russian
    action noun made with a prefix and the verb without it align both ways (`оплата` /
    `платить`), as the noun's verb (`оплатить`) and that verb would."""
    if word.isascii():
        return kind_keys(word)
    found: set[str] = set()
    for root, stripped in _ru_verb_roots(word):
        found.add(f"s:{root}")
        if stripped:
            found.add(f"a:{stripped}")
    found.update(f"a:{bare}" for bare in _ru_noun_bare_roots(word))
    return frozen(found)


@lru_cache(maxsize=65536)
def evidence_keys(word: str) -> frozenset[str]:
    """The evidence side of `claim_keys`."""
    if word.isascii():
        return sense_keys(word)
    found: set[str] = set()
    for root, stripped in _ru_verb_roots(word):
        found.add(f"a:{root}")
        if stripped:
            found.add(f"s:{stripped}")
    found.update(f"s:{bare}" for bare in _ru_noun_bare_roots(word))
    return frozen(found)


def kind_keys(word: str) -> frozenset[str]:
    """Keys a claim's English noun has in addition to `keys`: the senses it is a kind of, so
    `fees` aligns with evidence that says `costs` (never the other way round). Not cached
    itself: `claim_keys`, its one caller, is."""
    if not word.isascii():
        return EMPTY
    return union(_senses(b)[1] for b in _en_bases(word.lower()) or (word.lower(),))


def sense_keys(word: str) -> frozenset[str]:
    """The evidence side of `kind_keys`: the senses an English noun names (cached by
    `evidence_keys`)."""
    if not word.isascii():
        return EMPTY
    return union(_senses(b)[0] for b in _en_bases(word.lower()) or (word.lower(),))


# WordNet's morphy detachment rules (wnintro(7WN)): suffix -> replacement, by part of speech.
_DETACH = (
    ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"),
    ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", ""),
    ("er", ""), ("est", ""), ("er", "e"), ("est", "e"), ("s", ""),
)  # fmt: skip


@lru_cache(maxsize=65536)
def _en_bases(word: str) -> tuple[str, ...]:
    t = table("en")
    known = (t.groups, t.kinds, t.antonyms, t.fields, t.pos.get("v", ()), t.pos.get("vn", ()))
    found = list(t.bases.get(word, ()))
    if any(word in k for k in known):
        found.append(word)
    for suffix, repl in _DETACH:
        if word.endswith(suffix) and len(word) - len(suffix) >= 2:
            base = word[: -len(suffix)] + repl
            if any(base in k for k in known):
                found.append(base)
    return tuple(dict.fromkeys(found))


@lru_cache(maxsize=1)
def _morph() -> Any:
    import pymorphy3  # here: building the analyser reads its dictionaries (~60 ms, ~15 MB)

    return pymorphy3.MorphAnalyzer()


_RU_SUFFIXES = (
    "ывание", "ивание", "ование", "евание", "ение", "ание", "яние", "тие", "ние", "ация",
    "ывать", "ивать", "овать", "евать", "вать", "ать", "ять", "еть", "ить", "уть", "оть", "ти",
    "енный", "анный", "онный", "ённый", "ийный", "ный", "ной", "ний", "ый", "ий", "ой", "ая", "ое",
    "ие", "ия", "ка", "о", "е", "ь", "а", "я",
)  # fmt: skip
_RU_ALTERNATIONS = (
    ("вл", ("в",)), ("бл", ("б",)), ("пл", ("п",)), ("мл", ("м",)), ("щ", ("т", "ст")),
    ("ж", ("д", "з", "г")), ("ч", ("т", "к")), ("ш", ("с",)),
)  # fmt: skip


_RU_REFLEXIVE_VERB = ("ться", "тись", "чься", "тися")
_RU_KEPT_TAILS = frozenset({"ж", "ч", "щ", "ш"})
"""Alternating consonants that the noun of the same root may keep (`поддержка`, `проверка`,
`превышение` of `превысить`)."""
_RU_ROOT_VOWEL = re.compile(r"[^аеёиоуыэюя](ав|ов|[ео])[^аеёиоуыэюя]*$")
_RU_INSERTED_VOWEL = re.compile(r"(?:[бдптм]ир|зыв)$")
_RU_VOWEL_SWAP = {"е": "о", "о": "е", "ав": "ов", "ов": "ав"}


@lru_cache(maxsize=65536)
def ru_roots(lemma: str, shortest: int = 4) -> tuple[str, ...]:
    """The roots a Russian verb shares with its aspect partner and its action noun, and an
    adjective with its noun: удалять / удалить / удаление -> удал, возвращать / возвратить /
    возврат -> возврат, качественный / качество -> качеств. Consonant alternations give
    several candidates (очищать -> очист, очит). Empty when too short to be telling."""
    # only a verb is reflexive (`записаться`), not a noun that ends alike (`запись`)
    word = lemma[:-2] if lemma.endswith(_RU_REFLEXIVE_VERB) else lemma
    for suffix in _RU_SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    if word.endswith(("а", "я")) and len(word) > 4:
        word = word[:-1]
    if word.endswith(("ыв", "ив", "им")) and len(word) >= 6:
        word = word[:-2]  # imperfective stems: принимать / принять, показывать / показать
    found = [word]
    for tail, repls in _RU_ALTERNATIONS:
        if word.endswith(tail):
            found = [word[: -len(tail)] + r for r in repls]
            if tail in _RU_KEPT_TAILS:
                found.insert(0, word)  # поддерживать / поддержка: the root keeps its ж
            break
    # the imperfective's inserted vowel: забирать / забрать, вызывать / вызвать
    for w in list(found):
        if _RU_INSERTED_VOWEL.search(w):
            found.append(w[:-2] + w[-1])
    # vowel alternations of the root's last syllable: перенести / перенос (е/о),
    # восстанавливать / восстановление (ав/ов)
    for w in list(found):
        m = _RU_ROOT_VOWEL.search(w)
        if m is not None:
            found.append(w[: m.start(1)] + _RU_VOWEL_SWAP[m.group(1)] + w[m.end(1) :])
    # aspect partners the suffix rules above cut apart: упаковать / упаковывать (-ова- is the
    # stem's, not a suffix), рассмотреть / рассматривать (о/а in the imperfective), заехать /
    # заезд (ех/езд)
    bare = lemma[:-2] if lemma.endswith(("ся", "сь")) else lemma
    if bare.endswith("овать") and len(bare) >= 8:
        found.append(bare[:-3])
    if bare.endswith(("ывать", "ивать")):
        for w in list(found):
            m = _RU_LAST_A.search(w)
            if m is not None:
                found.append(w[: m.start()] + "о" + w[m.start() + 1 :])
    for w in list(found):
        if w.endswith("ех"):
            found.append(w[:-2] + "езд")
        elif w.endswith("ст") and len(w) >= 6:
            found.append(w[:-2] + "ск")  # перевыпустить / перевыпуск, опустить / опуск
        elif w.endswith("ир") and bare.endswith("ировать") and len(w) >= 7:
            found.append(w[:-2])  # регистрировать / регистрация
    return tuple(dict.fromkeys(w for w in found if len(w) >= shortest))


_RU_LAST_A = re.compile(r"а(?=[^аеёиоуыэюя]+$)")
"""The root's last vowel when it is `а`: the imperfective's alternation (рассматр / рассмотр)."""


def ru_root(lemma: str) -> str | None:
    roots = ru_roots(lemma)
    return roots[0] if roots else None


_RU_ROOTED = frozenset({"INFN", "VERB", "PRTF", "PRTS", "GRND", "NOUN", "ADJF", "ADJS", "ADVB"})
"""Parts of speech whose root links aspect partners and action nouns."""


@lru_cache(maxsize=65536)
def ru_lemmas(word: str) -> tuple[tuple[str, str], ...]:
    """(lemma, part of speech) of the likely parses (score within half of the best)."""
    parses = _morph().parse(word)
    if not parses:
        return ()
    best = parses[0].score
    out = []
    for p in parses[:4]:
        if p.score >= best / 2:
            out.append((str(p.normal_form).replace("ё", "е"), str(p.tag.POS)))
    return tuple(dict.fromkeys(out))


@lru_cache(maxsize=65536)
def ru_tags(word: str) -> tuple[str, ...]:
    """The grammemes of each likely parse of a Russian word (`ADJF,Qual plur,nomn`)."""
    parses = _morph().parse(word)
    return tuple(str(p.tag) for p in parses[:4] if p.score >= parses[0].score / 2)


def word_keys(word: str) -> frozenset[str]:
    """Keys of one lower-cased word (Latin or Cyrillic); cached by `keys`, its one caller."""
    if any("\u0400" <= c <= "\u04ff" for c in word):
        word = word.replace("ё", "е")
        keys = {_stem(word, "ru")}
        groups = table("ru").groups
        for lemma, pos in ru_lemmas(word):
            bare = lemma[:-2] if lemma.endswith(("ся", "сь")) and pos != "NOUN" else lemma
            keys.add(_stem(bare, "ru"))
            keys.update(groups.get(lemma, ()))
            if pos in _RU_ROOTED:
                keys.update(f"r:{root}" for root in ru_roots(bare))
            if pos in ("INFN", "VERB"):
                keys.update(_ru_synonym_roots(lemma))
        return frozenset(keys)
    keys = {_stem(word, "en")}
    if "-" in word and any(c.isdigit() for c in word):
        keys.add(word.replace("-", ""))  # COVID-19 is COVID19, SHA-256 is SHA256
    groups = table("en").groups
    for base in _en_bases(word):
        keys.add(_stem(base, "en"))
        keys.update(groups.get(base, ()))
    return frozenset(keys)


PARTICLES = frozenset(
    "up off back out in on over down away through along around about into".split()
)
"""The particles of the phrasal verbs the English table relates to one-word verbs."""


@lru_cache(maxsize=16384)
def phrasal_keys(word: str, particle: str) -> frozenset[str]:
    """The synonym groups of the phrasal verb `word particle` (`put off` / `puts off` ->
    the group it shares with `postpone`), empty when WordNet has no such verb."""
    if particle not in PARTICLES or not word.isascii():
        return frozenset()
    groups = table("en").groups
    return frozenset(
        k
        for base in dict.fromkeys((word, *_en_bases(word)))
        for k in groups.get(f"{base}_{particle}", ())
    )


RU_ROOT_GROUP = 2
"""A Russian verb takes the roots of its synonym in a two-word synset (`вернуть` the root of
`возвратить`, so it aligns with `возврат`). Larger synsets are too loose for that: `получить`
would take `взять`'s root and align with `взятка`."""


@lru_cache(maxsize=1)
def _ru_members() -> Mapping[str, tuple[str, ...]]:
    return table("ru").members()


@lru_cache(maxsize=16384)
def _ru_synonym_roots(lemma: str) -> frozenset[str]:
    """Root keys of the verb synonym of a Russian verb (two-word synsets only)."""
    members = _ru_members()
    found: set[str] = set()
    for k in table("ru").groups.get(lemma, ()):
        group = members.get(k, ())
        if len(group) <= RU_ROOT_GROUP:
            for other in group:
                if other != lemma and other.endswith(("ть", "ться", "ти", "чь")):
                    found.update(f"r:{root}" for root in ru_roots(other))
    return frozenset(found)


@lru_cache(maxsize=1)
def _zh_groups() -> Mapping[str, tuple[str, ...]]:
    return table("zh").groups


@lru_cache(maxsize=1)
def _zh_members() -> Mapping[str, tuple[str, ...]]:
    return table("zh").members()


def warm(languages: Iterable[str]) -> None:
    """Load now what the first claim of each language would otherwise wait for (its table;
    for ru the morphological analyser and synonym groups; for zh the synonym groups): a
    worker pays it at start, not on the latency of its first answer."""
    for language in languages:
        if language in {"en", "ru", "zh"}:
            table(language)
        if language == "ru":
            _morph()
            _ru_members()
        elif language == "zh":
            _zh_members()


@lru_cache(maxsize=16384)
def zh_synonyms(word: str) -> tuple[str, ...]:
    """Other words of the Cilin synonym groups of a Chinese word (none for unknown words)."""
    members = _zh_members()
    found = [w for k in _zh_groups().get(word, ()) for w in members.get(k, ()) if w != word]
    return tuple(dict.fromkeys(found))


@lru_cache(maxsize=65536)
def keys(word: str) -> frozenset[str]:
    """Keys of any word: Chinese words by themselves and their Cilin groups, others as
    `word_keys`."""
    if any("\u3400" <= c <= "\u9fff" for c in word):
        return frozenset({word, *_zh_groups().get(word, ())})
    return word_keys(word.lower())


_EN_AUX = frozenset(
    """to will would can could may might must should shall do does did not never also
    i you we they he she it who which that""".split()
)


@lru_cache(maxsize=65536)
def predicate(word: str, before: str = "", after: str = "") -> bool:
    """Whether a Latin or Cyrillic word is a verb or an adverb: the words a paraphrase swaps
    most freely (`issued` / `processed`, `хранятся` / `содержатся`). English words that are
    nouns too count when inflected as verbs or after an auxiliary (`to change`, `changed`)."""
    word = word.lower()
    if any("\u0400" <= c <= "\u04ff" for c in word):
        parses = ru_lemmas(word)
        return bool(parses) and parses[0][1] in {"VERB", "INFN", "PRTS", "GRND", "ADVB"}
    if before.lower() in _EN_DETERMINERS:
        return False  # `the number of pages`: a noun, whatever else the word may be
    t = table("en")
    pos = t.pos
    bases = _en_bases(word) or (word,)
    if any(b in pos.get("v", ()) or b in pos.get("r", ()) for b in bases):
        return True
    if word.endswith("ly") and not any(b in t.kinds for b in bases):
        return True  # an adverb WordNet lacks; `family` is a noun
    if any(b in pos.get("vn", ()) for b in bases):
        return (
            word.endswith(("ed", "ing"))
            or (bases[0] != word and bases[0] in pos.get("vn", ()) and not word.endswith("s"))
            or before.lower() in _EN_AUX
            or (word.endswith("s") and after.lower() in _EN_AFTER_VERB)
        )
    return False


_EN_DETERMINERS = frozenset(
    "a an the this that these those its their his her our your my each every".split()
)
_EN_AFTER_VERB = frozenset(
    """a an the to with below above under over for from into onto by first only its their his
    her our your this these those""".split()
)
"""Words a verb in `-s` is followed by (`availability drops below`, `it comes first`) and a
plural noun seldom is: `drops` there is the verb."""


@lru_cache(maxsize=65536)
def antonyms_of(word: str) -> frozenset[str]:
    """WordNet antonyms (base forms) of an English word's base forms."""
    if not word.isascii():
        return EMPTY
    t = table("en")
    return union(t.antonyms.get(b, EMPTY) for b in _en_bases(word.lower()) or (word.lower(),))


@lru_cache(maxsize=65536)
def bases_of(word: str) -> frozenset[str]:
    """An English word's base forms (itself when it has none)."""
    return frozenset(_en_bases(word.lower()) or (word.lower(),))


@lru_cache(maxsize=65536)
def opposite(a: str, b: str) -> bool:
    """WordNet antonyms (`accept` / `reject`, `include` / `exclude`) between two English
    words, in any of their base forms."""
    if not (a.isascii() and b.isascii()):
        return False
    t = table("en")
    bases_b = set(_en_bases(b.lower()) or (b.lower(),))
    for base in _en_bases(a.lower()) or (a.lower(),):
        if t.antonyms.get(base, frozenset()) & bases_b:
            return True
    return False


@lru_cache(maxsize=65536)
def fields(word: str) -> frozenset[str]:
    """The semantic field of an English verb (its first WordNet senses and their hypernyms two
    steps up) or of a Chinese word (its small Cilin class): a paraphrased verb must share one
    with the evidence word it stands for (`submitted` / `sent`, never `compressed` /
    `encrypted`). A Russian word's fields are the wiki-ru-wordnet synsets of its first lemma,
    of any size up to 40 (`уведомлять` / `предупреждать`; LibreOffice's thesaurus was measured
    not to pay, docs/checker-quality.md)."""
    if any("\u3400" <= c <= "\u9fff" for c in word):
        return table("zh").fields.get(word, EMPTY)
    if not word.isascii():
        parses = ru_lemmas(word.lower())
        if not parses:
            return EMPTY
        lemma = parses[0][0].replace("ё", "е")
        found = table("ru").fields
        # `уведомляться` is the passive of `уведомлять`, which the synsets list
        return found.get(lemma) or found.get(lemma.removesuffix("ся").removesuffix("сь"), EMPTY)
    t = table("en")
    return union(t.fields.get(b, EMPTY) for b in _en_bases(word.lower()) or (word.lower(),))
