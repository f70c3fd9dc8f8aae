"""`citegate eval --report DIR`: a Markdown + HTML report with two plots per file.

Single numbers hide where a checker goes wrong, so the report adds what a threshold or a
calibration change needs: a precision–recall curve for "entailed" (where the checker's own
decision sits on it) and a reliability diagram (does a 0.8 mean 80 % entailed?). matplotlib and
numpy are an optional extra (`citegate[eval]`): the stream stage never needs them.
"""

from __future__ import annotations

import html
import importlib.util
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from stream.errors import UsageError
from stream.quality.evaluate import LABELS, PREDICTED, FileResult

BINS = 10


def require_plotting() -> None:
    """Fail before any checker call if the optional plotting extra is not installed."""
    if any(importlib.util.find_spec(m) is None for m in ("matplotlib", "numpy")):
        raise UsageError("--report needs matplotlib and numpy: pip install 'citegate[eval]'")


@dataclass(frozen=True, slots=True)
class Curve:
    """Precision–recall points (one per distinct score threshold) and average precision."""

    precision: tuple[float, ...]
    recall: tuple[float, ...]
    average_precision: float | None


def pr_curve(gold: Sequence[str], scores: Sequence[float]) -> Curve:
    """PR curve of "entailed" ranked by score; AP = Σ (Rₖ − Rₖ₋₁)·Pₖ as in scikit-learn."""
    positives = sum(g == "entailed" for g in gold)
    if not positives:
        return Curve((), (), None)
    ranked = sorted(zip(scores, gold, strict=True), key=lambda x: -x[0])
    precision, recall, tp, ap, last_recall = [], [], 0, 0.0, 0.0
    for i, (s, g) in enumerate(ranked):
        tp += g == "entailed"
        if i + 1 < len(ranked) and ranked[i + 1][0] == s:
            continue  # ties share one threshold
        p, r = tp / (i + 1), tp / positives
        precision.append(p)
        recall.append(r)
        ap += (r - last_recall) * p
        last_recall = r
    return Curve(tuple(precision), tuple(recall), ap)


def operating_point(gold: Sequence[str], predicted: Sequence[str]) -> tuple[float, float]:
    """(precision, recall) of the checker's own "entailed" decisions."""
    tp = sum(g == p == "entailed" for g, p in zip(gold, predicted, strict=True))
    pred_n = sum(p == "entailed" for p in predicted)
    gold_n = sum(g == "entailed" for g in gold)
    return (tp / pred_n if pred_n else 0.0, tp / gold_n if gold_n else 0.0)


def reliability(gold: Sequence[str], scores: Sequence[float]) -> list[tuple[float, float, int]]:
    """Per bin of p_entailed (10 equal bins): (mean predicted, observed entailed rate, n)."""
    bins: list[list[tuple[float, bool]]] = [[] for _ in range(BINS)]
    for s, g in zip(scores, gold, strict=True):
        bins[min(int(s * BINS), BINS - 1)].append((s, g == "entailed"))
    return [
        (sum(s for s, _ in b) / len(b), sum(e for _, e in b) / len(b), len(b)) if b else (0, 0, 0)
        for b in bins
    ]


def expected_calibration_error(rows: Sequence[tuple[float, float, int]]) -> float:
    total = sum(n for _, _, n in rows)
    return sum(n * abs(p - o) for p, o, n in rows) / total if total else 0.0


def _plot_pr(result: FileResult, curve: Curve, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 4), dpi=100)
    if curve.average_precision is not None:
        label = f"AP = {curve.average_precision:.3f}"
        ax.step(
            [0.0, *curve.recall], [curve.precision[0], *curve.precision], where="post", label=label
        )
        base = sum(g == "entailed" for g in result.gold) / result.n
        ax.axhline(base, color="grey", linestyle=":", label=f"base rate = {base:.3f}")
        p, r = operating_point(result.gold, result.predicted)
        ax.plot([r], [p], "o", color="red", label=f"operating point (P={p:.2f}, R={r:.2f})")
        ax.legend(loc="lower left", fontsize=8)
    else:
        ax.text(0.5, 0.5, "no gold 'entailed' records", ha="center", va="center")
    ax.set(xlim=(0, 1.02), ylim=(0, 1.02), xlabel="recall", ylabel="precision")
    ax.set_title(f"{result.dataset}: precision–recall for 'entailed'", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)


def _plot_reliability(
    result: FileResult, rows: Sequence[tuple[float, float, int]], path: Path
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    centers = (np.arange(BINS) + 0.5) / BINS
    observed = np.array([o for _, o, _ in rows])
    counts = [n for _, _, n in rows]
    fig, ax = plt.subplots(figsize=(5, 4), dpi=100)
    ax.bar(centers, observed, width=1 / BINS, edgecolor="black", alpha=0.6, label="observed")
    ax.plot([0, 1], [0, 1], "--", color="grey", label="perfect calibration")
    used = [i for i, n in enumerate(counts) if n]
    ax.plot(
        [rows[i][0] for i in used],
        [rows[i][1] for i in used],
        "o-",
        color="red",
        label="mean predicted vs observed",
    )
    for c, o, n in zip(centers, observed, counts, strict=True):
        if n:
            ax.annotate(
                str(n), (c, o), textcoords="offset points", xytext=(0, 3), ha="center", fontsize=7
            )
    ax.set(
        xlim=(0, 1), ylim=(0, 1.08), xlabel="predicted p(entailed)", ylabel="observed entailed rate"
    )
    ece = expected_calibration_error(rows)
    ax.set_title(f"{result.dataset}: reliability (ECE = {ece:.3f}, n per bin)", fontsize=10)
    ax.legend(loc="best", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)


def _fmt(value: float | None) -> str:
    return "–" if value is None else f"{value:.4f}"


def _slug(file: str, taken: set[str]) -> str:
    base = re.sub(r"[^A-Za-z0-9_.-]+", "_", Path(file).stem).strip("._") or "file"
    slug, i = base, 2
    while slug in taken:
        slug, i = f"{base}-{i}", i + 1
    taken.add(slug)
    return slug


def _markdown(results: Sequence[FileResult], checker: str, images: list[tuple[str, str]]) -> str:
    out = [
        "# citegate eval report",
        "",
        f"Checker: `{checker}`. `unknown` counts as *not entailed* in BAcc; p(entailed) is the "
        "confidence of an `entailed` verdict, 1 − confidence otherwise, 0.5 for `unknown`.",
        "",
        "| file | dataset | lang | n | binary BAcc | macro-F1 | unknown rate | AP | ECE "
        "| claims/s |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        curve = pr_curve(r.gold, r.p_entailed)
        ece = expected_calibration_error(reliability(r.gold, r.p_entailed))
        out.append(
            f"| {r.file} | {r.dataset} | {r.language} | {r.n} | {_fmt(r.binary_bacc)} | "
            f"{_fmt(r.macro_f1)} | {_fmt(r.unknown_rate)} | {_fmt(curve.average_precision)} | "
            f"{ece:.4f} | {_fmt(r.claims_per_s)} |"
        )
    for r, (pr_png, rel_png) in zip(results, images, strict=True):
        out += ["", f"## {r.file}", "", f"![precision-recall]({pr_png})", ""]
        out += [f"![reliability]({rel_png})", ""]
        out += [
            "| p(entailed) bin | mean predicted | observed entailed | n |",
            "|---|---:|---:|---:|",
        ]
        for i, (p, o, n) in enumerate(reliability(r.gold, r.p_entailed)):
            cells = f"{p:.3f} | {o:.3f}" if n else "– | –"
            out.append(f"| {i / BINS:.1f}–{(i + 1) / BINS:.1f} | {cells} | {n} |")
        if r.confusion is not None:
            out += ["", "Confusion (rows gold, columns predicted):", ""]
            out += ["| gold / predicted | " + " | ".join(PREDICTED) + " |"]
            out += ["|---|" + "---:|" * len(PREDICTED)]
            for g in LABELS:
                row = " | ".join(str(r.confusion[g][p]) for p in PREDICTED)
                out.append(f"| {g} | {row} |")
    return "\n".join(out) + "\n"


def _html(markdown: str) -> str:
    """The Markdown above as HTML: only headings, paragraphs, tables and images occur."""
    body: list[str] = []
    rows: list[list[str]] = []

    def flush() -> None:
        if rows:
            head, *rest = rows
            body.append("<table><tr>" + "".join(f"<th>{c}</th>" for c in head) + "</tr>")
            body.extend("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rest)
            body.append("</table>")
            rows.clear()

    for line in markdown.splitlines():
        if line.startswith("|"):
            if not re.fullmatch(r"\|[-:|]+\|", line):  # skip the header separator row
                cells = line.strip("| ").split(" | ")
                rows.append([html.escape(c.strip()) for c in cells])
            continue
        flush()
        if (m := re.fullmatch(r"!\[(.*)\]\((.*)\)", line)) is not None:
            alt, src = (html.escape(g, quote=True) for g in m.groups())
            body.append(f'<p><img src="{src}" alt="{alt}"></p>')
        elif line.startswith("#"):
            level = len(line) - len(line.lstrip("#"))
            body.append(f"<h{level}>{html.escape(line[level:].strip())}</h{level}>")
        elif line.strip():
            text = re.sub(r"`([^`]*)`", r"<code>\1</code>", html.escape(line))
            body.append("<p>" + re.sub(r"\*([^*]+)\*", r"<em>\1</em>", text) + "</p>")
    flush()
    style = (
        "body{font-family:sans-serif;max-width:60em;margin:2em auto}"
        "table{border-collapse:collapse;margin:1em 0}"
        "td,th{border:1px solid #ccc;padding:.2em .6em;text-align:right}"
        "td:first-child,th:first-child{text-align:left}"
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>citegate eval report</title><style>{style}</style></head><body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )


def write_report(results: Sequence[FileResult], checker: str, directory: Path) -> Path:
    """Write report.md, report.html and two PNGs per file into `directory`; returns the .md."""
    require_plotting()
    try:
        directory.mkdir(parents=True, exist_ok=True)
        taken: set[str] = set()
        images: list[tuple[str, str]] = []
        for r in results:
            slug = _slug(r.file, taken)
            pr_png, rel_png = f"{slug}-pr.png", f"{slug}-reliability.png"
            _plot_pr(r, pr_curve(r.gold, r.p_entailed), directory / pr_png)
            _plot_reliability(r, reliability(r.gold, r.p_entailed), directory / rel_png)
            images.append((pr_png, rel_png))
        markdown = _markdown(results, checker, images)
        (directory / "report.md").write_text(markdown, "utf-8")
        (directory / "report.html").write_text(_html(markdown), "utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write report to {directory}: {exc.strerror or exc}") from None
    return directory / "report.md"
