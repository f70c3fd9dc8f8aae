"""Corpus access for offline commands: load everything a source holds into a snapshot."""

from __future__ import annotations

from collections.abc import Iterable

from stream.corpus.jsonfile import iter_documents
from stream.verify.citations import DocumentSnapshot


def snapshot_from_source(
    src: str, refs: Iterable[tuple[str, str | None]] | None = None
) -> DocumentSnapshot:
    """A snapshot of the corpus at `src` (any store URL) for offline commands.

    A documents.json / JSONL file (plain path or `file://`) is loaded whole, as before, and
    `refs` is not needed. A database store cannot be loaded whole, so `refs` — the
    (document_id, version) pairs the answers cite — is required; the store is pinged first
    (unreachable → `CorpusUnavailableError`), then lookups go through `CorpusCache`, so an
    outage during the run marks documents unavailable instead of failing it. Synchronous: runs
    its own event loop, so call it from synchronous code only.
    """
    import asyncio

    from stream.corpus.cache import CorpusCache
    from stream.corpus.filestore import FileStore
    from stream.corpus.store import open_store
    from stream.errors import UsageError
    from stream.secret import redact_url

    store = open_store(src, create=False)
    if isinstance(store, FileStore):
        return DocumentSnapshot.of(list(iter_documents(store.path)))
    if refs is None:
        raise UsageError(
            f"corpus {redact_url(src)} is a database store: documents are looked up per "
            "citation, so the cited (document_id, version) pairs are required"
        )
    wanted = list(refs)

    async def load() -> DocumentSnapshot:
        try:
            await store.ping()
            return await CorpusCache(store).snapshot(wanted)
        finally:
            await store.close()

    return asyncio.run(load())
