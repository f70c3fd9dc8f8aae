"""Harnesses for the stage's data edges: answer events, marker answers, the verification path,
corpus files, labelled (eval) files and LLM replies. Review bodies are in tests.fuzz.review.

Seeds are built here from the packaged demo data and the seed fixtures (nothing from the
labelled evaluation data); the fuzzer mutates from there.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import orjson

from stream.checkers.llm import MalformedReply, parse_reply
from stream.codec import answer_from_obj, decode_answer, decode_json, validator
from stream.corpus.jsonfile import iter_documents
from stream.corpus.sqlite import SqliteStore
from stream.errors import ImmutableDocumentError, InputError
from stream.events import Envelope, Source, claim_verdict_event, decision_event, input_event_id
from stream.quality.evaluate import load_records, to_request
from stream.settings import Settings
from stream.verify.checkers import RulesChecker
from stream.verify.citations import DocumentSnapshot
from stream.verify.claims import MARKER_PATTERN, marker_ids, split_marker_answer, strip_markers
from stream.verify.codes import FinalStatus, InputCode, Verdict
from stream.verify.model import CheckRequest, Document, Fragment, Ref
from stream.verify.parse import Limits
from stream.verify.pipeline import verify_answer
from stream.verify.policy import Policy
from tests.fuzz.contract import Harness, clear_message, require

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
DEMO = Path(__file__).resolve().parents[2] / "stream" / "demo"
SETTINGS = Settings()
LIMITS = Limits(SETTINGS.max_claims, SETTINGS.max_citations_per_claim)
INPUT_CODES = frozenset(InputCode)


def _lines(path: Path) -> list[bytes]:
    return [line for line in path.read_bytes().splitlines() if line.strip()]


@cache
def demo_answers() -> tuple[bytes, ...]:
    return (
        *_lines(DEMO / "answers.jsonl"),
        (FIXTURES / "seed000_response.json").read_bytes(),
        (FIXTURES / "seed001_answer.json").read_bytes(),
    )


def _input_error(exc: InputError, what: str) -> None:
    clear_message(exc.message, what)
    require(exc.code in INPUT_CODES, f"{what}: reason code {exc.code!r} is not an InputCode")


# -- 1. answer events: decoding and validation, exactly as the worker does it -----------------


def check_answer_event(data: bytes) -> None:
    try:
        answer = decode_answer(data, SETTINGS.max_event_bytes, LIMITS, require_ids=True)
    except InputError as exc:
        _input_error(exc, "answer event")
        return
    # The claims given, plus at most one for uncovered text (stream/verify/coverage.py).
    require(len(answer.claims) <= LIMITS.max_claims + 1, f"{len(answer.claims)} claims")
    require(len(answer.citations) <= LIMITS.max_citations, "citations unbounded")
    size = {
        "codepoint": len(answer.answer),
        "utf16": len(answer.answer.encode("utf-16-le", "surrogatepass")) // 2,
        "utf8": len(answer.answer.encode("utf-8", "surrogatepass")),
    }[answer.offset_unit]
    for claim in answer.claims:
        require(len(claim.citation_ids) <= LIMITS.max_citations_per_claim, "citations unbounded")
        if claim.span is not None:
            start, end = claim.span
            require(0 <= start <= end <= size, f"claim span {claim.span} outside {size}")
    require(bool(input_event_id(answer)), "no input id")


# -- 2. marker answers: claim splitting ------------------------------------------------------


def check_markers(data: bytes) -> None:
    text = data.decode("utf-8", "replace")
    claims = split_marker_answer(text)
    cited = {i for m in MARKER_PATTERN.finditer(text) for i in marker_ids(m)}
    previous_end = 0
    for c in claims:
        require(previous_end <= c.start < c.end <= len(text), f"span {c.start, c.end} out of order")
        previous_end = c.end
        require(c.text == strip_markers(text[c.start : c.end]), f"text is not its span: {c!r}")
        require(bool(c.text) and c.text == c.text.strip(), f"claim text not stripped: {c!r}")
        require(set(c.markers) <= cited, f"markers {c.markers} not in the answer")
        require(len(set(c.markers)) == len(c.markers), f"markers repeated: {c.markers}")


# -- 3. the pure verification path on a small fixed corpus ----------------------------------


@cache
def fixed_corpus() -> DocumentSnapshot:
    docs = [*iter_documents(DEMO / "corpus.jsonl"), *iter_documents(DEMO / "corpus-update.jsonl")]
    docs += iter_documents(FIXTURES / "seed000_documents.json")
    unique = {(d.document_id, d.version): d for d in docs}
    return DocumentSnapshot.of(list(unique.values()))


ENVELOPE = Envelope(Source("rag.answers", 0, 7), None, 0.001, "live")
POLICY = Policy(force_review_domains=frozenset({"medical"}))


EXTRA_WORDS = (
    "30 80% 20.1 2024 never not no always only all may will может будет всегда только все "
    "не никогда 所有 一定 可能 必然 完全 不 没有 因此 therefore thus поэтому . 。 ; , "
).split()


@cache
def word_pool() -> tuple[str, ...]:
    words = {w for d in fixed_corpus().documents.values() for w in d.text.split()}
    cjk = {c for d in fixed_corpus().documents.values() for c in d.text if ord(c) > 0x2E80}
    return (*sorted(words | cjk), *EXTRA_WORDS)


def built_answer(data: bytes) -> bytes:
    """Bytes not starting with `{`: an answer built from a demo answer, its (first) claim
    replaced by words of the corpus picked by the bytes (high bit of the first byte clear),
    or by the bytes as text — so the checker sees claims close to their evidence."""
    templates = demo_answers()
    tpl: dict[str, Any] = orjson.loads(templates[data[0] % len(templates)])
    if data[0] & 0x80:
        text = data[1:].decode("utf-8", "replace")
    else:
        pool = word_pool()
        text = " ".join(pool[b % len(pool)] for b in data[1:])
    if tpl.get("claims"):
        claim = {**tpl["claims"][0], "text": text}
        claim.pop("span", None)
        tpl.update(answer=text, claims=[claim])
    else:
        first = next(iter(tpl.get("sources") or {"S1": None}))
        tpl["answer"] = f"{text}[{first}]"
    return orjson.dumps(tpl)


def check_verify(data: bytes) -> None:
    if data and not data.startswith(b"{"):
        data = built_answer(data)
    try:
        answer = answer_from_obj(decode_json(data, SETTINGS.max_event_bytes), LIMITS)
    except InputError:
        return  # edge 1's business
    snapshot = fixed_corpus()
    result = verify_answer(answer, snapshot, RulesChecker(), POLICY)
    require(len(result.verdicts) == len(answer.claims), "not one verdict per claim")
    status = result.decision.final_status
    errors = bool(result.errors) or any(v.deterministic_errors for v in result.verdicts)
    if errors:
        require(status is FinalStatus.REJECT, f"deterministic errors but {status}")
    if status is FinalStatus.ACCEPT:
        require(
            all(v.verdict is Verdict.ENTAILED for v in result.verdicts) and result.verdicts,
            "accepted without every claim entailed",
        )
        require(answer.risk_domain != "medical", "a forced-review domain was accepted")
    for v in result.verdicts:
        if v.verdict is Verdict.ENTAILED:
            require(bool(v.evidence), f"claim {v.claim.id} entailed without evidence")
        require(0.0 <= v.confidence <= 1.0, f"confidence {v.confidence}")
        for span in v.evidence:
            require(0 <= span.start <= span.end, f"evidence span {span}")
    for event, schema in (
        *((claim_verdict_event(result, v, ENVELOPE), "claim-verdict") for v in result.verdicts),
        (decision_event(result, RulesChecker().ref, ENVELOPE), "decision"),
    ):
        errors_ = list(validator(schema).iter_errors(event))
        require(
            not errors_, f"{schema} event invalid: {errors_[0].message[:300] if errors_ else ''}"
        )


# -- 4. corpus files (citegate corpus import) ------------------------------------------------

_TMP = Path(tempfile.mkdtemp(prefix="citegate-fuzz-"))


def _as_file(data: bytes, name: str) -> Path:
    path = _TMP / name
    path.write_bytes(data)
    return path


def check_corpus_file(data: bytes) -> None:
    path = _as_file(data, "corpus.jsonl")
    try:
        docs = list(iter_documents(path))
    except InputError as exc:
        clear_message(exc.message.replace(str(path), "FILE"), "corpus file")
        return
    for d in docs:
        require(isinstance(d, Document) and bool(d.document_id), f"bad document {d!r}")
        require(isinstance(d.text, str) and isinstance(d.version, str), "bad fields")
    _import(docs)


def _import(docs: list[Document]) -> None:
    """What `citegate corpus import` does next: one all-or-nothing SQLite transaction."""

    async def work() -> None:
        store = SqliteStore(":memory:")
        try:
            inserted, same = await store.put_many(docs)
            require(inserted + same == len(docs), "import counts do not add up")
            for d in docs:
                got = await store.get(d.document_id, d.version)
                require(got is not None, f"{d.document_id}@{d.version} not stored")
        except ImmutableDocumentError as exc:
            clear_message(exc.message, "import conflict")
        finally:
            await store.close()

    asyncio.run(work())


# -- 5. labelled files (citegate eval / calibrate) -------------------------------------------


def check_labelled(data: bytes) -> None:
    path = _as_file(data, "labelled.jsonl")
    try:
        records = load_records(path, name="dev.jsonl")
    except InputError as exc:
        clear_message(exc.message, "labelled file")
        require(exc.message.startswith("dev.jsonl"), f"error does not say where: {exc.message}")
        return
    require(len({r.id for r in records}) == len(records), "duplicate ids accepted")
    checker = RulesChecker()
    for record in records[:8]:
        request = to_request(record)
        result = checker.check(request)
        require(result.claim_id == request.claim_id, "result for another claim")
        require(isinstance(result.verdict, Verdict), "verdict")


# -- 6. LLM replies (the OpenAI-compatible checker) ------------------------------------------

LLM_REQUEST = CheckRequest(
    "c1",
    "Node.js 20 provides a global fetch API.",
    (
        Fragment("S1", "Node.js 20 provides a global fetch API.", "node-runtime", "2024-04", 0),
        Fragment("S2", "Older versions need a third-party HTTP client."),
    ),
    "en",
)
LLM_REF = Ref("llm", "test-1")


def check_llm_reply(data: bytes) -> None:
    body = data.decode("utf-8", "replace")  # what aiohttp's resp.text() hands over
    try:
        result = parse_reply(body, LLM_REQUEST, LLM_REF)
    except MalformedReply as exc:
        clear_message(str(exc), "LLM reply")
        return
    given = {f.citation_id for f in LLM_REQUEST.fragments}
    require(result.claim_id == "c1", "result for another claim")
    require(isinstance(result.verdict, Verdict), "verdict")
    require(set(result.evidence_citation_ids) <= given, "evidence outside the given fragments")
    require(0.0 <= result.confidence <= 1.0, f"confidence {result.confidence}")
    if result.verdict is Verdict.ENTAILED:
        require(bool(result.evidence_citation_ids), "entailed without evidence")
        require(not result.unsupported_parts, "entailed with unsupported parts")


# -- seeds -------------------------------------------------------------------------------------


def answer_seeds() -> list[bytes]:
    out = list(demo_answers())
    first: dict[str, Any] = orjson.loads(out[0])
    out.append(orjson.dumps({**first, "offset_unit": "utf16"}))
    out.append(orjson.dumps({**first, "claims": [], "citations": []}))
    return out


def verify_seeds() -> list[bytes]:
    built = [bytes([i, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144]) for i in range(8)]
    return [*answer_seeds(), *built, b"\x81" + "Журнал хранится 30 дней.".encode()]


def marker_seeds() -> list[bytes]:
    texts = [str(orjson.loads(a).get("answer", "")) for a in demo_answers()]
    return [t.encode() for t in texts if t] + [
        "Version 1.2.3 of Node.js 20.1 [1]; therefore it works.[2] See https://x.y/a.b 【3】".encode(),
        "Поэтому всё. [S1, S2] Значит, так!".encode(),
    ]


def corpus_seeds() -> list[bytes]:
    return [
        (DEMO / "corpus.jsonl").read_bytes(),
        (FIXTURES / "seed000_documents.json").read_bytes(),
        b'[{"document_id": "d", "version": "1", "text": "t", "sha256": "00"}]',
        b'{"d": [{"version": "1", "text": "a"}, {"version": "1", "text": "b"}]}',
    ]


def labelled_seeds() -> list[bytes]:
    record = {
        "id": "r1",
        "source_dataset": "made-up",
        "language": "en",
        "claim": "The log is kept for 30 days.",
        "evidence": [{"document_id": "d1", "text": "The log is kept for thirty days."}],
        "label": "entailed",
    }
    zh = {
        **record,
        "id": "r2",
        "language": "zh",
        "claim": "日志保存30天。",
        "label": "contradicted",
    }
    zh["evidence"] = [{"text": "日志保存 30 天，备份另行删除。"}]
    return [orjson.dumps(record) + b"\n" + orjson.dumps(zh), b"\n\n", orjson.dumps(record)[:40]]


def llm_seeds() -> list[bytes]:
    def reply(content: str) -> bytes:
        return json.dumps({"choices": [{"message": {"content": content}}], "usage": {}}).encode()

    contract = {
        "claim_id": "c1",
        "verdict": "entailed",
        "evidence_citation_ids": ["S1"],
        "unsupported_parts": [],
        "confidence": 0.9,
    }
    fenced = "```json\n" + json.dumps({**contract, "verdict": "insufficient"}) + "\n```"
    return [reply(json.dumps(contract)), reply(fenced), b'{"choices": []}', b"not json"]


HARNESSES = [
    Harness(
        "answer_event", "answer event bytes -> decode + validate", check_answer_event, answer_seeds
    ),
    Harness("markers", "marker answer text -> claims", check_markers, marker_seeds, 4096),
    Harness("verify", "answer JSON -> verify_answer -> events", check_verify, verify_seeds),
    Harness("corpus_file", "corpus file -> documents -> import", check_corpus_file, corpus_seeds),
    Harness("labelled", "labelled JSONL -> records -> checker", check_labelled, labelled_seeds),
    Harness("llm_reply", "chat-completions body -> contract", check_llm_reply, llm_seeds),
]
