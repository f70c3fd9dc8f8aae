"""Starting the worker process: the embedded broker if asked for, then the Faust worker."""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import threading
from collections.abc import Iterator

import faust

from stream.corpus.store import open_store
from stream.kafka.clients import bootstrap_servers
from stream.kafka.embedded import EmbeddedBroker
from stream.settings import Settings
from stream.worker.app import build_app

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


SHUTDOWN_GRACE_S = 20.0
"""After a stop signal the process exits within this long, even when Faust's own consumer
thread hangs retrying fetches against a broker that is gone (seen here until SIGKILL)."""


class Worker(faust.Worker):
    """Faust's worker with a bounded shutdown: supervisors count on SIGTERM ending it."""

    def _schedule_shutdown(self, signal: signal.Signals) -> None:
        failed = any(getattr(s, "failed", False) for s in self.services)
        timer = threading.Timer(SHUTDOWN_GRACE_S, _force_exit, args=(1 if failed else 0,))
        timer.daemon = True
        timer.start()
        super()._schedule_shutdown(signal)


def _force_exit(code: int) -> None:
    log.error("shutdown took longer than %.0fs; exiting now", SHUTDOWN_GRACE_S)
    logging.shutdown()
    os._exit(code)


def run_worker(settings: Settings) -> int:
    log.info("settings: %s", settings.redacted())
    open_store(settings.store)  # a malformed store URL is a usage error before anything starts
    with broker_for(settings) as bootstrap:
        app, service = build_app(settings, bootstrap)
        worker = Worker(app, service, loglevel=settings.log_level, quiet=True)
        try:
            worker.execute_from_commandline()
        except SystemExit as exc:
            if service.failed:
                return 1
            return int(exc.code or 0) if not isinstance(exc.code, str) else 1
