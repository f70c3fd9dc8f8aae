"""`citegate bench --memory`: the worker's RSS, figure (e) alone, optionally beside an earlier
commit's worker.

Figure (e) of the full bench takes half an hour to reach with the rest; memory work needs it
alone and against a baseline. Each run starts a fresh worker (the same sizes and cache bound
as the full bench), warms it on the hot working set, then drains answers citing the whole
corpus. Two RSS figures are kept per worker: after the warm-up (tables, segmenter, hot
documents) and the largest of the drain's second half (the full bench's figure). With
`--baseline REV` the worker of that commit (`git archive`, first on `PYTHONPATH`) runs too, in
rotated order, so a drift of the machine favours neither.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from pathlib import Path

from stream.worker.bench.report import BASE_RSS, MB
from stream.worker.bench.runner import Bench, Variant


async def measure(
    bench: Bench, baseline: Path | None, runs: int, log: Callable[[str], None]
) -> dict[str, list[float]]:
    """Warm and steady RSS (MB) and answers/s per variant and run."""
    variants = [Variant("now")]
    if baseline is not None:
        variants.insert(0, Variant("before", {"PYTHONPATH": str(baseline)}))
    out: dict[str, list[float]] = {}
    for run in range(runs):
        order = variants[run % len(variants) :] + variants[: run % len(variants)]
        for v in order:
            t = await bench.throughput(4, bench.sizes.answers, cold=True, variant=v)
            out.setdefault(f"{v.name}_warm", []).append(t.rss_warm / MB)
            out.setdefault(f"{v.name}_rss", []).append(t.rss_max / MB)
            out.setdefault(f"{v.name}_ans", []).append(t.answers_s)
            log(
                f"  (e) run {run + 1}, {v.name}: RSS {t.rss_warm / MB:,.0f} MB warm, "
                f"{t.rss_max / MB:,.0f} MB steady, {t.answers_s:,.0f} answers/s"
            )
    return out


def render(r: dict[str, list[float]], bench: Bench, rev: str | None, runs: int) -> str:
    def m(key: str) -> float:
        return statistics.median(r[key])

    bound = (BASE_RSS + 1.2 * bench.sizes.cache_bytes) / MB
    s = bench.sizes
    lines = [
        f"citegate bench --memory — median of {runs} run(s); {s.docs:,} documents, answers "
        f"citing all of them; cache bound {s.cache_bytes / MB:,.0f} MiB",
        "",
        f"{'(e) worker':<44}{'warm MB':>10}{'steady MB':>11}{'answers/s':>11}{'ratio':>8}",
    ]
    names = [("before", f"before ({rev})"), ("now", "this worker")] if rev else [("now", "this")]
    for key, label in names:
        lines.append(
            f"{f'    {label}':<44}{m(f'{key}_warm'):>10,.0f}{m(f'{key}_rss'):>11,.0f}"
            f"{m(f'{key}_ans'):>11,.0f}{m(f'{key}_rss') / bound:>8.2f}"
        )
    lines.append(f"    target: 160 MB + 1.2 x cache bound = {bound:,.0f} MB")
    lines.append("")
    ratio = m("now_rss") / bound
    lines.append(
        f"{'PASS' if ratio <= 1 else 'MISS'}  steady RSS / (160 MB + 1.2 x cache bound): "
        f"{ratio:.2f} (target <= 1)"
    )
    if rev:
        lines.append(f"change steady RSS now / before: {m('now_rss') / m('before_rss'):.2f}")
    return "\n".join(lines)
