"""`citegate review export`: reviewed claims as eval records (`citegate eval`/`calibrate`).

Three passes over the topics keep memory to what was reviewed: the reviews (latest per answer),
then only the decisions they name, then only those decisions' claim verdicts. Evidence text is
the cited range of the document version from the store; inline passages and quotes come from
the answer event the decision names.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from stream.corpus.store import DocumentStore, open_store
from stream.errors import CorpusError, InputError
from stream.kafka.clients import bootstrap_servers
from stream.review.events import EVAL_LABEL, Label
from stream.review.feed import RecordFetcher, TopicFeed
from stream.review.queue import is_live
from stream.review.view import claimed_quotes
from stream.settings import Settings

SOURCE_DATASET = "citegate-review"
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
CYRILLIC = re.compile(r"[\u0400-\u04ff]")


def guess_language(text: str) -> str:
    """A coarse script-based guess when the answer event (and its `language`) is gone."""
    if CJK.search(text):
        return "zh"
    if CYRILLIC.search(text):
        return "ru"
    return "en"


@dataclass(frozen=True, slots=True)
class ExportSummary:
    reviews: int
    records: int
    skipped_claims: int
    """Reviewed claims whose verdict is no longer on its topic (nothing to export)."""


def write_jsonl(out: Path, records: list[dict[str, Any]]) -> None:
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records))
    except OSError as exc:
        raise InputError(f"cannot write {out}: {exc.strerror or exc}") from None


def _later(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    return (str(a.get("reviewed_at")), str(a.get("event_id"))) > (
        str(b.get("reviewed_at")),
        str(b.get("event_id")),
    )


async def _read(settings: Settings, bootstrap: list[str], topic: str, keep: Any) -> None:
    feed = TopicFeed(settings, bootstrap, [topic], lambda _t, e, ts, _h: keep(e, ts))
    await feed.run(follow=False)


async def evidence_for(
    verdict: Mapping[str, Any], answer: Mapping[str, Any] | None, store: DocumentStore | None
) -> list[dict[str, Any]]:
    """(document_id, text) per cited passage: corpus range, else the answer's own quote/text."""
    said = claimed_quotes(answer)
    spans = {str(e.get("citation_id")): e for e in verdict.get("evidence") or []}
    out: list[dict[str, Any]] = []
    for c in verdict.get("citations") or []:
        cid = str(c.get("citation_id"))
        doc_id, version = c.get("document_id"), c.get("document_version")
        start, end = c.get("start"), c.get("end")
        text: str | None = None
        if store is not None and doc_id and version and isinstance(start, int):
            try:
                doc = await store.get(doc_id, version)
            except CorpusError:
                doc = None
            if doc is not None and isinstance(end, int) and 0 <= start < end <= len(doc.text):
                text = doc.text[start:end]
        if text is None:
            s = said.get(cid, {})
            inline = s.get("text") if isinstance(s.get("text"), str) else s.get("quote")
            text = inline if isinstance(inline, str) else spans.get(cid, {}).get("text")
            doc_id = doc_id or s.get("document_id")
        if isinstance(text, str) and text:
            out.append({"document_id": doc_id, "text": text})
    return out


def eval_record(
    review: Mapping[str, Any],
    claim: Mapping[str, Any],
    verdict: Mapping[str, Any],
    evidence: list[dict[str, Any]],
    language: str,
) -> dict[str, Any]:
    """One line of the eval format (`stream.quality.evaluate.parse_record`) plus provenance."""
    label = Label(claim["label"])
    return {
        "id": f"{review['answer_id']}/{claim['claim_id']}",
        "claim": verdict["text"],
        "evidence": evidence,
        "label": EVAL_LABEL[label],
        "language": language,
        "source_dataset": SOURCE_DATASET,
        "reviewer_label": label.value,
        "checker_verdict": verdict.get("verdict"),
        "note": claim.get("note"),
        "answer_id": review["answer_id"],
        "claim_id": claim["claim_id"],
        "review_event_id": review["event_id"],
        "reviewer": review["reviewer"]["name"],
        "reviewed_at": review["reviewed_at"],
        "versions": {k: review[k] for k in ("corpus", "generator", "retriever", "checker")},
    }


async def export_reviews(settings: Settings, out: Path, *, use_store: bool = True) -> ExportSummary:
    bootstrap = bootstrap_servers(settings.broker)
    latest: dict[str, dict[str, Any]] = {}

    def keep_review(e: dict[str, Any], _ts: int) -> None:
        if e.get("schema") != "citegate.review.v1":
            return
        current = latest.get(e["answer_id"])
        if current is None or _later(e, current):
            latest[e["answer_id"]] = e

    await _read(settings, bootstrap, settings.topic_reviews, keep_review)
    wanted = {r["source_event_id"] for r in latest.values()}
    decisions: dict[str, dict[str, Any]] = {}

    def keep_decision(e: dict[str, Any], _ts: int) -> None:
        if e.get("event_id") in wanted and e.get("schema") == "citegate.decision.v1":
            decisions[e["event_id"]] = e

    await _read(settings, bootstrap, settings.topic_decisions, keep_decision)
    keys = {
        (d["source_event_id"], d["checker"]["name"], d["checker"]["version"])
        for d in decisions.values()
    }
    verdicts: dict[tuple[str, str, str], dict[str, dict[str, Any]]] = {}

    def keep_verdict(e: dict[str, Any], _ts: int) -> None:
        if e.get("schema") != "citegate.claim-verdict.v1" or not is_live(e):
            return
        key = (e["source_event_id"], e["checker"]["name"], e["checker"]["version"])
        if key in keys:
            verdicts.setdefault(key, {})[e["claim_id"]] = e

    await _read(settings, bootstrap, settings.topic_verdicts, keep_verdict)
    store = open_store(settings.store) if use_store else None
    fetcher = RecordFetcher(settings, bootstrap)
    records: list[dict[str, Any]] = []
    skipped = 0
    try:
        for review in sorted(latest.values(), key=lambda r: str(r["reviewed_at"])):
            decision = decisions.get(review["source_event_id"])
            if decision is None:
                skipped += len(review["claims"])
                continue
            key = (
                decision["source_event_id"],
                decision["checker"]["name"],
                decision["checker"]["version"],
            )
            group = verdicts.get(key, {})
            answer = await fetcher.for_decision(decision)
            for claim in review["claims"]:
                verdict = group.get(claim["claim_id"])
                if verdict is None:
                    skipped += 1
                    continue
                lang = answer.get("language") if answer else None
                language = lang if isinstance(lang, str) and lang else None
                records.append(
                    eval_record(
                        review,
                        claim,
                        verdict,
                        await evidence_for(verdict, answer, store),
                        language or guess_language(str(verdict["text"])),
                    )
                )
    finally:
        await fetcher.stop()
        if store is not None:
            await store.close()
    await asyncio.to_thread(write_jsonl, out, records)
    return ExportSummary(len(latest), len(records), skipped)
