"""Text primitives of the verification core: normalisation, a language guess, sentence ends.

Pure functions over Python ``str``: every offset is a code-point offset, so spans computed here
index the same strings the events carry. Standard library only, regexes compiled once, and every
scan is linear-ish because documents of about 1 MB pass through here.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = [
    "MARKER_ID_SEPARATOR",
    "MARKER_PATTERN",
    "detect_language",
    "normalise",
    "sentence_boundaries",
    "split_sentences",
]

_MARKER_ID = r"(?:[A-Za-z][A-Za-z_-]{0,15})?[0-9０-９]{1,9}"
MARKER_ID_SEPARATOR = re.compile(r"[ \t]*[,，、;；][ \t]*")
_MARKER_IDS = rf"{_MARKER_ID}(?:{MARKER_ID_SEPARATOR.pattern}{_MARKER_ID})*"
MARKER_PATTERN = re.compile(rf"[\[【［][ \t]*(?P<ids>{_MARKER_IDS})[ \t]*[\]】］]")
"""One citation marker: `[S1]`, `[1]`, `【1】`, `［1］`, or a group `[S1, S2]`; ids in ``ids``.

Defined here because a marker right after a terminator is part of the sentence it closes, both
in answers and in documents with footnotes (`… in 2020.[3]`).
"""
_TRAILING_MARKERS = re.compile(rf"(?:\s*(?:{MARKER_PATTERN.pattern}))+")

# Diagnostic normalisation: quote and dash variants that differ between producers and sources.
_DOUBLE_QUOTES = (
    "\u201c\u201d\u201e\u201f\u00ab\u00bb\uff02\u300c\u300d\u300e\u300f\u301d\u301e\u301f"
)
_SINGLE_QUOTES = "\u2018\u2019\u201a\u201b\u2039\u203a\uff07"
_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"
_FOLD_TABLE = str.maketrans(
    {
        **dict.fromkeys(_DOUBLE_QUOTES, '"'),
        **dict.fromkeys(_SINGLE_QUOTES, "'"),
        **dict.fromkeys(_DASHES, "-"),
    }
)

# Han ideographs (BMP blocks and the astral extensions) and kana; kana counts as "zh" on purpose.
_CJK_CLASS = (
    "\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f"
    "\U00020000-\U0003134f"
)
_CJK_RUN = re.compile(f"[{_CJK_CLASS}]+")
_CJK_CHAR = re.compile(f"[{_CJK_CLASS}]")
_CYRILLIC_RUN = re.compile("[\u0400-\u052f\u1c80-\u1c8f\u2de0-\u2dff\ua640-\ua69f]+")
_LETTER_RUN = re.compile(r"[^\W\d_]+")

# A terminator cluster plus the closing quotes/brackets that belong to the sentence, or a line
# break. Marker brackets (`[S1]`) open with `[`, which is not a closer, so they never merge here.
_TERMINATOR = re.compile(
    r"(?P<punct>[.!?。！？．｡…]+)(?P<close>[\"'”’»›」』）)\]】〉》]*)"
    r"|(?P<nl>\r\n?|[\n\u2028\u2029])"
)
_STRONG = frozenset("。！？｡")  # CJK terminators: no spaces in CJK text, so always an end
_OPENERS = frozenset("(\"'«“‘「『（[【")  # may stand before an abbreviation or initial
_CONTINUING = frozenset(",;:，；：、")  # `e.g.,`, `etc.;`: the sentence goes on
_TOKEN_TAIL = re.compile(r"[\w.]+\Z")
_LETTER_DOTS = re.compile(r"(?:[^\W\d_]\.)*[^\W\d_]")  # `J`, `J.R.R`, `e.g`, `т.е`
# Whitespace and citation-like bracket groups between a terminator and the next word.
_SKIP = re.compile(r"(?:\s+|[\[【［][^\[\]【】［］\n]{0,24}[\]】］])*")
_NEXT_LINE_CHAR = re.compile(r"[^\S\r\n\u2028\u2029]*(.)", re.DOTALL)
_NON_SPACE = re.compile(r"\S")

# Abbreviations that never end a sentence (titles, "for example", units before a number).
_NEVER_FINAL_WORDS = """
    e.g. i.e. dr. mr. mrs. ms. prof. st. vs. fig. u.s. inc. ltd. co. jr. sr. cf. al. approx. vol.
    pp. mt. т.е. г. гг. см. стр. им. ул. рис. табл. напр. т.к. т.н. т.ч.
"""
# Abbreviations that often close a sentence: an end only when a capital (or CJK) follows.
_MAYBE_FINAL_WORDS = "etc. a.m. p.m. т.д. т.п. др. тыс. млн. млрд. руб."
_NEVER_FINAL = frozenset(_NEVER_FINAL_WORDS.split())
_UNIT_ABBREVIATIONS = frozenset({"см.", "г.", "гг.", "мм.", "км.", "кг."})
"""Abbreviations that are units after a number (`не менее 2 см.`, `в 2020 г.`)."""
_AFTER_NUMBER = re.compile(r"\d[\s\u00a0]*$")
_MAYBE_FINAL = frozenset(_MAYBE_FINAL_WORDS.split())


def normalise(text: str) -> str:
    """Fold what two honest copies of one quote may differ in; a diagnostic, never a verdict.

    NFC, casefold (then NFC again, since folding can decompose), quote and dash variants to
    ASCII, whitespace runs to one space, stripped. Idempotent.
    """
    folded = unicodedata.normalize("NFC", unicodedata.normalize("NFC", text).casefold())
    return " ".join(folded.translate(_FOLD_TABLE).split())


def detect_language(text: str) -> str:
    """Guess "zh", "ru" or "en" so token rules fit the claim; cheap, counts letter classes.

    A Han/kana character is worth about a word, so a modest share of letters (15 %) already
    makes Chinese text with embedded English terms count as "zh".
    """
    letters = sum(map(len, _LETTER_RUN.findall(text)))
    if letters == 0:
        return "en"
    cjk = sum(map(len, _CJK_RUN.findall(text)))
    if cjk * 100 >= letters * 15:
        return "zh"
    cyrillic = sum(map(len, _CYRILLIC_RUN.findall(text)))
    return "ru" if cyrillic * 2 > letters - cjk else "en"


def sentence_boundaries(text: str) -> list[tuple[int, int]]:
    """Half-open spans of the sentence terminators of ``text``: ordered, non-overlapping.

    A span covers a terminator cluster with its closing quotes/brackets and the citation markers
    that follow it (only whitespace between: `。[S1]`, `. [1][2]`), or a line break that ends a
    sentence. Shared by :func:`split_sentences` and the claim splitter so both agree on what ends
    a sentence and which markers close it.
    """
    out: list[tuple[int, int]] = []
    cursor = 0
    for m in _TERMINATOR.finditer(text):
        if m.start() < cursor:
            continue  # inside markers already attached to the previous terminator
        nl = m.group("nl")
        if nl is not None:
            if nl == "\u2029" or _newline_is_end(text, m.end()):
                out.append((m.start(), m.end()))
                cursor = m.end()
        elif _punct_is_end(text, m.start(), m.end("punct"), m.end()):
            tail = _TRAILING_MARKERS.match(text, m.end())
            cursor = m.end() if tail is None else tail.end()
            out.append((m.start(), cursor))
    return out


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Half-open code-point spans of the sentences of ``text``, whitespace-trimmed, non-empty.

    Used to find the evidence sentence inside a cited document, so spans index ``text`` itself.
    """
    spans: list[tuple[int, int]] = []
    start = 0
    for _, end in sentence_boundaries(text):
        _append_trimmed(text, start, end, spans)
        start = end
    _append_trimmed(text, start, len(text), spans)
    return spans


def _append_trimmed(text: str, start: int, end: int, out: list[tuple[int, int]]) -> None:
    m = _NON_SPACE.search(text, start, end)
    if m is None:
        return
    stop = end
    while text[stop - 1].isspace():
        stop -= 1
    out.append((m.start(), stop))


def _newline_is_end(text: str, after: int) -> bool:
    """A blank line ends a sentence; so does a line break unless the next line continues it."""
    m = _NEXT_LINE_CHAR.match(text, after)
    return m is None or not m.group(1).islower()


def _lookahead(text: str, pos: int) -> str:
    """The first character after ``pos`` past whitespace and citation brackets, or ""."""
    end = _SKIP.match(text, pos)
    i = end.end() if end is not None else pos
    return text[i] if i < len(text) else ""


def _punct_is_end(text: str, start: int, punct_end: int, close_end: int) -> bool:
    cluster = text[start:punct_end]
    if any(c in _STRONG for c in cluster):
        return True
    nxt = text[close_end] if close_end < len(text) else ""
    if "!" in cluster or "?" in cluster:
        # `?q=1` in URLs, `!=`: an ASCII word glued to the mark means it is not prose.
        return not (nxt.isascii() and (nxt.isalnum() or nxt == "="))
    if not nxt:
        return True
    if nxt.isalnum() or nxt in _CONTINUING:
        return False  # decimals, versions, domains, `e.g.,`; a glued letter never starts anew
    if len(cluster) > 1 or cluster == "…":
        return not _lookahead(text, close_end).islower()  # an ellipsis mid-sentence
    return _dot_is_end(text, start, close_end, nxt)


def _dot_is_end(text: str, dot: int, after: int, nxt: str) -> bool:
    """Decide a single `.` followed by whitespace or a bracket: abbreviation, initial, or end."""
    word = _token_before(text, dot)
    known = _abbreviation_ends(word.lower(), text, after)
    if (
        known is False
        and word.lower() in _UNIT_ABBREVIATIONS
        and _AFTER_NUMBER.search(text, max(0, dot - len(word) - 12), dot - len(word) + 1)
    ):
        la = _lookahead(text, after)  # `2 см.` `1990 г.`: a unit, so the sentence may end
        known = not la or la.isupper() or _CJK_CHAR.match(la) is not None
    if known is not None:
        return known
    core = word[:-1]
    if core and _LETTER_DOTS.fullmatch(core) and _CJK_CHAR.search(core) is None:
        start = dot - len(core)
        contraction = start >= 2 and text[start - 1] in "'’" and text[start - 2].isalpha()
        if (
            start == 0
            or text[start - 1].isspace()
            or (
                text[start - 1] in _OPENERS
                and not contraction  # `isn't.` ends; `'J.` is an initial
            )
        ):
            return _letters_end(core, text, after, nxt)
    # A list enumerator `1. ` at the start of a line is not a sentence.
    return not (
        core.isdigit() and len(core) <= 3 and nxt in " \t" and _at_line_start(text, dot - len(core))
    )


def _letters_end(core: str, text: str, after: int, nxt: str) -> bool:
    """Single letters with dots (`J. Smith`, `т. е.`, `J.R.R.`, `n.b.`) before a space."""
    if core.islower():
        if len(core) == 1:
            return False  # `т. е.`: a lower-case letter alone is an abbreviation
        la = _lookahead(text, after)
        return not la or la.isupper() or _CJK_CHAR.match(la) is not None
    # Initials (`J. Smith`, `J.R.R. Tolkien`) are followed by a space and a capital.
    following = _NEXT_LINE_CHAR.match(text, after) if nxt.isspace() else None
    return following is None or not following.group(1).isupper()


def _abbreviation_ends(abbrev: str, text: str, after: int) -> bool | None:
    """Whether a known abbreviation ends the sentence here; None when ``abbrev`` is not one."""
    if abbrev in _NEVER_FINAL:
        return False
    if abbrev == "no.":
        return not _lookahead(text, after).isdigit()  # `No. 5`
    if abbrev in _MAYBE_FINAL:
        la = _lookahead(text, after)
        return not la or la.isupper() or _CJK_CHAR.match(la) is not None
    return None


def _token_before(text: str, dot: int) -> str:
    """The word (letters, digits, inner dots) that ends at ``dot``, plus "."; "" if none."""
    lo = max(0, dot - 12)
    m = _TOKEN_TAIL.search(text, lo, dot)
    if m is None:
        return ""
    if m.start() == lo and lo > 0 and (text[lo - 1].isalnum() or text[lo - 1] in "._"):
        return ""  # longer than any abbreviation
    return m.group().lstrip(".") + "."


def _at_line_start(text: str, i: int) -> bool:
    lo = max(0, i - 8)
    head = text[lo:i]
    nl = head.rfind("\n")
    if nl >= 0:
        return head[nl + 1 :].strip() == ""
    return lo == 0 and head.strip() == ""
