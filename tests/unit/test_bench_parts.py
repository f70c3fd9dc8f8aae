"""The pure parts of `citegate bench` and `citegate worker --processes`: generated data, the
seeds' reference pipeline, the profile summary, the targets, the supervisor's settings hand-off."""

from __future__ import annotations

import os
import random
from collections import Counter
from pathlib import Path

import orjson
import pytest

from stream.cli import main
from stream.settings import Settings
from stream.worker.bench import core, profile, synth
from stream.worker.bench.reference import seed_verify
from stream.worker.bench.report import TARGETS, Target
from stream.worker.bench.runner import percentile
from stream.worker.supervisor import default_processes, settings_env
from tests.conftest import load


def test_generated_documents_are_reproducible_and_offsets_point_at_the_sentences() -> None:
    docs = [synth.make_doc(i, 20) for i in range(9)]
    assert [d.text for d in docs] == [synth.make_doc(i, 20).text for i in range(9)]
    assert {d.language for d in docs} == {"en", "ru", "zh"}
    for d in docs:
        for start, sentence in zip(d.starts, d.sentences, strict=True):
            assert d.text[start : start + len(sentence)] == sentence


def test_generated_answers_have_distinct_claims_and_exact_quotes() -> None:
    docs = [synth.make_doc(i, 30) for i in range(30)]
    by_id = {d.document_id: d for d in docs}
    answers = list(synth.answers(200, docs, 4, seed=1))
    texts = [c["text"] for a in answers for c in a["claims"]]
    assert len(set(texts)) > 0.95 * len(texts)
    assert answers == list(synth.answers(200, docs, 4, seed=1))
    for a in answers:
        for c in a["citations"]:
            text = by_id[c["document_id"]].text
            assert text[c["start"] : c["end"]] == c["quote"]


def test_a_changed_number_is_the_stated_one_not_the_system_name() -> None:
    doc = synth.make_doc(12, 5)
    rng = random.Random(0)
    edited = synth._edit(doc, 0, "number", rng)
    name = synth.system_name(12)
    assert name in edited
    assert edited != doc.sentences[0]


def test_the_seed_reference_pipeline_follows_the_seeds() -> None:
    raw = load("seed000_documents.json")
    documents = {k: {"version": v["version"], "text": v["text"]} for k, v in raw.items()}
    answer = load("seed000_response.json")
    assert seed_verify(answer, documents) == ["wrongCitation"], "24..79 is a quote mismatch"
    answer["citations"][0].update(start=25, end=80)
    # The claim restates the quote with other words: seed 001's Jaccard rule is weak there.
    assert seed_verify(answer, documents)[0] in {"supported", "wrongCitation"}
    answer["claims"][0]["text"] += " 45"
    assert seed_verify(answer, documents) == ["beyondEvidence"], "a number the evidence lacks"
    answer["claims"][0]["citation_ids"] = []
    assert seed_verify(answer, documents) == ["missingCitation"]


def test_percentile_and_targets() -> None:
    assert percentile([5, 1, 3, 2, 4], 0.5) == 3
    assert percentile(list(range(100)), 0.99) == 99
    assert Target("x", "k", ">=", 0.5).holds(0.5)
    assert not Target("x", "k", "<=", 2.0).holds(2.01)
    assert {t.key for t in TARGETS} >= {"throughput_ratio_zipf", "p99_ratio", "verify_ratio_zipf"}


def test_profile_summary_groups_samples(tmp_path: Path) -> None:
    raw = tmp_path / "p.raw"
    raw.write_text(
        "run (/x/stream/worker/loop.py:1);check (/x/stream/verify/checkers.py:9) 30\n"
        "run (/x/stream/worker/loop.py:1);send (/v/site-packages/aiokafka/producer/p.py:3) 10\n"
    )
    text = profile.summarise(raw)
    assert "75.0 %  rules checker" in text
    assert "25.0 %  Kafka produce" in text
    assert "check (stream/verify/checkers.py)" in text


def test_children_rebuild_the_supervisors_settings() -> None:
    s = Settings.from_env(
        {},
        group_id="g",
        force_review_domains=frozenset({"medical", "legal"}),
        cache_bytes=1234,
        relocate_quotes=True,
    )
    assert Settings.from_env(settings_env(s)) == s


@pytest.mark.parametrize("value", ["0", "65"])
def test_worker_processes_out_of_range_is_a_usage_error(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["worker", "--processes", value]) == 2
    assert "--processes must be between 1 and 64" in capsys.readouterr().err


def test_default_processes_follows_the_cgroup_quota(tmp_path: Path) -> None:
    cpu_max = tmp_path / "cpu.max"
    cpu_max.write_text("150000 100000\n")
    assert default_processes(cpu_max) == min(2, len(os.sched_getaffinity(0)))
    cpu_max.write_text("max 100000\n")
    assert default_processes(cpu_max) == len(os.sched_getaffinity(0))
    assert default_processes(tmp_path / "missing") == len(os.sched_getaffinity(0))


def test_zipf_popularity_cites_popular_documents_again_with_distinct_claims() -> None:
    docs = [synth.make_doc(i, 30) for i in range(60)]
    by_id = {d.document_id: d for d in docs}
    answers = list(synth.answers(300, docs, 4, seed=2, popularity="zipf"))
    assert answers == list(synth.answers(300, docs, 4, seed=2, popularity="zipf"))
    cited = Counter(c["document_id"] for a in answers for c in a["citations"])
    uniform = Counter(
        c["document_id"] for a in synth.answers(300, docs, 4, seed=2) for c in a["citations"]
    )
    top = sum(n for _, n in cited.most_common(6))
    assert top > 0.3 * sum(cited.values())  # a tenth of the documents, a third of the cites
    assert sum(n for _, n in uniform.most_common(6)) < 0.2 * sum(uniform.values())
    spans = Counter((c["document_id"], c["start"]) for a in answers for c in a["citations"])
    assert spans.most_common(1)[0][1] > 1  # popular sentences are cited again
    texts = [c["text"] for a in answers for c in a["claims"]]
    assert len(set(texts)) > 0.95 * len(texts)
    for a in answers:
        assert len({by_id[c["document_id"]].language for c in a["citations"]}) <= 1
        for c in a["citations"]:
            assert by_id[c["document_id"]].text[c["start"] : c["end"]] == c["quote"]


def test_core_phases_cover_every_phase_and_time_the_analysis() -> None:
    docs = [synth.make_doc(i, 10) for i in range(12)]
    corpus = core.Corpus(docs)
    warm = [orjson.dumps(a) for a in synth.answers(10, docs, 4, seed=3, start=100)]
    measured = [orjson.dumps(a) for a in synth.answers(20, docs, 4, seed=4, popularity="zipf")]
    found = core.phases(corpus, warm, measured)
    assert set(found) == set(core.PHASES)
    assert all(v >= 0 for v in found.values())
    assert found["analysis"] > 0
    assert found["alignment"] > 0
    assert sum(a.nbytes for a in corpus.analyses.values()) > 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--tracing", "--memory"], "--tracing and --memory are separate runs"),
        (["--baseline", "HEAD"], "--baseline goes with --tracing or --memory"),
    ],
)
def test_bench_mode_flags_that_do_not_go_together_are_usage_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bench", *argv]) == 2
    assert message in capsys.readouterr().err
