"""The manual-review queue as pure state, rebuilt from events (no I/O here).

Feed it every live decision, claim verdict and review in any interleaving of the three topics
(they are separate topics, so a decision may be read before its verdicts, a review before its
decision). An answer is pending while its latest live decision is `manual_review` (or
`regenerate_or_abstain`, shown behind a filter) and no review names that decision.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

REVIEWABLE = ("manual_review", "regenerate_or_abstain")
DEFAULT_STATUSES = frozenset({"manual_review"})
MAX_ORPHAN_VERDICT_GROUPS = 100_000
"""Verdict groups kept without a (reviewable) decision yet; the oldest are dropped beyond this."""

VerdictKey = tuple[str, str, str]


def ref_text(ref: Mapping[str, Any] | None) -> str:
    if not isinstance(ref, Mapping):
        return "?"
    return f"{ref.get('name', ref.get('id', '?'))}@{ref.get('version', '?')}"


def _key(event: Mapping[str, Any]) -> VerdictKey:
    checker = event.get("checker") or {}
    return (str(event["source_event_id"]), str(checker.get("name")), str(checker.get("version")))


def is_live(event: Mapping[str, Any]) -> bool:
    return event.get("replay_id") is None and event.get("mode", "live") == "live"


@dataclass(frozen=True, slots=True)
class Item:
    """One answer waiting for a reviewer: its decision and the claim verdicts behind it."""

    answer_id: str
    decision: Mapping[str, Any]
    decided_at_ms: int
    verdicts: Mapping[str, Mapping[str, Any]]
    """claim_id -> claim verdict event (possibly still incomplete while catching up)."""

    @property
    def status(self) -> str:
        return str(self.decision["final_status"])

    def slice(self) -> dict[str, str]:
        d = self.decision
        return {k: ref_text(d.get(k)) for k in ("generator", "retriever", "corpus", "checker")}

    def age_s(self, now_ms: int) -> float:
        return max(0.0, (now_ms - self.decided_at_ms) / 1000)


@dataclass(frozen=True, slots=True)
class Filters:
    """Queue filters; a slice filter matches `name` or `name@version`."""

    statuses: frozenset[str] = DEFAULT_STATUSES
    generator: str | None = None
    retriever: str | None = None
    corpus: str | None = None
    checker: str | None = None
    min_age_s: float | None = None

    def matches(self, item: Item, now_ms: int) -> bool:
        if item.status not in self.statuses:
            return False
        for name, value in item.slice().items():
            wanted = getattr(self, name)
            if wanted and wanted not in (value, value.rsplit("@", 1)[0]):
                return False
        return self.min_age_s is None or item.age_s(now_ms) >= self.min_age_s


@dataclass(frozen=True, slots=True)
class Removed:
    """A queued answer a review just took out of the queue (for the latency metric)."""

    item: Item
    review: Mapping[str, Any]


@dataclass
class ReviewQueue:
    """Pending answers, fed by events. Not thread-safe: one asyncio task feeds it."""

    _decisions: dict[str, tuple[Mapping[str, Any], int]] = field(default_factory=dict)
    _verdicts: OrderedDict[VerdictKey, dict[str, Mapping[str, Any]]] = field(
        default_factory=OrderedDict
    )
    _reviewed: set[str] = field(default_factory=set)
    _review_ids: set[str] = field(default_factory=set)
    max_orphans: int = MAX_ORPHAN_VERDICT_GROUPS

    # -- feeding -------------------------------------------------------------------------------

    def add_decision(self, event: Mapping[str, Any], ts_ms: int) -> None:
        if not is_live(event) or not event.get("answer_id"):
            return
        answer_id = str(event["answer_id"])
        current = self._decisions.get(answer_id)
        if current is not None and current[0]["event_id"] == event["event_id"]:
            return  # a duplicate delivery of the same decision
        if event["final_status"] not in REVIEWABLE or event["event_id"] in self._reviewed:
            # Superseded (e.g. the answer was re-sent and accepted) or already reviewed.
            if current is not None:
                del self._decisions[answer_id]
                self._verdicts.pop(_key(current[0]), None)
            self._verdicts.pop(_key(event), None)
            return
        if current is not None:
            self._verdicts.pop(_key(current[0]), None)
        self._decisions[answer_id] = (event, ts_ms)
        self._verdicts.setdefault(_key(event), {})

    def add_verdict(self, event: Mapping[str, Any]) -> None:
        if not is_live(event):
            return
        key = _key(event)
        group = self._verdicts.get(key)
        if group is None:
            group = self._verdicts[key] = {}
            self._prune()
        group[str(event["claim_id"])] = event

    def add_review(self, event: Mapping[str, Any], ts_ms: int) -> Removed | None:
        """Record a review; returns the queued answer it removed, if any."""
        del ts_ms  # the queue orders by decision time; the caller measures latency
        self._review_ids.add(str(event["event_id"]))
        decision_id = str(event["source_event_id"])
        self._reviewed.add(decision_id)
        answer_id = str(event.get("answer_id"))
        current = self._decisions.get(answer_id)
        if current is None or current[0]["event_id"] != decision_id:
            return None
        item = self._item(answer_id, *current)
        del self._decisions[answer_id]
        self._verdicts.pop(_key(current[0]), None)
        return Removed(item, event)

    def _prune(self) -> None:
        """Drop the oldest verdict groups no queued decision needs, beyond `max_orphans`."""
        excess = len(self._verdicts) - len(self._decisions) - self.max_orphans
        if excess <= 0:
            return
        wanted = {_key(d) for d, _ in self._decisions.values()}
        for key in list(self._verdicts):
            if excess <= 0:
                break
            if key not in wanted:
                del self._verdicts[key]
                excess -= 1

    # -- reading -------------------------------------------------------------------------------

    def _item(self, answer_id: str, decision: Mapping[str, Any], ts_ms: int) -> Item:
        group = self._verdicts.get(_key(decision), {})
        order = [str(c) for c in decision.get("claim_ids", [])]
        verdicts = {cid: group[cid] for cid in order if cid in group}
        verdicts.update({cid: v for cid, v in group.items() if cid not in verdicts})
        return Item(answer_id, decision, ts_ms, verdicts)

    def get(self, answer_id: str) -> Item | None:
        current = self._decisions.get(answer_id)
        return None if current is None else self._item(answer_id, *current)

    def has_review(self, review_event_id: str) -> bool:
        return review_event_id in self._review_ids

    def pending(self, filters: Filters, now_ms: int) -> list[Item]:
        """Matching answers, oldest decision first."""
        items = [self._item(a, d, ts) for a, (d, ts) in self._decisions.items()]
        items = [i for i in items if filters.matches(i, now_ms)]
        items.sort(key=lambda i: (i.decided_at_ms, i.answer_id))
        return items

    def depth(self) -> dict[str, int]:
        """Pending answers per reviewable status (zeros included)."""
        out = dict.fromkeys(REVIEWABLE, 0)
        for decision, _ in self._decisions.values():
            out[str(decision["final_status"])] += 1
        return out

    def oldest_age_s(self, now_ms: int) -> dict[str, float]:
        """Age of the oldest pending answer per status (0 when none is pending)."""
        out = dict.fromkeys(REVIEWABLE, 0.0)
        for decision, ts in self._decisions.values():
            status = str(decision["final_status"])
            out[status] = max(out[status], (now_ms - ts) / 1000)
        return out

    def facets(self) -> dict[str, list[str]]:
        """Distinct slice values of pending answers, for the filter drop-downs."""
        seen: dict[str, set[str]] = {k: set() for k in ("generator", "retriever", "corpus")}
        seen["checker"] = set()
        for decision, _ in self._decisions.values():
            for k, values in seen.items():
                values.add(ref_text(decision.get(k)))
        return {k: sorted(v) for k, v in seen.items()}

    def feed(self, topic_kind: str, events: Iterable[tuple[Mapping[str, Any], int]]) -> None:
        """Apply decoded events of one kind (`decision`, `verdict` or `review`) in order."""
        for event, ts in events:
            if topic_kind == "decision":
                self.add_decision(event, ts)
            elif topic_kind == "verdict":
                self.add_verdict(event)
            else:
                self.add_review(event, ts)
