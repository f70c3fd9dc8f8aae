"""The lexical tables and the word caches share what is equal instead of copying it.

A worker keeps the tables for its life and the word caches hold tens of thousands of key sets,
so a copy per word is memory the cache bound never sees (docs/performance.md#memory).
"""

from __future__ import annotations

from collections import defaultdict

from stream.verify import lexicon
from stream.verify.lexicon import EMPTY, frozen, union


def test_union_returns_an_operand_when_the_others_add_nothing() -> None:
    a, b = frozenset({"x", "y"}), frozenset({"y"})
    assert union((a, b)) is a
    assert union((EMPTY, a, EMPTY)) is a
    assert union(()) is EMPTY
    both = union((a, frozenset({"z"})))
    assert both == {"x", "y", "z"}
    assert a == {"x", "y"}  # operands are never changed


def test_frozen_shares_the_empty_set() -> None:
    assert frozen([]) is EMPTY
    assert frozen(set()) is EMPTY
    assert frozen(["a"]) == {"a"}


def test_equal_table_values_are_one_object() -> None:
    zh = lexicon.text_table("zh")
    by_value: dict[frozenset[str], set[int]] = defaultdict(set)
    for value in zh.fields.values():
        by_value[value].add(id(value))
    assert len(by_value) < len(zh.fields)  # many words share one class ...
    assert all(len(ids) == 1 for ids in by_value.values())  # ... as one object
    en = lexicon.text_table("en")
    words = {w: w for w in en.groups}
    shared = [w for w in en.kinds if w in words]
    assert shared
    assert all(w is words[w] for w in shared[:500])  # a word is one string in every map


def test_words_without_keys_of_a_kind_share_the_empty_set() -> None:
    assert lexicon.claim_keys("支付") is EMPTY
    assert lexicon.evidence_keys("删除") is EMPTY
    assert lexicon.kind_keys("удалить") is EMPTY
