"""The cache the stream stage puts in front of a store.

Answers cite the same few documents over and over, so the stage must not ask the store once per
citation: document versions are kept in an LRU bounded by bytes of text, concurrent lookups of
one key share one store query, and misses are remembered briefly so a burst of answers citing a
missing document costs one query. Store outages are retried with backoff and then reported in
`DocumentSnapshot.unavailable` (never raised), so an answer is never lost and never accepted on
a corpus that could not be read. Nothing about an outage is cached: the next lookup asks again.

Each cached version keeps its `DocumentAnalysis` (`stream.verify.analysis`) beside it, so the
spans claims cite are analysed once per version rather than once per claim. The analysis grows
as claims need more spans; its bytes count towards the bound with the document's as they are
kept, and an analysis made by another analyser version is never handed out. Over the bound,
the least recently grown analyses are dropped before any document is evicted: a document costs
a store query to get back, an analysis only the work of its next claims.
"""

from __future__ import annotations

import asyncio
import enum
import logging
import sys
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Iterable
from typing import TypeVar, cast

from stream.corpus.store import DocumentStore
from stream.errors import CorpusUnavailableError, is_retriable
from stream.verify.analysis import DocumentAnalysis, analyse
from stream.verify.citations import DocumentSnapshot
from stream.verify.model import Document

log = logging.getLogger("citegate.corpus")
T = TypeVar("T")
MiB = 1024 * 1024
MAX_KEYS = 65536
"""Bound on remembered misses and versions lists (they are small, but ids come from events)."""

_COUNTERS = {
    "hit": "hits",
    "miss": "misses",
    "eviction": "evictions",
    "negative_hit": "negative_hits",
    "error": "errors",
    "coalesced": "coalesced",
}


class Outage(enum.Enum):
    UNAVAILABLE = "unavailable"


UNAVAILABLE = Outage.UNAVAILABLE


ENTRY_OVERHEAD = 400
"""Bytes per cached document besides its strings: the `Document` object, the cache's ordered
dict node, its key and value tuples, with the allocator's rounding."""


def document_bytes(doc: Document) -> int:
    """Memory one cached document holds, as the bound counts it: every string field as Python
    stores it (`sys.getsizeof`: 1, 2 or 4 bytes a character plus its header) and the entry's
    overhead. Counting UTF-8 text alone let the process hold about twice the bound."""
    fields = (
        doc.document_id,
        doc.version,
        doc.text,
        doc.sha256,
        doc.title,
        doc.url,
        doc.fetched_at,
    )
    return ENTRY_OVERHEAD + sum(sys.getsizeof(f) for f in fields if f is not None)


class _Entry:
    """One cached version: the document, its analysis, and the bytes of the document
    (`base`; the analysis's are `analysis.nbytes`)."""

    __slots__ = ("analysis", "base", "document")

    def __init__(self, document: Document, analysis: DocumentAnalysis, base: int):
        self.document = document
        self.analysis = analysis
        self.base = base


class CorpusCache:
    """Byte-bounded LRU with request coalescing, a negative cache and retries with backoff.

    Counters (`hits`, `misses`, `evictions`, `negative_hits`, `errors`, `coalesced`) are plain
    ints; `on_event(kind)` sees the same events as they happen, `on_lookup_seconds` the duration
    of every store call. `clock` (TTL) and `sleep` (backoff) are injectable for tests.
    """

    def __init__(
        self,
        store: DocumentStore,
        *,
        max_bytes: int = 256 * MiB,
        negative_ttl_s: float = 5.0,
        versions_ttl_s: float | None = None,
        retries: int = 3,
        backoff_s: float = 0.2,
        max_backoff_s: float = 5.0,
        timeout_s: float | None = None,
        breaker_s: float = 0.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        on_event: Callable[[str], None] | None = None,
        on_lookup_seconds: Callable[[float], None] | None = None,
    ) -> None:
        self.store = store
        self.max_bytes = max_bytes
        self.negative_ttl_s = negative_ttl_s
        # A versions list can grow when a new version is imported: keep it only briefly.
        self.versions_ttl_s = negative_ttl_s if versions_ttl_s is None else versions_ttl_s
        self.retries = max(1, retries)
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s
        self.timeout_s = timeout_s
        """Bound on one store call: a store that accepts and never answers is unavailable."""
        self.breaker_s = breaker_s
        """After a lookup found the store unavailable, further lookups fail fast for this long
        (then one tries again): a hanging store costs one timeout per window, not one per
        answer. 0 disables it."""
        self._open_until = float("-inf")
        self.on_event = on_event
        self.on_lookup_seconds = on_lookup_seconds
        self._clock = clock
        self._sleep = sleep
        self.hits = self.misses = self.evictions = self.negative_hits = 0
        self.errors = self.coalesced = 0
        self._docs: OrderedDict[tuple[str, str], _Entry] = OrderedDict()
        self._analysed: OrderedDict[tuple[str, str], None] = OrderedDict()
        """Entries whose analysis holds bytes, least recently grown first."""
        self._bytes = 0
        self._missing: OrderedDict[tuple[str, str], float] = OrderedDict()
        self._versions: OrderedDict[str, tuple[float, tuple[str, ...]]] = OrderedDict()
        self._inflight: dict[Hashable, asyncio.Task[object]] = {}

    @property
    def size_bytes(self) -> int:
        """Bytes of memory the cached documents hold right now (see `document_bytes`)."""
        return self._bytes

    def stats(self) -> dict[str, int]:
        counters = {attr: int(getattr(self, attr)) for attr in _COUNTERS.values()}
        analysed = sum(self._docs[k].analysis.nbytes for k in self._analysed)
        return {
            **counters,
            "bytes": self._bytes,
            "documents": len(self._docs),
            "analysis_bytes": analysed,
        }

    def _count(self, kind: str) -> None:
        attr = _COUNTERS[kind]
        setattr(self, attr, getattr(self, attr) + 1)
        if self.on_event is not None:
            try:
                self.on_event(kind)
            except Exception:
                log.exception("corpus cache on_event hook failed")

    def _observe(self, seconds: float) -> None:
        if self.on_lookup_seconds is not None:
            try:
                self.on_lookup_seconds(seconds)
            except Exception:
                log.exception("corpus cache on_lookup_seconds hook failed")

    # -- store calls: retries, coalescing ------------------------------------------------------

    async def _call(self, call: Callable[[], Awaitable[T]]) -> T:
        if self.timeout_s is None:
            return await call()
        try:
            return await asyncio.wait_for(call(), self.timeout_s)
        except TimeoutError:
            raise CorpusUnavailableError(
                f"corpus store did not answer within {self.timeout_s:g}s"
            ) from None

    async def _attempts(self, call: Callable[[], Awaitable[T]]) -> T | Outage:
        if self.breaker_s > 0 and self._clock() < self._open_until:
            self._count("error")  # still unavailable: answered at once, nothing cached
            return UNAVAILABLE
        result = await self._attempts_now(call)
        if result is UNAVAILABLE:
            self._open_until = self._clock() + self.breaker_s
        return result

    async def _attempts_now(self, call: Callable[[], Awaitable[T]]) -> T | Outage:
        delay = self.backoff_s
        for attempt in range(1, self.retries + 1):
            started = time.perf_counter()
            try:
                result = await self._call(call)
            except Exception as exc:
                self._observe(time.perf_counter() - started)
                self._count("error")
                if not is_retriable(exc):
                    # Not an outage, but an answer must still never be lost or accepted
                    # unchecked: its citations are reported unverifiable (manual review).
                    log.exception("corpus store lookup failed")
                    return UNAVAILABLE
                if attempt == self.retries:
                    log.warning("corpus store unavailable after %d attempts: %s", attempt, exc)
                    return UNAVAILABLE
                await self._sleep(delay)
                delay = min(delay * 2, self.max_backoff_s)
                continue
            self._observe(time.perf_counter() - started)
            return result
        return UNAVAILABLE

    async def _coalesced(self, key: Hashable, load: Callable[[], Awaitable[T]]) -> T:
        task = self._inflight.get(key)
        if task is None:
            self._count("miss")
            task = asyncio.ensure_future(load())
            self._inflight[key] = task

            def forget(done: asyncio.Task[object], key: Hashable = key) -> None:
                if self._inflight.get(key) is done:
                    del self._inflight[key]

            task.add_done_callback(forget)
        else:
            self._count("coalesced")
        # Shielded: one caller giving up must not cancel the query the others wait for.
        return cast(T, await asyncio.shield(task))

    # -- documents ----------------------------------------------------------------------------

    def _admit(self, key: tuple[str, str], doc: Document) -> None:
        size = document_bytes(doc)
        if size > self.max_bytes:
            return
        self._drop(key)
        self._docs[key] = _Entry(doc, self._fresh_analysis(key, doc), size)
        self._bytes += size
        self._evict()

    def _fresh_analysis(self, key: tuple[str, str], doc: Document) -> DocumentAnalysis:
        def grew(analysis: DocumentAnalysis, size: int) -> None:
            entry = self._docs.get(key)
            if entry is None or entry.analysis is not analysis:
                return  # evicted or dropped meanwhile: no longer the cache's memory
            self._bytes += size
            self._analysed[key] = None
            self._analysed.move_to_end(key)
            self._evict()

        return analyse(doc.text, on_grow=grew)

    def _drop(self, key: tuple[str, str]) -> None:
        entry = self._docs.pop(key, None)
        if entry is not None:
            self._bytes -= entry.base + entry.analysis.nbytes
            self._analysed.pop(key, None)

    def _evict(self) -> None:
        """Back under the bound: analyses first (least recently grown), then documents
        (least recently used)."""
        while self._bytes > self.max_bytes and self._analysed:
            key, _ = self._analysed.popitem(last=False)
            entry = self._docs[key]
            self._bytes -= entry.analysis.nbytes
            entry.analysis = self._fresh_analysis(key, entry.document)
        while self._bytes > self.max_bytes and self._docs:
            key = next(iter(self._docs))
            self._drop(key)
            self._count("eviction")

    def _fresh(self, expires: float) -> bool:
        return self._clock() < expires

    async def _load_doc(self, key: tuple[str, str]) -> Document | Outage | None:
        result = await self._attempts(lambda: self.store.get(*key))
        if result is None:
            self._missing[key] = self._clock() + self.negative_ttl_s
            self._missing.move_to_end(key)
            if len(self._missing) > MAX_KEYS:
                self._missing.popitem(last=False)
        elif isinstance(result, Document):
            self._missing.pop(key, None)
            self._admit(key, result)
        return result

    def _hit(self, key: tuple[str, str]) -> Document | None:
        """The document if it is in memory (counted as a hit), else None (ask `get`)."""
        cached = self._docs.get(key)
        if cached is None:
            return None
        self._docs.move_to_end(key)
        self._count("hit")
        if not cached.analysis.is_current:
            self._bytes -= cached.analysis.nbytes
            self._analysed.pop(key, None)
            cached.analysis = self._fresh_analysis(key, cached.document)
        return cached.document

    def analysis(self, document: Document) -> DocumentAnalysis:
        """The kept analysis of a cached document version, or a fresh one for a version not
        kept (larger than the bound, or already evicted): it is then analysed per use."""
        cached = self._docs.get((document.document_id, document.version))
        if cached is None or cached.document is not document:
            return analyse(document.text)
        return cached.analysis

    async def get(self, document_id: str, version: str) -> Document | Outage | None:
        """One document version: from memory, or one (shared) store query."""
        key = (document_id, version)
        hit = self._hit(key)
        if hit is not None:
            return hit
        expires = self._missing.get(key)
        if expires is not None:
            if self._fresh(expires):
                self._count("negative_hit")
                return None
            del self._missing[key]
        return await self._coalesced(("doc", *key), lambda: self._load_doc(key))

    # -- versions lists -----------------------------------------------------------------------

    async def _load_versions(self, document_id: str) -> tuple[str, ...] | Outage:
        result = await self._attempts(lambda: self.store.versions(document_id))
        if not isinstance(result, Outage):
            ttl = self.versions_ttl_s if result else self.negative_ttl_s
            self._versions[document_id] = (self._clock() + ttl, result)
            self._versions.move_to_end(document_id)
            if len(self._versions) > MAX_KEYS:
                self._versions.popitem(last=False)
        return result

    async def versions(self, document_id: str) -> tuple[str, ...] | Outage:
        """Every version of a document (oldest first), remembered for a few seconds."""
        cached = self._versions.get(document_id)
        if cached is not None:
            expires, versions = cached
            if self._fresh(expires):
                self._count("hit" if versions else "negative_hit")
                return versions
            del self._versions[document_id]
        return await self._coalesced(
            ("versions", document_id), lambda: self._load_versions(document_id)
        )

    # -- what callers use ---------------------------------------------------------------------

    async def snapshot(self, refs: Iterable[tuple[str, str | None]]) -> DocumentSnapshot:
        """The documents one answer cites; outages land in `unavailable`, never raise.

        `versions[id]` is the full versions list only for ids whose cited version is missing
        (or None), which is when the checks need it to tell `document_missing` from
        `document_version_mismatch`; otherwise it holds the cited versions that were found.
        """
        wanted: dict[str, set[str | None]] = {}
        for document_id, version in refs:
            wanted.setdefault(document_id, set()).add(version)
        keys = sorted((i, v) for i, vs in wanted.items() for v in vs if v is not None)
        # Fast path: documents in memory are read without a task each; only misses wait.
        results: list[Document | Outage | None] = [self._hit(key) for key in keys]
        misses = [n for n, r in enumerate(results) if r is None]
        if misses:
            loaded = await asyncio.gather(*(self.get(*keys[n]) for n in misses))
            for n, result in zip(misses, loaded, strict=True):
                results[n] = result
        documents: dict[tuple[str, str], Document] = {}
        unavailable: set[str] = set()
        need = {i for i, vs in wanted.items() if None in vs}
        for key, result in zip(keys, results, strict=True):
            if isinstance(result, Document):
                documents[key] = result
            elif result is None:
                need.add(key[0])
            else:
                unavailable.add(key[0])
        ids = sorted(need - unavailable)
        listed = await asyncio.gather(*(self.versions(i) for i in ids))
        versions: dict[str, tuple[str, ...]] = {}
        for document_id, listing in zip(ids, listed, strict=True):
            if isinstance(listing, Outage):
                unavailable.add(document_id)
            else:
                versions[document_id] = listing
        for document_id, version in documents:
            have = versions.get(document_id, ())
            if version not in have:  # found, so it exists even if the list was stale
                versions[document_id] = (*have, version)
        documents = {k: d for k, d in documents.items() if k[0] not in unavailable}
        versions = {k: v for k, v in versions.items() if k not in unavailable}
        analyses = {k: self.analysis(d) for k, d in documents.items()}
        return DocumentSnapshot(documents, versions, frozenset(unavailable), analyses)

    async def latest(self, document_id: str) -> Document | None:
        """The newest version (for replay); raises `CorpusUnavailableError` after the retries."""
        versions = await self.versions(document_id)
        if isinstance(versions, Outage):
            raise CorpusUnavailableError(f"corpus store unavailable for {document_id!r}")
        if not versions:
            return None
        doc = await self.get(document_id, versions[-1])
        if isinstance(doc, Outage):
            raise CorpusUnavailableError(f"corpus store unavailable for {document_id!r}")
        return doc
