"""Align a claim to the evidence span it rests on, unit by unit: the gate's precision rules.

Overlap is high exactly when a hallucination edits one word of a real sentence, so the rules
checker does not ask "how much of the claim is in the evidence" but "is every unit of the claim
in the evidence, with the same value". Content words must each be found — the same lemma, a
derivation or a synonym of a curated resource (`stream.verify.lexicon`); Chinese words whole or
as a Cilin synonym; numbers must match value, unit and scale, or be exactly the same amount
(`14 days` = `two weeks`); identifiers their version. Closed-class words are compared as slots
(`stream.verify.slots`). The span is the sentence or pair of adjacent sentences the claim
aligns to best: nothing elsewhere in a passage counts for or against it. Whatever fails is
named: unaligned surface text for `unsupported_parts`, and risk signals that carry both values
(`number_mismatch: 1000 (evidence: 100)`). Pure and deterministic; no learned weights.
"""

from __future__ import annotations

import itertools
import re
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, TypeVar, cast

from stream.verify import patterns
from stream.verify.analysis import DocumentAnalysis, located
from stream.verify.codes import SignalCode
from stream.verify.lexicon import (
    PARTICLES,
    antonyms_of,
    bases_of,
    evidence_keys,
    fields,
    frozen,
    keys,
    opposite,
    phrasal_keys,
    predicate,
    ru_lemmas,
    ru_tags,
    union,
    zh_synonyms,
)
from stream.verify.lexicon import (
    claim_keys as claim_side,
)
from stream.verify.lexicon import (
    warm as lexicon_warm,
)
from stream.verify.model import RiskSignal
from stream.verify.numerals import NUMBER_WORD_TOKENS
from stream.verify.roles import Transfer, reversed_roles, same_roles, transfer
from stream.verify.slots import (
    _BOUND_PHRASE_RE as _BOUND_MASK,
)
from stream.verify.slots import (
    ADVICE,
    EXCLUSIVE,
    GUARANTEE,
    OBLIGATION,
    POSSIBLE,
    TYPICAL,
    compare,
    mask_negated_bounds,
    slots_of,
)
from stream.verify.slots import (
    _first as _first_keys,  # what a negation negates first: one reading for slots and here
)
from stream.verify.text import split_sentences
from stream.verify.tokens import (
    ADDRESSEE,
    EN_STOP,
    RU_STOP,
    ZH_STOP_CHARS,
    number_token,
    token_spans,
    tokens,
)
from stream.verify.units import (
    AFTER,
    APPROXIMATE_BEFORE,
    APPROXIMATE_WORDS,
    BEFORE,
    BOUND_AFTER_AMOUNT,
    BOUND_AFTER_HEADS,
    BOUND_NEGATION,
    CACHE_TEXT_CHARS,
    CURRENCIES,
    EN_NUMBERS,
    FLIPPED,
    FREQUENCY_UNITS,
    HEDGE,
    INFERENCE,
    LESS,
    MAJORITY,
    MORE,
    NEGATION,
    ONE_WORDS,
    RANGE,
    RANGE_PAIR,
    RU_NUMBERS,
    SCALES,
    SCOPE_WORD,
    SOME,
    UNITS,
    UNIVERSAL,
    ZH_BOUND_BEFORE,
    ZH_NUMERALS,
    Identifier,
    Quantity,
    WordClass,
    approximate_at,
    bounds,
    clearly_different,
    has_cjk,
    identifiers,
    in_claims_bound,
    mask_adjective_bounds,
    mask_duration_nouns,
    normalize_zh,
    quantities,
    range_groups,
    rounds_to,
    same_amount,
    scan,
    short_cache,
)

GENERIC_REFERENTS = frozenset(
    """service system platform product application app tool software solution
    medicine medication device
    сервис сервиса сервисе сервисом система системы системе систему системой платформа
    платформы платформе продукт продукта приложение приложения""".split()
)
"""Words that name the document's own subject (`the service keeps…` for a quote that says
`… is kept`): they add no checkable fact, so they need no alignment."""
PRONOUNS = frozenset(
    """него нему ним нем нём неё нее ней нею них ними этот этого этому этим этом эта этой эту
    anything something anyone someone anybody somebody
    эти этих этими это тот того тому тем том та той ту те тех теми который которого которому
    которым котором которая которой которую которое которые которых которыми сам сама само
    сами самого самой самим самих самими саму самому самом свой своя своё свое свои своего
    своей своим своих этого каждого it its they them their this these those which who
    whose""".split()
)
LIGHT_VERBS = frozenset(
    """get gets got gotten getting have has had having make makes made making
    иметь имеет имеют являться является являются составлять составляет составляют
    составит составить осуществлять осуществляется осуществляются производиться
    производится производятся занимать занимает занимают займет займёт""".split()
)
"""Verbs that carry no content of their own in `you get a refund`, `customers have 30 days`:
the noun and the quantity they govern are what must align."""
_MEANS = re.compile(
    r"(?<![\w-])(?:through|via|using|by|with|in|on|from|into|at|через|в|во|на|с|со|по|из)"
    r"\s+(?:(?:the|a|an|your|our|this|its|ваш\w*|наш\w*|это\w*)\s+)?$",
    re.IGNORECASE,
)
"""A word naming the document's subject after one of these is where or how (`registered
through the app` for `at the counter`), not the subject itself."""
_GENERIC_CJK = ("本系统", "该系统", "本服务", "该服务", "本产品", "该产品")
_ADDRESSEE_CJK = ("您的", "你的", "你们", "您", "你", "我们", "我司")
_ZH_FILLERS = (
    "已经", "会", "了", "着", "过", "已", "被", "将", "才", "否则", "则", "就", "为", "按",
    "时", "经", "到", "还", "自己", "即使", "进行", "做", "作", "加以", "予以", "本品",
    "也", "再", "由", "给", "把", "对", "从", "于", "向", "以", "之", "所",
    "这个", "这份", "这台", "这款", "这种", "这项", "这些", "这位", "这家", "这部", "这条",
    "之类", "这类", "才能", "才可以", "才可", "并且", "而且", "且", "或者", "不过", "但是", "以及",
    "对于", "先", "完", "既", "但", "来", "这", "那", "用", "凭", "具体", "一直", "它", "它们",
)  # fmt: skip
"""Aspect, voice and linking particles a paraphrase adds or drops (`降低了`, `只有…才`), and
demonstratives (`这份保险` for `本保险`, `之类` for `等`); `才能` is 才 and a modal (the slot),
not the noun `talent` the segmenter reads."""
_R = TypeVar("_R")
_NUMBER_WORDS = frozenset({*EN_NUMBERS, *RU_NUMBERS, *ONE_WORDS, *SCALES})
_CLASSES: tuple[WordClass, ...] = (
    NEGATION, UNIVERSAL, MAJORITY, SOME, EXCLUSIVE, HEDGE, INFERENCE, BEFORE, AFTER, MORE,
    LESS, POSSIBLE, TYPICAL, OBLIGATION, ADVICE, GUARANTEE,
)  # fmt: skip
"""Closed classes whose words are never content. Bound phrases (`no more than`, `не
превышать`) are masked as phrases instead: `превышать` alone is a content word."""
_CONDITION_WORDS = frozenset(
    """if unless except excluding provided whenever until till only when where once
    если кроме исключением условии случае случаев пока только лишь когда""".split()
)
_CLOSED_WORDS = frozenset(
    {
        *(w for c in _CLASSES for w in c.words),
        *_CONDITION_WORDS,
        *ADDRESSEE,
        *PRONOUNS,
        *LIGHT_VERBS,
        "will", "would", "shall", "будет", "будут", "станет", "to", "of", "be",
        "using", "via", "entitled", "eligible",
        # linking words of a clause, not facts (`you can still sit the exam`, `while DVDs …`)
        "still", "while", "whereas", "though", "although", "like",
        # `or else` is `otherwise`, a condition slot
        "else",
        # `counts toward(s) the limit` is `counts against` it: the direction of a tally
        "toward", "towards",

        # an amount's bound taken inclusively (`до 10 кг включительно`) is what `up to` says
        "включительно", "inclusive", "inclusively",
        # a particle that only says someone comes with (`bring a guest along`)
        "along",
        # a pronoun and its verb contracted (`if it's kept`, `you're responsible`)
        *(
            f"{p}'{v}"
            for p in ("it", "you", "we", "they", "that", "there", "here", "he", "she", "i")
            for v in ("s", "re", "ve", "ll", "d", "m")
        ),
    }
)  # fmt: skip
_CLOSED_CJK = tuple(
    sorted(
        {
            *_GENERIC_CJK, *_ADDRESSEE_CJK, *_ZH_FILLERS,
            *(w for c in _CLASSES for w in c.cjk),
            "只有", "仅当", "除非", "如果", "若", "假如", "只要", "倘若", "一旦", "除了", "除外",
            "例外", "以外", "的话", "之前", "以前", "之后", "以后", "未经", "未获", "没有经过",
            "然后", "随后", "之间",
        },
        key=len,
        reverse=True,
    )
)  # fmt: skip
_CLOSED_CJK_RE = re.compile("|".join(re.escape(w) for w in _CLOSED_CJK if len(w) > 1))
SLOT_CODES: frozenset[SignalCode] = frozenset(
    {
        SignalCode.BOUND_MISMATCH,
        SignalCode.ORDER_MISMATCH,
        SignalCode.NUMBER_MISMATCH,
        SignalCode.UNIT_MISMATCH,
        SignalCode.IDENTIFIER_MISMATCH,
        SignalCode.NEGATION_MISMATCH,
        SignalCode.ENTITY_MISMATCH,
        SignalCode.ANTONYM_MISMATCH,
        SignalCode.DATE_MISMATCH,
    }
)
"""Mismatches of a slot both sides fill: the evidence states another value. They are final:
no later checker tier may turn such a claim into `entailed`."""


@dataclass(frozen=True, slots=True)
class Alignment:
    """How the claim's units align with its evidence span."""

    units: int
    """Content units of the claim (lemmas, quantities, identifiers)."""
    unaligned: tuple[str, ...]
    """Surface parts of the claim the evidence does not contain."""
    unaligned_weight: float
    """Share of the claim's content units left unaligned (0 when everything aligns)."""
    mismatches: tuple[RiskSignal, ...]
    contradictions: tuple[RiskSignal, ...] = ()
    """The mismatches where the evidence states another value for the same slot (a different
    number in the same unit, the negated predicate, the reverse order or bound, an antonym,
    another name): what `contradicted` rests on."""
    paraphrased: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Verbs and adverbs of the claim that no resource relates to the evidence but that stand
    where the evidence has words of its own (`processed` where it says `issued`), in a claim
    whose every other unit and slot aligns: read as a paraphrase, and named in the reason."""

    @property
    def complete(self) -> bool:
        """Every unit aligned and no slot disagrees: the only state `entailed` may follow."""
        return not self.unaligned and not self.mismatches

    @property
    def slot_conflict(self) -> bool:
        """A number, unit, identifier, entity or polarity the evidence states differently."""
        return any(m.code in SLOT_CODES for m in self.mismatches)


@short_cache(maxsize=1024)
def zh_words(text: str) -> tuple[str, ...]:
    """Chinese words of `text` by jieba's dictionary (no HMM guessing of unknown words).

    A claim's Chinese word must occur in the evidence as a whole (or as a Cilin synonym):
    character bigrams would demand the same neighbours across word boundaries, so a reordered
    paraphrase would fail. rjieba (jieba-rs: jieba's algorithm and dictionary in Rust) segments
    as jieba does, about 10x faster and without jieba's 0.5 s dictionary load. A modal or
    aspect character the dictionary glues to a word (`应立即`, `须提供`) is split off when the
    rest is a dictionary word of its own: the character is a slot, the rest is content.
    """
    out: list[str] = []
    cut = _rjieba().cut
    for word in cut(text, hmm=False):
        if len(word) >= 3 and word[0] in _ZH_GLUED and len(cut(word[1:], hmm=False)) == 1:
            out += (word[0], word[1:])
        else:
            out.append(word)
    return tuple(out)


_ZH_GLUED = frozenset("应须需可会将已要能才就都也再")
"""Single-character modals and adverbs jieba's dictionary glues to the next word."""


@lru_cache(maxsize=1)
def _rjieba() -> Any:
    import rjieba  # here, not at the top: importing it builds the dictionary (~80 ms, ~33 MB)

    return rjieba


LANGUAGES = ("en", "ru", "zh")
"""The languages the alignment has lexical tables for."""


def warm(languages: Iterable[str] = LANGUAGES) -> None:
    """Load the lexical tables, the Russian analyser and the Chinese segmenter the claims of
    `languages` need (0.1–0.3 s each), so no answer's latency includes them."""
    wanted = frozenset(languages)
    lexicon_warm(wanted)
    if "zh" in wanted:
        _rjieba()


def _mask_closed(text: str) -> str:
    """CJK closed-class words of two or more characters become spaces so content words never
    straddle them (single characters are left to the segmenter: `为` is a word, `认为` not)."""
    if not has_cjk(text):
        return text
    # leftmost, then longest: `可以外借` masks `可以`, never `以外` (a loop over a set's order
    # made that depend on the hash seed)
    return _CLOSED_CJK_RE.sub(lambda m: " " * len(m.group()), text)  # spans stay claim offsets


_RU_ONCE_PER = re.compile(
    r"(?<![\w-])(?:один\s+)?раза?\s+в(?=\s+(?:\d+\s+|[а-яё]+\s+)?"
    r"(?:недел|месяц|год|квартал|дн|сут|час|минут))",
    re.IGNORECASE,
)
"""`раз в три месяца`: the rate's `once every`, read with its amount (`ежеквартально`)."""


def _mask_after_bounds(text: str) -> str:
    """A bound written after its amount (`21 or older`, `2000 рублей и больше`) is a slot, not
    words to align: spaces instead (offsets stay the claim's)."""
    if not BOUND_AFTER_HEADS.search(text):
        return text
    for m in BOUND_AFTER_AMOUNT.finditer(text):
        text = text[: m.start(1)] + " " * (m.end(1) - m.start(1)) + text[m.end(1) :]
    return text


_CLOSED_CHARS = frozenset(
    {
        *(w for w in _CLOSED_CJK if len(w) == 1),
        *"里中要有内",
        # localizers (`App上`, `陪同下`), a resultative (`戴好`), the ordinal prefix (`第二天`),
        # the person suffix (`未满16周岁者`), `for` (`替您办理`) and `again/also` (`又`)
        *"上下好第者替又请",
        "一个",
        "一名",
        "一位",
        "一种",
        "一家",
        "一项",
        "一条",
        "一份",
        "一件",
    }
)
"""Chinese words skipped whole: single-character particles, prepositions and closed-class
words, and the indefinite `一个` (a, an)."""
_WORD = re.compile(
    r"[A-Za-z\u00c0-\u024f\u0400-\u04ff]+[0-9]*(?:['’.-][A-Za-z0-9\u00c0-\u024f\u0400-\u04ff]+)*"
)
"""A Latin or Cyrillic word, also when glued to Chinese text (`OA系统`, `UTC时间`)."""


@short_cache(maxsize=1024)
def span_keys(text: str) -> frozenset[str]:
    """Keys of every word of `text` (Latin and Cyrillic words, Chinese words by jieba), and of
    each phrasal verb (`put off`)."""
    found: set[str] = set()
    previous = ""
    for original in _WORD.findall(text):
        low = original.lower()
        if previous in _ANAPHORIC and low.isascii():
            # `these medicines` names the antibiotics said before it, not every medicine:
            # no kind of medicine (`painkillers`) aligns with it
            found |= keys(low)
        else:
            found |= _evidence_word_keys(original)
        if low in PARTICLES and previous:
            found |= phrasal_keys(previous, low)
        previous = low
    if has_cjk(text):
        for w in zh_words(text):
            if has_cjk(w):
                found |= keys(w)
    return frozenset(found)


_ANAPHORIC = frozenset({"these", "those", "such"})
"""Determiners of a noun that names what was said before it."""
_SENSE_KEY = re.compile(r"h\d")
"""The keys `lexicon.sense_keys` gives: `h` and a WordNet synset number."""


@lru_cache(maxsize=65536)
def _evidence_word_keys(original: str) -> frozenset[str]:
    """What an evidence word offers to the claim's words, by how it is written: a
    capitalised word may be a name (`Enterprise customers`, a plan's name), so its synonyms
    and the kinds it names (`business`) would let a claim swap it; hyphenated words offer
    their parts too."""
    w = original.lower()
    if not w.isascii() and ru_lemmas(w)[:1] and ru_lemmas(w)[0][0] == "мочь":
        return frozenset()  # `может` offers nothing to `мочи` (urine), whose rarer parse is `мочь`
    found = union((keys(w), evidence_keys(w)))
    if original[:1].isupper():
        named = frozen(k for k in found if "=" not in k and not _SENSE_KEY.match(k))
        found = found if named == found else named
    if "-" in w and not w.startswith(_NEGATIVE_PREFIXES):
        found = union((found, *(keys(part) for part in w.split("-"))))
    return found


_NEGATIVE_PREFIXES = ("non-", "un-", "anti-", "not-", "no-", "не-", "анти-", "без-")
"""`non-programmable` is the opposite of `programmable`: its parts lend no keys."""


@short_cache(maxsize=32, max_chars=1 << 18)
def _facts(text: str) -> tuple[tuple[Quantity, ...], tuple[Identifier, ...]]:
    normalized = normalize_zh(text)
    return quantities(normalized), identifiers(normalized)


@short_cache(maxsize=1024)
def _sentences(text: str) -> list[tuple[int, int]]:
    return split_sentences(text) or [(0, len(text))]


def _shared(words: tuple[frozenset[str], ...], present: frozenset[str]) -> int:
    """How many of the claim's words (their key sets) a text with keys `present` has."""
    return sum(1 for k in words if k & present)


Parts = tuple[tuple[str, frozenset[str]], ...]
"""Pieces of an evidence span (sentences, clauses) with their word keys: what `_focus` and
`_segments` compare a claim with. One piece means the span itself (its keys unneeded)."""


def _sentence_parts(window: str) -> Parts:
    sentences = _sentences(window)
    if len(sentences) == 1:
        return ((window, frozenset()),)
    return tuple((window[a:b], span_keys(window[a:b])) for a, b in sentences)


def _focus(words: tuple[frozenset[str], ...], window: str, parts: Parts) -> str:
    """The sentences of the span that carry the claim: slots are compared there, not in a
    neighbouring sentence that merely shares a word with it. `parts` is
    `_sentence_parts(window)`."""
    if len(parts) == 1:
        return window
    shared = [_shared(words, k) for _, k in parts]
    best = max(shared)
    if best == 0:
        return window
    return " ".join(text for (text, _), n in zip(parts, shared, strict=True) if n * 2 >= best)


_SEGMENT = re.compile(
    r"[;；]|\s(?:and|but|while|whereas|и|а|но|однако)\s|，(?:并且|并|而|但)|并且"
    r"|,\s(?=(?:otherwise|иначе|в противном случае)\s)"
    r"|,\s(?:which|who|where)\s|,\s(?:котор\w+|где)\s"
    r"|,\s(?:especially|particularly|in particular|notably|особенно|в частности)\s|，尤其"
)


_ZH_ADVICE = re.compile(r"，(?=\s*(?:不建议|建议|请勿|请|推荐))")
"""A Chinese advice or request after a comma (`…停止服务，建议尽快迁移`) is a statement of its
own, with its own modality."""
_ZH_SUBORDINATE = re.compile(
    r"^\s*(?:如果|若|假如|一旦|只要|只有|除非|除了|当|在|凡|如需|如|对于|因为|由于)"
    r"|(?:时|后|前|以后|之后|之前|以前|的话|期间|下|中)\s*$"
)
"""A clause that subordinates itself to the next (`如果…，请…`, `使用前，请…`): the two stay
one statement."""


def _advice_split(part: str) -> list[str]:
    """`part` cut before each Chinese advice clause whose lead is no subordinate clause."""
    pieces = _ZH_ADVICE.split(part)
    out = [pieces[0]]
    for piece in pieces[1:]:
        if _ZH_SUBORDINATE.search(out[-1].rsplit("，", 1)[-1]):
            out[-1] += "，" + piece
        else:
            out.append(piece)
    return out


_ZH_CLAUSE_LEAD = re.compile(
    r"^\s*(?:如果|若|假如|一旦|只要|只有|除非|除了|当|在|凡|如需|如|对于|因为|由于|未经|未获|经过|经)"
)
_ZH_CLAUSE_TAIL = re.compile(r"(?:时|后|前|以后|之后|之前|以前|的话|期间|下|中|的|者|内|外)\s*$")
_ZH_CLAUSE_GO_ON = re.compile(
    r"^\s*(?:并|而|且|也|还|则|就|才|否则|即|以及|及|或|和|最|不超过|至多|至少|不少于|不低于"
    r"|每|包括|其中|例如|直到|均|都|须|需|应|可|方可|再|然后|之后|随后|以|用于|共|合计|约)"
)
"""A Chinese clause after a comma that goes on with the one before it (a coordinated
predicate, a cap, a step, a rule of the same subject): not a statement of its own."""


def _comma_split(part: str) -> list[str]:
    """`part` cut at each Chinese comma between two statements (`整机保修两年，滤网属于耗材，
    不在保修范围内`): a negation or amount of one statement is no slot of the other. A clause
    that subordinates itself to the next (`如果…，`, `…后，`, `…的，`) or one that goes on
    with the one before stays joined."""
    if "，" not in part:
        return [part]
    pieces = part.split("，")
    out = [pieces[0]]
    for piece in pieces[1:]:
        if (
            _ZH_CLAUSE_LEAD.match(out[-1].rsplit("，", 1)[-1])
            or _ZH_CLAUSE_TAIL.search(out[-1])
            or _ZH_CLAUSE_GO_ON.match(piece)
            or not has_cjk(piece)
        ):
            out[-1] += "，" + piece
        else:
            out.append(piece)
    return out


def _pieces(focus: str) -> Iterable[str]:
    """The clauses `_segment_parts` starts from: segments, advice, commas."""
    if _CYRILLIC_WORD.search(focus) and _PROHIBITED_INFINITIVE.search(focus):
        # `пользоваться телефонами, часами и наушниками … запрещено`: that sentence is one rule
        for sentence in _LATIN_SENTENCE.split(focus):
            if _PROHIBITED_INFINITIVE.match(sentence):
                yield sentence
            else:
                yield from _pieces(sentence)
        return
    for whole in _SEGMENT.split(focus):
        for p in _advice_split(whole):
            yield from _comma_split(p)


_LATIN_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_CYRILLIC_WORD = re.compile("[а-яё]{4}", re.IGNORECASE)


_PROHIBITED_INFINITIVE = re.compile(
    r"(?:^|(?<=[.!?]\s))\s*[а-яё]+(?:ть|ться|ти|чь)(?![\w-])[^.!?;:]*(?<![\w-])(?:нельзя|запрещено|запрещается|"
    r"воспрещается|невозможно|недопустимо)\s*(?:[.!?]|$)",
    re.IGNORECASE,
)
"""A Russian sentence that opens with an infinitive and closes with its prohibition."""


def _segment_parts(focus: str) -> Parts:
    parts: list[str] = []
    for part in _pieces(focus):
        if parts and (
            _CONDITION_START.match(part)
            or (_OTHERWISE.match(part) and _CONDITION_ANYWHERE.search(parts[-1]))
            or (_BOUND_AFTER_WORD.match(part) and _AMOUNT_END.search(parts[-1]))
        ):
            # `…, and only if Y`: the condition belongs to X; `if Y, X, otherwise Z` is one
            # rule; `5 дней и больше` is one bound
            if _BOUND_AFTER_WORD.match(part):
                joiner = " and " if part.isascii() else " и "
            else:
                joiner = " "
            parts[-1] += joiner + part
        else:
            parts.append(part)
    if len(parts) == 1:
        return ((focus, frozenset()),)
    return tuple((p, span_keys(p)) for p in parts)


_CAP_FORBIDDEN = re.compile(
    r"(?:不得|不能|不可|不应|禁止)超过|(?:must|may|shall)\s+not\s+exceed|cannot\s+exceed"
    r"|не\s+должн\w*\s+превыш|нельзя\s+(?:\w+\s+){0,3}?(?:больше|дольше|более)",
    re.IGNORECASE,
)
_PERMITTING = re.compile(
    r"(?<![\w-])(?:may|can|allowed|можно|может|могут|вправе|разрешено)(?![\w-])|可以|能够|允许|可",
    re.IGNORECASE,
)
_CONSEQUENCE = re.compile(
    r"(?<![\w-])(?:must|have to|has to|need to|is charged|are charged|pay|должн\w*|нужно"
    r"|необходимо|обязан\w*|оплачива\w*)(?![\w-])|须|要|需|必须|应|补交|补票|收取",
    re.IGNORECASE,
)


def _violation_case(claim: str, focus: str) -> bool:
    """The evidence forbids passing a bound (`停留时间不得超过4小时`, `must not exceed 4 hours`)
    and the claim, permitting nothing, says what follows when it is passed (`停留超过四小时
    出站…都要补交费用`): the claim's opposite bound names the case the rule forbids, not a
    clash with it. Only a prohibition of passing it: the slots' wider negated bounds (`не
    позднее 5 сентября`, a deadline) keep their clash."""
    return (
        _CAP_FORBIDDEN.search(focus) is not None
        and _PERMITTING.search(claim) is None
        and _CONSEQUENCE.search(claim) is not None
    )


def _word_key_sets(text: str) -> tuple[frozenset[str], ...]:
    """Keys of each content word of `text`, as the alignment's word sets are."""
    if has_cjk(text):
        return tuple(keys(w) | {w} for w in zh_words(text) if has_cjk(w) and len(w) > 1)
    return tuple(keys(w.lower()) for w in _WORD.findall(text) if w.lower() not in _CLOSED_WORDS)


def _order_of_top_clause(
    order: Mapping[str, str], words: tuple[frozenset[str], ...], parts: Parts
) -> list[RiskSignal]:
    """The clause that shares most of the claim's words orders its events the other way
    (`费用可以在治疗结束后缴纳` for `费用须在治疗前缴纳，治疗结束后可开具发票`): another clause's
    `after` does not make the claim's `after` the evidence's."""
    if len(parts) < 2:
        return []
    shared = [_shared(words, k) for _, k in parts]
    best = max(shared)
    if shared.count(best) != 1:
        return []
    stated = slots_of(parts[shared.index(best)][0]).order
    for kind in ("before", "after"):
        other = "after" if kind == "before" else "before"
        if kind in order and kind not in stated and other in stated:
            detail = f"{order[kind]} (evidence: {stated[other]})"
            return [RiskSignal(SignalCode.ORDER_MISMATCH, detail)]
    return []


_MERGED_CLAIM = re.compile(
    r",\s+(?:и|а|and|whereas)\s|[\u4e00-\u9fff]，[\u4e00-\u9fff]", re.IGNORECASE
)
"""A claim of two statements (`пакеты недоступны, и за каждый мегабайт вы платите …`; in
Chinese, any two clauses: `储物柜只能当天使用，闭馆后…`)."""


def _segments(
    words: tuple[frozenset[str], ...],
    focus: str,
    parts: Parts,
    merged: bool = False,
    amounts: tuple[Quantity, ...] = (),
) -> str:
    """The clauses of `focus` that carry the claim: in `backups run every 12 hours and are
    kept 30 days unless …`, the `unless` belongs to the second clause only. `parts` is
    `_segment_parts(focus)`; `merged`: the claim joins two statements, so a clause with one
    of its words no kept clause has carries the second; `amounts`: the claim's, whose clause
    is kept however few of its words it shares."""
    if len(parts) == 1:
        return focus
    shared = [_shared(words, k) for _, k in parts]
    best = max(shared)
    keep = [bool(n and n * 2 >= best) for n in shared]
    # a Chinese clause that only repeats words of the clause carrying the claim, and none of
    # its amounts, is another statement about them (`整机保修两年，…，不在保修范围内` for
    # `整机保修两年`); Latin and Cyrillic clauses keep their subject's words, so sharing
    # half is telling there
    chinese = has_cjk(focus)
    held = [frozenset(i for i, w in enumerate(words) if w & k) for _, k in parts]
    tops = frozenset().union(*(h for h, n in zip(held, shared, strict=True) if n == best))
    keep = [
        kept
        and (
            not chinese
            or n == best
            or not h <= tops
            or any(same_amount(q, e) for q in amounts for e in quantities(text))
        )
        for kept, n, h, (text, _) in zip(keep, shared, held, parts, strict=True)
    ]
    if not chinese and amounts:
        # the clause stating one of the claim's amounts carries it, however few of its words
        # it shares (`distemper, parvovirus and kennel cough at least 14 days before …`)
        keep = [
            kept
            or (
                any(same_amount(q, e) for q in amounts for e in quantities(text))
                # not the second end of a range parted at its `and` (`between 1 | 3 months`)
                and not (i and _ENDS_WITH_NUMBER.search(parts[i - 1][0]))
            )
            for i, (kept, (text, _)) in enumerate(zip(keep, parts, strict=True))
        ]
    covered = frozenset().union(*(k for (_, k), kept in zip(parts, keep, strict=True) if kept))
    for i, (text, k) in enumerate(parts):
        # a negated clause that alone has one of the claim's words carries the claim too: an
        # elliptic one (`covered for loss but not for breakage` for a claim about breakage), or
        # the predicate after a listed subject (`бельё, косметика и товары … возврату не
        # подлежат` for `косметику вернуть нельзя`)
        if (
            not keep[i]
            and (_ELLIPTIC_NEGATION.match(text) or (i == len(parts) - 1 and _negated_part(text)))
            and any(w & k and not w & covered for w in words)
        ):
            keep[i] = True
        elif merged and not keep[i] and any(w & k and not w & covered for w in words):
            keep[i] = True  # a claim that merges two clauses rests on both
    for i in range(1, len(parts)):
        # an exception or a cap after a kept clause limits it (`…, 但酒后驾驶除外`,
        # `…, 最高不超过300元`, `…, except uploads`): it stays, so dropping it shows
        if keep[i - 1] and _TRAILING_LIMIT.search(parts[i][0]):
            keep[i] = True
    for i in range(1, len(parts)):
        if keep[i - 1] and not keep[i] and _other_value_of_same(parts[i - 1][0], parts[i][0]):
            keep[i] = True
        elif keep[i - 1] and not keep[i] and _denies_claimed(parts[i][0], words):
            keep[i] = True  # `send readings automatically and do not need to submit them`
    kept = [p for (p, _), k in zip(parts, keep, strict=True) if k]
    # kept clauses stay separate statements (`_dropped_bounds` reads them one by one)
    return "; ".join(p.strip() for p in kept) if kept else focus


def _denies_claimed(part: str, words: tuple[frozenset[str], ...]) -> bool:
    """`part` negates a verb one of the claim's words aligned with (`do not need to submit
    them` after the kept clause of its subject, for `… must submit readings`)."""
    if not part.isascii() or not _negated_part(part):
        return False
    said = frozenset().union(*words) if words else frozenset()
    return any(
        _first_keys(target) & said
        for target, written in slots_of(part).negated
        if written.split()[0].lower() in _VERBAL_NEGATIONS
    )


_VERBAL_NEGATIONS = frozenset(
    "not never don't doesn't didn't cannot can't won't isn't aren't mustn't".split()
)
"""Negations of a verb (`do not need to submit`), not of a noun (`without a photo`)."""


_ENDS_WITH_NUMBER = re.compile(
    r"(?:\d|(?<![\w-])(?:" + "|".join(sorted(EN_NUMBERS, key=len, reverse=True)) + r"))\s*$",
    re.IGNORECASE,
)
_SAME_SUBJECT = re.compile(
    r"^\s*(?:(?:but|and|но|а|и)\s+)?(?:it|this|they|that|он|она|оно|они|это)(?![\w-])",
    re.IGNORECASE,
)
_RU_PREDICATE_START = re.compile(r"^\s*(?:(?:но|а|и)\s+)?([а-яё]+)", re.IGNORECASE)


def _other_value_of_same(kept: str, part: str) -> bool:
    """A clause about the kept clause's subject (`…, but it is reduced to 250 EUR if…`, `… и
    бесплатна для заказов от 2000 рублей`) that gives its amount another value under a
    condition: it limits the kept statement, so a claim that drops it says more."""
    if not (_SAME_SUBJECT.match(part) or _ru_predicate_first(part)):
        return False
    units = {q.unit for q in quantities(kept) if q.unit}
    return bool(units & {q.unit for q in quantities(part) if q.unit}) and (
        _CONDITION_ANYWHERE.search(part) is not None
        or any(kinds - {"exact"} for kinds in bounds(part).values())
    )


def _ru_predicate_first(part: str) -> bool:
    m = _RU_PREDICATE_START.match(part)
    return m is not None and any(
        pos in ("ADJS", "VERB", "PRTS") for _, pos in ru_lemmas(m.group(1).lower())[:1]
    )


_CONDITION_ANYWHERE = re.compile(
    r"(?<![\w-])(?:if|unless|when|provided|если|при условии|в случае)(?![\w-])", re.IGNORECASE
)
_BOUND_AFTER_WORD = re.compile(
    r"\s*(?:больше|более|старше|выше|меньше|менее|младше|ниже|дольше|короче|новее|over|above|"
    r"older|under|below|younger|later|newer|higher|longer)(?![\w-])",
    re.IGNORECASE,
)
_AMOUNT_END = re.compile(r"\d[\d.,]*(?:\s*[^\W\d_]+)?\s*$")
_OTHERWISE = re.compile(r"\s*(?:otherwise|иначе|в противном случае)(?![\w-])", re.IGNORECASE)


_TIME_RANGE = re.compile(
    r"(?<![\d:])(\d{1,2}):(\d{2})\s*(?:to|until|till|and|-|–|—|~|～|до|по|至|到)\s*"
    r"(\d{1,2}):(\d{2})(?![\d:])",
    re.IGNORECASE,
)


def _ranges(text: str) -> set[tuple[str, str]]:
    return {
        (f"{int(m.group(1)):02d}:{m.group(2)}", f"{int(m.group(3)):02d}:{m.group(4)}")
        for m in _TIME_RANGE.finditer(text)
    }


def _time_range_pairs(claim: str, window: str) -> list[RiskSignal]:
    """A range of times the claim pairs from two of the evidence's ranges (`09:00 to 22:00`
    where it says `07:00 to 22:00 on weekdays and 09:00 to 18:00 on Saturdays`): each end is
    stated, the range is not."""
    if ":" not in claim:
        return []
    mine = _ranges(claim)
    theirs = _ranges(window) if mine else set()
    out = []
    for start, end in sorted(mine - theirs):
        if any(s == start for s, _ in theirs) and any(e == end for _, e in theirs):
            said = ", ".join(f"{s}–{e}" for s, e in sorted(theirs) if s == start or e == end)
            out.append(RiskSignal(SignalCode.NUMBER_MISMATCH, f"{start}–{end} (evidence: {said})"))
    return out


def _dropped_cap(claim: str, focus: str, claim_keys: frozenset[str]) -> list[RiskSignal]:
    """A cap the focus keeps as a clause after the statement (`…全额赔偿，但不超过物品的实际价值`,
    `…, but not more than the item's value`) whose words the claim mostly leaves out: the
    claim states the amount without its limit."""
    out = []
    for part in focus.split("; ")[1:]:
        if not _TRAILING_LIMIT.search(part) or _DIGIT.search(part):
            continue  # a cap with an amount is compared as a bound
        words = list(_zh_content(part)) if has_cjk(part) else _clause_words(part)
        missing = [w for w in words if not _in_claim(w, claim, claim_keys)]
        if words and len(missing) * 2 > len(words):
            out.append(RiskSignal(SignalCode.CONDITION_DROPPED, f"{part.strip()} (claim: none)"))
    return out


def _negated_part(text: str) -> bool:
    """A negation word anywhere in the part."""
    return NEGATION.word_re.search(text.lower()) is not None


_ZH_NEGATION_WORD = re.compile("不|没|未|无需|无须|禁止|严禁|勿")


def _has_negation(text: str) -> bool:
    """A negation word anywhere in `text`, Chinese ones included."""
    return _negated_part(text) or (has_cjk(text) and _ZH_NEGATION_WORD.search(text) is not None)


_ELLIPTIC_NEGATION = re.compile(
    r"\s*(?:not|never|no|не|ни|нет|不|没|未|非)(?![\w-])|\s*(?:不|没|未|非)"
)
"""A clause after `but`/`а`/`但` that is only a negated phrase (`… but not for breakage`)."""
_TRAILING_LIMIT = re.compile(
    r"^\s*(?:but\s+|但\s*|но\s+|а\s+)?(?:except|unless|excluding|other than|up to|at most|"
    r"(?:only|только|лишь)\s+(?=(?:after|if|when|with|without|for|during|on|in|at|by|until|"
    r"within|после|при|если|с|со|без|для|в|во|до|по|на|когда)\s)|"
    r"no more than|not more than|кроме|за исключением|не более|не выше|не свыше|максимум|"
    r"最高|最多|不超过|至多|上限|封顶|仅限|只限|限于|仅适用于|只适用于)|除外\s*[。.;；]?\s*$",
    re.IGNORECASE,
)
"""A clause that only limits the one before it: an exception, a cap or a restriction of who
(`…，但仅限首位购买者享有`)."""
_CONDITION_START = re.compile(
    r"\s*(?:only\s+)?(?:if|unless|except|provided|as long as|если|кроме|за исключением|"
    r"только если|除非|仅当|只有|如果|除了)",
    re.IGNORECASE,
)


def _q(items: Iterable[Quantity], limit: int = 3) -> str:
    seen = list(dict.fromkeys(q.text for q in items))
    return ", ".join(seen[:limit]) if seen else "none"


_CLOSED_PHRASES = re.compile(
    r"(?:^\s*|[,;]\s*)apart from(?![\w-])|"
    r"(?<![\w-])(?:в течение|на протяжении|в пределах|с момента|со дня|с даты|по истечении|"
    r"в случае|в размере|от имени|from the date of|from the day of|in the event of|"
    r"in case of|by means of|in accordance with|according to|as long as|so long as|"
    r"for example|for instance|such as|in such (?:a )?cases?|in (?:this|that|these|those) cases?)"
    r"(?![\w-])",
    re.IGNORECASE,
)
"""Phrases that frame a fact without adding one (`в течение 14 дней`, `as long as`, `for
example`, `in such cases`, an opening `apart from`): conditions and bounds they open are
compared as slots."""
_CLASS_PHRASE_LIST = [p for c in _CLASSES for p in c.phrases if " " in p and not has_cjk(p)]
_CLASS_PHRASES = re.compile(
    r"(?<![\w-])" + patterns.words(_CLASS_PHRASE_LIST, ignorecase=True) + r"(?![\w-])",
    re.IGNORECASE,
)
"""The closed classes' phrases (`as a rule`, `in most cases`, `по словам`): slots, masked as
phrases. Their words are content elsewhere (`the rule allows`, `the risk is low`)."""
_CLASS_PHRASE_HEADS = re.compile(
    r"(?<![\w-])(?:"
    + "|".join(sorted({re.escape(p.split()[0]) for p in _CLASS_PHRASE_LIST}))
    + r")(?![\w-])",
    re.IGNORECASE,
)
"""The phrases' first words: most claims have none, and the phrase scan is skipped."""


_MONEY = re.compile(
    r"[$€£¥₽]\s?\d|\d(?:[.,]\d+)?\s?(?:%|p\b|pence|euros?\b|dollars?\b|pounds?\b|руб|₽|"
    r"копе|евро|доллар|元|块|角|€|(?:EUR|USD|GBP|RUB|CNY)\b)"
    r"|(?<![\w-])"
    + patterns.words((*EN_NUMBERS, *RU_NUMBERS), ignorecase=True)
    + r"\s+(?:pence|euros?\b|dollars?\b|pounds?\b|руб|копе|евро|доллар)",
    re.IGNORECASE,
)
_PRICE_VERBS = frozenset(
    """pay pays paid paying cost costs costing charge charges charged charging billed bill
    платить заплатить оплатить оплачивать доплатить доплачивать стоить взимать взиматься
    составлять составить обойтись""".split()
)
"""Verbs that only say an amount is paid (`you pay €2.40 an hour` for `parking costs €2.40 per
hour`): the amount and what it is for carry the claim."""
_ZH_PRICE_VERBS = frozenset("支付 付 付款 缴纳 缴 交 收取 收 收费 花费 花 需付 需支付 计费".split())
_PRICE_WORDS = re.compile(
    r"(?<![\w-])(?:cost|fee|charge|price|rate|tariff|fine|penalt|deposit|pay|surcharge|стои|стоя|"
    r"плат|оплат|тариф|сбор|штраф|взнос|залог|цен)|费|价|收取|支付|付|罚|押金",
    re.IGNORECASE,
)
_REFUND_WORDS = re.compile(
    r"(?<![\w-])(?:refund|reimburs|back|credit|compensat|return|возвра|верн|возмещ|компенс)"
    r"|退|返还|补偿|赔",
    re.IGNORECASE,
)


_FREE_WORD = re.compile(
    r"(?<![\w-])(?:free(?:\s+of\s+charge)?|at\s+no\s+(?:extra\s+|additional\s+)?(?:cost|charge)"
    r"|no\s+charge|бесплатн\w*|даром)(?![\w-])|免费|不收费|不另收费|无需付费|不需要付费",
    re.IGNORECASE,
)
"""A claim that something costs nothing."""


_PROPORTION = re.compile(
    r"(?<![\w.,])(\d+|one|two|three|four|five)\s+(?:in|out of|of every)\s+(\d+)(?![\w.,])"
    r"|(?<![\w.,])(\d+)\s+из\s+(\d+)(?![\w.,])|(?<![\d.,])(\d+(?:[.,]\d+)?)\s?%",
    re.IGNORECASE,
)
_MOST = re.compile(
    r"(?<![\w-])(?:most|the majority|большинство|большинства|большей части)(?![\w-])"
    r"|大多数|多数|大部分|绝大部分",
    re.IGNORECASE,
)
"""More than half (not `many`: a quarter of a country is many people)."""
_NEXT_NOUN = re.compile(r"\s+(?:(?:of|of the|из|из числа)\s+)?([^\W\d_]+)", re.IGNORECASE)
_SMALL = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}


def _minority_as_most(claim: str, window: str) -> list[RiskSignal]:
    """The claim says most (`most people get soreness`) where the evidence gives a share under
    half (`in about 1 in 10 people`, `у 5 из 100`, `10%`): another quantity, named on both
    sides."""
    said = _MOST.search(claim)
    if said is None or _negated_at(claim, said.start()):
        return []
    whom = _NEXT_NOUN.match(claim, said.end())
    if whom is None:
        return []
    whom_keys = keys(whom.group(1).lower())
    for m in _PROPORTION.finditer(window):
        of = _NEXT_NOUN.match(window, m.end())
        if of is None or not keys(of.group(1).lower()) & whom_keys:
            continue  # a share of something else (`according to 41%`)
        if m.group(5) is not None:
            share = float(m.group(5).replace(",", ".")) / 100
        else:
            part, whole = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
            part_n = _SMALL.get(part.lower()) or int(part)
            share = part_n / int(whole) if int(whole) else 1.0
        if share < 0.5:
            detail = f"{said.group()} (evidence: {m.group().strip()})"
            return [RiskSignal(SignalCode.QUANTIFIER_MISMATCH, detail)]
    return []


_RATE_AFTER = re.compile(
    r"\s*(?:a|an|per|each|every|в|за|/)\s*(day|night|week|month|year|hour|сутки|день"
    r"|ночь|неделю|месяц|год|час)(?![\w-])",
    re.IGNORECASE,
)
_RATE_PERIOD = {
    "day": "day", "сутки": "day", "день": "day", "night": "night", "ночь": "night",
    "week": "week", "неделю": "week", "month": "month", "месяц": "month", "year": "year",
    "год": "year", "hour": "hour", "час": "hour",
}  # fmt: skip


_ZH_RATE_BEFORE = re.compile(r"每(天|日|晚|周|月|年|小时|学期|季度)(?:为|是|收取|需|要)?\s*$")
"""`每月1200元`, `每晚为80元`: the Chinese period an amount is given per, before it."""
_ZH_RATE_PERIOD = {
    "天": "day", "日": "day", "晚": "night", "周": "week", "月": "month", "年": "year",
    "小时": "hour", "学期": "term", "季度": "quarter",
}  # fmt: skip


def _rate_period(text: str, q: Quantity) -> str | None:
    """The period an amount is given per (`150 000 рублей в сутки`, `8 euros per day`,
    `每月1200元`)."""
    at = text.find(q.text)
    if at < 0:
        return None
    if has_cjk(text) and q.unit is not None:
        zh = _ZH_RATE_BEFORE.search(text, max(0, at - 8), at)
        if zh is not None:
            return _ZH_RATE_PERIOD[zh.group(1)]
    m = _RATE_AFTER.match(text, at + len(q.text))
    return None if m is None else _RATE_PERIOD[m.group(1).lower()]


def _rate_swapped(
    claim: str, window: str, c_quantities: Sequence[Quantity], ev_quantities: Sequence[Quantity]
) -> list[RiskSignal]:
    """The claim gives an amount per another period than the evidence gives the same amount
    (`150 000 рублей в месяц` for `150 000 рублей в сутки и 600 000 рублей в месяц`): another
    rate, named on both sides."""
    out = []
    for q in c_quantities:
        said = _rate_period(claim, q)
        if said is None:
            continue
        stated = {p for e in ev_quantities if same_amount(q, e) for p in (_rate_period(window, e),)}
        if stated and said not in stated and None not in stated:
            detail = f"{q.text} per {said} (evidence: per {', '.join(sorted(map(str, stated)))})"
            out.append(RiskSignal(SignalCode.NUMBER_MISMATCH, detail))
    return out


_CLOCK_TIME = re.compile(r"(?<![\d:.,])(\d{1,2}):([0-5]\d)(?![\d:])")


def _clocks(text: str) -> set[str]:
    """Times of day as `HH:MM` (24:00, the end of a day, is 00:00 of the next)."""
    return {f"{int(h) % 24:02d}:{m}" for h, m in _CLOCK_TIME.findall(text) if int(h) <= 24}


def _clock_unstated(claim: str, window: str) -> list[RiskSignal]:
    """A time of day the evidence does not state, where it states others: compared whole, so
    `00:00` is not found in `12:00` by its minutes."""
    said = _clocks(claim)
    if not said:
        return []
    stated = _clocks(window)
    missing = sorted(said - stated)
    if not stated or not missing:
        return []
    detail = f"{', '.join(missing)} (evidence: {', '.join(sorted(stated))})"
    return [RiskSignal(SignalCode.NUMBER_MISMATCH, detail)]


_BARE_BOUND = re.compile(
    r"(?<![\w-])(at least|no less than|not less than|at most|no more than|not more than"
    r"|не менее|не меньше|как минимум|хотя бы|не более|не больше)(?![\w-])",
    re.IGNORECASE,
)
_BARE_KIND = {
    "at least": "lower", "no less than": "lower", "not less than": "lower",
    "не менее": "lower", "не меньше": "lower", "как минимум": "lower", "хотя бы": "lower",
    "at most": "upper", "no more than": "upper", "not more than": "upper",
    "не более": "upper", "не больше": "upper",
}  # fmt: skip
_AMOUNT_AHEAD = re.compile(
    r"\s*(?:(?:в|за|на|the|a)\s+)?(?:[$€£¥]\s?)?(?:\d|(?:"
    + patterns.words((*EN_NUMBERS, *RU_NUMBERS, *ONE_WORDS), ignorecase=True)
    + r")(?![\w-]))",
    re.IGNORECASE,
)


def _bare_bounds(text: str) -> dict[str, str]:
    """Direction -> bound phrase of the bounds that govern no amount (`wait at least the
    number of seconds given in Retry-After`, `не менее указанного срока`)."""
    return {
        _BARE_KIND[m.group(1).lower()]: m.group(1)
        for m in _BARE_BOUND.finditer(text)
        if not _AMOUNT_AHEAD.match(text, m.end())
    }


def _bare_bound_flipped(claim: str, window: str) -> list[RiskSignal]:
    """A bound on something that is no number turned the other way (`no more than the number
    of seconds in Retry-After` for `at least` it): the claim allows what the evidence rules
    out. Insufficient, not a contradiction: at the bound itself both hold."""
    said = _bare_bounds(claim)
    if not said:
        return []
    stated = _bare_bounds(window)
    for kind, word in said.items():
        other = "upper" if kind == "lower" else "lower"
        if kind not in stated and other in stated:
            detail = f"{word} (evidence: {stated[other]})"
            return [RiskSignal(SignalCode.BOUND_MISMATCH, detail)]
    return []


def _free_for_a_price(claim: str, focus: str) -> list[RiskSignal]:
    """The claim calls free what its focus gives a price for and nowhere calls free (`Alumni
    can join free of charge` for `for an annual fee of 60 pounds`): a price of zero against a
    price, named on both sides. Not when the claim negates it (`not free`)."""
    said = _FREE_WORD.search(claim)
    if said is None or _FREE_WORD.search(focus) or _negated_at(claim, said.start()):
        return []
    if has_cjk(said.group()) and _ZH_NEGATIVE.search(
        claim[max(0, said.start() - 2) : said.start()]
    ):
        return []
    money = _MONEY.search(focus)
    if money is None or _PRICE_WORDS.search(focus) is None or _REFUND_WORDS.search(focus):
        return []
    start = money.start()
    while start > 0 and (focus[start - 1].isdigit() or focus[start - 1] in ".,"):
        start -= 1  # `_MONEY` matches from the last digit before the currency
    rest = _WORD_REST.match(focus, money.end())
    stated = focus[start : money.end()] + (rest.group() if rest is not None else "")
    return [RiskSignal(SignalCode.NUMBER_MISMATCH, f"{said.group()} (evidence: {stated.strip()})")]


_COMPARED = (
    re.compile(
        r"(不会|不能|不得|不可|不应|不|未|没有)?(超过|高于|低于|多于|少于|大于|小于)"
        r"(?![\d零〇一二三四五六七八九十两百千万])([\u4e00-\u9fff]{2,8})"
    ),
    re.compile(
        r"(?:(not|never|n't|cannot)\s+(?:\w+\s+)?)?(exceed(?:s|ed|ing)?)\s+"
        r"(?:the\s+|its\s+|their\s+|your\s+)?([a-z]+(?:\s+[a-z]+)?)",
        re.IGNORECASE,
    ),
    re.compile(
        r"(?:(не)\s+(?:\w+\s+)?)?(превыша\w*|превыс\w*)\s+([а-яё]+(?:\s+[а-яё]+)?)",
        re.IGNORECASE,
    ),
)
"""A comparison with something that is no number (`不超过图书定价`, `does not exceed the list
price`, `не превышает стоимости`): its negation, its comparative and what it compares with."""


def _comparisons(text: str) -> list[tuple[bool, str, str, frozenset[str]]]:
    """(negated, comparative's stem, comparative as written, keys of the compared thing) of
    each such comparison in `text`."""
    found = []
    for pattern in _COMPARED:
        for m in pattern.finditer(text):
            target = m.group(3)
            if has_cjk(target):
                target_keys = frozenset(target[i : i + 2] for i in range(len(target) - 1))
            else:
                target_keys = union(keys(w.lower()) for w in target.split())
            written = m.group(2).lower()
            found.append((m.group(1) is not None, written[:5], written, target_keys))
    return found


def _comparison_flipped(claim: str, focus: str) -> list[RiskSignal]:
    """The claim states a comparison with a thing (no number) that its focus negates, or the
    other way round (`滞纳金超过图书定价` for `滞纳金不超过图书定价`): the opposite statement.
    Amounts have their bounds (`bounds`); this is the comparison a bound cannot hold."""
    if not _may_compare(claim):
        return []
    stated = _comparisons(focus)
    for negated, stem, word, target in _comparisons(claim):
        for theirs, their_stem, their_word, their_target in stated:
            if stem == their_stem and target & their_target and negated != theirs:
                said = ("not " if negated else "") + word
                other = ("not " if theirs else "") + their_word
                return [RiskSignal(SignalCode.NEGATION_MISMATCH, f"{said} (evidence: {other})")]
    return []


def _may_compare(text: str) -> bool:
    """A cheap test before the patterns: `text` has a comparative at all."""
    lowered = text.lower()
    return any(
        h in lowered
        for h in ("超过", "高于", "低于", "多于", "少于", "大于", "小于", "exceed", "превы")
    )


_ONE_NOUN = re.compile(
    r"(?<![\w-])(?:one|a single|один|одна|одно|одну|одного|одной)\s+([^\W\d_]{3,})", re.I
)
_COUNT_NOUN = re.compile(r"(?<![\w.,])(\d+)\s+([^\W\d_]{3,})")


def _one_against_a_count(claim: str, window: str) -> list[RiskSignal]:
    """`one` before a noun the evidence counts with another number (`counts as one request`
    for `count as 10 requests`): `one` is no amount where it stands before a noun, so the
    amounts' comparison does not see it."""
    for m in _ONE_NOUN.finditer(claim):
        if any(q.unit is not None for q in quantities(m.group())):
            continue  # `one week` is an amount the amounts' comparison reads (`7 days`)
        noun = keys(m.group(1).lower())
        for c in _COUNT_NOUN.finditer(window):
            if c.group(1) != "1" and keys(c.group(2).lower()) & noun:
                return [
                    RiskSignal(SignalCode.NUMBER_MISMATCH, f"{m.group()} (evidence: {c.group()})")
                ]
    return []


_PERIODS = r"(second|minute|hour|day|night|week|fortnight|month|quarter|year)"
_ONCE_A = re.compile(rf"(?<![\w-])once\s+(?:a|an|per|every|each)\s+{_PERIODS}(?![\w-])", re.I)
_TIMES_A = re.compile(
    r"(?<![\w-])(twice|thrice|(?:\d+|two|three|four|five|six|seven|eight|nine|ten)\s+times)"
    rf"\s+(?:a|an|per|every|each)\s+{_PERIODS}(?![\w-])",
    re.IGNORECASE,
)


def _once_against_times(claim: str, window: str) -> list[RiskSignal]:
    """`once a day` where the evidence says `twice a day` of the same period: `once a X` is
    read as a rate (`every X`, `weekly`), so the amounts' comparison does not count it."""
    for m in _ONCE_A.finditer(claim):
        for c in _TIMES_A.finditer(window):
            if c.group(2).lower() == m.group(1).lower():
                detail = f"{m.group()} (evidence: {c.group()})"
                return [RiskSignal(SignalCode.NUMBER_MISMATCH, detail)]
    return []


_EXCEPT_SPAN = re.compile(
    r"(?<![\w-])(?:за исключением|кроме|except(?: for)?|excluding|other than)(?![\w-])"
    r"([^.;。；]*)|除([^。；]*?)外",
    re.IGNORECASE,
)


def _excepted_bounds_flipped(
    focus: str, found: dict[str, frozenset[str]]
) -> dict[str, frozenset[str]]:
    """The bounds of what an exception takes out, turned over: `за исключением заказов дороже
    100 000 рублей` allows orders of at most 100 000, as the claim's `только если не дороже
    100 000` says."""
    out = dict(found)
    for m in _EXCEPT_SPAN.finditer(focus):
        for number, kinds in bounds(m.group(1) or m.group(2) or "").items():
            if number in out and kinds - {"exact"}:
                out[number] = frozenset(FLIPPED.get(k, k) for k in out[number])
    return out


_OTHER_CASE = re.compile(
    r"(?<![\w-])(?:otherwise|or else|after that|thereafter|beyond that|in (?:all )?other cases|"
    r"иначе|в противном случае|в (?:остальных|других) случаях|после этого|"
    r"по истечении этого срока)(?![\w-])|[，,]\s*(?:否则|之后|此后|超过后|超出后|其他情况下?)"
    r"|,\s+or(?=\s+(?:a|an|the|you|your)\s)",
    re.IGNORECASE,
)
"""Where a rule turns to the case its bound leaves out (`at least 500, otherwise …`, `72小时内
可以免费取消，之后取消的…`)."""
_EXCEPTION_CASE = re.compile(
    r"(?<![\w-])(?:except (?:when|if|where)|unless|за исключением случаев,? когда|"
    r"кроме случаев,? когда|если только)(?![\w-])|除非",
    re.IGNORECASE,
)
"""Where a rule names the case it does not cover (`…, except when the guest is registered`)."""


def _other_case_bounds_flipped(
    focus: str, found: dict[str, frozenset[str]], claim: str, conditional: bool = True
) -> dict[str, frozenset[str]]:
    """A claim that states what happens in the case the evidence's bound leaves out (`if the
    balance is under 500, roaming may be suspended` for `at least 500 must be on the account,
    otherwise the service may be suspended`) bounds the amount the other way: read the bound
    turned over when what the claim says follows (after its condition's comma) takes words
    from the other case at least as much as from the rule. A claim with no condition word
    (`при заказе дешевле 3000 рублей доставка стоит 199 рублей`) is read so only when it states
    an amount of the other case."""
    m = _OTHER_CASE.search(focus)
    if not conditional:
        if m is None or not _amount_of_other_case(
            claim, focus[: m.start()], focus[m.end() :], found
        ):
            return found
        return _bounds_turned(focus, m, found)
    parts = re.split(r"[,，]", claim, maxsplit=1)
    if m is None:
        m = _EXCEPTION_CASE.search(focus)
        if m is None or len(parts) < 2 or _has_negation(parts[0]):
            return found  # `provided no other member has placed a hold`: the rule's own case
        # `if Y, X for longer` for `X for at most 3 hours, except when Y`: the claim's
        # condition is the evidence's exception
        said = _content_keys(parts[0])
    else:
        said = _content_keys(parts[-1])
    rule, other = _content_keys(focus[: m.start()]), _content_keys(focus[m.end() :])
    taken = len((other - rule) & said)
    if not _amount_of_other_case(claim, focus[: m.start()], focus[m.end() :], found) and (
        not taken or taken < len((rule - other) & said)
    ):
        return found
    return _bounds_turned(focus, m, found)


def _bounds_turned(
    focus: str, m: re.Match[str], found: dict[str, frozenset[str]]
) -> dict[str, frozenset[str]]:
    """`found` with the bounds of the rule before `m` (and not of the case after it) turned."""
    out = dict(found)
    in_other = bounds(focus[m.end() :])
    for number, kinds in bounds(focus[: m.start()]).items():
        if number in out and kinds - {"exact"} and number not in in_other:
            out[number] = frozenset(FLIPPED.get(k, k) for k in out[number])
    return out


def _amount_of_other_case(
    claim: str, rule: str, other: str, bounded: Mapping[str, frozenset[str]]
) -> bool:
    """The claim states an amount only the other case has (`в остальных случаях она стоит 199
    рублей`) and none only the rule has but the bounded one: it is about the other case, however
    few of its words the other case repeats (`она` for `доставка`)."""
    stated = {q.value for q in quantities(normalize_zh(claim))}
    in_rule = {q.value for q in quantities(normalize_zh(rule))}
    in_other = {q.value for q in quantities(normalize_zh(other))}
    bound = {number.lstrip("#") for number in bounded}
    return bool(stated & (in_other - in_rule)) and not stated & (in_rule - in_other - bound)


_ZH_FIRST_THEN = re.compile(r"先([^，。；]+?)[，,]?\s*(?:之后|然后|随后|以后|再)再?([^。；]+)")
_ZH_AFTER_ONLY = re.compile(
    r"([^，。；]+?)(?:之后|以后|后)(?:方可|才能|才可以|才可|才|再)([^，。；]+)"
)


def _zh_steps_swapped(claim: str, window: str) -> list[RiskSignal]:
    """`先封箱，之后再验视物品` for `验视物品后方可封箱` (or for `先验视物品，再封箱`): the claim
    does first what the evidence does, or allows, only after the other step."""
    said = _ZH_FIRST_THEN.search(claim)
    if said is None:
        return []
    first, then = set(_zh_content(said.group(1))), set(_zh_content(said.group(2)))
    # `先清理，再疏散` for `先疏散，再清理` too: the evidence's own first step comes second
    for m in (*_ZH_AFTER_ONLY.finditer(window), *_ZH_FIRST_THEN.finditer(window)):
        before, after = set(_zh_content(m.group(1))), set(_zh_content(m.group(2)))
        if first & after and then & before and not first & before:
            detail = f"{said.group().strip()} (evidence: {m.group().strip()})"
            return [RiskSignal(SignalCode.ORDER_MISMATCH, detail)]
    return []


_FIRST_THEN = re.compile(
    r"(?<![\w-])(?:first|сначала|сперва)\s+([^.;!?]+?)[,\s]+(?:(?:and|а|и)\s+)?"
    r"(?:(?:only|только)\s+)?(?:then|after that|afterwards|затем|потом|после этого)\s+"
    r"([^.;!?]+)",
    re.IGNORECASE,
)
"""`first call the police and only then tell the company`, `сначала …, а затем …`."""


def _steps_swapped(claim: str, window: str) -> list[RiskSignal]:
    """The claim's first step is the evidence's second and its second the evidence's first
    (`сначала сообщить в компанию, а затем вызвать ГИБДД` for `сначала вызвать ГИБДД и только
    затем сообщить в компанию`): another order of the same steps."""
    said = _FIRST_THEN.search(claim)
    if said is None:
        return []
    first, then = _content_keys(said.group(1)), _content_keys(said.group(2))
    for m in _FIRST_THEN.finditer(window):
        before, after = _content_keys(m.group(1)), _content_keys(m.group(2))
        if first & after and then & before and not first & before and not then & after:
            detail = f"{said.group().strip()} (evidence: {m.group().strip()})"
            return [RiskSignal(SignalCode.ORDER_MISMATCH, detail)]
    return []


_RELATIVE_TO = re.compile(
    r"(?<![\w-])(после|after|перед|before|prior to)\s+"
    r"((?:(?!(?:и|and|или|or|а|but)\s)[^\W\d_][\w-]*\s+){0,5}[^\W\d_][\w-]*)",
    re.IGNORECASE,
)
_RELATION_KIND = {"после": "after", "after": "after", "перед": "before", "before": "before",
                  "prior to": "before"}  # fmt: skip


def _events_swapped(claim: str, window: str) -> list[RiskSignal]:
    """What happens after (or before) what is swapped: the claim's event is the evidence's
    reference point and its reference point the evidence's event (`обработку от глистов
    проводят через 10 дней после вакцинации` for `вакцинация проводится через 10 дней после
    обработки от глистов`)."""
    said = _RELATIVE_TO.search(claim)
    if said is None:
        return []
    kind = _RELATION_KIND[said.group(1).lower()]
    point = _content_keys(said.group(2))
    event = _content_keys(claim[: said.start()] + " " + claim[said.end() :])
    for m in _RELATIVE_TO.finditer(window):
        if _RELATION_KIND[m.group(1).lower()] != kind:
            continue
        their_point = _content_keys(m.group(2))
        sentence_start = max(window.rfind(".", 0, m.start()), 0)
        sentence_end = window.find(".", m.end())
        their_event = _content_keys(
            window[sentence_start : m.start()]
            + " "
            + window[m.end() : sentence_end if sentence_end >= 0 else len(window)]
        )
        if (
            point
            and their_point
            and not point & their_point
            and _mostly_in(said.group(2), their_event)
            and _mostly_in(m.group(2), event)
        ):
            detail = f"{said.group().strip()} (evidence: {m.group().strip()})"
            return [RiskSignal(SignalCode.ORDER_MISMATCH, detail)]
    return []


def _mostly_in(text: str, found: frozenset[str]) -> bool:
    """At least half the content words of `text` have keys in `found`."""
    words = _clause_words(text)
    return bool(words) and sum(bool(keys(w.lower()) & found) for w in words) * 2 >= len(words)


_WORD_REST = re.compile(r"\w*")


def _priced(claim: str, window: str) -> bool:
    """Whether a price verb of the claim may stand for the evidence's way of stating a price:
    the claim names an amount of money, the evidence speaks of a price, and neither side of
    the money turns around (no refund, credit or compensation on either side)."""
    return (
        _MONEY.search(claim) is not None
        and _PRICE_WORDS.search(window) is not None
        and _REFUND_WORDS.search(window) is None
        and _REFUND_WORDS.search(claim) is None
    )


def _price_verb(word: str) -> bool:
    if word in _PRICE_VERBS:
        return True
    return any(c >= "\u0400" for c in word) and any(
        lemma in _PRICE_VERBS for lemma, _ in ru_lemmas(word)
    )


_APPROXIMATELY = re.compile(
    r"(?<![\w-])(?:about|around|approximately|roughly|около|примерно|приблизительно)(?=\s*(?:\d|"
    + patterns.words((*EN_NUMBERS, *RU_NUMBERS, *ONE_WORDS), ignorecase=True)
    + r"(?![\w-])))"
    r"|(?:大约|大概|(?<![预签节制公条合邀赴履违相特])约)(?=\d)",
    re.IGNORECASE,
)
"""An approximation word before an amount (`около 97%`, `约97%`): compared with the amount
(`units.approximate_at`), not aligned as a word."""


_ROUGHLY_EVERY = re.compile(
    rf"(?<![\w-])(?:{APPROXIMATE_WORDS})\s+(?:every|each|каждые|каждый|каждую|каждое)\s*$",
    re.IGNORECASE,
)


def _approximation_dropped(
    claim: str, focus: str, claim_quantities: tuple[Quantity, ...]
) -> list[RiskSignal]:
    """The evidence gives an amount as approximate (`about 40 minutes`, `roughly every 5
    kilometres`, `约40分钟`) and the claim states it plainly: the claim is surer than its
    source (a hedge dropped, not another value)."""
    if not claim_quantities or not _APPROXIMATE_HEADS.search(focus):
        return []
    out = []
    focus = normalize_zh(focus)
    stated = [(e, focus.find(e.text)) for e in quantities(focus)]
    for q in claim_quantities:
        at = claim.find(q.text)
        if (
            at < 0
            or approximate_at(claim, at)
            or _ROUGHLY_EVERY.search(claim, 0, at)
            or _ZH_APPROXIMATE_AFTER.match(claim, at + len(q.text))
        ):
            continue
        for e, where in stated:
            if where < 0 or not same_amount(q, e):
                continue
            before = focus[max(0, where - 24) : where]
            said = APPROXIMATE_BEFORE.search(before) or _ROUGHLY_EVERY.search(before)
            after = _ZH_APPROXIMATE_AFTER.match(focus, where + len(e.text))
            if said is not None or after is not None:
                written = f"{said.group().strip()} {e.text}" if said else f"{e.text}左右"
                detail = f"unhedged (evidence: {written})"
                out.append(RiskSignal(SignalCode.MODALITY_STRENGTHENED, detail))
                break
    return out


_ZH_APPROXIMATE_AFTER = re.compile(r"左右|上下")
"""`40分钟左右`: about 40 minutes."""
_APPROXIMATE_HEADS = re.compile(
    rf"(?<![\w-])(?:{APPROXIMATE_WORDS})(?![\w-])|~|约|大概|左右|上下", re.IGNORECASE
)
"""A cheap test before the amounts are read: the focus has an approximation word at all."""


_WHEN_AFTER = re.compile(r"\s?(?:的时候|时候|的时|时|那年|那时)")


def _time_reference(e: Quantity, window: str) -> bool:
    """The evidence's amount names a past or other time (`十七岁的时候`, when he was 17), not
    the value now: a claim's other value (`三十岁了`) does not clash with it."""
    at = window.find(e.text)
    return at >= 0 and _WHEN_AFTER.match(window, at + len(e.text)) is not None


def _written_as_word(ident: Identifier, text: str) -> bool:
    """The identifier stands in `text` as one word of another case (`Covid19` for
    `COVID-19`): the same name, not read as an identifier there."""
    pattern = rf"(?<![\w-]){re.escape(ident.key)}[\s-]?{re.escape(ident.value)}(?![\w.-])"
    return re.search(pattern, text, re.IGNORECASE) is not None


_PER_BEFORE = re.compile(
    r"(?<![\w-])(?:every|each|per|каждые|каждый|каждую|каждое|раз в|раза в)\s+\d", re.IGNORECASE
)
"""`every 12 hours`: an amount read as a period, so a claim's other rate is another value."""


def _range_restated(number: str, claim: str, focus: str) -> bool:
    """The claim bounds `number` as an end of a range (`between 21 and 24`) that the focus
    states as a bare range of the same ends (`aged 21 to 24`): the same range."""
    ends = {
        tuple(
            NUMBER_WORD_TOKENS.get(x.lower()) or number_token(x) for x in m.group(*range_groups(m))
        )
        for m in RANGE.finditer(claim)
    }
    pairs = {
        (number_token(m.group(1)), number_token(m.group(2))) for m in RANGE_PAIR.finditer(focus)
    }
    return any(number in pair for pair in ends & pairs)


_PERIOD_WORD = re.compile(
    r"(?:(?<![\w-])(?:every|each|per|каждые|каждый|каждую|каждое|раз в|раза в)\s+|每)$",
    re.IGNORECASE,
)


_ANCHOR = re.compile(
    r"\s+(?:of|from|after|following|since|before|prior to|после|с момента|со дня|с даты|до)\s+"
    r"([^.;!?。；]{0,40})",
    re.IGNORECASE,
)
"""What an amount of time is counted from: `14 days of return`, `через 25 дней после покупки`
(up to five words, the event among them)."""


def _anchor_words(text: str, end: int) -> list[str]:
    m = _ANCHOR.match(text, end)
    if m is None:
        return []
    words = _WORD.findall(m.group(1).lower())
    return [w for w in words[:5] if w not in EN_STOP and w not in RU_STOP]


def _anchor_swapped(
    claim: str, window: str, claimed: Sequence[Quantity], stated: Sequence[Quantity]
) -> list[RiskSignal]:
    """The claim counts an amount the evidence states from another event the evidence also
    names (`released within 14 days of pick-up` for `blocked at pick-up and released within
    14 days of return`): every word aligns, but the deadline is another one."""
    found: list[RiskSignal] = []
    for q in claimed:
        if q.unit not in FREQUENCY_UNITS or q.frequency:
            continue  # a deadline is an amount of time (`97% of scientists` counts no event)
        anchor = _anchor_words(claim, claim.find(q.text) + len(q.text))[:1]
        if not anchor or anchor[0] not in window.lower():
            continue
        wanted = keys(anchor[0])
        for e in stated:
            if not same_amount(q, e):
                continue
            theirs = _anchor_words(window, window.find(e.text) + len(e.text))
            if theirs and not any(keys(w) & wanted for w in theirs[:3]):
                detail = f"{anchor[0]} (evidence, for {e.text}: {' '.join(theirs[:3])})"
                found.append(RiskSignal(SignalCode.ENTITY_MISMATCH, detail))
                break
    return found


_RU_DAY = r"(?:день|дня|дню|днём|днем|дне)"
_DAY_RELATIVE_TO = re.compile(
    r"(?<![\w-])(?:(?:предшествующ|предыдущ|следующ|последующ)\w*\s+(?:(?:рабоч|календарн)\w*\s+)?"
    + _RU_DAY
    + r"|"
    + _RU_DAY
    + r",?\s+(?:предшествующ|предыдущ|следующ|последующ)\w*|накануне"
    r"|(?:previous|preceding|prior|following|next)\s+(?:(?:working|business|calendar)\s+)?day"
    r"|day\s+(?:before|after)|the\s+eve)(?![\w-])"
    r"|前一(?:个)?(?:工作)?[日天]|次日|翌日|第二天|后一天",
    re.IGNORECASE,
)
"""A day named relative to an event: `рабочего дня, предшествующего визиту`, `the previous
business day`, `前一个工作日`."""
_CLAIM_DAY = re.compile(r"(?<![\w-])(?:" + _RU_DAY + r"|day)(?![\w-])|当天|当日|同日|同一天", re.I)


def _relative_day_dropped(claim: str, window: str) -> list[RiskSignal]:
    """The evidence names a day only relative to an event and the claim names a day without
    the relation (`в день визита` for `рабочего дня, предшествующего визиту`): every word may
    align, but the claim's day is another one."""
    said = _DAY_RELATIVE_TO.search(window)
    if said is None or _CLAIM_DAY.search(claim) is None or _DAY_RELATIVE_TO.search(claim):
        return []
    if _CLAIM_DAY.search(_DAY_RELATIVE_TO.sub(" ", window)):
        return []  # a plain day too (`в день окончания аренды`) may be the claim's
    return [RiskSignal(SignalCode.DATE_MISMATCH, f"{said.group()} (claim: none)")]


def _amounts_in_order(claimed: Sequence[Quantity], sentences: str) -> bool:
    """Every amount of the claim (two or more) is one the evidence states, in the evidence's
    order (`на два часа подряд и не раньше чем за две недели` for `на 2 часа подряд и не
    ранее чем за 14 дней`): each amount stays with its own thing, whatever the clauses. Not
    when they trade places (`на 14 дней … за 2 часа`), nor for amounts of one unit."""
    mine = [q for q in claimed if not q.frequency]
    if len(mine) < 2 or len({q.unit for q in mine}) < len(mine):
        return False  # amounts of one unit may trade their things (`полугодовой … 30 дней, а
        # годовой — 14 дней` for `годовой — до 30 дней, полугодовой — до 14`)
    stated = iter([e for e in quantities(normalize_zh(sentences)) if not e.frequency])
    return all(any(same_amount(q, e) for e in stated) for q in mine)


def _zh_single_keys(claim: str, focus: str) -> frozenset[str]:
    """The claim's one-character Chinese words as a negation's target is keyed (`zh1:停` of
    `不支持停卡`, which the segmenter parts as 停 and 卡), where the claim writes that word
    with the character after it as the evidence does (`申请停卡`): what such a negation is
    about."""
    words = zh_words(claim)
    return frozenset(
        f"zh1:{w}"
        for w, after in itertools.pairwise(words)
        if len(w) == 1
        and has_cjk(w)
        and has_cjk(after[:1])
        and w not in _ZH_FILLERS
        and w not in ZH_STOP_CHARS
        and w + after[:1] in focus
    )


def _same_amount_at(q: Quantity, claim: str, e: Quantity, window: str) -> bool:
    """`same_amount`, where a rate (`daily`, `每天`) is the same as a period of several units
    only when the period is written as one (`every 24 hours`, `每24小时`): `24小时开放` (open
    for 24 hours) is not what `每天6:00至24:00开放` (open each day from 6 to 24) says."""
    if not same_amount(q, e):
        return False
    if q.frequency == e.frequency:
        return True
    other, text = (e, window) if q.frequency else (q, claim)
    at = text.find(other.text)
    if at >= 0 and text.startswith(("'s", "’s", "'", "’"), at + len(other.text)):
        return False  # `one month's notice` is a length of time, no rate's period
    if other.value == "1":
        return True  # `一天最多收40元`, `一个月两次`: one unit is the rate's own period
    return at >= 0 and _PERIOD_WORD.search(text, max(0, at - 12), at) is not None


_PREVIOUS_WORD = re.compile(r"([A-Za-z']+)\s+$")
_MODALS = frozenset("to will would can could may might must should shall".split())
_NEXT_WORD = re.compile(r"\s+([A-Za-z]+)")


def _claim_words(masked: str) -> list[tuple[str, int, int]]:
    """(lower-cased word, start, end) of the claim's Latin and Cyrillic content words."""
    out = []
    masked = _CLOSED_PHRASES.sub(lambda m: " " * len(m.group()), masked)
    if _CLASS_PHRASE_HEADS.search(masked):
        masked = _CLASS_PHRASES.sub(lambda m: " " * len(m.group()), masked)
    masked = mask_negated_bounds(_BOUND_MASK.sub(lambda m: " " * len(m.group()), masked))
    masked = mask_adjective_bounds(masked)
    for _tok, a, b in token_spans(masked):
        raw = masked[a:b].lower()
        if has_cjk(raw) or raw[:1].isdigit():
            continue
        out.append((raw, a, b))
    return out


_ATTRIBUTION = re.compile(
    r"^\s*(?:(?:according to|per|under|as (?:stated|set out|described) in|in line with|as per)"
    r"\s+(?:the\s+|this\s+|our\s+|your\s+)?[\w-]+(?:\s+[\w-]+){0,2}\s*,"
    r"|(?:it is worth noting|it should be noted|note|please note|keep in mind|remember|importantly)"
    r"(?:\s+that)?\s*,?"
    r"|(?:the|this|our|your)\s+(?:[\w-]+['’]s\s+)?"
    r"(?:policy|policies|rules|terms|guide|guidelines|leaflet|agreement|"
    r"contract|regulations?|document|sheet|information sheet|conditions)\s+"
    r"(?:says|say|states|state|explains|explain|notes|note|specifies|specify|makes clear)"
    r"(?:\s+that)?\s*,?"
    r"|(?:в\s+)?(?:правилах|договоре|инструкции|политике|положении|условиях|листке|документе)\s+"
    r"(?:сказано|указано|говорится|отмечено)(?:\s*,)?\s*(?:что\s*)?,?"
    r"|как\s+(?:сказано|указано|говорится|отмечено)\s+в\s+[\w-]+(?:\s+[\w-]+){0,2}\s*,"
    r"|(?:规定|政策|合同|说明书|说明|须知|指南|条款|通知)(?:中)?(?:指出|写明|说明|提到)[，,]?"
    r"|(?:согласно|по|в соответствии с|в силу)\s+[\w-]+(?:\s+[\w-]+){0,2}\s*,"
    r"|(?:стоит отметить|следует отметить|обратите внимание|важно)(?:\s*,)?\s*(?:что\s*)?,?"
    r"|(?:根据|按照|依据|依照|按)[^，,。]{1,12}[，,]|(?:需要注意的是|值得注意的是|请注意)[，,]?)",
    re.IGNORECASE,
)
"""How an assistant attributes a claim to its source (`According to the agreement,`, `Per the
terms,`, «Согласно правилам,», 根据规定，): the citation already says where it comes from."""


def strip_attribution(claim: str) -> str:
    """`claim` without a leading attribution, spaces kept so offsets stay the claim's."""
    m = _ATTRIBUTION.match(claim)
    return claim if m is None else " " * m.end() + claim[m.end() :]


def _scan_words(text: str) -> frozenset[str]:
    return scan(text)[1]


_ON_NORMALIZED: dict[Callable[[str], object], Callable[[str], object]] = {}


def _on_normalized(fn: Callable[[str], _R]) -> Callable[[str], _R]:
    """`fn` of the normalised text, as a function of the text itself: what an analysis keeps
    for a span (one function object per `fn`, so the analysis finds its results again)."""
    found = _ON_NORMALIZED.get(fn)
    if found is None:

        def of_text(text: str) -> _R:
            return fn(normalize_zh(text))

        found = _ON_NORMALIZED[fn] = of_text
    return cast(Callable[[str], _R], found)


ALIGN_CACHE = 512
_ALIGNED: OrderedDict[tuple[str, str], Alignment] = OrderedDict()


def align(
    claim: str,
    window: str,
    facts: str | None = None,
    analysis: DocumentAnalysis | None = None,
    offset: int | None = None,
) -> Alignment:
    """Align `claim` (markers stripped) with its evidence span `window`; numbers and
    identifiers are looked up in `facts` (default: the span itself). `analysis` and `offset`
    say where `window` sits in an analysed document, whose analysis of the span is then used
    (the result is the same either way). Cached for spans of ordinary length: a request's
    risk signals and its checker align the same pair."""
    if len(window) > CACHE_TEXT_CHARS or (facts is not None and facts != window):
        return _align(claim, window, facts, _Evidence(window, analysis, offset))
    key = (claim, window)
    found = _ALIGNED.get(key)
    if found is None:
        found = _ALIGNED[key] = _align(claim, window, None, _Evidence(window, analysis, offset))
        if len(_ALIGNED) > ALIGN_CACHE:
            _ALIGNED.popitem(last=False)
    else:
        _ALIGNED.move_to_end(key)
    return found


@dataclass(frozen=True, slots=True)
class _Evidence:
    """The evidence span of one alignment (as cited and normalised) and where its analysis
    is kept, if anywhere: what the alignment derives from the span alone comes from there."""

    text: str
    analysis: DocumentAnalysis | None
    offset: int | None
    normalized: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "normalized", normalize_zh(self.text))

    def get(self, fn: Callable[[str], _R]) -> _R:
        """`fn(normalized)`, from the analysis when there is one."""
        if self.analysis is None:
            return fn(self.normalized)
        if self.normalized == self.text:  # shared with what others keep for the same span
            return self.analysis.of(fn, self.text, self.offset)
        return self.analysis.of(_on_normalized(fn), self.text, self.offset)

    def raw(self, fn: Callable[[str], _R]) -> _R:
        """`fn(text)`, from the analysis when there is one."""
        return located(fn, self.text, self.analysis, self.offset)


def _align(claim: str, window: str, facts: str | None, ev: _Evidence) -> Alignment:
    claim_n, window_n = normalize_zh(strip_attribution(claim)), ev.normalized
    c_quantities, c_ids = quantities(claim_n), identifiers(claim_n)
    ev_quantities: tuple[Quantity, ...] = ()
    ev_ids: tuple[Identifier, ...] = ()
    if c_quantities or c_ids:
        ev_quantities, ev_ids = _facts(facts) if facts is not None else ev.raw(_facts)
    mismatches: list[RiskSignal] = []
    states_other: list[RiskSignal] = []
    unaligned: list[str] = []
    spans_ok: list[tuple[int, int]] = []

    # paths and endpoints are names: verbatim or not at all (`/oauth/token`)
    for m in _PATH.finditer(claim_n):
        if m.group() in window_n:
            spans_ok.append(m.span())
        else:
            paths = [p for p in _PATH.findall(window_n) if p != m.group()]
            if paths:
                signal = RiskSignal(
                    SignalCode.IDENTIFIER_MISMATCH,
                    f"{m.group()} (evidence: {', '.join(paths[:3])})",
                )
                mismatches.append(signal)
                states_other.append(signal)
            else:
                unaligned.append(m.group())

    # identifiers: the digits are part of the name
    ev_values = {e.value for e in ev_ids} | {q.value for q in ev_quantities}
    for ident in c_ids:
        same_key = [e for e in ev_ids if e.key == ident.key]
        pos = claim_n.find(ident.text)
        if any(e.value == ident.value for e in same_key) or (
            not same_key and (ident.value in ev_values or _written_as_word(ident, window_n))
        ):
            spans_ok.append((pos, pos + len(ident.text)))
        elif same_key:
            named = ", ".join(dict.fromkeys(e.text for e in same_key))
            signal = RiskSignal(SignalCode.IDENTIFIER_MISMATCH, f"{ident.text} (evidence: {named})")
            mismatches.append(signal)
            states_other.append(signal)
        else:
            unaligned.append(ident.text)

    # quantities: the same amount (value, scale and unit, or an exact conversion)
    for q in c_quantities:
        pos = claim_n.find(q.text)
        if any(_same_amount_at(q, claim_n, e, window_n) for e in ev_quantities):
            spans_ok.append((pos, pos + len(q.text)))
            continue
        name_span = _named_number(q, claim_n, pos, ev_ids)
        if name_span is not None:
            spans_ok.append(name_span)
            continue
        same = [e for e in ev_quantities if e.value == q.value]
        if (
            same
            and not q.frequency
            and (
                q.unit is None
                or any(e.unit is None and _unit_follows(q, e, window_n) for e in same)
            )
        ):
            # the number without a unit we know on one side: the unit word itself must then
            # align as a word, so only the number is marked as aligned
            digits = _NUMBER_HEAD.match(q.text)
            spans_ok.append((pos, pos + (digits.end() if digits else 0)))
            continue
        if same and not (
            q.unit is not None
            and all(e.unit != q.unit for e in same)
            and _beside_own_unit(q, window_n)
        ):
            # (not where the sentence with the number states amounts of the claim's own unit:
            # `25 euros` is read against `15 euros`, not against the age in `drivers under 25`)
            signal = RiskSignal(SignalCode.UNIT_MISMATCH, f"{q.text} (evidence: {_q(same)})")
            mismatches.append(signal)
            if any(
                clearly_different(q, e) or _other_currency(q, e) for e in same if e.unit is not None
            ):
                states_other.append(signal)  # 30 seconds for 30 minutes; not a month for 30 days
            continue
        if (
            q.frequency
            and not any(e.frequency for e in ev_quantities)
            and not _PER_BEFORE.search(window_n)
        ):
            # `в сутки` (per day) where the evidence states durations only: a rate it does
            # not state, no other value of one
            mismatches.append(RiskSignal(SignalCode.NUMBER_MISMATCH, f"{q.text} (evidence: none)"))
            continue
        alike = [e for e in ev_quantities if q.unit is not None and _comparable(q, e)]
        if (
            alike
            and in_claims_bound(q, alike, bounds(claim_n), ev.get(bounds))
            and not _cap_over_permission(q, claim_n, alike, window_n)
        ):
            spans_ok.append((pos, pos + len(q.text)))
            continue
        if q.unit is not None and not alike and any(e.unit is not None for e in ev_quantities):
            typed = [e for e in ev_quantities if e.unit is not None]
            signal = RiskSignal(SignalCode.UNIT_MISMATCH, f"{q.text} (evidence: {_q(typed)})")
            mismatches.append(signal)
            if typed and all(clearly_different(q, e) for e in typed):
                states_other.append(signal)  # 8 calendar days for 8 business hours
            continue
        rounded = [e for e in ev_quantities if rounds_to(e, q)]
        if rounded:
            if approximate_at(claim_n, pos):
                spans_ok.append((pos, pos + len(q.text)))  # `about 97%` for `97.1%`
            else:
                # the evidence's amount rounded: not the value stated, not another value either
                mismatches.append(
                    RiskSignal(SignalCode.NUMBER_MISMATCH, f"{q.text} (evidence: {_q(rounded)})")
                )
            continue
        counted = [
            e
            for e in ev_quantities
            if q.unit is None and e.unit is None and _same_noun(q, e, claim_n, window_n)
        ]
        signal = RiskSignal(
            SignalCode.NUMBER_MISMATCH,
            f"{q.text} (evidence: {_q(alike or counted or ev_quantities)})",
        )
        mismatches.append(signal)
        if (
            counted
            or any(e.unit == q.unit for e in alike)
            or (alike and all(clearly_different(q, e) is not False for e in alike))
        ) and not (
            (
                bounds(claim_n).get(f"#{q.value}", frozenset({"exact"})) == {"exact"}
                and _within_bound(q, alike or counted, ev.get(bounds))
            )
            or all(_time_reference(e, window_n) for e in alike or counted)
            # the evidence's amount is another amount of the claim (`£95 for twelve months or
            # £55 for six months` for `an annual permit costs £95, a 6-month permit £55`): the
            # claim's odd one is not stated, not stated otherwise
            or all(
                any(o is not q and same_amount(o, e) for o in c_quantities)
                for e in alike or counted
            )
        ):
            states_other.append(signal)  # the same kind of amount, another value

    mismatches += _anchor_swapped(claim_n, window_n, c_quantities, ev_quantities)
    mismatches += _relative_day_dropped(claim_n, window_n)
    mismatches += _one_against_a_count(claim_n, window_n)
    swapped = (
        _zh_steps_swapped(claim_n, window_n)
        or _steps_swapped(claim_n, window_n)
        or _events_swapped(claim_n, window_n)
    )
    mismatches += swapped
    states_other += swapped
    once = _once_against_times(claim_n, window_n)
    mismatches += once
    states_other += once
    flipped = _comparison_flipped(claim_n, window_n)
    mismatches += flipped
    states_other += flipped
    minority = _minority_as_most(claim_n, window_n)
    mismatches += minority
    states_other += minority
    mismatches += _bare_bound_flipped(claim_n, window_n)
    mismatches += _clock_unstated(claim_n, window_n)
    rated = _rate_swapped(claim_n, window_n, c_quantities, ev_quantities) or _step_swapped(
        claim_n, window_n
    )
    mismatches += rated
    states_other += rated
    priced_free = _free_for_a_price(claim_n, window_n)
    if priced_free:
        mismatches += priced_free
        states_other += priced_free
        free_word = _FREE_WORD.search(claim_n)
        if free_word is not None:
            spans_ok.append(free_word.span())  # the clash names it: no word the evidence lacks

    # content words (Latin, Cyrillic) and Chinese words
    masked = _APPROXIMATELY.sub(
        lambda m: " " * len(m.group()),
        _mask_after_bounds(_mask_closed(mask_duration_nouns(claim_n))),
    )
    if "раз" in masked:
        masked = _RU_ONCE_PER.sub(lambda m: " " * len(m.group()), masked)
    ev_keys = ev.get(span_keys)
    units = len(spans_ok) + len(mismatches) + len(unaligned)
    claim_keys: set[str] = set()
    missing_spans: list[tuple[int, int]] = []
    predicates: set[tuple[int, int]] = set()  # missing words that are verbs or adverbs
    sequence: list[tuple[int, frozenset[str]]] = []  # (start, keys) of aligned claim words
    previous = ""
    priced = _priced(claim_n, window_n)
    for raw, a, b in _claim_words(masked):
        before, previous = previous, raw
        acronym = len(raw) > 1 and masked[a:b].isupper()  # `US` is a name, `us` a pronoun
        if not acronym and (
            raw in _NUMBER_WORDS
            or ("-" in raw and all(p in _NUMBER_WORDS for p in raw.split("-")))  # два-три
            or raw in _CLOSED_WORDS
            or (raw in GENERIC_REFERENTS and not _MEANS.search(masked, max(0, a - 24), a))
            or _modal_form(raw)
            or (priced and _price_verb(raw))
        ):
            continue
        if any(_within_amount(raw, a, x, y) for x, y in spans_ok):
            continue
        word_keys = keys(raw)
        units += 1
        claim_keys |= word_keys
        if word_keys & ev_keys or claim_side(raw) & ev_keys:
            sequence.append((a, word_keys | claim_side(raw)))
        particle = _NEXT_WORD.match(masked, b)
        phrasal = phrasal_keys(raw, particle.group(1).lower()) if particle else frozenset()
        if phrasal & ev_keys and not word_keys & ev_keys and particle is not None:
            # `put off vaccination` for `postpone vaccination`: the verb and its particle
            sequence.append((a, word_keys | phrasal))
            spans_ok.append(particle.span(1))
            continue
        if acronym and _spelled_out(masked[a:b], window_n):
            sequence.append((a, word_keys))  # `СБП` for `Систему быстрых платежей`
            spans_ok.append((a, b))
            continue
        if (
            not word_keys & ev_keys
            and not claim_side(raw) & ev_keys
            and not _parts_align(raw, ev_keys)
        ):
            stated = _negated_antonym(raw, window_n) if not _negated_at(claim_n, a) else None
            if stated is not None:
                # `closed` for `does not open`, `unavailable` for `not available`
                sequence.append((a, word_keys | keys(stated.lower())))
                continue
            converse = _converse(raw, claim_n, window_n) or _received(raw, claim_n, window_n)
            if converse is not None:
                # `you receive a statement from HR` for `HR sends each employee a statement`
                sequence.append((a, word_keys | keys(converse)))
                continue
            missing_spans.append((a, b))
            name = masked[a:b][:1].isupper() and (a > 0 or masked[a:b].isupper())
            after = _NEXT_WORD.match(masked, b)
            # a modal the mask blanked still says what follows it is a verb (`may give`)
            written = _PREVIOUS_WORD.search(claim_n, 0, a)
            left = written.group(1) if written and written.group(1).lower() in _MODALS else before
            if predicate(raw, left, after.group(1) if after else "") and not name:
                predicates.add((a, b))
    if has_cjk(masked):
        masked = _mask_zh_bounds(masked)
        pos = 0
        for word in zh_words(masked):
            start = masked.find(word, pos)
            pos = start + len(word)
            if (
                not has_cjk(word)
                or all(c in ZH_STOP_CHARS for c in word)
                or word in _CLOSED_CHARS
                or (len(word) == 2 and word[0] in _CLOSED_CHARS and word[1] in _ZH_GLUED)  # 时会
                or (word == "人" and masked[start - 1 : start] == "的")  # `过敏的人` = `过敏者`
                or (priced and word in _ZH_PRICE_VERBS)
            ):
                continue
            if any(_within_amount(word, start, x, y) for x, y in spans_ok):
                continue
            units += 1
            claim_keys |= keys(word)
            if _zh_aligned(word, window_n, ev_keys):
                sequence.append((start, keys(word) | frozenset({word})))
            else:
                missing_spans.append((start, start + len(word)))
                if zh_tags(masked).get(word, "") in ("v", "vd", "vi", "d", "ad"):
                    predicates.add((start, start + len(word)))
        missing_spans.sort()
    paraphrased: list[str] = []
    if missing_spans and set(missing_spans) <= predicates:
        paraphrased = [claim_n[a:b] for a, b in missing_spans]
    else:
        unaligned += _merge(claim_n, missing_spans)
    window_words = ev.get(_scan_words)
    for adverb in _RU_TIME_ADVERB.findall(claim_n.lower()):
        if adverb not in window_words and adverb not in unaligned:
            unaligned.append(adverb)  # `уже разработали` for `разработка`: a completion claimed
    for acronym in _ACRONYM.findall(claim_n):
        pos = claim_n.find(acronym)
        if any(x <= pos < y for x, y in spans_ok):
            continue
        low = acronym.lower()
        if (
            low not in window_words
            and not _spelled_out(acronym, window_n)
            and f"{low}'s" not in window_words  # `Team GB's`
            and f"{low}’s" not in window_words
            and acronym not in unaligned
        ):
            unaligned.append(acronym)

    # closed-class slots, compared in the clauses of the span that carry the claim
    frozen_keys = frozenset(claim_keys)
    word_sets = tuple(k for _, k in sequence)
    sentences = _focus(word_sets, window_n, ev.get(_sentence_parts))
    whole = sentences is window_n  # the span itself: its analysis applies
    parts = ev.get(_segment_parts) if whole else _segment_parts(sentences)
    focus = _segments(
        word_sets,
        sentences,
        parts,
        merged=_MERGED_CLAIM.search(claim_n) is not None,
        amounts=c_quantities,
    )
    whole = whole and focus is sentences
    claim_slots = slots_of(claim_n)
    found, opposed = compare(
        claim_slots,
        ev.get(slots_of) if whole else slots_of(focus),
        frozen_keys | _zh_single_keys(claim_n, focus) if has_cjk(claim_n) else frozen_keys,
    )
    kept = [f for f in found if not _negation_left_out(f, claim_n, focus, frozen_keys)]
    if len(kept) < len(found):
        found, opposed = kept, [o for o in opposed if o in kept]
    if claim_slots.order and not any(f.code is SignalCode.ORDER_MISMATCH for f in found):
        reversed_order = _order_of_top_clause(claim_slots.order, word_sets, parts)
        if _MERGED_CLAIM.search(claim_n):
            # a claim of two statements orders each in its own clause (`提前三十天通知，押金在
            # 验收后…退还` for `须提前30天书面通知，押金在验收工位后…退还`)
            reversed_order = next(
                (
                    found_order
                    for c in (_ZH_CLAUSE if has_cjk(claim_n) else _CLAUSE_SPLITS[2]).split(claim_n)
                    if (c_order := slots_of(c).order)
                    and (found_order := _order_of_top_clause(c_order, _word_key_sets(c), parts))
                ),
                [],
            )
        found += reversed_order
        opposed += reversed_order
    mismatches += found
    states_other += [o for o in opposed if not _converse_order(o, claim_n, focus)]
    clause_keys = frozen_keys.union(*word_sets)  # with the keys each claim word aligned by
    c_bounds = bounds(claim_n) if c_quantities else {}
    c_parts = [c for c in _CLAUSE_SPLITS[2].split(claim_n) if c.strip()]
    date_numbers = _stated_date_numbers(claim_n, sentences) if c_quantities else frozenset()
    own_keys: frozenset[str] | None = None  # the claim's content keys, read once if needed
    for q in c_quantities:
        if q.unit is None and q.value in date_numbers:
            continue  # the day or year of a date the evidence states: compared as a date
        others = tuple(o for o in c_quantities if o is not q)
        q_keys = clause_keys
        part = next((c for c in c_parts if q.text in c), None)
        if part is not None and any(_alike_or_elided(o, q) and o.text not in part for o in others):
            # a claim stating amounts of one kind for several things (`fillings three years,
            # crowns one year`): each amount is read with the words of its own part
            others = tuple(o for o in others if o.text in part)
            q_keys = _content_keys(part)
        if q.frequency:
            continue
        elsewhere = _window_of_amount(q, window_n, claim_n)
        if elsewhere is not None:
            # another citation has the amount; the one carrying the claim states another:
            # not supported, but no contradiction either (the citations may not be about
            # one event)
            mismatches.append(
                RiskSignal(
                    SignalCode.NUMBER_MISMATCH,
                    f"{q.text} (evidence, for this: {_q(elsewhere[1])})",
                )
            )
            continue
        found_in = _clause_of(
            q, sentences, q_keys, others, claim_bounds=c_bounds, negated=_has_negation(claim_n)
        )
        if found_in is None:
            if own_keys is None:
                own_keys = _content_keys(claim_n)
            mismatches += _case_dropped(q, sentences, q_keys | own_keys)
            continue
        amounts = found_in[1]
        if not any(same_amount(q, e) for e in amounts) and not _amounts_in_order(
            c_quantities, sentences
        ):
            signal = RiskSignal(
                SignalCode.NUMBER_MISMATCH, f"{q.text} (evidence, for this: {_q(amounts)})"
            )
            mismatches.append(signal)
            states_other.append(signal)
    e_bounds = (ev.get(bounds) if whole else bounds(focus)) if c_bounds else {}
    focus_bounds = e_bounds
    if c_bounds:
        for q in c_quantities:
            others = tuple(o for o in c_quantities if o is not q)
            found_in = _clause_of(q, sentences, clause_keys, others, margin=1.0)
            # a number the claim bounds in two ways (`more than 12 hours`, `each full 12
            # hours`) spans clauses: compare it with the whole focus, not one clause
            if (
                found_in is not None
                and len(c_bounds.get(f"#{q.value}", ())) == 1
                and any(same_amount(q, e) for e in found_in[1])
            ):
                # (only a clause with the claim's amount itself: bounds are read by number,
                # and `4 г` in another clause is no bound on `4 часов`)
                e_bounds = {**e_bounds, **bounds(found_in[0])}
    if c_bounds and "onlyif" in claim_slots.conditions:
        e_bounds = _excepted_bounds_flipped(focus, e_bounds)
    if c_bounds:
        e_bounds = _other_case_bounds_flipped(
            focus, e_bounds, claim_n, conditional="if" in claim_slots.conditions
        )
    focus_amounts = quantities(normalize_zh(focus)) if c_bounds else ()
    for number, kinds in c_bounds.items():
        bound = e_bounds.get(number)
        mine = [q for q in c_quantities if f"#{q.value}" == number and q.unit]
        if (
            mine
            and any(e.value == q.value for q in mine for e in focus_amounts)
            and not any(same_amount(q, e) for q in mine for e in focus_amounts)
        ):
            continue  # the focus has the number only as another amount (`4 г`, not `4 часов`)
        converted = [
            e for q in mine for e in focus_amounts if same_amount(q, e) and e.value != q.value
        ]
        if (
            converted
            and bound is not None
            and sum(1 for e in focus_amounts if e.unit) == 1
            and not any(
                e.value == q.value and e.unit == q.unit for q in mine for e in focus_amounts
            )
        ):
            # the evidence writes its one amount in another unit (`more than a day` / `longer
            # than 24 hours`): its bound is on that number, not on a `1` it has elsewhere; with
            # more amounts, which case each bound belongs to is read by number (above)
            bound = e_bounds.get(f"#{converted[0].value}", bound)
        if bound is None:
            # the clauses the claim's words chose leave out the one with its amount (`我们可以
            # 在蛋糕上写字，但字数不超过15个`): the sentence that states it bounds it
            holding = [
                p
                for p, _ in ev.get(_sentence_parts)
                if any(
                    same_amount(q, e) or q.value == e.value
                    for q in c_quantities
                    if f"#{q.value}" == number
                    for e in quantities(normalize_zh(p))
                )
            ]
            if len(holding) == 1:
                bound = bounds(holding[0]).get(number)
        if (
            bound is not None
            and not kinds <= bound
            and not _range_restated(number, claim_n, focus)
            and not (kinds | bound <= _WITHIN_KINDS and _within_either(number, claim_n, focus))
        ):
            said = "/".join(sorted(kinds))
            signal = RiskSignal(
                SignalCode.BOUND_MISMATCH,
                f"{said} {number[1:]} (evidence: {'/'.join(sorted(bound))})",
            )
            mismatches.append(signal)
            in_focus = bound | focus_bounds.get(number, frozenset())
            both_ways = (ev.get(bounds) if sentences is window_n else bounds(sentences)).get(
                number, frozenset()
            )
            if (
                {"upper", "lower"} <= kinds | bound
                and "exact" not in kinds | in_focus
                and not kinds <= both_ways
                and not _violation_case(claim_n, focus)
                and not _unless_on_one_side(claim_n, focus)
            ):
                # at least 5 for no more than 5; not where the focus also states the number
                # plainly (`不足2元的，按2元收取`: under 2 yuan, 2 yuan is charged — a minimum),
                # nor where its sentence bounds the number both ways, one case per clause
                # (`超过30公斤者…；不超过30公斤者…`): which clause the claim rests on is open
                states_other.append(signal)
    complement = _complement_rule(claim_n, focus, claim_slots.main_negated, mismatches)
    if complement:
        states_other = [o for o in states_other if o not in complement]
        if complement[0] is _SAME_RULE:
            mismatches = [m for m in mismatches if m not in complement]
    paired = _time_range_pairs(claim_n, window_n)
    mismatches += paired
    states_other += paired
    mismatches += _dropped_bounds(c_quantities, focus, clause_keys)
    mismatches += _approximation_dropped(claim_n, focus, c_quantities)
    mismatches += _dropped_qualifier(claim_n, focus, c_quantities)
    mismatches += _dropped_cap(claim_n, focus, clause_keys)
    mismatches += _dropped_zh_condition(claim_n, sentences, clause_keys)
    mismatches += _dropped_condition_part(claim_n, sentences, clause_keys)
    mismatches += (
        _mixed_clauses(claim_n, sentences, clause_keys, _CROSSED_CLAUSE)
        or _bound_mixed(claim_n, sentences, clause_keys)
        or _mixed_sentences(claim_n, window_n, clause_keys)
    )
    crossed, mixed_clause = _clauses_crossed(claim_n, sentences)
    mismatches += crossed + mixed_clause
    states_other += crossed
    if not any(m.code is SignalCode.NEGATION_MISMATCH for m in mismatches):
        # the slots name the clash where they see the prohibition (禁止吸烟 as 不能吸烟)
        prohibited = _unnegated_prohibition(claim_n, focus, frozen_keys)
        mismatches += prohibited
        states_other += prohibited
    swapped = (
        _ordinals_swapped(claim_n, sentences)
        or _roles_reversed(claim_n, sentences)
        or _zh_agent_swapped(claim_n, sentences)
        or _polarity_swapped(claim_n, sentences)
        or _rank_amount_swapped(claim_n, sentences, c_quantities)
    )
    mismatches += swapped
    states_other += swapped
    dated = (
        _dates_differ(claim_n, sentences)
        or _day_month_differs(claim_n, sentences)
        or _weekday_differs(claim_n, sentences)
    )
    mismatches += dated
    states_other += dated
    mismatches += _opposed_in_focus(claim_n, focus)
    mismatches += _dropped_order(claim_n, focus, frozen_keys)
    mismatches += _dropped_loss(claim_n, focus, frozen_keys)
    mismatches += _dropped_restriction(claim_n, focus, frozen_keys)
    mismatches += _dropped_amount_of(claim_n, focus)
    mismatches += _dropped_intent(claim_n, focus)
    mismatches += _contrasted_means_dropped(claim_n, focus)
    mismatches += _necessary_part_dropped(claim_n, focus)
    mismatches += _dropped_cause(claim_n, focus)
    mismatches += _universal_narrowed(claim_n, focus)
    mismatches += _zh_exception_dropped(claim_n, sentences, c_quantities)
    mismatches += _limit_denied(claim_n, focus)
    substituted = _substitutions(
        claim_n, [*unaligned, *paraphrased], focus, frozen_keys, sorted(sequence)
    )
    mismatches += substituted
    states_other += substituted
    units = max(units, 1)
    readings: tuple[tuple[str, tuple[str, ...]], ...] = ()
    if paraphrased:
        spare = _spare_words(focus, frozen_keys)
        evidence_seq = _sequence(focus)
        sequence.sort()
        kin = [
            (p, w)
            for p in paraphrased
            if has_cjk(p)
            for w in spare
            if has_cjk(w) and not _may_stand_for(p, w) and _zh_kin(p, w)
        ]  # read only under the strict conditions below, as fieldless Russian verbs are
        stands_for = [
            [
                w
                for w in spare
                if (_may_stand_for(p, w) or (p, w) in kin)
                and _in_place(a, w, sequence, evidence_seq, content_only=True)
                and _predicate_in(w, evidence_seq)
                and (not _ru_verb(p.lower()) or _same_polarity(claim_n, a, focus, w))
            ]
            for p, (a, _b) in zip(paraphrased, missing_spans, strict=True)
        ]
        if (
            units >= MIN_PARAPHRASE_UNITS
            and (
                not any(
                    not p.isascii() and not fields(p) & fields(w)
                    for p, ws in zip(paraphrased, stands_for, strict=True)
                    for w in ws
                )  # a Russian or Chinese reading no small class backs is read strictly
                or (
                    units >= STRICT_PARAPHRASE_UNITS
                    and len(spare) <= STRICT_SPARE_WORDS
                    and all(len(ws) == 1 for ws in stands_for)  # one verb in its place
                )
            )
            and len(paraphrased) <= max(1, units // 4)
            and all(stands_for)
            and not mismatches
            and not unaligned
            and not any(opposite(p, w) or _antonym(p, w) for p in paraphrased for w in spare)
        ):
            readings = tuple(
                (p, tuple(ws[:3])) for p, ws in zip(paraphrased, stands_for, strict=True)
            )
        else:
            unaligned += paraphrased
    elsewhere_negated = _negation_of_other_clause(claim_n, focus, mismatches)
    if elsewhere_negated:
        mismatches = [m for m in mismatches if m not in elsewhere_negated]
        states_other = [m for m in states_other if m not in elsewhere_negated]
    kept_from = _KEEPS_FROM.search(claim_n) if " from " in claim_n else None
    if kept_from is not None and not keys(kept_from.group().split()[0].lower()) & ev_keys:
        # `stops you from uploading` denies as `cannot upload` does, in a verb the slots do
        # not read as a negation: a clash with the evidence's negation is not shown (it is
        # where the evidence negates that verb: `does not usually stop you from giving`)
        states_other = [s for s in states_other if s.code is not SignalCode.NEGATION_MISMATCH]
    return Alignment(
        units,
        tuple(dict.fromkeys(unaligned)),
        min(1.0, len(unaligned) / units),
        tuple(dict.fromkeys(mismatches)),
        tuple(dict.fromkeys(states_other)),
        readings,
    )


_NEGATED_IN = re.compile(r"claim: none \(evidence: (.+)\)$")


def _negation_of_other_clause(
    claim: str, focus: str, mismatches: Sequence[RiskSignal]
) -> list[RiskSignal]:
    """The negations the claim lacks that stand in a clause set against the one it restates
    (`… receive a full refund, but later cancellations are not refunded` for `you'll get a
    full refund if you cancel at least 48 hours before`): the claim takes none of that
    clause's own words, so the negation is another case's, not a clash."""
    out = []
    for m in mismatches:
        said = _NEGATED_IN.match(m.detail) if m.code is SignalCode.NEGATION_MISMATCH else None
        if said is None:
            continue
        for sentence in _SENTENCE_END.split(focus):
            clauses = [c for c in _CLAUSE.split(sentence) if c.strip()]
            holding = [c for c in clauses if said.group(1).lstrip("⊄") in c]
            if len(clauses) < 2 or len(holding) != 1:
                continue
            others = _content_keys(" ".join(c for c in clauses if c is not holding[0]))
            own = {w for w in _clause_words(holding[0]) if not keys(w.lower()) & others}
            mine = _content_keys(claim)
            if own and not any(keys(w.lower()) & mine for w in own):
                out.append(m)
    return out


_KEEPS_FROM = re.compile(
    r"(?<![\w-])(?:stops?|stopped|prevents?|prevented|keeps?|kept|bars?|barred|blocks?|"
    r"blocked)\s+\w+\s+from\s+\w+ing(?![\w-])",
    re.IGNORECASE,
)
"""`stops you from uploading`: a denial said with a verb."""


_RU_LIGHT_LEMMAS = frozenset({"длиться"})
"""Russian light verbs by lemma (`отпуск длится 28 дней`): the noun and the amount carry the
content. Not `получать`: `получить взятку` is not `дача взятки`."""
_RU_ENTITLED = frozenset({"положено", "положен", "положена", "положены"})
"""`вам положено 3 дня`: entitled, as `entitled` is a closed word in English."""
_CLOSED_LEMMAS = _RU_LIGHT_LEMMAS | frozenset(
    w for c in (POSSIBLE, OBLIGATION, ADVICE) for w in c.words if not w.isascii()
)


@lru_cache(maxsize=16384)
def _modal_form(word: str) -> bool:
    """A Russian form of a modal (`можете` of `мочь`, `нужна` of `нужный`) or of a light verb:
    the modality is compared as a slot, the word is no content."""
    if word.isascii() or has_cjk(word):
        return False
    return word in _RU_ENTITLED or any(lemma in _CLOSED_LEMMAS for lemma, _ in ru_lemmas(word)[:1])


_NAME_BEFORE = re.compile(r"([^\W\d_]{2,})[ \u00a0]$")


def _named_number(
    q: Quantity, claim: str, pos: int, ev_ids: Sequence[Identifier]
) -> tuple[int, int] | None:
    """The span of `Covid 19` when the evidence names `COVID-19` (or `COVID19`): a bare number
    after a word is that identifier written with a space and in another case."""
    if q.unit is not None or pos < 0:
        return None
    m = _NAME_BEFORE.search(claim, 0, pos)
    if m is None:
        return None
    word = m.group(1).lower()
    if any(e.key == word and e.value == q.value for e in ev_ids):
        return m.start(1), pos + len(q.text)
    return None


def _within_bound(
    q: Quantity, others: Iterable[Quantity], stated: dict[str, frozenset[str]]
) -> bool:
    """The claim's exact amount lies inside every bound the evidence puts on the amounts of
    its kind (`50公斤` where it says `只能带70公斤`, 5 where it says `up to 7`): another value,
    but no clash. A
    bound of the claim's own (`within 7 days` for `within 14 days`) is another rule: a clash."""
    try:
        value = float(q.value)
        limits = [(float(e.value), stated.get(f"#{e.value}", frozenset())) for e in others]
    except ValueError:
        return False
    return bool(limits) and all(
        ("upper" in kinds and value <= limit) or ("lower" in kinds and value >= limit)
        for limit, kinds in limits
    )


def _converse_order(signal: RiskSignal, claim: str, focus: str) -> bool:
    """An order the claim reverses with its terms (`unplug, then clean` for `before cleaning,
    unplug`: 拔掉插头之后才能清洁 for 清洁前必须先拔插头) states the same sequence: no clash. The
    terms are what each order word governs: the words after a preposition (`before first
    use`), before a Chinese postposition (`使用前`)."""
    if signal.code is not SignalCode.ORDER_MISMATCH:
        return False
    said, _, stated = signal.detail.partition(" (evidence: ")
    stated = stated.rstrip(")").split(", ")[0]
    mine, theirs = _governed(claim, said), _governed(focus, stated)
    if mine is None or theirs is None:
        return False
    return not mine & theirs and bool(mine & _keys_of(focus))


def _dropped_order(claim: str, focus: str, claim_keys: frozenset[str]) -> list[RiskSignal]:
    """A day or week `before`/`after` an event in the evidence that the claim moves onto the
    event itself (`on the day of arrival` for `on the day before arrival`, 入住当天 for
    入住前一天): the claim names another day."""
    if slots_of(claim).order:
        return []
    out = []
    for m in _RELATIVE_DAY.finditer(focus):
        # what the order word governs: the event after `before`, before Chinese `前`
        seq = (
            _sequence(focus[: m.start()])[-3:] if m.group("zh") else _sequence(focus[m.end() :])[:3]
        )
        governed = frozenset().union(*(k for _, k in seq))
        if governed & claim_keys:
            out.append(RiskSignal(SignalCode.ORDER_MISMATCH, f"none (evidence: {m.group()})"))
    return out


_RELATIVE_DAY = re.compile(
    r"\b(?:day|night|evening|morning|week|month)\s+(?P<word>before|after)\b"
    r"|(?P<zh>前|后)(?:一|1)?(?:天|日|晚)",
    re.IGNORECASE,
)


def _keys_of(text: str) -> frozenset[str]:
    return frozenset().union(*(k for _, k in _sequence(text)))


def _governed(text: str, word: str) -> frozenset[str] | None:
    """Keys of the (up to three) content words an order word governs, None if not found."""
    at = text.lower().find(word.lower())
    if at < 0:
        return None
    # a Chinese order word follows what it governs (使用前); a preposition precedes it, and
    # governs each of a coordination (`перед окончанием обучения или отчислением`)
    if has_cjk(word):
        seq = _sequence(text[:at])[-3:]
    else:
        after = re.split(r"[,;.!?]", text[at + len(word) :], maxsplit=1)[0]
        seq = _sequence(after)[: 6 if _COORDINATED.search(after) else 3]
    return frozenset().union(*(k for _, k in seq))


_COORDINATED = re.compile(r"\s(?:or|and|или|и|либо)\s", re.IGNORECASE)


_AMOUNT_EDGE_CHARS = frozenset("每内后前以之上下左右约近第")
"""What the segmenter glues to an amount (`一年内`, `每半年`): the amount's frequency, bound or
ordinal, compared as slots, not words."""


def _within_amount(word: str, start: int, x: int, y: int) -> bool:
    """The word lies in an aligned amount's span, but for characters that only mark it (a
    possessive: `a week's notice`)."""
    if word.endswith(("'s", "’s")):
        word = word[:-2]
    end = start + len(word)
    if x <= start and end <= y:
        return True
    if end <= x or y <= start:
        return False
    rest = word[: max(0, x - start)] + word[max(0, y - start) :]
    return all(c in _AMOUNT_EDGE_CHARS or c in ZH_STOP_CHARS for c in rest)


def _mask_zh_bounds(text: str) -> str:
    """Chinese bound words before an amount (`最多重试8次`, `最高30分贝`) become spaces: the
    bound is compared as a slot, and the segmenter must not glue it to the verb (`多重`)."""
    for m in ZH_BOUND_BEFORE.finditer(text):
        a, b = m.span(1)
        text = text[:a] + " " * (b - a) + text[b:]
    for m in _ZH_AMOUNT_BOUND_AFTER.finditer(text):
        a, b = m.span(1)
        text = text[:a] + " " * (b - a) + text[b:]
    return text


_ZH_AMOUNT_BOUND_AFTER = re.compile(r"\d\s?[^\d，。；,;\s]{1,4}?(以内|之内|以上|以下|之后|以后)")
"""`7天以内`, `3年以上`: the bound after an amount, compared as a slot."""


_OUTCOME = re.compile(
    r"approv|grant|accept|guarant|confirm|complet|resolv|award|authori[sz]|reject|den[iy]|refus"
    r"|declin|одобр|утвер[дж]|подтверд|отказ|отклон"
)
"""Verbs of an outcome (`approved`, `одобрена`): what a process may end in."""
_PROCESS = re.compile(
    r"review|consider|assess|evaluat|examin|check|inspect|handl|process|stud|audit|screen"
    r"|рассматр|рассмотр|провер|обрабаты|изуча"
)
"""Verbs of a process (`reviewed`, `рассматривается`): no outcome is a paraphrase of one."""


def _may_stand_for(claim_word: str, evidence_word: str) -> bool:
    """A claim's verb or adverb may paraphrase an evidence word of the same semantic field
    (`fields`); an English adverb a spare adverb; a Russian verb a Russian verb (its tables
    have no fields)."""
    if _OUTCOME.match(claim_word.lower()) and _PROCESS.match(evidence_word.lower()):
        return False  # `approved` is what a review may end in, not what `reviewed` says
    mine = fields(claim_word)
    if mine:
        return bool(mine & fields(evidence_word))
    low = claim_word.lower()
    if _ru_verb(low):
        # a verb the synsets do not know may reword one they do not know either, standing in
        # its place (`может уйти до 20 дней` / `может занять до 20 дней`); one they know has
        # a field of its own that the claim's verb is not in (`заканчивается`)
        return _ru_verb(evidence_word.lower()) and not fields(evidence_word)
    # an English adverb may reword a spare adverb (`immediately` / `at once`); a verb may
    # not, nor may an adverb stand for an adjective or a noun (`abroad` / `foreign currency`)
    return (
        low.isascii()
        and predicate(low)
        and not _is_verb(low)
        and low not in _TIME_ADVERBS
        and low not in _FOCUS_ADVERBS
        and _is_adverb(evidence_word.lower())
    )


def _zh_kin(claim_word: str, evidence_word: str) -> bool:
    """Two Chinese verbs of one middle Cilin class (`告诉` Hi15A / `通知` Hi15B): kin enough
    to reword each other only where everything else of the claim anchors the reading."""
    mine = {f[:-1] for f in fields(claim_word)}
    return bool(mine & {f[:-1] for f in fields(evidence_word)})


@lru_cache(maxsize=16384)
def _ru_verb(word: str) -> bool:
    """A Russian verb form (finite, infinitive, participle, gerund) by its first parse."""
    parses = ru_lemmas(word) if not word.isascii() else ()
    return bool(parses) and parses[0][1] in {"VERB", "INFN", "PRTS", "PRTF", "GRND"}


@lru_cache(maxsize=16384)
def _is_adverb(word: str) -> bool:
    from stream.verify.lexicon import table

    return word.isascii() and word in table("en").pos.get("r", ())


MIN_PARAPHRASE_UNITS = 3
STRICT_PARAPHRASE_UNITS = 6
"""A Russian verb (its tables have no semantic fields) or a Chinese one of the evidence verb's
middle Cilin class only (not its small one) rewords it in a claim of this many units: what
anchors the reading is everything else aligning."""
STRICT_SPARE_WORDS = 4
"""… and in a focus with at most this many words the claim does not use (a sentence that
says much else is not the one the claim rewords)."""
"""A claim of fewer content units is mostly its verb: too little left to anchor a paraphrase."""
ANCHOR_DISTANCE = 3


def _sequence(text: str) -> list[tuple[str, frozenset[str]]]:
    """The content words of `text` in order, with their keys."""
    out = []
    for m in _WORD.finditer(text):
        low = m.group().lower()
        out.append((m.group(), keys(low) | evidence_keys(low)))
    if has_cjk(text):
        for w in zh_words(_mask_closed(normalize_zh(text))):
            if has_cjk(w):
                out.append((w, keys(w) | frozenset({w})))
    return out


def _in_place(
    at: int,
    word: str,
    claim_seq: list[tuple[int, frozenset[str]]],
    evidence_seq: list[tuple[str, frozenset[str]]],
    *,
    content_only: bool = False,
) -> bool:
    """The evidence word stands where the claim's paraphrased word stands: next to (within
    a few words of) the evidence's match for a claim word next to it — `Refunds are issued
    within` for `Refunds are processed within`, in either voice."""
    left = [k for pos, k in claim_seq if pos < at][-1:]
    right = [k for pos, k in claim_seq if pos > at][:1]
    anchors = [*left, *right]
    if content_only:
        # a paraphrased verb's distance counts content words (`are not retained` for `are
        # kept`: the auxiliary and the negation stand between any two of them)
        evidence_seq = [(w, k) for w, k in evidence_seq if w == word or not _function_word(w)]
    spots = [j for j, (w, _) in enumerate(evidence_seq) if w == word]
    for j in spots:
        lo, hi = max(0, j - ANCHOR_DISTANCE), j + ANCHOR_DISTANCE + 1
        if any(keys_ & k for _, keys_ in evidence_seq[lo:hi] for k in anchors):
            return True
    return False


def _same_polarity(claim: str, at: int, focus: str, word: str) -> bool:
    """The evidence word a claim's Russian verb rewords is negated where the claim's is
    (`приглашают` is no rewording of `не пускают`). Not for English, where a negated bound
    (`not retained beyond 7 days` / `kept for no more than 7 days`) negates a verb the
    claim's bound leaves plain."""
    mine = _negated_at(claim, at)
    found = [m.start() for m in re.finditer(rf"(?<![\w-]){re.escape(word)}(?![\w-])", focus)]
    return any(_negated_at(focus, pos) == mine for pos in found) if found else True


def _predicate_in(word: str, evidence_seq: list[tuple[str, frozenset[str]]]) -> bool:
    """An English evidence word a claim's verb stands for is a verb or an adverb where it
    stands (`falls below`, `are not retained`), not a noun that shares a verb's field
    (`the carbon budget`)."""
    if not word.isascii():
        return True
    words = [w for w, _ in evidence_seq]
    for j, w in enumerate(words):
        if w == word:
            before = words[j - 1] if j else ""
            after = words[j + 1] if j + 1 < len(words) else ""
            if predicate(w.lower(), before.lower(), after.lower()):
                return True
    return False


def _function_word(word: str) -> bool:
    low = word.lower()
    return low in EN_STOP or low in RU_STOP or low in _CLOSED_WORDS


_RU_TIME_ADVERB = re.compile(r"(?<![\w-])уже(?![\w-])")
"""`уже` is a stop word to the tokenizer, but like English `already` it adds a time (the
event is complete) that the evidence must state."""
_TIME_ADVERBS = frozenset(
    """now currently presently already still yet soon recently lately today tomorrow
    yesterday formerly previously later earlier again""".split()
)
"""Adverbs that add a time to what the evidence says: never read as a paraphrase."""
_FOCUS_ADVERBS = frozenset(
    """either neither both also too only even just alone solely merely exclusively jointly
    together separately individually""".split()
)
"""Adverbs that say how many or which of the things named count (`either … or` for `… as
well as …`): never read as a paraphrase of another adverb."""


@lru_cache(maxsize=16384)
def _is_verb(word: str) -> bool:
    from stream.verify.lexicon import _en_bases, table

    pos = table("en").pos
    return any(b in pos.get("v", ()) or b in pos.get("vn", ()) for b in _en_bases(word) or (word,))


def _spare_words(focus: str, claim_keys: frozenset[str]) -> list[str]:
    """Content words of the evidence clauses that no word of the claim aligns with: what a
    claim's paraphrased verb may stand for. None spare means the claim's verb adds a fact."""
    spare = []
    for w in _WORD.findall(focus):
        low = w.lower()
        if has_cjk(low) or low in _CLOSED_WORDS or low in EN_STOP or low in RU_STOP or len(low) < 3:
            continue
        if not (keys(low) | evidence_keys(low)) & claim_keys:
            spare.append(w)
    if has_cjk(focus):
        for w in zh_words(_mask_closed(normalize_zh(focus))):
            if has_cjk(w) and len(w) >= 2 and w not in _CLOSED_CHARS and not keys(w) & claim_keys:
                spare.append(w)
    return list(dict.fromkeys(spare))


@short_cache(maxsize=1024)
def zh_tags(text: str) -> dict[str, str]:
    """jieba's part-of-speech tag of each Chinese word of `text` (v verb, d adverb, n noun)."""
    return dict(_rjieba().tag(text))


_ALTERNATIVES_SPLIT = re.compile(r"\s(?:or|или|либо)\s")
_CLAUSE_SPLITS = (
    re.compile(r"(?<=[.!?])\s+|(?<=[。！？])\s*|\n"),  # not inside `€2.40`
    re.compile(r"[;；]"),
    re.compile(
        # not the comma of a grouped amount (`£1,000`) or a decimal one (`коэффициент 1,2`)
        r"(?<!\d)[,，]|[,，](?!\d)|\s(?:and|и|а)\s(?!(?:"
        + "|".join(
            f"(?<={unit} {joiner} )"
            for unit, joiner in (
                *((u, "and") for u in ("years", "year", "months", "month", "hours", "hour")),
                *((u, "и") for u in ("лет", "года", "год", "месяцев", "месяца", "месяц")),
                *((u, "и") for u in ("часов", "часа", "час", "суток", "сутки")),
            )
        )
        + r")(?:\d|[^\W\d_]+\s+(?:месяц|недел|дн|час|минут|month|week|day|hour|minute)))"
    ),
    _ALTERNATIVES_SPLIT,
)
"""Sentences of a merged span first, then its clauses, then its comma-separated parts, then
its alternatives (`£18 per month on a 12-month contract or £22 per month on a rolling plan`).
An amount of two units (`6 years and 6 months`, `шести лет и шести месяцев`) stays one part."""


_WITHIN_KINDS = frozenset({"exact", "upper"})
_WITHIN = re.compile(r"(?<![\w-])в\s+течение\s+(?:[а-яё]+\s+)?$", re.IGNORECASE)
"""`в течение 5 дней` is `within 5 days` (an upper bound: `не позже чем через 5 дней`) or
`for 5 days` (a span: `хранятся 5 дней`) by the verb, which the bound does not read."""


_CAP_BEFORE = re.compile(
    r"(?<![\w-])(?:не\s+более|не\s+больше|не\s+дольше|не\s+свыше|максимум|до)\s+"
    r"(?:чем\s+)?(?:[а-яё]+\s+)?$",
    re.IGNORECASE,
)
"""A cap on a span (`длится не более трёх дней`), which `в течение` (a span or a deadline)
does not state; a deadline (`не позже чем через 5 дней`) it may."""


def _within_either(number: str, claim: str, focus: str) -> bool:
    """One side writes `number` after `в течение` and the other states it plainly, after
    `в течение` too, or as a deadline (`не позже чем через`), not as a cap."""
    before = [
        [side[: side.find(q.text)] for q in quantities(normalize_zh(side))
         if f"#{q.value}" == number and side.find(q.text) >= 0]
        for side in (claim, focus)
    ]  # fmt: skip
    within = [any(_WITHIN.search(b) for b in side) for side in before]
    return any(within) and not any(
        _CAP_BEFORE.search(b) for side, w in zip(before, within, strict=True) if not w for b in side
    )


def _case_dropped(q: Quantity, sentences: str, claim_keys: frozenset[str]) -> list[RiskSignal]:
    """The claim's amount is what one of two contrasted clauses gives, the other giving another
    amount of its kind (`files uploaded through the desktop app can be up to 50 GB, while
    uploads through the web browser are limited to 5 GB`), and the claim has none of the words
    that set its clause apart: it states for every case what holds for one."""
    if has_cjk(sentences) or q.unit is None:
        return []
    for sentence in _SENTENCE_END.split(sentences):
        clauses = [c for c in _CLAUSE.split(sentence) if c.strip()]
        if len(clauses) != 2:
            continue  # `;`, `but`, `while`, `whereas`, `а`, `но`: two statements side by side
        amounts = [quantities(normalize_zh(c)) for c in clauses]
        for i in (0, 1):
            other = amounts[1 - i]
            if not any(same_amount(q, e) for e in amounts[i]) or any(
                same_amount(q, e) for e in other
            ):
                continue
            if not any(e.unit == q.unit for e in other) and not _NO_LIMIT.search(clauses[1 - i]):
                continue  # (`while the desktop app has no per-file limit`: the other case)
            theirs = _content_keys(clauses[1 - i])
            own = [
                w
                for w in _clause_words(clauses[i])
                if not keys(w.lower()) & theirs and not _is_adverb(w.lower())
            ]
            if own and not any(keys(w.lower()) & claim_keys for w in own):
                detail = f"{' '.join(own[:4])} (claim: none)"
                return [RiskSignal(SignalCode.CONDITION_DROPPED, detail)]
            # the claim keeps the shared subject (`uploads`) and leaves out the means that
            # set the case apart (`through the web browser`)
            means = [w for w in own if w in _means_words(clauses[i])]
            if means and not any(keys(w.lower()) & claim_keys for w in means):
                detail = f"{' '.join(means[:4])} (claim: none)"
                return [RiskSignal(SignalCode.CONDITION_DROPPED, detail)]
    return []


_MEANS_PHRASE = re.compile(
    r"(?<![\w-])(?:through|via|using|by|with|from|in|on|при|через|с помощью|по|из)\s+"
    r"(?:the\s+|a\s+|an\s+|your\s+|our\s+)?((?:[^\W\d_][\w-]*\s+){0,2}[^\W\d_][\w-]*)",
    re.IGNORECASE,
)


_AGENT_PHRASE = re.compile(
    r"(?<![\w-])(?:by|through|via|using|через|с помощью)\s+"
    r"(?:the\s+|a\s+|an\s+|your\s+|our\s+)?((?:[^\W\d_][\w-]*\s+){0,2}[^\W\d_][\w-]*)",
    re.IGNORECASE,
)
"""An agent or means phrase (`damaged by the crew`, `sent through the app`)."""


def _means_words(clause: str, phrase: re.Pattern[str] = _MEANS_PHRASE) -> frozenset[str]:
    """The words of the means or place phrases of a clause's subject part (`uploads through
    the web browser`), which tell a case apart from `through the desktop app`."""
    head = _COPULA.split(clause, maxsplit=1)[0]
    return frozenset(w for m in phrase.finditer(head) for w in m.group(1).split())


_COPULA = re.compile(r"\s(?:is|are|was|were|can|may|must|will)\s")
"""Where a clause's subject part ends (`uploads through the web browser | are limited`)."""


_NO_LIMIT = re.compile(
    r"(?<![\w-])(?:no (?:[\w-]+ )?(?:limit|cap|maximum)|unlimited|не ограничен\w*|"
    r"без ограничени\w*)(?![\w-])",
    re.IGNORECASE,
)
"""A clause saying its case has no limit at all: another amount for the other case."""


def _alike_or_elided(a: Quantity, b: Quantity) -> bool:
    """Two amounts of one kind, or one whose unit the claim leaves to be read from the other
    (`мужчинам до пяти раз, а женщинам до четырёх`)."""
    return a.unit == b.unit or a.unit is None or b.unit is None


def _window_of_amount(
    q: Quantity, focus: str, claim: str
) -> tuple[str, tuple[Quantity, ...]] | None:
    """With support spread over several cited windows (joined by newlines), a claim's amount
    belongs to the window that carries the claim's other words: `In 1947, PDO switched to a
    cool phase` rests on `1945/1946: The PDO changed to a cool phase` even when another
    citation lists 1947 among other years. That window and its amounts of the kind, when the
    amount's own windows carry the claim much less; None otherwise."""
    if "\n" not in focus:
        return None
    words = [w for w in _clause_words(claim) if not any(c.isdigit() for c in w)]
    if len(words) < 2:
        return None
    mine = [_content_keys(w) for w in words]

    def share(window: str) -> float:
        theirs = _content_keys(window)
        return sum(1 for k in mine if k & theirs) / len(mine)

    windows = [w for w in focus.split("\n") if w.strip()]
    stated = [quantities(normalize_zh(w)) for w in windows]
    holding = [i for i, es in enumerate(stated) if any(same_amount(q, e) for e in es)]
    if not holding or max(share(windows[i]) for i in holding) >= 0.5:
        return None
    for i, window in enumerate(windows):
        amounts = tuple(e for e in stated[i] if e.unit == q.unit and not e.frequency)
        if i not in holding and amounts and share(window) * 3 >= 2:
            return window, amounts
    return None


def _clause_of(
    q: Quantity,
    focus: str,
    claim_keys: frozenset[str],
    others: tuple[Quantity, ...] = (),
    margin: float | None = None,
    claim_bounds: dict[str, frozenset[str]] | None = None,
    negated: bool | None = None,
) -> tuple[str, tuple[Quantity, ...]] | None:
    """In a sentence that lists amounts of one kind for several things (`24 months for the
    vacuum, 12 for the battery`; 超过30公斤者…；不超过30公斤者…), the clause about what the
    claim talks about, with its amounts; None when the sentence has no such list or it is
    unclear which clause the claim is about. A clause is about the claim when the words only
    it has are the claim's, and when it states the claim's other amounts — an amount every
    clause states, with the bound only it gives that amount (`over 30 kg` of `30 kg or less
    …, over 30 kg …`)."""
    for split in _CLAUSE_SPLITS:
        if split is _ALTERNATIVES_SPLIT and q.unit is None:
            continue  # `the 19th century or early in the 20th`: no amounts to tell apart
        clauses = [c for c in split.split(focus) if c.strip()]
        candidates = []
        for c in clauses:
            amounts = tuple(
                e
                for e in quantities(normalize_zh(c))
                if not e.frequency and (clearly_different(q, e) is not None or e.unit == q.unit)
            )
            if amounts:
                candidates.append((c, amounts))
        if len(candidates) < 2:
            continue
        framing = _amount_noun_keys()
        keysets = [_content_keys(c) - framing for c, _ in candidates]
        stated_in = [quantities(normalize_zh(c)) for c, _ in candidates]
        holding = [
            i
            for i, (_, amounts) in enumerate(candidates)
            if any(same_amount(q, e) for e in amounts)
        ]
        uniques = [
            keysets[i] - frozenset().union(*(k for j, k in enumerate(keysets) if j != i))
            for i in range(len(candidates))
        ]
        elliptic = [
            i
            for i, (c, _) in enumerate(candidates)
            if i not in holding
            and _ELLIPSIS_DASH.search(c)
            and uniques[i]
            and len(uniques[i] & claim_keys) * 2 >= len(uniques[i])
        ]
        if len(holding) == 1 and len(elliptic) == 1:
            # `сбор составляет 80 евро, а для детей от 6 до 12 лет — 40 евро`: a claim with the
            # elliptic clause's own words (`для детей от 6 до 12 лет … 80 евро`) is about it
            return candidates[elliptic[0]]
        special = [
            j
            for j in range(len(candidates))
            if j not in holding
            and uniques[j]
            and len(uniques[j] & claim_keys) * 2 >= len(uniques[j])
            and not any(same_amount(o, e) for o in others if not o.frequency for e in stated_in[j])
        ]
        if (
            not _day_or_clock(q, focus)  # (`1 May`, `08:00` tell no case apart)
            and len(holding) == 1
            and len(special) == 1
            and special[0] > holding[0]
            and uniques[holding[0]] & claim_keys
        ):
            # `遗失绝版图书按原价的2倍赔偿` for `遗失图书须按原价的2倍赔偿，绝版图书按原价的5倍
            # 赔偿`: the claim names what sets the later case apart (`绝版`) and takes the
            # first clause's frame (`遗失`), which the later one leaves implicit: it is about
            # the later case
            return candidates[special[0]]
        scored = []
        for i, (c, amounts) in enumerate(candidates):
            unique = uniques[i]
            if holding == [i] and (
                not unique
                or unique & claim_keys
                # the only negated clause, for a negated claim (`定金在入住日前14天之后不予退还`
                # for `…两周之后就不退了`)
                or (
                    negated
                    and _has_negation(c)
                    and not any(_has_negation(o) for j, (o, _) in enumerate(candidates) if j != i)
                )
            ):
                return None  # the one clause stating the claim's amount may be about it
            kin = [o for o in others if o.unit == q.unit]
            if (
                holding == [i]
                and kin
                and all(
                    any(same_amount(o, e) for j, es in enumerate(stated_in) if j != i for e in es)
                    and not any(same_amount(o, e) for e in stated_in[i])
                    for o in kin
                )
            ):
                return None  # each of the claim's amounts is its own clause's: a merged claim
            share = len(unique & claim_keys) / len(unique) if unique else 0.0
            # an amount every clause states tells the clauses apart no better than none
            stated = [
                o
                for o in others
                if any(same_amount(o, e) for e in stated_in[i])
                and (
                    not all(any(same_amount(o, e) for e in es) for es in stated_in)
                    or _bound_tells(o, i, candidates, claim_bounds)
                )
            ]
            scored.append((share + len(stated), c, amounts))
        scored.sort(key=lambda t: t[0], reverse=True)
        clear = scored[1][0] == 0 if margin is None else scored[0][0] >= scored[1][0] + margin
        if scored[0][0] >= 0.5 and clear:
            return scored[0][1], scored[0][2]
        return None
    return None


@lru_cache(maxsize=1)
def _amount_noun_keys() -> frozenset[str]:
    """Keys of the words that name an amount itself (`price`, `costs`, `价格`, `стоимость`):
    the frame a list of amounts shares, whichever clause happens to say it (`灵活工位日票价格
    为88元，月卡为980元，固定工位每月1680元`), so no clause is told apart by them."""
    return union(keys(w) for w in _AMOUNT_NOUNS)


_AMOUNT_NOUNS = (
    "price", "prices", "cost", "costs", "fee", "fees", "charge", "charges", "rate", "rates",
    "价格", "价钱", "费用", "收费", "价", "стоимость", "цена", "плата", "тариф",
)  # fmt: skip


def _day_or_clock(q: Quantity, text: str) -> bool:
    """A bare number that is a date's day or a clock's hour or minutes in `text`."""
    if q.unit is not None or not q.text.isdigit():
        return False
    return q.text in _days_and_clock_parts(text)


@short_cache(maxsize=256)
def _days_and_clock_parts(text: str) -> frozenset[str]:
    """The numbers of `text` that are a date's day (`1 May`) or part of a clock (`08:00`)."""
    return frozenset(
        n
        for m in _DAY_OR_CLOCK.finditer(text)
        for n in (m.group("day"), m.group("h"), m.group("m"))
        if n
    )


def _bound_tells(
    amount: Quantity,
    i: int,
    candidates: list[tuple[str, tuple[Quantity, ...]]],
    claim_bounds: dict[str, frozenset[str]] | None,
) -> bool:
    """Clause `i` alone bounds `amount` as the claim does (`over 30 kg` in `30 kg or less …,
    over 30 kg …`): the amount every clause states tells them apart by its bound."""
    mine = (claim_bounds or {}).get(f"#{amount.value}")
    if not mine or "exact" in mine:
        return False
    kinds = [bounds(c).get(f"#{amount.value}", frozenset()) for c, _ in candidates]
    return kinds[i] == mine and all(k != mine for j, k in enumerate(kinds) if j != i)


_ELLIPSIS_DASH = re.compile(r"\s[—–]\s")
"""`а для детей — 40 евро`: a dash standing for the verb the clause shares with the one before."""


@short_cache(maxsize=1024)
def _content_keys(text: str) -> frozenset[str]:
    """Keys of the content words of `text`: bound phrases (`up to a maximum of`, 最多),
    closed-class and stop words left out, so a clause that only bounds an amount has none."""
    text = _BOUND_MASK.sub(lambda m: " " * len(m.group()), normalize_zh(text))
    found: set[str] = set()
    for original in _WORD.findall(text):
        w = original.lower()
        if w in _CLOSED_WORDS or w in EN_STOP or w in RU_STOP or w in _NUMBER_WORDS:
            continue
        found |= _evidence_word_keys(original)
    if has_cjk(text):
        for w in zh_words(_mask_closed(text)):
            if has_cjk(w) and w not in _CLOSED_CHARS and not all(c in ZH_STOP_CHARS for c in w):
                found |= keys(w)
    return frozenset(found)


_MONTHS = {
    m: i
    for i, names in enumerate(
        (
            "january jan январь января январе",
            "february feb февраль февраля феврале",
            "march mar март марта марте",
            "april apr апрель апреля апреле",
            "may май мая мае",
            "june jun июнь июня июне",
            "july jul июль июля июле",
            "august aug август августа августе",
            "september sep sept сентябрь сентября сентябре",
            "october oct октябрь октября октябре",
            "november nov ноябрь ноября ноябре",
            "december dec декабрь декабря декабре",
        ),
        start=1,
    )
    for m in names.split()
}
_DATE = re.compile(
    r"(?:(?P<d1>\d{1,2})\s+)?(?P<m1>[A-Za-zА-Яа-яЁё]{3,9})\.?\s+(?:(?P<d2>\d{1,2}),?\s+)?(?P<y1>(?:1[89]|20|21)\d{2})"
    r"|(?P<y2>(?:1[89]|20|21)\d{2})年(?P<m2>\d{1,2})月(?:(?P<d3>\d{1,2})日)?"
)


_MONTH_NAMES = "|".join(sorted(map(re.escape, _MONTHS), key=len, reverse=True))
_DAY_OR_CLOCK = re.compile(
    rf"(?<![\d:.,])(?P<day>\d{{1,2}})\s+(?:{_MONTH_NAMES})(?![\w-])"
    r"|(?<![\d:.,])(?P<h>\d{1,2}):(?P<m>\d\d)(?!\d)",
    re.IGNORECASE,
)


def _dates(text: str) -> list[tuple[str, tuple[int, int, int]]]:
    """(as written, (year, month, day or 0)) of the month-and-year dates of `text`."""
    out = []
    for m in _DATE.finditer(text):
        if m.group("y2"):
            out.append(
                (m.group(), (int(m.group("y2")), int(m.group("m2")), int(m.group("d3") or 0)))
            )
            continue
        month = _MONTHS.get(m.group("m1").lower())
        if month is None:
            continue
        day = int(m.group("d1") or m.group("d2") or 0)
        out.append((m.group(), (int(m.group("y1")), month, day)))
    return out


_DAY_MONTH = re.compile(
    r"(?<![\w.])(?P<d1>\d{1,2})\s+(?P<m1>[A-Za-zА-Яа-яЁё]{3,9})(?![\w-])"
    r"|(?<![\w-])(?P<m2>[A-Z][a-z]{2,8})\.?\s+(?P<d2>\d{1,2})(?![\d:]|[.,]\d|\s*(?:%|[ap]\.?m))"
    r"|(?<![\d年])(?P<m3>\d{1,2})月(?P<d3>\d{1,2})(?:日|号)"
)
"""A day of a month without its year: `15 марта`, `March 15`, `15 December`, `3月15日`."""


_DAY_NUMBER = re.compile(r"(?<![\d.,:])\d{1,2}(?![\d.,:]\d)")
"""A number that may be a day of a month (not part of a time, a decimal or a longer number)."""


def _day_months(text: str) -> list[tuple[str, tuple[int, int]]]:
    """(as written, (month, day)) of the days of months `text` names."""
    out = []
    for m in _DAY_MONTH.finditer(text):
        if m.group("m3"):
            month, day = int(m.group("m3")), int(m.group("d3"))
        else:
            name = m.group("m1") or m.group("m2")
            month = _MONTHS.get(name.lower(), 0)
            if name.isascii() and not name[:1].isupper():
                continue  # `may 5` is no date; English months are capitalised
            day = int(m.group("d1") or m.group("d2"))
        if 1 <= month <= 12 and 1 <= day <= 31:
            out.append((m.group(), (month, day)))
    return out


def _day_month_differs(claim: str, sentences: str) -> list[RiskSignal]:
    """A day of a month the claim names where the evidence names that day of another month
    or another day of that month, and does not state the claim's day and month at all
    (`до 15 марта` for `до 15 декабря`; `1 March` stays read against `1 and 15 March`)."""
    claimed = _day_months(claim)
    if not claimed:
        return []
    stated = _day_months(sentences)
    if not stated:
        return []
    months = {_MONTHS[w] for w in _WORD.findall(sentences.lower()) if w in _MONTHS}
    months |= {m for _, (m, _d) in stated}
    days = set(_DAY_NUMBER.findall(sentences))
    stated_days = {v for _, v in stated}
    out = []
    for text, (month, day) in claimed:
        if (month, day) in stated_days:
            continue
        if month in months and str(day) in days:
            continue
        near = [t for t, (sm, sd) in stated if sm == month or sd == day]
        if near:
            out.append(
                RiskSignal(SignalCode.DATE_MISMATCH, f"{text} (evidence: {', '.join(near[:3])})")
            )
    return out


def _beside_own_unit(q: Quantity, window: str) -> bool:
    """A sentence of the window states `q`'s number without `q`'s unit and another amount with
    that unit (`Drivers under 25 pay a surcharge of 15 euros`): the number is something else."""
    for sentence in _CLAUSE_SPLITS[0].split(window):
        if q.value not in sentence:
            continue
        amounts = quantities(normalize_zh(sentence))
        if any(e.value == q.value and e.unit != q.unit for e in amounts) and any(
            e.unit == q.unit and e.value != q.value for e in amounts
        ):
            return True
    return False


def _stated_date_numbers(claim: str, sentences: str) -> frozenset[str]:
    """Days and years of a claim's span of dates (`from 1 February 2026 until 15 May 2026`)
    when the evidence states each of them whole, so that a bare `15` is not read against
    another clause's amounts (`opens on 1 February 2026 and closes on 15 May 2026`). A claim
    of one date is read against the clause it is about (`opens on 15 May 2026`)."""
    claimed = _dates(claim)
    if len(claimed) < 2:
        return frozenset()
    stated = {v for _, v in _dates(sentences)}
    if not all(v in stated for _, v in claimed):
        return frozenset()
    return frozenset(str(n) for _, (y, _m, d) in claimed for n in (y, d) if n)


def _dates_differ(claim: str, sentences: str) -> list[RiskSignal]:
    """A month-and-year date of the claim the evidence states with another year, month or
    day (`December 2020` where it says `December 2019 and January 2020`)."""
    claimed = _dates(claim)
    if not claimed:
        return []
    stated = _dates(sentences)
    out = []
    for text, (y, m, d) in claimed:
        if any(sy == y and sm == m and (not d or not sd or sd == d) for _, (sy, sm, sd) in stated):
            continue
        near = [t for t, (sy, sm, _) in stated if sm == m or sy == y]
        if near:
            out.append(
                RiskSignal(SignalCode.DATE_MISMATCH, f"{text} (evidence: {', '.join(near[:3])})")
            )
    return out


_WEEKDAY = re.compile(
    r"(?<![\w-])(?:(mondays?|понедельник\w*)|(tuesdays?|вторник\w*)|(wednesdays?|сред[уа]м?)|"
    r"(thursdays?|четверг\w*)|(fridays?|пятниц\w*)|(saturdays?|суббот\w*)|"
    r"(sundays?|воскресень\w*))(?![\w-])"
    r"|(?:周|星期|礼拜)(?:(一)|(二)|(三)|(四)|(五)|(六)|(日|天))",
    re.IGNORECASE,
)
"""A day of the week, numbered 1 (Monday) to 7 by its group; `среду`/`средам`, not `среда`
(also `environment`)."""
_WEEKDAY_RANGE = re.compile(r"\s*(?:to|through|until|till|-|–|—|по|до|至|到|-)\s*$", re.IGNORECASE)
"""What joins the two ends of a range of days (`Monday to Friday`, `с понедельника по пятницу`,
`周二至周日`)."""


def _weekdays(clause: str) -> frozenset[int]:
    """The days of the week a clause names, a range (`周二至周日`) with the days inside it."""
    found = [(m, (m.lastindex - 1) % 7 + 1) for m in _WEEKDAY.finditer(clause) if m.lastindex]
    days = {d for _, d in found}
    for (a, first), (b, last) in itertools.pairwise(found):
        if _WEEKDAY_RANGE.fullmatch(clause[a.end() : b.start()]) and first < last:
            days.update(range(first, last + 1))
    return frozenset(days)


def _weekday_differs(claim: str, sentences: str) -> list[RiskSignal]:
    """The claim's days of the week are not those of the evidence clause that says what the
    claim says (`图书馆每周二闭馆` for `图书馆每周一闭馆，周二至周日的开放时间为…`): the clause
    sharing most of the claim's words, when one does, names other days."""
    claimed = _weekdays(claim)
    if not claimed:
        return []
    split = _ZH_CLAUSE if has_cjk(claim) else _CROSSED_CLAUSE
    parts = [p for p in split.split(claim) if _weekdays(p)]
    if len(parts) > 1:
        # `deliveries run Monday to Saturday, and … a Sunday delivery`: each clause its days
        return next((found for p in parts if (found := _weekday_differs(p, sentences))), [])
    mine = _content_keys(_WEEKDAY.sub(" ", claim))
    for word in {w.lower() for w in _WORD.findall(claim) if w.isascii()}:
        opposites = antonyms_of(word)
        if opposites and _negated_word(word, claim):
            # `doesn't open on Sundays` says what `is closed on Sundays` says, not `is open`
            mine = (mine - keys(word)) | union(keys(o) for o in sorted(opposites))
    scored = sorted(
        (
            (len(_content_keys(_WEEKDAY.sub(" ", c)) & mine), c)
            for sentence in _SENTENCE_END.split(sentences)
            for c in split.split(sentence)
            if c.strip()
        ),
        key=lambda sc: -sc[0],
    )
    if not scored or not scored[0][0] or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return []  # no clause, or no one clause, says what the claim says
    best = scored[0][1]
    stated = _weekdays(best)
    if not stated or claimed <= stated or any(_said_of(claim, c, claimed) for _, c in scored):
        return []
    days = ", ".join(m.group() for m in _WEEKDAY.finditer(best))
    said = ", ".join(m.group() for m in _WEEKDAY.finditer(claim))
    return [RiskSignal(SignalCode.DATE_MISMATCH, f"{said} (evidence: {days})")]


_DIGIT_RUN = re.compile(r"\d+")


def _said_of(claim: str, clause: str, claimed: frozenset[int]) -> bool:
    """The claim's days are all those of `clause` (`deliveries run Monday to Saturday` for
    `we deliver from Monday to Saturday`), and the clause states no antonym of a word the
    claim asserts (`open on Sundays` is not what `closed on Sundays` says), and has the
    claim's numbers."""
    if _weekdays(clause) != claimed or not set(_DIGIT_RUN.findall(claim)) <= set(
        _DIGIT_RUN.findall(clause)
    ):
        return False  # `открыт с 7:00 до 22:00` is what the clause of those hours says
    asserted = [w for w in _WORD.findall(claim) if w.isascii() and not _negated_word(w, claim)]
    return not any(opposite(w, o) for w in asserted for o in _WORD.findall(clause))


_ZH_BY = re.compile("(?<![理自经缘])由(?!于|此)")
"""`由` before who does it (`由房东承担`), not `由于` (because), `理由`, `自由`."""


def _zh_agents(text: str) -> list[tuple[tuple[str, ...], str]]:
    """(agent's words, verb) of each `由 X 承担` of a Chinese text: who does what it names."""
    out = []
    for m in _ZH_BY.finditer(text):
        # what follows `由`, segmented on its own: the segmenter may glue `由` to the word
        # before it (`燃气费由`)
        agent: list[str] = []
        for w, t in _rjieba().tag(text[m.end() : m.end() + 12])[:4]:
            if t.startswith("v") and agent:
                out.append((tuple(agent), w))
                break
            if not has_cjk(w):
                break
            agent.append(w)
    return out


def _same_agent(mine: tuple[str, ...], theirs: tuple[str, ...]) -> bool:
    """The agents share a content word (`买家自己` and `买家`)."""
    return any(keys(a) & keys(b) for a in mine if a not in _ZH_FILLERS for b in theirs)


def _zh_agent_swapped(claim: str, sentences: str) -> list[RiskSignal]:
    """The claim names another agent after `由` for the evidence's verb (`运费由收件人承担` for
    `退回运费由寄件人承担`): another statement about who does it, when no `由` of the evidence
    gives that verb the claim's agent."""
    if "由" not in claim or "由" not in sentences:
        return []
    theirs = _zh_agents(sentences)
    out = []
    for agent, verb in _zh_agents(claim):
        same_verb = [a for a, v in theirs if v == verb or keys(v) & keys(verb)]
        if same_verb and not any(_same_agent(agent, a) for a in same_verb):
            stated = "、".join(f"由{''.join(a)}{verb}" for a in same_verb)
            detail = f"由{''.join(agent)}{verb} (evidence: {stated})"
            out.append(RiskSignal(SignalCode.ENTITY_MISMATCH, detail))
    return out


_ALTERNATIVES = re.compile(r"(?<![\w-])(?:or|или|либо)(?![\w-])|或", re.IGNORECASE)


def _dropped_bounds(
    claim_quantities: tuple[Quantity, ...], focus: str, claim_keys: frozenset[str]
) -> list[RiskSignal]:
    """A bounded amount in the clause the claim rests on that the claim leaves out restricts
    what the evidence says (`women who are more than 20 weeks pregnant` -> `pregnant
    women`): dropping it widens the claim. A conjunct with a predicate of its own that the
    claim mostly leaves out (`is announced at least 72 hours in advance and does not count
    as downtime`) is a statement the claim does not make, not a restriction of the one it
    makes."""
    out: list[RiskSignal] = []
    parts = [p for p in _CONJUNCTS.split(focus) if p.strip()]
    for part in parts:
        found = bounds(part)
        restricted = {n for n, kinds in found.items() if kinds - {"exact"}}
        if not restricted:
            continue
        if len(parts) > 1 and _left_out_statement(part, claim_keys):
            continue
        restated = {
            other.text
            for a, b in _bracketed_pairs(part)
            for mine, other in ((a, b), (b, a))
            if any(same_amount(q, mine) for q in claim_quantities)
        }
        stated = quantities(normalize_zh(part))
        # `8 kilograms on Plus fares or 12 kilograms on Business fares`: a claim about one of
        # the alternatives leaves the other's amount to its own case
        chosen = (
            {
                q.unit
                for q in claim_quantities
                if q.unit is not None and any(same_amount(q, x) for x in stated)
            }
            if _ALTERNATIVES.search(part)
            else set()
        )
        for e in stated:
            token = f"#{e.value}"
            if (
                token not in restricted
                or e.text in restated
                or e.unit in chosen
                or any(same_amount(q, e) or q.value == e.value for q in claim_quantities)
            ):
                continue
            out.append(RiskSignal(SignalCode.CONDITION_DROPPED, f"{e.text} (claim: none)"))
            restricted.discard(token)
    return out


_BRACKETED = re.compile(r"([^()]{1,40}?)\(\s*([^()]{1,40})\)")


def _bracketed_pairs(text: str) -> list[tuple[Quantity, Quantity]]:
    """(amount, the amount in brackets after it that restates it): `4 г (8 таблеток)`."""
    out: list[tuple[Quantity, Quantity]] = []
    if "(" not in text:
        return out
    for m in _BRACKETED.finditer(text):
        before = [q for q in quantities(m.group(1)) if not q.frequency]
        inside = [q for q in quantities(m.group(2)) if not q.frequency]
        if before and inside:
            last = max(before, key=lambda q: m.group(1).rfind(q.text))
            out.append((last, min(inside, key=lambda q: m.group(2).find(q.text))))
    return out


_DEICTIC_LIMIT = re.compile(
    r"(?<![\w-])(?:within|before|until|by|during|after)\s+(?:that|this|the same|such a|such)\s+"
    r"(time|period|window|timeframe|deadline|date|day|interval)(?![\w-])"
    r"|(?<![\w-])(?:в течение|до|после|в пределах)\s+(?:этого|того|указанного|данного)\s+"
    r"(срока|времени|периода|момента|дня)(?![\w-])",
    re.IGNORECASE,
)
"""`within that time`, `в течение этого срока`: a limit that points back to one stated before."""
_DIGIT = re.compile(r"\d")
_DEICTIC_HEADS = re.compile(
    r"(?i)\b(?:that|this|the same|such)\s|(?:этого|того|указанного|данного)\s"
)
_RESTRICTIVE_RELATIVE = re.compile(
    r"(?<![,\s])\s(?:who|that|whose)\s(?:[^,.;:]|[,.](?=\d)){0,60}(?:\d|[,.](?=\d))*"
    r"|(?<![,\s])\sкотор\w+\s(?:[^,.;:]|[,.](?=\d)){0,60}(?:\d|[,.](?=\d))*",
    re.IGNORECASE,
)
"""A restrictive relative clause, its first 60 characters and the rest of a number they cut
(`… the day-pass rate of £25`, never `£2`)."""
_COMPLEMENT_TAKERS = frozenset(
    """states stated says said shows showed means reports reported claims believes found finds
    notes noted ensures ensure suggests indicates argues confirms explains requires thinks
    knows so such""".split()
)
"""Words after which `that` opens a complement (`the website states that …`), not a relative
clause."""
_WORD_BEFORE = re.compile(r"([^\W\d_]+)\W*$")
"""`households that pay an annual fee of £45`: a relative clause without a comma restricts its
noun."""


_DEPICTIVE = re.compile(
    r"(?<![\w-])([a-z]+(?:ed|en|ne))\s+(un[a-z]+ed|intact|damaged|broken|defective|faulty|"
    r"full|empty|clean|unused|unworn|unopened|sealed|complete|on time|in full)(?![\w-])",
    re.IGNORECASE,
)
"""`is released after the vehicle is returned undamaged`: the state the participle's object
must be in is a condition; a claim that keeps the verb and drops the state widens the rule."""


def _whole_in(word: str, lowered: str) -> bool:
    """`word` occurs in `lowered` as a whole word."""
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", lowered) is not None


def _dropped_qualifier(
    claim: str, focus: str, claim_quantities: tuple[Quantity, ...]
) -> list[RiskSignal]:
    """A limit that points back (`riders who report a fault within that time`) or an amount
    inside a restrictive relative clause (`for households that pay an annual fee of £45`) the
    claim leaves out: the claim widens what the evidence says to every case."""
    out: list[RiskSignal] = []
    lowered = claim.lower()
    for m in _DEPICTIVE.finditer(focus):
        verb, state = m.group(1).lower(), m.group(2).lower()
        if _whole_in(verb, lowered) and not _whole_in(state, lowered):
            out.append(RiskSignal(SignalCode.CONDITION_DROPPED, f"{m.group()} (claim: none)"))
    if _DEICTIC_HEADS.search(focus):
        for m in _DEICTIC_LIMIT.finditer(focus):
            noun = (m.group(1) or m.group(2) or "").lower()
            if noun not in lowered:
                detail = f"{m.group().strip()} (claim: none)"
                out.append(RiskSignal(SignalCode.CONDITION_DROPPED, detail))
    if not _DIGIT.search(focus) or not _RESTRICTIVE_RELATIVE.search(focus):
        return out
    # only the sentence the claim rests on most: a relative clause elsewhere in a long span
    # restricts something else
    mine = _content_keys(claim)
    spans = _sentences(focus)
    a, b = max(spans, key=lambda ab: len(_content_keys(focus[ab[0] : ab[1]]) & mine))
    for m in _RESTRICTIVE_RELATIVE.finditer(focus, a, b):
        before = _WORD_BEFORE.search(focus, max(0, m.start() - 20), m.start())
        if before is not None and before.group(1).lower() in _COMPLEMENT_TAKERS:
            continue
        for e in quantities(m.group()):
            if not any(same_amount(q, e) or q.value == e.value for q in claim_quantities):
                out.append(RiskSignal(SignalCode.CONDITION_DROPPED, f"{e.text} (claim: none)"))
                break
    return out


_ZH_TOPIC_CONDITION = re.compile(
    r"(?:^|(?<=[，。；：]))(?![请将把])([^，。；：,;是]{2,40}?(?:的|者))(?:[\u4e00-\u9fff]{1,4})?[，,]"
    r"([^。；;！？]+)"
)
"""`连续欠费超过3个月的，供电企业可能中止供电`: a clause ending in 的/者 before a comma names
whom or when the statement after it applies to, as `if` does; so does one before the short
noun it restricts (`收入不超过12万元且需要补税的纳税人，无需办理汇算`), unless the clause is an
instruction whose object that noun is (`请将本品放在儿童不能接触的地方，…`) or says what
something is (`讲话是一个危险的信号，…`)."""


@short_cache(maxsize=4096)
def _zh_content(text: str) -> tuple[str, ...]:
    """Content words of Chinese text; amounts and their units are compared as amounts."""
    return tuple(
        w
        for w in zh_words(_mask_closed(text))
        if has_cjk(w)
        and len(w) > 1
        and not all(c in ZH_STOP_CHARS for c in w)
        and w not in _CLOSED_CHARS
        and w not in UNITS
        and not any(c.isdigit() or c in ZH_NUMERALS for c in w[:1])
    )


def _dropped_zh_condition(
    claim: str, sentences: str, claim_keys: frozenset[str]
) -> list[RiskSignal]:
    """A Chinese condition clause (`…的，`) the claim leaves out, or part of it, while it makes
    the statement the clause governs: the claim says it holds for everyone, every time."""
    if not has_cjk(claim):
        return []
    c_quantities = quantities(claim)
    out: list[RiskSignal] = []
    for m in _ZH_TOPIC_CONDITION.finditer(sentences):
        condition, statement = m.group(1), m.group(2)
        said = _zh_content(statement)
        if not said or sum(1 for w in said if _in_claim(w, claim, claim_keys)) * 2 < len(said):
            continue  # the claim is not about the statement this clause governs

        def left_out(part: str) -> list[str]:
            words = [
                w
                for w in _zh_content(part)
                if not _in_claim(w, claim, claim_keys) and w[-1] not in _ZH_PARTY
            ]
            return words + [
                e.text
                for e in quantities(part)
                if not any(same_amount(q, e) or q.value == e.value for q in c_quantities)
            ]

        missing = left_out(condition)
        disjuncts = _ZH_OR.split(condition)
        if missing and len(disjuncts) > 1 and any(not left_out(d) for d in disjuncts):
            continue  # `因战争或故意行为造成的` kept as `战争造成的`: one case of the condition
        if missing:
            detail = f"{condition} (claim: none of {', '.join(dict.fromkeys(missing))})"
            out.append(RiskSignal(SignalCode.CONDITION_DROPPED, detail))
    return out


_IF_CLAUSE = re.compile(r"(?:^|[,:]\s*|\s)(?:if|when|если|когда)\s+([^,;.!?]+)", re.IGNORECASE)
"""An English or Russian condition clause, to the next comma: what a statement is made for."""
_OR = re.compile(r"\s(?:or|или|либо)\s", re.IGNORECASE)
_AND = re.compile(r"\s(?:and|и)\s", re.IGNORECASE)


def _dropped_condition_part(
    claim: str, sentences: str, claim_keys: frozenset[str]
) -> list[RiskSignal]:
    """A requirement of an `if`/`если` condition left out of a claim that keeps the rest
    (`если вы не пришли на занятие, запись заблокируют` for `если участник не пришёл на
    занятие и не отменил запись, …`): the claim makes one of two required conditions enough.
    A condition of cases (`if it is lost or stolen`) may be kept in one of them."""
    if has_cjk(claim) or not _IF_CLAUSE.search(claim):
        return []
    out: list[RiskSignal] = []
    for m in _IF_CLAUSE.finditer(sentences):
        condition = m.group(1)
        if _OR.search(condition):
            continue  # cases, not requirements: a claim may keep one of them
        parts = [_clause_words(p) for p in _AND.split(condition)]
        kept = [sum(_in_claim(w, claim, claim_keys) for w in p) for p in parts]
        dropped = [p for p, k in zip(parts, kept, strict=True) if len(p) >= 2 and k * 2 <= len(p)]
        if (
            len(parts) < 2
            or not dropped
            or not any(k * 2 > len(p) for p, k in zip(parts, kept, strict=True))
        ):
            continue  # one requirement, or none of them the claim's
        missing = [w for p in dropped for w in p if not _in_claim(w, claim, claim_keys)]
        detail = f"{condition.strip()} (claim: none of {', '.join(dict.fromkeys(missing))})"
        out.append(RiskSignal(SignalCode.CONDITION_DROPPED, detail))
    return out


_ZH_OR = re.compile("或者|或是|或")
_SENTENCE_END = re.compile(r"[。！？]|(?<=[.!?])\s+")
"""Where the sentences of a focus part, for the checks that read them one by one."""
_ZH_CLAUSE = re.compile(r"[，；,;]\s*(?:但|但是|而|而且|并且|并)?")
_CLAUSE = re.compile(r";|,?\s(?:but|while|whereas|а|но|однако)\s", re.IGNORECASE)
"""Where Latin and Cyrillic text sets one statement against another: a comma there mostly
frames (`in the region …, a teenager was hurt`), so only a semicolon or a contrast counts."""


@short_cache(maxsize=4096)
def _clause_words(clause: str) -> tuple[str, ...]:
    """Content words of a clause, in order: Chinese words, or lower-cased Latin and Cyrillic
    words that are not stop words, closed-class words or numbers."""
    if has_cjk(clause):
        return _zh_content(clause)
    return tuple(
        [
            w
            for w in (m.lower() for m in _WORD.findall(clause))
            if w not in EN_STOP
            and w not in RU_STOP
            and w not in _CLOSED_WORDS
            and w not in _NUMBER_WORDS
            and not _modal_form(w)
            and keys(w)
        ]
    )


_ANAPHORA = re.compile(
    r"(?<![\w-])(?:it|its|they|them|their|this|these|его|её|ее|их|он|она|оно|они|это|этого|"
    r"этом|этим)(?![\w-])|其|它",
    re.IGNORECASE,
)


def _parallel(left: str, right: str, left_words: Sequence[str], right_words: Sequence[str]) -> bool:
    """Two clauses that say the same kind of thing of two things: they share a content word
    (`由租户承担` / `由房东承担`) or, in Chinese, end alike (`禁用` / `慎用`)."""
    if set(left_words) & set(right_words):
        return True
    a, b = left.strip(" 。.，,；;"), right.strip(" 。.，,；;")
    return has_cjk(a) and bool(a) and bool(b) and a[-1] == b[-1]


def _zh_place(word: str) -> bool:
    """A Chinese place word (`展厅内`, `车内`): the topic a sentence's clauses share."""
    return has_cjk(word) and (word[-1] in "内里上中外" or zh_tags(word).get(word, "") in {"s", "f"})


_CONTRAST_JOINS = frozenset({"а", "whereas", "but", "но", "однако"})
"""Joins that set two statements side by side (`входящие бесплатны, а исходящие стоят 19
рублей`, `may book premium economy, but business class requires approval`): the clauses are
parallel whatever words they share."""
_SEQUENCE_AFTER = re.compile(r"(?:потом|затем|после|также|тоже|ещё|еще|заодно|then)(?![\w-])")
"""`задушил, а потом обокрал`: `а` before a word of sequence or addition goes on with the same
actor, it sets nothing against the clause before."""


def _contrasted_clauses(split: re.Pattern[str], sentence: str) -> tuple[list[str], set[int]]:
    """The non-empty clauses of `sentence` and the indexes of those its join sets against the
    clause before them."""
    clauses: list[str] = []
    contrasted: set[int] = set()
    start = 0
    join = ""
    for m in (*split.finditer(sentence), None):
        piece = sentence[start : m.start() if m else len(sentence)]
        if piece.strip():
            if join in _CONTRAST_JOINS and clauses:
                contrasted.add(len(clauses))
            clauses.append(piece)
        if m is not None:
            join = m.group().strip(" ,").lower()
            if _SEQUENCE_AFTER.match(sentence, m.end()):
                join = ""
            start = m.end()
    return clauses, contrasted


_CLAIM_CLAUSE = re.compile(r"[，；,;]|\s(?:and|but|while|whereas|и|а|но|однако)\s", re.IGNORECASE)


def _mixed_sentences(claim: str, sentences: str, claim_keys: frozenset[str]) -> list[RiskSignal]:
    """One clause of the claim takes words that only the first of two adjacent sentences has
    and words that only the second has, and each sentence has words the claim leaves out
    (`contact the paediatric dentistry team` for `… contact oral surgery. Children … are seen
    by the paediatric dentistry team.`): it joins what one sentence says to another's thing.
    A claim that merges the two keeps each clause to one sentence."""
    parts = [p for p in _SENTENCE_END.split(sentences) if p.strip()]
    if len(parts) != 2:
        return []
    words = [_clause_words(p) for p in parts]
    # a word of one sentence that the other has in any form (`inspect` / `inspection`) is
    # shared, not one sentence's own
    keyed = [span_keys(p) for p in parts]
    a = {w for w in words[0] if not keys(w) & keyed[1] and w not in parts[1]}
    b = {w for w in words[1] if not keys(w) & keyed[0] and w not in parts[0]}
    taken_a = {w for w in a if _in_claim(w, claim, claim_keys)}
    taken_b = {w for w in b if _in_claim(w, claim, claim_keys)}
    left_a = {w for w in a - taken_a if not _is_adverb(w)}
    left_b = {w for w in b - taken_b if not _is_adverb(w)}
    if not (taken_a and taken_b and left_a and left_b):
        return []
    for clause in _CLAIM_CLAUSE.split(claim):
        keys_ = _content_keys(clause)
        from_a = sorted(w for w in taken_a if _in_claim(w, clause, keys_))
        from_b = sorted(w for w in taken_b if _in_claim(w, clause, keys_))
        # the sentence the claim takes fewer words from is next door: a name of two words or
        # more from there, set in a clause with words of the other, is a swap
        near_b = len(taken_b) <= len(taken_a)
        near = from_b if near_b else from_a
        main_words = words[0] if near_b else words[1]
        if from_a and from_b and len(near) >= 2 and _slot_taken(clause, main_words, near):
            joiner = "、" if has_cjk(claim) else ", "
            detail = (
                f"{joiner.join(from_b)} (evidence: {parts[1].strip()}); "
                f"{joiner.join(from_a)} (evidence: {parts[0].strip()})"
            )
            return [RiskSignal(SignalCode.CLAUSES_MIXED, detail)]
    return []


def _slot_taken(clause: str, main_words: tuple[str, ...], near: list[str]) -> bool:
    """In the claim's clause a word from next door follows a word of the main sentence whose
    own next word the claim leaves out (`contact the paediatric dentistry team` where the main
    sentence says `contact oral surgery`): the neighbour's words fill the main sentence's
    slot."""
    said = _clause_words(clause)
    said_keys = [keys(w) for w in said]
    for x, y in itertools.pairwise(said):
        if y not in near:
            continue
        for k, w in enumerate(main_words[:-1]):
            if w != x and not keys(w) & keys(x):
                continue
            after = main_words[k + 1]
            if after not in said and not any(keys(after) & k_ for k_ in said_keys):
                return True
    return False


CROSSED_CLAUSE_WORDS = 10
"""The longest clause read for swapped roles: a subject and what one clause says of it."""
_CONTRAST_JOIN = re.compile(r",\s*(?:а|while|whereas|но|but|and|и)\s|\s(?:while|whereas)\s", re.I)
"""Two clauses set side by side: `…, а …`, `… while …`, `…, whereas …`, `…, and …`."""
_CROSSED_CLAUSE = re.compile(_CLAUSE.pattern + r"|,\s(?:and|и)\s", re.IGNORECASE)
"""Clauses for swapped roles: a comma before `and`/`и` also parts two statements (`adults pay
€10, and children pay €5`); their words must still be parallel to count."""


def _clauses_crossed(claim: str, sentences: str) -> tuple[list[RiskSignal], list[RiskSignal]]:
    """Two contrasted clauses of the claim each joining what one clause of the evidence says
    to the other's subject (`cats against distemper, and dogs against panleukopenia` for `dogs
    against distemper, and cats against panleukopenia`): the roles are swapped, each clause
    states another value for its subject (the first list). When only one clause does
    (`snorkels are allowed, but fins are not` for `goggles are allowed, but snorkels and fins
    are not permitted`), that clause is mixed, not shown to state another value (the second)."""
    if has_cjk(claim):
        # Chinese clauses part at every comma: only a claim of two clauses is read, each as
        # short as a subject and what is said of it, and only for both swapped (one clause
        # alone may be a merged claim's, `…收费，半天的价格是…`)
        mine = [c for c in _ZH_CLAUSE.split(claim.strip("。！？ ")) if c.strip()]
        if len(mine) != 2 or any(
            sum(has_cjk(w) for w in zh_words(c)) > CROSSED_CLAUSE_WORDS for c in mine
        ):
            return [], []
        mixed = [_mixed_clauses(c, sentences, _content_keys(c), _CROSSED_CLAUSE) for c in mine]
        if not all(mixed):
            return [], []
        detail = f"{'; '.join(c.strip(' ，,；;。') for c in mine)} (evidence: the roles swapped)"
        return [RiskSignal(SignalCode.ENTITY_MISMATCH, detail)], []
    else:
        if not _CONTRAST_JOIN.search(claim):
            return [], []
        mine = [c for c in _CROSSED_CLAUSE.split(claim.strip(" .!?")) if c.strip()]
        if len(mine) != 2 or any(len(_WORD.findall(c)) > CROSSED_CLAUSE_WORDS for c in mine):
            return [], []  # a long clause carries more than a subject and what is said of it
    mixed = [_mixed_clauses(c, sentences, _content_keys(c), _CROSSED_CLAUSE) for c in mine]
    if not all(mixed):
        return [], [m for found in mixed for m in found]
    detail = f"{'; '.join(c.strip(' ,;.') for c in mine)} (evidence: the roles swapped)"
    return [RiskSignal(SignalCode.ENTITY_MISMATCH, detail)], []


_SAME_RULE = RiskSignal(SignalCode.BOUND_MISMATCH, "(the same rule, from the other side)")
"""Put first in what `_complement_rule` returns when the two sides state one rule."""
_NECESSITY = re.compile(
    r"才|只有|只限|仅限|方可|方能|(?<![\w-])(?:only|must be|has to be|have to be|только|лишь|"
    r"должн[аоы]? быть)(?![\w-])",
    re.IGNORECASE,
)
"""A necessary condition on who may (`须年满16周岁才可`, `不低于50公斤方可`, `only members aged
16 or over`, `you must be 18 or older to`): the rule also says that nobody short of it may."""
_NEGATOR = re.compile(
    r"(?<![\w-])(?:not|cannot|can't|no|never|не|нельзя|запрещ\w*)(?![\w-])|不|禁止|没有|未(?!满)",
    re.IGNORECASE,
)


def _complement_rule(
    claim: str, focus: str, claim_negated: bool, mismatches: Sequence[RiskSignal]
) -> list[RiskSignal]:
    """One side bounds who may do a thing (`年满18岁才能`, `18 or older`), the other denies it
    to the complement (`未满18岁的…不能`, `under 18 cannot`): the bound turned over and the
    negation are one rule read from the other side when the side that permits states its
    bound as necessary (`才`, `only`, `must be … to`); otherwise neither side says what the
    other does (insufficient, not contradicted). Returns the signals that make the clash,
    with `_SAME_RULE` first when the sides state one rule, or nothing."""
    bound = [
        (m, flipped)
        for m in mismatches
        if m.code is SignalCode.BOUND_MISMATCH
        and (flipped := _FLIPPED_BOUND.fullmatch(m.detail)) is not None
    ]
    negation = [m for m in mismatches if m.code is SignalCode.NEGATION_MISMATCH]
    if len(bound) != 1 or len(negation) != 1:
        return []
    ((signal, flipped),) = bound
    number = flipped.group(2)
    denied, permitted = (
        _BOUND_MASK.sub(lambda m: " " * len(m.group()), side)
        for side in ((claim, focus) if claim_negated else (focus, claim))
    )  # `no more than` bounds a number, it negates nothing
    at = next(
        (denied.find(q.text) for q in quantities(normalize_zh(denied)) if q.value == number), -1
    )  # also a number in words (`больше двух`)
    said = _NEGATOR.search(denied)
    if at < 0 or said is None or said.start() < at or _NEGATOR.search(permitted):
        return []  # the negation governs the bound (`not after 21:00`): another reading
    clash = [signal, negation[0]]
    permitted_kind = flipped.group(3) if claim_negated else flipped.group(1)
    # a cap (`may rent no more than two`) is necessary by what it says: more is not allowed;
    # a bound in a condition (`admitted if you arrive no more than 30 minutes late`) is not
    capped = permitted_kind == "upper" and not _CASE_WORD.search(permitted)
    if not capped and not _NECESSITY.search(permitted):
        return clash
    # the denial is the rule's necessity read from the other side: `cannot` for `can only`,
    # and the necessity word itself is what the negation says
    said_so = [
        m
        for m in mismatches
        if m.code is SignalCode.MODALITY_STRENGTHENED
        or (
            m.code in (SignalCode.CONDITION_DROPPED, SignalCode.CONDITION_CHANGED)
            and _NECESSITY.match(m.detail.lstrip("…"))
        )
    ]
    return [_SAME_RULE, *clash, *said_so]


_CASE_WORD = re.compile(
    r"(?<![\w-])(?:if|when|whenever|provided|unless|если|когда|при условии)(?![\w-])|如果|若|只要",
    re.IGNORECASE,
)
_FLIPPED_BOUND = re.compile(r"(upper|lower) (\d+(?:\.\d+)?) \(evidence: (?!\1)(upper|lower)\)")


def _mixed_clauses(
    claim: str,
    sentences: str,
    claim_keys: frozenset[str],
    latin_split: re.Pattern[str] = _CLAUSE,
    joined_only: bool = False,
) -> list[RiskSignal]:
    """A one-clause claim that takes words only one clause of a sentence has from two
    clauses, and leaves out words of each (`物业费由租户承担` for `水费由租户承担，物业费由房东
    承担`; `people with allergies must not use it` for `pregnant women must not use it, people
    with allergies should use it with caution`): it joins what one clause says of one thing to
    another thing. A place word opening the sentence (its topic, `展厅内`) is shared.
    `latin_split` parts Latin and Cyrillic sentences (`_CROSSED_CLAUSE` also at `, and`).
    Of a claim of several clauses, only a clause joining two things is read (`joined_only`)."""
    split = _ZH_CLAUSE if has_cjk(claim) else latin_split
    if not split.search(sentences):
        return []
    if split.search(claim.strip("。.！!？? ")):
        if joined_only:
            return []
        for part in split.split(claim.strip("。.！!？? ")):
            if _JOINED_THINGS.search(part) and (
                found := _mixed_clauses(
                    part, sentences, _content_keys(part), latin_split, joined_only=True
                )
            ):
                return found
        return []
    every = _SENTENCE_END.split(sentences)
    for n, sentence in enumerate(every):
        clauses, contrasted = _contrasted_clauses(split, sentence)
        if len(clauses) < 2:
            continue
        # a merged claim's words from the other sentence (`отпуск длится 28 календарных дней,
        # и его можно делить …`) are that sentence's, not one of these clauses'
        elsewhere = frozenset().union(
            *(_content_keys(other) for k, other in enumerate(every) if k != n)
        )
        words = [_clause_words(c) for c in clauses]
        # words by their keys: `возвращаются` in one clause is `возвращается` in the other
        word_keys = [{w: keys(w.lower()) for w in ws} for ws in words]
        clause_keys = [frozenset().union(*wk.values()) for wk in word_keys]
        for i in range(len(clauses)):
            topic = {w for w in words[i][:1] if _zh_place(w)}
            for j in range(i + 1, len(clauses)):
                # fewer words: a list's tail (`changed or refunded`), unless `whereas`/`а`
                # sets the clause against the one before it
                least = 2 if has_cjk(claim) or (j in contrasted and j == i + 1) else 3
                if min(len(words[i]), len(words[j])) < least or _ANAPHORA.search(clauses[j]):
                    continue  # `…, после чего его необходимо …`: the second refers to the first
                if not (
                    _parallel(clauses[i], clauses[j], words[i], words[j])
                    or (j in contrasted and j == i + 1)
                ):
                    continue  # a frame and a statement (`в области …, пострадал подросток`)
                a = {w for w in words[i] if not word_keys[i][w] & clause_keys[j]} - topic
                b = {w for w in words[j] if not word_keys[j][w] & clause_keys[i]}
                taken_a = {
                    w
                    for w in a
                    if _in_claim(w, claim, claim_keys) and not keys(w.lower()) & elsewhere
                }
                taken_b = {
                    w
                    for w in b
                    if _in_claim(w, claim, claim_keys) and not keys(w.lower()) & elsewhere
                }
                left_a = {w for w in a - taken_a if not _is_adverb(w)}
                left_b = {w for w in b - taken_b if not _is_adverb(w)}
                joined = (
                    taken_a
                    and taken_b
                    and (left_a or left_b)
                    and _JOINED_THINGS.search(claim) is not None
                    and _opposed_clauses(clauses[i], clauses[j])
                )  # `室内和室外泳池都会关闭` for `室外泳池将关闭，室内泳池照常开放`: one clause's
                # predicate said of the other's subject, which the other clause opposes
                if (taken_a and taken_b and left_a and left_b and not joined_only) or joined:
                    joiner = "、" if has_cjk(claim) else ", "
                    detail = (
                        f"{joiner.join(sorted(taken_b))} (evidence: {clauses[j].strip()}); "
                        f"{joiner.join(sorted(taken_a))} (evidence: {clauses[i].strip()})"
                    )
                    return [RiskSignal(SignalCode.CLAUSES_MIXED, detail)]
    return []


def _opposed_clauses(a: str, b: str) -> bool:
    """One clause negates, or states an antonym of a word of the other (`closes` / `stays
    open`, `关闭` / `开放`): they say opposite things of their subjects. `not only … but also`
    adds, it opposes nothing."""
    a, b = _NOT_ONLY.sub(" ", a), _NOT_ONLY.sub(" ", b)
    if _has_negation(a) != _has_negation(b):
        return True
    if has_cjk(a):
        return any((x in a and y in b) or (y in a and x in b) for x, y in _ANTONYMS if has_cjk(x))
    theirs = _WORD.findall(b)
    return any(opposite(w, o) for w in _WORD.findall(a) for o in theirs)


_NOT_ONLY = re.compile(r"(?<![\w-])(?:not only|не только)(?![\w-])|不仅|不只", re.IGNORECASE)
_JOINED_THINGS = re.compile(r"[和与及]|(?<![\w-])(?:both|and|и|как)(?![\w-])", re.IGNORECASE)
"""Two things joined in one clause (`室内和室外泳池`, `both the indoor and the outdoor pool`)."""
_ORDINAL = re.compile(
    r"(?<![\w-])(?:(first|1st)|(second|2nd)|(third|3rd)|(перв\w*)|(втор\w*)|(трет\w*))(?![\w-])"
    r"|(第一|第1(?!\d)|首次)|(第二|第2(?!\d))|(第三|第3(?!\d))",
    re.IGNORECASE,
)
_ORDINAL_RANK = (1, 2, 3, 1, 2, 3, 1, 2, 3)


_UNLESS_WORD = re.compile(r"(?<![\w-])(?:unless|если только не|кроме случаев)(?![\w-])|除非", re.I)


def _unless_on_one_side(claim: str, focus: str) -> bool:
    """One side states the case with `unless` and the other with `as long as` (`may attend
    unless two or more are affected` / `as long as fewer than two are`): its bound is the
    complement of the other's, not the reverse."""
    return bool(_UNLESS_WORD.search(claim)) != bool(_UNLESS_WORD.search(focus))


def _ordinal_of(clause: str) -> int | None:
    """The one rank (1, 2, 3) a clause names (`the first retake`, `вторая`), or None."""
    ranks = {_ORDINAL_RANK[m.lastindex - 1] for m in _ORDINAL.finditer(clause) if m.lastindex}
    return ranks.pop() if len(ranks) == 1 else None


def _ordinals_swapped(claim: str, sentences: str) -> list[RiskSignal]:
    """Clauses set against each other by rank (`the first retake is taken by the examiner,
    the second by a panel`), whose words the claim hands to the other rank (`the first by a
    panel, the second by the examiner`): each clause states another value for its rank."""
    split = _ZH_CLAUSE if has_cjk(claim) else _CLAUSE
    mine = [(r, c) for c in split.split(claim) if (r := _ordinal_of(c)) is not None]
    if len(mine) < 2:
        return []
    theirs: dict[int, frozenset[str]] = {}
    for sentence in _SENTENCE_END.split(sentences):
        for c in split.split(sentence):
            r = _ordinal_of(c)
            if r is not None:
                theirs[r] = theirs.get(r, frozenset()) | _content_keys(_ORDINAL.sub(" ", c))
    swapped = []
    for rank, clause in mine:
        own = theirs.get(rank)
        others = frozenset().union(*(k for r, k in theirs.items() if r != rank))
        if own is None or not others:
            continue
        words = _content_keys(_ORDINAL.sub(" ", clause))
        if words & (others - own):
            swapped.append(clause.strip(" ,;"))
    if len(swapped) < 2:
        return []
    return [
        RiskSignal(SignalCode.ENTITY_MISMATCH, f"{'; '.join(swapped)} (evidence: ranks swapped)")
    ]


def _rank_amount_swapped(
    claim: str, sentences: str, c_quantities: Sequence[Quantity]
) -> list[RiskSignal]:
    """A claim about one rank (`第二张许可证的年费为300元`) with the amount the evidence gives
    another rank (`第一张…300元，第二张…600元`): the claim's rank has another amount there."""
    rank = _ordinal_of(claim)
    if rank is None or not c_quantities:
        return []
    split = _ZH_CLAUSE if has_cjk(claim) else _CLAUSE
    own: list[Quantity] = []
    other: list[Quantity] = []
    for sentence in _SENTENCE_END.split(sentences):
        for c in split.split(sentence):
            r = _ordinal_of(c)
            if r is not None:
                (own if r == rank else other).extend(quantities(normalize_zh(c)))
    out = []
    for q in c_quantities:
        if q.unit is None or any(same_amount(q, e) for e in own):
            continue
        rivals = [e for e in own if _comparable(q, e)]
        if rivals and any(same_amount(q, e) for e in other):
            detail = f"{q.text} (evidence, for this: {_q(rivals)})"
            out.append(RiskSignal(SignalCode.NUMBER_MISMATCH, detail))
    return out


def _negated_clause(text: str) -> bool:
    """A negation outside the clause's bound phrases (`no more than` bounds, negates nothing)."""
    return _negated_part(_BOUND_MASK.sub(lambda m: " " * len(m.group()), text))


def _polarity_swapped(claim: str, sentences: str) -> list[RiskSignal]:
    """Two contrasted clauses, one negated (`the replacement cost is refunded, but the
    processing fee is not`), whose words the claim hands to the other polarity (`the processing
    fee is refunded but the replacement cost is not`): each clause states the opposite."""
    if has_cjk(claim):
        return []  # Chinese clauses part at every comma: which two are contrasted is open
    mine = [c for c in _CLAUSE.split(claim) if c.strip()]
    if len(mine) != 2 or _negated_clause(mine[0]) == _negated_clause(mine[1]):
        return []
    for sentence in _SENTENCE_END.split(sentences):
        theirs = [c for c in _CLAUSE.split(sentence) if c.strip()]
        if len(theirs) == 1 and _denies_all(sentence):
            stated = next(c for c in mine if not _negated_clause(c))
            if _says_of_denied(stated, next(c for c in mine if c is not stated), sentence):
                detail = f"{stated.strip(' ,;.')} (evidence: {_denied_scope(sentence).strip()})"
                return [RiskSignal(SignalCode.NEGATION_MISMATCH, detail)]
            continue
        if len(theirs) != 2 or _negated_clause(theirs[0]) == _negated_clause(theirs[1]):
            continue
        keys_of = {_negated_clause(c): _content_keys(c) for c in theirs}
        swapped = [
            c
            for c in mine
            if _content_keys(c) & (keys_of[not _negated_clause(c)] - keys_of[_negated_clause(c)])
        ]
        if len(swapped) == 2 or (len(swapped) == 1 and _subject_from(swapped[0], theirs)):
            detail = f"{'; '.join(c.strip(' ,;.') for c in mine)} (evidence: the other negated)"
            return [RiskSignal(SignalCode.NEGATION_MISMATCH, detail)]
    return []


_PROVISO = re.compile(
    r"(?<![\w-])"
    + patterns.words((*_CONDITION_WORDS, "besides", "other than"), ignorecase=True)
    + r"(?![\w-])",
    re.IGNORECASE,
)
"""A case or exception the sentence makes: what it denies is not denied for everything."""


def _denies_all(sentence: str) -> bool:
    """One statement that denies, with no case or exception (`the warranty does not cover
    damage caused by storms, fire or pests`)."""
    return _negated_clause(sentence) and not _PROVISO.search(sentence)


def _says_of_denied(stated: str, denied: str, sentence: str) -> bool:
    """The claim's affirmed clause (`the warranty covers storm damage`, beside `but not damage
    caused by fire`) says, with words all its own and each found in the evidence, what the
    evidence's one denying statement denies."""
    other = {w.lower() for w in _WORD.findall(denied)}
    evidence = _content_keys(_denied_scope(sentence))
    own = [
        w
        for w in _WORD.findall(stated)
        if w.lower() not in other
        and w.lower() not in _CLOSED_WORDS
        and w.lower() not in EN_STOP
        and w.lower() not in RU_STOP
    ]
    return bool(own) and all(_evidence_word_keys(w) & evidence for w in own)


def _denied_scope(sentence: str) -> str:
    """The comma part of `sentence` with its negation and the list items beside it (parts
    with no verb): not a clause of its own (`…, потому что он сидеть не должен, он должен
    ездить` denies nothing of `ездить`)."""
    parts = sentence.split(",")
    at = next((i for i, p in enumerate(parts) if _negated_clause(p)), None)
    if at is None:
        return ""
    start, end = at, at + 1
    while start > 0 and not _has_predicate(parts[start - 1]):
        start -= 1
    while end < len(parts) and not _has_predicate(parts[end]):
        end += 1
    return ",".join(parts[start:end])


def _has_predicate(part: str) -> bool:
    words = _WORD.findall(part)
    return any(
        predicate(w, words[i - 1] if i else "", words[i + 1] if i + 1 < len(words) else "")
        and not w.lower().endswith("ly")
        for i, w in enumerate(words)
    )


def _converse(word: str, claim: str, window: str) -> str | None:
    """The evidence's verb of transfer that `word` restates from the other side (`receive`
    for `send`, `charge` for `pay`, `получать` for `выдавать`) with the same giver and
    recipient, or None."""
    mine = transfer(claim)
    if mine is None or mine.verb != word.lower():
        return None
    theirs = transfer(window)
    if theirs is None or theirs.receiving == mine.receiving or not same_roles(mine, theirs):
        return None
    return theirs.verb


_RECEIVE_ACTION = re.compile(
    r"(?<![\w-])(receives?|received|gets?|got|obtains?)\s+(?:an?\s+|the\s+)?([a-z]+)", re.I
)
_PASSIVE = re.compile(r"(?<![\w-])(?:is|are|was|were|be|been|being)\s+(?:\w+ly\s+)?([a-z]+ed)\b")


def _received(word: str, claim: str, window: str) -> str | None:
    """`tickets receive an answer` for `tickets are answered`: receiving the action a
    passive verb of the evidence names is that passive; the evidence's participle, or None."""
    m = _RECEIVE_ACTION.search(claim)
    if m is None or m.group(1).lower() != word.lower():
        return None
    subject = _content_keys(claim[: m.start()])
    action = keys(m.group(2).lower())
    for p in _PASSIVE.finditer(window):
        if keys(p.group(1).lower()) & action and subject & _content_keys(window[: p.start()]):
            return p.group(1)
    return None


def _roles_said(found: Transfer) -> str:
    return (
        f"{found.verb}: from {' '.join(found.giver) or '(unnamed)'} "
        f"to {' '.join(found.recipient) or '(unnamed)'}"
    )


def _roles_reversed(claim: str, sentences: str) -> list[RiskSignal]:
    """The claim's transfer hands the evidence's giver the recipient's part and the
    recipient the giver's (`each employee sends HR a statement` for `HR sends each employee a
    statement`, `the landlord receives the deposit from the tenant` for `returns it to the
    tenant`): another statement about who gives."""
    mine = transfer(claim)
    if mine is None:
        return []
    theirs = transfer(sentences)
    if theirs is None or not reversed_roles(mine, theirs):
        return []
    detail = f"{_roles_said(mine)} (evidence: {_roles_said(theirs)})"
    return [RiskSignal(SignalCode.ENTITY_MISMATCH, detail)]


def _subject_from(clause: str, theirs: list[str]) -> bool:
    """The claim's clause opens with the subject of the evidence clause of the other polarity
    and with no word of its own polarity's subject (`snorkels are allowed` where the evidence
    says `goggles are allowed, but snorkels and fins are not permitted`): it hands that
    subject the other polarity."""
    mine = _clause_words(clause)
    if not mine:
        return False
    negated = _negated_clause(clause)
    other = next(c for c in theirs if _negated_clause(c) != negated)
    own = next(c for c in theirs if _negated_clause(c) == negated)
    first = keys(mine[0])
    return bool(first & _content_keys(other)) and not first & _content_keys(own)


def _amount_words(text: str) -> set[str]:
    """The numbers of `text` as tokens (`#1`, `one`): what a clause states besides its words."""
    return {t for t in tokens(text) if t.startswith("#") or t in _NUMBER_WORDS}


_BOUND_CLAUSES = re.compile(r"[,;，；]|\s(?:and|but|while|whereas|и|а|но)\s")


def _bound_mixed(claim: str, sentences: str, claim_keys: frozenset[str]) -> list[RiskSignal]:
    """A claim that takes its bound on an amount from one clause and other words from the
    clause that bounds the same amount otherwise (`children over 30 kg take half a tablet` for
    `children of 30 kg or less take half a tablet, and children over 30 kg take one tablet`):
    the bound says which clause the claim is about, and that clause says something else."""
    mine = {n: k for n, k in bounds(normalize_zh(claim)).items() if "exact" not in k}
    if not mine:
        return []
    for sentence in _SENTENCE_END.split(sentences):
        clauses = [c for c in _BOUND_CLAUSES.split(sentence) if c and c.strip()]
        if len(clauses) < 2:
            continue
        kinds = [bounds(normalize_zh(c)) for c in clauses]
        for number, wanted in mine.items():
            stating = [i for i, k in enumerate(kinds) if number in k]
            ours = [i for i in stating if kinds[i][number] == wanted]
            theirs = [i for i in stating if kinds[i][number] != wanted]
            if len(ours) != 1 or len(theirs) != 1:
                continue
            j, i = ours[0], theirs[0]
            words_i, words_j = set(_clause_words(clauses[i])), set(_clause_words(clauses[j]))
            taken = {w for w in words_i - words_j if _in_claim(w, claim, claim_keys)}
            left = {w for w in words_j - words_i if not _in_claim(w, claim, claim_keys)}
            left |= _amount_words(clauses[j]) - _amount_words(clauses[i]) - _amount_words(claim)
            if taken and left:
                joiner = "、" if has_cjk(claim) else ", "
                said = "/".join(sorted(wanted))
                detail = (
                    f"{said} {number[1:]} (evidence: {clauses[j].strip()}); "
                    f"{joiner.join(sorted(taken))} (evidence: {clauses[i].strip()})"
                )
                return [RiskSignal(SignalCode.CLAUSES_MIXED, detail)]
    return []


_PROHIBITION = re.compile(
    r"(?<![\w-])(?:prohibited|prohibits|forbidden|forbids|banned|bans|disallowed|barred|"
    r"запрещено|запрещен|запрещён|запрещена|запрещены|запрещается|запрещаются|запрещает|"
    r"воспрещается)(?![\w-])|禁止|严禁|禁用",
    re.IGNORECASE,
)
_PROHIBITION_HEADS = ("prohib", "forbid", "ban", "disallow", "barred", "запрещ", "воспрещ", "禁")
"""Substrings every prohibition word has: a C-speed test before the pattern runs."""
_ZH_NEGATIVE = re.compile("[不没无未别勿非禁]|违规|违章")


def _unnegated_prohibition(claim: str, focus: str, claim_keys: frozenset[str]) -> list[RiskSignal]:
    """The evidence forbids what the claim states without any negation (`You can use a tripod`
    for `tripods are prohibited`; `可以使用三脚架` for `禁止使用三脚架`). The forbidden thing
    is the words next to the prohibition in its clause; a claim about another clause's
    permission (`photos are allowed` for `photos are allowed, but tripods are prohibited`)
    shares none of them."""
    folded = focus.lower()
    if not any(h in folded for h in _PROHIBITION_HEADS):
        return []
    lowered = claim.lower()
    if _PROHIBITION.search(lowered) or NEGATION.word_re.search(lowered):
        return []
    if has_cjk(claim) and _ZH_NEGATIVE.search(claim):
        return []
    for m in _PROHIBITION.finditer(focus):
        start = max(focus.rfind(c, 0, m.start()) for c in ",;，；。.")
        ends = [i for i in (focus.find(c, m.end()) for c in ",;，；。.") if i >= 0]
        clause = focus[start + 1 : min(ends) if ends else len(focus)]
        at = m.start() - start - 1
        if has_cjk(m.group()):
            near = list(_zh_content(clause[at + len(m.group()) :]))[:3]
        else:
            before = _clause_words(clause[:at])[-3:]
            after = _clause_words(clause[at + len(m.group()) :])[:3]
            near = [*before, *after]
        hit = [w for w in near if _in_claim(w, claim, claim_keys)]
        excepted = _EXCEPTION_AFTER.match(focus, m.end())
        if (
            excepted is not None
            and _CLAIM_ONLY.search(claim)
            and any(_in_claim(w, claim, claim_keys) for w in _clause_words(excepted.group(1)))
        ):
            # `допускается, только если это арендованный шкафчик` for `запрещено, за
            # исключением арендованных шкафчиков`: the claim's restriction is the exception
            continue
        if hit:
            detail = f"claim: none (evidence: {m.group()} {' '.join(near)})"
            return [RiskSignal(SignalCode.NEGATION_MISMATCH, detail)]
    return []


_EXCEPTION_AFTER = re.compile(
    r"[^.;!?。；！？]*?(?:(?<![\w-])(?:except|unless|за исключением|кроме|если только)"
    r"(?![\w-])|除非|除)([^.;!?。；！？]*)",
    re.IGNORECASE,
)
"""An exception the prohibition's sentence makes after it, and its words."""
_CLAIM_ONLY = re.compile(r"(?<![\w-])(?:only|только|лишь)(?![\w-])|只有|只能|仅", re.IGNORECASE)


_ZH_PARTY = frozenset("人者客户方员")
"""The last character of a word naming the party a rule is for (`被保险人`, `租户`, `旅客`): a
claim says `您` or nothing for it, which widens nothing."""


def _in_claim(word: str, claim: str, claim_keys: frozenset[str]) -> bool:
    """A claim word stands for `word`: it is written there (a Chinese word inside the claim's
    text) or shares one of its keys."""
    return word in claim or bool(keys(word) & claim_keys)


_CONJUNCTS = re.compile(r"[;；，]|,?\s(?:and|but|while|и|а|но|однако)\s")
"""Where a sentence joins statements. A plain Latin comma is not among them: `For databases
under 500 GB, the objective is 4 hours` fronts a restriction, not a second statement."""


_COMMA = re.compile(r"[,，]")
"""A comma inside a part: a condition followed by its statement, not a condition alone."""


def _negation_left_out(
    signal: RiskSignal, claim: str, focus: str, claim_keys: frozenset[str]
) -> bool:
    """An evidence negation the claim does not state, in a conjunct the claim leaves out
    (`refunds are made automatically, but booking fees are not refunded` for `refunds are
    automatic`): a statement the claim does not make, not one it denies. Only where the
    claim negates nothing and aligns with a conjunct of its own."""
    if signal.code is not SignalCode.NEGATION_MISMATCH or not signal.detail.startswith(
        "claim: none"
    ):
        return False
    if _has_negation(claim):
        return False
    said = _NEGATED_IN.match(signal.detail)
    target = next(
        (
            w
            for w in _WORD.findall(said.group(1) if said else "")[1:]
            if w.lower() not in EN_STOP and w.lower() not in _CLOSED_WORDS
        ),
        None,
    )
    if target is not None and target.isascii() and keys(target.lower()) & claim_keys:
        return False  # `must submit readings` for `… and do not need to submit them`: the
        # claim asserts the very verb that conjunct denies
    parts = [p for p in _CONJUNCTS.split(focus) if p.strip()]
    negated = [p for p in parts if _has_negation(p)]
    kept = [p for p in parts if not _has_negation(p)]
    if any(_CONDITION_START.match(p) or p.rstrip(" ，,").endswith("的") for p in negated):
        return False  # `未使用任何服务的，可以…`: whom the statement is about, no statement
    return (
        bool(negated)
        and all(_left_out_statement(p, claim_keys) for p in negated)
        # the claim's own conjunct is a statement too, not the head of a list the negation
        # ends (`Нижнее бельё, косметика и товары … возврату не подлежат`)
        and any(
            not _left_out_statement(p, claim_keys)
            and any(_is_predicate(w, p) for w, _ in _sequence(p))
            for p in kept
        )
    )


def _left_out_statement(part: str, claim_keys: frozenset[str]) -> bool:
    """`part` has a verb of its own and the claim carries at most half of its content words.
    A bound's own words (`不超过`, `no more than`) are no verb: `最高不超过300元` only caps;
    a condition (`if`, `如果`) is the case the statement holds in, no statement of its own."""
    words = _sequence(part)
    unbounded = _BOUND_MASK.sub(lambda m: " " * len(m.group()), part)
    outside = {w for w, _ in _sequence(_mask_zh_bounds(unbounded) if has_cjk(part) else unbounded)}
    content = [
        (w, k)
        for (w, k) in words
        if w.lower() not in _CLOSED_WORDS
        and w.lower() not in EN_STOP
        and w.lower() not in RU_STOP
        and w not in _CLOSED_CHARS
        and not w[:1].isdigit()
    ]
    if (
        # `如果航班延误超过4小时，…`: a condition part alone is a case of the statement
        (_CONDITION_START.match(part) and not _COMMA.search(part.strip(" ,，")))
        or not content
        or not any(k for _, k in words)
        or not any(_is_predicate(w, part) for w, _ in content if w in outside)
    ):
        return False
    carried = sum(1 for _, k in content if k & claim_keys)
    return carried * 2 <= len(content)


def _is_predicate(word: str, part: str) -> bool:
    """A verb by the language's own resource: WordNet (en), pymorphy3 (ru), jieba's tags (zh)."""
    if has_cjk(word):
        return zh_tags(_mask_closed(normalize_zh(part))).get(word, "") in ("v", "vn", "vd", "vi")
    low = word.lower()
    if low.isascii():
        return low.isalpha() and _is_verb(low)
    return any(pos in ("VERB", "INFN", "PRTS") for _, pos in ru_lemmas(low)[:1])


_STEP = re.compile(
    r"(?<![\w-])(?:every|each|per|за каждые|каждые|за каждый|каждый)\s+"
    r"(?:(?:additional|further|extra|subsequent|started|дополнительные|последующие)\s+)?"
    r"(\d+(?:[.,]\d+)?\s*[^\W\d_]+)"
    r"|每(?:增加|超过|超出|多)?(\d+(?:\.\d+)?\s*(?:分钟|小时|天|公里|千米|元))",
    re.IGNORECASE,
)
"""The step a rate is charged by: `£1.50 for every additional 15 minutes`, `за каждые 15
минут`, `每15分钟`."""


def _step_swapped(claim: str, window: str) -> list[RiskSignal]:
    """A rate charged by another step than the evidence's (`every additional 30 minutes` for
    `every additional 15 minutes`), even where the claim's amount is stated elsewhere in the
    sentence (`the included 30 minutes`)."""
    mine = [
        q for m in _STEP.finditer(claim) for q in quantities(normalize_zh(m.group(1) or m.group(2)))
    ]
    if not mine:
        return []
    theirs = [
        q
        for m in _STEP.finditer(window)
        for q in quantities(normalize_zh(m.group(1) or m.group(2)))
    ]
    out = []
    for q in mine:
        kin = [e for e in theirs if q.unit is not None and _comparable(q, e)]
        if kin and not any(same_amount(q, e) for e in kin):
            detail = f"every {q.text} (evidence: every {_q(kin)})"
            out.append(RiskSignal(SignalCode.NUMBER_MISMATCH, detail))
    return out


_PERMISSION = re.compile(
    r"(?<![\w-])(?:may|can|is allowed to|are allowed to|можно|может|могут|вправе)(?![\w-])"
    r"|可以|可(?!能)|能(?!力)|允许",
    re.IGNORECASE,
)
"""A permission before an amount: what is permitted is the most there is (`可以指定1名`)."""


def _cap_over_permission(q: Quantity, claim: str, alike: Sequence[Quantity], window: str) -> bool:
    """The claim caps an amount (`最多可以指定2名`, `may bring up to 3 bags`) that the evidence
    permits exactly (`可以指定1名`): what is permitted is the most there is, so a higher cap
    permits what the evidence does not (a duration that `may take up to 5 days` where it
    `takes 3 days` has no permission, and stays inside its bound)."""
    if bounds(claim).get(f"#{q.value}") != frozenset({"upper"}) or not _PERMISSION.search(claim):
        return False
    for e in alike:
        at = window.find(e.text)
        if at < 0:
            continue
        start = max(window.rfind(c, 0, at) for c in ".;。；，,\n") + 1
        if _PERMISSION.search(window, start, at):
            return True
    return False


def _other_currency(a: Quantity, b: Quantity) -> bool:
    """`60 долларов` for `60 евро`: the same figure in another currency is another price."""
    return a.unit in CURRENCIES and b.unit in CURRENCIES and a.unit != b.unit


def _spelled_out(acronym: str, window: str) -> bool:
    """`acronym` is the initials of consecutive words of `window`, function words skipped
    (`СБП` / `Систему быстрых платежей`, `DoD` / `Department of Defense`)."""
    letters = [c.lower() for c in acronym if c.isupper()]
    if len(letters) < 2:
        return False
    words = [w for w in _WORD.findall(window) if not _function_word(w) and not w[:1].isdigit()]
    initials = [w[0].lower() for w in words]
    n = len(letters)
    return any(initials[i : i + n] == letters for i in range(len(initials) - n + 1))


def _same_noun(claim: Quantity, evidence: Quantity, claim_text: str, window: str) -> bool:
    """Two bare counts of the same thing: `50 orders` and `20 orders`."""

    def noun_after(q: Quantity, text: str) -> frozenset[str]:
        at = text.find(q.text)
        if at < 0:
            return frozenset()
        after = _WORD.findall(text[at + len(q.text) : at + len(q.text) + 30].lower())
        return keys(after[0]) if after else frozenset()

    def label_before(q: Quantity, text: str) -> frozenset[str]:
        # `код 429` / `код 500`, `错误码429` / `错误码500`: a number named by the word before it
        at = text.find(q.text)
        end = at + len(q.text)
        if at <= 0 or ":" in q.text or text[end : end + 1] == ":" or text[at - 1] == ":":
            return frozenset()  # a time of day is compared as one (`_clock_unstated`)
        before = text[max(0, at - 30) : at].rstrip()
        if len(before) >= 2 and all(has_cjk(c) for c in before[-2:]):
            return frozenset({before[-2:]})
        words = _WORD.findall(before.lower())
        if (
            not words
            or _function_word(words[-1])
            or has_cjk(words[-1])
            or words[-1] in _MONTHS  # `July 27` / `July 2018`: a date's parts, not a label
            or words[-1] == "since"
        ):
            return frozenset()
        return keys(words[-1])

    years = any(
        q.value.isdigit() and len(q.value) == 4 and 1000 <= int(q.value) <= 2100
        for q in (claim, evidence)
    )  # `since 1995` / `since 1979`: years are dates, compared as dates
    return bool(
        noun_after(claim, claim_text) & noun_after(evidence, window)
        or (not years and label_before(claim, claim_text) & label_before(evidence, window))
    )


def _unit_follows(claim: Quantity, evidence: Quantity, window: str) -> bool:
    """The evidence writes the number without a unit we know (`5 business days`): the claim's
    unit word must then come right after it there, or the number counts something else
    (`two tablets` is no support for `2 hours`)."""
    unit_words = [w for w in _WORD.findall(claim.text.lower()) if not w[:1].isdigit()]
    if not unit_words:
        return False
    wanted = keys(unit_words[-1])
    at = window.find(evidence.text)
    while at >= 0:
        after = _WORD.findall(
            window[at + len(evidence.text) : at + len(evidence.text) + 40].lower()
        )
        if any(keys(w) & wanted for w in after[:3]):
            return True
        at = window.find(evidence.text, at + 1)
    return False


def _comparable(a: Quantity, b: Quantity) -> bool:
    """The same kind of unit: both durations, both masses, … (`14 days` vs `21 days`)."""
    from stream.verify.units import magnitude

    if a.unit == b.unit:
        return True
    ma, mb = magnitude(a), magnitude(b)
    return ma is not None and mb is not None and ma[1] == mb[1]


def _parts_align(word: str, ev_keys: frozenset[str]) -> bool:
    """A hyphenated word aligns when each of its parts does (`low-cost` / `cost is low`)."""
    parts = [p for p in word.split("-") if len(p) > 1]
    return len(parts) > 1 and all(keys(p) & ev_keys for p in parts)


def _zh_aligned(word: str, window: str, ev_keys: frozenset[str]) -> bool:
    if word in window or keys(word) & ev_keys:
        return True
    short = _ZH_SHORT_FORMS.get(word)
    if short is not None and short in window:
        # a one-character form must be a word of its own there (`因设备检修`, not `原因`)
        return len(short) > 1 or short in zh_words(window)
    if (
        len(word) == 2
        and word[1] in "到在"
        and f"{word[0]}{'在' if word[1] == '到' else '到'}" in window
    ):
        return True  # `放到` / `放在`: the verb with either complement of place
    if len(word) >= 3 and word[-1] == "给" and _zh_aligned(word[:-1], window, ev_keys):
        return True  # `退还给您`: the verb and the `给` of whom it goes to
    return any(s in window for s in zh_synonyms(word)) or _zh_abbreviates(word, window)


def _zh_abbreviates(word: str, window: str) -> bool:
    """`团课` of `团体课`, `绝版书` of `绝版图书`: a Chinese word shortened by leaving out inner
    characters of an evidence word of up to four, keeping its first and last."""
    if not 2 <= len(word) <= 3 or any(c in ZH_NUMERALS or c.isdigit() for c in word):
        return False  # `九折` is no shortened `九五折`: numbers are amounts, not words
    words = zh_words(window)
    for i in range(len(words)):
        if len(words[i]) < 2:
            continue  # `挣点钱` is a verb and its object, not a word shortened to `挣钱`
        w = ""
        for part in words[i : i + 3]:  # the segmenter parts `团体课` as `团体` + `课`
            w += part
            if len(w) > 4 or not has_cjk(part):
                break
            if (
                len(word) < len(w)
                and w[0] == word[0]
                and w[-1] == word[-1]
                and not any(c in ZH_NUMERALS or c.isdigit() for c in w)
            ):
                rest = iter(w[1:-1])
                if all(c in rest for c in word[1:-1]):
                    return True
    return False


_ZH_SHORT_FORMS = {
    "因为": "因", "时候": "时", "遇到": "遇", "大约": "约", "大概": "约",
    "随身带": "随身携带", "装进": "装入", "立刻": "立即", "马上": "立即",
    "那天": "之日", "当天": "当日", "每天": "每日",
    "提前": "前", "开始": "起",
}  # fmt: skip
"""A word of spoken Chinese and the written form a document uses for it (`因为` / `因`,
`时候` / `时`, `当天` / `当日`): the same word, not a synonym a thesaurus must supply
(`第二天` is `次日` already: `normalize_zh` writes it so on both sides)."""


_ANTONYMS: tuple[tuple[str, str], ...] = (
    ("allow", "prohibit"), ("allow", "forbid"), ("permit", "prohibit"), ("increase", "decrease"),
    ("increase", "reduce"), ("rise", "fall"), ("higher", "lower"), ("include", "exclude"),
    ("accept", "reject"), ("enable", "disable"), ("before", "after"), ("open", "close"),
    ("safe", "unsafe"), ("effective", "ineffective"), ("gain", "loss"), ("maximum", "minimum"),
    ("разреш", "запрещ"), ("увелич", "уменьш"), ("повыш", "сниж"), ("включ", "исключ"),
    ("максим", "миним"), ("принима", "отклоня"), ("same", "different"), ("same", "another"),
    ("same", "other"), ("same", "separate"), ("internal", "external"), ("public", "private"),
    ("paid", "unpaid"), ("paid", "free"), ("внутрен", "внешн"), ("платн", "бесплатн"),
    ("одинаков", "разн"),
    ("允许", "禁止"), ("增加", "减少"), ("提高", "降低"), ("上升", "下降"), ("包括", "不包括"),
    ("最多", "最少"), ("接受", "拒绝"), ("开启", "关闭"), ("开放", "关闭"),
)  # fmt: skip
"""Direction words whose swap states the opposite (`increases` for `decreases`)."""


_PARTNERS: dict[str, frozenset[str]] = {}
for _x, _y in _ANTONYMS:
    _PARTNERS[_x] = _PARTNERS.get(_x, frozenset()) | {_y}
    _PARTNERS[_y] = _PARTNERS.get(_y, frozenset()) | {_x}
_PREFIX_LENGTHS = sorted({len(w) for w in _PARTNERS})


@lru_cache(maxsize=16384)
def _antonym_stems(word: str) -> frozenset[str]:
    word = word.lower()
    return frozenset(word[:n] for n in _PREFIX_LENGTHS if word[:n] in _PARTNERS)


_GRADED = frozenset(
    """increase decrease reduce rise fall higher lower gain loss maximum minimum before
    after""".split()
)
"""Direction stems with a middle between the two: what is not increased may be unchanged."""
_NEGATED_BEFORE = re.compile(
    rf"(?:{BOUND_NEGATION}|(?<![\w-])no)(?:\s+{SCOPE_WORD}){{0,2}}\s+$", re.IGNORECASE
)
"""A negation at most two words (of its own clause) before the end of a text: what stands
next is negated. The negation and scope words are the ones bounds use (`units`)."""


def _negated_at(text: str, at: int) -> bool:
    """The word at `at` stands under a negation just before it (`not available`)."""
    return _NEGATED_BEFORE.search(text[max(0, at - 40) : at].replace("’", "'")) is not None


def _negated_antonym(word: str, text: str) -> str | None:
    """An antonym of the English `word` that `text` negates (`does not open` for `closed`,
    `not available` for `unavailable`): the same statement in other words. Not for the
    graded direction words (`_GRADED`)."""
    opposites = antonyms_of(word)
    if not opposites or _antonym_stems(word) & _GRADED:
        return None  # `not increase` is no `decrease`: a direction may also stay the same
    for m in _WORD.finditer(text):
        if bases_of(m.group()) & opposites and _negated_at(text, m.start()):
            return m.group()
    return None


def _antonym(a: str, b: str) -> bool:
    """`b` starts with a direction stem opposite to one `a` starts with (and not `a`'s own)."""
    mine = _antonym_stems(a)
    if not mine:
        return False
    theirs = _antonym_stems(b)
    return any(q in theirs and not b.lower().startswith(p) for p in mine for q in _PARTNERS[p])


_EXCEPT_PHRASE = re.compile(r"(?<![\w-])за\s+исключением(?![\w-])", re.IGNORECASE)
"""`за исключением` is a preposition (`except`), not the verb `исключить` opposing `включить`."""


def _opposed_in_focus(claim: str, focus: str) -> list[RiskSignal]:
    """A direction word of the claim whose antonym the clause it rests on states, and the
    claim does not (`ice sheets have increased` where the clause says `decreased`, next to
    an `increase` elsewhere in it): the claim may have swapped them."""
    # bound phrases are compared as bounds (`at most` is no antonym of `at least` there)
    claim = _BOUND_MASK.sub(" ", claim)
    claim_words = sorted({w.lower() for w in _WORD.findall(claim)})  # sorted: same output
    said = _BOUND_MASK.sub(" ", _EXCEPT_PHRASE.sub(" ", focus))
    focus_words = sorted({w.lower() for w in _WORD.findall(said)} - set(claim_words))
    if not focus_words:
        return []
    focus_bases: dict[str, str] = {}
    for w in focus_words:
        for b in sorted(bases_of(w)):
            focus_bases.setdefault(b, w)
    claim_bases = {b for w in claim_words for b in bases_of(w)}
    out = []
    for word in claim_words:
        hit = next(
            (
                focus_bases[a]
                for a in sorted(antonyms_of(word))  # sorted: the same output under any hash seed
                if a in focus_bases and a not in claim_bases
            ),
            None,
        )
        if hit is None and _antonym_stems(word):
            hit = next((o for o in focus_words if _antonym(word, o)), None)
        if hit is None or _negated_antonym(word, focus) is not None:
            continue
        if _negated_word(word, claim) and not _antonym_stems(word) & _GRADED:
            continue  # `not allowed` where the clause says `prohibition`: the same statement
        out.append(RiskSignal(SignalCode.ANTONYM_MISMATCH, f"{word} (evidence: {hit})"))
    return out[:2]


def _negated_word(word: str, text: str) -> bool:
    """Every occurrence of the (lower-case) `word` in `text` stands under a negation just
    before it (`are not allowed`)."""
    found = [m.start() for m in _WORD.finditer(text) if m.group().lower() == word]
    return bool(found) and all(_negated_at(text, at) for at in found)


_LOSS_WORDS = frozenset(
    """loss losses decline declines reduction reductions shortage shortages lack deficit
    decrease decreases shrinkage""".split()
)
_UPWARD = re.compile(r"(?:increas|grow|grew|rise|rose|risen|rising|gain|expand|higher|greater)")


def _dropped_loss(claim: str, focus: str, claim_keys: frozenset[str]) -> list[RiskSignal]:
    """A claim that something went up, resting on evidence about the *loss* of it (`ice sheets
    have increased in mass` for `increasing rates of ice mass loss`): the dropped `loss`
    reverses the direction."""
    claim_words = [w.lower() for w in _WORD.findall(claim)]
    upward = next((w for w in claim_words if _UPWARD.match(w)), None)
    if upward is None or _LOSS_WORDS & set(claim_words):
        return []
    words = [w.lower() for w in _WORD.findall(focus)]
    for i, w in enumerate(words):
        if w not in _LOSS_WORDS:
            continue
        near = [n for n in (*words[max(0, i - 2) : i], *words[i + 1 : i + 3]) if n not in EN_STOP]
        if any(keys(n) & claim_keys for n in near):
            said = " ".join(words[max(0, i - 2) : i + 1])
            return [RiskSignal(SignalCode.ANTONYM_MISMATCH, f"{upward} (evidence: {said})")]
    return []


_EN_SUBJECT_END = frozenset(
    """can cannot can't may might must will won't would should shall is are was were has have
    had do does did don't doesn't need needs""".split()
)
"""A modal or auxiliary ends an English sentence's subject (`Free users | can store …`)."""
_ZH_SUBJECT_END_TAGS = frozenset({"v", "vd", "vi", "vg", "d", "p", "c", "ad", "m"})
"""jieba tags that end a Chinese subject: a verb, adverb, preposition, conjunction, numeral."""
_RU_SUBJECT_END = frozenset({"VERB", "INFN", "PRTS", "ADJS", "PRED", "GRND"})


def _nominative(word: str) -> bool:
    return any("nomn" in t for t in ru_tags(word))


@short_cache(maxsize=4096)
def _subject(sentence: str) -> tuple[tuple[str, ...], int | None] | None:
    """(the words of a sentence's subject, the index of its head or None) when the sentence
    opens with one ended by a verb or modal in the present or future: the head is the last
    English word before the modal, the first Russian nominative noun, the last Chinese noun.
    None when no such subject is found, and for a past event (`An 18-year-old citizen froze
    his hands` does say that a citizen did: only a rule's subject widens)."""
    if has_cjk(sentence):
        words: list[str] = []
        for i, (word, tag) in enumerate(_rjieba().tag(sentence)):
            if word in _ADDRESSEE_CJK or (i == 0 and tag in {"v", "vn"}):
                words.append(word)  # `付费会员`: a verb-like first word modifies the noun
                continue
            if tag in _ZH_SUBJECT_END_TAGS or not has_cjk(word) or word in _CLOSED_CJK:
                break
            words.append(word)
        else:
            return None
        if "了" in sentence:
            return None
        heads = [i for i, w in enumerate(words) if zh_tags(w).get(w, "").startswith("n")]
        return tuple(words), heads[-1] if heads else None
    found = [w.lower() for w in _WORD.findall(sentence)]
    if not found or found[0] in _SUBORDINATORS:
        return None  # a conditional clause first: its subject is not the sentence's
    if found[0][0] in "абвгдеёжзийклмнопрстуфхцчшщъыьэюя":
        for i, w in enumerate(found):
            tags = ru_tags(w)
            parts = {t.partition(",")[0].partition(" ")[0] for t in tags}
            if i == 0 and "PREP" in parts:
                return None  # `для одного магазина действует …`: no subject first
            if w == "не" or parts & _RU_SUBJECT_END:
                if any("past" in t for t in tags if t.startswith("VERB")):
                    return None
                nouns = [
                    j
                    for j in range(i)
                    if "NOUN" in {p for _, p in ru_lemmas(found[j])} and _nominative(found[j])
                ]
                if not nouns:
                    return tuple(found[:i]), None
                # the head's agreeing modifiers: the nominative words right before it
                start = nouns[0]
                while start > 0 and _nominative(found[start - 1]):
                    start -= 1
                return tuple(found[start:i]), nouns[0] - start
        return None
    if found[0] in _EN_PREPOSITIONS:
        return None
    for i, w in enumerate(found):
        if w in _EN_SUBJECT_END:
            if w in _EN_PAST:
                return None
            content = [j for j, x in enumerate(found[:i]) if x not in EN_STOP]
            if content and any(x in EN_STOP for x in found[content[0] : i]):
                return tuple(found[:i]), None  # `Any spill larger than …`: no simple noun phrase
            return tuple(found[:i]), i - 1 if i > 0 else None
    return None


_EN_PAST = frozenset("was were had did".split())
_EN_FOCUS = frozenset("only just even also still merely solely".split())
"""Focus adverbs before a subject (`Only non-programmable calculators`): a claim without one
says less, not more."""
_EN_PREPOSITIONS = frozenset(
    "for in on at by with from after before during under over to of within without".split()
)
_SUBORDINATORS = frozenset(
    "if when unless while although once and or but если когда пока хотя пусть и или но".split()
)
_ZH_MODIFIER_TAGS = frozenset({"a", "b", "v", "vn", "n", "nz", "an", "j", "l"})
"""jieba tags of a word that may restrict a Chinese head: adjective, distinguisher, verb or
noun (`免费`, `付费`, `新`); not a place, direction, time, pronoun or numeral (`桌上`)."""
MAX_SUBJECT_WORDS = 5
"""A longer stretch before the first modal is no simple subject (a heading run into the
sentence, a clause): the rule stays out of it."""


def _content(word: str) -> bool:
    return not (
        word in EN_STOP or word in RU_STOP or word in ADDRESSEE or word in _ADDRESSEE_CJK
    ) and bool(keys(word))


_BOUND_ADJECTIVE = re.compile(r"(?i)(?:minim|maxim|минимальн|максимальн|最低|最高|最少|最多)")


def _restricts(word: str) -> bool:
    """A word that may restrict a subject's head: a content word, not a quantifier (`all`,
    `каждая`: the quantifier rules compare those), a number, a pronoun or the addressee."""
    if not _content(word) or any(c.isdigit() for c in word) or word in NUMBER_WORD_TOKENS:
        return False
    if any(word in cls.words or word in cls.cjk for cls in (UNIVERSAL, MAJORITY, SOME)):
        return False
    if _BOUND_ADJECTIVE.match(word):
        return False  # `минимальная сумма`: a bound on the amount, compared as one
    if has_cjk(word):
        return len(word) > 1 and zh_tags(word).get(word, "") in _ZH_MODIFIER_TAGS
    if word[0] in "абвгдеёжзийклмнопрстуфхцчшщъыьэюя":
        return any(
            t.startswith(("ADJF", "PRTF", "NOUN")) and "Apro" not in t for t in ru_tags(word)
        )
    return word not in _EN_FOCUS and not (word.endswith("ly") and _is_adverb(word))


def _rests_on(claim: str, sentence: str) -> bool:
    """At least two thirds of the claim's content words are the sentence's."""
    mine = [_content_keys(w) for w in _clause_words(claim)]
    theirs = _content_keys(sentence)
    return bool(mine) and sum(1 for k in mine if k & theirs) * 3 >= len(mine) * 2


_INTENT = (
    re.compile(
        r"(?<![\w-])(?:intentional(?:ly)?|deliberate(?:ly)?|wil(?:l)?ful(?:ly)?|knowingly|"
        r"on purpose|malicious(?:ly)?|умышленн\w*|намеренн\w*|преднамеренн\w*|"
        r"нарочно|злонамеренн\w*)(?![\w-])|故意|蓄意|恶意|有意",
        re.IGNORECASE,
    ),
    re.compile(
        r"(?<![\w-])(?:accidental(?:ly)?|unintentional(?:ly)?|inadvertent(?:ly)?|by accident|"
        r"неумышленн\w*|по неосторожности|ненамеренн\w*)(?![\w-])|无意|过失",
        re.IGNORECASE,
    ),
)
"""Words that restrict a rule to harm done on purpose, or by accident (`damage caused
intentionally by the owner`): a case the rule is about, not a manner a claim may leave out."""


_NECESSARY_BOTH = (
    re.compile(
        r"([^，。；,;]+?)(?:且|并且|而且|同时)([^，。；,;]+?)(?:方可|方能|才能|才可以|才可|才)"
    ),
    re.compile(
        r"(?<![\w-])(?:only if|only when|только если|только при условии,? что)\s+"
        r"([^.;,]+?)\s+(?:and|и)\s+([^.;,]+)",
        re.IGNORECASE,
    ),
)
"""A necessary condition of two parts (`年满18周岁且有稳定收入方可申请`, `only if X and Y`)."""
_NECESSARY_HEADS = re.compile(
    r"方可|方能|才能|才可|(?<![\w-])(?:only if|only when|только если|только при условии)(?![\w-])",
    re.IGNORECASE,
)
"""A cheap test before `_NECESSARY_BOTH`: the focus states a necessary condition at all."""
_NECESSITY_SAID = re.compile(
    r"只有|才|方可|方能|(?<![\w-])(?:only|только|лишь)(?![\w-])", re.IGNORECASE
)


def _necessary_part_dropped(claim: str, focus: str) -> list[RiskSignal]:
    """The evidence needs two things together (`年满18周岁且有稳定收入方可申请`) and the claim,
    stating no necessity of its own, names one of them as enough (`只要年满18周岁，就可以申请`):
    the other part is dropped and the condition made sufficient."""
    if _NECESSITY_SAID.search(claim) or not _NECESSARY_HEADS.search(focus):
        return []  # `只有年满18周岁才能申请`: one necessary part is still true
    mine = _content_keys(claim)
    for pattern in _NECESSARY_BOTH:
        for m in pattern.finditer(focus):
            first, second = _content_keys(m.group(1)), _content_keys(m.group(2))
            if first & mine and second and not second & mine:
                return [
                    RiskSignal(SignalCode.CONDITION_DROPPED, f"{m.group(2).strip()} (claim: none)")
                ]
    return []


_ZH_CAUSE_CASE = re.compile(r"(?<![原基])因(?!为|此|而)([^，。；,;]{1,12}?)的[，,]")
"""`幼儿因病连续请假满15天的，…`: a cause inside the case a rule is about (`…的，`)."""


_RESTRICTED_ALL = re.compile(
    r"(?<![\w-])(?:anyone|anybody|everyone|everybody|all those|those|любой|любого|любому|все|всех|"
    r"всем|каждый|каждому|тот|те|тем)(?:\s*,)?\s+(?:who|whose|that|кто|кого|кому|чей|которые|"
    r"который|которым|которых)(?![\w-])",
    re.IGNORECASE,
)
"""`free for anyone who lives … in Riverside`, `для всех, кто …`: a universal narrowed by the
clause after it."""
_BARE_ALL = re.compile(
    r"(?<![\w-])(?:anyone|anybody|everyone|everybody|all|всех|всем|все|каждого|каждому|любого|"
    r"любому)(?![\w-])(?!\s*,?\s*(?:who|whose|that|кто|кого|кому|чей|которые|который|которым|"
    r"которых)(?![\w-]))",
    re.IGNORECASE,
)


_ZH_BUT_ONLY = re.compile(
    r"[，,；;]\s*(?:但是|但|而|不过)([\u4e00-\u9fff]{1,8}?)(?:仅|只|则只|则仅|则)"
)
"""`…保留30天，但免费版仅保留7天`: the clause after `但` names a case (`免费版`) the first
clause's rule does not hold for."""


def _zh_exception_dropped(claim: str, span: str, amounts: tuple[Quantity, ...]) -> list[RiskSignal]:
    """A claim restating the first clause's amount (`已删除的文件会在回收站中保留30天`) where a
    `但…仅` clause after it gives another amount for a case of its own (`但免费版仅保留7天`)
    and the claim names neither that case nor a case of its own: it states for every case what
    holds for all but one. `span` is the sentence or two carrying the claim (the clauses
    the claim's words chose leave the `但` clause out)."""
    if not amounts or not any(w in span for w in ("但", "而", "不过")):
        return []
    for m in _ZH_BUT_ONLY.finditer(span):
        case = m.group(1)
        before = quantities(normalize_zh(span[: m.start()]))
        after = quantities(normalize_zh(span[m.end() :]))
        if (
            case
            and case not in claim
            and not keys(case) & _content_keys(claim)
            and any(same_amount(q, e) for q in amounts for e in before)
            and not any(same_amount(q, e) for q in amounts for e in after)
            and any(not same_amount(e, b) for e in after for b in before if e.unit == b.unit)
        ):
            return [
                RiskSignal(
                    SignalCode.CONDITION_DROPPED, f"{m.group().lstrip('，,；; ')}… (claim: none)"
                )
            ]
    return []


def _universal_narrowed(claim: str, focus: str) -> list[RiskSignal]:
    """The evidence says it of everyone *who* …, the claim of everyone (`free for everyone`
    for `free for anyone who lives, works or studies in Riverside`): it drops the clause that
    says whom."""
    said = _RESTRICTED_ALL.search(focus)
    if said is None or _RESTRICTED_ALL.search(claim):
        return []
    bare = _BARE_ALL.search(claim)
    if bare is None:
        return []
    return [RiskSignal(SignalCode.CONDITION_DROPPED, f"{said.group()} … (claim: {bare.group()})")]


def _dropped_cause(claim: str, focus: str) -> list[RiskSignal]:
    """The evidence's rule is about a case with a cause (`因病连续请假满15天的`) and the claim
    leaves the cause out (`只要连续请假满15天`): it widens the rule to every cause."""
    if not has_cjk(focus) or "因" not in focus:
        return []
    for m in _ZH_CAUSE_CASE.finditer(focus):
        words = [w for w in zh_words(m.group(1)) if has_cjk(w)]
        cause = words[0] if words else ""
        if cause and cause not in claim and not keys(cause) & _content_keys(claim):
            return [RiskSignal(SignalCode.CONDITION_DROPPED, f"因{cause} (claim: none)")]
    return []


def _contrasted_means_dropped(claim: str, focus: str) -> list[RiskSignal]:
    """Two clauses set side by side (`…, but …`, `while`), one telling its case apart by
    a means or agent phrase (`bins damaged by the crew are replaced free of charge, but …`),
    and a claim that restates that clause without it (`damaged bins are replaced free of
    charge`): it states for every case what holds for one."""
    if has_cjk(focus) or not _CLAUSE.search(focus) or not _AGENT_PHRASE.search(focus):
        return []  # (cheap tests first: most evidence sets no clauses side by side)
    mine: frozenset[str] | None = None
    for sentence in _SENTENCE_END.split(focus):
        clauses = [c for c in _CLAUSE.split(sentence) if c.strip()]
        if len(clauses) != 2:
            continue
        for i in (0, 1):
            phrase = _means_words(clauses[i], _AGENT_PHRASE)
            if not phrase:
                continue
            if mine is None:
                mine = _content_keys(claim)
            theirs = _content_keys(clauses[1 - i])
            own = [w for w in _clause_words(clauses[i]) if not keys(w.lower()) & theirs]
            means = [w for w in own if w in phrase]
            rest = [w for w in own if w not in means]
            if (
                means
                and rest
                and not any(keys(w.lower()) & mine for w in means)
                and sum(bool(keys(w.lower()) & mine) for w in rest) >= 2
            ):
                return [
                    RiskSignal(SignalCode.CONDITION_DROPPED, f"{' '.join(means[:4])} (claim: none)")
                ]
    return []


_INTENT_HEADS = (
    "intent", "deliberat", "wilful", "willful", "knowingly", "purpose", "malicious", "accident",
    "inadvertent", "умышлен", "намерен", "нарочно", "неосторож", "故意", "蓄意", "恶意", "有意",
    "无意", "过失",
)  # fmt: skip


def _dropped_intent(claim: str, focus: str) -> list[RiskSignal]:
    """The evidence's rule is about what is done on purpose (or by accident), the claim says
    nothing of it (`ущерб, причинённый членами семьи, не возмещается` for `ущерб, причинённый
    умышленно … членами его семьи`): it widens the rule to every case."""
    lowered = focus.lower()
    if not any(h in lowered for h in _INTENT_HEADS):
        return []  # (a cheap test first: few rules speak of intent)
    out = []
    for kind in _INTENT:
        stated = kind.search(focus)
        if stated is None or kind.search(claim):
            continue
        # `因战争或被保险人故意行为造成的损失`: the intent is that of an alternative the claim
        # leaves out (`战争造成的损失`), not of the rule the claim states
        before = focus[: stated.start()]
        alternative = list(_ALTERNATIVES.finditer(before))
        if alternative and not _content_keys(before[alternative[-1].end() :]) & _content_keys(
            claim
        ):
            continue
        out.append(RiskSignal(SignalCode.CONDITION_DROPPED, f"{stated.group()} (claim: none)"))
    return out


_UNLIMITED = re.compile(
    r"(?<![\w-])(?:as (?:often|many times|much|many) as (?:you|they|he|she|we|one) "
    r"(?:like|likes|want|wants|wish|wishes|choose|chooses|need|needs)|any number of|"
    r"unlimited|without (?:any )?limits?|no limits?|сколько угодно|без ограничений|"
    r"неограниченн\w*|любое количество)(?![\w-])|不限次数|无限次|不限量|无限制|不受限制",
    re.IGNORECASE,
)
"""A claim that says there is no limit (`as often as they like`, `сколько угодно`, `不限次数`)."""
_ANY_TIME = re.compile(
    r"(?<![\w-])(?:at any time|any ?time|whenever (?:you|they) (?:like|want|wish)|"
    r"в любое время|в любой момент|когда угодно)(?![\w-])|随时|任何时候|任意时间",
    re.IGNORECASE,
)
_TIME_LIMIT = re.compile(
    r"(?<![\w-])(?:before|after|until|till|by|within|prior to|no later than|up to|"
    r"до|после|не позднее|не позже|в течение|раньше|позже)(?![\w-])"
    r"|之前|以前|之后|以后|以内|之内|前|后",
    re.IGNORECASE,
)


def _limit_denied(claim: str, focus: str) -> list[RiskSignal]:
    """The claim says there is no limit where the evidence bounds the thing (`guests may visit
    as often as they like` for `up to 4 times per calendar year`), or that it may be done at
    any time where the evidence says when (`changed at any time` for `changed before the
    departure time`): it widens the rule (insufficient; which amount the claim's `no limit`
    speaks of is not read, so no contradiction)."""
    out = []
    said = _UNLIMITED.search(claim)
    if said is not None and not _UNLIMITED.search(focus):
        capped = [n for n, kinds in bounds(focus).items() if "upper" in kinds]
        if capped:
            detail = f"{said.group()} (evidence: upper {', '.join(n.lstrip('#') for n in capped)})"
            out.append(RiskSignal(SignalCode.BOUND_MISMATCH, detail))
    said = _ANY_TIME.search(claim)
    if said is not None and not _ANY_TIME.search(focus):
        limit = _TIME_LIMIT.search(focus)
        if limit is not None and not _TIME_LIMIT.search(_ANY_TIME.sub(" ", claim)):
            detail = f"{limit.group()} (claim: {said.group()})"
            out.append(RiskSignal(SignalCode.CONDITION_DROPPED, detail))
    return out


_AMOUNT_OF_NOUN = re.compile(
    r"(?<![\w-])(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve|fourteen|"
    r"fifteen|twenty|thirty|sixty|ninety|a)\s+(?:working\s+|business\s+|calendar\s+|clear\s+)?"
    r"(?:days?|weeks?|months?|years?|hours?|minutes?)['’]s?\s+(?:(written|prior|advance)\s+)?"
    r"([a-z]+)",
    re.IGNORECASE,
)
"""An amount of time said of a noun (`30 days' written notice`, `a week's notice`)."""


def _dropped_amount_of(claim: str, focus: str) -> list[RiskSignal]:
    """The claim keeps a noun the evidence measures (`with written notice` for `with 30 days'
    written notice`) without any amount of it: a requirement made looser."""
    if "'" not in focus and "’" not in focus:
        return []
    lowered = claim.lower()
    for m in _AMOUNT_OF_NOUN.finditer(focus):
        noun = m.group(2).lower()
        at = next((w for w in _WORD.finditer(lowered) if keys(w.group()) & keys(noun)), None)
        if (
            at is None
            or _AMOUNT_OF_NOUN.search(lowered)
            or _TIME_BEFORE.search(lowered, max(0, at.start() - 40), at.start())
        ):
            continue
        return [RiskSignal(SignalCode.CONDITION_DROPPED, f"{m.group().strip()} (claim: none)")]
    return []


_TIME_BEFORE = re.compile(
    r"\d|(?<![\w-])(?:one|two|three|four|five|six|seven|eight|nine|ten|a)\s+\w*\s*"
    r"(?:days?|weeks?|months?|years?|hours?)",
    re.IGNORECASE,
)
"""An amount of time before the claim's noun, in whatever form."""


def _dropped_restriction(claim: str, focus: str, claim_keys: frozenset[str]) -> list[RiskSignal]:
    """A claim about all of something the evidence says of a kind of it: `Users can store 5
    GB` (or `You can …`) for `Free users can store 5 GB`. The evidence's subject names its
    head with a restrictive word before it (an adjective or noun: free, late, 免费, бесплатные);
    the claim's subject has the head, or is the addressee, and lacks that word anywhere."""
    claim_subject = _subject(claim)
    if claim_subject is None:
        return []
    c_words, _ = claim_subject
    addressed = any(w in ADDRESSEE or w in _ADDRESSEE_CJK for w in c_words) and all(
        w in ADDRESSEE or w in _ADDRESSEE_CJK or w in EN_STOP or w in RU_STOP for w in c_words
    )
    c_keys = frozenset().union(*(keys(w) for w in c_words))
    for a, b in split_sentences(focus) or [(0, len(focus))]:
        found = _subject(focus[a:b])
        if found is None:
            continue
        words, head = found
        if head is None or len(words) > MAX_SUBJECT_WORDS:
            continue
        modifiers = [w for w in words[max(0, head - 2) : head] if _restricts(w)]
        if not modifiers:
            continue
        c_head = next((w for w in reversed(c_words) if _content(w)), None)
        e_keys = frozenset().union(*(keys(w) for w in words))
        if (
            not addressed
            and c_head is not None
            and _rests_on(claim, focus[a:b])
            and not keys(c_head) & e_keys
            and not claim_side(c_head) & (keys(words[head]) | evidence_keys(words[head]))
            and not keys(words[head]) & claim_keys
            and any(keys(m) & c_keys for m in modifiers)
        ):
            # `Overdue items` for `Overdue adult books`: the claim keeps a modifier and puts
            # another, wider head in place of the evidence's
            said = ("" if has_cjk(words[0]) else " ").join(words[: head + 1])
            mine = ("" if c_words and has_cjk(c_words[0]) else " ").join(c_words)
            return [RiskSignal(SignalCode.CONDITION_DROPPED, f"{said} (claim: {mine})")]
        if not (addressed or keys(words[head]) & c_keys):
            continue
        if addressed and keys(words[head]) & claim_keys:
            continue  # `You can hire the hall` for `The hall can be hired`: not its subject
        if not addressed and any(_content(w) and not keys(w) & e_keys for w in c_words):
            continue  # the claim names a kind of its own: another clause's subject
        dropped = [m for m in modifiers if not keys(m) & claim_keys and m not in claim.lower()]
        if dropped:
            said = ("" if has_cjk(words[0]) else " ").join(words[: head + 1])
            mine = ("" if c_words and has_cjk(c_words[0]) else " ").join(c_words) or "none"
            return [RiskSignal(SignalCode.CONDITION_DROPPED, f"{said} (claim: {mine})")]
    return []


def _substitutions(
    claim: str,
    unaligned: list[str],
    focus: str,
    claim_keys: frozenset[str],
    sequence: list[tuple[int, frozenset[str]]],
) -> list[RiskSignal]:
    """Name what the evidence says instead of an unaligned word: an antonym (`increases` for
    `decreases`) or another name (`Berlin` for `Paris`) states a different value. Another
    name counts only where it stands in the claim's place — next to the evidence's match
    for a claim word next to the claim's name: a name the evidence does not mention is
    missing, not contradicted (`Richard Amardi` is no other value of `Canada Basketball`), and
    so is a name in a claim that fails to align elsewhere too."""
    out: list[RiskSignal] = []
    if not unaligned:
        return out
    words = [w for part in unaligned for w in part.split() if _antonym_stems(w)]
    cjk = any(has_cjk(p) for p in unaligned)
    extra: list[str] = []
    if words:
        focus_words = [w.strip(".,;:()\"'«»“”") for w in _EXCEPT_PHRASE.sub(" ", focus).split()]
        extra = [w for w in focus_words if w and not keys(w.lower()) & claim_keys]
    for word in words if not cjk else [w for p in unaligned for w in p.split()]:
        hit = next((e for e in extra if _antonym(word, e)), None)
        if hit is None and has_cjk(word):
            hit = next((x for x, y in _ANTONYMS if has_cjk(x) and y in word and x in focus), None)
        if hit and _NEGATOR.fullmatch(hit.lower()) and _NEGATOR.search(claim):
            # the claim states the prohibition itself (`применять нельзя, разрешены только
            # органические` for `… запрещено, допускаются только органические`): its
            # permission is about what the evidence permits, not against the prohibition
            hit = None
        if (
            hit
            and _negated_word(word, claim)
            and not _negated_word(hit, focus)
            and not _antonym_stems(word) & _GRADED
        ):
            hit = None  # `does not open` for `is closed`: the negated antonym says the same
        if hit and hit.lower() in {w.lower() for w in _WORD.findall(claim)}:
            hit = None  # `another adult … at the same address`: the claim says `same` itself
        if hit:
            out.append(RiskSignal(SignalCode.ANTONYM_MISMATCH, f"{word} (evidence: {hit})"))
    lowered = claim.lower()
    headline = _headline(claim)
    entities = [
        p
        for p in unaligned
        if (p[:1].isupper() and not claim.startswith(p) and not headline and not _emphasis(p))
        or (p.isascii() and has_cjk(claim))
    ]
    # another name is another value only in a claim whose every other unit aligns
    if entities and len(unaligned) <= 2 and all(p in entities for p in unaligned):
        names = [
            w
            for w in ([] if _headline(focus) else _capitalised(focus))
            if not keys(w.lower()) & claim_keys and w.lower() not in lowered
        ]
        at = claim.find(entities[0])
        evidence_seq = _sequence(focus) if names else []
        names = [w for w in names if _in_place(at, w, sequence, evidence_seq)]
        if any(_same_stem(w, entities[0]) for w in _capitalised(focus)):
            names = []  # `России` / `Российской Федерации`: the same name written another way
        if names:
            out.append(
                RiskSignal(
                    SignalCode.ENTITY_MISMATCH,
                    f"{entities[0]} (evidence: {', '.join(dict.fromkeys(names[:3]))})",
                )
            )
    return out


def _same_stem(a: str, b: str) -> bool:
    """Two names that open with the same four letters (`России` / `Российской`)."""
    return len(a) >= 4 and len(b) >= 4 and a[:4].lower() == b[:4].lower()


def _headline(text: str) -> bool:
    """A claim or evidence in title case (`Volcanoes Melting West Antarctic Glaciers`): its
    capitals mark no names."""
    long = [w for w in _WORD.findall(text) if len(w) > 3 and not has_cjk(w)]
    return len(long) >= 3 and sum(w[:1].isupper() for w in long) >= 0.75 * len(long)


def _emphasis(word: str) -> bool:
    """A dictionary word in capitals for emphasis (`it RESPONDS to it`), not an acronym."""
    from stream.verify.lexicon import _en_bases

    return len(word) >= 5 and word.isupper() and word.isascii() and bool(_en_bases(word.lower()))


_NUMBER_HEAD = re.compile(r"[\d.,]+|[^\W\d_]+")
_PATH = re.compile(r"(?<![\w/])/[A-Za-z0-9_.{}-]+(?:/[A-Za-z0-9_.{}-]+)*")
_ACRONYM = re.compile(r"(?<![\w-])[A-ZА-ЯЁ]{2,}(?![\w-])")


def _capitalised(text: str) -> list[str]:
    """Words capitalised as names: not the first word of a sentence, nor a function word
    (`The` after a full stop is no name)."""
    words = text.split()
    out = []
    for i, w in enumerate(words):
        bare = w.strip(".,;:()\"'")
        if (
            i > 0
            and w[:1].isupper()
            and len(bare) > 1
            and not words[i - 1].endswith((".", "!", "?", ":", ";", "»", '"'))
            and bare.lower() not in EN_STOP
            and bare.lower() not in RU_STOP
        ):
            out.append(bare)
    return out


def _merge(text: str, spans: list[tuple[int, int]]) -> list[str]:
    """Adjacent missing tokens (only spaces or punctuation between) form one part."""
    parts: list[str] = []
    start = end = -1
    for a, b in spans:
        if start >= 0 and not text[end:a].strip(" ,;:-"):
            end = b
            continue
        if start >= 0:
            parts.append(text[start:end])
        start, end = a, b
    if start >= 0:
        parts.append(text[start:end])
    return [p.strip() for p in parts if p.strip()]
