"""Regular-expression sources for long lists of literal words.

The gate's patterns hold alternations of a hundred or more words (number words, bound phrases,
units), mostly compiled case-insensitively. Python's engine tries an alternation branch by
branch at every position of the text, and under IGNORECASE it cannot skip a branch by its first
letter, so a 160-word list costs 160 descents per character. `words` writes the same list as a
trie (`tw(?:o|elve|enty)`): one descent per distinct prefix.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["words"]

_Node = dict[str, "_Node"]
_END = ""
"""The key that marks a word ending at a node (no character is the empty string)."""


def words(items: Iterable[str], *, ignorecase: bool = False) -> str:
    """A regex source matching exactly the literal strings `items`, to be used where
    `"|".join(sorted(map(re.escape, items), key=len, reverse=True))` was: the same strings,
    and where one is a prefix of another the longer one is tried first, so a pattern built
    with it matches what the flat longest-first alternation matched, at the same places.

    With `ignorecase` (for a pattern compiled with IGNORECASE) the trie is built of the
    lower-cased words: `B` and `ba` must share a branch, or the case-blind engine would take
    `B` before trying `ba`. The source is a non-capturing group (or a single literal); an empty
    list never matches."""
    root: _Node = {}
    for item in items:
        if not item:
            raise ValueError("an empty word would match everywhere")
        node = root
        for ch in item.lower() if ignorecase else item:
            node = node.setdefault(ch, {})
        node[_END] = {}
    if not root:
        return "(?!)"
    return _group(_emit(root))


def _emit(node: _Node) -> str:
    branches = [re.escape(ch) + _emit(child) for ch, child in sorted(node.items()) if ch]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    if _END in node:
        # greedy: the longer word first, the word ending here when the rest of the pattern
        # does not match after the longer one (as the flat longest-first list backtracks)
        return _group(body) + "?"
    return body


def _group(source: str) -> str:
    """`source` as one atom, so a quantifier or concatenation applies to all of it."""
    if len(source) == 1 or (source.startswith("(?:") and _balanced_group(source)):
        return source
    if len(source) == 2 and source[0] == "\\":
        return source
    return f"(?:{source})"


def _balanced_group(source: str) -> bool:
    """Whether `source` is one group from its first character to its last (not `(?:a)b(?:c)`)."""
    depth = 0
    escaped = False
    for i, ch in enumerate(source):
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0 and i != len(source) - 1:
                return False
    return depth == 0 and source.endswith(")")
