"""Output events: plain JSON-ready dicts built from verification results, encoded at the topic
edge by `stream.codec.encode` (the schemas in `schemas/` are their contract).

Output event ids are derived from the input event id, the claim, the checker version and the
replay id, so a redelivered input yields byte-identical ids and consumers can deduplicate.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from stream.verify.model import Answer, AnswerResult, ClaimVerdict, Ref

CLAIM_VERDICT_SCHEMA = "citegate.claim-verdict.v1"
DECISION_SCHEMA = "citegate.decision.v1"
DEAD_LETTER_SCHEMA = "citegate.dead-letter.v1"
ANSWER_SCHEMA = "citegate.answer.v1"


def derive_id(*parts: str | None) -> str:
    """A stable 32-hex id from its parts (None and "" differ)."""
    h = hashlib.sha256()
    for part in parts:
        h.update(b"\x00" if part is None else b"\x01" + part.encode("utf-8"))
        h.update(b"\x1f")
    return h.hexdigest()[:32]


def ref_dict(ref: Ref) -> dict[str, str]:
    return {"name": ref.name, "version": ref.version}


@dataclass(frozen=True, slots=True)
class Source:
    """Where an input event came from (topic, partition, offset); empty offline."""

    topic: str | None = None
    partition: int | None = None
    offset: int | None = None

    def to_dict(self) -> dict[str, object]:
        return {"topic": self.topic, "partition": self.partition, "offset": self.offset}


@dataclass(frozen=True, slots=True)
class Envelope:
    """Per-delivery context that is not part of the verification itself."""

    source: Source = field(default_factory=Source)
    replay_id: str | None = None
    latency_s: float | None = None
    mode: str = "live"
    trace_id: str | None = None


def input_event_id(answer: Answer) -> str:
    """The one id of an input: the producer's `event_id`, else its content digest.

    The stage, the duplicate index, the output events and replay all use this function. The
    digest covers the whole event (answer_id included), so different answers never share an id.
    """
    if answer.event_id:
        return answer.event_id
    if answer.content_digest:
        return "sha256:" + answer.content_digest[:32]
    # Only answers built without the codec (library use, tests) lack a digest.
    return "sha256:" + derive_id("answer", answer.answer_id, answer.answer, repr(answer.claims))


def source_event_id(result: AnswerResult) -> str:
    return input_event_id(result.answer)


def _versions(result: AnswerResult) -> dict[str, object]:
    a = result.answer
    return {
        "corpus": ref_dict(a.corpus),
        "generator": ref_dict(a.generator),
        "retriever": ref_dict(a.retriever),
    }


def _citations(v: ClaimVerdict) -> list[dict[str, object]]:
    by_id = {c.citation_id: c for c in v.citation_checks}
    out: list[dict[str, object]] = []
    for cid in dict.fromkeys(v.claim.citation_ids):
        check = by_id.get(cid)
        if check is None:
            out.append(
                {
                    "citation_id": cid,
                    "status": "unknown",
                    "document_id": None,
                    "document_version": None,
                    "start": None,
                    "end": None,
                    "errors": [],
                    "warnings": [],
                }
            )
        else:
            out.append(check.to_dict())
    return out


def claim_verdict_event(result: AnswerResult, v: ClaimVerdict, env: Envelope) -> dict[str, Any]:
    src = source_event_id(result)
    return {
        "schema": CLAIM_VERDICT_SCHEMA,
        "event_id": derive_id("claim-verdict", src, v.claim.id, v.checker.version, env.replay_id),
        "source_event_id": src,
        "answer_id": result.answer.answer_id,
        "claim_id": v.claim.id,
        "text": v.claim.text,
        "span": list(v.claim.span) if v.claim.span else None,
        "citation_ids": list(v.claim.citation_ids),
        "citations": _citations(v),
        "citation_status": v.citation_status.value,
        "deterministic_errors": [e.to_dict() for e in v.deterministic_errors],
        "warnings": [w.to_dict() for w in v.warnings],
        "missing_citations": list(v.missing_citations),
        "invalid_citations": list(v.invalid_citations),
        "risk_signals": [s.to_dict() for s in v.risk_signals],
        "verdict": v.verdict.value,
        "support_status": v.support_status.value,
        "action": v.action.value,
        "score": v.score,
        "jaccard": v.jaccard,
        "confidence": v.confidence,
        "unsupported_parts": list(v.unsupported_parts),
        "evidence": [e.to_dict() for e in v.evidence],
        "reason": v.reason,
        "checker": ref_dict(v.checker),
        **_versions(result),
        "risk_domain": result.answer.risk_domain,
        "replay_id": env.replay_id,
        "mode": env.mode,
    }


def decision_event(result: AnswerResult, checker: Ref, env: Envelope) -> dict[str, Any]:
    src = source_event_id(result)
    d = result.decision
    return {
        "schema": DECISION_SCHEMA,
        "event_id": derive_id("decision", src, checker.version, env.replay_id),
        "source_event_id": src,
        "answer_id": result.answer.answer_id,
        "final_status": d.final_status.value,
        "publish": d.publish,
        "gate": "PASS" if d.publish else "HOLD",
        "counts": dict(d.counts),
        "claims": len(result.verdicts),
        "claim_ids": [v.claim.id for v in result.verdicts],
        "reasons": list(d.reasons),
        "errors": [e.to_dict() for e in result.errors],
        "risk_domain": result.answer.risk_domain,
        "forced_review_domain": d.forced_review_domain,
        "checker": ref_dict(checker),
        **_versions(result),
        "source": env.source.to_dict(),
        "processing_latency_s": env.latency_s,
        "replay_id": env.replay_id,
        "mode": env.mode,
        "answer_digest": result.answer.content_digest,
        "trace_id": env.trace_id,
    }


def seed_report(result: AnswerResult) -> dict[str, Any]:
    """Seed 000's `{"ok", "errors", "claims"}` with its exact meaning and shape."""
    return {
        "ok": result.ok,
        "errors": [e.to_dict() for e in result.errors],
        "claims": [
            {
                "claim_id": v.claim.id,
                "status": v.citation_status.value,
                "missing_citations": list(v.missing_citations),
                "invalid_citations": list(v.invalid_citations),
            }
            for v in result.verdicts
        ],
    }


def verify_report(
    result: AnswerResult, checker: Ref, env: Envelope | None = None
) -> dict[str, Any]:
    """What `citegate verify --format json` prints for one answer."""
    env = env or Envelope(mode="offline")
    out = seed_report(result)
    out["answer_id"] = result.answer.answer_id
    out["verdicts"] = [claim_verdict_event(result, v, env) for v in result.verdicts]
    out["decision"] = decision_event(result, checker, env)
    return out


MAX_DEAD_LETTER_ORIGINAL = 64 * 1024
"""Bytes of a refused input a dead letter keeps. Bounded, so a dead letter always fits in one
produce request (a 16 MB input once stalled every partition); `original_size` and
`original_sha256` still identify the whole input."""
MAX_DEAD_LETTER_TEXT = 2048
"""Characters of the message and the key a dead letter keeps."""


def _original(raw: bytes, limit: int) -> tuple[str, str]:
    kept = raw[:limit]
    try:
        return kept.decode("utf-8"), "utf-8"
    except UnicodeDecodeError as exc:
        # A cut inside a multi-byte character is not a reason to fall back to base64.
        if (
            len(raw) > limit
            and exc.start >= len(kept) - 3
            and exc.reason == "unexpected end of data"
        ):
            return kept[: exc.start].decode("utf-8"), "utf-8"
        return base64.b64encode(kept).decode("ascii"), "base64"


def dead_letter_event(
    reason: str,
    message: str,
    raw: bytes,
    source: Source,
    key: bytes | None,
    extra: Mapping[str, object] | None = None,
    *,
    max_original: int = MAX_DEAD_LETTER_ORIGINAL,
) -> dict[str, Any]:
    """A refused input: its first `max_original` bytes (UTF-8 text, else base64), size and hash."""
    original, encoding = _original(raw, max_original)
    key_text = (
        None if key is None else key[:MAX_DEAD_LETTER_TEXT].decode("utf-8", "backslashreplace")
    )
    return {
        "schema": DEAD_LETTER_SCHEMA,
        "event_id": derive_id(
            "dead-letter", source.topic, str(source.partition), str(source.offset), reason
        ),
        "reason": reason,
        "message": message[:MAX_DEAD_LETTER_TEXT],
        "source": source.to_dict(),
        "key": key_text,
        "original": original,
        "original_encoding": encoding,
        "original_size": len(raw),
        "original_sha256": hashlib.sha256(raw).hexdigest(),
        "truncated": len(raw) > max_original,
        **(dict(extra) if extra else {}),
    }
