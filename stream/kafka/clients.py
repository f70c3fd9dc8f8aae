"""Kafka connection settings shared by the worker, the helpers and replay.

The embedded broker (Tansu) has no idempotent producer and no transactions, so idempotence is
always off; `acks=all` is what makes an acknowledged output durable on a real cluster.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.errors import (
    KafkaError,
    MessageSizeTooLargeError,
    RecordTooLargeError,
    TopicAlreadyExistsError,
    for_code,
)

from stream.errors import BrokerError, OutputRejectedError, UsageError
from stream.secret import reveal
from stream.settings import Settings

if TYPE_CHECKING:
    from stream.stage import OutRecord

MAX_REQUEST_BYTES = 16 * 1024 * 1024


def bootstrap_servers(url: str) -> list[str]:
    """`kafka://h1:9092,h2:9092` (or `h1:9092;h2:9092`) -> ["h1:9092", "h2:9092"]."""
    if url == "embedded":
        raise UsageError("the embedded broker has no address until it is started")
    hosts = []
    for part in url.replace(";", ",").split(","):
        host = part.strip().removeprefix("kafka://").strip("/")
        if not host:
            continue
        if ":" not in host:
            host += ":9092"
        hosts.append(host)
    if not hosts:
        raise UsageError(f"no broker address in {url!r}; use kafka://host:port[,host:port]")
    return hosts


def security_kwargs(settings: Settings) -> dict[str, Any]:
    """TLS/SASL options for aiokafka clients, passed through from settings."""
    proto = settings.security_protocol.upper()
    if proto not in {"PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"}:
        raise UsageError(f"unknown security protocol {settings.security_protocol!r}")
    out: dict[str, Any] = {"security_protocol": proto}
    if proto in {"SSL", "SASL_SSL"}:
        out["ssl_context"] = ssl.create_default_context(cafile=settings.ssl_cafile)
    if proto.startswith("SASL"):
        out["sasl_mechanism"] = settings.sasl_mechanism or "PLAIN"
        out["sasl_plain_username"] = settings.sasl_username
        out["sasl_plain_password"] = reveal(settings.sasl_password)
    return out


def producer_kwargs(settings: Settings, bootstrap: list[str]) -> dict[str, Any]:
    return {
        "bootstrap_servers": bootstrap,
        "acks": "all",
        "enable_idempotence": False,
        "linger_ms": 2,
        "max_request_size": max(MAX_REQUEST_BYTES, 2 * settings.max_event_bytes + 65536),
        "request_timeout_ms": 30000,
        **security_kwargs(settings),
    }


def consumer_kwargs(settings: Settings, bootstrap: list[str]) -> dict[str, Any]:
    return {
        "bootstrap_servers": bootstrap,
        "group_id": settings.group_id,
        "enable_auto_commit": False,
        "auto_offset_reset": "earliest",
        "session_timeout_ms": settings.session_timeout_ms,
        "heartbeat_interval_ms": max(100, settings.session_timeout_ms // 6),
        "rebalance_timeout_ms": max(settings.session_timeout_ms, 5000),
        "max_poll_interval_ms": 300000,
        "fetch_max_bytes": max(52428800, 2 * settings.max_event_bytes),
        "max_partition_fetch_bytes": max(1048576, settings.max_event_bytes + 65536),
        "isolation_level": "read_uncommitted",
        **security_kwargs(settings),
    }


GROUP_SETTINGS = frozenset(
    {
        "group_id",
        "session_timeout_ms",
        "heartbeat_interval_ms",
        "rebalance_timeout_ms",
        "max_poll_interval_ms",
        "enable_auto_commit",
    }
)


def groupless(consumer_kw: dict[str, Any]) -> dict[str, Any]:
    """Consumer options for reading without a group (replay, tail, the duplicate index):
    no group settings, no commits — such a reader never moves anyone's offsets."""
    kept = {k: v for k, v in consumer_kw.items() if k not in GROUP_SETTINGS}
    return {**kept, "group_id": None, "enable_auto_commit": False}


PERMANENT_SEND_ERRORS: tuple[type[KafkaError], ...] = (
    MessageSizeTooLargeError,
    RecordTooLargeError,
)
"""Refusals of one record that no retry can change; every other Kafka error is an outage."""


def broker_error(exc: BaseException) -> BrokerError:
    """A Kafka client failure in citegate's taxonomy (its `retriable` flag is what callers use)."""
    if isinstance(exc, PERMANENT_SEND_ERRORS):
        return OutputRejectedError(f"the broker refused the record: {type(exc).__name__}")
    name = type(exc).__name__
    detail = str(exc) or name
    if not detail.startswith(name):
        detail = f"{name}: {detail}"
    return BrokerError(f"broker unavailable: {detail}"[:500])


async def send_each(producer: Any, records: Sequence[OutRecord]) -> list[BrokerError | None]:
    """Send records, wait for every acknowledgement; per record, None or the error it got."""
    futures: list[asyncio.Future[Any] | BrokerError] = []
    for r in records:
        try:
            if r.headers:  # trace context; most records have none, and no list is built then
                sent = await producer.send(
                    r.topic, key=r.key, value=r.value, headers=list(r.headers)
                )
            else:
                sent = await producer.send(r.topic, key=r.key, value=r.value)
            futures.append(sent)
        except (KafkaError, OSError) as exc:
            futures.append(broker_error(exc))
    waiting = [f for f in futures if not isinstance(f, BrokerError)]
    results = iter(await asyncio.gather(*waiting, return_exceptions=True))
    out: list[BrokerError | None] = []
    for f in futures:
        if isinstance(f, BrokerError):
            out.append(f)
            continue
        result = next(results)
        if isinstance(result, (KafkaError, OSError)):
            out.append(broker_error(result))
        elif isinstance(result, BaseException):
            raise result
        else:
            out.append(None)
    return out


async def send_all(producer: Any, records: Iterable[OutRecord]) -> None:
    """Send records and wait until the broker has acknowledged every one of them.

    Raises the first failure as a `BrokerError` (check `retriable`).
    """
    for error in await send_each(producer, list(records)):
        if error is not None:
            raise error


async def create_topics(
    bootstrap: str | list[str],
    names: Iterable[str],
    partitions: int,
    *,
    replication_factor: int = 1,
    timeout_ms: int = 10_000,
    configs: Mapping[str, str] | None = None,
    **client_kwargs: Any,
) -> list[str]:
    """Create *names* with *partitions* partitions each; existing topics are fine.

    :returns: the names that were newly created (not the pre-existing ones).
    :raises aiokafka.errors.KafkaError: for any error other than
        ``TopicAlreadyExistsError``.
    """
    wanted = list(dict.fromkeys(names))
    if not wanted:
        return []
    admin = AIOKafkaAdminClient(
        bootstrap_servers=bootstrap, request_timeout_ms=timeout_ms, **client_kwargs
    )
    await admin.start()
    try:
        try:
            response = await admin.create_topics(
                [
                    NewTopic(n, partitions, replication_factor, topic_configs=dict(configs or {}))
                    for n in wanted
                ],
                timeout_ms=timeout_ms,
            )
        except TopicAlreadyExistsError:
            return []
        created: list[str] = []
        for entry in response.topic_errors:
            topic, code = str(entry[0]), int(entry[1])
            if code == 0:
                created.append(topic)
            elif code != TopicAlreadyExistsError.errno:
                message = entry[2] if len(entry) > 2 and entry[2] else ""
                error_cls: type[KafkaError] = for_code(code)
                raise error_cls(f"cannot create topic {topic!r}: {message}")
        return created
    finally:
        await admin.close()


@contextlib.contextmanager
def broker_errors(broker: str) -> Iterator[None]:
    """A Kafka failure in a command becomes one line (exit 2 via the CLI), not a traceback."""
    try:
        yield
    except (KafkaError, OSError) as exc:
        first = (broker_error(exc).message.splitlines() or [""])[0]
        raise BrokerError(f"broker {broker}: {first}") from None
