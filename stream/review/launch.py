"""Run the review server: topics, producer, queue feed, store and web server, until stopped."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from pathlib import Path

from aiokafka import AIOKafkaProducer

from stream.corpus.store import open_store
from stream.kafka.clients import (
    bootstrap_servers,
    create_topics,
    producer_kwargs,
    security_kwargs,
    send_all,
)
from stream.review.auth import TokenFile
from stream.review.feed import Handler, RecordFetcher, TopicFeed
from stream.review.metrics import ReviewMetrics
from stream.review.queue import ReviewQueue
from stream.review.release import ReleaseKeeper, scanner
from stream.review.server import ReviewService, make_app, serve
from stream.secret import redact_url
from stream.settings import Settings
from stream.stage import OutRecord

log = logging.getLogger("citegate.review")


async def run_review(settings: Settings, stop: asyncio.Event | None = None) -> int:
    """Serve until SIGINT/SIGTERM (or `stop`); 0 on a clean stop. Whatever was started is
    stopped again, whichever step fails."""
    tokens = TokenFile(Path(settings.review_tokens_file))
    bootstrap = bootstrap_servers(settings.broker)
    topics = [
        settings.topic_decisions,
        settings.topic_verdicts,
        settings.topic_reviews,
        settings.topic_released,
    ]
    await create_topics(bootstrap, topics, settings.partitions, **security_kwargs(settings))
    async with contextlib.AsyncExitStack() as cleanup:
        producer = AIOKafkaProducer(**producer_kwargs(settings, bootstrap))
        cleanup.push_async_callback(producer.stop)
        await producer.start()
        store = open_store(settings.store)
        cleanup.push_async_callback(store.close)
        fetcher = RecordFetcher(settings, bootstrap)
        cleanup.push_async_callback(fetcher.stop)

        async def publish(records: list[OutRecord]) -> None:
            await send_all(producer, records)

        service = ReviewService(
            settings=settings,
            queue=ReviewQueue(),
            tokens=tokens,
            publish=publish,
            fetch_answer=fetcher.for_decision,
            store=store,
            metrics=ReviewMetrics(label_cap=settings.label_cap),
        )
        feed = TopicFeed(settings, bootstrap, topics, service.on_event)
        stop = stop or asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, stop.set)
        feed_task = asyncio.create_task(feed.run(), name="review-feed")
        cleanup.push_async_callback(_cancel, feed_task)

        async def read(names: list[str], handler: Handler) -> None:
            await TopicFeed(settings, bootstrap, names, handler).run(follow=False)

        assert service.releaser is not None
        # Ready (/readyz, review metrics) once caught up *and* the releases owed are sent.
        keeper = ReleaseKeeper(
            service.releaser, feed.caught_up, scanner(read, settings), service.caught_up.set
        )
        keeper_task = asyncio.create_task(keeper.run(), name="review-releases")
        cleanup.push_async_callback(_cancel, keeper_task)
        runner = await serve(make_app(service), settings.review_host, settings.review_port)
        cleanup.push_async_callback(runner.cleanup)
        log.info(
            "citegate review on http://%s:%d/ (store %s, %d reviewers)",
            settings.review_host,
            settings.review_port,
            redact_url(settings.store),
            len(tokens),
        )
        stopper = asyncio.create_task(stop.wait())
        cleanup.push_async_callback(_cancel, stopper)
        done, _ = await asyncio.wait(
            {feed_task, keeper_task, stopper}, return_when=asyncio.FIRST_COMPLETED
        )
        for task in (feed_task, keeper_task):
            if task in done:
                task.result()  # the feed or the release keeper died: surface why
                return 1
        return 0
    raise AssertionError("unreachable")  # pragma: no cover - the block always returns


async def _cancel(task: asyncio.Task[object]) -> None:
    """Stop a task still running; a finished one has already reported how it ended."""
    if task.done():
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
