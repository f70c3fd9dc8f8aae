"""The Faust app: worker lifecycle, the web endpoints, and the stage service.

Faust hosts the worker (signals, logging, start/stop ordering, the web server for `/metrics`,
`/healthz`, `/readyz`). The per-answer hot path is a plain aiokafka batch loop owned by a Faust
service: measured on the embedded broker, a Faust agent that awaits each delivery moved ~970
events/s and the batch loop ~25,800 — and the loop's commits are explicit, after the outputs
are acknowledged, which is what at-least-once needs.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from typing import Any

import faust
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition
from aiokafka.errors import KafkaError
from mode import Service

from stream.checkers.base import AsyncChecker
from stream.checkers.factory import make_checker
from stream.corpus.store import DocumentStore, open_store
from stream.corpus.wiring import corpus_cache
from stream.errors import CitegateError, CorpusUnavailableError
from stream.kafka.clients import (
    broker_error,
    consumer_kwargs,
    create_topics,
    groupless,
    producer_kwargs,
    security_kwargs,
)
from stream.metrics import Metrics, exposition
from stream.settings import Settings
from stream.stage import Stage
from stream.tracing import Tracing, tier_wrapper
from stream.tracing import setup as setup_tracing
from stream.verify.align import warm
from stream.worker.dedup import SeenEvents, SeenLog
from stream.worker.loop import GroupWatch, StageLoop

log = logging.getLogger("citegate.app")


STOP_TIMEOUT_S = 5.0


def seen_topic(settings: Settings) -> str:
    return f"{settings.group_id}.seen-events"


def topic_specs(settings: Settings) -> list[tuple[str, dict[str, str]]]:
    """Every topic the worker needs, with the configs a real cluster should apply."""
    window_ms = str(max(settings.dedup_window_s * 2000, 3_600_000))
    return [
        (settings.topic_answers, {}),
        (settings.topic_verdicts, {}),
        (settings.topic_decisions, {}),
        (settings.topic_dlq, {}),
        (settings.topic_released, {}),
        (seen_topic(settings), {"cleanup.policy": "compact,delete", "retention.ms": window_ms}),
    ]


class StageService(Service):
    """Starts store, cache, Kafka clients and the duplicate index, then runs the loop."""

    def __init__(
        self, settings: Settings, bootstrap: list[str], metrics: Metrics, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.settings = settings
        self.bootstrap = bootstrap
        self.metrics = metrics
        self.store: DocumentStore | None = None
        self.producer: AIOKafkaProducer | None = None
        self.consumer: AIOKafkaConsumer | None = None
        self.seen_log: SeenLog | None = None
        self.loop_: StageLoop | None = None
        self.checker: AsyncChecker | None = None
        self.tracing: Tracing | None = None
        self._peeker: AIOKafkaConsumer | None = None
        self._loop_task: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()
        self.failed = False

    async def on_start(self) -> None:
        # Set up in the background: Faust starts its web server only after this returns, and
        # /healthz must answer while the consumer waits for its group join.
        self._loop_task = asyncio.create_task(self._run())

    async def _setup(self) -> StageLoop:
        s = self.settings
        for name, configs in topic_specs(s):
            await create_topics(
                self.bootstrap, [name], s.partitions, configs=configs, **security_kwargs(s)
            )
        self.store = open_store(s.store)
        try:
            await self.store.ping()
            self.metrics.corpus_up.set(1)
        except CorpusUnavailableError as exc:
            # Not fatal: lookups retry and answers go to manual review until it is back.
            log.warning("corpus store unavailable at start: %s", exc.message)
            self.metrics.corpus_up.set(0)
        cache = corpus_cache(self.store, s, self.metrics)
        self.producer = AIOKafkaProducer(**producer_kwargs(s, self.bootstrap))
        await self.producer.start()
        ckw = consumer_kwargs(s, self.bootstrap)
        seen = SeenEvents(s.dedup_window_s)
        self.seen_log = SeenLog(seen_topic(s), seen, self.producer, ckw, self.metrics)
        restored = await self.seen_log.restore(s.restore_timeout_s)
        log.info("duplicate index restored: %d event ids", restored)
        self.tracing = setup_tracing()
        self.checker = make_checker(s.checker, s, self.metrics, tier_wrapper(self.tracing))
        warm()  # before the first answer, not on its latency
        stage = Stage(s, cache, self.checker, self.metrics, seen, tracing=self.tracing)
        group = GroupWatch()
        self.consumer = AIOKafkaConsumer(**ckw)
        self.consumer.subscribe([s.topic_answers], listener=group)
        await self.consumer.start()
        return StageLoop(
            stage,
            self.consumer,
            self.producer,
            self.seen_log,
            self.metrics,
            batch_max_records=s.batch_max_records,
            stall_s=s.stall_s,
            peek=self._peek,
            required_topics=[name for name, _ in topic_specs(s)],
            group=group,
        )

    async def _peek(self, tp: TopicPartition, offset: int) -> bool:
        """Whether `tp` holds a record at or after `offset`, read without a group."""
        if self._peeker is None:
            self._peeker = AIOKafkaConsumer(
                **groupless(consumer_kwargs(self.settings, self.bootstrap))
            )
            await self._peeker.start()
        self._peeker.assign([tp])
        self._peeker.seek(tp, offset)
        batches = await self._peeker.getmany(tp, timeout_ms=1000, max_records=1)
        return any(batches.values())

    async def _run(self) -> None:
        try:
            self.loop_ = await self._setup()
            self.ready.set()
            self.metrics.ready.set(1)
            log.info(
                "citegate stage consuming %s as group %s",
                self.settings.topic_answers,
                self.settings.group_id,
            )
            await self.loop_.run()
        except asyncio.CancelledError:
            raise
        except (CitegateError, KafkaError, OSError) as exc:
            # Known failures (broker gone, stalled loop, index not restored) are one line.
            error = exc if isinstance(exc, CitegateError) else broker_error(exc)
            log.debug("stage failure", exc_info=exc)
            log.error(
                "the stage failed (%s: %s); exiting so it can be restarted", error.code, error
            )
            await self._leave_group()
            self._fail()
        except Exception:
            log.exception("the stage failed; stopping the worker so it can be restarted")
            await self._leave_group()
            self._fail()

    async def _leave_group(self) -> None:
        """A failed stage leaves its consumer group at once, before the worker's slower
        shutdown. A member that lingers keeps rejoining: it can be made leader of a rebalance
        that a restarted worker starts, and a leader that leaves in the middle of one wedges
        a Tansu group for good (Tansu keeps the departed member as leader, so no one ever
        sends the assignment)."""
        if self.consumer is None:
            return
        try:
            await asyncio.wait_for(self.consumer.stop(), STOP_TIMEOUT_S)
        except Exception:  # the shutdown stops it again, bounded
            log.debug("could not leave the group before exiting", exc_info=True)

    def _fail(self) -> None:
        self.failed = True
        self.metrics.ready.set(0)
        # Exit the whole process (non-zero, see runner) so a supervisor restarts it.
        os.kill(os.getpid(), signal.SIGTERM)

    async def on_stop(self) -> None:
        self.metrics.ready.set(0)
        if self.loop_ is not None:
            self.loop_.stop()
        if self._loop_task is not None:
            self._loop_task.cancel()
            await asyncio.gather(self._loop_task, return_exceptions=True)
        stoppers = [
            self.consumer.stop if self.consumer else None,
            self._peeker.stop if self._peeker else None,
            self.seen_log.stop if self.seen_log else None,
            self.producer.stop if self.producer else None,
            self.store.close if self.store else None,
            self.checker.close if self.checker else None,
        ]
        if self.tracing is not None:
            # The SDK's shutdown blocks while it exports what is buffered: off the loop.
            stoppers.append(lambda: asyncio.to_thread(self.tracing.shutdown))  # type: ignore[union-attr]
        for stop in stoppers:
            if stop is None:
                continue
            try:
                # Bounded: with the broker gone, a client's goodbye would otherwise retry
                # until its own timeouts and outlast a supervisor's grace period.
                await asyncio.wait_for(stop(), STOP_TIMEOUT_S)
            except TimeoutError:
                log.warning("gave up stopping %r after %.0fs", stop, STOP_TIMEOUT_S)
            except Exception:
                log.exception("error while stopping %r", stop)

    @property
    def healthy(self) -> bool:
        """Alive while setting up or consuming; false once the stage failed or stalled."""
        if self.failed or (self._loop_task is not None and self._loop_task.done()):
            return False
        return self.loop_ is None or self.loop_.stalled_for() < self.settings.stall_s

    def readiness(self) -> dict[str, object]:
        """What /readyz reports: `starting`, `ready`, `stalled` (retrying; the worker exits
        1 if it lasts `stall_s`), or `failed` (exiting for its supervisor to restart it)."""
        if not self.healthy:
            return {"ready": False, "state": "failed"}
        if not self.ready.is_set() or self.loop_ is None:
            return {"ready": False, "state": "starting"}
        stalled = self.loop_.stalled_for()
        if stalled >= min(5.0, self.settings.stall_s):
            return {
                "ready": False,
                "state": "stalled",
                "stalled_s": round(stalled, 1),
                "exit_after_s": self.settings.stall_s,
                "broker_ok": self.loop_.broker_ok,
            }
        return {"ready": True, "state": "ready"}


def faust_credentials(settings: Settings) -> Any:
    """The same TLS/SASL settings for Faust's own clients as for the stage's aiokafka ones."""
    kw = security_kwargs(settings)
    proto = kw["security_protocol"]
    if proto == "PLAINTEXT":
        return None
    if proto == "SSL":
        return faust.SSLCredentials(kw["ssl_context"])
    return faust.SASLCredentials(
        username=kw["sasl_plain_username"],
        password=kw["sasl_plain_password"],
        ssl_context=kw.get("ssl_context"),
        mechanism=kw["sasl_mechanism"],
    )


def build_app(
    settings: Settings,
    bootstrap: list[str],
    metrics: Metrics | None = None,
) -> tuple[faust.App, StageService]:
    metrics = metrics or Metrics(label_cap=settings.label_cap)
    app = faust.App(
        f"{settings.group_id}-worker",
        broker_credentials=faust_credentials(settings),
        broker=[f"kafka://{h}" for h in bootstrap],
        store="memory://",
        web_enabled=True,
        web_host=settings.web_host,
        web_port=settings.web_port,
        web_bind=settings.web_host,
        producer_acks=-1,
        broker_session_timeout=max(2.0, settings.session_timeout_ms / 1000),
        broker_heartbeat_interval=0.3,
        broker_rebalance_timeout=5.0,
        topic_partitions=settings.partitions,
        consumer_auto_offset_reset="earliest",
    )
    service = StageService(settings, bootstrap, metrics)

    @app.page("/metrics")
    async def metrics_page(web: Any, request: Any) -> Any:
        body, content_type = exposition(metrics.registry, request.headers.get("Accept", ""))
        return web.bytes(body, content_type=content_type)

    @app.page("/healthz")
    async def healthz(web: Any, request: Any) -> Any:
        status = 200 if service.healthy else 503
        return web.json({"status": "ok" if status == 200 else "failed"}, status=status)

    @app.page("/readyz")
    async def readyz(web: Any, request: Any) -> Any:
        state = service.readiness()
        return web.json(state, status=200 if state["ready"] else 503)

    return app, service
