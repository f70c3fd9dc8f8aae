"""The compiled lexical tables answer every lookup as the text tables do, and are read only
while they match their text (docs/performance.md#memory)."""

from __future__ import annotations

from pathlib import Path

import pytest

from stream.lexicon import compiled as compiler
from stream.verify import lexicon

LANGUAGES = ("en", "ru", "zh")


@pytest.fixture
def in_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the text tables as the data directory: the tests never touch the package's."""
    for language in LANGUAGES:
        text = lexicon.text_path(language).read_bytes()
        (tmp_path / f"lexicon-{language}.txt.gz").write_bytes(text)
    monkeypatch.setattr(lexicon, "_DATA", tmp_path)
    return tmp_path


def _compiled(language: str) -> lexicon.Compiled:
    out = lexicon.compiled_table(language)
    assert out is not None
    return out


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_lookup_of_the_compiled_table_equals_the_texts(in_data: Path, language: str) -> None:
    compiler.compile_one(in_data / f"lexicon-{language}.txt.gz")
    text, comp = lexicon.text_table(language), _compiled(language)
    maps = ("groups", "bases", "kinds", "antonyms", "fields")
    words = set().union(*(getattr(text, m) for m in maps), *text.pos.values())
    for name in maps:
        mine, theirs = getattr(text, name), getattr(comp, name)
        for word in words:
            assert theirs.get(word, None) == mine.get(word, None), (name, word)
            assert (word in theirs) == (word in mine), (name, word)
    assert set(comp.pos) == set(text.pos)
    for cat, members in text.pos.items():
        assert all(w in comp.pos[cat] for w in members)
        assert sum(w in comp.pos[cat] for w in words) == len(members)
    if language != "en":
        listed, read = text.members(), comp.members()
        assert all(read.get(k, None) == v for k, v in listed.items())  # the same order too
    for absent in ("", "zzqx", "g", " ", "кот кот"):
        assert all(getattr(comp, m).get(absent, None) is None for m in maps)


def test_a_compiled_table_of_other_text_is_not_read(in_data: Path) -> None:
    compiler.compile_one(in_data / "lexicon-ru.txt.gz")
    assert lexicon.compiled_table("ru") is not None
    text = in_data / "lexicon-ru.txt.gz"
    text.write_bytes(text.read_bytes() + b"\0")  # the text changed after compiling
    assert lexicon.compiled_table("ru") is None
    assert lexicon.compiled_table("zh") is None  # never compiled here


def test_the_compiler_names_a_bad_table_and_exits_2(
    in_data: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert compiler.main([str(in_data / "nonsense.txt")]) == 2
    assert "not a lexical table: nonsense.txt" in capsys.readouterr().err
    elsewhere = in_data / "copy"
    elsewhere.mkdir()
    (elsewhere / "lexicon-ru.txt.gz").write_bytes((in_data / "lexicon-ru.txt.gz").read_bytes())
    assert compiler.main([str(elsewhere / "lexicon-ru.txt.gz")]) == 2
    assert "is not in" in capsys.readouterr().err
    monkeypatch.chdir(in_data.parent)  # `make` passes the path relative to the checkout
    assert compiler.main([f"{in_data.name}/lexicon-zh.txt.gz"]) == 0
    assert (in_data / "lexicon-zh.dawg").is_file()
    assert not list(in_data.glob("*.tmp"))
