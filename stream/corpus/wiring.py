"""The corpus cache as the worker and replay configure it: from settings, reporting to metrics."""

from __future__ import annotations

from stream.corpus.cache import CorpusCache
from stream.corpus.store import DocumentStore
from stream.metrics import Metrics
from stream.settings import Settings


def corpus_cache(store: DocumentStore, settings: Settings, metrics: Metrics) -> CorpusCache:
    return CorpusCache(
        store,
        max_bytes=settings.cache_bytes,
        negative_ttl_s=settings.negative_cache_s,
        retries=settings.corpus_retries,
        backoff_s=settings.corpus_backoff_s,
        timeout_s=settings.corpus_timeout_s,
        breaker_s=settings.corpus_breaker_s,
        on_event=metrics.cache_event,
        on_lookup_seconds=metrics.corpus_lookup_seconds,
    )
