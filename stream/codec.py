"""Topic-edge serialization: bytes <-> events. Decoding refuses bad input with a reason code.

Order of refusal matters for operators: size is checked before decoding (cheap, protects the
worker), then UTF-8, JSON, the JSON Schema contract, and finally the semantic limits.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

import jsonschema_rs
import orjson

from stream.errors import InputError
from stream.verify.codes import InputCode
from stream.verify.model import Answer
from stream.verify.parse import Limits, parse_answer

if TYPE_CHECKING:  # the pure-Python validator is imported when first needed (see `validator`)
    from jsonschema import Draft202012Validator
    from referencing import Registry

SCHEMA_FILES = {
    "answer": "answer.schema.json",
    "claim-verdict": "claim-verdict.schema.json",
    "decision": "decision.schema.json",
    "dead-letter": "dead-letter.schema.json",
    "review": "review.schema.json",
    "release": "release.schema.json",
}


def load_schema(name: str) -> dict[str, Any]:
    data = resources.files("stream").joinpath("schemas", SCHEMA_FILES[name]).read_text("utf-8")
    schema: dict[str, Any] = json.loads(data)
    return schema


@cache
def _registry() -> Registry:
    from referencing import Registry, Resource

    resources_ = [(SCHEMA_FILES[n], Resource.from_contents(load_schema(n))) for n in SCHEMA_FILES]
    registry: Registry = Registry().with_resources(resources_)
    return registry


@cache
def validator(name: str) -> Draft202012Validator:
    """A cached validator for one of citegate's schemas (relative $refs resolve).

    Imported on first use: a worker whose answers all pass the compiled check never needs it,
    and in a worker its imports are 2 MB (9 MB in a bare process; docs/performance.md#memory)."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator(load_schema(name), registry=_registry())


FAST_SCHEMAS = frozenset({"answer"})
"""Schemas checked on the hot path by the compiled validator (self-contained, no $refs out)."""


@cache
def _fast_validator(name: str) -> Any:
    return jsonschema_rs.validator_for(load_schema(name))


def schema_error(name: str, instance: object) -> str | None:
    """One line describing the most relevant schema violation, or None when valid.

    Valid input (the common case) is confirmed by jsonschema-rs in about a microsecond; the
    pure-Python validator, ~700 times slower, only runs to explain a failure.
    """
    if name in FAST_SCHEMAS and _fast_validator(name).is_valid(instance):
        return None
    from jsonschema.exceptions import best_match

    error = best_match(validator(name).iter_errors(instance))
    if error is None:
        return None
    path = "/".join(str(p) for p in error.absolute_path) or "(root)"
    message = error.message if len(error.message) <= 200 else error.message[:197] + "..."
    return f"{path}: {message}"


def decode_json(raw: bytes, max_bytes: int) -> Any:
    if len(raw) > max_bytes:
        raise InputError(
            f"event is {len(raw)} bytes; the limit is {max_bytes}", code=InputCode.OVERSIZE
        )
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"event is not valid UTF-8 ({exc.reason} at byte {exc.start})", code=InputCode.NOT_UTF8
        ) from None
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise InputError(f"event is not JSON: {exc}", code=InputCode.NOT_JSON) from None


def answer_from_obj(obj: Any, limits: Limits | None = None, *, require_ids: bool = False) -> Answer:
    if not isinstance(obj, dict):
        raise InputError("an answer event must be a JSON object", code=InputCode.SCHEMA_INVALID)
    problem = schema_error("answer", obj)
    if problem is None and require_ids and not obj.get("answer_id"):
        problem = "(root): 'answer_id' is required on the stream"
    if problem is not None:
        raise InputError(
            f"answer does not match the schema: {problem}", code=InputCode.SCHEMA_INVALID
        )
    return replace(parse_answer(obj, limits), content_digest=content_digest(obj))


def content_digest(obj: object) -> str:
    """sha256 of `obj` as canonical JSON (sorted keys, no whitespace).

    Canonical rather than the raw bytes, so the same answer re-serialized by a producer's retry
    (or pretty-printed in a file for `citegate verify`) keeps its id; the answer_id is part of
    the content, so two answers with the same text never share one.
    """
    return hashlib.sha256(orjson.dumps(obj, option=orjson.OPT_SORT_KEYS)).hexdigest()


def decode_answer(
    raw: bytes, max_bytes: int, limits: Limits | None = None, *, require_ids: bool = False
) -> Answer:
    """bytes -> Answer, or InputError with an `InputCode`."""
    return answer_from_obj(decode_json(raw, max_bytes), limits, require_ids=require_ids)


def encode(event: dict[str, Any]) -> bytes:
    """The event as compact JSON, in a right-sized bytes object.

    orjson (3.13) returns its whole output buffer: a 1.3 KB verdict event keeps about 16 KB
    allocated. A batch holds its encoded outputs until the broker has acknowledged them, so
    500 answers held ~45 MB; copying each out (well under a microsecond) holds ~4 MB."""
    return bytes(memoryview(orjson.dumps(event)))
