"""Replay without a broker: citation rebasing, the replay report, and the CLI's parsers."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
import pytest

from stream.cli import main
from stream.commands.replay_cmd import parse_offsets, parse_time
from stream.errors import UsageError
from stream.replay import report as replay_report
from stream.replay.report import Original, ReplayReport
from stream.verify.citations import DocumentSnapshot, sha256_hex
from stream.verify.codes import CheckCode
from stream.verify.model import Answer, Citation, Claim, Document, OffsetUnit
from stream.verify.offsets import from_codepoints, to_codepoints
from stream.verify.rebase import rebase

# -- rebase ------------------------------------------------------------------------------------

QUOTE = "Passwords must be rotated every 90 days."
V1 = f"Security guide. {QUOTE} Audit logs are kept."
V2 = f"Security guide, revised. Scope: staff. {QUOTE} Audit logs are kept."


def doc(version: str, text: str, document_id: str = "guide") -> Document:
    return Document(document_id, version, text, sha256_hex(text))


def answer(*citations: Citation, unit: OffsetUnit = "codepoint") -> Answer:
    ids = tuple(c.id for c in citations if c.id)
    return Answer(
        answer="Passwords must be rotated every 90 days.",
        claims=(Claim("c1", "Passwords must be rotated every 90 days.", ids),),
        citations=tuple(citations),
        offset_unit=unit,
    )


def ranged(text: str, quote: str, unit: OffsetUnit = "codepoint", **kw: Any) -> Citation:
    """A citation of `quote` in `text` with its range in `unit` (version v1 of `guide`)."""
    cp = text.index(quote)
    start, end = from_codepoints(text, cp, cp + len(quote), unit)
    fields: dict[str, Any] = {
        "document_id": "guide",
        "document_version": "v1",
        "start": start,
        "end": end,
        "quote": quote,
        "sha256": sha256_hex(text),
    }
    fields.update(kw)
    return Citation("q1", **fields)


def test_quote_moved_once_is_rebased_with_its_old_and_new_range() -> None:
    old, new = doc("v1", V1), doc("v2", V2)
    moved, notes = rebase(answer(ranged(V1, QUOTE)), DocumentSnapshot.of([old]), {"guide": new})

    c = moved.citations[0]
    assert (c.document_id, c.document_version) == ("guide", "v2")
    assert c.sha256 is None  # the old digest would contradict the new version
    assert c.quote == QUOTE
    assert V2[c.start : c.end] == QUOTE  # type: ignore[misc]
    note = notes["q1"]
    assert note.code is CheckCode.RANGE_REBASED
    assert note.relocated_from == (V1.index(QUOTE), V1.index(QUOTE) + len(QUOTE))
    assert note.relocated_to == (V2.index(QUOTE), V2.index(QUOTE) + len(QUOTE))
    assert note.to_dict()["relocated_to"] == list(note.relocated_to)


@pytest.mark.parametrize("unit", ["utf16", "utf8", "codepoint"])
def test_rebased_range_is_in_the_answers_offset_unit(unit: OffsetUnit) -> None:
    # Astral characters (2 UTF-16 units, 4 UTF-8 bytes) and Cyrillic before the quote make
    # every unit count differently.
    quote = "Журнал хранится 30 дней 🗂."
    v1 = f"🔐 Правила. {quote} Конец."
    v2 = f"🔐🔐 Правила, издание 2. 📎 {quote} Конец."
    old, new = doc("v1", v1), doc("v2", v2)
    citation = ranged(v1, quote, unit)
    if unit != "codepoint":
        assert (citation.start, citation.end) != (v1.index(quote), v1.index(quote) + len(quote))

    moved, notes = rebase(answer(citation, unit=unit), DocumentSnapshot.of([old]), {"guide": new})

    c = moved.citations[0]
    cp_start = v2.index(quote)
    cp = (cp_start, cp_start + len(quote))
    assert (c.start, c.end) == from_codepoints(v2, *cp, unit)
    assert c.start is not None
    assert c.end is not None
    back = to_codepoints(v2, c.start, c.end, unit)
    assert back is not None
    assert v2[back[0] : back[1]] == quote
    # The finding reports code points, like range_relocated does.
    assert notes["q1"].code is CheckCode.RANGE_REBASED
    assert notes["q1"].relocated_to == cp
    assert notes["q1"].relocated_from == (v1.index(quote), v1.index(quote) + len(quote))


def test_quote_absent_from_the_target_version_fails() -> None:
    old, new = doc("v1", V1), doc("v2", V1.replace("90 days", "60 days"))
    citation = ranged(V1, QUOTE)
    moved, notes = rebase(answer(citation), DocumentSnapshot.of([old]), {"guide": new})

    assert moved.citations[0] == citation  # left as cited, so its checks still name v1
    assert notes["q1"].code is CheckCode.QUOTE_MISSING_IN_VERSION
    assert "does not occur" in notes["q1"].detail
    assert "'v2'" in notes["q1"].detail


def test_quote_occurring_twice_in_the_target_version_is_ambiguous() -> None:
    old, new = doc("v1", V1), doc("v2", f"{QUOTE} Again: {QUOTE}")
    citation = ranged(V1, QUOTE)
    moved, notes = rebase(answer(citation), DocumentSnapshot.of([old]), {"guide": new})

    assert moved.citations[0] == citation
    assert notes["q1"].code is CheckCode.QUOTE_MISSING_IN_VERSION
    assert "more than once" in notes["q1"].detail


def test_document_without_a_target_version_is_missing() -> None:
    citation = ranged(V1, QUOTE)
    moved, notes = rebase(answer(citation), DocumentSnapshot.of([doc("v1", V1)]), {"guide": None})

    assert moved.citations[0] == citation
    assert notes["q1"].code is CheckCode.DOCUMENT_MISSING


def test_citation_already_on_the_target_version_is_untouched() -> None:
    citation = ranged(V1, QUOTE)
    moved, notes = rebase(
        answer(citation), DocumentSnapshot.of([doc("v1", V1)]), {"guide": doc("v1", V1)}
    )

    assert moved.citations == (citation,)
    assert notes == {}


def test_documents_not_in_the_targets_and_uncited_ids_are_untouched() -> None:
    other = Citation("q2", "other-doc", "v1", 0, 5, "Hello")
    no_id = Citation(None, "guide", "v1", 0, 5, "Secur")
    moved, notes = rebase(
        answer(other, no_id), DocumentSnapshot.of([doc("v1", V1)]), {"guide": doc("v2", V2)}
    )

    assert moved.citations == (other, no_id)
    assert notes == {}


def test_citation_broken_in_its_own_stored_version_is_left_alone() -> None:
    """A corpus update must not turn a citation that was already wrong into a good one."""
    start = V1.index(QUOTE) + 1  # off by one: the cited range does not hold the quote
    off_by_one = Citation("q1", "guide", "v1", start, start + len(QUOTE), QUOTE)
    moved, notes = rebase(
        answer(off_by_one), DocumentSnapshot.of([doc("v1", V1)]), {"guide": doc("v2", V2)}
    )

    assert moved.citations == (off_by_one,)
    assert notes == {}


def test_range_cutting_a_character_counts_as_broken_before() -> None:
    text = f"🔐 {QUOTE}"
    cut = Citation("q1", "guide", "v1", 1, 5, QUOTE)  # utf16 offset 1 splits the emoji
    moved, notes = rebase(
        answer(cut, unit="utf16"), DocumentSnapshot.of([doc("v1", text)]), {"guide": doc("v2", V2)}
    )

    assert moved.citations == (cut,)
    assert notes == {}


def test_citation_of_a_version_no_longer_stored_is_rebased_by_its_quote() -> None:
    start = V1.index(QUOTE) + 1  # unverifiable now: v1 is gone, so only the quote counts
    citation = Citation("q1", "guide", "v1", start, start + len(QUOTE), QUOTE)
    moved, notes = rebase(answer(citation), DocumentSnapshot.of([]), {"guide": doc("v2", V2)})

    c = moved.citations[0]
    assert c.document_version == "v2"
    assert V2[c.start : c.end] == QUOTE  # type: ignore[misc]
    assert notes["q1"].code is CheckCode.RANGE_REBASED
    assert notes["q1"].relocated_from is None


def test_whole_document_citation_follows_the_version() -> None:
    citation = Citation("q1", "guide", "v1", sha256=sha256_hex(V1))
    moved, notes = rebase(
        answer(citation), DocumentSnapshot.of([doc("v1", V1)]), {"guide": doc("v2", V2)}
    )

    c = moved.citations[0]
    assert (c.document_version, c.start, c.end, c.quote, c.sha256) == ("v2", None, None, None, None)
    assert notes == {}


def test_range_without_a_quote_is_rebased_by_the_text_it_covered() -> None:
    start = V1.index(QUOTE)
    citation = Citation("q1", "guide", "v1", start, start + len(QUOTE))
    moved, notes = rebase(
        answer(citation), DocumentSnapshot.of([doc("v1", V1)]), {"guide": doc("v2", V2)}
    )

    c = moved.citations[0]
    assert c.document_version == "v2"
    assert V2[c.start : c.end] == QUOTE  # type: ignore[misc]
    assert notes["q1"].code is CheckCode.RANGE_REBASED


def test_unranged_citations_stay_unranged() -> None:
    """Rebasing re-points the version; it never adds a range the producer did not send."""
    inline = Citation("q1", "guide", "v1", text=QUOTE)
    quote_only = Citation("q2", "guide", "v1", quote=QUOTE)
    moved, notes = rebase(
        answer(inline, quote_only), DocumentSnapshot.of([doc("v1", V1)]), {"guide": doc("v2", V2)}
    )

    for c in moved.citations:
        assert (c.document_version, c.start, c.end) == ("v2", None, None), c
    assert moved.citations[0].text == QUOTE
    assert moved.citations[1].quote == QUOTE
    assert {k: n.code for k, n in notes.items()} == {
        "q1": CheckCode.RANGE_REBASED,
        "q2": CheckCode.RANGE_REBASED,
    }
    assert notes["q1"].relocated_from is None
    assert notes["q1"].relocated_to == (V2.index(QUOTE), V2.index(QUOTE) + len(QUOTE))


# -- the report --------------------------------------------------------------------------------


def verdict(claim_id: str, verdict: str, support: str, **kw: Any) -> dict[str, Any]:
    return {
        "claim_id": claim_id,
        "text": f"claim {claim_id}",
        "verdict": verdict,
        "support_status": support,
        "reason": kw.get("reason", "because"),
        "deterministic_errors": [{"code": c} for c in kw.get("errors", [])],
        "warnings": [{"code": c} for c in kw.get("warnings", [])],
    }


def decision(source: str, status: str) -> dict[str, Any]:
    return {"source_event_id": source, "final_status": status, "reasons": [f"why {status}"]}


def old(status: str, **claims: tuple[str, str]) -> Original:
    return Original(
        status,
        {k: {"verdict": v, "support_status": s, "reason": "then"} for k, (v, s) in claims.items()},
    )


def filled_report() -> ReplayReport:
    r = ReplayReport("r-1", "latest", "rules@rules-1.1")
    r.add(
        "a-1",
        old("accept", c1=("entailed", "supported"), c2=("entailed", "supported")),
        decision("e-1", "reject"),
        [
            verdict("c1", "unknown", "wrongCitation", errors=["quote_missing_in_version"]),
            verdict("c2", "entailed", "supported", warnings=["range_rebased"]),
        ],
    )
    r.add(
        "a-2",
        old("accept", c1=("entailed", "supported")),
        decision("e-2", "accept"),
        [verdict("c1", "entailed", "supported", warnings=["range_rebased"])],
    )
    r.add("a-3", None, decision("e-3", "manual_review"), [verdict("c1", "neutral", "partial")])
    r.processed, r.dead_letters, r.duplicates, r.seconds, r.complete = 5, 1, 1, 2.5, True
    return r


def test_report_add_counts_transitions_and_lists_only_changed_claims() -> None:
    r = filled_report()
    assert r.transitions == {
        "accept->reject": 1,
        "accept->accept": 1,
        "(none)->manual_review": 1,
    }
    assert (r.unchanged, r.no_original) == (1, 1)
    [changed] = r.changed
    assert changed["answer_id"] == "a-1"
    assert changed["source_event_id"] == "e-1"
    assert (changed["old_status"], changed["new_status"]) == ("accept", "reject")
    assert changed["reasons"] == ["why reject"]
    [claim] = changed["claims"]  # c2 kept its verdict: not listed
    assert claim == {
        "claim_id": "c1",
        "text": "claim c1",
        "old_verdict": "entailed",
        "new_verdict": "unknown",
        "old_support_status": "supported",
        "new_support_status": "wrongCitation",
        "old_reason": "then",
        "new_reason": "because",
        "errors": ["quote_missing_in_version"],
        "warnings": [],
    }


def test_report_claim_without_an_original_verdict_is_listed_as_new() -> None:
    r = ReplayReport("r", None, "rules@1")
    r.add("a", old("accept"), decision("e", "reject"), [verdict("c9", "unknown", "missing")])
    [claim] = r.changed[0]["claims"]
    assert (claim["old_verdict"], claim["old_support_status"], claim["old_reason"]) == (
        None,
        None,
        None,
    )


def test_report_caps_the_listed_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replay_report, "MAX_LISTED_CHANGES", 2)
    r = ReplayReport("r", None, "rules@1")
    for i in range(5):
        r.add(f"a-{i}", old("accept"), decision(f"e-{i}", "reject"), [])
    assert [c["answer_id"] for c in r.changed] == ["a-0", "a-1"]
    assert r.changed_not_listed == 3
    assert r.transitions == {"accept->reject": 5}
    assert "changed: 5" in r.markdown()


def test_report_json_round_trip() -> None:
    r = filled_report()
    data = r.to_json()
    assert data["answers_per_s"] == 2.0
    assert data["transitions"] == dict(sorted(r.transitions.items()))
    back = ReplayReport.from_json(orjson.loads(orjson.dumps(data)))
    assert back.to_json() == data
    assert back.transitions == r.transitions
    assert back.markdown() == r.markdown()
    # A resumed report keeps counting where the checkpointed one stopped.
    back.add("a-4", old("reject"), decision("e-4", "reject"), [])
    assert back.unchanged == 2
    assert back.transitions["reject->reject"] == 1


def test_empty_report_round_trip_and_rate() -> None:
    r = ReplayReport("r-empty", None, "rules@1")
    assert r.to_json()["answers_per_s"] is None
    assert ReplayReport.from_json(r.to_json()).to_json() == r.to_json()
    assert "Rebase: `none`" in r.markdown()


def test_report_markdown_and_files(tmp_path: Path) -> None:
    r = filled_report()
    md = r.markdown()
    assert md.startswith("# citegate replay `r-1`")
    assert "Rebase: `latest` · checker `rules@rules-1.1` · 5 input events in 2.5 s (2.0 /s)" in md
    assert "| accept->reject | 1 |" in md
    assert "| (none)->manual_review | 1 |" in md
    assert "Unchanged: 1 · changed: 1 · without an original decision: 1 · dead letters: 1" in md
    assert "## a-1: accept → reject" in md
    assert "- `c1` 'claim c1': entailed → unknown (wrongCitation); because; errors: " in md
    assert "quote_missing_in_version" in md
    assert "a-2" not in md  # unchanged answers are counted, never listed

    json_path, md_path = r.write(tmp_path / "sub" / "rep")
    assert (json_path.name, md_path.name) == ("rep.json", "rep.md")
    assert orjson.loads(json_path.read_bytes()) == r.to_json()
    assert md_path.read_text("utf-8") == md + "\n"


# -- command line ------------------------------------------------------------------------------

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC).timestamp()


@pytest.mark.parametrize(
    ("value", "expected_s"),
    [
        ("7d", NOW - 7 * 86400),
        ("12h", NOW - 12 * 3600),
        (" 30m ", NOW - 30 * 60),
        ("45s", NOW - 45),
        ("0s", NOW),
        ("2026-11-29T12:00:00Z", datetime(2026, 11, 29, 12, tzinfo=UTC).timestamp()),
        ("2026-11-29T12:00:00", datetime(2026, 11, 29, 12, tzinfo=UTC).timestamp()),
        ("2026-11-29T15:00:00+03:00", datetime(2026, 11, 29, 12, tzinfo=UTC).timestamp()),
        ("2026-11-29", datetime(2026, 11, 29, tzinfo=UTC).timestamp()),
        ("2026-11-29T12:00:00.250Z", datetime(2026, 11, 29, 12, tzinfo=UTC).timestamp() + 0.25),
    ],
)
def test_parse_time(value: str, expected_s: float) -> None:
    assert parse_time(value, now=NOW) == int(expected_s * 1000)


def test_parse_time_defaults_to_now() -> None:
    before = datetime.now(UTC).timestamp() * 1000
    assert before - 60_000 - 1000 <= parse_time("1m") <= before - 60_000 + 1000


@pytest.mark.parametrize("value", ["yesterday", "7w", "-7d", "7 d", "", "2026-13-01", "d7"])
def test_parse_time_rejects(value: str) -> None:
    with pytest.raises(UsageError, match="cannot read time"):
        parse_time(value, now=NOW)


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("0:100-200", {0: (100, 200)}),
        ("0:100-200,1:0-", {0: (100, 200), 1: (0, None)}),
        (" 3:7-7 , 12:5- ", {3: (7, 7), 12: (5, None)}),
    ],
)
def test_parse_offsets(spec: str, expected: dict[int, tuple[int, int | None]]) -> None:
    assert parse_offsets(spec) == expected


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", "bad --partition-offsets entry"),
        ("0", "bad --partition-offsets entry"),
        ("0:5", "bad --partition-offsets entry"),
        ("0:-5", "bad --partition-offsets entry"),
        ("-1:0-", "bad --partition-offsets entry"),
        ("a:0-1", "bad --partition-offsets entry"),
        ("0:1-2,", "bad --partition-offsets entry"),
        ("0:1-2;1:0-", "bad --partition-offsets entry"),
        ("0:10-5", "END before START"),
    ],
)
def test_parse_offsets_rejects(spec: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        parse_offsets(spec)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--limit", "0"], "--limit must be at least 1"),
        (["--batch-size", "0"], "--batch-size must be at least 1"),
        (["--replay-id", "a b"], "--replay-id"),
        (["--since", "soon"], "cannot read time"),
        (["--partition-offsets", "0:9-1"], "END before START"),
        (["--output-topic", "rag.decisions"], "is a live topic"),
        (["--output-topic", "rag.answers"], "is a live topic"),
        (["--output-topic", "rag.claim-verdicts"], "is a live topic"),
        (["--output-topic", "rag.answers.dlq"], "is a live topic"),
    ],
)
def test_cli_usage_errors_exit_2_with_one_line(
    args: list[str],
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Refused before any connection: the broker address is never dialled.
    for name in ("TOPIC_ANSWERS", "TOPIC_VERDICTS", "TOPIC_DECISIONS", "TOPIC_DLQ", "BROKER"):
        monkeypatch.delenv(f"CITEGATE_{name}", raising=False)
    monkeypatch.chdir(tmp_path)
    rc = main(
        [
            "replay",
            "--broker",
            "kafka://127.0.0.1:9",
            "--store",
            f"sqlite:///{tmp_path / 'c.db'}",
            *args,
        ]
    )
    err = capsys.readouterr().err
    assert rc == 2
    assert message in err
    assert err.count("\n") == 1, err
    assert list(tmp_path.iterdir()) == []  # no report, no checkpoint, no store


def test_cli_refuses_the_embedded_broker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("CITEGATE_BROKER", raising=False)
    monkeypatch.chdir(tmp_path)
    assert main(["replay", "--broker", "embedded"]) == 2
    assert "pass --broker kafka://" in capsys.readouterr().err


def test_resume_keeps_the_interrupted_runs_bounds_and_refuses_other_options(tmp_path: Path) -> None:
    from stream.checkers.base import SyncChecker
    from stream.metrics import Metrics
    from stream.replay.engine import Plan, Replay
    from stream.settings import Settings
    from stream.verify.checkers import RulesChecker

    checkpoint = tmp_path / "r.checkpoint.json"

    def make(**plan: Any) -> Replay:
        return Replay(
            Settings(),
            {},
            {},
            None,
            SyncChecker(RulesChecker()),  # type: ignore[arg-type]
            Metrics(),
            Plan(replay_id="r", output_topic="out", checkpoint=checkpoint, **plan),
        )

    first = make(rebase="latest", since_ms=1000)
    first.positions, first.ends = {0: 5}, {0: 9}
    first.save_checkpoint()
    resumed = make(rebase="latest", since_ms=2000)  # `--since 7d` evaluated later
    assert resumed.load_checkpoint()
    assert resumed.plan.since_ms == 1000
    assert resumed.positions == {0: 5}
    with pytest.raises(UsageError, match="other replay options"):
        make(rebase="v2", since_ms=1000).load_checkpoint()
    with pytest.raises(UsageError, match="belongs to replay"):
        Replay(
            Settings(),
            {},
            {},
            None,
            SyncChecker(RulesChecker()),  # type: ignore[arg-type]
            Metrics(),
            Plan(replay_id="other", output_topic="out", checkpoint=checkpoint),
        ).load_checkpoint()


def test_a_damaged_checkpoint_is_an_input_error_not_a_usage_error(tmp_path: Path) -> None:
    from stream.checkers.base import SyncChecker
    from stream.errors import InputError
    from stream.metrics import Metrics
    from stream.replay.engine import Plan, Replay
    from stream.settings import Settings
    from stream.verify.checkers import RulesChecker

    checkpoint = tmp_path / "r.checkpoint.json"
    replay = Replay(
        Settings(),
        {},
        {},
        None,
        SyncChecker(RulesChecker()),  # type: ignore[arg-type]
        Metrics(),
        Plan(replay_id="r", output_topic="out", checkpoint=checkpoint),
    )
    for damaged in (b"{not json", b'{"replay_id": "r", "positions": 3, "ends": {}}'):
        checkpoint.write_bytes(damaged)
        with pytest.raises(InputError, match="delete it to start over"):
            replay.load_checkpoint()
