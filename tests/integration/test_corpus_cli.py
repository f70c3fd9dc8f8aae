"""`citegate corpus import|get|versions` as a user runs them: subprocesses on a SQLite store."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from stream.verify.citations import sha256_hex

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
TEXT = "Журнал хранится 30 дней. 日志保留30天。 Emoji 😀 𠀋."


def run(
    *args: str, store: str | None = None, env_store: str | None = None
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CITEGATE_STORE"}
    env["PYTHONIOENCODING"] = "utf-8"
    if env_store is not None:
        env["CITEGATE_STORE"] = env_store
    argv = [sys.executable, "-m", "stream.cli", "corpus", *args]
    if store is not None:
        argv += ["--store", store]
    return subprocess.run(
        argv,
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )


def write_jsonl(path: Path, rows: list[dict[str, str]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return path


@pytest.fixture
def store(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/db/corpus.db"


@pytest.fixture
def documents(tmp_path: Path) -> Path:
    path = tmp_path / "documents.json"
    body = {
        "retention": [
            {"version": "v1", "text": TEXT, "title": "Retention", "url": "https://example.test/r"},
            {"version": "v2", "text": "Logs are kept 14 days."},
        ],
        "pricing": {"version": "2026-01", "text": "Plans start at 10 EUR."},
    }
    path.write_text(json.dumps(body, ensure_ascii=False), "utf-8")
    return path


def test_import_get_versions(store: str, documents: Path) -> None:
    first = run("import", str(documents), store=store)
    assert (first.returncode, first.stdout, first.stderr) == (0, "imported 3, unchanged 0\n", "")
    again = run("import", str(documents), store=store)
    assert (again.returncode, again.stdout) == (0, "imported 0, unchanged 3\n")

    got = run("get", "retention", "v1", store=store)
    assert got.returncode == 0, got.stderr
    body = json.loads(got.stdout)
    assert list(body) == ["document_id", "version", "sha256", "title", "url", "fetched_at", "text"]
    assert body["text"] == TEXT
    assert body["sha256"] == sha256_hex(TEXT)
    assert body["title"] == "Retention"
    assert body["fetched_at"] is None

    versions = run("versions", "retention", store=store)
    assert (versions.returncode, versions.stdout) == (0, "v1\nv2\n")


def test_missing_document_exits_1_with_one_line(store: str, documents: Path) -> None:
    assert run("import", str(documents), store=store).returncode == 0
    for args in (("get", "retention", "v9"), ("get", "nope", "v1"), ("versions", "nope")):
        result = run(*args, store=store)
        assert result.returncode == 1
        assert result.stdout == ""
        assert len(result.stderr.splitlines()) == 1
        assert "nope" in result.stderr or "v9" in result.stderr


def test_immutability_conflict_exits_2_and_imports_nothing(
    store: str, documents: Path, tmp_path: Path
) -> None:
    assert run("import", str(documents), store=store).returncode == 0
    conflicting = write_jsonl(
        tmp_path / "changed.jsonl",
        [
            {"document_id": "brand-new", "version": "1", "text": "would be imported"},
            {"document_id": "retention", "version": "v2", "text": "Logs are kept 7 days."},
        ],
    )
    result = run("import", str(conflicting), store=store)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert "'retention'" in lines[0]
    assert "'v2'" in lines[0]
    assert run("versions", "brand-new", store=store).returncode == 1
    assert json.loads(run("get", "retention", "v2", store=store).stdout)["text"] == (
        "Logs are kept 14 days."
    )


def test_store_comes_from_the_environment(tmp_path: Path, documents: Path) -> None:
    env_store = f"sqlite:///{tmp_path}/from-env.db"
    result = run("import", str(documents), env_store=env_store)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "from-env.db").is_file()
    assert run("versions", "pricing", env_store=env_store).stdout == "2026-01\n"


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("get", "a", "1", "--store", "redis://localhost/0"), "unknown corpus store scheme"),
        (("import", "does-not-exist.json", "--store", "sqlite:///:memory:"), "cannot read"),
        (
            (
                "import",
                "tests/fixtures/seed000_documents.json",
                "--store",
                "tests/fixtures/seed000_documents.json",
            ),
            "read-only store",
        ),
    ],
)
def test_usage_and_input_errors_exit_2_with_one_line(args: tuple[str, ...], needle: str) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert needle in result.stderr
    assert "Traceback" not in result.stderr


def test_file_store_can_be_read(documents: Path) -> None:
    result = run("versions", "retention", store=str(documents))
    assert (result.returncode, result.stdout) == (0, "v1\nv2\n")
