"""Runs the measurements `--runs` times and prints medians, ratios and PASS/MISS per target."""

from __future__ import annotations

import os
import statistics
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from stream.worker.bench import core, procs
from stream.worker.bench.profile import summarise
from stream.worker.bench.runner import PARTITIONS, WARM_START, Bench, Sizes
from stream.worker.bench.synth import ZIPF_S

MB = 1 << 20
BASE_RSS = 160 * MB


@dataclass(frozen=True, slots=True)
class Target:
    name: str
    key: str
    op: str
    bound: float

    def holds(self, value: float) -> bool:
        return value >= self.bound if self.op == ">=" else value <= self.bound


TARGETS = (
    Target("worker steady state / bare loop (Zipf)", "throughput_ratio_zipf", ">=", 0.5),
    Target("p99 latency at half capacity / bare loop", "p99_ratio", "<=", 2.0),
    Target("citegate verify / seeds' pipeline (Zipf)", "verify_ratio_zipf", ">=", 0.5),
    Target("per-claim CPU at 64 / at 4 claims", "cpu_64_4", "<=", 1.2),
    Target("2 worker processes / 1", "scale_ratio", ">=", 1.8),
    Target("steady RSS / (160 MB + 1.2 x cache bound)", "rss_ratio", "<=", 1.0),
)


async def measure(bench: Bench, log: Callable[[str], None]) -> dict[str, float]:
    s = bench.sizes
    r: dict[str, float] = {}
    a = await bench.throughput(4, s.answers)
    r |= {"w_ans": a.answers_s, "w_claims": a.claims_s, "cpu_4": a.cpu_us_per_claim}
    r["ans_4"] = a.answers_s
    log(f"  (a) worker {a.answers_s:,.0f} answers/s, {a.cpu_us_per_claim:,.0f} µs CPU/claim")
    bare = await bench.throughput(4, s.answers, bare=(a.verdict_bytes, a.decision_bytes))
    r["b_ans"] = bare.answers_s
    r["throughput_ratio"] = r["w_ans"] / r["b_ans"]
    log(f"  (a) bare loop {r['b_ans']:,.0f} answers/s")
    z = await bench.throughput(4, s.answers, popularity="zipf")
    r |= {"w_ans_zipf": z.answers_s, "cpu_4_zipf": z.cpu_us_per_claim}
    r["throughput_ratio_zipf"] = z.answers_s / r["b_ans"]
    log(f"  (a) worker, Zipf popularity {z.answers_s:,.0f} answers/s")
    rate = a.answers_s / 2
    lw = await bench.latency(rate, a.verdict_bytes, a.decision_bytes, bare=False)
    lb = await bench.latency(rate, a.verdict_bytes, a.decision_bytes, bare=True)
    r |= {"rate": rate, "w_p50": lw.p50_ms, "w_p99": lw.p99_ms}
    r |= {"b_p50": lb.p50_ms, "b_p99": lb.p99_ms}
    r["p50_ratio"] = lw.p50_ms / max(lb.p50_ms, 1.0)
    r["p99_ratio"] = lw.p99_ms / max(lb.p99_ms, 1.0)
    log(f"  (b) p99 {lw.p99_ms:.0f} ms vs {lb.p99_ms:.0f} ms at {rate:,.0f} answers/s")
    v, seed, claims = bench.verify_vs_seed()
    r |= {"verify": v, "seed": seed, "verify_claims": claims, "verify_ratio": v / seed}
    log(f"  (c) verify {v:,.0f} claims/s, seeds {seed:,.0f} claims/s")
    vz, seedz, _ = bench.verify_vs_seed("zipf")
    r |= {"verify_zipf": vz, "seed_zipf": seedz, "verify_ratio_zipf": vz / seedz}
    log(f"  (c) Zipf: verify {vz:,.0f} claims/s, seeds {seedz:,.0f} claims/s")
    r |= core_phases(bench)
    for claims_per in (1, 16, 64):
        t = await bench.throughput(claims_per, max(s.scale_claims // claims_per, 20))
        r[f"ans_{claims_per}"] = t.answers_s
        r[f"cpu_{claims_per}"] = t.cpu_us_per_claim
        log(f"  (d) {claims_per} claims/answer: {t.answers_s:,.0f} answers/s")
    r["cpu_64_4"] = r["cpu_64"] / r["cpu_4"]
    two = await bench.throughput(4, s.answers, processes=2)
    r["two_ans"] = two.answers_s
    r["scale_ratio"] = two.answers_s / a.answers_s
    r |= {"cores_1": a.cores, "cores_2": two.cores}
    r |= {"broker_1": a.broker_cores, "broker_2": two.broker_cores}
    log(f"  (d) 2 processes {two.answers_s:,.0f} answers/s")
    cold = await bench.throughput(4, s.answers, cold=True)
    r["cold_ans"] = cold.answers_s
    r["rss_mb"] = cold.rss_max / MB
    r["rss_ratio"] = cold.rss_max / (BASE_RSS + 1.2 * s.cache_bytes)
    log(f"  (e) whole corpus {cold.answers_s:,.0f} answers/s, RSS {cold.rss_max / MB:,.0f} MB")
    return r


CORE_ANSWERS = 1000
"""Answers (4 claims each) per popularity in the in-process phase timing, after as many
warm-up answers."""


def core_phases(bench: Bench) -> dict[str, float]:
    """µs of CPU per claim by phase of the pure core (`core.phases`), per popularity, without
    and with documents' analyses kept (side by side: the step analyses are for); a fresh
    corpus for each, warmed up by answers of the same popularity."""
    out: dict[str, float] = {}
    docs = bench.docs[: bench.sizes.hot_docs]
    for popularity in ("uniform", "zipf"):
        warm = bench.payloads(4, CORE_ANSWERS, seed=21, start=WARM_START, popularity=popularity)
        measured = bench.payloads(4, CORE_ANSWERS, seed=23, popularity=popularity)
        for kept in (False, True):
            corpus = core.Corpus(docs, analysed=kept)
            found = core.phases(corpus, [v for _, v in warm], [v for _, v in measured])
            name = f"core_{popularity}_{'kept' if kept else 'none'}"
            out |= {f"{name}_{phase}": us for phase, us in found.items()}
    return out


def median(runs: list[dict[str, float]], key: str) -> float:
    return statistics.median(run[key] for run in runs)


def render(runs: list[dict[str, float]], bench: Bench, loads: tuple[str, str]) -> str:
    s = bench.sizes

    def m(key: str) -> float:
        return median(runs, key)

    b_label = f"(b) p50 input→decision ms at {m('rate'):,.0f} answers/s"
    c_label = f"(c) verify claims/s ({int(m('verify_claims')):,} claims; floor: seeds)"
    lines = [
        f"citegate bench — median of {len(runs)} run(s); {os.cpu_count()} CPUs; load average "
        f"{loads[0]} before, {loads[1]} after",
        f"corpus {s.docs:,} documents (~{bench.doc_bytes():,} B each, en/ru/zh) in SQLite, "
        f"(a)-(d) cite {s.hot_docs:,} of them (warm cache), (e) all;",
        f"cache bound {s.cache_bytes / MB:.0f} MiB; {PARTITIONS} partitions; distinct claim "
        "texts; CPU/claim = process CPU time over the burst / claims;",
        "popularity: uniform (each sentence once) or Zipf over the cited documents "
        f"(s = {ZIPF_S}, popular sentences cited again)",
        "",
        f"{'figure':<52}{'stage':>12}{'floor':>12}{'ratio':>8}",
        f"{'(a) steady state, answers/s (4 claims/answer)':<52}"
        f"{m('w_ans'):>12,.0f}{m('b_ans'):>12,.0f}{m('throughput_ratio'):>8.2f}",
        f"{'    claims/s':<52}{m('w_claims'):>12,.0f}{m('b_ans') * 4:>12,.0f}",
        f"{'    Zipf popularity: answers/s':<52}"
        f"{m('w_ans_zipf'):>12,.0f}{m('b_ans'):>12,.0f}{m('throughput_ratio_zipf'):>8.2f}",
        f"{'    µs CPU/claim, uniform and Zipf':<52}{m('cpu_4'):>12,.0f}{m('cpu_4_zipf'):>12,.0f}",
        f"{b_label:<52}{m('w_p50'):>12.1f}{m('b_p50'):>12.1f}{m('p50_ratio'):>8.2f}",
        f"{'    p99 ms':<52}{m('w_p99'):>12.1f}{m('b_p99'):>12.1f}{m('p99_ratio'):>8.2f}",
        f"{c_label:<52}{m('verify'):>12,.0f}{m('seed'):>12,.0f}{m('verify_ratio'):>8.2f}",
        f"{'    Zipf popularity: claims/s':<52}"
        f"{m('verify_zipf'):>12,.0f}{m('seed_zipf'):>12,.0f}{m('verify_ratio_zipf'):>8.2f}",
    ]
    for c in (1, 4, 16, 64):
        lines.append(
            f"{f'(d) {c} claims/answer: answers/s, µs CPU/claim':<52}"
            f"{m(f'ans_{c}'):>12,.0f}{m(f'cpu_{c}'):>12,.0f}"
        )
    lines += [
        f"{'    per-claim CPU 64 vs 4':<52}{'':>24}{m('cpu_64_4'):>8.2f}",
        f"{'    2 processes vs 1, answers/s':<52}"
        f"{m('two_ans'):>12,.0f}{m('ans_4'):>12,.0f}{m('scale_ratio'):>8.2f}",
        f"{'    cores used by the workers, 2 processes vs 1':<52}"
        f"{m('cores_2'):>12.2f}{m('cores_1'):>12.2f}",
        f"{'    cores used by the embedded broker meanwhile':<52}"
        f"{m('broker_2'):>12.2f}{m('broker_1'):>12.2f}",
        f"{'(e) whole corpus at random: answers/s':<52}{m('cold_ans'):>12,.0f}",
        f"{'    steady RSS MB vs 160 + 1.2 x bound':<52}"
        f"{m('rss_mb'):>12.0f}{(BASE_RSS + 1.2 * s.cache_bytes) / MB:>12.0f}"
        f"{m('rss_ratio'):>8.2f}",
        "",
        f"core, in process: µs CPU per claim by phase ({CORE_ANSWERS * 4:,} claims after as"
        " many), without / with the documents' analyses kept",
        f"{'phase':<40}{'uniform':>12}{'':>12}{'Zipf':>12}{'':>12}",
    ]
    columns = [f"core_{p}_{k}" for p in ("uniform", "zipf") for k in ("none", "kept")]
    for phase in core.PHASES:
        cells = "".join(f"{m(f'{c}_{phase}'):>12.1f}" for c in columns)
        lines.append(f"{'    ' + phase:<40}{cells}")
    totals = "".join(f"{sum(m(f'{c}_{p}') for p in core.PHASES):>12.1f}" for c in columns)
    lines += [f"{'    total':<40}{totals}", ""]
    for t in TARGETS:
        value = m(t.key)
        verdict = "PASS" if t.holds(value) else "MISS"
        lines.append(f"{verdict}  {t.name}: {value:.2f} (target {t.op} {t.bound:g})")
    return "\n".join(lines)


def load_average() -> str:
    return "{:.2f}/{:.2f}/{:.2f}".format(*os.getloadavg())


async def run_all(
    bootstrap: str,
    root: Path,
    sizes: Sizes,
    runs: int,
    profile_to: Path | None = None,
    broker_pid: int | None = None,
    *,
    tracing: bool = False,
    memory: bool = False,
    baseline: str | None = None,
) -> str:
    """Every figure (a)-(e), or with `tracing` only (f): the tracing comparison against the
    worker of commit `baseline` (docs/performance.md#tracing), or with `memory` only (e),
    beside that worker (docs/performance.md#memory)."""

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    bench = Bench(bootstrap, root, sizes, log)
    bench.profile_to = profile_to
    bench.broker_pids = procs.tree(broker_pid) if broker_pid else []
    before = load_average()
    if memory or tracing:  # one figure, beside the worker of `baseline` when given
        from stream.worker.bench import memory as memory_bench
        from stream.worker.bench import tracing as tracing_bench

        tree = tracing_bench.checkout(baseline, root / "baseline") if baseline else None
        log(f"bench: importing {sizes.docs:,} generated documents")
        await bench.setup()
        try:
            if memory:
                found = await memory_bench.measure(bench, tree, runs, log)
                text = memory_bench.render(found, bench, baseline, runs)
            else:
                found = await tracing_bench.measure(bench, tree, runs, log)
                text = tracing_bench.render(found, baseline, runs)
        finally:
            bench.close()
        return (
            text + f"\n{os.cpu_count()} CPUs; load average {before} before, {load_average()} after"
        )
    log(f"bench: importing {sizes.docs:,} generated documents")
    await bench.setup()
    results = []
    try:
        for i in range(runs):
            log(f"bench: run {i + 1} of {runs}")
            results.append(await measure(bench, log))
    finally:
        bench.close()
    text = render(results, bench, (before, load_average()))
    if bench.profiled is not None and bench.profiled.exists():
        text += f"\n\n{summarise(bench.profiled)}\nraw samples: {bench.profiled}"
    return text
