"""Corpus access for offline commands: load everything a source holds into a snapshot."""

from __future__ import annotations

from stream.corpus.jsonfile import iter_documents
from stream.verify.citations import DocumentSnapshot


def snapshot_from_source(src: str) -> DocumentSnapshot:
    """A snapshot of a file corpus (documents.json / JSONL); stores come with the stream stage."""
    return DocumentSnapshot.of(list(iter_documents(src)))
