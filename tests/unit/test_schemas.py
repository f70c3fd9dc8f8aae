"""Every event the code produces validates against its published JSON Schema."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from stream.codec import SCHEMA_FILES, answer_from_obj, load_schema, schema_error, validator
from stream.events import Envelope, Source, dead_letter_event, decision_event, verify_report
from stream.verify.checkers import RulesChecker
from stream.verify.citations import DocumentSnapshot
from stream.verify.pipeline import verify_answer
from tests.conftest import load

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"


@pytest.mark.parametrize("name", sorted(SCHEMA_FILES))
def test_schemas_are_valid_draft_2020_12(name: str) -> None:
    schema = load_schema(name)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert (SCHEMAS / SCHEMA_FILES[name]).exists()


def outputs(payload: dict[str, Any], docs: DocumentSnapshot, env: Envelope) -> dict[str, Any]:
    result = verify_answer(answer_from_obj(payload), docs, RulesChecker())
    return verify_report(result, RulesChecker().ref, env)


@pytest.mark.parametrize(
    "env",
    [
        Envelope(mode="offline"),
        Envelope(Source("rag.answers", 3, 42), None, 0.01, "live"),
        Envelope(Source("rag.answers", 0, 1), "r1", 0.2, "replay"),
    ],
)
def test_verdicts_and_decisions_match_their_schemas(
    seed000_answer: dict[str, Any],
    seed000_docs: DocumentSnapshot,
    seed001_answer: dict[str, Any],
    env: Envelope,
) -> None:
    fixed = json.loads(json.dumps(seed000_answer))
    fixed["citations"][0].update(start=25, end=80)
    bad_ids = json.loads(json.dumps(fixed))
    bad_ids["claims"][0]["citation_ids"] = ["q1", "nope"]
    for payload in (seed000_answer, fixed, seed001_answer, bad_ids):
        report = outputs(payload, seed000_docs, env)
        assert report["verdicts"]
        for v in report["verdicts"]:
            assert schema_error("claim-verdict", v) is None, v
        assert schema_error("decision", report["decision"]) is None


def test_dead_letters_match_their_schema() -> None:
    for raw in (b"\xff\xfe not utf8", b"{not json", "ünïcode".encode()):
        event = dead_letter_event("not_json", "bad", raw, Source("rag.answers", 0, 7), b"k")
        assert schema_error("dead-letter", event) is None


def test_answer_schema_accepts_both_forms_and_refuses_mixtures(
    seed000_answer: dict[str, Any], seed001_answer: dict[str, Any]
) -> None:
    assert schema_error("answer", seed000_answer) is None
    assert schema_error("answer", seed001_answer) is None
    mixed = {**seed000_answer, "sources": seed001_answer["sources"]}
    assert schema_error("answer", mixed) is not None
    assert schema_error("answer", {"answer": 5}) is not None
    bad_source = {"answer": "x [S1].", "sources": {"S1": {"title": "no text, no document"}}}
    assert schema_error("answer", bad_source) is not None
    assert validator("answer").is_valid({"answer": "plain text without markers."})


def test_decision_for_an_answer_with_no_claims() -> None:
    result = verify_answer(answer_from_obj({"answer": ""}), DocumentSnapshot(), RulesChecker())
    event = decision_event(result, RulesChecker().ref, Envelope())
    assert event["final_status"] == "reject"
    assert schema_error("decision", event) is None


def test_fixture_loader_sanity() -> None:
    assert load("seed000_documents.json")["retention-policy"]["version"] == "2026-01"


def test_the_worker_imports_the_python_validator_only_to_explain_a_refusal() -> None:
    """A worker whose answers pass the compiled check never loads jsonschema (2 MB of its
    memory); the first refused answer loads it and still gets the one-line explanation."""
    code = (
        "import sys\n"
        "import stream.worker.launch, stream.worker.loop\n"
        "from stream.codec import schema_error\n"
        "print('jsonschema' in sys.modules)\n"
        "print(schema_error('answer', {'answer_id': 'a'}))\n"
        "print('jsonschema' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    before, explained, after = out.stdout.strip().splitlines()
    assert before == "False"
    assert "required property" in explained
    assert after == "True"
