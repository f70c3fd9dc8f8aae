"""Deterministic synthetic corpora and answers in English, Russian and Chinese.

The benchmark needs many documents and many *distinct* claim texts (so no cache can answer
them all); the golden test needs a reproducible sample that exercises every verdict path.
Both come from here: template sentences filled with a per-document system name, objects and
numbers, and claims derived from cited sentences by one of a few edits (kept, number changed,
negated, generalised, cited elsewhere, uncited, wrong range). Nothing here is eval data.
"""

from __future__ import annotations

import bisect
import itertools
import random
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

LANGUAGES = ("en", "ru", "zh")
_DIGITS = re.compile(r"\d+")

# {s} system name, {o} object, {n} number.
_TEMPLATES: dict[str, tuple[str, ...]] = {
    "en": (
        "The {s} service keeps the {o} for {n} days.",
        "The {s} service accepts up to {n} requests per second.",
        "Operators of {s} rotate the {o} every {n} hours.",
        "The {s} cluster replicates the {o} to {n} regions.",
        "Version {n}.2 of {s} encrypts the {o} at rest.",
        "The {s} gateway may retry the {o} up to {n} times.",
        "Access to the {o} of {s} requires approval from {n} reviewers.",
        "The {s} scheduler archives the {o} after {n} weeks.",
    ),
    "ru": (
        "Сервис {s} хранит {o} {n} дней.",
        "Сервис {s} принимает до {n} запросов в секунду.",
        "Операторы {s} обновляют {o} каждые {n} часов.",
        "Кластер {s} копирует {o} в {n} регионов.",
        "Версия {n}.2 системы {s} шифрует {o} на диске.",
        "Шлюз {s} может повторять {o} до {n} раз.",
        "Доступ к {s} требует одобрения {n} проверяющих.",
        "Планировщик {s} архивирует {o} через {n} недель.",
    ),
    "zh": (
        "{s}服务保存{o}{n}天。",
        "{s}服务每秒最多接受{n}个请求。",
        "{s}的运维人员每{n}小时轮换{o}。",
        "{s}集群把{o}复制到{n}个区域。",
        "{s}的{n}.2版本对{o}进行静态加密。",
        "{s}网关可能重试{o}最多{n}次。",
        "访问{s}的{o}需要{n}名审核人批准。",
        "{s}调度器在{n}周后归档{o}。",
    ),
}
_OBJECTS: dict[str, tuple[str, ...]] = {
    "en": (
        "audit log",
        "access keys",
        "backups",
        "session tokens",
        "billing records",
        "metrics",
        "user profiles",
        "configuration",
        "certificates",
        "event stream",
    ),
    "ru": (
        "журнал аудита",
        "ключи доступа",
        "резервные копии",
        "токены сессий",
        "счета",
        "метрики",
        "профили пользователей",
        "конфигурацию",
        "сертификаты",
        "поток событий",
    ),
    "zh": (
        "审计日志",
        "访问密钥",
        "备份",
        "会话令牌",
        "账单记录",
        "指标",
        "用户资料",
        "配置",
        "证书",
        "事件流",
    ),
}
_NEGATIONS: dict[str, tuple[tuple[str, str], ...]] = {
    "en": ((" keeps ", " never keeps "), (" accepts ", " rejects "), (" may ", " cannot ")),
    "ru": (
        (" хранит ", " не хранит "),
        (" принимает ", " не принимает "),
        (" может ", " не может "),
    ),
    "zh": (("保存", "不保存"), ("接受", "不接受"), ("可能", "不会")),
}
_DENIAL = {"en": "It is not true that ", "ru": "Неверно, что ", "zh": "并非"}
_ABSOLUTE = {"en": "always ", "ru": "всегда ", "zh": "所有"}
_SYLLABLES = ("ka", "ri", "to", "ne", "mo", "sa", "lu", "vi", "de", "zo", "pa", "qui", "ren", "tal")

CLAIM_KINDS = ("kept", "kept", "kept", "number", "negated", "absolute", "elsewhere", "uncited")
"""Edits applied to a cited sentence; `kept` dominates, as in a mostly-faithful generator."""


@dataclass(frozen=True, slots=True)
class SynthDoc:
    document_id: str
    version: str
    language: str
    title: str
    sentences: tuple[str, ...]
    starts: tuple[int, ...]

    @property
    def text(self) -> str:
        return " ".join(self.sentences) if self.language != "zh" else "".join(self.sentences)

    def to_obj(self) -> dict[str, str]:
        return {
            "document_id": self.document_id,
            "version": self.version,
            "title": self.title,
            "text": self.text,
        }


def system_name(i: int) -> str:
    """A unique, pronounceable name per document index (makes sentences distinct)."""
    parts = []
    n = i
    while True:
        parts.append(_SYLLABLES[n % len(_SYLLABLES)])
        n //= len(_SYLLABLES)
        if n == 0:
            break
    return "".join(parts).capitalize() + f"-{i}"


def make_doc(i: int, sentences: int, seed: int = 0) -> SynthDoc:
    rng = random.Random(seed * 1_000_003 + i)  # noqa: S311 — reproducible data, not secrets
    language = LANGUAGES[i % len(LANGUAGES)]
    name = system_name(i)
    out: list[str] = []
    seen: set[str] = set()
    templates = _TEMPLATES[language]
    while len(out) < sentences:
        template = templates[rng.randrange(len(templates))]
        obj = _OBJECTS[language][rng.randrange(len(_OBJECTS[language]))]
        s = template.format(s=name, o=obj, n=rng.randrange(2, 990))
        if s not in seen:
            seen.add(s)
            out.append(s)
    sep = 0 if language == "zh" else 1
    starts, pos = [], 0
    for s in out:
        starts.append(pos)
        pos += len(s) + sep
    return SynthDoc(f"doc-{i}", "v1", language, f"{name} handbook", tuple(out), tuple(starts))


def _edit(doc: SynthDoc, k: int, kind: str, rng: random.Random) -> str:
    sentence = doc.sentences[k]
    lang = doc.language
    if kind == "number":
        # The stated number, not the digits of the system name (`Ka-12`).
        for m in _DIGITS.finditer(sentence):
            if m.start() > 0 and sentence[m.start() - 1] == "-":
                continue
            changed = str(int(m.group()) + 1 + rng.randrange(9))
            return sentence[: m.start()] + changed + sentence[m.end() :]
        return sentence
    if kind == "negated":
        for old, new in _NEGATIONS[lang]:
            if old in sentence:
                return sentence.replace(old, new, 1)
        return _DENIAL[lang] + sentence
    if kind == "absolute":
        if lang == "zh":
            return _ABSOLUTE[lang] + sentence
        words = sentence.split(" ", 2)
        return " ".join([*words[:2], _ABSOLUTE[lang].strip(), *words[2:]])
    return sentence


ZIPF_S = 1.1
"""Exponent of the Zipf popularity: the document of rank r is cited in proportion to r^-s."""


class Zipf:
    """Zipf-distributed document popularity over a corpus, per language (an answer's claims
    share its language). Ranks follow a fixed shuffle, so popular documents are spread over
    the corpus rather than its first entries."""

    def __init__(self, size: int, s: float = ZIPF_S, seed: int = 0) -> None:
        order = list(range(size))
        random.Random(seed).shuffle(order)  # noqa: S311 — reproducible data, not secrets
        self.by_language = []
        for language in range(len(LANGUAGES)):
            ranked = [i for i in order if i % len(LANGUAGES) == language]
            weights = [(r + 1) ** -s for r in range(len(ranked))]
            self.by_language.append((ranked, list(itertools.accumulate(weights))))

    def pick(self, rng: random.Random, language: int | None) -> int:
        lang = rng.randrange(len(LANGUAGES)) if language is None else language
        ranked, cumulative = self.by_language[lang]
        at = bisect.bisect_left(cumulative, rng.random() * cumulative[-1])
        return ranked[min(at, len(ranked) - 1)]


def make_answer(
    n: int,
    docs: list[SynthDoc],
    claims_per_answer: int,
    rng: random.Random,
    *,
    kinds: tuple[str, ...] = CLAIM_KINDS,
    used: set[tuple[int, int]] | None = None,
    corpus: tuple[str, str] = ("bench", "v1"),
    zipf: Zipf | None = None,
    said: set[str] | None = None,
) -> dict[str, Any]:
    """One structured answer whose claims cite sentences of random documents.

    `used` remembers (document, sentence) pairs already claimed, so claim texts stay distinct
    across a run for as long as the corpus has unused sentences. With `zipf`, documents are
    picked by popularity and popular sentences are cited again; `said` then remembers claim
    texts instead, so a sentence cited again is claimed with another edit (or another number).
    """
    claims, citations, texts = [], [], []
    language = None
    for c in range(claims_per_answer):
        lang_index: int | None = None if language is None else LANGUAGES.index(language)
        if zipf is None:
            di, k = _pick(docs, rng, used, lang_index)
            kind = kinds[rng.randrange(len(kinds))]
            text = _edit(docs[di], k, kind, rng)
        else:
            di, k, kind, text = _popular(docs, rng, zipf, lang_index, kinds, said)
        doc = docs[di]
        language = language or doc.language
        cid = f"c{c + 1}"
        if kind == "uncited":
            claims.append({"id": cid, "text": text, "citation_ids": []})
        else:
            qid = f"q{c + 1}"
            cited_doc, cited_k = doc, k
            if kind == "elsewhere":
                cited_k = (k + 1 + rng.randrange(len(doc.sentences) - 1)) % len(doc.sentences)
            quote = cited_doc.sentences[cited_k]
            start = cited_doc.starts[cited_k]
            citations.append(
                {
                    "id": qid,
                    "document_id": cited_doc.document_id,
                    "document_version": cited_doc.version,
                    "start": start,
                    "end": start + len(quote),
                    "quote": quote,
                }
            )
            claims.append({"id": cid, "text": text, "citation_ids": [qid]})
        texts.append(text)
    sep = "" if language == "zh" else " "
    return {
        "schema": "citegate.answer.v1",
        "event_id": f"bench-evt-{n}",
        "answer_id": f"bench-{n}",
        "created_at": "2026-12-01T00:00:00Z",
        "corpus": {"id": corpus[0], "version": corpus[1]},
        "generator": {"name": "synth", "version": "1"},
        "retriever": {"name": "synth", "version": "1"},
        "language": language or "en",
        "answer": sep.join(texts),
        "claims": claims,
        "citations": citations,
    }


def _popular(
    docs: Sequence[SynthDoc],
    rng: random.Random,
    zipf: Zipf,
    language: int | None,
    kinds: tuple[str, ...],
    said: set[str] | None,
) -> tuple[int, int, str, str]:
    """(document, sentence, edit, claim text) by popularity, a claim text not said before
    when 64 tries find one."""
    for _ in range(64):
        di = zipf.pick(rng, language)
        k = rng.randrange(len(docs[di].sentences))
        kind = kinds[rng.randrange(len(kinds))]
        text = _edit(docs[di], k, kind, rng)
        if said is None or text not in said:
            break
    if said is not None:
        said.add(text)
    return di, k, kind, text


def _same_language(docs: list[SynthDoc], rng: random.Random, language: int) -> int:
    """A document index in the given language (documents cycle through LANGUAGES)."""
    per = max(1, (len(docs) - language + len(LANGUAGES) - 1) // len(LANGUAGES))
    return min(len(docs) - 1, language + len(LANGUAGES) * rng.randrange(per))


def _pick(
    docs: list[SynthDoc],
    rng: random.Random,
    used: set[tuple[int, int]] | None,
    language: int | None = None,
) -> tuple[int, int]:
    for _ in range(64):
        di = rng.randrange(len(docs)) if language is None else _same_language(docs, rng, language)
        k = rng.randrange(len(docs[di].sentences))
        if used is None or (di, k) not in used:
            if used is not None:
                used.add((di, k))
            return di, k
    return di, k


POPULARITIES = ("uniform", "zipf")


def answers(
    count: int,
    docs: list[SynthDoc],
    claims_per_answer: int,
    seed: int,
    start: int = 0,
    popularity: str = "uniform",
) -> Iterator[dict[str, Any]]:
    """`count` answers citing `docs` uniformly (each sentence once while any is unused) or,
    `popularity="zipf"`, by Zipf-distributed document popularity (s = `ZIPF_S`)."""
    rng = random.Random(seed)  # noqa: S311 — reproducible data, not secrets
    used: set[tuple[int, int]] = set()
    said: set[str] = set()
    zipf = Zipf(len(docs)) if popularity == "zipf" else None
    for n in range(start, start + count):
        yield make_answer(n, docs, claims_per_answer, rng, used=used, zipf=zipf, said=said)
