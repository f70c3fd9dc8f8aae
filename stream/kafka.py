"""Kafka connection settings shared by the worker, the helpers and replay.

The embedded broker (Tansu) has no idempotent producer and no transactions, so idempotence is
always off; `acks=all` is what makes an acknowledged output durable on a real cluster.
"""

from __future__ import annotations

import ssl
from typing import Any

from stream.errors import UsageError
from stream.settings import Settings

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
        out["sasl_plain_password"] = settings.sasl_password
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
