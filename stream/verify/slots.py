"""Closed-class slots of a clause: polarity, quantifier, exclusivity, conditions, modality, order.

A claim may reword its evidence freely, but these few words carry what it asserts: whether it
is negated and what the negation applies to, how much it quantifies over, under which condition
it holds, how certain or obligatory it is, and in which order things happen. They are compared
as typed values between the claim and the sentence(s) it aligns to — never with the rest of a
passage — and every difference is a risk signal naming both sides.

Equivalent forms are recognised before comparing: `not X unless Y` states the same rule as
`X only if Y` («не X, если только не Y» / «X, только если Y», 除非Y，否则不X / 只有Y才X);
`must` = `has to` = `is required to`; `will` asserts what a plain present tense asserts; a
bound phrase (`no more than`, `не более`, 不超过) is a bound, not a negation.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from stream.verify import patterns
from stream.verify.codes import SignalCode
from stream.verify.lexicon import antonyms_of, claim_keys, evidence_keys, keys, ru_lemmas, table
from stream.verify.model import RiskSignal
from stream.verify.tokens import EN_STOP, RU_STOP
from stream.verify.units import (
    AFTER,
    BEFORE,
    BOUND_AFTER_AMOUNT,
    BOUND_AFTER_HEADS,
    BOUND_NEGATION,
    EN_NUMBERS,
    HEDGE,
    INFERENCE,
    LESS,
    MAJORITY,
    MORE,
    NEGATION,
    PHRASE_AMOUNTS,
    RU_NUMBERS,
    SCOPE_WORD,
    SOME,
    UNIVERSAL,
    ZH_NEGATED_MODAL,
    WordClass,
    bounds,
    has_cjk,
    once_after,
    reaches_bound,
    scan,
    short_cache,
)

# --------------------------------------------------------------------------- word classes

POSSIBLE = WordClass.of(
    "may, might, can, could, able, allowed, permitted, possible, possibly, potentially, "
    "optionally, likely, perhaps, probably, maybe, seem, seems, seemed, appear to, appears to, "
    "appeared to, "
    "может, могут, можно, мог, могла, могли, вправе, допускается, допускаются, разрешается, "
    "разрешено, возможно, способен, вероятно, по-видимому, может быть, мочь, смочь, "
    "допускаться, разрешаться, возможный, уметь, умеет, умеют, кажется, видимо, "
    "可以, 可能, 能, 能够, 允许, 准许, 可, 有权, 或许, 也许, 大概, 支持, 似乎, 看来, 看起来",
    exclude="可能性, 不可, 可是",
)
TYPICAL = WordClass.of(
    "usually, typically, generally, normally, often, commonly, frequently, mostly, "
    "as a rule, in most cases, "
    "обычно, как правило, часто, зачастую, в основном, "
    "通常, 一般, 往往, 经常, 大多, 一般来说",
)
OBLIGATION = WordClass.of(
    "must, shall, required, requires, mandatory, obliged, obligated, necessary, "
    "have to, has to, had to, need to, needs to, "
    "должен, должна, должно, должны, обязан, обязана, обязаны, обязательно, необходимо, "
    "нужно, надо, требуется, требуются, должный, обязанный, обязать, требоваться, "
    "придётся, придется, прийтись, "
    "необходимый, нужный, обязательный, следует, следовать, "
    "必须, 务必, 须, 必需, 应当, 应, 需要, 需, 得, 要求",
    exclude="需要的, 得到, 获得, 取得, 得以, 记得, 觉得, 值得, 使得, 显得, 懂得, 应用, 相应, "
    "反应, 供应, 适应, 响应, 效应, 对应, 应对, 应该",
)
ADVICE = WordClass.of(
    "should, recommended, advisable, ought, advised, encouraged, "
    "рекомендуется, рекомендуем, рекомендовано, желательно, стоит, советуем, "
    "应该, 建议, 最好, 宜",
)
GUARANTEE = WordClass.of(
    "guaranteed, guarantees, guarantee, ensures, ensure, definitely, certainly, always, "
    "гарантирует, гарантированно, гарантировано, гарантия, всегда, несомненно, непременно, "
    "一定, 必然, 必定, 保证, 肯定, 绝对, 确保, 总是, 始终",
)
_HEDGE_NOUNS = frozenset({"plans", "attempts", "hopes", "wishes"})
"""Hedge verbs that are as often plural nouns (`two membership plans`): a hedge only before
an infinitive or an object (`plans to open`, `plans a new library`)."""
_HEDGE_VERB_AFTER = {
    w: re.compile(
        rf"(?<![\w-])(?<!\d )(?<!failed )(?<!unsuccessful )(?<!delivery )"
        rf"{w}\s+(?:to|a|an|the|its|their|his|her|our|my|your)(?![\w-])"
    )
    for w in _HEDGE_NOUNS
}
"""Not after a count or a kind of attempt (`after 2 failed attempts the parcel is …`)."""
_TIME_TO_ACT = re.compile(
    r"(?<![\w-])(?:have|has|get|gets|given)\s+(?:(?:a|an|up\s+to|at\s+least)\s+)?"
    r"[\w-]+(?:\s+[\w-]+){0,3}?\s+(?:days?|weeks?|months?|hours?|minutes?|window|period)"
    r"(?:\s+\w+){0,6}?\s+to\s+[a-z]+"
    r"|(?<![\w-])(?:у\s+(?:вас|вами|клиента|вас\s+будет)\s+)?(?:есть|будет|даётся|дается)\s+"
    r"[^.,;]{1,40}?,\s+чтобы\s+[а-яё]+(?:ть|ться|ти)(?![\w-])",
    re.IGNORECASE,
)
"""An amount of time given to act (`you have ten working days to ask for a review`, `у вас
есть две недели, чтобы оформить возврат`): what `may … within` permits, said as a window."""
_BY_INITIATIVE = re.compile(r"(?<![\w-])по\s+инициативе(?![\w-])")
"""`по инициативе ученика`: whose decision it is, no proposal (`выдвинули инициативу`)."""
_FUTURE = WordClass.of(
    "will, shall, будет, будут, станет, 会, 将, 将会",
    # words whose 会 or 将 is a meeting, a society or a member, not `will`
    exclude="会员, 会籍, 会议, 会计, 会长, 会场, 会所, 会谈, 会见, 会面, 会诊, 会签, 会费, "
    "机会, 社会, 大会, 协会, 学会, 委员会, 工会, 国会, 约会, 聚会, 宴会, 晚会, 开会, 体会, "
    "误会, 理会, 将军, 将领",
)
STRICT = WordClass.of(
    "必须, 务必, 必需, 须, 一定要, обязательно, непременно, mandatory, compulsory",
    exclude="无须, 无需, 不须, 须知",
)
"""The strongest obligation words: `必须` (and its formal short form `须`) says more than `应`
or `需要`."""
MODALITY: dict[str, WordClass] = {
    "possible": POSSIBLE,
    "typical": TYPICAL,
    "obligation": OBLIGATION,
    "strict": STRICT,
    "advice": ADVICE,
    "guarantee": GUARANTEE,
}
HEDGED = frozenset({"possible", "typical", "advice"})
_FIRM = frozenset({"obligation", "strict", "guarantee"})
"""Kinds that state less than a plain assertion: evidence that only says X may, usually or
should happen does not say that X happens."""

EXCLUSIVE = WordClass.of(
    "only, solely, exclusively, только, лишь, исключительно, 仅, 只, 仅仅, 唯一, 只能, 仅限",
    exclude="只有, 只要, 仅当",
)
BOUND_PHRASES = WordClass.of(
    "no more than, not more than, no less than, not less than, no later than, not later than, "
    "no less often than, not less often than, no more often than, not more often than, "
    "no earlier than, no fewer than, not exceed, not to exceed, does not exceed, "
    "never less than, never more than, never fewer than, never later than, never earlier than, "
    "never longer than, as many as, as much as, as long as, for as long as, "
    "never exceeds, never exceed, never goes above, never go above, never goes over, "
    "never go over, never goes beyond, never rises above, "
    "may not exceed, must not exceed, at most, at least, up to, a maximum of, a minimum of, "
    "no longer than, not longer than, smaller than, larger than, bigger than, shorter than, "
    "longer than, lower than, higher than, greater than, less than, fewer than, more than, "
    "limited to, capped at, младше, моложе, старше, younger than, older than, cheaper than, "
    "не исполнилось, не исполнился, не исполнилась, "
    "no younger than, not younger than, no older than, not older than, "
    "no larger than, not larger than, no bigger than, not bigger than, no heavier than, "
    "not heavier than, no wider than, not wider than, no higher than, not higher than, "
    "no taller than, not taller than, no greater than, not greater than, no smaller than, "
    "not smaller than, no shorter than, not shorter than, no lower than, not lower than, "
    "no lighter than, not lighter than, no sooner than, not sooner than, limit of, cap of, "
    "ceiling of, по крайней мере, по меньшей мере, хотя бы, "
    "more expensive than, less expensive than, дороже, дешевле, "
    "не ближе, не дальше, не реже, не чаще, "
    "как минимум, минимум, "
    "максимум, как максимум, не менее чем, не более чем, "
    "свыше, более, больше, менее, меньше, более чем, больше чем, менее чем, меньше чем, "
    "至少, 最多, 至多, 最少, 不超过, 以内, 以上, 以下, 之内, 超过, 低于, 高于, 少于, 多于, "
    "не более, не больше, не менее, не меньше, не позднее, не позже, не ранее, не раньше, "
    "не дольше, не свыше, не превышает, не превышать, не позднее чем, не позже чем, "
    "не ранее чем, не раньше чем, ограничен, ограничена, ограничено, ограничены, "
    "不超过, 不少于, 不低于, 不高于, 不多于, 不晚于, 不早于, 不大于, 不小于, "
    "不能超过, 不得超过, 不可超过, 不应超过, 不能大于, 不得大于, 不可大于, 不能高于, 不得高于, "
    "不能少于, 不得少于, 不能低于, 不得低于, 不能小于, 不得小于, 未满, 不满, 不足, 不到, 未超过, "
    "不会超过, 不会多于, 不会高于, 不会少于, 不会低于, "
    "最长, 最短, 最晚, 最迟, 最早, 达到",
)
"""Bounds written with a negation word: the negation belongs to the bound."""

# conditions: `onlyif` is a necessary condition, `if` a sufficient one, `except` an exception
_ONLY_IF = (
    "only if", "only when", "only provided", "only where", "only in case", "only with",
    "only after", "only upon", "only on request",
    "только если", "только при условии", "лишь при условии", "только в случае", "лишь если",
    "только после", "лишь после", "только по", "только при", "лишь при", "только с",
    "только в том случае", "лишь в случае", "лишь в том случае", "лишь по", "лишь с",
    "只有", "仅当", "仅在", "只在", "只能在", "须经", "必须经",
    "仅供", "仅限", "只供", "只限",
    # `only` before a time or place phrase: `only permitted during the family session`
    "only during", "only once", "only between", "only within", "only until",
    "только во время", "только в течение", "только после того",
)  # fmt: skip
_UNLESS = (
    "unless", "except if", "except when", "except where",
    "если только не", "за исключением случаев, когда", "кроме случаев, когда",
    "за исключением случаев", "кроме случаев", "если иное не", "除非",
    # `must be returned full, otherwise X` states `X unless returned full`
    "otherwise", "or else", "иначе", "в противном случае",
)  # fmt: skip
_IF = (
    "if", "in case", "whenever", "as long as", "so long as", "если", "в случае", "если же",
    "при наличии",
    "如果", "若", "假如", "倘若", "一旦", "的话", "只要",
)  # fmt: skip
_PROVISO = (
    "provided that", "provided", "on condition that", "subject to", "depending on",
    "при условии, что", "при условии", "при том условии", "в зависимости от",
    "前提是", "视情况",
    # a companion the statement needs: `children enter free when accompanied by an adult`
    "accompanied by", "in the company of", "in the presence of", "в сопровождении",
    "в присутствии", "陪同下", "陪同",
    # a time the statement is limited to: `nobody may work alone outside normal hours`
    "outside normal hours", "outside business hours", "outside opening hours",
    "outside office hours", "outside working hours", "в нерабочее время",
    "вне рабочего времени", "非工作时间", "非营业时间",
)  # fmt: skip
"""`provided`, `as long as` are read both ways in practice: they agree with `if` and `only if`."""
_EXCEPT = (
    "except", "except for", "excluding", "with the exception of", "other than", "apart from",
    "кроме", "за исключением", "исключая", "除了", "除外", "以外的", "不包括",
)  # fmt: skip
_UNTIL = ("until", "till", "пока не", "до тех пор, пока", "до тех пор пока", "直到", "直至")


def _alternation(phrases: Iterable[str], ahead: Iterable[str] = ()) -> re.Pattern[str]:
    """Whole-word phrases (longest first), `ahead` words only before an amount, and CJK
    phrases. The word-start test and a first-letter filter come once, ahead of the branches:
    Python's engine tries every branch at every position, and branches each opening with a
    lookbehind made the bound pattern most of the gate's time on long evidence."""
    phrases = tuple(phrases)
    latin = sorted((p for p in phrases if not has_cjk(p)), key=len, reverse=True)
    words = sorted(ahead)
    cjk = sorted((p for p in phrases if has_cjk(p)), key=len, reverse=True)
    branches = [rf"{patterns.words(latin)}(?![\w-])"] if latin else []
    branches += [rf"{patterns.words(words)}{_NUMBER_AHEAD}"] if words else []
    parts = [patterns.words(cjk)] if cjk else []
    if branches:
        firsts = re.escape("".join(sorted({p[0] for p in (*latin, *words)})))
        parts.insert(0, rf"(?<![\w-])(?=[{firsts}])(?:{'|'.join(branches)})")
    return re.compile("|".join(parts))


_PROVIDED_VERB = re.compile(
    r"provided(?:\s+(?:by|for|with|to|in|on|at|free|upon)\b|\s*[.,;:]|\s*$)"
)
_BE_BEFORE = re.compile(r"\b(?:is|are|was|were|be|been|being)\s+$")
"""`provided` as a participle (`provided by`, `is provided.`), not the proviso `provided (that)`."""
_EXCEPT_RE = _alternation(_EXCEPT)
_ONLY_BEFORE = re.compile(r"(?<![\w-])(?:только|лишь|only)\s+$")
"""`only` right before a proviso (`только в сопровождении`) makes it necessary."""
_ZH_EXCEPT = re.compile("除(?!非)[^，。；,;]{1,24}?[外以]")
_ZH_EXCEPTED_AFTER = re.compile("[，,；;][^，。；,;]{1,24}?(例外|除外)(?=[。；;！!]|$)")
"""`…，执行任务的救护车等特种车辆例外`: the excepted case named before `例外` that closes the
sentence."""
_RU_UNIT_WORDS = ("час", "сутки", "неделю", "месяц", "год", "минуту", "раз", "день")
"""Bare units that count one (`минимум на сутки`, `максимум час`)."""
_NUMBER_AHEAD = (
    r"(?=\s+(?:(?:в|за|на)\s+)?(?:[$€£¥]\s?)?(?:\d|(?:"
    + patterns.words((*RU_NUMBERS, *PHRASE_AMOUNTS, *_RU_UNIT_WORDS))
    + r")(?![\w-])))"
)
_BOUND_PHRASE_RE = _alternation((*BOUND_PHRASES.phrases, *BOUND_PHRASES.cjk), BOUND_PHRASES.words)
"""Bound phrases anywhere; single bound words (`минимум`, `младше`) only before an amount,
where they bound it: elsewhere they are content words a claim must keep."""
_CONDITION_RES = tuple(
    (
        kind,
        tuple(sorted({p.split()[0] if not has_cjk(p) else p for p in phrases})),
        _alternation(phrases),
    )
    for kind, phrases in (
        ("onlyif", _ONLY_IF),
        ("proviso", _PROVISO),
        ("unless", _UNLESS),
        ("until", _UNTIL),
        ("except", _EXCEPT),
        ("if", _IF),
    )
)
"""(kind, first words that must occur for the pattern to be tried, pattern)."""
_ONLY_PREP = re.compile(
    r"\b(only|только|лишь)\b(?:\s+[^\s,;□\d]+){0,3}?\s+"
    r"(during|within|between|on|in|at|after|until|with|во время|в течение|после|в|во|на|при)\b"
)
"""`only permitted during Y`, `разрешено только после Y`: `only` a few words before a time,
place or means phrase states a necessary condition, as `only if` does."""
_PREP_ONLY = re.compile(
    r"\b(during|within|between|on|in|at|after|until|with)\b((?:\s+[^\s,;□\d]+){1,3}?)"
    r"\s+(only)\b(?=\s*(?:[.,;!?]|$))"
)
"""`booked on direct flights only`: the postposed `only` of a time, place or means phrase."""
_ONLY_SPLIT = re.compile(r"\b(?:only|только|лишь)\b(?:\s+[^\s,;]+){1,7}?\s+□")
"""`only` a few words before a masked `if`: `should only be given to children if …`."""
_WITHIN_OF = re.compile(
    r"(?<![\w-])(?:within|in)\s+(?:\S+\s+){1,3}?(?:of|from)\b"
    r"|в течение\s+(?:\S+\s+){1,3}?(?:с момента|со дня|с даты)"
)
"""`within 14 days of receiving` counts from the event: it says `after`."""
_NEGATED_BOUND = re.compile(
    rf"(?P<neg>{BOUND_NEGATION})(?P<between>(?:\s+{SCOPE_WORD}){{0,4}}?)\s+"
    r"(?P<bound>beyond|longer than|more than|over|later than|past|less than|fewer than|"
    r"(?:larger|bigger|greater|higher|heavier|wider|taller|smaller|shorter|lower|lighter)"
    r" than|under|below|earlier than|больше|более|дольше|свыше|позже|позднее|чаще|меньше|менее|"
    r"раньше|ранее|реже|exceed|превышать|превышает|превышают|превысить|превысит|превысят)\s+"
    r"(?=[\d$€£]|(?:" + patterns.words((*EN_NUMBERS, *RU_NUMBERS)) + r")(?![\w-])"
    r"|(?:недел[июе]|месяца|суток|года|часа|дня)(?![\w-])"
    r"|(?:a|an|one)\s+(?:minute|hour|day|night|week|month|year)(?![\w-]))"
)
"""`not retained beyond 7 days`, `cannot be refilled earlier than a week before`, `do not take
the tablets for more than 3 days`, `нельзя принимать больше 8 таблеток`, `не дольше недели` (a
bare unit or `a week` counts one): the negation is the bound's (the number is bounded from
above), not a negated predicate; the words between stay content."""
_ZH_NEGATED_BOUND = re.compile(
    rf"{ZH_NEGATED_MODAL}(?=[^，。；,;：:\d]{{0,8}}?(?:超过|多于|高于|大于|少于|低于|小于)\s?"
    r"(?:\d|[一二两三四五六七八九十百千万半]))"
)
"""`不能连续使用超过3天` bounds the days from above: the prohibition is the bound's."""
_IMPERATIVE = re.compile(
    r"^\s*(?:do not|don't|never|always|please\s+)?(?:take|use|store|keep|leave|stop|see|"
    r"replace|flush|run|install|contact|call|send|submit|report|attach|read|check|avoid|"
    r"make sure|ensure|wash|do)\b|^\s*(?:не\s+)?\w+(?:йте|ите)\b|^\s*(?:请|勿|不要|切勿|务必|禁止)",
    re.IGNORECASE,
)
"""An instruction states an obligation: `Do not take more than 6 tablets` = `you must not`."""
_RU_FIRST_WORD = re.compile(r"^\s*(?:не\s+)?([А-ЯЁ][а-яё]+(?:ть|ться|чь|тись))\b")


def _opens_sentence(text: str) -> bool:
    """The text starts a sentence (a capital, or Chinese), not a clause cut from one: `use of
    tobacco and alcohol` after `are against the production and` is no instruction."""
    first = next((c for c in text if c.isalpha()), "")
    return first.isupper() or has_cjk(first)


def _opens_with_infinitive(text: str) -> bool:
    """A Russian rule opening with an infinitive (`Хранить при температуре…`) is an
    instruction; pymorphy3 tells the verb from a noun of the same ending (`Честность`)."""
    m = _RU_FIRST_WORD.match(text)
    return m is not None and any(pos == "INFN" for _, pos in ru_lemmas(m.group(1).lower())[:1])


@dataclass(frozen=True, slots=True)
class Slots:
    """The closed-class values of one text (a claim, or the sentences a claim aligns to)."""

    negated: tuple[tuple[frozenset[str], str], ...]
    """(keys of the negated word, the negation as written); after condition forms."""
    quantified: tuple[tuple[int, str, frozenset[str]], ...]
    """(rank: 3 universal, 2 majority, 1 some; the quantifier; keys of what it quantifies)."""
    content: frozenset[str]
    """Keys of every word: what the text talks about at all."""
    exclusive: tuple[str, ...]
    conditions: Mapping[str, str]
    condition_content: Mapping[str, frozenset[str]]
    """Keys of what a sufficient condition (`if Y`) says: a claim that states Y as a
    restriction of its subject (`a product bought at a discount` for `if it was bought at a
    discount`) keeps the condition."""
    modality: Mapping[str, str]
    order: Mapping[str, str]
    inference: tuple[str, ...]
    hedge: tuple[str, ...]
    future: str = ""
    """A future marker of the claim (`will`, `будет`, 会): no modality, but named when it
    states as certain what the evidence says may happen."""
    contrasted: tuple[tuple[frozenset[str], str], ...] = ()
    """Negations of a word the text also states without one, with an object of their own
    (`не принадлежит государству, она принадлежит народу`): `not X but Y`."""
    conditioned: tuple[tuple[frozenset[str], str], ...] = ()
    """Negations inside a condition clause (`if the item is not damaged`): the text does not
    assert them."""
    if_negated: tuple[tuple[frozenset[str], str], ...] = ()
    """The one negation inside an `if` clause (`if the item is not damaged`): `if not Y, X`
    may restate the evidence's `X unless Y`."""
    main_negated: bool = False
    """A negation outside every condition clause."""
    sufficient: str = ""
    """A word that states a condition as enough (`as long as`, 只要, 就可以, `достаточно`)."""
    restricted: str = ""
    """The negation of a negated restriction of the subject followed by a negated rule
    (`未通过认证的用户不能调用`): it may state `only … can` (X only if Y)."""
    entitled: bool = False
    """A permission that grants a benefit (`可享受5天年假`, `may enjoy`): an entitlement, which
    a claim may state plainly (`有5天年假`), not a hedge."""
    negation_objects: frozenset[str] = frozenset()
    """Keys of the content words right after each negation (`don't count toward the
    per-minute limit`: per-minute, limit): what a denying verb must deny for the two to be
    read as one statement."""
    denied: frozenset[str] = frozenset()
    """Keys of what a verb denies without a negation word (`is excluded from the per-minute
    limit`, `освобождены от платы`): a claim's negation of the same thing may restate it."""
    definite: frozenset[str] = frozenset()
    """Keys of the words of English noun phrases opened by a definite word (`the production
    rate limit`): a claim's `any` of them widens a particular thing, not a rule's bare noun."""
    bare_negated: frozenset[str] = frozenset()
    """Keys of the Chinese words a negation governs with no `的` modifier between (`不得携带动物`,
    not `不计入正式环境的配额`): `不…任何 X` says no more than that."""
    negated_only: tuple[tuple[str, frozenset[str]], ...] = ()
    """(a Chinese negation as written, the words of its scope the text states nowhere else):
    `不接受现金押金` says nothing of cash but that it is refused."""
    capped: frozenset[str] = frozenset()
    """Number tokens the text bounds from above (`up to 8`, `не более 8`, `must not take more
    than 8`): a permission with a cap (`may take up to 8`) states the cap."""
    privative: frozenset[str] = frozenset()
    """Keys of the stem of each word negated by its prefix (`unknown`: know, `недоступен`:
    доступен): `will remain unknown to you` says what `you will not know` says."""
    case_numbers: frozenset[str] = frozenset()
    """The numbers of the `if` clause: a case restated in other words keeps its amounts
    (`если вы задержите книги больше чем на 60 дней` / `если просрочка превышает 60 дней`)."""
    ruled: tuple[tuple[frozenset[str], str], ...] = ()
    """The negation an `unless` form took into its `only if` (`除非Y，否则不能携带`): the text
    still denies that predicate outside the condition, so the evidence's negation of it
    (`禁止携带`) is met."""
    restricting: tuple[tuple[frozenset[str], str], ...] = ()
    """Negations inside a Chinese `…的，` subject (`未购买的，须承担免赔额`): they say whom the
    rule applies to, as a condition does, and assert nothing of a claim about the others."""
    retrospective: str = ""
    """A phrase placing what the text reports in the past (`so far`, `in earlier studies`,
    `до сих пор`, 此前): an observation, which a claim's `will` turns into a prediction."""
    besides: frozenset[str] = frozenset()
    """Keys of what `besides`/`помимо`/`in addition to` adds to: a claim's `кроме X,` (which
    reads as `except` or as `besides`) is the evidence's `помимо X,` when X is the same."""
    otherwise: frozenset[str] = frozenset()
    """Keys of the words before `otherwise` (否则, иначе): `confirm within 10 days, otherwise
    it counts as withdrawn` says what `those who have not confirmed are deemed to withdraw`
    says, so the evidence's negation of what comes before it is the claim's too."""


_NEG_SKIP = frozenset(
    """be is are was were been being do does did have has had can could will would should must
    may might also even only yet always ever really necessarily to a an the any it them they
    him her he she its their него нему ним нём нем неё нее ней них ними его её ее их он она
    оно они
    был была было были быть будет будут является являются даже также ещё еще всегда
    eligible entitled""".split()
)
"""Words a negation passes over to what it negates (`not eligible for paid leave`: paid leave,
as `not allowed to take leave` negates taking it)."""
_ZH_NEGATION_HEAD = re.compile("^(?:不予|不得|不能|不会|没有|不|没|未|无|非)+")
_ZH_SINGLE = "zh1:"
"""Key prefix of a negated Chinese verb of one character (`不赔`)."""
_ZH_NEG = re.compile(
    "没有|并非|无法|不能|不是|不会|不得|不准|不许|禁止|严禁|违规|违章|不|没|未|无|非|别|勿"
)
_FREQUENCY_PHRASE = re.compile(
    r"\b(?:every|each|каждые|каждый|каждую|каждое)\s+(?:"
    # what may stand between: an amount and its adjectives (`every full 12 hours`, `каждый
    # рабочий день`), never a noun and a verb (`each membership includes 4 hours`)
    r"(?:[\d,.–-]+|to|or|and|и|или|a|an|one|two|three|four|five|six|seven|eight|nine|ten|"
    r"eleven|twelve|[a-z]+(?:teen|ty)|half|other|few|couple|of|[a-z]+(?:ing|ess|ar|al|nd|rd|th|"
    r"ent|ll|ive|ra|er|ull)|\w+(?:ых|ые|ий|ый|ой|ую|ое|ие|ая|ого)|пол\w*|"
    r"один|одна|одну|два|две|три|четыре|пять|шесть|семь|восемь|девять|десять|\w+дцать|сорок|"
    r"сто)\s+){0,3}?(?:second|minute|hour|day|night|morning|evening|"
    r"week|weekday|weekend|month|quarter|year|time|session|shift|"
    r"секунд|минут|час|день|дня|дней|ночь|сутки|суток|недел|месяц|квартал|год|лет|раз)[a-zа-яё]*"
    r"|每(?:\d+)?"
)
"""`every 12 hours`, `каждый день`: a frequency, not a quantifier (`every visit` is one)."""
_MASK = "□"


def _mask(text: str, pattern: re.Pattern[str]) -> str:
    return pattern.sub(lambda m: _MASK * len(m.group()), text)


@short_cache(maxsize=2048)
def slots_of(text: str) -> Slots:
    """Slots of `text` (a claim, or the clauses of its evidence that carry it)."""
    return _slots(text)


@short_cache(maxsize=2048)
def _condition_scan(lowered: str) -> tuple[dict[str, str], str, dict[str, int]]:
    """Condition kinds found (kind -> word), the text with them masked, and where each
    kind's first condition word starts."""
    found: dict[str, str] = {}
    where: dict[str, int] = {}
    masked = lowered
    for kind, heads, pattern in _CONDITION_RES:
        if not any(h in masked for h in heads):
            continue
        spans = []
        for m in pattern.finditer(masked):
            if m.group() == "provided" and (
                _PROVIDED_VERB.match(masked, m.start())
                or _BE_BEFORE.search(masked, max(0, m.start() - 8), m.start())
            ):
                continue  # `a car provided by the employer`, `food is provided`: a verb
            if m.group() == "apart from" and masked[: m.start()].rstrip()[-1:] not in (
                "",
                ",",
                ";",
            ):
                continue  # `societies fall apart from war`: no exception
            spans.append(m.span())
            if kind not in found:
                found[kind] = m.group()
                where[kind] = m.start()
        for a, b in spans:
            masked = masked[:a] + _MASK * (b - a) + masked[b:]
    if (
        "if" not in found
        and found.get("proviso") in _PROVIDED_NOT
        and _NEGATED_PROVISO.match(lowered, where["proviso"])
    ):
        # `provided no other member has placed a hold`: a sufficient case stated with a
        # negation, as `if no …` is (which may restate `unless …`)
        found["if"] = found.pop("proviso")
        where["if"] = where.pop("proviso")
    only = (
        _ONLY_BEFORE.search(lowered, max(0, where["proviso"] - 8), where["proviso"])
        if "proviso" in found and "onlyif" not in found
        else None
    )
    if only is not None:
        # `только в сопровождении взрослого`: a necessary proviso, as `only if accompanied`
        found["onlyif"] = only.group().strip()
        where["onlyif"] = where["proviso"]
    if has_cjk(masked):
        zh = _ZH_EXCEPT.search(masked)  # 除驾驶员外: an exception around the excepted noun
        if zh is not None:
            found.setdefault("except", "除…外")
            where.setdefault("except", zh.start())
            masked = masked[: zh.start()] + _MASK + masked[zh.start() + 1 :]
        else:
            zh = _ZH_EXCEPTED_AFTER.search(masked)  # 特种车辆例外: the same, said after it
            if zh is not None:
                found.setdefault("except", "除…外")
                where.setdefault("except", zh.start(1))
                masked = masked[: zh.start(1)] + _MASK * 2 + masked[zh.end(1) :]
    return found, masked, where


_PRIVATIVE = re.compile(r"^(?:un|не)(?=[a-zа-яё]{4,}$)")


def _privative(words: Iterable[str]) -> frozenset[str]:
    """Keys of the stems of the text's privative qualifiers (`unknown` -> know)."""
    found: set[str] = set()
    words = list(words)
    for i, w in enumerate(words):
        if w == "unable" and words[i + 1 : i + 2] == ["to"] and i + 2 < len(words):
            # `is unable to recover it` says what `cannot recover it` says
            found.update(keys(words[i + 2]))
        if (
            w.endswith(("ed", "en"))
            and w.isascii()
            and w not in _GRADED_QUALIFIERS
            and _qualifier(w)
        ):
            # `closed` says `not open`, `excluded` `not included`: a state's WordNet antonym
            # is what the word negates (a participle's or `open`'s: states with no middle, not
            # `warm` for `not cool` or `lower` for `not higher`)
            for opposite in antonyms_of(w) - _GRADED_QUALIFIERS:
                found.update(keys(opposite))
        m = _PRIVATIVE.match(w)
        if m is None or w in NEGATION.words:
            continue
        stem = w[m.end() :]
        if _qualifier(w) and _qualifier(stem):
            found.update(keys(stem))
    return frozenset(found)


_GRADED_QUALIFIERS = frozenset(
    """more less higher lower greater smaller larger bigger longer shorter earlier later
    early late high low many few much little increased decreased""".split()
)
"""Qualifiers with a middle between them and their antonym."""
_RU_QUALIFIERS = frozenset({"ADJF", "ADJS", "ADVB", "PRTF", "PRTS", "PRED"})


def _qualifier(word: str) -> bool:
    """An adjective, participle or adverb the lexicon knows (`known`, `доступен`): what a
    privative prefix negates (not `undertake`, `неделя`)."""
    if word.isascii():
        known = any(k.startswith("en") for k in keys(word))
        return known and word not in table("en").pos.get("v", ())
    return any(pos in _RU_QUALIFIERS for _, pos in ru_lemmas(word)[:1])


def _case_numbers(lowered: str, at: int | None, clauses: list[tuple[int, int]]) -> frozenset[str]:
    """The digits of the condition clause starting at `at`."""
    span = next(((a, b) for a, b in clauses if a == at), None)
    return frozenset(_DIGITS.findall(lowered[span[0] : span[1]])) if span else frozenset()


_DIGITS = re.compile(r"\d+(?:[.,]\d+)?")
_PROVIDED_NOT = frozenset({"provided", "provided that", "при условии, что", "при условии"})
_NEGATED_PROVISO = re.compile(
    r"[^,;.!?]*?(?<![\w-])(?:no|not|never|don't|doesn't|не|нет)(?![\w-])", re.IGNORECASE
)
_CLAUSE_END = re.compile(r"[,;.!?，；。！？:：]|\s(?:then|то|тогда)\s|否则|则|才")
_WITHOUT = ("without", "без", "没有经过", "没有")
_HAVING = frozenset({"have", "has", "having", "had", "with"})
"""Before `no`, a privative: `have no permit`, `with no receipt` say `without`."""
_COORDINATORS = frozenset({"and", "or", "и", "или"})
_BOTH_AND = re.compile(r"(?<![\w-])both(?=(?:\s+[^\s,;.]+){1,4}?\s+and(?![\w-]))")
"""`both weekdays and weekends`: a correlative conjunction, not the quantifier `both`."""


def _capped(text: str, lowered: str, modal: str | None) -> frozenset[str]:
    """Number tokens bounded from above; with a `may`, only those after it, which it governs
    (`may take up to 8`, not `photos below 1000 px may be blurred`)."""
    capped = [t for t, kinds in bounds(text).items() if "upper" in kinds]
    if modal is None or not capped:
        return frozenset(capped)
    if _CHANGED_TO.search(lowered):
        return frozenset()  # `может снижаться до 720p`: the modal hedges a change, caps nothing
    at = lowered.find(modal)
    return frozenset(t for t in capped if at < 0 or lowered.find(t[1:], at) >= 0)


_CHANGED_TO = re.compile(
    r"(?<![\w-])(?:сниж\w*|сниз\w*|уменьш\w*|увелич\w*|повыш\w*|повыс\w*|сокра[тщ]\w*|"
    r"пада\w*|упад\w*|decreas\w*|reduc\w*|drop\w*|fall\w*|fell|rise\w*|rising|rose|"
    r"increas\w*|rais\w*|lower\w*|cut)(?:\s+[^\W\d_]+)?\s+(?:до|to|down to|up to)\s+\d",
    re.IGNORECASE,
)
"""`может снижаться до 720p`, `may drop to 5 Mbps`: the end point of a change, not a cap the
modal grants (`may take up to 8 tablets`)."""


_ZH_BOUNDED_ONLY = re.compile(r"(?:最多|至多)只能|只能[^，。；\d]{0,6}?\d")
"""`最多只能携带2个`: 只能 is part of the bound on the amount, not an exclusive of its own."""
_ZH_ONLY_THEN = re.compile(
    "[\u4e00-\u9fff]{2}(?:后|以后|之后|时)?才(?:能|可以|可)|[\u4e00-\u9fff]{2}(?:后|以后|之后)方可"
)
"""`X后才能Y`, `X后方可Y`: Y only after X, a necessary condition even without 只有."""
_ENTITLED = re.compile(
    r"(?:可以|可|能够|有权)(?:享受|享有|领取)|\b(?:may|can)\s+enjoy\b"
    r"|(?:может|могут|можете|вправе)\s+(?:пользоваться|воспользоваться)"
)
_UPON = re.compile(
    r"(?<![\w-])(?:upon|on)\s+[a-z]+ing\b|(?<![\w-])при\s+[а-яё]+(?:ии|ке|те|де)(?![\w-])"
    r"|[\u4e00-\u9fff]{2}时[，,]"
)
"""The time of an event (`upon exceeding`, `при превышении`, `超出限制时，`): what the text
says happens then follows it, as `after exceeding` says."""
_NEGATED_RESTRICTIVE = re.compile(
    r"[^，。,.]{0,10}?(未|没有|没|不)[^，。,.的不没未]{1,12}的(?=[^，。,.]{1,8}(?:不|没|未|无法))"
    r"|(?:[\w-]+\s+){1,4}(?:who|that)\s+(?:(?:have|has|had|do|does|did|are|is|were|was)\s+(not)\b"
    r"|(haven't|hasn't|hadn't|don't|doesn't|didn't|aren't|isn't|weren't|wasn't)(?![\w']))"
    r"|[\w-]+(?:\s+[\w-]+)?,?\s+(не)\s+[\w-]+[шщ](?:ий|ая|ее|ие|его|ей|их|им|ими|ую|ем)(?![\w-])"
)
"""A subject restricted by a negated relative clause or participle at the head of a text."""
_ZH_WITHOUT = re.compile("未经|未获|没有经过")
"""`未经Y，不得X` (without Y, no X): X only if Y."""
_NEGATED_MODAL = re.compile(
    r"\b(?:need not|needn't|do not need to|does not need to|don't need to|doesn't need to|"
    r"do not have to|does not have to|don't have to|doesn't have to|not required to|"
    r"not obliged to|not obligated to|"
    r"не нужн[оаы]|не нужен|не надо|не обязан\w*|не требу(?:ется|ются)|не обязательн\w*|"
    r"не должен\w*)\b"
    r"|不需要|无需|不必|不用|无须|不须|不一定"
)
"""A negated obligation (`need not`, `не нужно`, 不需要) removes the obligation and negates what
follows: `does not need to pay` says `does not pay` (as far as a gate can tell)."""
_NEGATED_POSSIBLE = re.compile(
    r"\b(?:not|never)\s+(?:be\s+)?(?:able|allowed|permitted|possible)\b|\b(?:may|can|could)\s+not\b"
    r"|\bне\s+(?:может|могут|можете|можно|мочь|сможет|смогут|допускается|разрешается)\b"
    r"|不能|不可以|不可|无法|没法|不允许|不得|不准|不支持|不予"
)
_EPISTEMIC = frozenset(
    """possibly potentially likely perhaps probably maybe возможно вероятно по-видимому
    可能 或许 也许 大概 似乎 看来""".split()
) | {"может быть"}
"""Hedges on what is so, not permissions: `可能无法清除` (may not come off) stays hedged."""
_QUESTION = re.compile(r"[?？]")
"""A question asserts nothing: a claim taken from one goes beyond it."""
_COUNTED_FROM = re.compile(
    r"(?<![\w-])(?:с момента|со дня|с даты|from the (?:date|day|moment|time) of)(?![\w-])"
    r"|之日起|起算"
)
"""The event a period counts from (`действует 24 часа с момента первого входа`, `from the date
of purchase`, 自购买之日起): after it."""
_BEFORE_NOUN = re.compile(
    r"(?<![\w-])до\s+(?!(?:" + patterns.words(RU_NUMBERS) + r")(?![\w-]))(?=[а-яё])"
)
"""`до отправки` is `before sending`; `до 20 дней` is a bound, not an order."""


def _clauses(masked: str, lowered: str) -> list[tuple[int, int]]:
    """Spans of the condition clauses: from a masked condition word to the clause's end."""
    spans = []
    for m in re.finditer(f"{_MASK}+", masked):
        end = _CLAUSE_END.search(lowered, m.end())
        spans.append((m.start(), end.start() if end else len(lowered)))
    return spans


_IF_ONLY_NOT = re.compile(r"((?:если|□+)\s+)(только)(?=(?:\s+[^\s,;.]+){0,4}?\s+не\s)")
"""`если только … не` (unless): its `только` restricts nothing."""
_NOT_ONLY = re.compile(r"(?<![\w-])(?:not\s+(?:only|just|merely)|не\s+только)(?![\w-])")
"""`not only X (but also Y)`, `не только`: adds, as 不仅 does; it negates nothing."""
_IMPLICATIVE = re.compile(
    r"(?<![\w-])(?:(?:forgot|forgets|forgotten|failed|fails|refused|refuses|neglected|neglects|"
    r"declined|declines)\s+to"
    r"|(?:забыл|забыла|забыли|забыло|отказался|отказалась|отказались|отказалось)"
    r"(?=\s+[а-яё]+(?:ть|ться|ти|чь)(?![\w-])))(?![\w-])"
)
"""Verbs that imply their complement did not happen (`forgot to close` = `did not close`,
`отказалась сообщить` = `не сообщила`). Not `не смог`: `я бы не смог` is a conditional."""
_IMPLICATIVE_HEADS = ("forg", "fail", "refus", "neglect", "declin", "забыл", "отказал")
"""Substrings every implicative has: a C-speed test before the pattern runs."""


_UNTIL_NOT = re.compile(
    r"(?<![\w-])пока(?:\s+[\w-]+){0,3}?\s+(не)(?![\w-])"
    r"(?!\s+(?:было|был|была|были|будет|бывает)(?![\w-]))"
)
"""`пока … не` (until): a time before the event, no negation of it. Not `пока его не было`
(while he was away): a negated existence is one."""
_CONTRASTIVE = re.compile(r"(?<![\w-])(?:rather than|instead of|вместо)(?![\w-])")


def _contrastive_negation(m: re.Match[str], text: str) -> str:
    """`rather than`, `вместо` as a negation of the same length (offsets stay the text's);
    not after a preference (`prefers OAE rather than audiometry` ranks, it denies nothing)."""
    if _PREFERENCE.search(text, max(0, m.start() - 80), m.start()):
        return m.group()
    word = "не" if m.group()[:1] >= "\u0400" else "not"
    return word + " " * (len(m.group()) - len(word))


_PREFERENCE = re.compile(
    r"(?<![\w-])(?:prefer\w*|favou?r\w*|recommend\w*|choos\w*|chose\w*|"
    r"предпочит\w*|предпочтител\w*|рекоменд\w*|лучше)(?![\w-])"
)


def _implied_negation(m: re.Match[str]) -> str:
    """The implicative as a negation of the same length (offsets stay the text's)."""
    word = "не" if m.group()[:1] >= "\u0400" else "not"
    return word.ljust(len(m.group()))


def _contrasted(
    negated: tuple[tuple[frozenset[str], str], ...], words: tuple[str, ...]
) -> tuple[tuple[frozenset[str], str], ...]:
    """The negations whose word the text also states elsewhere, and that negate it of an
    object of their own (`not to the state, it belongs to the people`)."""
    out = []
    for n in negated:
        written = n[1].split()
        if len(written) < 2 or not _second(n[0]):
            continue
        said = keys(written[1])  # the word right after the negation, as written
        if said & _first(n[0]) and sum(1 for w in words if keys(w) & said) >= 2:
            out.append(n)
    return tuple(out)


_CONDITION_LIGHT = frozenset({"наличии", "наличия", "presence"})
"""Nouns that only say the condition's object is there (`только при наличии справки`): the
object is what a claim must restate (`нужна справка`)."""


def _clause_keys(
    lowered: str, at: int, clauses: list[tuple[int, int]], word: str = ""
) -> frozenset[str]:
    """Keys of the content words of the condition clause starting at `at` with the condition
    word `word`."""
    span = next(((a, b) for a, b in clauses if a == at), None)
    if span is None:
        return frozenset()
    if has_cjk(lowered[span[0] : span[1]]):
        from stream.verify.align import zh_words  # the segmenter lives with the alignment

        rest = lowered[span[0] + len(word) : span[1]]
        return frozenset().union(*(keys(w) for w in zh_words(rest) if len(w) > 1 and has_cjk(w)))
    words = [
        w
        for w in scan(lowered[span[0] : span[1]])[2]
        if w not in EN_STOP
        and w not in RU_STOP
        and len(w) > 2
        # a bound word (`более 50%`) is a slot, compared as one: no word to restate
        and w not in MORE.words
        and w not in LESS.words
        and w not in _CONDITION_LIGHT
    ][1:]  # the condition word itself is not content
    return frozenset().union(*(keys(w) for w in words)) if words else frozenset()


def _outside(text: str, spans: list[tuple[int, int]]) -> str:
    out = list(text)
    for a, b in spans:
        out[a:b] = " " * (b - a)
    return "".join(out)


_NO_ONE = re.compile(r"(?<![\w-])no[ -]one(?![\w-])")
_NO_MATTER = re.compile(r"(?<![\w-])no matter(?![\w-])")
"""`no matter how many`: `regardless of`, no negation."""


def _in_de_subject(text: str, at: int) -> bool:
    """The word at `at` stands in a Chinese `…的` phrase that ends its clause
    (`没有按时提交申请的，`): a subject (`those who …`), not the clause's predicate."""
    end = _ZH_CLAUSE_BREAK.search(text, at)
    return end is not None and text[: end.start()].rstrip().endswith("的")


def _slots(text: str) -> Slots:
    # `no one` is `nobody` (the same length: positions stay), one negation of what follows
    lowered = _NO_ONE.sub("nobody", text.lower().replace("’", "'"))
    conditions, masked, where = _condition_scan(lowered)
    conditions = dict(conditions)  # the scan is cached: never change its result
    clauses = _clauses(masked, lowered) if conditions else []
    condition_content = {
        kind: _clause_keys(lowered, at, clauses, conditions[kind])
        for kind, at in where.items()
        if kind in ("if", "onlyif")
    }
    unmasked = masked
    masked = _bound_masked(masked)
    negated_bound = masked != unmasked and _negated_bound(unmasked)
    if _may_have(masked, _NEGATED_MODAL_HEADS):
        masked = _NEGATED_MODAL.sub(_keep_negation, masked)
    if _NOT_ONLY.search(masked):
        masked = _NOT_ONLY.sub(lambda m: " " * len(m.group()), masked)  # additive, no negation
    if "both " in masked:
        masked = _BOTH_AND.sub(lambda m: " " * len(m.group()), masked)  # `both X and Y`: `X and Y`
    if "no matter" in masked:
        masked = _NO_MATTER.sub(lambda m: " " * len(m.group()), masked)  # `regardless`
    if "только" in masked:
        # `если только пропуск не сломался` is `unless it broke`: no `only` of its own
        masked = _IF_ONLY_NOT.sub(lambda m: m.group(1) + " " * len(m.group(2)), masked)
    until_not = _UNTIL_NOT.search(masked) if "пока" in masked else None
    if until_not is not None:
        # `пока заказ не передан` is `до того, как он передан`: the negation is the order's
        a, b = until_not.span(1)
        masked = masked[:a] + " " * (b - a) + masked[b:]
    if "rather than" in masked or "instead of" in masked or "вместо" in masked:
        # `in the booths rather than at the desks` says `not at the desks`
        masked = _CONTRASTIVE.sub(lambda m: _contrastive_negation(m, masked), masked)
    if any(h in masked for h in _IMPLICATIVE_HEADS):
        # `forgot to close` says the door was not closed: read as the negation it implies
        masked = _IMPLICATIVE.sub(_implied_negation, masked)
    words = tuple(scan(masked)[2])
    located = _negations(masked)
    bare_scopes = _zh_bare_scopes(masked, located) if has_cjk(lowered) else ()
    bare_negated = _zh_bare_negated(bare_scopes)
    negated = tuple(n for _, n in located)
    main_at = [pos for pos, n in located if not any(a <= pos < b for a, b in clauses)]
    main = tuple(n for pos, n in located if not any(a <= pos < b for a, b in clauses))
    if len(main) > 1 and has_cjk(lowered):
        # `否则没有按时提交申请的，不会办理`: a negation inside the `…的` subject is not the
        # rule's own; the predicate's comes first
        first = sorted(range(len(main)), key=lambda i: _in_de_subject(lowered, main_at[i]))
        main, main_at = tuple(main[i] for i in first), [main_at[i] for i in first]
    without = [n for n in negated if n[1].split()[0] in _WITHOUT]
    if has_cjk(lowered) and _ZH_WITHOUT.search(lowered) and negated and not conditions:
        conditions["onlyif"] = _ZH_WITHOUT.search(lowered).group()  # type: ignore[union-attr]
        negated = negated[1:]
        main = ()
    elif (
        without
        and (len(negated) >= 2 or negated_bound)
        and not conditions
        and _governs_rule(masked, located)
    ):
        # `without Y, X is not done` / `без Y X не выполняется` is `X only if Y`; so is
        # `без Y нельзя принимать дольше 3 дней`, whose negation went to the bound
        conditions["onlyif"] = without[0][1]
        rest = tuple(n for n in negated if n is not without[0])
        negated = rest[1:] if len(negated) >= 2 else rest
        main = ()
    if not conditions and has_cjk(lowered) and _ZH_ONLY_THEN.search(lowered):
        conditions["onlyif"] = "…才"  # `完成认证后才能骑行`: only once that is done
    if_negations = tuple(_if_negations(where.get("if"), clauses, located, conditions))
    ruled: tuple[Negation, ...] = ()
    if "unless" in conditions:
        # `not X unless Y` is `X only if Y`: the rule's negation belongs to the condition form
        word = conditions.pop("unless")
        if main:
            conditions["onlyif"] = word
            rule = _ruled_by(main, main_at, where.get("unless"))
            ruled = (rule,)
            negated = _without(negated, rule)
        else:
            conditions["except"] = word
    elif (
        main
        and "until" in conditions
        and not {"onlyif", "if"} & set(conditions)
        and _one_clause_or_comma(lowered, where.get("until"), main_at[0])
    ):
        # `not confirmed until Y` is `confirmed only once Y`: one canonical form
        conditions["onlyif"] = conditions.pop("until")
        negated = _without(negated, main[0])
    only_if = "if" in conditions and _ONLY_SPLIT.search(masked) is not None
    only_prep = None if conditions else _ONLY_PREP.search(masked) or _PREP_ONLY.search(masked)
    if only_if:
        conditions["onlyif"] = "only … " + conditions.pop("if")  # `should only be given … if`
    elif only_prep is not None:
        # `are only permitted during the family session`: a necessary time, place or means
        postposed = only_prep.re is _PREP_ONLY
        only, prep = (only_prep.group(3), only_prep.group(1)) if postposed else only_prep.groups()
        conditions["onlyif"] = f"{only} … {prep}"
        only_if = True
        # what the phrase names (`with the approval of the head`): a claim may restate it
        phrase = (
            only_prep.group(2)
            if postposed
            else _CLAUSE_END.split(lowered[only_prep.end() :], maxsplit=1)[0]
        )
        named = [w for w in scan(phrase)[2] if w not in EN_STOP and w not in RU_STOP and len(w) > 2]
        condition_content = {**condition_content, "onlyif": frozenset().union(*map(keys, named))}
    elif (
        "onlyif" in conditions
        and main
        and main[0] in negated
        and _one_clause(lowered, where.get("onlyif"), main_at[0])
    ):
        # `only if Y is X not done` says what `X unless Y` says: one canonical form (not
        # `仅限馆内阅览，不得外借`: a rule of its own in another clause keeps its negation)
        conditions["except"] = conditions.pop("onlyif")
        negated = _without(negated, main[0])
    if "except" in conditions:
        negated = (*negated, *_excepted(lowered, conditions["except"]))
    wordset = _with_lemmas(words)
    freq_free = _mask(masked, _FREQUENCY_PHRASE) if _may_have(masked, _FREQUENCY_HEADS) else masked
    modality = {
        kind: hit[0] for kind, cls in MODALITY.items() if (hit := cls.find(masked, wordset))
    }
    if (
        "possible" in modality
        and modality["possible"] not in _EPISTEMIC
        and _NEGATED_POSSIBLE.search(lowered)
    ):
        del modality["possible"]  # `cannot`, `не может`, 不能: a prohibition, not a hedge
    if modality.get("advice") == "стоит" and _PRICED_STOIT.search(lowered):
        del modality["advice"]  # `ски-пасс стоит 2500 рублей`: a price, not advice
    if "possible" not in modality and (window := _TIME_TO_ACT.search(lowered)):
        modality["possible"] = window.group().split()[0]  # `you have 10 days to ask`: may ask
    if (_IMPERATIVE.search(text) and _opens_sentence(text)) or (
        not modality and _opens_with_infinitive(text)
    ):
        modality.setdefault("obligation", "(instruction)")
    order = {}
    plain = scan(lowered)
    unbounded = scan(_bound_masked(lowered))
    for kind, cls in (("before", BEFORE), ("after", AFTER), ("more", MORE), ("less", LESS)):
        hit = cls.find(unbounded[0], unbounded[1])
        if hit:
            order[kind] = hit[0]
    if _WITHIN_OF.search(lowered):
        order.setdefault("after", "within … of")
    if "once" in lowered and once_after(lowered):
        order.setdefault("after", "once")  # `once you are notified`: after you are notified
    if (start := _COUNTED_FROM.search(lowered)) is not None:
        order.setdefault("after", start.group())
    if _BEFORE_NOUN.search(lowered):
        order.setdefault("before", "до")
    if until_not is not None:
        order.setdefault("before", "пока … не")
    if "after" not in order and _THEN.search(lowered):
        order["after"] = "then"  # `kept for 90 days and then anonymised`: after that
    if "after" not in order and (upon := _UPON.search(lowered)) is not None:
        order["upon"] = upon.group().strip("，, ")
    head = _NEGATED_RESTRICTIVE.match(lowered) if len(located) >= 2 and not conditions else None
    # the head's negation (whichever alternative matched) is the text's first
    restrictive = head is not None and any(
        head.start(g) == located[0][0] for g in range(1, (head.lastindex or 0) + 1)
    )
    return Slots(
        restricted=located[0][1][1] if restrictive else "",
        negated=negated,
        quantified=_quantified(freq_free, lowered),
        content=frozenset().union(*(keys(w) for w in words)) if words else frozenset(),
        exclusive=()
        if only_if
        else tuple(
            w
            for w in EXCLUSIVE.find(masked, wordset)
            if not (w == "只能" and _ZH_BOUNDED_ONLY.search(lowered))
        ),
        conditions=conditions,
        condition_content=condition_content,
        modality=modality,
        order=order,
        inference=tuple(INFERENCE.find(lowered, plain[1])),
        hedge=tuple(
            h
            for h in HEDGE.find(masked, wordset)
            if (h not in _HEDGE_NOUNS or _HEDGE_VERB_AFTER[h].search(masked))
            and not (h.startswith("инициатив") and _BY_INITIATIVE.search(masked))
        )
        + (("(question)",) if _QUESTION.search(text) else ()),
        future=next(iter(_FUTURE.find(masked, wordset)), ""),
        contrasted=_contrasted(negated, words),
        conditioned=tuple(
            n for pos, n in located if any(a <= pos < b for a, b in clauses) and n in negated
        ),
        if_negated=if_negations if len(if_negations) == 1 else (),
        main_negated=bool(main),
        sufficient=_sufficient(lowered, conditions),
        capped=_capped(text, lowered, modality.get("possible")),
        bare_negated=bare_negated,
        negated_only=_zh_negated_only(masked, bare_scopes),
        definite=_definite(lowered) if " " in lowered and lowered.isascii() else frozenset(),
        denied=_denied(lowered),
        negation_objects=_negation_objects(masked, located),
        entitled=_ENTITLED.search(lowered) is not None,
        otherwise=_before_otherwise(lowered),
        besides=_besides(lowered),
        ruled=ruled,
        privative=_privative(words),
        case_numbers=_case_numbers(lowered, where.get("if"), clauses),
        restricting=tuple(
            n for pos, n in located if has_cjk(lowered) and _in_de_subject(lowered, pos)
        ),
        retrospective=m.group() if (m := _RETROSPECTIVE.search(lowered)) else "",
    )


_RETROSPECTIVE = re.compile(
    r"(?<![\w-])(?:so far|(?<!up )to date|until now|in (?:earlier|previous|past|prior) "
    r"(?:studies|trials|seasons)|до сих пор|на сегодняшний день|"
    r"в (?:предыдущих|прежних|ранних|ранее проведённых|ранее проведенных) исследованиях)(?![\w-])"
    r"|此前|以往|迄今|至今|过去的研究|既往研究|以前的研究"
)


def _except_as_besides(claim: Slots, evidence: Slots) -> Slots:
    """`Кроме X, можно …` for the evidence's `Помимо X, можно …`: `кроме` adds there, as
    `помимо` does, and takes nothing out; read so when what it names is what the evidence adds
    to."""
    excepted = [c for c in claim.negated if c[1].startswith(_EXCEPTED)]
    if "except" not in claim.conditions or not excepted or "except" in evidence.conditions:
        return claim
    if not all(_first(c[0]) & evidence.besides for c in excepted):
        return claim
    conditions = {k: v for k, v in claim.conditions.items() if k != "except"}
    negated = tuple(c for c in claim.negated if c not in excepted)
    return replace(claim, conditions=conditions, negated=negated)


_BESIDES = re.compile(r"(?<![\w-])(?:помимо|besides|in addition to)(?![\w-])")


def _besides(lowered: str) -> frozenset[str]:
    """Keys of the next content words after each `помимо` / `besides` / `in addition to`."""
    found = [
        _targets(scan(lowered[m.end() : m.end() + 60])[2], n_words=3)
        for m in _BESIDES.finditer(lowered)
    ]
    return frozenset().union(*found) if found else frozenset()


_OTHERWISE = re.compile(r"(?<![\w-])(?:otherwise|иначе|в противном случае)(?![\w-])|否则")


def _before_otherwise(lowered: str) -> frozenset[str]:
    """Keys of the content words before the text's first `otherwise` (否则, иначе)."""
    found = _OTHERWISE.search(lowered)
    if found is None:
        return frozenset()
    before = lowered[: found.start()]
    if has_cjk(before):
        from stream.verify.align import zh_words  # the segmenter lives with the alignment

        words: tuple[str, ...] = tuple(w for w in zh_words(before) if len(w) > 1 and has_cjk(w))
    else:
        words = scan(before)[2]
    return frozenset().union(*(keys(w) for w in words)) if words else frozenset()


Negation = tuple[frozenset[str], str]


def _ruled_by(main: tuple[Negation, ...], main_at: list[int], at: int | None) -> Negation:
    """The rule an `unless` lifts: the first negation, or, when the exception follows several
    (`不得参加A，也不得B，除非Y`, `not A, nor B, unless Y`), the one nearest before it."""
    if at is None or len(main) < 2 or not all(p < at for p in main_at):
        return main[0]
    return main[max(range(len(main)), key=lambda i: main_at[i])]


_SUFFICIENT = re.compile(
    r"\b(?:as long as|so long as|all you need|достаточно|достаточно лишь)\b|只要|就可以|就能|就可"
)


def _sufficient(lowered: str, conditions: Mapping[str, str]) -> str:
    """The word that states a condition as enough: `as long as`, 只要, `X的…就可以`, or a plain
    `if` (`if you bring X, you can Y`)."""
    m = _SUFFICIENT.search(lowered)
    if m is not None:
        return m.group()
    return conditions.get("if", "")


_CLAUSE_BREAK = re.compile(r"[,;，；。]")


_CONTRAST = re.compile(r";|；|\b(?:while|whereas|but|а|но|однако)\b|但")


def _governs_rule(text: str, located: list[tuple[int, Negation]]) -> bool:
    """The first `without Y` and the negation after it form one rule (`without Y, X is not
    done`), not two statements set against each other (`… without extra time, while those
    more than 30 minutes late are not admitted`)."""
    at = next((pos for pos, n in located if n[1].split()[0] in _WITHOUT), None)
    other = next((pos for pos, n in located if at is not None and pos > at), None)
    if at is None or other is None:
        return True  # the negation before `without`: read as before
    return _CONTRAST.search(text, at, other) is None


def _one_clause_or_comma(text: str, a: int | None, b: int) -> bool:
    """`a` and `b` at most one comma apart, with no contrast between (`not confirmed, until`)."""
    if a is None:
        return False
    lo, hi = min(a, b), max(a, b)
    return _CONTRAST.search(text, lo, hi) is None and len(_CLAUSE_BREAK.findall(text, lo, hi)) <= 1


def _one_clause(text: str, a: int | None, b: int) -> bool:
    """`a` and `b` lie in one clause (no comma or semicolon between) or one construction
    across a comma (`只有Y，才X`); an unknown `a` does."""
    if a is None:
        return True
    lo, hi = min(a, b), max(a, b)
    return _CLAUSE_BREAK.search(text, lo, hi) is None or "才" in text[lo:hi]


def _if_negations(
    at: int | None,
    clauses: list[tuple[int, int]],
    located: list[tuple[int, Negation]],
    conditions: Mapping[str, str],
) -> list[Negation]:
    """The negations inside the `if` clause starting at `at`, when no other condition form
    is present to read it against."""
    if at is None or {"unless", "onlyif", "except"} & set(conditions):
        return []
    span = next(((a, b) for a, b in clauses if a == at), None)
    if span is None:
        return []
    return [n for pos, n in located if span[0] <= pos < span[1]]


def _without(negated: tuple[Negation, ...], one: Negation) -> tuple[Negation, ...]:
    """`negated` less the first entry equal to `one`."""
    out = list(negated)
    if one in out:
        out.remove(one)
    return tuple(out)


def _keep_negation(m: re.Match[str]) -> str:
    """Mask a negated modal but its negation word: `не нужно` -> `не □□□□□`."""
    text = m.group()
    neg = re.match(r"(?:not|don't|doesn't|do not|does not|need not|не|不|无|不必)", text)
    head = "not" if text.startswith("need") else (neg.group() if neg else "")
    if text.startswith("need") or text.startswith("not"):
        head = "not"
    return head + _MASK * (len(text) - len(head))


def _heads(phrases: Iterable[str]) -> tuple[frozenset[str], tuple[str, ...]]:
    """First words (Latin, Cyrillic) and whole phrases (CJK) a text must have for a phrase
    pattern to be worth running: big alternations are slow on every text, set lookups not."""
    words = frozenset(p.split()[0] for p in phrases if not has_cjk(p))
    return words, tuple(p for p in phrases if has_cjk(p))


def _may_have(text: str, heads: tuple[frozenset[str], tuple[str, ...]]) -> bool:
    words, cjk = heads
    return bool(words & scan(text)[1]) or any(c in text for c in cjk)


_BOUND_HEADS = _heads(
    (
        *BOUND_PHRASES.phrases, *BOUND_PHRASES.cjk, "not", "never", "cannot", "не",
        "нельзя", "不能", "不得", "不可", "不应", "不要", "不宜", "勿", "禁止", "严禁",
    )
)  # fmt: skip
_NEGATED_MODAL_HEADS = _heads(
    (
        "not",
        "need",
        "do",
        "does",
        "don't",
        "doesn't",
        "needn't",
        "не",
        "不需要",
        "无需",
        "不必",
        "不用",
        "无须",
        "不须",
        "不一定",
    )
)
_FREQUENCY_HEADS = _heads(("every", "each", "каждые", "каждый", "каждую", "каждое", "每"))


@short_cache(maxsize=2048)
def _bound_masked(text: str) -> str:
    """`text` with bound phrases masked (`no more than`, `не превышать`, 不超过), and a Chinese
    `后` that ends an amount or a threshold (`满10年后`, `超过保留期限后`): it bounds the amount,
    it orders no events."""
    if has_cjk(text):
        text = _ZH_AMOUNT_AFTER.sub(lambda m: m.group(1) + _MASK * len(m.group(2)), text)
    if BOUND_AFTER_HEADS.search(text):
        # `21 or older`, `1500 рублей и больше`: the bound written after its amount
        for m in BOUND_AFTER_AMOUNT.finditer(text):
            text = text[: m.start(1)] + _MASK * (m.end(1) - m.start(1)) + text[m.end(1) :]
    if not _may_have(text, _BOUND_HEADS) and "n't" not in text:
        return text
    text = _NEGATED_BOUND.sub(_mask_negation_and_bound, text)
    if has_cjk(text):
        text = _mask(text, _ZH_NEGATED_BOUND)
    return _mask(text, _BOUND_PHRASE_RE)


def mask_negated_bounds(text: str) -> str:
    """`text` with the negation and the bound word of each negated bound masked (`не должна
    превышать 8`, `must not be kept beyond 7 days`): no content words of their own."""
    return _NEGATED_BOUND.sub(_mask_negation_and_bound, text)


def _negated_bound(text: str) -> bool:
    """`text` has a bound whose negation `_bound_masked` took (`не более`, `do not take … for
    more than`, 不能…超过)."""
    return any(
        reaches_bound(m.group("between"), m.group("bound")) for m in _NEGATED_BOUND.finditer(text)
    ) or (has_cjk(text) and _ZH_NEGATED_BOUND.search(text) is not None)


def _mask_negation_and_bound(m: re.Match[str]) -> str:
    """Mask a negated bound's negation and bound word, keep the words between (a negation
    three or four words back only where it governs the bound: `reaches_bound`)."""
    out = m.group()
    if not reaches_bound(m.group("between"), m.group("bound")):
        return out
    for name in ("bound", "neg"):
        a, b = m.start(name) - m.start(), m.end(name) - m.start()
        out = out[:a] + _MASK * (b - a) + out[b:]
    return out


_ZH_AMOUNT_AFTER = re.compile(
    r"((?:\d+(?:\.\d+)?\s?[^\d，。；,;\s]{0,3}?|(?:满|超过|达到)[^\d，。；,;、]{1,8}?))(之后|以后|后)"
)


def _with_lemmas(words: tuple[str, ...]) -> frozenset[str]:
    """The words and, for Russian ones, their lemmas: `можете` is a form of `мочь`."""
    found = set(words)
    for w in words:
        if w[:1] >= "\u0400" and w[:1] <= "\u04ff":
            found.update(lemma for lemma, _ in ru_lemmas(w)[:1])
    return frozenset(found)


_CONTENT_AHEAD = 1
"""A negation applies to the next content word (`not kept`, `не на срочных контрактах`)."""


_MODAL_WORDS = frozenset(w for c in (POSSIBLE, OBLIGATION, ADVICE) for w in c.words)
"""A negated modal negates what follows it: `не может превышать` negates `превышать`."""


_REQUIRE_VERBS = frozenset({"require", "requires", "required", "need", "needs", "needed"})
"""A negated requirement negates what it requires, as a negated modal does (`не требуется`)."""


def _targets(words: Iterable[str], n_words: int = _CONTENT_AHEAD) -> frozenset[str]:
    """Keys of the next content words; those of the second one tagged `2:` (what an
    elliptic negation may apply to: `covers X but not damage` ~ `does not cover damage`)."""
    found: set[str] = set()
    n = 0
    previous = ""
    for word in words:
        after, previous = previous, word
        if after in _NONE_HEADS and word in _NONE_ONE:
            continue  # `ни одной комнаты`, `not a single room`: none, not a count of one
        if (
            word in _NEG_SKIP
            or word in NEGATION.words
            or word in EN_STOP
            or word in RU_STOP
            or word in _MODAL_WORDS
            or word in TYPICAL.words  # `does not usually stop` negates `stop`
            or word in _REQUIRE_VERBS  # `does not require a referral`: no referral needed
        ):
            continue
        if len(word) < 2:
            continue
        found |= keys(word) if n < n_words else {f"2:{k}" for k in keys(word)}
        n += 1
        if n == n_words + 1:
            break
    return frozenset(found)


_THEN = re.compile(
    r"(?<![\w-])(?:and|are|is|was|were|be|been|will)\s+then(?![\w-])"
    r"|(?<![\w-])(?:затем|после чего|после этого)(?![\w-])|然后|随后|[，,]\s*再(?![次也不])",
)
"""A step after the one before it (`are then anonymised`, `после чего`, 然后, `…，再领取`); not
the `then` of `if …, then`, nor `再次` (again)."""
_NONE_HEADS = frozenset({"ни", "a"})
_NONE_ONE = frozenset(
    {"один", "одна", "одно", "одной", "одного", "одному", "одним", "одну", "одном", "single"}
)
_NEGATED_LIST = re.compile(
    r"(?:\s+(?:be|been|is|are|get|ни|быть))?(?:\s+[^\W\d_]+(?:\s*,)?){1,4}?\s+(?:or|nor|или|ни)"
    r"(?:\s+(?:in|on|at|to|for|from|by|with|в|во|на|за|для))?\s+[^\W\d_]+(?:\s+[^\W\d_]+)?"
)
"""A negated disjunction (`not X, Y or Z`, `не X или Y`): the negation holds for each."""
_GOVERNING = frozenset({"подлежать"})
"""Verbs whose content is the noun they govern (`подлежит возврату`: is to be returned)."""


def _governs(word: str) -> bool:
    low = word.lower()
    return not low.isascii() and any(lemma in _GOVERNING for lemma, _ in ru_lemmas(low)[:1])


_ZH_AUX = frozenset(
    "能 可以 可 会 支持 予 予以 得 应 需要 需 必 用 是 被 在 将 再 允许 能够 准".split()
)
"""Auxiliaries between a Chinese negation and what it negates: 不支持退货 / 不能退货 / 不予退还."""
_RU_LIGHT_PASSIVES = frozenset(
    """производится производятся осуществляется осуществляются проводится проводятся
    выполняется выполняются""".split()
)
"""Light verbs of a Russian nominalised rule: the noun carries the action."""
_ACCEPTED = frozenset({"принимаются", "принимается", "допускаются", "допускается"})
"""`к возврату не принимаются`, `к оплате не допускаются`: refused for the action `к` names."""
_PASSIVE_PROHIBITIONS = frozenset({"prohibited", "forbidden", "banned", "disallowed"})
_BE = frozenset({"is", "are", "was", "were", "be", "been", "being"})
_PREDICATIVE_NEGATIONS = frozenset(
    {"нельзя", "невозможно", "запрещено", "запрещается", "воспрещается", "недопустимо"}
)
"""Russian negations that stand as the predicate and may close their clause (`курить здесь
нельзя`)."""


def _is_infinitive(word: str) -> bool:
    return "\u0400" <= word[:1] <= "\u04ff" and any(pos == "INFN" for _, pos in ru_lemmas(word)[:1])


_ZH_COVERBS = frozenset("在 于 对 向 从 给 把 跟 与 由 往".split())
"""Prepositions that open a phrase of place or party between a Chinese negation and its verb
(`禁止在客房内吸烟`)."""
_WORD_AT = re.compile(r"[^\W\d_]+(?:['’\-][^\W\d_]+)*")


def _negations(text: str) -> list[tuple[int, Negation]]:
    """(position, (keys of what is negated, the negation as written)) of every negation:
    the next content words (`not kept` -> keep, `не подозревают`), or, for a negation that
    ends its clause (`вернуть нельзя`), the content words before it; for Chinese the word
    after any auxiliary (`不支持退货` -> 退货). Comparing what is negated, not mere counts,
    ties a negation to its clause."""
    out: list[tuple[int, Negation]] = []
    found = list(_WORD_AT.finditer(text)) if NEGATION.word_re.search(text) else []
    words = [m.group() for m in found]
    for i, m in enumerate(found):
        word = m.group()
        if word not in NEGATION.words:
            continue
        ahead = words[i + 1 : i + 1 + _in_clause(text, found, i)]
        target = _targets(ahead)
        if (
            i
            and words[i - 1].lower() in _BE
            and (
                word.lower() in _PASSIVE_PROHIBITIONS
                or (ahead[:1] in (["allowed"], ["permitted"]) and ahead[1:2] != ["to"])
            )
        ):
            # `eating and drinking are prohibited in the lab`, `smoking is not allowed here`:
            # what is forbidden is the subject before the predicate, not the place after it;
            # each of a coordinated subject (`food and drink are never allowed`)
            start = i - _in_clause_before(text, found, i)
            if start >= 1 and words[start].lower() in _COORDINATORS:
                start -= 1  # the clause search stops at `and`; a subject's conjunct does not
            subject = [w.lower() for w in reversed(words[start:i]) if w.lower() not in _BE]
            both = len(subject) >= 3 and subject[1] in _COORDINATORS
            target = _targets(subject, 2 if both else _CONTENT_AHEAD)
        if not target:
            target = _targets(reversed(words[i - _in_clause_before(text, found, i) : i]))
            if word in _PREDICATIVE_NEGATIONS or (ahead and ahead[0] in _MODAL_WORDS):
                # `отменить заказ после отправки нельзя`, `подниматься по лестнице он не
                # умеет`: what is denied is the infinitive the clause opens with, not the
                # nearest noun
                before = words[i - _in_clause_before(text, found, i, most=6) : i]
                verb = next((w for w in before if _is_infinitive(w)), None)
                if verb is None and (opening := _opening_infinitive(text, found, i)):
                    verb = opening  # `пользоваться телефонами, часами и … запрещено`
                if verb is not None:
                    # with the roots its prefixed and aspect partners share (`гулять` /
                    # `выгуливать`): either side may say the verb with a prefix
                    roots = claim_keys(verb) | evidence_keys(verb)
                    target = keys(verb) | roots | frozenset(f"2:{k}" for k in _first(target))
        if not target and ahead and ahead[0] in _MODAL_WORDS:
            # `к нему не допускается`: the permission itself is what is denied
            target = keys(ahead[0])
        elif (
            ahead
            and ahead[0] in _ACCEPTED
            and (
                towards := next(
                    (
                        words[j + 1]
                        for j in range(max(0, i - 4), i - 1)
                        if words[j].lower() == "к" and _targets(words[j + 1 : j + 2])
                    ),
                    None,
                )
            )
        ):
            # `к возврату не принимаются`: what is refused is the return (`нельзя вернуть`)
            target = keys(towards) | frozenset(f"2:{k}" for k in _first(target))
        elif ahead and ahead[0] in _RU_LIGHT_PASSIVES:
            # `возврат товаров не производится`: the action noun before the light verb is
            # what is negated (`товары не возвращаются`)
            before = words[i - _in_clause_before(text, found, i) : i]
            noun = _first(_targets(before, len(before)))
            if noun:
                target = noun | frozenset(f"2:{k}" for k in _first(target))
        elif ahead and _governs(ahead[0]):
            # `возврату не подлежат` / `не подлежат возврату`: what is negated is the noun
            target |= _targets(reversed(words[max(0, i - 3) : i])) | _targets(ahead[1:])
        listed = _NEGATED_LIST.match(text, m.end())
        if listed is not None:
            # `cannot be cancelled, changed or refunded`: the negation holds for each
            target |= frozenset().union(
                *(
                    keys(w)
                    for w in _WORD_AT.findall(listed.group())
                    if w not in EN_STOP and w not in RU_STOP
                )
            )
        if word.lower() == "no" and i and words[i - 1].lower() in _HAVING:
            # `vehicles that have no permit` are `vehicles without a permit`: the noun is
            # what is denied, not the verb after it
            word = "without"
            target = frozenset(k for k in target if not k.startswith("2:"))
        out.append((m.start(), (target, " ".join((word, *ahead[:2])))))
    if has_cjk(text):
        masked = text
        for ex in NEGATION.cjk_exclude:
            masked = masked.replace(ex, _MASK * len(ex))
        for m in _ZH_NEG.finditer(masked):
            # what follows in the negation's own clause: 余兴未休,骑车走过 negates no riding
            ahead_text = _ZH_CLAUSE_END.split(text[m.end() : m.end() + 12], maxsplit=1)[0]
            follow = [w for w in _zh_words(ahead_text) if w.strip()]
            placed = bool(follow) and follow[0] in _ZH_COVERBS
            single = next(
                (w for w in follow if has_cjk(w) and len(w) == 1 and w not in _ZH_AUX), ""
            )
            while follow and (follow[0] in _ZH_AUX or not has_cjk(follow[0]) or len(follow[0]) < 2):
                follow = follow[1:]
            word = follow[0] if follow else ""
            target = keys(word) if word else frozenset()
            if not word and single:
                # `一律不赔`: a one-character verb has no keys; it may meet the other side's
                # negated word that contains it (`不予赔付`)
                word, target = single, frozenset({f"{_ZH_SINGLE}{single}"})
            if word and (
                listed := _ZH_NEGATED_LIST.match(text, text.find(word, m.end()) + len(word))
            ):
                # `不能取消、修改`: the negation governs every member of the list
                target |= frozenset().union(
                    *(keys(w) for w in _zh_words(listed.group()) if len(w) > 1)
                )
            if len(word) == 4 and has_cjk(word):
                # a compound the segmenter keeps whole (`不直接受理`): its halves are what
                # the other side may write (`直接办理`)
                target |= keys(word[:2]) | keys(word[2:])
            if placed:
                # 禁止在客房内吸烟: the place comes first, the act (吸烟) after it is negated too
                target |= frozenset(
                    f"2:{k}" for w in follow[1:4] if has_cjk(w) and len(w) >= 2 for k in keys(w)
                )
            out.append((m.start(), (target, m.group() + word)))
    return out


_NEGATION_CLAUSE_END = re.compile(r"[,;:.!?，；。！？]")
_DENYING = re.compile(
    r"(?<![\w-])(?:(?:is|are|was|were|be|being)\s+excluded|exempt(?:ed)?\s+from"
    r"|исключен[аоы]?\s+из|освобожд\w+\s+от)(?![\w-])|不计入|免于|排除在",
    re.IGNORECASE,
)


def _negation_objects(text: str, located: Iterable[tuple[int, Negation]]) -> frozenset[str]:
    """Keys of the first three content words after each negation."""
    found: set[str] = set()
    for pos, n in located:
        end = pos + len(n[1])
        ahead = [w for w in scan(text[end : end + 60])[2] if w not in EN_STOP and w not in RU_STOP]
        found.update(k for w in ahead[:3] for k in keys(w))
    return frozenset(found)


def _denied(lowered: str) -> frozenset[str]:
    """Keys of the next content words after each denying verb."""
    found: set[str] = set()
    for m in _DENYING.finditer(lowered):
        if has_cjk(m.group()):
            ahead = [w for w in _zh_words(lowered[m.end() : m.end() + 12]) if len(w) > 1]
            found.update(k for w in ahead[:2] for k in keys(w))
        else:
            found.update(k for k in _targets(scan(lowered[m.end() : m.end() + 80])[2]))
    return frozenset(k for k in found if not k.startswith("2:"))


_ZH_NEGATED_LIST = re.compile(r"(?:(?:、|或者|或|和|及)[\u4e00-\u9fff]{2})+(?![\u4e00-\u9fff])")
"""Further members of a list after a negated word, each of two characters up to the clause
end (`取消、修改，`, `取消或更改，`)."""
_ZH_CLAUSE_END = re.compile(r"[,;!?，；。！？、]|[.:](?!\d)")
"""Where a Chinese negation's clause ends (not the point of `675.2` or the colon of `9:30`)."""


def _in_clause(text: str, found: list[re.Match[str]], i: int, most: int = 5) -> int:
    """How many of the (at most `most`) words after word `i` stand in its clause: `справка не
    требуется, но в воду…` negates nothing after the comma, so it negates what stands before."""
    n = 0
    for j in range(i + 1, min(len(found), i + 1 + most)):
        if _NEGATION_CLAUSE_END.search(text, found[j - 1].end(), found[j].start()):
            break
        n += 1
    return n


def _opening_infinitive(text: str, found: list[re.Match[str]], i: int) -> str | None:
    """The infinitive opening the sentence of word `i`, at most 12 words before it with no
    stop, colon, dash or bracket between (`Пользоваться телефонами, смарт-часами и наушниками
    … запрещено`: a list's commas do not part them)."""
    j = i
    while j > 0 and not _SENTENCE_STOP.search(text, found[j - 1].end(), found[j].start()):
        j -= 1
    if i - j > 12 or not _is_infinitive(found[j].group()):
        return None
    return found[j].group()


_SENTENCE_STOP = re.compile(r"[.!?;:—–()]")


def _in_clause_before(text: str, found: list[re.Match[str]], i: int, most: int = 3) -> int:
    """How many of the (at most `most`) words before word `i` stand in its clause."""
    n = 0
    for j in range(i - 1, max(-1, i - 1 - most), -1):
        if _NEGATION_CLAUSE_END.search(text, found[j].end(), found[j + 1].start()):
            break
        n += 1
    return n


_PRICED_STOIT = re.compile(r"(?<![\w-])стоит(?:\s+[^\W\d]+){0,2}\s+\d")
"""`стоит` before an amount is `costs`, not `it is worth (doing)`."""


def _negated(lowered: str, words: tuple[str, ...] = ()) -> tuple[Negation, ...]:
    return tuple(n for _, n in _negations(lowered))


def _zh_words(text: str) -> tuple[str, ...]:
    from stream.verify.align import zh_words

    return zh_words(text)


_RANKS = ((3, UNIVERSAL), (2, MAJORITY), (1, SOME))


_EACH_AFTER_AMOUNT = re.compile(
    r"(?:\d|\b(?:pence|pounds?|euros?|dollars?|cents?))\W{0,2}$"
    # `по 1 800 рублей за каждое`, `до 50 ГБ каждый`: a price or size per item
    r"|\d[\d\s]*\s*(?:руб\w*|р\.|₽|коп\w*|евро|долл\w*|[кмгт]?б|гб|мб|тб|кг|г|л|км|м)"
    r"\.?(?:\s+(?:за|на|в))?\s+$"
)
_FREE_CHOICE = re.compile(
    r"\b(?:must|need|needs|have to|has to|should|report|tell|notify|inform)\b"
    r"(?:\s+[\w'-]+){0,6}\s+$"
)
_ANY_MORE = re.compile(r"any\s+(?:more|longer|further)\b")
_ZH_AGREEING = frozenset({"都", "均", "全都"})
_ZH_EACH_NOUN = re.compile("每[个位名笔件张台辆份家条项本册套户]([\u4e00-\u9fff]{2})")
"""`每笔订单都…`: the noun a 都 after `每` + classifier quantifies (the frequency mask hides
`每`, so 都 carries the universal, over that noun)."""
_ZH_EACH_TIME = re.compile("每[次日天周月年回]")
"""`每次入场都需要刷卡`: 都 distributes over the occasions 每次 names, which the frequency mask
hides; not `每个人都`, where 都 carries the universal the mask hid."""
_ZH_LISTED = re.compile(
    "[和与及、或]|以及|各|所有|任何|任一|任意|全部|凡|随时|无论|不论|不管|其他|其余"
    "|[两二三四五六七八九十\\d][次个名位人天件种项]"
)
"""A list, or a quantifier of its own, before 都 in its clause (`随时都能`, `无论…都`), or a
count of several (`派送两次都没成功`: both times). Not `每`: masked as a frequency (`每天`,
`每12小时`), it leaves 都 to carry the universal of `每个人都`."""
_ZH_WHOLE_BEFORE = re.compile("凡|除(?:了|非)?|或者|以及|无论|不论|不管|双方|两者|二者")
"""`凡是…的人员，都`, `除非…，访客都不能`, `…，或者…，都要`, `A，以及B，都`, `无论…，都`,
`双方都`: an earlier clause names every case, all but an exception, or the cases one by one,
and 都 agrees with it."""
_ZH_CLAUSE_BREAK = re.compile("[，。；！？,;]")
_ZH_LEADING = re.compile("(?:时|后|前|之前|之后|以后|以前|的话)[，,]$")
"""A clause that ends so leads into the next (`调用任何接口时，…都`): one clause for 都."""


def _clause_before(text: str, at: int) -> str:
    """The part of `at`'s clause before it (Chinese punctuation ends a clause; a temporal or
    conditional clause stays with the clause it leads into)."""
    breaks = [m.end() for m in _ZH_CLAUSE_BREAK.finditer(text, 0, at)]
    while breaks and _ZH_LEADING.search(text, 0, breaks[-1]):
        breaks.pop()
    start = breaks[-1] if breaks else 0
    return text[start:at]


_WHOLE_PERIOD = re.compile(
    r"(?:весь|всего|всю|всё|все|the whole|the entire|entire|whole)\s+"
    r"(?:(?:её|его|их|its|their)\s+)?(?:срок|срока|период|периода|время|времени|term|period|"
    r"duration|time|stay|study|trial)(?![\w-])"
)
"""`на весь срок действия`, `for the whole term`: the length of one period, not every member
of a set (`в течение срока действия` says it)."""


_NONE_OF = re.compile(r"(?:none|no|nothing|neither|ни один|ни одна|ни одно|никакие)(?![\w-])", re.I)
"""A negation that quantifies what it governs (`none of your files`, `no fee`)."""


def _not_quantifying(lowered: str, word: str, at: int) -> bool:
    """`each` after an amount is a price per item (`£1 each`), not a quantifier; `any more` is
    `further`; `at all` stresses a negation; free-choice `any` under an obligation (`must
    report any damage`) says what the rule's bare plural says of every case. Under a
    negation `any` still widens (`does not count against any limit` for `… the production
    limit`)."""
    if _WHOLE_PERIOD.match(lowered, at):
        return True
    if word == "each" or word.startswith("кажд"):
        return bool(_EACH_AFTER_AMOUNT.search(lowered, max(0, at - 24), at))
    if word == "all" and lowered.endswith("at ", 0, at):
        return True  # `does not open at all`: emphasis of the negation, no scope
    if word == "any":
        return bool(
            _ANY_MORE.match(lowered, at) or _FREE_CHOICE.search(lowered, max(0, at - 60), at)
        )
    return False


_BareScope = tuple[str, int, int, tuple[str, ...]]
"""(a Chinese negation as written, where its scope starts and ends, the scope's words of two
characters or more)."""


def _zh_bare_scopes(text: str, located: Iterable[tuple[int, Negation]]) -> tuple[_BareScope, ...]:
    """Each negation's scope up to its clause's end, when no `的` modifier stands in it:
    segmented once for what the negations govern and what only they name."""
    scopes = []
    for pos, negation in located:
        end = _ZH_CLAUSE_END.search(text, pos)
        stop = end.start() if end else len(text)
        rest = text[pos:stop]
        if "的" not in rest:
            scopes.append((negation[1], pos, stop, tuple(w for w in _zh_words(rest) if len(w) > 1)))
    return tuple(scopes)


def _zh_negated_only(
    text: str, scopes: tuple[_BareScope, ...]
) -> tuple[tuple[str, frozenset[str]], ...]:
    """Per negation, the words of its bare scope that the text names nowhere outside every
    negation's scope."""
    if not scopes:
        return ()
    outside = list(text)
    for _, a, b, _ in scopes:
        outside[a:b] = " " * (b - a)
    elsewhere = "".join(outside)
    return tuple(
        (said, frozenset(w for w in words if w not in elsewhere)) for said, _, _, words in scopes
    )


def _zh_bare_negated(scopes: tuple[_BareScope, ...]) -> frozenset[str]:
    """Keys of the words each negation governs up to its clause's end, when no `的` modifier
    stands among them."""
    return frozenset(k for _, _, _, words in scopes for w in words for k in keys(w))


_ZH_NEGATED_ANY = re.compile(r"[不没无未禁免]")
"""A negation before `任何` in its clause: `not any X` is `no X`."""
_ZH_ONE_OF = re.compile(r"^一[个名位家条种项件份]?")
"""`任意一个车站` quantifies `车站`, as `任一车站` does."""
_NOT_ANY = "¬"
"""Marks a quantifier under its clause's negation (`不得携带任何动物`): it says what the
evidence's bare negation of the same noun says (`不得携带动物`), no more."""


def _quantified(lowered: str, whole: str = "") -> tuple[tuple[int, str, frozenset[str]], ...]:
    """(rank, quantifier, keys of what it quantifies) of every quantifier, in text order.
    `whole` is the text before its conditions were masked (`lowered` is the masked one)."""
    found: list[tuple[int, int, str, frozenset[str]]] = []
    for m in _WORD_AT.finditer(lowered):
        if m.group() == "per":
            # `per damage claim` distributes as `for each damage claim` does; read on the
            # evidence's side only (a claim's `per` widens nothing: see _quantifiers)
            ahead = scan(lowered[m.end() : m.end() + 80])[2]
            found.append((m.start(), 3, "per", _targets(ahead)))
            continue
        for rank, cls in _RANKS:
            if m.group() in cls.words:
                if _not_quantifying(lowered, m.group(), m.start()):
                    continue
                ahead = scan(lowered[m.end() : m.end() + 80])[2]
                found.append((m.start(), rank, m.group(), _targets(ahead)))
    for rank, cls in _RANKS:
        for phrase in cls.phrases:
            for m in re.finditer(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])", lowered):
                ahead = scan(lowered[m.end() : m.end() + 80])[2]
                found.append((m.start(), rank, phrase, _targets(ahead)))
        if cls.cjk and has_cjk(lowered):
            for w in cls.cjk:
                at = lowered.find(w)
                if (
                    at >= 0
                    and w in _ZH_AGREEING
                    and (
                        _ZH_LISTED.search(_clause_before(lowered, at))
                        or _ZH_EACH_TIME.search(_clause_before(whole or lowered, at))
                        or _ZH_WHOLE_BEFORE.search(whole or lowered, 0, at)
                    )
                ):
                    continue  # `A和B都…`, `每位客人都…`: 都 agrees with a list or a quantifier
                negated_any = (
                    at >= 0
                    and w in ("任何", "任意")
                    and _ZH_NEGATED_ANY.search(_clause_before(lowered, at)) is not None
                )
                if at >= 0:
                    follow = _ZH_ONE_OF.sub("", lowered[at + len(w) : at + len(w) + 6]).strip("的 ")
                    # `一律不予赔付`: what 一律 covers is the act, not its negation (`一律不赔`:
                    # a one-character act, no target)
                    acted = _ZH_NEGATION_HEAD.sub("", follow)
                    head = acted[:2] if acted == follow or all(map(has_cjk, acted[:2])) else ""
                    each = (
                        _ZH_EACH_NOUN.search(_clause_before(whole or lowered, at))
                        if w in _ZH_AGREEING
                        else None
                    )
                    if each is not None:
                        head = each.group(1)  # `每笔订单都`: the 都 of every order
                    target = keys(head) if len(head) == 2 and has_cjk(head) else frozenset()
                    found.append((at, rank, f"{_NOT_ANY}{w}" if negated_any else w, target))
    found.sort(key=lambda t: t[0])
    return tuple((rank, word, target) for _, rank, word, target in found)


_UNLESS_AS_EXCEPT = {
    w: re.compile(rf"(?<![\w-]){w}(?![\w-])") for w in ("unless", "если только не", "除非")
}
_EXCEPT_PREPOSITIONS = frozenset("in on at for during from by with при в во на для по от".split())
_EXCEPTED = "⊄"
"""Marks a negation that an exception makes (`except on public holidays`)."""


def _excepted(lowered: str, word: str = "") -> tuple[tuple[frozenset[str], str], ...]:
    """What an exception (`except on public holidays`, `кроме выходных`, 除了周末) takes out:
    a claim that asserts it states the opposite of the evidence. A plain `unless` (`word`)
    takes out what it names as `except` does (`unless you are a student` / `except
    students`)."""
    out = []
    plain = _UNLESS_AS_EXCEPT.get(word)
    found = [*_EXCEPT_RE.finditer(lowered), *(plain.finditer(lowered) if plain else ())]
    for m in found:
        ahead = scan(lowered[m.end() : m.end() + 60])[2]
        # `except in a medical emergency`: what is taken out follows the preposition
        target = _targets([w for w in ahead if w not in _EXCEPT_PREPOSITIONS], n_words=3)
        if target:
            out.append((target, f"{_EXCEPTED}{m.group()} {' '.join(ahead[:2])}"))
    return tuple(out)


def _rule_for_excepted(
    claim: Slots,
    evidence: Slots,
    unmatched_claim: list[Negation],
    unmatched_evidence: list[Negation],
) -> bool:
    """The claim states the evidence's negated rule of what its exception takes out (`в
    арендованных шкафчиках оставлять вещи тоже запрещено` for `запрещено, за исключением
    арендованных шкафчиков`): the rule's own negation, no exception of the claim's, nothing
    else negated or left unmet."""
    excepted = [e for e in unmatched_evidence if e[1].startswith(_EXCEPTED)]
    if (
        not excepted
        or len(excepted) != len(unmatched_evidence)
        or unmatched_claim
        or {"except", "onlyif", "unless"} & set(claim.conditions)
    ):
        return False
    # only a negated rule: `кроме` also adds (`кроме самосвалов закупят и …`, `кроме того`),
    # and what a positive rule excepts is often described in a clause of its own (`except
    # uploads, which may be up to 20 MB`)
    rule = [e for e in evidence.negated if not e[1].startswith(_EXCEPTED)]
    return bool(rule and claim.negated) and all(
        any(_meets(c, e) for e in rule) for c in claim.negated
    )


def _first(keys_: frozenset[str]) -> frozenset[str]:
    return frozenset(k for k in keys_ if not k.startswith("2:"))


def _second(keys_: frozenset[str]) -> frozenset[str]:
    return frozenset(k[2:] for k in keys_ if k.startswith("2:"))


def _meets(a: Negation, b: Negation) -> bool:
    """Two negations negate the same thing: the same next content word, or, for verbal
    negations, one's next word the other's second (`not cover damage` / `not damage`), or a
    Chinese one-character verb the other's negated word contains (`不赔` / `不予赔付`)."""
    fa, fb = _first(a[0]), _first(b[0])
    if fa & fb or (not fa and not fb):
        return True
    for x, y in ((fa, b), (fb, a)):
        if any(k.startswith(_ZH_SINGLE) and k[len(_ZH_SINGLE) :] in y[1] for k in x):
            return True
    a_without, b_without = a[1].split()[0] in _WITHOUT, b[1].split()[0] in _WITHOUT
    if a_without != b_without:
        # `без отдельной оплаты` / `отдельно не оплачивается`: the noun `without` takes (its
        # first or, after a modifier, its second word) is what the verbal negation negates
        w, v = (a, b) if a_without else (b, a)
        written = w[1].split()
        noun = _first(w[0]) | (
            _second(w[0]) if len(written) > 1 and _is_modifier(written[1]) else frozenset()
        )
        return bool(noun & _first(v[0]))
    if a_without:
        return False
    return bool(fa & _second(b[0]) or _second(a[0]) & fb)


def _is_modifier(word: str) -> bool:
    """An adjective or participle (`отдельной` in `без отдельной оплаты`): the noun after it is
    what `without` takes; not a noun (`без труда вырвал`: `труда` is)."""
    if word.isascii():
        return word in table("en").pos.get("a", ())
    return any(pos in ("ADJF", "PRTF") for _, pos in ru_lemmas(word)[:1])


def _denies_modal(negation: Negation) -> bool:
    """The negation denies a permission or a duty (`smoking is not allowed`, `не требуется`):
    evidence that merely mentions smoking, with no permission or duty of its own, does not
    state the opposite."""
    written = negation[1].split()
    return len(written) > 1 and written[1] in _MODAL_WORDS


def _adjacent(negation: Negation) -> bool:
    """The negation's first target is the word right after it (`не работает`, `not covered`)."""
    written = negation[1].split()
    return len(written) > 1 and bool(keys(written[1]) & _first(negation[0]))


_OPPOSITE = {"before": "after", "after": "before", "more": "less", "less": "more"}


def compare(
    claim: Slots, evidence: Slots, claim_keys: frozenset[str]
) -> tuple[list[RiskSignal], list[RiskSignal]]:
    """(every slot the claim fills differently from its evidence, those of them where the
    evidence states the opposite value: a negated predicate, the reverse order)."""
    out: list[RiskSignal] = []
    opposite: list[RiskSignal] = []
    # `if not Y, X` in the evidence says what the claim's `X unless Y` says, and the other
    # way round: each side is read in the other's condition form
    evidence = _if_not_as_unless(_restriction_as_only_if(evidence, claim), claim)
    claim = _restriction_as_only_if(claim, evidence)
    claim = _only_as_except(
        _if_not_as_unless(_not_before_as_only_after(claim, evidence), evidence), evidence
    )
    # a claim that permits, without a negation, what the evidence names only under its
    # negation (`也可以用现金缴纳押金` for `不接受现金押金`) grants what that negation refuses;
    # elsewhere such a word may stand in what the negation leaves true (`不知它为何减价`)
    permits = claim.modality.get("possible")
    refused = (
        {said for said, words in evidence.negated_only if words & claim_keys}
        if permits is not None
        and permits not in _EPISTEMIC
        and not claim.negated
        and not claim.privative
        else set()
    )
    relevant = [
        e
        for e in evidence.negated
        if (_first(e[0]) & claim_keys or e[1] in refused)
        # `not X but Y` says nothing against a claim about Y
        and not (e in evidence.contrasted and not _second(e[0]) & claim_keys)
    ]
    claim = _except_as_besides(claim, evidence)
    unmatched_claim = [
        c
        for c in claim.negated
        if not any(_meets(c, e) for e in evidence.negated) and not _first(c[0]) & evidence.privative
    ]
    unmatched_evidence = [
        e
        for e in relevant
        if not any(_meets(c, e) for c in claim.negated)
        and not any(_first(r[0]) & _first(e[0]) for r in claim.ruled)
        and not _first(e[0]) & claim.privative
        and not _first(e[0]) & claim.otherwise
        # `will remain unknown to you and the doctor` for `neither you nor the doctor will know`:
        # the claim's privative word negates the predicate the evidence's negation does
        and not (
            claim.privative & evidence.content
            and all(c[1].startswith(_EXCEPTED) for c in claim.negated)
        )
    ]
    if unmatched_claim or unmatched_evidence:
        said = ", ".join(c[1] for c in claim.negated) or "none"
        stated = ", ".join(e[1] for e in relevant) or "none"
        signal = RiskSignal(SignalCode.NEGATION_MISMATCH, f"claim: {said} (evidence: {stated})")
        out.append(signal)
        # the evidence states the predicate the claim negates, or negates the one it states
        # (an exception the evidence makes is no such statement: `except uploads` does not say
        # what uploads are allowed)
        asserted = [
            e
            for e in unmatched_evidence
            if not e[1].startswith(_EXCEPTED)
            # a claim that names its own case (`如果购买了…`) is about another case than the
            # evidence's negated subject (`未购买的，…`)
            and not (e in evidence.restricting and "if" in claim.conditions)
            # the evidence's `if not Y` asserts no `not Y` to a claim without a condition of
            # its own (`The item is damaged` for `If the item is not damaged, …`); a claim's
            # condition is compared with it (`unless you cancel` / `if you do not cancel`)
            and not (
                "if" in evidence.conditions and not claim.conditions and e in evidence.conditioned
            )
        ]
        # with a condition in the evidence, a negation the claim adds usually restates it
        # (`expires unless renewed` / `expires if not renewed`): not a contradiction
        # with a negation of its own in the evidence, a claim's negation on another word is
        # more often the same prohibition reworded (`not allowed to print` for `cannot use
        # the printing service`) than a clash: insufficient, not contradicted
        # evidence that only says it was tried, planned or believed (or asks) asserts nothing
        # a negation could contradict
        plain = (
            not evidence.conditions
            and not evidence.negated
            and not evidence.hedge
            and not claim.negation_objects & evidence.denied
        )
        # as many negations on both sides that merely name different words are mostly one
        # negation in another word order (`нельзя даже на велосипедах` / `… категорически
        # нельзя`): insufficient, not contradicted
        reworded = bool(claim.negated) and len(claim.negated) >= len(relevant)
        denied = [  # the claim negates the very word it puts next to its negation, which the
            # evidence states and negates nowhere (`не работает` for `работает без выходных`)
            c
            for c in unmatched_claim
            if _adjacent(c)
            and _first(c[0]) & evidence.content
            and not any(_first(c[0]) & e[0] for e in evidence.negated)
        ]
        if (
            (asserted and (not reworded or denied))
            or (
                plain
                and any(
                    _first(c[0]) & evidence.content and (evidence.modality or not _denies_modal(c))
                    for c in unmatched_claim
                )
            )
            or _rule_for_excepted(claim, evidence, unmatched_claim, unmatched_evidence)
        ):
            opposite.append(signal)
    quantifiers = _quantifiers(claim, evidence, claim_keys)
    out += quantifiers
    if claim.exclusive:
        # `only some residents` for `all residents`: the claim denies the rest the evidence
        # names (`some` alone only says less)
        opposite += [q for q in quantifiers if q.code is SignalCode.QUANTIFIER_MISMATCH]
    if (
        claim.exclusive
        and not evidence.exclusive
        and "onlyif" not in evidence.conditions
        # `只能随身携带` for `必须随身携带`: the one way allowed is the one required
        and not (claim.exclusive == ("只能",) and "obligation" in evidence.modality)
    ):
        out.append(
            RiskSignal(SignalCode.QUANTIFIER_WIDENED, f"{claim.exclusive[0]} (evidence: none)")
        )
    out += _conditions(*_until_as_before(claim, evidence))
    case, its_case = claim.condition_content.get("if"), evidence.condition_content.get("if")
    if (
        case
        and its_case
        and not its_case & claim_keys
        and not claim.case_numbers & evidence.case_numbers
        and "if" in claim.conditions
        and "if" in evidence.conditions
    ):
        # `if you have a mild cold` for `if you have a high fever`: another case than the
        # evidence's, under the same rule, whose own case the claim names nowhere
        detail = f"{claim.conditions['if']} … (evidence: {evidence.conditions['if']} …)"
        out.append(RiskSignal(SignalCode.CONDITION_CHANGED, detail))
    if (
        "if" in claim.conditions
        and evidence.exclusive
        and not evidence.conditions
        and not claim.exclusive
    ):
        # `if you completed a check, you can get a plan` for `plans are available only to
        # those who completed a check`: the evidence's necessary restriction made sufficient
        detail = f"{claim.conditions['if']} (evidence: {evidence.exclusive[0]})"
        out.append(RiskSignal(SignalCode.CONDITION_CHANGED, detail))
    waived = _required_waived(claim, evidence)
    out += [w for w in waived if w not in out]
    opposite += waived
    if (
        "onlyif" in claim.conditions
        and "onlyif" not in evidence.conditions
        and evidence.exclusive
        and not claim.exclusive
    ):
        # `只有新客户可以享受` / `only if you are an adult` restates the evidence's `仅适用于新客户`
        # / `only adults`: the necessary condition is the exclusive subject
        said = claim.conditions["onlyif"]
        out = [
            o
            for o in out
            if not (o.code is SignalCode.CONDITION_CHANGED and o.detail.startswith(said + " "))
        ]
    out += _necessary_made_sufficient(claim, evidence)
    if "onlyif" in evidence.conditions and "onlyif" not in claim.conditions and claim.exclusive:
        out = [
            o
            for o in out
            if not (
                o.code is SignalCode.CONDITION_DROPPED
                and "only" not in o.detail
                and o.detail.startswith(evidence.conditions["onlyif"])
            )
        ]
    out = [
        o
        for o in out
        if not (
            o.code is SignalCode.CONDITION_DROPPED
            and "if" in evidence.conditions
            and o.detail.startswith(evidence.conditions["if"] + " ")
            and _restated(evidence.condition_content.get("if", frozenset()), claim_keys)
        )
    ]
    requires = (
        "onlyif" in evidence.conditions
        and not {"onlyif", "if"} & set(claim.conditions)
        and "obligation" in claim.modality
        and _restated(evidence.condition_content.get("onlyif", frozenset()), claim_keys)
    )
    if requires:
        # `can only be taken with the head's approval` (须经人力资源部批准) says `taking it
        # requires the head's approval` (需要人力资源部批准): the necessary condition as a need
        out = [
            o
            for o in out
            if not (
                o.code is SignalCode.CONDITION_DROPPED
                and o.detail.startswith(evidence.conditions["onlyif"])
            )
        ]
    out += [
        m
        for m in _modality(claim, evidence)
        if not (requires and m.detail.startswith(claim.modality["obligation"] + " "))
    ]
    if claim.future and evidence.retrospective and not claim.retrospective:
        # `about 1 in 10 participants will get headaches` for `affected 1 in 10 in earlier
        # studies`: what was seen so far stated as what will happen
        detail = f"{claim.future} (evidence: {evidence.retrospective})"
        out.append(RiskSignal(SignalCode.MODALITY_STRENGTHENED, detail))
    for kind, word in claim.order.items():
        if kind == "upon" or (kind == "after" and "upon" in evidence.order):
            continue  # `после превышения` for `при превышении`: what follows the event
        if kind not in evidence.order:
            stated = ", ".join(evidence.order.values()) or "none"
            signal = RiskSignal(SignalCode.ORDER_MISMATCH, f"{word} (evidence: {stated})")
            out.append(signal)
            if _OPPOSITE[kind] in evidence.order and _OPPOSITE[kind] not in claim.order:
                opposite.append(signal)
    for cue in claim.inference:
        if cue not in evidence.inference:
            out.append(RiskSignal(SignalCode.INFERENCE_CUE, cue))
    return out, opposite


_REQUIRED = frozenset({"obligation", "strict"})


def _necessary_made_sufficient(claim: Slots, evidence: Slots) -> list[RiskSignal]:
    """A requirement the evidence states (`you must bring X to Y`, 须携带X参加考试, `должен`)
    stated by the claim as enough (`as long as you bring X, you can Y`, 只要携带X就可以参加考试):
    a necessary condition made sufficient. Only a claim that grants Y (`can`, 可以) reads so; one
    that keeps the requirement (`if you want to Y, you must bring X`) restates it."""
    if (
        not claim.sufficient
        or "possible" not in claim.modality
        or claim.main_negated
        or _REQUIRED & set(claim.modality)
        or not _REQUIRED & set(evidence.modality)
        or {"if", "onlyif", "except"} & set(evidence.conditions)
    ):
        return []
    stated = next(evidence.modality[k] for k in ("strict", "obligation") if k in evidence.modality)
    return [RiskSignal(SignalCode.CONDITION_CHANGED, f"{claim.sufficient} (evidence: {stated})")]


def _restriction_as_only_if(text: Slots, other: Slots) -> Slots:
    """`未通过认证的用户不能调用`, `users who have not passed it cannot call`, `Пользователи, не
    прошедшие проверку, не могут`: the subject's negated restriction and the negated rule
    state `only users who passed can call`; read so when the other side states the rule
    with `only` (as a condition or an exclusive subject) and this side has none."""
    if (
        not text.restricted
        or text.conditions
        or len(text.negated) < 2
        or not ("onlyif" in other.conditions or other.exclusive)
        or other.negated
    ):
        return text
    return replace(
        text,
        conditions={"onlyif": text.restricted},
        negated=text.negated[2:],
        main_negated=False,
    )


def _only_as_except(claim: Slots, evidence: Slots) -> Slots:
    """`X only during Y` (只有Y才X, `X только если Y`) states `not X, except during Y` (除Y外，
    不X): read the claim in the evidence's form when the evidence states the rule as a
    negation with an exception and the claim negates nothing the evidence does not. The
    evidence keeps its negation, so a claim that drops the exception (`X is permitted`) still
    clashes with it."""
    if (
        "onlyif" not in claim.conditions
        # a negation of the claim's own (not in a `…的` subject the evidence negates too)
        or any(not any(_meets(c, e) for e in evidence.negated) for c in claim.negated)
        or "except" not in evidence.conditions
        or not evidence.main_negated
        or {"onlyif", "if", "unless"} & set(evidence.conditions)
    ):
        return claim
    wanted = claim.condition_content.get("onlyif") or _condition_words(claim.conditions["onlyif"])
    excepted = frozenset().union(*(t for t, w in evidence.negated if w.startswith(_EXCEPTED)))
    if wanted and excepted and not wanted & excepted:
        # `нельзя оставлять без присмотра` (only under supervision) is no reading of `не
        # оставляйте …, за исключением приборов непрерывной работы`: the same rule (its
        # negations are the evidence's), without the evidence's exception
        rule = tuple(n for n in evidence.negated if not n[1].startswith(_EXCEPTED))
        return replace(claim, negated=rule)
    conditions = {k: v for k, v in claim.conditions.items() if k != "onlyif"}
    conditions["except"] = f"only … ({claim.conditions['onlyif']})"
    return replace(claim, conditions=conditions, negated=evidence.negated, condition_content={})


def _condition_words(written: str) -> frozenset[str]:
    """Keys of the words a condition as written names after its first word (`без присмотра`
    -> присмотр): what the condition is about, when its slots kept no content for it."""
    found = _WORD_AT.findall(written.lower())[1:]
    return frozenset().union(*(keys(w) for w in found)) if found else frozenset()


def _if_not_as_unless(claim: Slots, evidence: Slots) -> Slots:
    """`if not Y, X` states `X unless Y` (如果没有Y，X = 除非Y，否则X), and `if not Y, not X`
    states `X only if Y`: read the claim in the evidence's form when the evidence states the
    rule with `unless`/`only if`/`except` and no `if` of its own."""
    kinds = set(evidence.conditions)
    if not claim.if_negated or "if" not in claim.conditions or "if" in kinds:
        return claim
    wanted = "onlyif" if claim.main_negated else "except"
    both_negated = (
        wanted == "onlyif" and "onlyif" not in kinds and "except" in kinds and evidence.main_negated
    )
    if both_negated:
        # `not X if not Y` = `not X, except Y` (`cannot exceed 600 if the shop has no limit` /
        # `cannot exceed 600, except for shops with a limit`): both keep the rule's negation
        wanted = "except"
    if wanted not in kinds:
        return claim
    conditions = {k: v for k, v in claim.conditions.items() if k != "if"}
    conditions[wanted] = f"if not ({claim.conditions['if']})"
    negated = _without(claim.negated, claim.if_negated[0])
    if wanted == "onlyif":
        negated = negated[1:]  # the rule's own negation belongs to the condition form
    elif any(e[1].startswith(_EXCEPTED) for e in evidence.negated):
        # `if not Y` takes Y out as the evidence's `except Y` does: the same exception, on the
        # same word (an `unless Y` of the evidence names no such exception)
        target, written = claim.if_negated[0]
        negated = (*negated, (target, f"{_EXCEPTED}{written}"))
    return replace(claim, conditions=conditions, negated=negated, condition_content={})


def _not_before_as_only_after(claim: Slots, evidence: Slots) -> Slots:
    """`X cannot happen before Y` states the rule `X only after Y` (Y之前无法X = 只有在Y后才能X):
    read the claim in the evidence's form when that is the form the evidence uses."""
    if not (
        "onlyif" in evidence.conditions
        and "after" in evidence.order
        and "before" in claim.order
        and "after" not in claim.order
        and not claim.conditions
        and len(claim.negated) == 1
    ):
        return claim
    order = {k: v for k, v in claim.order.items() if k != "before"}
    order["after"] = "(not before)"
    modality = dict(claim.modality)
    if "possible" in evidence.modality:
        modality.setdefault("possible", "(not before)")
    return replace(
        claim,
        negated=(),
        conditions={"onlyif": f"not … {claim.order['before']}"},
        order=order,
        modality=modality,
    )


def _restated(condition: frozenset[str], claim_keys: frozenset[str]) -> bool:
    return (
        bool(condition)
        and len(condition & claim_keys) * 3 >= len(condition) * 2
        and bool(condition & claim_keys)
    )


_DEFINITE_PHRASE = re.compile(
    r"(?<![\w-])(?:the|this|that|these|those|its|their|our|your|his|her)\s+"
    r"([a-z-]+(?:\s+[a-z-]+){0,2})"
)


def _definite(lowered: str) -> frozenset[str]:
    return frozenset().union(
        *(keys(w) for m in _DEFINITE_PHRASE.finditer(lowered) for w in m.group(1).split())
    )


def _quantifiers(claim: Slots, evidence: Slots, claim_keys: frozenset[str]) -> list[RiskSignal]:
    """Quantifiers compared on what they quantify: `all backups` needs `all` (or `every`) on
    backups; dropping `some` widens; `some` for the evidence's `all` says less than it does
    and implies not all."""
    out = []

    def rank_on(target: frozenset[str], side: Slots, past: bool = False) -> tuple[int, str]:
        # what each quantifies: its next content word; with `past`, also the claim's second
        # word (`every further page` narrows `each page`; `every account` for `every free
        # account` does not match: it drops the restriction)
        hits = [
            (r, w)
            for r, w, t in side.quantified
            if not target or not t or t & target or (past and _first(t) & _second(target))
        ]
        return max(hits, default=(0, ""))

    for c, marked, target in claim.quantified:
        if marked == "per":
            continue
        word = marked.removeprefix(_NOT_ANY)
        if word != marked and target & evidence.bare_negated:
            continue  # `不得携带任何动物` for `不得携带动物`: no animal either way
        e, e_word = rank_on(target, evidence, past=True)
        if word == "any" and e == 0 and not _first(target) & evidence.definite:
            continue  # `for any damage` for `for damage`: a rule's bare noun is already any
        if (
            word == "any"
            and e == 0
            and claim.negated
            and any(
                target & governed and _NONE_OF.match(said) for governed, said in evidence.negated
            )
        ):
            # `does not delete any of your files` for `none of your files are deleted` (not
            # for `does not count against the production limit`: `any limit` widens that)
            continue
        if (c == 3 and e < 3) or (c == 2 and e == 1):
            out.append(
                RiskSignal(SignalCode.QUANTIFIER_WIDENED, f"{word} (evidence: {e_word or 'none'})")
            )
        elif c == 1 and e == 3:
            out.append(RiskSignal(SignalCode.QUANTIFIER_MISMATCH, f"{word} (evidence: {e_word})"))
    for e, word, target in evidence.quantified:
        if 0 < e < 3 and (not target or target & claim_keys):
            c, _ = rank_on(target, claim)
            if c == 0:
                detail = f"unquantified (evidence: {word})"
                out.append(RiskSignal(SignalCode.QUANTIFIER_WIDENED, detail))
    return out


def _required_waived(claim: Slots, evidence: Slots) -> list[RiskSignal]:
    """The claim permits without what the evidence requires (`you may take the car abroad
    without written permission` for `the car may not be taken abroad without written
    permission`): the evidence's `only if Y` against the claim's `may X without Y`."""
    if "onlyif" not in evidence.conditions or {"onlyif", "except"} & set(claim.conditions):
        return []
    required = evidence.condition_content.get("onlyif") or _condition_words(
        evidence.conditions["onlyif"]
    )
    if not required or "possible" not in claim.modality:
        return []
    # only `without` negations: `X is not allowed without Y` restates the evidence's rule
    # (read as `only if` above, so it never gets here)
    if not all(m[1].split()[0] in _WITHOUT for m in claim.negated):
        return []
    said = [n for n in claim.negated if (_first(n[0]) | _second(n[0])) & required]
    if not said:
        return []
    detail = f"claim: {said[0][1]} (evidence: {evidence.conditions['onlyif']})"
    return [RiskSignal(SignalCode.NEGATION_MISMATCH, detail)]


def _until_as_before(claim: Slots, evidence: Slots) -> tuple[Mapping[str, str], Mapping[str, str]]:
    """The two sides' conditions, without an `until` (`пока не будут возвращены`) the other
    side states as `до` with a noun (`до возврата`): the same limit in time."""
    mine, theirs = dict(claim.conditions), dict(evidence.conditions)
    if "until" in mine and "until" not in theirs and evidence.order.get("before") == "до":
        del mine["until"]
    if "until" in theirs and "until" not in mine and claim.order.get("before") == "до":
        del theirs["until"]
    return mine, theirs


def _conditions(claim: Mapping[str, str], evidence: Mapping[str, str]) -> list[RiskSignal]:
    """A condition of the evidence the claim drops, or one whose kind it changes (a
    necessary condition stated as a sufficient one: `only if` -> `if`); a claim may add a
    sufficient condition of its own, which only narrows what it says."""
    out = []
    for kind, word in evidence.items():
        if kind in claim:
            continue
        if kind == "proviso" and {"if", "onlyif"} & set(claim):
            continue
        if kind in ("if", "onlyif") and "proviso" in claim and not {"if", "onlyif"} & set(claim):
            continue  # a proviso alone agrees with either; `whenever` beside it is an `if`
        other = {"if": "onlyif", "onlyif": "if"}.get(kind, "")
        if other in claim:
            said = claim[other]
            out.append(RiskSignal(SignalCode.CONDITION_CHANGED, f"{said} (evidence: {word})"))
            continue
        out.append(RiskSignal(SignalCode.CONDITION_DROPPED, f"{word} (claim: none)"))
    for kind, word in claim.items():
        if kind in evidence or kind in ("if", "proviso"):
            continue
        if kind == "onlyif" and ({"if", "proviso"} & set(evidence)):
            continue  # reported above, or a proviso
        out.append(RiskSignal(SignalCode.CONDITION_CHANGED, f"{word} (evidence: none)"))
    return out


def _modality(claim: Slots, evidence: Slots) -> list[RiskSignal]:
    out = []
    c_kinds, e_kinds = set(claim.modality), set(evidence.modality)
    hedged_claim = bool(c_kinds & HEDGED) or bool(claim.hedge)
    weak = sorted(e_kinds & {"possible", "typical"})
    if (
        (
            "onlyif" in evidence.conditions
            or (
                evidence.exclusive
                and (claim.exclusive or "onlyif" in claim.conditions)
                and not claim.future
            )
        )
        and "possible" in weak
        and not c_kinds & _FIRM
    ):
        # `can X only if Y` (只有Y才能X) and `only Y can X` are rules about X, not hedges on
        # it (`only managers approve` says the same); a claim that says X *must* happen
        # still says more
        weak.remove("possible")
    if "possible" in weak and evidence.entitled and not c_kinds & _FIRM and not claim.future:
        weak.remove("possible")  # `可享受5天年假` grants the days: `有5天年假` restates it
    if (
        "possible" in weak
        and not c_kinds & _FIRM
        and not claim.future
        and claim.capped & evidence.capped
    ):
        # `may take up to 8 tablets` (最多可服用8片) states the cap: `takes at most 8`, `must not
        # take more than 8`; a claim that says it *will* or *must* happen still says more
        weak.remove("possible")
    if weak and not (c_kinds & HEDGED):
        said = next(iter(claim.modality.values()), claim.future or "unhedged")
        out.append(
            RiskSignal(
                SignalCode.MODALITY_STRENGTHENED,
                f"{said} (evidence: {evidence.modality[weak[0]]})",
            )
        )
    for kind in ("obligation", "strict", "guarantee"):
        if kind == "obligation" and "onlyif" in evidence.conditions:
            continue  # `can only be taken with approval` says `taking it requires approval`
        if kind == "obligation" and not e_kinds and not evidence.hedge:
            continue  # a rule stated plainly (`rent is paid by the 5th`) is one you must keep
        if kind in c_kinds and kind not in e_kinds:
            stated = next(iter(evidence.modality.values()), "none")
            out.append(
                RiskSignal(
                    SignalCode.MODALITY_STRENGTHENED, f"{claim.modality[kind]} (evidence: {stated})"
                )
            )
    if "advice" in e_kinds and not hedged_claim and not (c_kinds & {"obligation", "advice"}):
        out.append(
            RiskSignal(
                SignalCode.MODALITY_STRENGTHENED,
                f"unhedged (evidence: {evidence.modality['advice']})",
            )
        )
    if evidence.hedge and not claim.hedge:
        out.append(
            RiskSignal(
                SignalCode.MODALITY_STRENGTHENED, f"unhedged (evidence: {evidence.hedge[0]})"
            )
        )
    elif (
        (possible := [h for h in evidence.hedge if h in _ABILITY_HEDGES])
        and not any(h in _ABILITY_HEDGES for h in claim.hedge)
        and claim.modality.get("possible") not in _HEDGING_MODALS
    ):
        # `may be able to arrange` is a chance, `can arrange` a right; another hedge of the
        # claim (`if you expect …`) does not keep it
        out.append(RiskSignal(SignalCode.MODALITY_STRENGTHENED, f"can (evidence: {possible[0]})"))
    return out


_ABILITY_HEDGES = frozenset(
    {"may be able", "might be able", "may be possible", "might be possible"}
)
_HEDGING_MODALS = frozenset({"may", "might", "could"})
