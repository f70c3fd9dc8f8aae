"""`python -m tests.golden.regen`: rewrite tests/golden/golden.json from the current pipeline.

Run it only for an intended checker change that CHANGELOG.md names (see docs/performance.md):
the golden file is what proves a speed-up changed no verdict.
"""

from __future__ import annotations

import sys
from typing import Any

import orjson

from tests.golden.cases import GOLDEN, compute, synth_sample


def render(data: dict[str, Any]) -> bytes:
    """JSON with one document, answer or result per line: reviewable diffs, small file."""

    def items(values: list[Any], indent: str) -> bytes:
        return b",\n".join(indent.encode() + orjson.dumps(v) for v in values)

    parts = [b"{"]
    parts.append(b'"sample_documents": [\n' + items(data["sample_documents"], "  ") + b"\n],")
    parts.append(b'"sample_answers": [\n' + items(data["sample_answers"], "  ") + b"\n],")
    expected = data["expected"]
    parts.append(
        b'"expected": {\n"demo": [\n'
        + items(expected["demo"], "  ")
        + b'\n],\n"sample": [\n'
        + items(expected["sample"], "  ")
        + b"\n]}"
    )
    parts.append(b"}\n")
    return b"\n".join(parts)


def main() -> int:
    docs, answers = synth_sample()
    expected = compute(docs, answers)
    data = {"sample_documents": docs, "sample_answers": answers, "expected": expected}
    GOLDEN.write_bytes(render(data))
    n = len(expected["demo"]) + len(expected["sample"])
    print(f"wrote {GOLDEN} ({n} answers)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
