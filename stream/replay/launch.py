"""Wiring for `citegate replay`: store, cache, checker and Kafka settings around `Replay`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from aiokafka.errors import KafkaError
from prometheus_client import start_http_server

from stream.checkers.factory import make_checker
from stream.corpus.store import open_store
from stream.corpus.wiring import corpus_cache
from stream.errors import UsageError
from stream.kafka.clients import (
    bootstrap_servers,
    broker_error,
    consumer_kwargs,
    create_topics,
    producer_kwargs,
    security_kwargs,
)
from stream.metrics import Metrics
from stream.replay.engine import Plan, Replay
from stream.replay.report import ReplayReport
from stream.settings import Settings
from stream.verify.align import warm


async def run_replay(
    settings: Settings,
    *,
    replay_id: str,
    output_topic: str,
    rebase: str | None,
    checker_spec: str | None,
    since_ms: int | None,
    until_ms: int | None,
    offsets: dict[int, tuple[int, int | None]] | None,
    checkpoint: Path,
    report: Path,
    limit: int | None,
    batch_size: int,
    progress: Callable[[int, int | None], None] | None = None,
    metrics_port: int | None = None,
) -> ReplayReport:
    if settings.broker == "embedded":
        raise UsageError("replay reads an existing broker: pass --broker kafka://host:port")
    live = {
        settings.topic_answers,
        settings.topic_verdicts,
        settings.topic_decisions,
        settings.topic_dlq,
    }
    if output_topic in live:
        raise UsageError(
            f"--output-topic {output_topic!r} is a live topic; replays never write there"
        )
    bootstrap = bootstrap_servers(settings.broker)
    metrics = Metrics(label_cap=settings.label_cap)
    if metrics_port is not None:
        # Replay metrics carry mode="replay", so dashboards keep them apart from live traffic.
        start_http_server(metrics_port, addr=settings.web_host, registry=metrics.registry)
    store = open_store(settings.store, create=False)
    cache = corpus_cache(store, settings, metrics)
    checker = make_checker(checker_spec or settings.checker, settings, metrics)
    warm()
    plan = Plan(
        replay_id=replay_id,
        output_topic=output_topic,
        rebase=rebase,
        since_ms=since_ms,
        until_ms=until_ms,
        offsets=offsets,
        checkpoint=checkpoint,
        report=report,
        limit=limit,
        batch_size=batch_size,
    )

    try:
        await create_topics(
            bootstrap, [output_topic], settings.partitions, **security_kwargs(settings)
        )
    except (KafkaError, OSError) as exc:
        await store.close()
        await checker.close()
        raise broker_error(exc) from None
    replay = Replay(
        settings,
        consumer_kwargs(settings, bootstrap),
        producer_kwargs(settings, bootstrap),
        cache,
        checker,
        metrics,
        plan,
    )
    try:
        result = await replay.run(progress)
    except (KafkaError, OSError) as exc:
        raise broker_error(exc) from None
    finally:
        await checker.close()
        await store.close()
    result.write(report)
    return result
