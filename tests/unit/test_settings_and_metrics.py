"""One settings object declares every CITEGATE_* variable; metrics cap their label values."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest
from prometheus_client import CollectorRegistry, generate_latest

from stream.errors import UsageError
from stream.metrics import OTHER, VERSION_LABELS, LabelCap, Metrics
from stream.secret import Secret
from stream.settings import Settings, env_table
from stream.verify.checkers import RulesChecker
from stream.verify.citations import DocumentSnapshot
from stream.verify.model import Ref
from stream.verify.parse import parse_answer
from stream.verify.pipeline import verify_answer

ROOT = Path(__file__).resolve().parents[2]


def test_every_citegate_variable_used_in_code_is_declared_once() -> None:
    declared = [f.metadata["env"] for f in fields(Settings)]
    assert len(declared) == len(set(declared))
    used = set()
    for path in (ROOT / "stream").rglob("*.py"):
        used |= set(re.findall(r"CITEGATE_[A-Z0-9_]+", path.read_text("utf-8")))
    test_only = {"CITEGATE_TEST_BROKER", "CITEGATE_TEST_POSTGRES_DSN", "CITEGATE_TEST_MODEL"}
    assert used - set(declared) - test_only == set()


@pytest.mark.parametrize("field", list(fields(Settings)), ids=lambda f: f.name)
def test_each_variable_is_parsed(field: object) -> None:
    f = field
    env_name = f.metadata["env"]  # type: ignore[attr-defined]
    name = f.name  # type: ignore[attr-defined]
    default = getattr(Settings(), name)
    samples = {int: "7", float: "0.5", bool: "true", frozenset: "legal,Medical", tuple: "0.25,0.75"}
    raw = next(
        (
            v
            for t, v in samples.items()
            if isinstance(default, t) and not (t is int and isinstance(default, bool))
        ),
        "custom-value",
    )
    if isinstance(default, bool):
        raw = "true"
    settings = Settings.from_env({env_name: raw})
    value = getattr(settings, name)
    if isinstance(default, bool):
        assert value is True
    elif isinstance(default, frozenset):
        assert value == frozenset({"legal", "medical"})
    elif isinstance(default, tuple):
        assert value == (0.25, 0.75)
    elif isinstance(default, int):
        assert value == 7
    elif isinstance(default, float):
        assert value == 0.5
    elif isinstance(value, Secret):
        assert value.reveal() == "custom-value"
    else:
        assert value == "custom-value"


def test_bad_values_are_usage_errors_and_flags_win() -> None:
    with pytest.raises(UsageError, match="CITEGATE_PARTITIONS"):
        Settings.from_env({"CITEGATE_PARTITIONS": "many"})
    with pytest.raises(UsageError):
        Settings.from_env({"CITEGATE_MAX_CLAIMS": "0"})
    assert Settings.from_env({"CITEGATE_PARTITIONS": "8"}, partitions=2).partitions == 2


def test_secrets_are_redacted() -> None:
    s = Settings.from_env({"CITEGATE_SASL_PASSWORD": "hunter2"})
    assert s.sasl_password is not None
    assert s.sasl_password.reveal() == "hunter2"
    assert "hunter2" not in repr(s.redacted())
    assert "hunter2" not in repr(s)
    assert all(row[0].startswith("CITEGATE_") for row in env_table())


def test_label_cap_sends_newcomers_to_other() -> None:
    cap = LabelCap(3)
    assert [cap("generator", v) for v in ["a", "b", "c", "d", "a", "e"]] == [
        "a",
        "b",
        "c",
        OTHER,
        "a",
        OTHER,
    ]
    assert cap("retriever", "x") == "x"


def test_metrics_carry_all_eight_version_labels_and_cap_them() -> None:
    registry = CollectorRegistry()
    metrics = Metrics(registry, label_cap=2)
    docs = DocumentSnapshot()
    for i in range(4):
        answer = parse_answer(
            {
                "answer": "Nothing cited here.",
                "generator": {"name": f"gen-{i}", "version": "1"},
                "corpus": {"id": "kb", "version": "2026"},
            }
        )
        result = verify_answer(answer, docs, RulesChecker())
        metrics.observe_result(result, Ref("rules", "rules-1.0"), "live", 0.01)
    text = generate_latest(registry).decode()
    line = next(x for x in text.splitlines() if x.startswith("citegate_answers_total{"))
    for label in VERSION_LABELS:
        assert f'{label}="' in line
    generators = set(re.findall(r'citegate_answers_total\{[^}]*generator="([^"]+)"', text))
    assert generators == {"gen-0", "gen-1", OTHER}
    assert "citegate_claims_without_citation_total{" in text


def test_configuration_doc_lists_every_variable_with_its_default() -> None:
    text = (ROOT / "docs" / "configuration.md").read_text("utf-8")
    rows = {
        m.group(1): m.group(2).strip()
        for m in re.finditer(r"^\| `(CITEGATE_[A-Z0-9_]+)` \|([^|]*)\|", text, re.M)
    }
    declared = env_table()
    assert set(rows) == {name for name, _default, _meaning in declared}
    for name, default, _meaning in declared:
        assert rows[name] == (f"`{default}`" if default else ""), name
