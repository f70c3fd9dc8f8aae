"""Golden verdicts on a sample of the labelled dev records (../shared/eval), kept as digests.

The dev files must never be copied into the repository, so the golden file for them holds only
each sampled record's id and a digest of what the rules checker said about it (verdict, support
status, confidence, score, unsupported parts, signal codes, cited evidence, reason). A changed digest names the record;
`citegate eval` on that file shows what changed. Where the files are not beside the checkout
(`CITEGATE_EVAL_DIR` overrides the place), the test skips and says so.

    python -m tests.golden.eval_sample --write     # regenerate, for a checker change CHANGELOG names
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path
from typing import Any

import orjson

from stream.quality.evaluate import load_records, to_request
from stream.verify.checkers import RulesChecker

DIGESTS = Path(__file__).with_name("eval_digests.json")
FILES = (
    "expertqa.jsonl",
    "wice.jsonl",
    "wice_oracle.jsonl",
    "climate_fever_pairs.jsonl",
    "climate_fever_claims.jsonl",
    "healthver.jsonl",
    "ocnli_dev.jsonl",
    "terra.jsonl",
)
PER_FILE = 40
"""Records per file, spread evenly over it (every n-th), 320 in all."""


def eval_dir() -> Path:
    configured = os.environ.get("CITEGATE_EVAL_DIR")
    if configured:
        return Path(configured)
    return Path(__file__).resolve().parents[3] / "shared" / "eval"


def _digest(result: Any) -> str:
    said = {
        "verdict": str(result.verdict),
        "support_status": str(result.support_status),
        "confidence": result.confidence,
        "score": result.score,
        "unsupported_parts": list(result.unsupported_parts),
        "signals": sorted(str(s.code) for s in result.signals),
        "evidence_citation_ids": list(result.evidence_citation_ids),
        "reason": result.reason,
    }
    return hashlib.sha256(orjson.dumps(said, option=orjson.OPT_SORT_KEYS)).hexdigest()[:16]


def compute(directory: Path) -> dict[str, dict[str, str]]:
    """File name -> record id -> digest of the rules checker's result, for the sample."""
    checker = RulesChecker()
    out: dict[str, dict[str, str]] = {}
    for name in FILES:
        records = load_records(directory / name)
        step = max(1, len(records) // PER_FILE)
        sample = records[::step][:PER_FILE]
        out[name] = {r.id: _digest(checker.check(to_request(r))) for r in sample}
    return out


def main(argv: list[str]) -> int:
    digests = compute(eval_dir())
    target = Path(argv[1]) if len(argv) > 1 else DIGESTS
    if argv[:1] == ["--write"]:
        target.write_bytes(orjson.dumps(digests, option=orjson.OPT_INDENT_2) + b"\n")
        print(f"wrote {sum(len(v) for v in digests.values())} digests to {target}")
        return 0
    print(orjson.dumps(digests, option=orjson.OPT_INDENT_2).decode())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
