"""`citegate worker --processes N`: N worker processes of one consumer group under one parent.

The stage is CPU-bound in Python, so one process uses one core; Kafka's consumer group is the
distributed engine (design §9), and a supervisor only has to keep N ordinary `citegate worker`
children alive on one machine. It serves what an orchestrator looks at, for all of them:

* `/metrics` — prometheus-client's multiprocess mode: children write to PROMETHEUS_MULTIPROC_DIR
  (cleaned at start), the supervisor merges the files; a dead child's live gauges are dropped
  with `mark_process_dead`, its counters are kept (they counted real work);
* `/healthz` — 200 while every child runs or is being restarted; `/readyz` — 200 only when
  every child answers its own `/readyz` with 200;
* a child that exits is restarted with exponential backoff (reset after a stable run); one
  that exits with 2 (a usage error) stops everything, since a restart cannot fix it;
* SIGTERM/SIGINT: SIGTERM to every child, SIGKILL to those still running after the bound.

Children get the supervisor's settings through their `CITEGATE_*` environment, an ephemeral
loopback web port, and die with the supervisor (PR_SET_PDEATHSIG on Linux).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import os
import shutil
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from stream.kafka.embedded import find_free_port
from stream.settings import Settings

log = logging.getLogger("citegate.supervisor")

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
BACKOFF_START_S = 0.5
BACKOFF_MAX_S = 30.0
STABLE_RUN_S = 30.0
"""A child that ran this long before exiting restarts after the initial backoff again."""
STOP_BOUND_S = 25.0
"""SIGKILL for children still running this long after SIGTERM (their own bound is 20 s)."""
POLL_S = 0.5
USAGE_EXIT = 2


def default_processes(cgroup: Path = Path("/sys/fs/cgroup/cpu.max")) -> int:
    """Cores this process may use: its CPU affinity, capped by a cgroup v2 CPU quota (a
    container limited to 2 CPUs on a 64-core node gets 2 workers, not 64)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    try:
        quota, period = cgroup.read_text().split()[:2]
        if quota != "max":
            cores = min(cores, max(1, -(-int(quota) // int(period))))
    except (OSError, ValueError):
        pass
    return max(1, cores)


def settings_env(settings: Settings) -> dict[str, str]:
    """Every setting as its `CITEGATE_*` variable, so a child builds the same Settings."""
    env = {}
    for f in fields(settings):
        value = getattr(settings, f.name)
        if value is None:
            continue
        if isinstance(value, frozenset):
            text = ",".join(sorted(value))
        elif isinstance(value, tuple):
            text = ",".join(str(v) for v in value)
        elif isinstance(value, bool):
            text = "true" if value else "false"
        else:
            text = str(value)
        env[f.metadata["env"]] = text
    return env


@dataclass
class Child:
    index: int
    proc: asyncio.subprocess.Process | None = None
    port: int = 0
    started_at: float = 0.0
    restarts: int = 0
    ready: bool = False
    backoff: float = BACKOFF_START_S

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    def describe(self) -> dict[str, Any]:
        pid = self.proc.pid if self.proc is not None else None
        return {"pid": pid, "running": self.running, "ready": self.ready, "restarts": self.restarts}


class Supervisor:
    def __init__(self, settings: Settings, bootstrap: list[str], processes: int) -> None:
        self.settings = settings
        self.bootstrap = bootstrap
        self.children = [Child(i) for i in range(processes)]
        self.stopping = asyncio.Event()
        self.exit_code = 0
        configured = os.environ.get(MULTIPROC_ENV)
        self._own_dir = not configured
        self.metrics_dir = Path(configured or tempfile.mkdtemp(prefix="citegate-metrics-"))

    # -- lifecycle --------------------------------------------------------------------------

    async def run(self) -> int:
        self._clean_metrics_dir()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, self.stopping.set)
        runner = await self._start_web()
        try:
            async with asyncio.TaskGroup() as tg:
                for child in self.children:
                    tg.create_task(self._keep(child))
                tg.create_task(self._poll_ready())
                await self.stopping.wait()
                await self._stop_children()
        finally:
            for sig in (signal.SIGTERM, signal.SIGINT):
                loop.remove_signal_handler(sig)
            await runner.cleanup()
            if self._own_dir:
                shutil.rmtree(self.metrics_dir, ignore_errors=True)
        return self.exit_code

    def _clean_metrics_dir(self) -> None:
        self.metrics_dir.mkdir(parents=True, exist_ok=True)
        for stale in self.metrics_dir.glob("*.db"):
            stale.unlink(missing_ok=True)

    def _child_env(self, child: Child) -> dict[str, str]:
        base = {k: v for k, v in os.environ.items() if not k.startswith("CITEGATE_")}
        env = {**base, **settings_env(self.settings)}
        env["CITEGATE_BROKER"] = "kafka://" + ",".join(self.bootstrap)
        env["CITEGATE_WEB_HOST"] = "127.0.0.1"
        env["CITEGATE_WEB_PORT"] = str(child.port)
        env[MULTIPROC_ENV] = str(self.metrics_dir)
        return env

    async def _spawn(self, child: Child) -> None:
        child.port = find_free_port()
        child.ready = False
        child.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "stream.worker.supervisor",
            str(os.getpid()),
            env=self._child_env(child),
            stdin=asyncio.subprocess.DEVNULL,
        )
        child.started_at = time.monotonic()
        log.info("worker child %d started (pid %d)", child.index, child.proc.pid)

    async def _keep(self, child: Child) -> None:
        """Run one child slot: start, wait, and restart with backoff until stopping."""
        while not self.stopping.is_set():
            await self._spawn(child)
            assert child.proc is not None
            code = await child.proc.wait()
            child.ready = False
            self._mark_dead(child.proc.pid)
            if self.stopping.is_set():
                return
            if code == USAGE_EXIT:
                log.error("worker child %d exited with a usage error; stopping", child.index)
                self.exit_code = USAGE_EXIT
                self.stopping.set()
                return
            if time.monotonic() - child.started_at >= STABLE_RUN_S:
                child.backoff = BACKOFF_START_S
            log.warning(
                "worker child %d (pid %d) exited with %s; restarting in %.1fs",
                child.index,
                child.proc.pid,
                code,
                child.backoff,
            )
            child.restarts += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stopping.wait(), child.backoff)
            child.backoff = min(child.backoff * 2, BACKOFF_MAX_S)

    def _mark_dead(self, pid: int) -> None:
        from prometheus_client import multiprocess

        # prometheus-client leaves its multiprocess helpers unannotated.
        multiprocess.mark_process_dead(pid, str(self.metrics_dir))  # type: ignore[no-untyped-call]

    async def _stop_children(self) -> None:
        running = [c.proc for c in self.children if c.proc is not None and c.running]
        for proc in running:
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signal.SIGTERM)
        waits = [asyncio.ensure_future(p.wait()) for p in running]
        if not waits:
            return
        _, pending = await asyncio.wait(waits, timeout=STOP_BOUND_S)
        if pending:
            log.error("%d worker children ignored SIGTERM; killing them", len(pending))
            for proc in running:
                if proc.returncode is None:
                    with contextlib.suppress(ProcessLookupError):
                        proc.kill()
            await asyncio.wait(waits, timeout=5)

    # -- health ----------------------------------------------------------------------------

    async def _poll_ready(self) -> None:
        timeout = aiohttp.ClientTimeout(total=1)
        async with aiohttp.ClientSession(timeout=timeout) as session:
            while not self.stopping.is_set():
                for child in self.children:
                    child.ready = child.running and await _child_ready(session, child.port)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.stopping.wait(), POLL_S)

    @property
    def healthy(self) -> bool:
        return not self.stopping.is_set()

    @property
    def ready(self) -> bool:
        return self.healthy and all(c.running and c.ready for c in self.children)

    async def _start_web(self) -> web.AppRunner:
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/readyz", self._readyz)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, self.settings.web_host, self.settings.web_port)
        await site.start()
        log.info("supervisor web at %s:%d", self.settings.web_host, self.settings.web_port)
        return runner

    async def _metrics(self, request: web.Request) -> web.Response:
        body = await asyncio.to_thread(self._collect)
        return web.Response(body=body, headers={"Content-Type": "text/plain; version=0.0.4"})

    def _collect(self) -> bytes:
        from prometheus_client import CollectorRegistry, generate_latest, multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, path=str(self.metrics_dir))  # type: ignore[no-untyped-call]
        return generate_latest(registry)

    async def _healthz(self, request: web.Request) -> web.Response:
        status = 200 if self.healthy else 503
        children = [c.describe() for c in self.children]
        body = {"status": "ok" if status == 200 else "stopping", "children": children}
        return web.json_response(body, status=status)

    async def _readyz(self, request: web.Request) -> web.Response:
        ready = self.ready
        return web.json_response({"ready": ready}, status=200 if ready else 503)


async def _child_ready(session: aiohttp.ClientSession, port: int) -> bool:
    try:
        async with session.get(f"http://127.0.0.1:{port}/readyz") as resp:
            return resp.status == 200
    except (aiohttp.ClientError, TimeoutError):
        return False


def run_supervised(settings: Settings, processes: int) -> int:
    """Start the embedded broker if asked, then supervise `processes` worker children."""
    from stream.worker.launch import broker_for

    log.info("supervising %d worker processes; settings: %s", processes, settings.redacted())
    with broker_for(settings) as bootstrap:
        return asyncio.run(Supervisor(settings, bootstrap, processes).run())


# -- the child side ------------------------------------------------------------------------

_PR_SET_PDEATHSIG = 1


def _die_with_parent(parent: int) -> None:
    """Ask Linux to SIGTERM this child when the supervisor dies (exit now if it already did)."""
    if sys.platform == "linux":
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def child_main(argv: list[str]) -> int:
    """Entry of one child: a plain single-process worker, every setting from the environment
    the supervisor wrote. Errors as from the CLI: one line, exit 2 (which stops the group)."""
    _die_with_parent(int(argv[0]))
    from stream.errors import CitegateError
    from stream.worker.launch import run_worker

    try:
        settings = Settings.from_env()
        logging.basicConfig(
            level=settings.log_level.upper(),
            format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        )
        return run_worker(settings)
    except CitegateError as exc:
        sys.stderr.write(f"citegate: error: {exc.message}\n")
        return USAGE_EXIT


if __name__ == "__main__":
    raise SystemExit(child_main(sys.argv[1:]))
