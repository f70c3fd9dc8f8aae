"""A local S3-compatible store for the durable-broker tests and fault scenarios: moto's server
(`moto[server]`, dev extra) as a child process on a free loopback port.

    with MotoServer() as s3:
        broker = EmbeddedBroker(storage="s3://citegate/", env=s3.env)

`pause()`/`resume()` SIGSTOP/SIGCONT it (the store hangs: connections are accepted by the
kernel and never answered), `kill()` SIGKILLs it. Every wait is bounded.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from types import TracebackType

from stream.kafka.embedded import find_free_port

ACCESS_KEY = "citegate-test-key"
SECRET_KEY = "citegate-test-secret-do-not-log"  # a made-up credential, for moto only


def moto_missing() -> str | None:
    """Why the S3 tests cannot run here, or None."""
    if importlib.util.find_spec("moto") is None or importlib.util.find_spec("flask") is None:
        return "moto[server] is not installed (dev extra): no local S3 store for these tests"
    return None


class MotoServer:
    def __init__(self, host: str = "127.0.0.1", startup_s: float = 30.0) -> None:
        self.host = host
        self.port = find_free_port(host)
        self.startup_s = startup_s
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = Path(tempfile.mkdtemp(prefix="citegate-moto-")) / "moto.log"

    @property
    def endpoint(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def env(self) -> dict[str, str]:
        """The `AWS_*` variables a broker (and botocore) need to use this store."""
        return {
            "AWS_ENDPOINT": self.endpoint,
            "AWS_ALLOW_HTTP": "true",
            "AWS_ACCESS_KEY_ID": ACCESS_KEY,
            "AWS_SECRET_ACCESS_KEY": SECRET_KEY,
            "AWS_DEFAULT_REGION": "us-east-1",
        }

    def start(self) -> MotoServer:
        cmd = [sys.executable, "-m", "moto.server", "-H", self.host, "-p", str(self.port)]
        with self.log_path.open("ab") as log:
            self.proc = subprocess.Popen(
                cmd,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONWARNINGS": "ignore"},
            )
        deadline = time.monotonic() + self.startup_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"moto server exited: {self.log_path.read_text()[-2000:]}")
            with contextlib.suppress(OSError), urllib.request.urlopen(self.endpoint, timeout=1):
                return self
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"moto server not ready after {self.startup_s:.0f}s")

    def pause(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.send_signal(signal.SIGCONT)
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def __enter__(self) -> MotoServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
