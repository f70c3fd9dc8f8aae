"""Claims split out of marker-style answers (design §3.2) by stream.verify.claims."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stream.verify.claims import (
    MARKER_PATTERN,
    SplitClaim,
    marker_ids,
    split_marker_answer,
    strip_markers,
)

SEED_001 = (
    "Node.js 20 提供全局 fetch API。[S1]向量数据库采用余弦距离。[S1]"
    "因此所有旧版 Node.js 都无需第三方 HTTP 客户端。[S1]RAG 验证应记录主张与证据关系。[S2]"
    "该验证器能把幻觉率降低 80%。"
)
SEED_001_TEXTS = [
    "Node.js 20 提供全局 fetch API。",
    "向量数据库采用余弦距离。",
    "因此所有旧版 Node.js 都无需第三方 HTTP 客户端。",
    "RAG 验证应记录主张与证据关系。",
    "该验证器能把幻觉率降低 80%。",
]
SEED_001_MARKERS = [("S1",), ("S1",), ("S1",), ("S2",), ()]


def _pairs(answer: str) -> list[tuple[str, tuple[str, ...]]]:
    return [(c.text, c.markers) for c in split_marker_answer(answer)]


def _assert_spans_show_claims(answer: str, claims: list[SplitClaim]) -> None:
    """answer[start:end] holds the claim's first/last non-terminator characters and markers."""
    previous_end = 0
    for claim in claims:
        assert previous_end <= claim.start < claim.end <= len(answer)
        previous_end = claim.end
        shown = answer[claim.start : claim.end]
        assert not shown[0].isspace()
        assert not shown[-1].isspace()
        body = claim.text.rstrip("。！？!?.;；,，")
        assert body, claim
        assert body[0] in shown
        assert body[-1] in shown
        assert shown.startswith(body[0]) or MARKER_PATTERN.match(shown)
        assert strip_markers(shown) == claim.text
        shown_ids = [i for m in MARKER_PATTERN.finditer(shown) for i in marker_ids(m)]
        assert tuple(dict.fromkeys(shown_ids)) == claim.markers


# --- seed 001 ----------------------------------------------------------------------------------


def test_seed_001_markers_after_the_full_stop_close_their_own_sentence() -> None:
    claims = split_marker_answer(SEED_001)
    assert [c.text for c in claims] == SEED_001_TEXTS
    assert [c.markers for c in claims] == SEED_001_MARKERS
    assert SEED_001[claims[0].start : claims[0].end] == "Node.js 20 提供全局 fetch API。[S1]"
    assert SEED_001[claims[4].start : claims[4].end] == "该验证器能把幻觉率降低 80%。"
    _assert_spans_show_claims(SEED_001, claims)


def test_seed_001_markers_before_the_full_stop_give_the_same_claims() -> None:
    moved = re.sub(r"。(\[S\d\])", r"\1。", SEED_001)
    assert moved != SEED_001
    assert moved.count("[S1]。") == 3
    claims = split_marker_answer(moved)
    assert [c.text for c in claims] == SEED_001_TEXTS
    assert [c.markers for c in claims] == SEED_001_MARKERS
    assert moved[claims[0].start : claims[0].end] == "Node.js 20 提供全局 fetch API[S1]。"
    _assert_spans_show_claims(moved, claims)


# --- attribution -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "answer",
    [
        "Alpha one。[S1]Beta two。[S2]",
        "Alpha one[S1]。Beta two[S2]。",
        "Alpha one [S1]. Beta two [S2].",
        "Alpha one. [S1] Beta two. [S2]",
        "Alpha one.[S1] Beta two.[S2]",
        "Alpha one.\n[S1]\nBeta two. [S2]",
    ],
)
def test_a_marker_belongs_to_the_sentence_it_closes(answer: str) -> None:
    claims = split_marker_answer(answer)
    assert [c.markers for c in claims] == [("S1",), ("S2",)]
    assert [c.text[:-1] for c in claims] == ["Alpha one", "Beta two"]
    _assert_spans_show_claims(answer, claims)


def test_single_letter_sentences_keep_their_markers() -> None:
    assert _pairs("A. [1] B.") == [("A.", ("1",)), ("B.", ())]
    assert _pairs("A [1]. B [2].") == [("A.", ("1",)), ("B.", ("2",))]


def test_mid_sentence_markers_belong_to_that_sentence_and_are_deduplicated() -> None:
    answer = "Redis [2] and SQLite [1] store data [2]. Done."
    assert _pairs(answer) == [("Redis and SQLite store data.", ("2", "1")), ("Done.", ())]


def test_marker_forms_and_id_normalisation() -> None:
    answer = "One [1]. Two 【1】. Three [1, 2]. Four [1][2]. Five ［3］. Six 【S1】 [s2] [ S3 ]. Seven [12]."
    assert _pairs(answer) == [
        ("One.", ("1",)),
        ("Two.", ("1",)),
        ("Three.", ("1", "2")),
        ("Four.", ("1", "2")),
        ("Five.", ("3",)),
        ("Six.", ("S1", "s2", "S3")),
        ("Seven.", ("12",)),
    ]


def test_group_markers_with_semicolons_and_ideographic_commas_do_not_split() -> None:
    assert _pairs("A claim [S1; S2] holds。B 也成立【1、2】。") == [
        ("A claim holds。", ("S1", "S2")),
        ("B 也成立。", ("1", "2")),
    ]


def test_marker_pattern_ids() -> None:
    found = [marker_ids(m) for m in MARKER_PATTERN.finditer("x [S1, S2] y [1,2] z 【S3】 ［4］")]
    assert found == [("S1", "S2"), ("1", "2"), ("S3",), ("4",)]
    assert MARKER_PATTERN.search("plain [note] and [] and [a.b]") is None


# --- splitting ---------------------------------------------------------------------------------


def test_english_decimals_versions_abbreviations_urls_semicolons_and_connectives() -> None:
    answer = (
        "Python 3.11 is faster [1]. Node.js 20.1 ships fetch, e.g. for HTTP calls [2]; "
        "it costs 1.25 USD, therefore it is cheap [3]. "
        "Docs live at https://example.com/a.b and node.js.org [4]. Unverified sentence"
    )
    claims = split_marker_answer(answer)
    assert [(c.text, c.markers) for c in claims] == [
        ("Python 3.11 is faster.", ("1",)),
        ("Node.js 20.1 ships fetch, e.g. for HTTP calls;", ("2",)),
        ("it costs 1.25 USD,", ()),
        ("therefore it is cheap.", ("3",)),
        ("Docs live at https://example.com/a.b and node.js.org.", ("4",)),
        ("Unverified sentence", ()),
    ]
    _assert_spans_show_claims(answer, claims)


@pytest.mark.parametrize("connective", ["therefore", "thus", "hence", "Therefore"])
def test_english_connective_after_comma_starts_a_claim(connective: str) -> None:
    assert _pairs(f"X is true [1], {connective} Y is true [2].") == [
        ("X is true,", ("1",)),
        (f"{connective} Y is true.", ("2",)),
    ]


def test_connective_without_comma_does_not_split() -> None:
    assert _pairs("It was thus decided [1].") == [("It was thus decided.", ("1",))]


def test_russian_example() -> None:
    answer = (
        "Python 3.11 быстрее на 1.25 раза, т.е. заметно [1]. "
        "Цена выросла на 3.5% [2]; поэтому спрос упал. "
        "Сервер обновлён, следовательно, всё работает [3]. "
        "Запрос прошёл, значит сеть есть [4]."
    )
    claims = split_marker_answer(answer)
    assert [(c.text, c.markers) for c in claims] == [
        ("Python 3.11 быстрее на 1.25 раза, т.е. заметно.", ("1",)),
        ("Цена выросла на 3.5%;", ("2",)),
        ("поэтому спрос упал.", ()),
        ("Сервер обновлён,", ()),
        ("следовательно, всё работает.", ("3",)),
        ("Запрос прошёл,", ()),
        ("значит сеть есть.", ("4",)),
    ]
    _assert_spans_show_claims(answer, claims)


def test_chinese_semicolons_and_connectives() -> None:
    answer = "缓存命中率提升【1】；延迟下降了 20%【2】，所以成本更低。这意味着方案可行，由此可见值得推广[3]。"
    claims = split_marker_answer(answer)
    assert [(c.text, c.markers) for c in claims] == [
        ("缓存命中率提升；", ("1",)),
        ("延迟下降了 20%，", ("2",)),
        ("所以成本更低。", ()),
        ("这意味着方案可行，", ()),
        ("由此可见值得推广。", ("3",)),
    ]
    _assert_spans_show_claims(answer, claims)


def test_markers_after_the_terminator_go_to_the_last_part_only() -> None:
    assert _pairs("X holds; Y holds. [1]") == [("X holds;", ()), ("Y holds.", ("1",))]
    assert _pairs("甲成立，因此乙成立。[S1]") == [("甲成立，", ()), ("因此乙成立。", ("S1",))]


def test_markers_right_after_a_semicolon_close_the_part_before_it() -> None:
    assert _pairs("甲成立；[1]乙成立。[2]") == [("甲成立；", ("1",)), ("乙成立。", ("2",))]


def test_marker_or_punctuation_only_claims_are_dropped() -> None:
    assert _pairs("[1] [2]. ; 。 !!") == []
    assert _pairs("") == []
    assert _pairs("Real claim. [1] 。[2]") == [("Real claim.", ("1",))]


def test_last_claim_without_terminator_is_kept() -> None:
    answer = "First [1]. Second without stop [2]"
    claims = split_marker_answer(answer)
    assert [(c.text, c.markers) for c in claims] == [
        ("First.", ("1",)),
        ("Second without stop", ("2",)),
    ]
    assert claims[-1].end == len(answer)


def test_leading_marker_belongs_to_its_sentence() -> None:
    assert _pairs("[1] Leading marker claim. Next.") == [
        ("Leading marker claim.", ("1",)),
        ("Next.", ()),
    ]


def test_split_claim_is_frozen_and_slotted() -> None:
    claim = split_marker_answer("One [1].")[0]
    assert claim == SplitClaim("One.", 0, 8, ("1",))
    assert not hasattr(claim, "__dict__")
    with pytest.raises(AttributeError):
        claim.text = "changed"  # type: ignore[misc]


def test_large_answer_is_split_quickly() -> None:
    # 64 KiB of claims; a super-linear splitter would not finish within the test timeout.
    base = "Node.js 20.1 提供全局 fetch API。[S1] Python 3.11 is fast, therefore good [2]; ok. "
    answer = base * (65536 // len(base))
    claims = split_marker_answer(answer)
    assert len(claims) == 4 * (65536 // len(base))


# --- properties --------------------------------------------------------------------------------

_ALPHABET = st.one_of(
    st.characters(),
    st.sampled_from(list("。！？!?.;；，, \n\t\u2029[]【】［］S1230aZ、")),
    st.sampled_from(
        ["[S1]", "[1, 2]", "【1】", "［2］", "因此", ", therefore ", "，所以", "e.g. ", "т.е. "]
    ),
    st.sampled_from(["\u0301", "\u0308", "\U0001f600", "\U00020000", "e\u0301", "3.11"]),
)


@given(st.lists(_ALPHABET, max_size=150).map("".join))
@settings(max_examples=500)
def test_split_marker_answer_never_raises_and_spans_are_valid(answer: str) -> None:
    claims = split_marker_answer(answer)
    previous_end = 0
    for claim in claims:
        assert previous_end <= claim.start < claim.end <= len(answer)
        previous_end = claim.end
        assert claim.text == strip_markers(answer[claim.start : claim.end])
        assert claim.text == claim.text.strip()
        assert len(set(claim.markers)) == len(claim.markers)
