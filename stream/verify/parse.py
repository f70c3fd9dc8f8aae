"""Answer JSON (already decoded and schema-checked at the edge) -> `Answer`.

Both body forms end up as claims + citations: structured answers bring their own claims
(seed 000); marker answers are split into claims `c1`, `c2`, … and their `sources` become
citations (seed 001).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from stream.errors import InputError
from stream.verify.claims import split_marker_answer
from stream.verify.codes import InputCode
from stream.verify.coverage import span_error, uncovered_claims
from stream.verify.model import Answer, AnswerForm, Citation, Claim, OffsetUnit, Ref
from stream.verify.offsets import from_codepoints

OFFSET_UNITS: tuple[OffsetUnit, ...] = ("codepoint", "utf16", "utf8")


@dataclass(frozen=True, slots=True)
class Limits:
    """Input bounds: every size the stage accepts is finite. `max_citations` (1,024 per answer)
    is fixed; the others come from settings (CITEGATE_MAX_CLAIMS, …_CITATIONS_PER_CLAIM)."""

    max_claims: int = 256
    max_citations_per_claim: int = 32
    max_citations: int = 1024


def _str(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _int(value: object) -> int | None:
    # bool is an int in Python; a range bound of `true` is a producer bug, not offset 1.
    if isinstance(value, float) and value.is_integer():
        return int(value)  # JSON Schema's `integer` admits 80.0; it means offset 80
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _ref(value: object) -> Ref:
    if isinstance(value, Mapping):
        name = value.get("name", value.get("id"))
        version = value.get("version")
        return Ref(
            str(name) if name is not None else "unknown",
            str(version) if version is not None else "unknown",
        )
    return Ref("unknown", "unknown")


def _citation(cid: object, raw: Mapping[str, Any]) -> Citation:
    return Citation(
        id=cid if isinstance(cid, str) and cid else None,
        document_id=_str(raw.get("document_id")),
        document_version=_str(raw.get("document_version")),
        start=_int(raw.get("start")),
        end=_int(raw.get("end")),
        quote=_str(raw.get("quote")),
        sha256=_str(raw.get("sha256")),
        text=_str(raw.get("text")),
        title=_str(raw.get("title")),
        url=_str(raw.get("url")),
    )


def parse_answer(payload: Mapping[str, Any], limits: Limits | None = None) -> Answer:
    """Build an `Answer`; raise `InputError` with a reason code when it cannot be used."""
    limits = limits or Limits()
    answer_text = payload.get("answer")
    if not isinstance(answer_text, str):
        raise InputError("'answer' must be a string", code=InputCode.SCHEMA_INVALID)
    unit = payload.get("offset_unit", "codepoint")
    if unit not in OFFSET_UNITS:
        raise InputError(
            f"offset_unit must be one of {', '.join(OFFSET_UNITS)}",
            code=InputCode.OFFSET_UNIT_INVALID,
        )

    if "claims" in payload:
        form: AnswerForm = "structured"
        claims = _structured_claims(payload.get("claims"), answer_text, cast(OffsetUnit, unit))
        raw_citations = payload.get("citations", [])
        if not isinstance(raw_citations, list):
            raise InputError("'citations' must be a list", code=InputCode.SCHEMA_INVALID)
        citations = tuple(
            _citation(c.get("id"), c) if isinstance(c, Mapping) else Citation(None)
            for c in raw_citations
        )
    else:
        form = "markers"
        claims = tuple(
            Claim(f"c{i}", c.text, c.markers, (c.start, c.end))
            for i, c in enumerate(split_marker_answer(answer_text), start=1)
        )
        sources = payload.get("sources") or {}
        if isinstance(sources, list):
            sources = {s.get("id"): s for s in sources if isinstance(s, Mapping)}
        if not isinstance(sources, Mapping):
            raise InputError("'sources' must be an object", code=InputCode.SCHEMA_INVALID)
        citations = tuple(
            _citation(key, value) for key, value in sources.items() if isinstance(value, Mapping)
        )

    if len(claims) > limits.max_claims:
        raise InputError(
            f"{len(claims)} claims exceed the limit of {limits.max_claims}",
            code=InputCode.TOO_MANY_CLAIMS,
        )
    if len(citations) > limits.max_citations:
        raise InputError(
            f"{len(citations)} citations exceed the limit of {limits.max_citations}",
            code=InputCode.TOO_MANY_CITATIONS,
        )
    for claim in claims:
        if len(claim.citation_ids) > limits.max_citations_per_claim:
            raise InputError(
                f"claim {claim.id!r} has {len(claim.citation_ids)} citations; "
                f"the limit is {limits.max_citations_per_claim}",
                code=InputCode.TOO_MANY_CITATIONS,
            )

    if form == "structured":  # what is published must be covered by claims (verify/coverage.py)
        limit = max(1, limits.max_claims - len(claims))
        claims += uncovered_claims(answer_text, claims, cast(OffsetUnit, unit), limit)

    return Answer(
        answer=answer_text,
        claims=claims,
        citations=citations,
        form=form,
        offset_unit=cast(OffsetUnit, unit),
        answer_id=_str(payload.get("answer_id")),
        event_id=_str(payload.get("event_id")),
        created_at=_str(payload.get("created_at")),
        corpus=_ref(payload.get("corpus")),
        generator=_ref(payload.get("generator")),
        retriever=_ref(payload.get("retriever")),
        risk_domain=_str(payload.get("risk_domain")),
        language=_str(payload.get("language")),
    )


def _structured_claims(raw: object, answer: str, unit: OffsetUnit) -> tuple[Claim, ...]:
    if not isinstance(raw, list):
        raise InputError("'claims' must be a list", code=InputCode.SCHEMA_INVALID)
    claims: list[Claim] = []
    seen: set[str] = set()
    for i, item in enumerate(raw, start=1):
        if not isinstance(item, Mapping):
            raise InputError(f"claim #{i} must be an object", code=InputCode.SCHEMA_INVALID)
        cid = item.get("id")
        cid = cid if isinstance(cid, str) and cid else f"c{i}"
        if cid in seen:
            raise InputError(f"claim id {cid!r} is used twice", code=InputCode.SCHEMA_INVALID)
        seen.add(cid)
        text = item.get("text")
        ids = item.get("citation_ids", [])
        if not isinstance(text, str) or not isinstance(ids, list):
            raise InputError(
                f"claim {cid!r} needs 'text' and a 'citation_ids' list",
                code=InputCode.SCHEMA_INVALID,
            )
        span = item.get("span")
        bounds = [_int(x) for x in span] if isinstance(span, list) and len(span) == 2 else []
        lo, hi = (bounds[0], bounds[1]) if len(bounds) == 2 else (None, None)
        span_t = (lo, hi) if lo is not None and hi is not None else None
        if span_t is not None and (problem := span_error(answer, span_t, unit)) is not None:
            raise InputError(f"claim {cid!r} span {problem}", code=InputCode.SPAN_INVALID)
        if span_t is None and text and (pos := answer.find(text)) >= 0:
            # The claim as written in the answer, expressed in the answer's offset unit.
            span_t = from_codepoints(answer, pos, pos + len(text), unit)
        claims.append(Claim(cid, text, tuple(str(x) for x in ids), span_t))
    return tuple(claims)
