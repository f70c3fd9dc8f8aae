"""`citegate bench --tracing`: what trace context and tracing cost, side by side in one run.

Three workers drain the same burst of answers, each answer with its own `traceparent`:

* `before` — the worker of an earlier commit (`--baseline REV`, extracted with `git archive`
  and put first on `PYTHONPATH`), i.e. the stage before trace context and releases existed;
* `off` — this worker, tracing not configured (headers carried, releases written);
* `on` — this worker with `OTEL_EXPORTER_OTLP_ENDPOINT` pointing at an OTLP/HTTP sink in the
  bench process (spans really serialised and sent; the sink only counts them).

Each run takes the three in a rotated order, so a drift of the machine's load does not always
favour one of them; the report shows medians of `--runs`.
"""

from __future__ import annotations

import io
import statistics
import subprocess
import tarfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from aiohttp import web

from stream.errors import UsageError
from stream.worker.bench.runner import Bench, Variant

OFF_TARGET = 0.95
"""Tracing off (this worker) against the baseline's answers/s: within 5 %."""


@dataclass
class Sink:
    """An OTLP/HTTP traces endpoint that accepts and counts what it is sent."""

    requests: int = 0
    bytes: int = 0
    runner: web.AppRunner | None = None
    port: int = 0

    async def start(self) -> str:
        app = web.Application(client_max_size=64 << 20)
        app.router.add_post("/v1/traces", self._traces)
        self.runner = web.AppRunner(app, access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return f"http://127.0.0.1:{self.port}"

    async def _traces(self, request: web.Request) -> web.Response:
        self.requests += 1
        self.bytes += len(await request.read())
        return web.Response(body=b"", content_type="application/x-protobuf")

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()


def checkout(rev: str, into: Path, repo: Path | None = None) -> Path:
    """The tree of `rev` (a commit of this repository) extracted into `into`; returns it."""
    repo = repo or Path(__file__).resolve().parents[3]
    try:
        archive = subprocess.run(
            ["git", "-C", str(repo), "archive", "--format=tar", rev],  # noqa: S607 — git on PATH
            capture_output=True,
            check=False,
            timeout=60,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise UsageError(f"--baseline needs git and a checkout of citegate: {exc}") from None
    if archive.returncode != 0:
        message = archive.stderr.decode(errors="replace").strip().splitlines()
        raise UsageError(f"--baseline {rev}: {message[-1] if message else 'git archive failed'}")
    into.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")
    if not (into / "stream" / "__init__.py").exists():
        raise UsageError(f"--baseline {rev}: no stream/ package in that commit")
    return into


async def measure(
    bench: Bench, baseline: Path | None, runs: int, log: Callable[[str], None]
) -> dict[str, list[float]]:
    """Answers/s and CPU µs/claim per variant and run."""
    sink = Sink()
    endpoint = await sink.start()
    variants = [
        Variant("off"),
        Variant("on", {"OTEL_EXPORTER_OTLP_ENDPOINT": endpoint, "OTEL_SERVICE_NAME": "bench"}),
    ]
    if baseline is not None:
        variants.insert(0, Variant("before", {"PYTHONPATH": str(baseline)}))
    out: dict[str, list[float]] = {}
    try:
        for run in range(runs):
            order = variants[run % len(variants) :] + variants[: run % len(variants)]
            for v in order:
                t = await bench.throughput(4, bench.sizes.answers, variant=v)
                out.setdefault(f"{v.name}_ans", []).append(t.answers_s)
                out.setdefault(f"{v.name}_cpu", []).append(t.cpu_us_per_claim)
                log(
                    f"  (f) run {run + 1}, tracing {v.name}: {t.answers_s:,.0f} answers/s, "
                    f"{t.cpu_us_per_claim:,.0f} µs CPU/claim"
                )
    finally:
        await sink.stop()
    out["sink_requests"] = [float(sink.requests)]
    out["sink_bytes"] = [float(sink.bytes)]
    return out


def render(r: dict[str, list[float]], rev: str | None, runs: int) -> str:
    def m(key: str) -> float:
        return statistics.median(r[key])

    lines = [
        f"citegate bench --tracing — median of {runs} run(s); 4 claims/answer, "
        f"{'every answer with its own traceparent'}",
        "",
        f"{'(f) worker':<56}{'answers/s':>12}{'µs CPU/claim':>14}{'ratio':>8}",
    ]
    off = m("off_ans")
    if "before_ans" in r:
        lines.append(
            f"{f'    before trace context ({rev})':<56}{m('before_ans'):>12,.0f}"
            f"{m('before_cpu'):>14,.0f}"
        )
    ratio_off = off / m("before_ans") if "before_ans" in r else None
    lines.append(
        f"{'    tracing off (headers carried, releases written)':<56}{off:>12,.0f}"
        f"{m('off_cpu'):>14,.0f}{'' if ratio_off is None else f'{ratio_off:>8.2f}'}"
    )
    lines.append(
        f"{'    tracing on (OTLP/HTTP to a local sink)':<56}{m('on_ans'):>12,.0f}"
        f"{m('on_cpu'):>14,.0f}{m('on_ans') / off:>8.2f}"
    )
    lines.append(
        f"    spans exported: {int(r['sink_requests'][0]):,} requests, "
        f"{int(r['sink_bytes'][0]):,} bytes"
    )
    lines.append("")
    if ratio_off is not None:
        verdict = "PASS" if ratio_off >= OFF_TARGET else "MISS"
        lines.append(f"{verdict}  tracing off / before: {ratio_off:.2f} (target >= {OFF_TARGET:g})")
    lines.append(f"cost   tracing on / off: {m('on_ans') / off:.2f} (reported, no target)")
    return "\n".join(lines)
