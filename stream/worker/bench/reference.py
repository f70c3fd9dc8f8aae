"""The seeds' trivial pipeline, as the floor `citegate verify` is compared with.

Seed 000's deterministic checks (ids, document, version, range, exact quote) followed by seed
001's rule (token-set Jaccard against the cited text, unsupported numbers, inference cues,
threshold 0.42), in one Python process. Written here from the seeds' prose and code as a
reference to time, not used for any verdict.

`python -m stream.worker.bench.reference ANSWERS.jsonl CORPUS.jsonl` prints the number of claims.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import orjson

_WORD = re.compile(r"[^\W\d_]+|\d+(?:\.\d+)?|[\u3400-\u9fff]", re.UNICODE)
_NUMBER = re.compile(r"\d+(?:\.\d+)?%?")
_CUE = re.compile("因此|所以|必然|一定|所有|完全|意味着")
_STOP = frozenset("the a an of to and is are 的 了 和 是 в и на с".split())
THRESHOLD = 0.42


def tokens(text: str) -> set[str]:
    return {t.lower() for t in _WORD.findall(text)} - _STOP


def jaccard(a: str, b: str) -> float:
    x, y = tokens(a), tokens(b)
    union = len(x | y)
    return len(x & y) / union if union else 0.0


def seed_verify(answer: dict[str, Any], documents: dict[str, dict[str, Any]]) -> list[str]:
    """Support status per claim: missingCitation, wrongCitation, beyondEvidence, supported."""
    by_id: dict[str, dict[str, Any]] = {}
    for c in answer.get("citations", []):
        cid = c.get("id")
        if cid and cid not in by_id:
            by_id[cid] = c
    valid: dict[str, str] = {}
    for cid, c in by_id.items():
        doc = documents.get(str(c.get("document_id")))
        if doc is None or c.get("document_version") != doc.get("version"):
            continue
        start, end, text = c.get("start"), c.get("end"), doc.get("text", "")
        if not isinstance(start, int) or not isinstance(end, int):
            continue
        if start < 0 or end <= start or end > len(text):
            continue
        fragment = text[start:end]
        if fragment == c.get("quote"):
            valid[cid] = fragment
    out = []
    for claim in answer.get("claims", []):
        refs = claim.get("citation_ids", [])
        if not refs:
            out.append("missingCitation")
            continue
        if any(r not in valid for r in refs):
            out.append("wrongCitation")
            continue
        text = claim["text"]
        best = max(jaccard(text, valid[r]) for r in refs)
        evidence = set(_NUMBER.findall(" ".join(valid[r] for r in refs)))
        if any(n not in evidence for n in _NUMBER.findall(text)):
            out.append("beyondEvidence")
        elif best >= THRESHOLD:
            out.append("supported")
        elif _CUE.search(text):
            out.append("beyondEvidence")
        else:
            out.append("wrongCitation")
    return out


def main(argv: list[str]) -> int:
    answers_path, corpus_path = argv
    documents = {}
    for line in Path(corpus_path).read_bytes().splitlines():
        if line.strip():
            d = orjson.loads(line)
            documents[d["document_id"]] = d
    claims = 0
    for line in Path(answers_path).read_bytes().splitlines():
        if line.strip():
            claims += len(seed_verify(orjson.loads(line), documents))
    print(claims)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
