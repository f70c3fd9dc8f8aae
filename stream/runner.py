"""Starting the worker process: the embedded broker if asked for, then the Faust worker."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator

import faust

from stream.app import build_app
from stream.broker import EmbeddedBroker
from stream.kafka import bootstrap_servers
from stream.settings import Settings

log = logging.getLogger("citegate.runner")


@contextlib.contextmanager
def broker_for(settings: Settings) -> Iterator[list[str]]:
    """Bootstrap addresses; starts (and finally stops) the embedded broker when asked."""
    if settings.broker != "embedded":
        yield bootstrap_servers(settings.broker)
        return
    with EmbeddedBroker() as broker:
        log.warning("embedded broker (memory only) listening on %s", broker.url)
        print(f"citegate: embedded broker at {broker.url}", flush=True)
        yield [broker.bootstrap]


def run_worker(settings: Settings) -> int:
    log.info("settings: %s", settings.redacted())
    with broker_for(settings) as bootstrap:
        app, service = build_app(settings, bootstrap)
        worker = faust.Worker(app, service, loglevel=settings.log_level, quiet=True)
        try:
            worker.execute_from_commandline()
        except SystemExit as exc:
            if service.failed:
                return 1
            return int(exc.code or 0) if not isinstance(exc.code, str) else 1
