"""Releasing answers a reviewer published: exactly the text the gate verified, once.

The review is the record and the release follows from it: `submit` builds the release before
the review is written (a release that cannot be built — the answer event expired, its verdicts
not read yet — refuses the `publish` with nothing written), writes the review, then the
release. A server that stopped between the two finds, after catching up, the `publish` reviews
that have no release on `rag.released` and releases them (`ReleaseKeeper`), unless the answer
was decided again since. Release ids are deterministic (`stream.release`), so a release sent
twice in a race is one release to every consumer that deduplicates by id.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import orjson
from aiokafka.errors import KafkaError

from stream.codec import answer_from_obj, encode
from stream.errors import InputError
from stream.release import release_event
from stream.review.queue import Item, is_live
from stream.settings import Settings
from stream.stage import OutRecord
from stream.tracing import TraceContext
from stream.verify.parse import Limits

log = logging.getLogger("citegate.review")

MAX_REMEMBERED = 100_000
"""Release ids and released decisions remembered (oldest forgotten first); the ids stay
deterministic either way, this only saves sending a repeat."""
RETRY_S = 30.0

Publish = Callable[[list[OutRecord]], Awaitable[None]]
FetchAnswer = Callable[[Mapping[str, Any]], Awaitable[dict[str, Any] | None]]
Scan = Callable[[Mapping[str, Mapping[str, Any]]], Awaitable[dict[str, Item]]]
"""decision id -> publish review, to the queue items of those decisions that are still the
latest for their answer (read again from the decisions and verdicts topics)."""


class Unavailable(Exception):
    """The answer cannot be released (what the gate verified is not readable): for good, or
    for now (`retriable`: the broker failed, the verdicts are still being read)."""

    def __init__(self, message: str, *, retriable: bool = False) -> None:
        super().__init__(message)
        self.retriable = retriable


class _Bounded(OrderedDict[str, Any]):
    def remember(self, key: str, value: Any = None) -> None:
        self[key] = value
        self.move_to_end(key)
        while len(self) > MAX_REMEMBERED:
            self.popitem(last=False)


class Releaser:
    """Builds and sends review releases; remembers what is released and what is owed."""

    def __init__(self, settings: Settings, publish: Publish, fetch_answer: FetchAnswer) -> None:
        self.settings = settings
        self.publish = publish
        self.fetch_answer = fetch_answer
        self.limits = Limits(settings.max_claims, settings.max_citations_per_claim)
        self.released = _Bounded()
        """Release event ids on the topic (any releaser's) or sent by this server."""
        self.released_decisions = _Bounded()
        """Decision ids a review release named."""
        self.owed: dict[str, tuple[Mapping[str, Any], TraceContext | None]] = {}
        """Decision id -> (publish review, trace) read back without a release yet."""
        self.sending: set[str] = set()
        self.unsent: dict[str, OutRecord] = {}
        """Releases built and not acknowledged (retried by the keeper)."""
        self.unreleasable: set[str] = set()
        self.wakeup = asyncio.Event()

    # -- what the feed reads ------------------------------------------------------------------

    def on_release(self, event: Mapping[str, Any]) -> None:
        self.released.remember(str(event["event_id"]))
        if event.get("released_by") == "review":
            decision_id = str(event["decision"]["event_id"])
            self.released_decisions.remember(decision_id)
            self.owed.pop(decision_id, None)

    def on_review(self, event: Mapping[str, Any], trace: TraceContext | None) -> None:
        decision_id = str(event["source_event_id"])
        if event.get("decision") != "publish" or decision_id in self.sending:
            return
        if decision_id not in self.released_decisions:
            self.owed[decision_id] = (event, trace)

    # -- releasing ------------------------------------------------------------------------------

    async def build(
        self, item: Item, review: Mapping[str, Any], trace: TraceContext | None
    ) -> OutRecord | None:
        """The release record of a published review, None when it is already released."""
        missing = [c for c in claim_order(item) if c not in item.verdicts]
        if missing:
            raise Unavailable(
                f"the claim verdicts of {', '.join(missing[:5])} are not read yet; retry shortly",
                retriable=True,
            )
        try:
            raw = await self.fetch_answer(item.decision)
        except (KafkaError, OSError) as exc:
            raise Unavailable(
                f"the answer event cannot be read now ({type(exc).__name__}); retry shortly",
                retriable=True,
            ) from None
        if raw is None:
            raise Unavailable(
                "the answer event this decision verified is no longer on the answers topic, "
                "so it cannot be released; choose regenerate or reject"
            )
        try:
            answer = answer_from_obj(raw, self.limits)
        except InputError as exc:
            raise Unavailable(f"the answer event cannot be read: {exc.message}") from None
        verified = item.decision.get("answer_digest")
        if verified is not None and verified != answer.content_digest:
            raise Unavailable("the answer event found differs from the one the gate verified")
        verdicts = [item.verdicts[c] for c in claim_order(item)]
        trace_id = item.decision.get("trace_id") or (trace.trace_id if trace else None)
        event = release_event(answer, verdicts, item.decision, review=review, trace_id=trace_id)
        if event["event_id"] in self.released:
            log.info("answer %s is already released as %s", item.answer_id, event["event_id"])
            return None
        headers = trace.headers() if trace is not None else ()
        key = item.answer_id.encode("utf-8")
        return OutRecord(self.settings.topic_released, key, encode(event), headers)

    async def send(self, decision_id: str, record: OutRecord) -> bool:
        """Send one release; on failure it stays owed and the keeper retries it."""
        try:
            await self.publish([record])
        except Exception as exc:  # noqa: BLE001 — any failure: retried, never lost
            log.warning("release for decision %s not sent (%s); will retry", decision_id, exc)
            self.unsent[decision_id] = record
            self.wakeup.set()
            return False
        self.unsent.pop(decision_id, None)
        self.owed.pop(decision_id, None)
        self.released_decisions.remember(decision_id)
        self.released.remember(str(orjson.loads(record.value)["event_id"]))
        return True


def claim_order(item: Item) -> list[str]:
    ids = [str(c) for c in item.decision.get("claim_ids") or []]
    return ids or list(item.verdicts)


class ReleaseKeeper:
    """After the feed caught up: sends what is unsent and releases what is owed."""

    def __init__(
        self,
        releaser: Releaser,
        caught_up: asyncio.Event,
        scan: Scan,
        on_first_round: Callable[[], None] = lambda: None,
    ) -> None:
        self.releaser = releaser
        self.caught_up = caught_up
        self.scan = scan
        self.on_first_round = on_first_round
        self.rounds = 0

    async def run(self) -> None:
        await self.caught_up.wait()
        while True:
            try:
                await self.once()
            except Exception:  # the broker or the store failed: the next round tries again
                log.exception("releasing owed answers failed; retrying in %.0fs", RETRY_S)
            if self.rounds == 1:
                self.on_first_round()
            self.releaser.wakeup.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.releaser.wakeup.wait(), RETRY_S)

    async def once(self) -> int:
        """One pass; returns the releases sent."""
        r = self.releaser
        self.rounds += 1
        sent = 0
        for decision_id, unsent in list(r.unsent.items()):
            sent += await r.send(decision_id, unsent)
        owed = {
            d: review
            for d, (review, _) in r.owed.items()
            if d not in r.unsent and d not in r.unreleasable and d not in r.sending
        }
        if not owed:
            return sent
        log.info("%d published answers have no release yet; releasing them", len(owed))
        items = await self.scan(owed)
        for decision_id, review in owed.items():
            item = items.get(decision_id)
            if item is None:
                log.warning(
                    "decision %s was decided again or is gone; its publish review is not released",
                    decision_id,
                )
                r.unreleasable.add(decision_id)
                continue
            trace = r.owed.get(decision_id, (None, None))[1]
            try:
                record = await r.build(item, review, trace)
            except Unavailable as exc:
                log.warning("cannot release decision %s: %s", decision_id, exc)
                if not exc.retriable:
                    r.unreleasable.add(decision_id)  # else: still owed, the next round retries
                continue
            if record is None:
                r.owed.pop(decision_id, None)
                continue
            sent += await r.send(decision_id, record)
        return sent


def scanner(read: Callable[[list[str], Any], Awaitable[None]], settings: Settings) -> Scan:
    """A `Scan` reading the decisions and verdicts topics once from the beginning (`read` is
    `TopicFeed(...).run(follow=False)` over those topics with a handler)."""

    async def scan(owed: Mapping[str, Mapping[str, Any]]) -> dict[str, Item]:
        latest: dict[str, str] = {}
        decisions: dict[str, tuple[Mapping[str, Any], int]] = {}
        wanted_groups = {
            (str(r.get("answer_event_id")), str(r["checker"]["name"]), str(r["checker"]["version"]))
            for r in owed.values()
        }
        groups: dict[tuple[str, str, str], dict[str, Mapping[str, Any]]] = {}

        def keep(topic: str, event: Mapping[str, Any], ts: int, headers: Any) -> None:
            if not is_live(event):
                return
            if topic == settings.topic_decisions and event.get("answer_id"):
                latest[str(event["answer_id"])] = str(event["event_id"])
                if event["event_id"] in owed:
                    decisions[str(event["event_id"])] = (event, ts)
            elif topic == settings.topic_verdicts:
                checker = event.get("checker") or {}
                key = (
                    str(event["source_event_id"]),
                    str(checker.get("name")),
                    checker.get("version"),
                )
                if key in wanted_groups:
                    groups.setdefault(key, {})[str(event["claim_id"])] = event

        await read([settings.topic_decisions, settings.topic_verdicts], keep)
        out = {}
        for decision_id, (decision, ts) in decisions.items():
            answer_id = str(decision["answer_id"])
            if latest.get(answer_id) != decision_id:
                continue  # decided again since the review: the review does not apply
            checker = decision.get("checker") or {}
            key = (
                str(decision["source_event_id"]),
                str(checker.get("name")),
                str(checker.get("version")),
            )
            out[decision_id] = Item(answer_id, decision, ts, groups.get(key, {}))
        return out

    return scan
