"""Property tests: exact quotes pass, any one-character change fails, units convert exactly."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from stream.verify.citations import CheckOptions, DocumentSnapshot, check_citations, sha256_hex
from stream.verify.model import Answer, Citation, Claim, Document
from stream.verify.offsets import from_codepoints, to_codepoints

# Astral (emoji, CJK extension B), combining marks and ordinary text; no surrogates.
ALPHABET = st.characters(
    blacklist_categories=("Cs",),
    whitelist_categories=("L", "M", "N", "P", "S", "Zs"),
) | st.sampled_from(["😀", "𠀋", "é", "\u0301", "\u200d", "한", "ё"])


@st.composite
def doc_and_range(draw: st.DrawFn) -> tuple[str, int, int]:
    text = draw(st.text(ALPHABET, min_size=1, max_size=200))
    start = draw(st.integers(0, len(text) - 1))
    end = draw(st.integers(start + 1, len(text)))
    return text, start, end


def check(text: str, start: int, end: int, quote: str, unit: str = "codepoint") -> list[str]:
    doc = Document("d", "v1", text, sha256_hex(text))
    answer = Answer(
        answer="a",
        claims=(Claim("c1", "a", ("q1",)),),
        citations=(Citation("q1", "d", "v1", start, end, quote),),
        offset_unit=unit,  # type: ignore[arg-type]
    )
    report = check_citations(answer, DocumentSnapshot.of([doc]), CheckOptions())
    return [e.code.value for e in report.errors]


@settings(max_examples=300)
@given(doc_and_range())
def test_a_quote_cut_from_the_text_passes(case: tuple[str, int, int]) -> None:
    text, start, end = case
    assert check(text, start, end, text[start:end]) == []


@settings(max_examples=300)
@given(doc_and_range(), st.data())
def test_changing_any_one_character_of_the_quote_fails(
    case: tuple[str, int, int], data: st.DataObject
) -> None:
    text, start, end = case
    quote = text[start:end]
    i = data.draw(st.integers(0, len(quote) - 1))
    replacement = data.draw(ALPHABET)
    assume(replacement != quote[i])
    changed = quote[:i] + replacement + quote[i + 1 :]
    assert check(text, start, end, changed) == ["quote_mismatch"]


@settings(max_examples=300)
@given(doc_and_range())
def test_utf16_and_utf8_offsets_convert_to_the_same_codepoint_range(
    case: tuple[str, int, int],
) -> None:
    text, start, end = case
    for unit in ("utf16", "utf8"):
        s, e = from_codepoints(text, start, end, unit)  # type: ignore[arg-type]
        assert to_codepoints(text, s, e, unit) == (start, end)  # type: ignore[arg-type]
        assert check(text, s, e, text[start:end], unit) == []


@given(st.text(st.sampled_from(["😀", "𠀋", "a"]), min_size=1, max_size=30))
def test_offsets_inside_a_character_are_refused(text: str) -> None:
    encoded = text.encode("utf-8")
    for i in range(len(encoded) + 1):
        try:
            encoded[:i].decode("utf-8")
        except UnicodeDecodeError:
            assert to_codepoints(text, i, len(encoded), "utf8") is None
