"""Release events (`citegate.release.v1` on `rag.released`): what delivery may show.

One event per answer that may reach a user: the worker writes it after an `accept` decision,
the review server after a reviewer's `publish`. It carries the answer text exactly as the gate
verified it (marker answers keep their markers), each claim with its citations (document,
version, range), what released it and the versions — nothing a user must not see (no risk
signals, no reviewer notes, no source passages).

The event id is derived from the answer id and what is shown (text, claims, citations), not
from the delivery attempt: a redelivered input, a restarted worker or review server, and a
producer's retry of the same answer all yield the same id, so consumers deduplicate.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from stream.events import derive_id, ref_dict
from stream.verify.model import Answer

RELEASE_SCHEMA = "citegate.release.v1"


def _citations(answer: Answer, verdict: Mapping[str, Any]) -> list[dict[str, Any]]:
    by_id = {c.id: c for c in answer.citations if c.id}
    out = []
    for check in verdict.get("citations") or []:
        cited = by_id.get(check.get("citation_id"))
        out.append(
            {
                "citation_id": check.get("citation_id"),
                "status": check.get("status"),
                "document_id": check.get("document_id"),
                "document_version": check.get("document_version"),
                "start": check.get("start"),
                "end": check.get("end"),
                "title": cited.title if cited else None,
                "url": cited.url if cited else None,
            }
        )
    return out


def _claims(
    answer: Answer, verdicts: Sequence[Mapping[str, Any]], labels: Mapping[str, str]
) -> list[dict[str, Any]]:
    return [
        {
            "claim_id": v["claim_id"],
            "text": v["text"],
            "span": v.get("span"),
            "verdict": v["verdict"],
            "review_label": labels.get(v["claim_id"]),
            "citations": _citations(answer, v),
        }
        for v in verdicts
    ]


def release_id(answer_id: str | None, text: str, claims: Sequence[Mapping[str, Any]]) -> str:
    """The id of showing `text` with these claims and citations for this answer."""
    shown = [
        [
            c["claim_id"],
            c["text"],
            c["span"],
            [
                [x["citation_id"], x["document_id"], x["document_version"], x["start"], x["end"]]
                for x in c["citations"]
            ],
        ]
        for c in claims
    ]
    digest = hashlib.sha256(orjson.dumps([text, shown])).hexdigest()
    return derive_id("release", answer_id, digest)


def release_event(
    answer: Answer,
    verdicts: Sequence[Mapping[str, Any]],
    decision: Mapping[str, Any],
    *,
    review: Mapping[str, Any] | None = None,
    trace_id: str | None = None,
) -> dict[str, Any]:
    """The release of `answer` on `decision` (accepted) or on `review` (published).

    `verdicts` are the decision's claim verdict events, in the decision's claim order.
    """
    labels = {str(c["claim_id"]): str(c["label"]) for c in (review or {}).get("claims", [])}
    claims = _claims(answer, verdicts, labels)
    return {
        "schema": RELEASE_SCHEMA,
        "event_id": release_id(answer.answer_id, answer.answer, claims),
        "answer_id": answer.answer_id,
        "answer_event_id": decision["source_event_id"],
        "released_by": "review" if review is not None else "decision",
        "text": answer.answer,
        "form": answer.form,
        "offset_unit": answer.offset_unit,
        "language": answer.language,
        "risk_domain": answer.risk_domain,
        "claims": claims,
        "decision": {
            "event_id": decision["event_id"],
            "final_status": decision["final_status"],
        },
        "review": None
        if review is None
        else {
            "event_id": review["event_id"],
            "reviewer": dict(review["reviewer"]),
            "reviewed_at": review["reviewed_at"],
            "decision": review["decision"],
        },
        "checker": dict(decision["checker"]),
        "corpus": ref_dict(answer.corpus),
        "generator": ref_dict(answer.generator),
        "retriever": ref_dict(answer.retriever),
        "trace_id": trace_id,
    }
