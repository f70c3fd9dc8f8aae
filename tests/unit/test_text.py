"""Normalisation, language guess and sentence spans of stream.verify.text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stream.verify.text import detect_language, normalise, sentence_boundaries, split_sentences

# Text with astral characters, combining marks, CJK, Cyrillic and every terminator nearby.
_ALPHABET = st.one_of(
    st.characters(),
    st.sampled_from(list("。！？!?.;；，, \n\t\u00a0\u2029[]【】［］S1230aZ因此т.е")),
    st.sampled_from(["\u0301", "\u0308", "\U0001f600", "\U00020000", "e\u0301", "\u2028"]),
)
_TEXT = st.lists(_ALPHABET, max_size=150).map("".join)


def _sentences(text: str) -> list[str]:
    return [text[a:b] for a, b in split_sentences(text)]


# --- normalise ---------------------------------------------------------------------------------


def test_normalise_folds_case_whitespace_quotes_and_dashes() -> None:
    raw = "  “Hello”\u00a0\t World —\n‘it’s’ «x» „y“ 「z」 『w』 ＂q＂ ‹a› ＇b＇ ‚c‘  "
    assert normalise(raw) == '"hello" world - \'it\'s\' "x" "y" "z" "w" "q" \'a\' \'b\' \'c\''


@pytest.mark.parametrize("dash", list("‐‑‒–—―−﹣－"))
def test_normalise_maps_every_dash_variant(dash: str) -> None:
    assert normalise(f"1{dash}2") == "1-2"


def test_normalise_composes_and_casefolds() -> None:
    assert normalise("Cafe\u0301") == normalise("CAFÉ") == "café"
    assert normalise("Straße") == "strasse"


@given(_TEXT)
@settings(max_examples=300)
def test_normalise_is_idempotent(text: str) -> None:
    once = normalise(text)
    assert normalise(once) == once


# --- detect_language ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("Node.js 20 提供全局 fetch API。", "zh"),
        ("向量数据库采用余弦距离。", "zh"),
        ("これはテストです", "zh"),
        ("Python 3.11 быстрее, т.е. лучше.", "ru"),
        ("Это пример текста с Node.js.", "ru"),
        ("Node.js 20 provides a global fetch API.", "en"),
        ("12345 !!!", "en"),
        ("", "en"),
    ],
)
def test_detect_language(text: str, lang: str) -> None:
    assert detect_language(text) == lang


# --- split_sentences ---------------------------------------------------------------------------


def test_chinese_sentences_split_at_every_terminator() -> None:
    text = "Node.js 20 提供全局 fetch API。向量数据库采用余弦距离！真的吗？是的"
    assert _sentences(text) == [
        "Node.js 20 提供全局 fetch API。",
        "向量数据库采用余弦距离！",
        "真的吗？",
        "是的",
    ]


def test_decimals_versions_and_urls_do_not_end_sentences() -> None:
    text = (
        "It costs 1.25 USD and grew 3.5% this year. Python 3.11 and Node.js 20.1 are supported. "
        "See https://example.com/a.b?x=1 and node.js for v1.2.3 details."
    )
    assert _sentences(text) == [
        "It costs 1.25 USD and grew 3.5% this year.",
        "Python 3.11 and Node.js 20.1 are supported.",
        "See https://example.com/a.b?x=1 and node.js for v1.2.3 details.",
    ]


def test_version_at_sentence_end_still_ends_it() -> None:
    assert _sentences("We require Python 3.11. Nothing else.") == [
        "We require Python 3.11.",
        "Nothing else.",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Use a cache, e.g. Redis, for this.",
        "Use one store, i.e. SQLite, for this.",
        "Dr. Smith and Mr. Jones met Mrs. Brown and Ms. White.",
        "Prof. Lee lives on St. Mark road vs. the rest.",
        "See Fig. 3 and No. 7 in the U.S. report.",
        "It opens at 9 a.m. and closes at 5 p.m. daily.",
        "Acme Inc. and Foo Ltd. and Bar Co. hired Smith Jr. and Smith Sr. today.",
        "J. Smith wrote the J.R.R. Tolkien essay.",
        "Это пример, т.е. тест, и т.д. и т.п. без конца.",
        "В 2020 г. и в 1990-х гг. см. стр. 5, им. Ленина, ул. Мира, др. источники.",
        "Это т. е. пример.",
        "The numbers 1.25 and 3.5% stay.",
    ],
)
def test_abbreviations_and_initials_do_not_end_sentences(text: str) -> None:
    assert _sentences(text) == [text]


def test_sentence_final_etc_before_a_capital_ends_the_sentence() -> None:
    assert _sentences("We support A, B, etc. The rest is new.") == [
        "We support A, B, etc.",
        "The rest is new.",
    ]
    assert _sentences("Фрукты, овощи и т.д. Потом мясо.") == ["Фрукты, овощи и т.д.", "Потом мясо."]


def test_a_contraction_before_the_dot_ends_the_sentence() -> None:
    """`isn't.` is no initial `t.` after an opening quote."""
    assert _sentences("Damage isn't. If it is, call us. We can't. But 'J. Smith' can.") == [
        "Damage isn't.",
        "If it is, call us.",
        "We can't.",
        "But 'J. Smith' can.",
    ]


def test_dot_glued_to_a_letter_or_digit_never_ends() -> None:
    assert _sentences("Ends here.Next glued and 3.x too.") == ["Ends here.Next glued and 3.x too."]


def test_russian_sentences() -> None:
    text = "Python 3.11 работает быстрее. Цена выросла на 3.5%! Правда? Да."
    assert _sentences(text) == [
        "Python 3.11 работает быстрее.",
        "Цена выросла на 3.5%!",
        "Правда?",
        "Да.",
    ]


def test_closing_quotes_and_brackets_belong_to_the_sentence() -> None:
    text = "He said “it works.” Then (he left.) 她说「好。」然后走了。"
    assert _sentences(text) == [
        "He said “it works.”",
        "Then (he left.)",
        "她说「好。」",
        "然后走了。",
    ]


def test_footnote_markers_after_a_terminator_stay_with_the_sentence() -> None:
    assert _sentences("It was built in 2020.[3] It grew. [4][5] Then it stopped.") == [
        "It was built in 2020.[3]",
        "It grew. [4][5]",
        "Then it stopped.",
    ]


def test_paragraph_breaks_and_new_lines_end_sentences() -> None:
    text = "Title without stop\n\nFirst para\n- item one\n- item two\nwrapped continuation\n1. Next"
    assert _sentences(text) == [
        "Title without stop",
        "First para",
        "- item one",
        "- item two\nwrapped continuation",
        "1. Next",
    ]


def test_list_enumerators_do_not_form_sentences() -> None:
    assert _sentences("1. First point.\n2. Second point.") == [
        "1. First point.",
        "2. Second point.",
    ]


def test_ellipsis_mid_sentence_and_at_the_end() -> None:
    assert _sentences("Wait... what happened... Nothing.") == [
        "Wait... what happened...",
        "Nothing.",
    ]


def test_spans_index_the_original_text_with_astral_characters() -> None:
    text = "😀 Emoji first. 𠀀 Astral Han。 Café\u0301 done!"
    spans = split_sentences(text)
    assert [text[a:b] for a, b in spans] == [
        "😀 Emoji first.",
        "𠀀 Astral Han。",
        "Café\u0301 done!",
    ]


@pytest.mark.parametrize("text", ["", "   ", "\n\n\t", "。", "..."])
def test_degenerate_texts(text: str) -> None:
    spans = split_sentences(text)
    assert all(text[a:b].strip() for a, b in spans)


@given(_TEXT)
@settings(max_examples=500)
def test_split_sentences_spans_are_valid(text: str) -> None:
    spans = split_sentences(text)
    previous_end = 0
    for start, end in spans:
        assert previous_end <= start < end <= len(text)
        assert not text[start].isspace()
        assert not text[end - 1].isspace()
        previous_end = end
    # Sentences cover every non-space character: nothing is lost between spans.
    covered = "".join(text[a:b] for a, b in spans)
    assert "".join(covered.split()) == "".join(text.split())


@given(_TEXT)
@settings(max_examples=300)
def test_sentence_boundaries_are_ordered_and_disjoint(text: str) -> None:
    previous_end = 0
    for start, end in sentence_boundaries(text):
        assert previous_end <= start < end <= len(text)
        previous_end = end


def test_split_sentences_is_fast_on_a_large_document() -> None:
    # Not a timing assertion: a quadratic scan would not finish this within the test timeout.
    base = "Python 3.11 is fast, e.g. here [1]. See https://example.com/a.b. 因此更好。\n"
    text = base * (1_000_000 // len(base))
    assert len(split_sentences(text)) == 3 * (1_000_000 // len(base))
