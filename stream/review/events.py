"""Review events (`citegate.review.v1` on `rag.reviews`) and their vocabularies.

A review never overwrites anything: it is a new event naming the decision it answers. Its id is
derived from that decision, the reviewer and the labels, so a retried submission is recognisably
the same event.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import orjson

from stream.events import derive_id

REVIEW_SCHEMA = "citegate.review.v1"
MAX_NOTE_CHARS = 2000
MAX_CLAIMS = 256


class Label(StrEnum):
    """A reviewer's judgement of one claim against its cited evidence."""

    SUPPORTED = "supported"
    NOT_SUPPORTED = "not_supported"
    CONTRADICTED = "contradicted"


class ReviewDecision(StrEnum):
    """What delivery should do with the answer."""

    PUBLISH = "publish"
    REJECT = "reject"
    REGENERATE = "regenerate"


EVAL_LABEL = {
    Label.SUPPORTED: "entailed",
    Label.NOT_SUPPORTED: "insufficient",
    Label.CONTRADICTED: "contradicted",
}
"""Reviewer label -> the eval files' gold label (and the checker verdict that agrees with it)."""


def agrees(label: Label, checker_verdict: str | None) -> bool:
    """True when the checker's verdict says what the reviewer said (`unknown` never agrees)."""
    return EVAL_LABEL[label] == checker_verdict


@dataclass(frozen=True, slots=True)
class ClaimLabel:
    claim_id: str
    label: Label
    note: str | None = None


def iso(ms: int | None) -> str | None:
    """Epoch milliseconds -> RFC 3339 UTC (`...Z`), None stays None."""
    if ms is None:
        return None
    stamp = dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC)
    return stamp.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def review_event(
    decision: Mapping[str, Any],
    decided_at_ms: int | None,
    verdicts: Mapping[str, Mapping[str, Any]],
    reviewer: str,
    choice: ReviewDecision,
    labels: Sequence[ClaimLabel],
    note: str | None,
    reviewed_at_ms: int,
) -> dict[str, Any]:
    """The event for one submitted review of `decision` (claims in the decision's order)."""
    claims = [
        {
            "claim_id": c.claim_id,
            "label": c.label.value,
            "note": c.note,
            "checker_verdict": verdicts.get(c.claim_id, {}).get("verdict"),
        }
        for c in labels
    ]
    digest = orjson.dumps(
        {"decision": choice.value, "note": note, "claims": claims}, option=orjson.OPT_SORT_KEYS
    ).decode()
    return {
        "schema": REVIEW_SCHEMA,
        "event_id": derive_id("review", decision["event_id"], reviewer, digest),
        "source_event_id": decision["event_id"],
        "answer_event_id": decision["source_event_id"],
        "answer_id": decision["answer_id"],
        "reviewer": {"name": reviewer},
        "reviewed_at": iso(reviewed_at_ms),
        "decided_at": iso(decided_at_ms),
        "decision": choice.value,
        "reviewed_status": decision["final_status"],
        "claims": claims,
        "note": note,
        "checker": dict(decision["checker"]),
        "corpus": dict(decision["corpus"]),
        "generator": dict(decision["generator"]),
        "retriever": dict(decision["retriever"]),
    }
