"""Human-readable tables for terminals (verify, demo). Plain text; colour only on a TTY."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

_COLORS = {
    "accept": "32",
    "entailed": "32",
    "supported": "32",
    "reject": "31",
    "contradicted": "31",
    "contradictsEvidence": "31",
    "manual_review": "33",
    "unknown": "33",
    "unverified": "33",
    "regenerate_or_abstain": "35",
    "insufficient": "35",
}


def width(text: str) -> int:
    """Display width: East Asian wide characters take two columns."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    if width(text) <= limit:
        return text
    out, used = [], 0
    for c in text:
        w = width(c)
        if used + w > limit - 1:
            break
        out.append(c)
        used += w
    return "".join(out) + "…"


def pad(text: str, size: int) -> str:
    return text + " " * max(0, size - width(text))


def paint(text: str, key: str, color: bool) -> str:
    code = _COLORS.get(key)
    return f"\x1b[{code}m{text}\x1b[0m" if color and code else text


def table(
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    color: bool = False,
    color_cols: Sequence[int] = (),
) -> str:
    widths = [max([width(h)] + [width(r[i]) for r in rows]) for i, h in enumerate(headers)]
    lines = [
        "  ".join(pad(h, widths[i]) for i, h in enumerate(headers)).rstrip(),
        "  ".join("-" * w for w in widths),
    ]
    for row in rows:
        cells = []
        for i, cell in enumerate(row):
            padded = pad(cell, widths[i])
            cells.append(paint(padded, cell, color) if i in color_cols else padded)
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def render_table(report: Mapping[str, Any], color: bool = False) -> str:
    """One answer's verification as a per-claim table plus its decision and errors."""
    decision = report["decision"]
    title = report.get("answer_id") or decision["source_event_id"]
    status = decision["final_status"]
    head = f"answer {title}: {paint(status, status, color)} ({decision['gate']})"
    rows = []
    for v in report["verdicts"]:
        signals = ", ".join(f"{s['code']}({s['detail']})" for s in v["risk_signals"])
        rows.append(
            [
                v["claim_id"],
                v["verdict"],
                v["support_status"],
                v["action"],
                ",".join(v["citation_ids"]) or "-",
                f"{v['score']:.2f}",
                clip(v["text"], 44),
                clip(signals, 40) or "-",
            ]
        )
    body = table(
        ["claim", "verdict", "support", "action", "cites", "score", "text", "signals"],
        rows,
        color,
        color_cols=(1, 2),
    )
    extra = [f"  error {e['code']} [{e['citation_id']}]: {e['detail']}" for e in report["errors"]]
    for v in report["verdicts"]:
        extra += [
            f"  {v['claim_id']}: {e['code']} [{e['citation_id']}]: {e['detail']}"
            for e in v["deterministic_errors"]
            if e["code"] == "citation_unknown"
        ]
        extra += [f"  {v['claim_id']}: warning {w['code']}: {w['detail']}" for w in v["warnings"]]
    reasons = [f"  reason: {r}" for r in decision["reasons"]]
    return "\n".join([head, body, *extra, *reasons, ""])
