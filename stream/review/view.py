"""What a reviewer sees of one queued answer, as plain JSON-ready data.

The page and `GET /api/answers/{id}` show the same thing: the answer text with each claim's
span, per claim its verdict and reasons, per citation the quote inside its document version
(with context, offsets and a note when a newer version exists).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from stream.corpus.store import DocumentStore
from stream.errors import CorpusError
from stream.review.events import iso
from stream.review.queue import Item

CONTEXT_CHARS = 240
LANG_RE = re.compile(r"^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$")
MAX_QUOTE_CHARS = 4000


def lang_tag(value: object) -> str | None:
    """A BCP 47-looking tag for the `lang` attribute, or None (never free text)."""
    return value if isinstance(value, str) and LANG_RE.match(value) else None


def segments(text: str, spans: list[tuple[int, int, str]]) -> list[dict[str, Any]]:
    """`text` cut into pieces, each either plain or one claim's span (overlaps skipped)."""
    out: list[dict[str, Any]] = []
    pos = 0
    for start, end, claim_id in sorted(spans):
        if start < pos or not 0 <= start < end <= len(text):
            continue
        if start > pos:
            out.append({"text": text[pos:start], "claim_id": None})
        out.append({"text": text[start:end], "claim_id": claim_id})
        pos = end
    if pos < len(text):
        out.append({"text": text[pos:], "claim_id": None})
    return out


def claimed_quotes(answer: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    """citation id -> what the answer itself says about it (quote or inline text, ids)."""
    if not answer:
        return {}
    out: dict[str, dict[str, Any]] = {}
    for c in answer.get("citations") or []:
        if isinstance(c, dict) and isinstance(c.get("id"), str):
            out[c["id"]] = c
    sources = answer.get("sources")
    if isinstance(sources, dict):
        for key, s in sources.items():
            if isinstance(s, dict):
                out[str(key)] = s
    return out


async def excerpt(
    store: DocumentStore | None, document_id: str | None, version: str | None, start: Any, end: Any
) -> dict[str, Any]:
    """The cited range inside its document version, or a note saying why there is none."""
    out: dict[str, Any] = {"available": False, "note": None, "latest_version": None}
    if store is None or not document_id or not version:
        out["note"] = "no corpus document to show"
        return out
    try:
        doc = await store.get(document_id, version)
        latest = await store.latest(document_id)
    except CorpusError as exc:
        out["note"] = f"corpus unavailable ({exc.code})"
        return out
    if latest is not None and latest.version != version:
        out["latest_version"] = latest.version
    if doc is None:
        out["note"] = "this document version is not in the corpus"
        return out
    if not isinstance(start, int) or not isinstance(end, int) or not 0 <= start < end:
        start, end = 0, len(doc.text)
    end = min(end, len(doc.text))
    quote = doc.text[start:end]
    clipped = len(quote) > MAX_QUOTE_CHARS
    out.update(
        available=True,
        before=doc.text[max(0, start - CONTEXT_CHARS) : start],
        quote=quote[:MAX_QUOTE_CHARS],
        quote_clipped=clipped,
        after="" if clipped else doc.text[end : end + CONTEXT_CHARS],
        starts_document=start <= CONTEXT_CHARS,
        ends_document=end + CONTEXT_CHARS >= len(doc.text),
        start=start,
        end=end,
        length=len(doc.text),
        title=doc.title,
    )
    return out


async def answer_view(
    item: Item, answer: Mapping[str, Any] | None, store: DocumentStore | None, now_ms: int
) -> dict[str, Any]:
    d = item.decision
    claimed = claimed_quotes(answer)
    claims = []
    spans: list[tuple[int, int, str]] = []
    for claim_id, v in item.verdicts.items():
        span = v.get("span")
        if isinstance(span, list) and len(span) == 2:
            spans.append((int(span[0]), int(span[1]), claim_id))
        citations = []
        for c in v.get("citations") or []:
            cid = str(c.get("citation_id"))
            said = claimed.get(cid, {})
            doc_id = c.get("document_id") or said.get("document_id")
            version = c.get("document_version") or said.get("document_version")
            quote = said.get("quote") if said.get("quote") is not None else said.get("text")
            citations.append(
                {
                    "citation_id": cid,
                    "status": c.get("status"),
                    "document_id": doc_id,
                    "document_version": version,
                    "start": c.get("start"),
                    "end": c.get("end"),
                    "errors": c.get("errors") or [],
                    "warnings": c.get("warnings") or [],
                    "quote_in_answer": quote if isinstance(quote, str) else None,
                    "excerpt": await excerpt(store, doc_id, version, c.get("start"), c.get("end")),
                }
            )
        claims.append(
            {
                "claim_id": claim_id,
                "text": v.get("text"),
                "span": span,
                "verdict": v.get("verdict"),
                "support_status": v.get("support_status"),
                "action": v.get("action"),
                "confidence": v.get("confidence"),
                "reason": v.get("reason"),
                "risk_signals": v.get("risk_signals") or [],
                "unsupported_parts": v.get("unsupported_parts") or [],
                "deterministic_errors": v.get("deterministic_errors") or [],
                "citations": citations,
            }
        )
    text = answer.get("answer") if answer else None
    return {
        "answer_id": item.answer_id,
        "final_status": item.status,
        "decision_event_id": d.get("event_id"),
        "answer_event_id": d.get("source_event_id"),
        "decided_at": iso(item.decided_at_ms),
        "age_s": round(item.age_s(now_ms), 3),
        "reasons": list(d.get("reasons") or []),
        "risk_domain": d.get("risk_domain"),
        "forced_review_domain": d.get("forced_review_domain"),
        "slice": item.slice(),
        "language": answer.get("language") if answer else None,
        "lang": lang_tag(answer.get("language") if answer else None),
        "answer_text": text if isinstance(text, str) else None,
        "segments": segments(text, spans) if isinstance(text, str) else [],
        "claim_ids": [str(c) for c in d.get("claim_ids") or []],
        "claims": claims,
        "complete": len(claims) >= int(d.get("claims") or 0),
    }


def queue_row(item: Item, now_ms: int) -> dict[str, Any]:
    d = item.decision
    return {
        "answer_id": item.answer_id,
        "final_status": item.status,
        "decided_at": iso(item.decided_at_ms),
        "age_s": round(item.age_s(now_ms), 3),
        "claims": d.get("claims"),
        "counts": d.get("counts"),
        "risk_domain": d.get("risk_domain"),
        **item.slice(),
        "first_reason": (d.get("reasons") or [None])[0],
    }
