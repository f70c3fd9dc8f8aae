"""`patterns.words` matches what the flat longest-first alternation it replaces matched."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stream.verify import patterns
from stream.verify.numerals import EN_NUMBERS, RU_NUMBERS

# a small alphabet makes words that prefix each other and differ only in case, the cases where
# a trie could pick another word than the flat list
_ALPHABET = "abAB -.ёЁ"
_WORDS = st.lists(st.text(_ALPHABET, min_size=1, max_size=4), min_size=1, max_size=8)
_TEXT = st.text(_ALPHABET + "x", max_size=16)
_SUFFIXES = ("", r"(?![\w-])", "b", r"\s", "$")


def _flat(words: list[str]) -> str:
    return "(?:" + "|".join(sorted(map(re.escape, set(words)), key=len, reverse=True)) + ")"


def _found(pattern: re.Pattern[str], text: str) -> list[tuple[tuple[int, int], str]]:
    return [(m.span(), m.group()) for m in pattern.finditer(text)]


@settings(max_examples=400, deadline=None)
@given(_WORDS, st.sampled_from(_SUFFIXES), st.booleans(), st.lists(_TEXT, max_size=6))
def test_same_matches_as_the_flat_alternation(
    words: list[str], suffix: str, ignorecase: bool, texts: list[str]
) -> None:
    flags = re.IGNORECASE if ignorecase else 0
    flat = re.compile(_flat(words) + suffix, flags)
    trie = re.compile(patterns.words(words, ignorecase=ignorecase) + suffix, flags)
    for text in [*texts, *words, " ".join(words)]:
        assert _found(trie, text) == _found(flat, text)


def test_longer_word_first_and_backtracks_to_the_shorter() -> None:
    pattern = re.compile(patterns.words(["до", "до конца"]) + r"(?![\w-])")
    assert [m.group() for m in pattern.finditer("до конца и до конц")] == ["до конца", "до"]


def test_case_blind_words_share_a_branch() -> None:
    # built case-sensitively, `B` would come before `ba` and `ba` would never match
    pattern = re.compile(patterns.words(["ba", "B"], ignorecase=True), re.IGNORECASE)
    found = pattern.match("bar")
    assert found is not None
    assert found.group() == "ba"


def test_real_number_words_unchanged() -> None:
    words = [*EN_NUMBERS, *RU_NUMBERS]
    text = "twenty-one, Twenty one, двадцать пять, seventeen seventy, одиннадцати и одиннадцать"
    for flags in (0, re.IGNORECASE):
        flat = re.compile(r"(?<![\w-])" + _flat(words) + r"(?![\w-])", flags)
        trie = re.compile(
            r"(?<![\w-])" + patterns.words(words, ignorecase=bool(flags)) + r"(?![\w-])", flags
        )
        assert _found(trie, text) == _found(flat, text) != []


def test_empty_list_never_matches_and_empty_word_is_refused() -> None:
    assert re.compile(patterns.words([])).search("anything") is None
    with pytest.raises(ValueError, match="empty word"):
        patterns.words(["a", ""])
