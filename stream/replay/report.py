"""The replay diff: which answers would be decided differently today, and why.

Pure bookkeeping over event dicts, so it can be checkpointed as JSON and tested without Kafka.
Unchanged answers are counted, never listed: a replay over weeks of traffic must stay small.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

MAX_LISTED_CHANGES = 10_000
"""Changed answers listed in the report; the rest are counted (`changed_not_listed`)."""


@dataclass(slots=True)
class Original:
    """What the live stage decided for one input event (from rag.decisions / claim-verdicts)."""

    final_status: str
    claims: dict[str, dict[str, Any]] = field(default_factory=dict)


@dataclass(slots=True)
class ReplayReport:
    replay_id: str
    rebase: str | None
    checker: str
    transitions: Counter[str] = field(default_factory=Counter)
    changed: list[dict[str, Any]] = field(default_factory=list)
    unchanged: int = 0
    no_original: int = 0
    dead_letters: int = 0
    duplicates: int = 0
    changed_not_listed: int = 0
    processed: int = 0
    seconds: float = 0.0
    complete: bool = False

    def add(
        self,
        answer_id: str | None,
        original: Original | None,
        decision: dict[str, Any],
        verdicts: list[dict[str, Any]],
    ) -> None:
        new_status = decision["final_status"]
        if original is None:
            self.no_original += 1
            self.transitions[f"(none)->{new_status}"] += 1
            return
        self.transitions[f"{original.final_status}->{new_status}"] += 1
        claims = []
        for v in verdicts:
            old = original.claims.get(v["claim_id"])
            if (
                old is None
                or old.get("verdict") != v["verdict"]
                or (old.get("support_status") != v["support_status"])
            ):
                claims.append(
                    {
                        "claim_id": v["claim_id"],
                        "text": v["text"],
                        "old_verdict": old.get("verdict") if old else None,
                        "new_verdict": v["verdict"],
                        "old_support_status": old.get("support_status") if old else None,
                        "new_support_status": v["support_status"],
                        "old_reason": old.get("reason") if old else None,
                        "new_reason": v["reason"],
                        "errors": [e["code"] for e in v["deterministic_errors"]],
                        "warnings": [w["code"] for w in v["warnings"]],
                    }
                )
        if new_status == original.final_status:
            self.unchanged += 1
            return
        if len(self.changed) >= MAX_LISTED_CHANGES:
            self.changed_not_listed += 1
            return
        self.changed.append(
            {
                "answer_id": answer_id,
                "source_event_id": decision["source_event_id"],
                "old_status": original.final_status,
                "new_status": new_status,
                "reasons": decision["reasons"],
                "claims": claims,
            }
        )

    def to_json(self) -> dict[str, Any]:
        rate = self.processed / self.seconds if self.seconds else None
        return {
            "replay_id": self.replay_id,
            "rebase": self.rebase,
            "checker": self.checker,
            "transitions": dict(sorted(self.transitions.items())),
            "changed": self.changed,
            "unchanged": self.unchanged,
            "no_original": self.no_original,
            "dead_letters": self.dead_letters,
            "duplicates": self.duplicates,
            "changed_not_listed": self.changed_not_listed,
            "processed": self.processed,
            "seconds": round(self.seconds, 3),
            "answers_per_s": round(rate, 1) if rate else None,
            "complete": self.complete,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ReplayReport:
        report = cls(data["replay_id"], data.get("rebase"), data.get("checker", ""))
        report.transitions = Counter(data.get("transitions", {}))
        report.changed = list(data.get("changed", []))
        for name in (
            "unchanged",
            "no_original",
            "dead_letters",
            "duplicates",
            "changed_not_listed",
            "processed",
        ):
            setattr(report, name, int(data.get(name, 0)))
        report.seconds = float(data.get("seconds", 0.0))
        report.complete = bool(data.get("complete", False))
        return report

    def markdown(self) -> str:
        data = self.to_json()
        lines = [
            f"# citegate replay `{self.replay_id}`",
            "",
            f"Rebase: `{self.rebase or 'none'}` · checker `{self.checker}` · "
            f"{self.processed} input events in {data['seconds']} s "
            f"({data['answers_per_s']} /s)",
            "",
            "| transition | answers |",
            "|---|---:|",
        ]
        lines += [f"| {k} | {v} |" for k, v in data["transitions"].items()]
        lines += [
            "",
            f"Unchanged: {self.unchanged} · changed: "
            f"{len(self.changed) + self.changed_not_listed} · without an original "
            f"decision: {self.no_original} · dead letters: {self.dead_letters} · "
            f"duplicates: {self.duplicates}",
            "",
        ]
        for c in self.changed:
            lines += [f"## {c['answer_id']}: {c['old_status']} → {c['new_status']}", ""]
            for claim in c["claims"]:
                lines.append(
                    f"- `{claim['claim_id']}` {claim['text']!r}: {claim['old_verdict']} → "
                    f"{claim['new_verdict']} ({claim['new_support_status']}); "
                    f"{claim['new_reason']}"
                    + (f"; errors: {', '.join(claim['errors'])}" if claim["errors"] else "")
                    + (f"; warnings: {', '.join(claim['warnings'])}" if claim["warnings"] else "")
                )
            lines.append("")
        return "\n".join(lines)

    def write(self, path: str | Path) -> tuple[Path, Path]:
        """`PATH.json` and `PATH.md` beside it."""
        base = Path(path)
        json_path, md_path = base.with_name(base.name + ".json"), base.with_name(base.name + ".md")
        json_path.parent.mkdir(parents=True, exist_ok=True)
        json_path.write_bytes(orjson.dumps(self.to_json(), option=orjson.OPT_INDENT_2))
        md_path.write_text(self.markdown() + "\n", "utf-8")
        return json_path, md_path
