"""Shared fixtures: small hand-written documents and answers (never the eval data)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from stream.verify.citations import DocumentSnapshot, sha256_hex
from stream.verify.model import Document

FIXTURES = Path(__file__).parent / "fixtures"


def load(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text("utf-8"))


@pytest.fixture
def seed000_docs() -> DocumentSnapshot:
    raw = load("seed000_documents.json")
    docs = [Document(k, v["version"], v["text"], sha256_hex(v["text"])) for k, v in raw.items()]
    return DocumentSnapshot.of(docs)


@pytest.fixture
def seed000_answer() -> dict[str, Any]:
    return load("seed000_response.json")


@pytest.fixture
def seed001_answer() -> dict[str, Any]:
    return load("seed001_answer.json")
