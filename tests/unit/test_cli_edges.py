"""CLI edges: each is one `citegate: error:` line and exit 2 (or the right output), never a
traceback; the offline limits are the worker's; read-only commands create nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from stream.errors import UsageError
from stream.kafka.embedded import find_free_port
from stream.settings import Settings
from tests.conftest import FIXTURES, load
from tests.unit.test_cli_verify import one_line_error

SEED_DOCS = str(FIXTURES / "seed000_documents.json")


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("CITEGATE_")}
    return subprocess.run(
        [sys.executable, "-m", "stream.cli", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**base, **(env or {})},
    )


def no_broker() -> str:
    return f"kafka://127.0.0.1:{find_free_port()}"


def test_verify_of_an_empty_file_is_an_error(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    assert "no answers" in one_line_error(cli("verify", str(empty)))
    arr = tmp_path / "arr.json"
    arr.write_text("[]")
    assert "no answers" in one_line_error(cli("verify", str(arr)))


def test_invalid_utf8_says_utf8(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"answer": "\xff\xfe"}')
    line = one_line_error(cli("verify", str(bad)))
    assert "UTF-8" in line
    assert "surrogates" not in line


def test_offline_verify_applies_the_workers_size_limits(tmp_path: Path) -> None:
    answer = load("seed000_response.json")
    answer["answer"] += " " + "x" * 5000
    path = tmp_path / "big.json"
    path.write_text(json.dumps(answer))
    line = one_line_error(cli("verify", str(path), env={"CITEGATE_MAX_EVENT_BYTES": "4096"}))
    assert "limit is 4096" in line
    many = load("seed000_response.json")
    many["claims"] = [{"id": f"c{i}", "text": "x", "citation_ids": []} for i in range(5)]
    path.write_text(json.dumps(many))
    assert "limit of 3" in one_line_error(
        cli("verify", str(path), env={"CITEGATE_MAX_CLAIMS": "3"})
    )


def test_a_float_offset_with_no_fraction_is_that_offset(tmp_path: Path) -> None:
    answer = load("seed000_response.json")
    answer["citations"][0].update(start=25.0, end=80.0)
    path = tmp_path / "a.json"
    path.write_text(json.dumps(answer, ensure_ascii=False))
    proc = cli("verify", str(path), "--corpus", SEED_DOCS, "--format", "json")
    assert "start and end are required" not in proc.stdout
    report = json.loads(proc.stdout)
    assert report["ok"] is True, report["errors"]


def test_a_typo_in_a_sqlite_corpus_creates_nothing(tmp_path: Path) -> None:
    typo = tmp_path / "typo.db"
    answer = FIXTURES / "seed000_response.json"
    line = one_line_error(cli("verify", str(answer), "--corpus", f"sqlite:///{typo}"))
    assert "no SQLite corpus" in line
    assert "no SQLite corpus" in one_line_error(
        cli("corpus", "versions", "x", "--store", f"sqlite:///{typo}")
    )
    assert not typo.exists()


def test_a_bad_store_port_is_one_line_without_the_password() -> None:
    url = "postgresql://reader:hunter2-pw@127.0.0.1:notaport/db"
    line = one_line_error(cli("corpus", "versions", "x", "--store", url))
    assert "bad port" in line
    assert "hunter2-pw" not in line


def test_produce_replay_and_tail_without_a_broker_are_one_line(tmp_path: Path) -> None:
    events = tmp_path / "a.jsonl"
    events.write_text(json.dumps(load("seed000_response.json")) + "\n")
    assert "broker unavailable" in one_line_error(
        cli("produce", str(events), "--broker", no_broker())
    )
    assert "broker unavailable" in one_line_error(
        cli("tail", "rag.answers", "--broker", no_broker())
    )
    assert "broker unavailable" in one_line_error(
        cli("replay", "--broker", no_broker(), "--replay-id", "r1", "--store", SEED_DOCS)
    )


def test_produce_of_a_file_larger_than_a_request_is_one_line(tmp_path: Path) -> None:
    big = tmp_path / "big.jsonl"
    big.write_text(json.dumps({"answer": "x" * (20 * 1024 * 1024)}) + "\n")
    assert "at most" in one_line_error(cli("produce", str(big), "--broker", no_broker()))


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("CITEGATE_BATCH_MAX_RECORDS", "0"),
        ("CITEGATE_SESSION_TIMEOUT_MS", "-1"),
        ("CITEGATE_DEDUP_WINDOW_S", "0"),
        ("CITEGATE_CORPUS_TIMEOUT_S", "-2"),
        ("CITEGATE_NEGATIVE_CACHE_S", "-1"),
        ("CITEGATE_CORPUS_BACKOFF_S", "-0.5"),
        ("CITEGATE_STALL_S", "0"),
        ("CITEGATE_RESTORE_TIMEOUT_S", "nan"),
        ("CITEGATE_LLM_TIMEOUT_S", "-1"),
    ],
)
def test_settings_reject_zero_and_negative_sizes_timeouts_and_windows(
    name: str, value: str
) -> None:
    with pytest.raises(UsageError):
        Settings.from_env({name: value})
