"""Compile the text tables of `stream/verify/data/` into the files the core reads in place.

    python -m stream.lexicon.compiled [TABLE.txt.gz ...]   (default: every table)

`make` runs it (the `.dawg` files are build output, never committed). A compiled table holds
the same maps as its text (`stream.verify.lexicon.compiled_items`) and names the text's digest,
so the core reads it only while it matches; otherwise the core reads the text, as it did before
this existed (slower to load, about 30 MB more held: docs/performance.md#memory).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

import dawg

from stream.verify import lexicon

_NAME = re.compile(r"lexicon-([a-z]+)\.txt\.gz$")


def compile_one(text: Path) -> Path:
    """Write the compiled form of one text table next to it, atomically; return its path."""
    m = _NAME.search(text.name)
    if m is None:
        raise ValueError(f"not a lexical table: {text.name}")
    language = m.group(1)
    out = lexicon.compiled_path(language)
    if out.parent.resolve() != text.parent.resolve():
        raise ValueError(f"{text} is not in {out.parent}")
    table = lexicon.text_table(language)
    automaton = dawg.BytesDAWG(
        lexicon.compiled_items(language, table, lexicon.source_digest(language))
    )
    tmp = out.with_suffix(".dawg.tmp")
    automaton.save(str(tmp))
    os.replace(tmp, out)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m stream.lexicon.compiled")
    p.add_argument("tables", nargs="*", type=Path, help="text tables (default: all)")
    args = p.parse_args(argv)
    tables = args.tables or sorted(lexicon.text_path("x").parent.glob("lexicon-*.txt.gz"))
    try:
        for text in tables:
            out = compile_one(text)
            print(f"compiled {text.name} -> {out.name} ({out.stat().st_size // 1024} KB)")
    except (OSError, ValueError) as e:
        print(f"python -m stream.lexicon.compiled: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
