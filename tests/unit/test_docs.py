"""README.md and docs/*.md stay true: links resolve, named commands and make targets exist.

Commands are read from code only (fenced blocks and inline code spans), so prose such as
"citegate never uses end_offsets" is not mistaken for a command.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from stream.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
README_MAX_BYTES = 15_000

FENCE = re.compile(r"^(```+|~~~+)[^\n]*\n.*?^\1[ \t]*$", re.M | re.S)
INLINE_CODE = re.compile(r"(`+)(.+?)\1", re.S)
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t#]*$", re.M)
COMMAND = re.compile(r"(?<![\w./-])citegate[ \t]+([a-z][a-z0-9-]*)(?:[ \t]+([a-z][a-z0-9-]*))?")
MAKE = re.compile(r"(?<![\w./-])make[ \t]+([a-z][a-z0-9_-]*)")
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
REPO_PATH = re.compile(r"(?<![\w./-])((?:stream|schemas|deploy|tests|docs)/[\w./-]*[\w/])")


def pages() -> list[Path]:
    return [README, *sorted(DOCS.glob("*.md"))]


def page_ids() -> list[str]:
    return [str(p.relative_to(ROOT)) for p in pages()]


def prose(text: str) -> str:
    """The text without fenced code blocks (links and headings there are not live)."""
    return FENCE.sub("", text)


def code_snippets(text: str) -> list[str]:
    """Fenced blocks line by line (continuations joined), then inline code spans of the prose."""
    out: list[str] = []
    for block in FENCE.finditer(text):
        body = block.group(0).split("\n", 1)[1].rsplit("\n", 1)[0]
        out += body.replace("\\\n", " ").splitlines()
    out += [m.group(2) for m in INLINE_CODE.finditer(prose(text))]
    return out


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: link text kept, lower case, punctuation dropped."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    out: set[str] = set()
    for m in HEADING.finditer(prose(path.read_text("utf-8"))):
        base = slug(m.group(2))
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def broken_links(path: Path) -> list[str]:
    problems = []
    for m in LINK.finditer(prose(path.read_text("utf-8"))):
        target = m.group(1)
        if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):
            continue  # http:, https:, mailto: — not checked offline
        file_part, _, fragment = target.partition("#")
        dest = (path.parent / file_part).resolve() if file_part else path
        if not dest.exists():
            problems.append(f"{target}: no such file")
        elif fragment and dest.suffix == ".md" and fragment not in anchors(dest):
            problems.append(f"{target}: no heading #{fragment} in {dest.name}")
        elif fragment and dest.suffix != ".md":
            problems.append(f"{target}: anchor into a non-Markdown file")
    return problems


def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def make_targets() -> set[str]:
    text = (ROOT / "Makefile").read_text("utf-8")
    targets = set(re.findall(r"^([A-Za-z0-9_.-]+)[ \t]*:(?!=)", text, re.M))
    return {t for t in targets if not t.startswith(".")}


# -- the checks work -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("heading", "expected"),
    [
        ("What `make demo` shows", "what-make-demo-shows"),
        (
            "Seed 001: free text with `[S1]` markers and inline sources",
            "seed-001-free-text-with-s1-markers-and-inline-sources",
        ),
        ("Checker quality and `citegate calibrate`", "checker-quality-and-citegate-calibrate"),
        ("The embedded broker's limits", "the-embedded-brokers-limits"),
        ("Faust and aiokafka", "faust-and-aiokafka"),
    ],
)
def test_slug_follows_github(heading: str, expected: str) -> None:
    assert slug(heading) == expected


def test_broken_links_and_anchors_are_found(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Other\n\n## Part two\n", "utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n[ok](other.md#part-two) [self](#page) [web](https://example.org/x)\n"
        "[gone](missing.md) [bad anchor](other.md#part-three) [bad self](#nowhere)\n"
        "```md\n[in code](also-missing.md)\n```\n",
        "utf-8",
    )
    assert broken_links(page) == [
        "missing.md: no such file",
        "other.md#part-three: no heading #part-three in other.md",
        "#nowhere: no heading #nowhere in page.md",
    ]


def test_commands_are_read_from_code_only() -> None:
    text = (
        "citegate never uses `end_offsets`; run `citegate verify a.json`.\n\n"
        "```sh\ncitegate replay --since 7d \\\n    --rebase latest   # make demo\n```\n"
    )
    found = [COMMAND.search(s) for s in code_snippets(text)]
    commands = [m.group(1) for m in found if m]
    assert commands == ["replay", "verify"]
    assert "--rebase" in code_snippets(text)[0]


# -- README and docs -----------------------------------------------------------------------------


def test_readme_is_short() -> None:
    size = len(README.read_bytes())
    assert size <= README_MAX_BYTES, f"README.md is {size} bytes; move reference to docs/"


def test_readme_starts_with_make_demo_and_make_test() -> None:
    named = [m.group(1) for s in code_snippets(README.read_text("utf-8")) for m in MAKE.finditer(s)]
    assert named[:2] == ["demo", "test"]


def test_readme_links_every_docs_page() -> None:
    text = prose(README.read_text("utf-8"))
    linked = {
        (ROOT / m.group(1).partition("#")[0]).resolve()
        for m in LINK.finditer(text)
        if m.group(1).startswith("docs/")
    }
    for page in sorted(DOCS.glob("*.md")):
        assert page.resolve() in linked, f"add {page.name} to the README's 'Where to go next'"


@pytest.mark.parametrize("path", pages(), ids=page_ids())
def test_relative_links_resolve(path: Path) -> None:
    assert broken_links(path) == []


@pytest.mark.parametrize("path", pages(), ids=page_ids())
def test_named_citegate_commands_and_flags_exist(path: Path) -> None:
    commands = subparsers(build_parser())
    problems = []
    for snippet in code_snippets(path.read_text("utf-8")):
        for m in COMMAND.finditer(snippet):
            name, second = m.group(1), m.group(2)
            parser = commands.get(name)
            if parser is None:
                problems.append(f"citegate {name}: no such subcommand")
                continue
            nested = subparsers(parser)
            if nested and second is not None:
                if second not in nested:
                    problems.append(f"citegate {name} {second}: no such subcommand")
                    continue
                parser = nested[second]
            rest = snippet[m.end() :].split(" #", 1)[0].split(" | ", 1)[0]
            rest = re.split(r"(?<![\w-])citegate[ \t]", rest, maxsplit=1)[0]
            known = parser._option_string_actions
            problems += [
                f"citegate {name} {flag}: no such option"
                for flag in FLAG.findall(rest)
                if flag not in known
            ]
    assert problems == []


@pytest.mark.parametrize("path", pages(), ids=page_ids())
def test_named_make_targets_exist(path: Path) -> None:
    targets = make_targets()
    named = {m.group(1) for s in code_snippets(path.read_text("utf-8")) for m in MAKE.finditer(s)}
    assert named - targets == set()


@pytest.mark.parametrize("path", pages(), ids=page_ids())
def test_named_repository_paths_exist(path: Path) -> None:
    """Module paths in code spans (`stream/worker/loop.py`) follow the layout."""
    named = {
        m.group(1) for s in code_snippets(path.read_text("utf-8")) for m in REPO_PATH.finditer(s)
    }
    assert {p for p in named if not (ROOT / p).exists()} == set()


def test_readme_layout_table_lists_every_package() -> None:
    text = README.read_text("utf-8")
    section = text[text.index("\n## Layout\n") :]
    section = section[: section.find("\n## ", 1)]
    rows = set(re.findall(r"^\| `([^`]+)` \|", section, re.M))
    packages = {
        f"stream/{p.name}/"
        for p in (ROOT / "stream").iterdir()
        if p.is_dir() and not p.is_symlink() and (p / "__init__.py").exists()
    }
    assert packages - rows == set(), "add the package to the README's Layout table"
    assert {r for r in rows if not (ROOT / r.replace("*.py", "")).exists()} == set()
