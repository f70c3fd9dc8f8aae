"""Document analysis: a memo of pure functions per span, kept with the cached document."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

import pytest

from stream.codec import answer_from_obj
from stream.corpus.cache import CorpusCache, document_bytes
from stream.verify import analysis as analysis_module
from stream.verify.analysis import (
    ENTRY_BYTES,
    DocumentAnalysis,
    analyse,
    deep_size,
    located,
)
from stream.verify.checkers import RulesChecker
from stream.verify.citations import DocumentSnapshot, sha256_hex
from stream.verify.model import Document
from stream.verify.pipeline import verify_answer
from stream.worker.bench import synth
from tests.unit.test_cache import FakeStore, make_cache


class Counted:
    """A text function that counts its calls."""

    def __init__(self) -> None:
        self.calls: Counter[str] = Counter()

    def __call__(self, text: str) -> tuple[str, ...]:
        self.calls[text] += 1
        return tuple(text.split())


def test_a_span_is_computed_once_and_gives_what_the_function_gives() -> None:
    text = "alpha beta. gamma delta."
    fn = Counted()
    analysis = analyse(text)
    assert analysis.span(fn, 0, 11) == ("alpha", "beta.")
    assert analysis.span(fn, 0, 11) == ("alpha", "beta.")
    assert analysis.span(fn, 12, 24) == ("gamma", "delta.")
    assert fn.calls == Counter({"alpha beta.": 1, "gamma delta.": 1})
    assert analysis.nbytes >= 2 * ENTRY_BYTES


def test_a_text_at_the_wrong_offset_is_computed_and_not_kept() -> None:
    fn = Counted()
    analysis = analyse("alpha beta gamma")
    assert analysis.of(fn, "beta", 6) == ("beta",)  # right place: kept
    assert analysis.of(fn, "beta", 0) == ("beta",)  # wrong place: computed, not kept
    assert analysis.of(fn, "beta", None) == ("beta",)
    assert located(fn, "beta", None, 6) == ("beta",)  # no analysis: computed
    assert analysis.of(fn, "beta", 6) == ("beta",)
    assert fn.calls["beta"] == 4
    assert len(analysis._memo.values) == 1


def test_results_beyond_the_bound_are_not_kept() -> None:
    fn = Counted()
    analysis = DocumentAnalysis("one two three four", max_bytes=1)
    analysis.span(fn, 0, 3)  # kept: the bound was not reached before it
    kept = analysis.nbytes
    analysis.span(fn, 4, 7)
    analysis.span(fn, 4, 7)
    assert analysis.nbytes == kept
    assert fn.calls["two"] == 2
    default = analyse("x" * 100)
    assert default.max_bytes == analysis_module.BASE_BYTES + 100 * analysis_module.BYTES_PER_CHAR


@dataclass(frozen=True, slots=True)
class Pair:
    left: object
    right: object


def test_deep_size_counts_what_a_value_refers_to_once() -> None:
    word = "x" * 1000
    alone = deep_size(word)
    assert alone >= 1000
    assert deep_size((word, word)) < 2 * alone  # the same object once
    assert deep_size(Pair(word, {"k": [word, 1.5]})) > alone
    assert deep_size(frozenset({word})) > alone
    assert deep_size(None) == deep_size(True) == 0


def test_estimates_follow_the_measured_bytes_per_character() -> None:
    fn = Counted()
    analysis = analyse("word " * 200)
    for start in range(0, 5 * analysis_module.SAMPLE_EVERY, 5):
        analysis.span(fn, start, start + 4)
    rate = analysis_module._RATES[fn]
    assert rate[0] == analysis_module.SAMPLE_EVERY
    per_entry = (analysis.nbytes - ENTRY_BYTES * rate[0]) / rate[0]
    assert per_entry == pytest.approx(deep_size(("word",)), rel=0.01)


def _bench_answers(count: int) -> tuple[list[Document], list[dict[str, object]]]:
    made = [synth.make_doc(i, 12) for i in range(9)]
    docs = [Document(d.document_id, d.version, d.text, sha256_hex(d.text)) for d in made]
    rng = random.Random(5)
    answers = [synth.make_answer(n, made[:3], 4, rng) for n in range(count)]
    answers += [synth.make_answer(count + n, made, 4, rng) for n in range(count)]
    return docs, answers


def _outputs(snapshot: DocumentSnapshot, answers: list[dict[str, object]]) -> list[str]:
    checker = RulesChecker()
    out = []
    for obj in answers:
        result = verify_answer(answer_from_obj(obj), snapshot, checker)
        out += [repr(v) for v in result.verdicts]
        out.append(repr(result.decision))
    return out


def test_verdicts_are_the_same_with_and_without_the_analysis() -> None:
    """The same answers against the same documents, once with each document's analysis
    (reused across answers, as the cache keeps it) and once without any: every verdict
    event is identical, and the analyses were used."""
    docs, answers = _bench_answers(40)
    analysed = DocumentSnapshot.of(docs)
    plain = DocumentSnapshot(analysed.documents, analysed.versions)
    with_analysis = _outputs(analysed, answers)
    grown = {k: a.nbytes for k, a in analysed.analyses.items()}
    assert with_analysis == _outputs(plain, answers)
    assert sum(grown.values()) > 0
    assert with_analysis == _outputs(analysed, answers)  # all from the analyses now
    assert {k: a.nbytes for k, a in analysed.analyses.items()} == grown


def test_fragments_carry_their_documents_analysis() -> None:
    docs, answers = _bench_answers(2)
    snapshot = DocumentSnapshot.of(docs)
    result = verify_answer(answer_from_obj(answers[0]), snapshot, RulesChecker())
    for check in result.citation_checks:
        assert check.fragment is not None
        key = (check.fragment.document_id, check.fragment.document_version)
        assert check.fragment.analysis is snapshot.analyses[key]  # type: ignore[index]


def _grow(text: str) -> str:
    return text * 40


async def test_the_cache_counts_an_analysis_as_it_grows_and_drops_it_before_a_document() -> None:
    text = "The Kato service keeps the audit log for 30 days. Backups run every 12 hours."
    docs = [Document(f"d{i}", "1", text, sha256_hex(text)) for i in range(3)]
    one = document_bytes(docs[0])
    cache, _, _ = make_cache(FakeStore(docs), max_bytes=3 * one + 3000)
    analysis = (await cache.snapshot([("d0", "1")])).analyses[("d0", "1")]
    assert cache.size_bytes == one
    analysis.span(_grow, 0, len(text))  # a claim analysed a span: ~3 KB, counted at once
    assert cache.stats()["analysis_bytes"] == analysis.nbytes > 2000
    assert cache.size_bytes == one + analysis.nbytes
    await cache.snapshot([("d1", "1"), ("d2", "1")])  # three documents and it do not fit
    assert cache.evictions == 0  # the analysis went, not a document
    assert cache.stats()["documents"] == 3
    assert cache.stats()["analysis_bytes"] == 0
    assert cache.size_bytes == 3 * one
    fresh = (await cache.snapshot([("d0", "1")])).analyses[("d0", "1")]
    assert fresh is not analysis
    analysis.span(_grow, 0, 10)  # the dropped one grows no more for the cache
    assert cache.size_bytes == 3 * one
    fresh.span(_grow, 0, 5)
    assert cache.size_bytes == 3 * one + fresh.nbytes


async def test_documents_are_evicted_when_documents_alone_pass_the_bound() -> None:
    docs = [Document(f"d{i}", "1", "x" * 200, sha256_hex("x" * 200)) for i in range(3)]
    one = document_bytes(docs[0])
    cache, _, _ = make_cache(FakeStore(docs), max_bytes=2 * one + 100)
    first = (await cache.snapshot([("d0", "1")])).analyses[("d0", "1")]
    first.span(_grow, 0, 5)
    await cache.snapshot([("d1", "1")])
    await cache.snapshot([("d2", "1")])  # the analysis is dropped, then d0 evicted
    assert cache.evictions == 1
    assert cache.size_bytes == 2 * one
    assert cache.stats()["analysis_bytes"] == 0


async def test_an_analysis_of_another_analyser_version_is_never_reused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store = FakeStore([Document("a", "1", "alpha beta", sha256_hex("alpha beta"))])
    cache, _, _ = make_cache(store)
    first = (await cache.snapshot([("a", "1")])).analyses[("a", "1")]
    assert (await cache.snapshot([("a", "1")])).analyses[("a", "1")] is first
    monkeypatch.setattr(analysis_module, "ANALYSER_VERSION", "changed")
    fresh = (await cache.snapshot([("a", "1")])).analyses[("a", "1")]
    assert fresh is not first
    assert fresh.analyser == "changed"
    assert not first.is_current


async def test_a_document_the_cache_does_not_keep_gets_a_fresh_analysis() -> None:
    big = Document("big", "1", "y" * 5000, sha256_hex("y" * 5000))
    cache = CorpusCache(FakeStore([big]), max_bytes=1000)
    one = (await cache.snapshot([("big", "1")])).analyses[("big", "1")]
    two = (await cache.snapshot([("big", "1")])).analyses[("big", "1")]
    assert one is not two
    assert cache.size_bytes == 0
