"""`citegate corpus import` reads JSONL, JSON arrays and JSON objects keyed by document id."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from stream.corpus.jsonfile import iter_documents
from stream.errors import InputError

DOCS = [
    {"document_id": "policy", "version": "1", "text": "Logs are kept 30 days.", "title": "P"},
    {"document_id": "policy", "version": "2", "text": "Logs are kept 60 days."},
    {"document_id": "faq", "version": "2026-01", "text": "常见问题。"},
]


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def _shapes(tmp_path: Path) -> dict[str, Path]:
    keyed: dict[str, list[dict[str, str]]] = {}
    for d in DOCS:
        keyed.setdefault(d["document_id"], []).append(
            {k: v for k, v in d.items() if k != "document_id"}
        )
    return {
        "jsonl": _write(tmp_path, "a.jsonl", b"\n".join(orjson.dumps(d) for d in DOCS)),
        "array": _write(tmp_path, "b.json", orjson.dumps(DOCS, option=orjson.OPT_INDENT_2)),
        "keyed": _write(tmp_path, "c.json", orjson.dumps(keyed, option=orjson.OPT_INDENT_2)),
    }


@pytest.mark.parametrize("shape", ["jsonl", "array", "keyed"])
def test_every_shape_yields_the_same_documents(tmp_path: Path, shape: str) -> None:
    docs = list(iter_documents(_shapes(tmp_path)[shape]))
    assert [(d.document_id, d.version, d.text) for d in docs] == [
        (d["document_id"], d["version"], d["text"]) for d in DOCS
    ]
    assert docs[0].title == "P"


def test_a_single_pretty_printed_document_is_one_document(tmp_path: Path) -> None:
    path = _write(tmp_path, "one.json", orjson.dumps(DOCS[0], option=orjson.OPT_INDENT_2))
    assert [d.document_id for d in iter_documents(path)] == ["policy"]


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        (b"[1, 2]", "b.json[0]: expected a document object"),
        (b'"just a string"', "expected JSONL"),
        (b"[{]", "not JSON"),
        (b'{"document_id": "x", "version": "1", "text": "t"}\nnot json\n', "b.json:2: not JSON"),
        (b'[{"document_id": "x", "text": "t"}]', "needs string 'version' and 'text'"),
    ],
)
def test_bad_files_say_which_shapes_are_accepted(tmp_path: Path, data: bytes, needle: str) -> None:
    path = _write(tmp_path, "b.json", data)
    with pytest.raises(InputError) as info:
        list(iter_documents(path))
    assert needle in info.value.message
    assert "\n" not in info.value.message
