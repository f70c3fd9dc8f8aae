"""Typed units of a sentence for alignment: quantities, identifiers and closed-class words.

A hallucination that edits one word of a real sentence keeps almost all of its overlap, so the
gate compares the few words that carry the claim's meaning as typed slots: numbers with their
unit and scale (digits glued to CJK text included, number words in en/ru/zh), identifiers whose
digits are part of the name (`TLS 1.3`, `SHA-256`, `ISO 27001`, `v2.1`), quantifiers, negation,
conditions and modality. Everything here is a table or a regular expression: deterministic,
cheap and easy to grow.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache, wraps
from typing import TypeVar

from stream.verify import patterns
from stream.verify.numerals import EN_NUMBERS, NUMBER_WORD_TOKENS, ONE_WORDS, RU_NUMBERS
from stream.verify.tokens import number_token

__all__ = ["EN_NUMBERS", "ONE_WORDS", "RU_NUMBERS"]

CACHE_TEXT_CHARS = 8192
"""Texts up to this length are cached; longer ones (whole cited documents) are computed each
time, so a long-running worker never holds thousands of documents alive in its caches."""
_T = TypeVar("_T")


def short_cache(
    maxsize: int, max_chars: int = CACHE_TEXT_CHARS
) -> Callable[[Callable[[str], _T]], Callable[[str], _T]]:
    """`lru_cache` for functions of one text, bypassed for texts over `max_chars`: the cache's
    memory is bounded by `maxsize` x `max_chars`, not by the longest document ever seen."""

    def wrap(fn: Callable[[str], _T]) -> Callable[[str], _T]:
        cached = lru_cache(maxsize=maxsize)(fn)

        @wraps(fn)
        def call(text: str) -> _T:
            return cached(text) if len(text) <= max_chars else fn(text)

        return call

    return wrap


_CJK = re.compile("[\u3400-\u9fff]")


def _whole(phrase: str, text: str) -> bool:
    """`phrase` occurs in `text` as whole words (punctuation around it allowed)."""
    if len(text) > CACHE_TEXT_CHARS:
        return _phrase_re(phrase).search(text) is not None
    return _whole_cached(phrase, text)


@lru_cache(maxsize=4096)
def _whole_cached(phrase: str, text: str) -> bool:
    return _phrase_re(phrase).search(text) is not None


@lru_cache(maxsize=1024)
def _phrase_re(phrase: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w){re.escape(phrase)}(?!\w)")


def has_cjk(text: str) -> bool:
    """Whether `text` has a Han character. ASCII text (most tokens, English claims) is answered
    by `str.isascii` at once; the rest by a cached C-speed search (the same claim and window
    are asked about by every word class)."""
    return not text.isascii() and _has_cjk(text)


@short_cache(maxsize=2048)
def _has_cjk(text: str) -> bool:
    return _CJK.search(text) is not None


# ----------------------------------------------------------------------------- number words

SCALES: dict[str, int] = {
    "thousand": 1000, "million": 10**6, "billion": 10**9, "trillion": 10**12,
    "тыс": 1000, "тысяча": 1000, "тысячи": 1000, "тысяч": 1000, "тысячу": 1000,
    "млн": 10**6, "миллион": 10**6, "миллиона": 10**6, "миллионов": 10**6,
    "млрд": 10**9, "миллиард": 10**9, "миллиарда": 10**9, "миллиардов": 10**9,
    "k": 1000, "m": 10**6, "bn": 10**9,
}  # fmt: skip
_ZH_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6,
              "七": 7, "八": 8, "九": 9}  # fmt: skip
_ZH_SMALL = {"十": 10, "百": 100, "千": 1000}
_ZH_BIG = {"万": 10**4, "亿": 10**8}
ZH_NUMERALS = "".join(_ZH_DIGITS) + "".join(_ZH_SMALL) + "".join(_ZH_BIG)
ZH_CLASSIFIERS = (
    "个月", "小时", "分钟", "毫秒", "星期", "个", "名", "位", "家", "项", "次", "台", "条",
    "人", "种", "倍", "天", "年", "月", "周", "秒", "岁", "元", "份", "张", "层", "级", "款",
    "部", "座", "所", "门", "节", "篇", "本", "件", "只", "头", "批", "轮", "组", "款", "道",
    "片", "粒", "袋", "瓶", "支", "毫升", "公里", "千米", "公斤", "千克", "毫克", "摄氏度",
    "日", "册", "度", "斤",
)  # fmt: skip
"""Classifiers and units a Chinese numeral stands before (`五十毫升` is `50毫升`); no
one-character unit that also ends words (`统一升级` is no `统1升`)."""


_COUNTERS = frozenset("个名位家项次台条人种份张层级款部座所门节篇本件只头批轮组道片粒袋瓶支册")
"""Chinese classifiers that are no unit of measure: what is counted."""
_SAME_COUNTER = {"册": "本", "名": "位", "人": "位"}
"""Classifiers that count the same things: volumes (`10本` / `10册`), people (`2位` / `2名` /
`2人`)."""


def zh_number(run: str) -> float | None:
    """Value of a run of Chinese numerals (`二十五` 25, `两千` 2000, `三万五千` 35000)."""
    total, section, digit = 0, 0, None
    for ch in run:
        if ch in _ZH_DIGITS:
            # 一二三 may be written digit by digit
            digit = _ZH_DIGITS[ch] if digit is None else digit * 10 + _ZH_DIGITS[ch]
        elif ch in _ZH_SMALL:
            section += (1 if digit is None else digit) * _ZH_SMALL[ch]
            digit = None
        elif ch in _ZH_BIG:
            section += digit or 0
            total += (section or 1) * _ZH_BIG[ch]
            section, digit = 0, None
        else:
            return None
    return float(total + section + (digit or 0))


_ZH_RUN = re.compile(f"(第?)(?<![0-9.])([{ZH_NUMERALS}]+)(?=({'|'.join(ZH_CLASSIFIERS)}))")
_ZH_ARTICLE = re.compile(
    "(?<![每第这那哪])一(?=[个名位种家项条份件])(?![个名位种家项条份件][月小])"
)
"""`一个订单` is "an order", not a count of one: 一 before a noun's classifier stays a word."""


_ALL_DAY_HEADS = re.compile(r"(?i)clock|24 hours a day|24/7|day and night|any time of|сут|ночью")
_ALL_DAY = re.compile(
    r"(?<![\w-])(?:(?:around|round) the clock|24 hours a day(?:,? (?:and )?7 days a week)?|24/7"
    r"|day and night|at any time of (?:the )?day(?: or night)?"
    r"|в любое время суток|24 часа в сутки|днём и ночью|днем и ночью)(?![\w-])",
    re.IGNORECASE,
)
"""Ways of saying at every hour (`around the clock`, `24 hours a day`, `в любое время суток`,
`24 часа в сутки`): one word, so that neither side's wording reads as an amount of hours."""
_CYRILLIC = re.compile("[\u0400-\u04ff]")


def _all_day(m: re.Match[str]) -> str:
    return "круглосуточно" if _CYRILLIC.search(m.group()) else "around-the-clock"


_HAVE_TIME_TO = re.compile(
    r"(?<=\bhave |\b has )(?=(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve|"
    r"fourteen|fifteen|twenty|thirty|sixty|ninety)\s+(?:working\s+|business\s+|calendar\s+)?"
    r"(?:days?|weeks?|months?|hours?)(?![\w-])[^.;!?]{0,50}?\sto\s+[a-z]+)",
    re.IGNORECASE,
)
"""`you have 10 working days (from …) to ask`: a deadline, the `within 10 days` it grants."""
_A_PERIODS = re.compile(r"(?<![\w-])a\s+(?=(?:day|week|month|year)['’]s(?![\w-]))", re.IGNORECASE)
"""`a month's notice` is an amount: `one month's notice`."""
_NO_SINGLE = re.compile(r"(?<![\w-])(no|not a|not one)\s+single(?![\w-])", re.IGNORECASE)
"""`no single upload`, `not a single file`: `no upload`, `no file` (no count of one)."""
_NEGATED_COMPARATIVE = re.compile(
    r"(?<![\w-])(can't|cannot|can not|must not|mustn't|may not|should not|shouldn't|won't|"
    r"will not)\s+be\s+(?=(?:heavier|longer|larger|bigger|wider|higher|taller|greater|"
    r"more|later)\s+than(?![\w-]))",
    re.IGNORECASE,
)
"""`can't be heavier than 30 kg` bounds as `no heavier than` does, under its modal."""
_OR_COMPARATIVE = re.compile(
    r"(\sbe\s+no\s+\w+\s+than\s+[^,;.!?]{1,30}?\s+or\s+)(?=(?:heavier|longer|larger|bigger|"
    r"wider|higher|taller|greater|more|later)\s+than(?![\w-]))",
    re.IGNORECASE,
)
"""`… be no heavier than 30 kg or longer than 120 cm`: the second comparative is bounded too."""
_MODAL_OF = {"can't": "can", "cannot": "can", "can not": "can", "mustn't": "must",
             "must not": "must", "may not": "may", "should not": "should",
             "shouldn't": "should", "won't": "will", "will not": "will"}  # fmt: skip


def _modal_no(m: re.Match[str]) -> str:
    modal = _MODAL_OF.get(m.group(1).lower(), "can")
    return f"{modal} be no "


@short_cache(maxsize=4096)
def normalize_zh(text: str) -> str:
    """Chinese numerals in front of a classifier become digits (`两个` → `2个`), so both sides
    of a comparison write counts the same way; bare `一` inside words (`一些`, `统一`) stays.
    Clock times of the 12-hour form become 24-hour ones in any language (`6 pm` → `18:00`)."""
    text = normalize_clock(text)
    if "thousand" in text or "тысяч" in text:
        text = _THOUSANDS.sub(_thousands, text)
    if "single" in text or "Single" in text:
        text = _NO_SINGLE.sub(lambda m: m.group(1) if m.group(1).lower() == "no" else "no", text)
    if "'s" in text or "’s" in text:
        text = _A_PERIODS.sub("one ", text)
    if " to " in text and ("have " in text or "has " in text):
        text = _HAVE_TIME_TO.sub("within ", text)
    if " than" in text and " be " in text:
        text = _NEGATED_COMPARATIVE.sub(_modal_no, text)
        if " be no " in text and " or " in text:
            text = _OR_COMPARATIVE.sub(r"\1no ", text)
    if "alf" in text or "оловин" in text:
        text = _HALF_OF.sub("50% ", text)
    if ("year" in text or "в год" in text) and _TIMES_HEADS.search(text):
        text = _TIMES_A_YEAR.sub(_every_months, text)
    if ("%" in text and (" off" in text or " cheaper" in text)) or "half" in text or "Half" in text:
        text = _PRICE_OFF.sub(lambda m: f"{m.group(1) or '50%'} discount", text)
    if any(h in text for h in _FREE_HEADS):
        text = _FREE.sub(lambda m: "бесплатно" if m.group()[:1] >= "\u0400" else "free", text)
    if "o " in text:
        text = _NO_SUBJECT_MAY.sub(_subject_may_not, text)
    if not has_cjk(text):
        return text

    def repl(m: re.Match[str]) -> str:
        if (
            m.group(2) == "一"
            and (
                _ZH_ARTICLE.match(text, m.start(2))
                or m.group(3) == "度"  # `一度`: at one time
                # `那一天`, `这一天`, `同一天`: the day named, not a count of days
                or (
                    text[m.start(2) - 1 : m.start(2)] in "那这同某哪" and m.group(3) in ("天", "日")
                )
            )
        ):
            return m.group(0)
        value = zh_number(m.group(2))
        if value is None:
            return m.group(0)
        return m.group(1) + _fmt(value)

    def percent(m: re.Match[str]) -> str:
        run = m.group(1)
        value = float(run) if run[0].isdigit() else zh_number(run)
        if value is None or (m.group(2) and (run[0].isdigit() or value != int(value))):
            return m.group(0)
        if m.group(2):
            value = float(f"{int(value)}.{''.join(str(_ZH_DIGIT[c]) for c in m.group(2))}")
        return _fmt(value) + "%"

    text = _ZH_PERCENT.sub(percent, text).replace("℃", "摄氏度")
    if "刻钟" in text:
        text = text.replace("一刻钟", "15分钟").replace("三刻钟", "45分钟")
    if "零点" in text:
        text = _ZH_MIDNIGHT.sub("0点", text)  # midnight, not `零点五` (0.5)
    if "一部分" in text:
        text = text.replace("一部分", "部分")  # some of them, not a count of one
    if "分之" in text:
        text = _ZH_FRACTION.sub(_zh_fraction, text)
    if "一年到头" in text or "一年四季" in text:
        text = text.replace("一年到头", "全年").replace("一年四季", "全年")  # all year round
    if "第二天" in text:
        text = text.replace("第二天", "次日")  # the next day, as `次日` writes it
    if "首次" in text:
        text = text.replace("首次", "第1次")  # the first time, as `第一次` writes it
    if "单次" in text:
        text = text.replace("单次", "1次")  # a single time, as `一次` writes it
    if "倍" in text and "点" in text:
        text = _ZH_DECIMAL_TIMES.sub(_zh_decimal, text)
    if "季度" in text:
        text = _ZH_QUARTERLY.sub("每3个月", text)  # every quarter is every three months
    if "每晚" in text or "每早" in text:
        # `每晚23点` is `每天晚上23点`: every day, at night
        text = text.replace("每晚", "每天晚上").replace("每早", "每天早上")
    if "点" in text:
        text = _ZH_CLOCK_RANGE.sub(_zh_clock_range, text)
        text = _ZH_CLOCK_OF_DAY.sub(_zh_clock, text)
        text = _ZH_CLOCK.sub(_zh_bare_clock, text)
    if ":" in text or "：" in text:
        text = _ZH_COLON_RANGE.sub(_zh_clock_range, text)
        text = _ZH_COLON_CLOCK.sub(_zh_clock, text)
    if "成" in text or "一半" in text:
        text = _ZH_TENTHS.sub(lambda m: f"{_fmt(10 * (zh_number(m.group(1)) or 0))}%", text)
        text = text.replace("一半", "50%")
    if "费" in text or "钱" in text:
        text = _ZH_FREE.sub("免费", text)
    if "如" in text:
        text = _ZH_SHORT_IF.sub("如果", text)
    if "禁用" in text:
        text = text.replace("禁用", "禁止使用")  # `禁用本品`: its use is forbidden
    if "禁烟" in text:
        text = text.replace("禁烟", "禁止吸烟")  # `禁烟房`: smoking is forbidden there
    if "角" in text or "毛钱" in text:
        text = _ZH_JIAO.sub(lambda m: f"0.{_fmt(zh_number(m.group(1)) or 0)}元", text)
    text = _ZH_PER_DAY.sub(r"每\1", _ZH_RUN.sub(repl, text))
    if "到" in text or "至" in text:
        text = _ZH_RANGE_START.sub(_zh_range_start, text)
    return _ZH_PEOPLE.sub(r"\1人", text)


_ZH_RANGE_START = re.compile(
    r"(?<![第统唯之万])([零〇一二三四五六七八九十两百]+)(?=(?:到|至|~|～|-)\d)"
)
"""The first number of a range written in numerals before a second in digits (`五到7个工作日`,
once the second has its classifier): digits too, so the two ends compare as numbers."""


def _zh_range_start(m: re.Match[str]) -> str:
    value = zh_number(m.group(1))
    return m.group(0) if value is None else _fmt(value)


_PENCE = re.compile(r"(?<![\w.,£$€])(\d{1,2})\s?(?:pence|p)(?![\w-])")
"""`25 pence`, `20p`: sterling's subunit, written as `£0.25` the way prices are compared."""
_ZH_DECIMAL_TIMES = re.compile(
    r"([零〇一二三四五六七八九十两]{1,3})点([零〇一二三四五六七八九]{1,2})(?=倍)"
)
"""`一点五倍` is 1.5 times."""


def _zh_decimal(m: re.Match[str]) -> str:
    whole, tenths = zh_number(m.group(1)), "".join(str(int(zh_number(c) or 0)) for c in m.group(2))
    return m.group(0) if whole is None else f"{int(whole)}.{tenths}"


_ZH_CLOCK = re.compile(
    r"(上午|早上|早晨|凌晨|中午|下午|傍晚|晚上|夜里|夜间|午夜)?"
    r"(?<![\d零〇一二三四五六七八九十两])([零〇一二三四五六七八九十两]{1,3}|\d{1,2})点"
    r"(半|零?([零〇一二三四五六七八九十]{1,3}|\d{1,2})分)?"
    r"(?=[到至前后之以起开始左右，。、；\s]|$)"
)
"""`下午五点`, `早上七点半`, `9点`: a Chinese time of day (not `快一点`: only before 到/前/后 or
a clause end)."""
_ZH_COLON_CLOCK = re.compile(
    r"(上午|早上|早晨|凌晨|中午|下午|傍晚|晚上|夜里|夜间)\s?(\d{1,2})()[:：]([0-5]\d)(?!\d)"
)
"""`下午6:00`: a clock time in digits with the part of the day before it (`18:00`)."""
_ZH_CLOCK_OF_DAY = re.compile(
    r"(上午|早上|早晨|凌晨|中午|下午|傍晚|晚上|夜里|夜间|午夜)"
    r"([零〇一二三四五六七八九十两]{1,3}|\d{1,2})点"
    r"(半|零?([零〇一二三四五六七八九十]{1,3}|\d{1,2})分)?"
)
"""`下午6点关门`: with the part of the day before it, `点` is a time whatever follows."""
_NO_SUBJECT_MAY = re.compile(
    r"(?<![\w-])(?<!have )(?<!has )(?<!had )(?<!having )(?<!with )"
    r"([Nn])o ([a-z]+) (may|can|shall|must|will|is allowed to|are allowed to)(?![\w-])"
)
"""`No engineer may be scheduled for more than 2 shifts` says what `an engineer may not be
scheduled for more than 2 shifts` says: the negation governs the predicate and its bound (not
after `have`/`with`: `vehicles that have no permit may park` is `without a permit`)."""


def _subject_may_not(m: re.Match[str]) -> str:
    noun, modal = m.group(2), m.group(3)
    subject = noun if noun == "one" else ("an " if noun[0] in "aeiou" else "a ") + noun
    if m.group(1) == "N":
        subject = subject[0].upper() + subject[1:]
    if modal.endswith("allowed to"):
        return f"{subject} {modal.split()[0]} not allowed to"
    return f"{subject} {modal} not"


_HALF_OF = re.compile(
    r"(?<![\w-])(?:[Hh]alf\s+(?:of\s+)?(?=(?:the|its|their|your|his|her|our|this|that|these|those|"
    r"all)\s)|[Пп]оловин[аеуы]\s+(?!(?:часа|дня|суток|года|месяца|недели|срока|пути|ночи)\b))"
)
"""`half of the deposit`, `половина депозита` is `50%` of it (`half an hour`, `половина дня` are
amounts of time, read elsewhere)."""
_TIMES_HEADS = re.compile(r"twice|times|дважды|раза?\b|раз(?=\s)", re.IGNORECASE)
"""A cheap test before `_TIMES_A_YEAR`: a count of times at all."""
_TIMES_A_YEAR = re.compile(
    r"(?<![\w-])(twice|two times|2 times|three times|3 times|four times|4 times|six times|"
    r"6 times|twelve times|12 times|дважды|два раза|2 раза|три раза|3 раза|четыре раза|"
    r"4 раза|шесть раз|6 раз)\s+(?:a|per|each|every|в)\s+(?:calendar\s+)?(?:year|год)"
    r"(?![\w-])",
    re.IGNORECASE,
)
"""`twice a year` is `every 6 months`: a count per year that divides it into equal months."""
_TIMES_COUNT = {"twice": 2, "дважды": 2, "two": 2, "два": 2, "three": 3, "три": 3, "four": 4,
                "четыре": 4, "six": 6, "шесть": 6, "twelve": 12}  # fmt: skip


_CAPPED_BEFORE = re.compile(
    r"(?:up to|at most|no more than|not more than|maximum of|max|a maximum of|at least|"
    r"no fewer than|not less than|more than|over|до|не более|не больше|максимум|не менее|"
    r"не реже|минимум|как минимум|более|больше|хотя бы)\s+$",
    re.IGNORECASE,
)
"""A bound before a count per year (`up to 6 times per year`, `at least twice a year`)."""


def _every_months(m: re.Match[str]) -> str:
    """`twice a year` → `every 6 months`; a bounded count stays as it is."""
    if _CAPPED_BEFORE.search(m.string, max(0, m.start() - 20), m.start()):
        return m.group(0)  # `up to 6 times per year` bounds a count, it sets no schedule
    first = m.group(1).split()[0].lower()
    n = int(first) if first.isdigit() else _TIMES_COUNT[first]
    months = 12 // n
    return f"every {months} months" if m.group(1).isascii() else f"каждые {months} месяцев"


_SPELLED = patterns.words((*EN_NUMBERS, *RU_NUMBERS), ignorecase=True)
_THOUSANDS = re.compile(
    rf"(?<![\w-])(?:({_SPELLED})\s+(?:thousand|тысяч[аи]?)|a\s+thousand|тысяч[ау])"
    rf"((?:\s+(?:and\s+)?(?:{_SPELLED}|hundred)(?![\w-]))+)",
    re.IGNORECASE,
)
"""`восемь тысяч четыреста`, `eight thousand four hundred`, `тысячу шестьсот`: one number in
words (8400, 1600), not 8000 and an amount of 400."""


def _thousands(m: re.Match[str]) -> str:
    """The digits of a number spelled with thousands (`восемь тысяч четыреста` → `8400`); the
    words as they are when a part is no number word or the rest reaches a thousand."""
    head = _word_value(m.group(1)) if m.group(1) else 1.0
    total = 0.0
    current = 0.0
    for word in m.group(2).split():
        low = word.lower()
        if low == "and":
            continue
        if low == "hundred":
            current = (current or 1) * 100
            continue
        value = _word_value(low)
        if value is None:
            return m.group(0)
        total, current = total + current, value
    total += current
    if head is None or total >= 1000:
        return m.group(0)
    return _fmt(head * 1000 + total)


def _word_value(word: str) -> float | None:
    """The value of an English or Russian number word, None for any other word."""
    low = word.lower()
    if low in EN_NUMBERS:
        return float(EN_NUMBERS[low])
    return RU_NUMBERS.get(low)


_PRICE_OFF = re.compile(
    r"(?<![\w-])(?:(\d+(?:[.,]\d+)?\s?%)|half)(?:\s+off(?![\w-])|[\s-]+price(?![\w-])"
    r"|\s+cheaper(?![\w-]))",
    re.IGNORECASE,
)
"""`60% off`, `half off`, `half price`, `20% cheaper` are a discount of that share (`a 60%
discount`, `50%`)."""
_ZH_FRACTION = re.compile(
    f"([{ZH_NUMERALS}]+|\\d+)分之([{ZH_NUMERALS}]+|\\d+)(?=小时|天|年|个月|月|周|分钟)"
)
"""`四分之三小时` is 0.75小时 (three quarters of an hour), not 3小时."""


def _zh_fraction(m: re.Match[str]) -> str:
    """`四分之三` → `0.75`: the part over the whole, written as digits."""
    whole = _zh_int(m.group(1))
    part = _zh_int(m.group(2))
    if not whole or part is None:
        return m.group(0)
    return _fmt(round(part / whole, 4))


_ZH_TENTHS = re.compile(
    r"(?<![\d零一二三四五六七八九十两])([一二三四五六七八九两])成(?!不|为|功|立|本|绩|员|年|人)"
)
"""`两成` is 20%: tenths of a whole."""
_FREE = re.compile(
    r"(?<![\w-])(?:cost(?:s|ing)? nothing|never cost(?:s)? anything|"
    r"at no (?:extra |additional )?(?:cost|charge)|"
    r"without (?:any )?(?:extra |additional )?(?:cost|charge|fee|payment)|"
    r"without paying(?: anything| extra| (?:a|any) (?:fee|charge))?|"
    r"pays? no(?= (?:interest|fees?|charges?|commission)(?![\w-]))|"
    r"with (?:no|zero) (?:extra |additional )?(?:cost|charge|fee)s?|"
    r"(?:do not|don't|does not|doesn't|will not|won't|never) (?:have to |need to )?pay"
    r"(?: anything| extra)?(?= for\b|[.,;]|$)|"
    r"(?:платить|оплачивать) не (?:нужно|надо|придётся|придется|требуется)|"
    r"не (?:нужно|надо|придётся|придется|требуется) (?:отдельно )?(?:платить|оплачивать)|"
    r"free of (?:any )?(?:extra |additional )?(?:cost|charge)|"
    r"ничего не сто(?:ит|ят|ить|или|ило|ила)|"
    r"без (?:какой-либо |дополнительной |отдельной )?(?:оплаты|платы|доплаты|взимания платы))"
    r"(?![\w-])",
    re.IGNORECASE,
)
"""Ways of saying `free` with a negation: one form, so no negation is read into them."""
_FREE_HEADS = (
    "nothing", "no c", "at no", "ничего не", "of c", "without", "anything", " pay", "плат",
    "with no", "with zero",
)  # fmt: skip
_ZH_FREE = re.compile(
    r"不收取任何费用|不收取费用|不收任何费用|不收费|不用付费|不用交费|不需付费|不需要付费|无需付费|"
    r"无须付费|不需缴费|无需缴费|不要钱|不用花钱|免收费用|免收|"
    r"(?<![避以难未豁减])免(?![费收除])(?=[\u4e00-\u9fff]{1,3}费)"
)
"""Ways of saying `免费` with a negation: one form, so no negation is read into them; `免` before
a fee (`满88元免配送费`) too, not in `避免`, `以免`, `减免`."""
_ZH_JIAO = re.compile(
    "(?<![\\d零〇一二三四五六七八九十两元块.])([一二两三四五六七八九])"
    "(?:[角毛]钱|(?<=[收付交花需为是][一二两三四五六七八九])角)"
)
"""`五角钱`, `收五角`, `一毛钱` is 0.5元 or 0.1元 (a 角, colloquially 毛, is a tenth of a yuan),
as prices are compared; not the 角 of `三角形` (a triangle) or `房间四角` (four corners): only
after a price verb or with 钱 (毛 only with 钱: `羊毛`, `毛巾`)."""
_ZH_SHORT_IF = re.compile("(?<![例比譬假诸正恰宛犹不一何])如(?=[无未不没有需遇])")
"""`如无损坏则全额退还`, `如需帮助`: `如` before a verb of being, needing or meeting is `如果`
(if), read as the condition it states; `例如`, `如何`, `不如` stay."""
_ZH_PEOPLE = re.compile(r"(\d)个人")
"""`5个人` counts people as `5人` does."""


_ZH_CLOCK_RANGE = re.compile(
    r"(上午|早上|早晨|凌晨|中午|下午|傍晚|晚上|夜里|夜间)"
    r"([零〇一二三四五六七八九十两]{1,3}|\d{1,2})(点(?:半|[零〇一二三四五六七八九十\d]{1,3}分)?)"
    r"\s?(到|至|-|—|~|～)\s?(?=([零〇一二三四五六七八九十两]{1,3}|\d{1,2})点)"
)
"""`下午2点到6点`: the end of a range of hours is in the part of the day of its start."""
_ZH_COLON_RANGE = re.compile(
    r"(上午|早上|早晨|凌晨|中午|下午|傍晚|晚上|夜里|夜间)\s?(\d{1,2})([:：][0-5]\d)"
    r"\s?(到|至|-|—|~|～)\s?(?=(\d{1,2})[:：][0-5]\d)"
)
"""`下午4:30到5:30`: the same, with the times in digits."""


def _zh_int(raw: str) -> float | None:
    """Digits or Chinese numerals (`6`, `六`) as a number; None when they are neither."""
    return int(raw) if raw.isdigit() else zh_number(raw)


def _zh_clock_range(m: re.Match[str]) -> str:
    start, end = _zh_int(m.group(2)), _zh_int(m.group(5))
    if start is None or end is None or end <= start:
        return m.group(0)  # `晚上10点到2点` runs past midnight: the end is not in the evening
    return m.group(0) + m.group(1)


def _zh_clock(m: re.Match[str]) -> str:
    part, raw = m.group(1) or "", m.group(2)
    hour = _zh_int(raw)
    if hour is None or hour > 24 or (not part and not raw.isdigit() and hour < 2):
        return m.group(0)  # `一点`: as often `a little` as one o'clock
    minute = 30 if m.group(3) == "半" else 0
    if m.group(4):
        found = int(m.group(4)) if m.group(4).isdigit() else zh_number(m.group(4))
        if found is None or found > 59:
            return m.group(0)
        minute = int(found)
    if part in ("下午", "傍晚", "晚上", "夜里", "夜间") and hour < 12:
        hour += 12
    elif part in ("晚上", "夜里", "夜间", "午夜") and hour == 12:
        hour = 24
    return f"{int(hour):02d}:{minute:02d}"


_AFTERNOON_BEFORE = re.compile(r"(1[2-9]|2[0-3]):[0-5]\d(?!.*\d{2}:\d{2})[^。！？]*$")
"""An afternoon or evening time earlier in the sentence, and no later time after it."""


def _zh_bare_clock(m: re.Match[str]) -> str:
    """`下午六点退房，六点以后…`: an hour with no part of the day after an afternoon time of
    the same sentence is in the afternoon too (`18:00`), when reading it so keeps the order."""
    found = _zh_clock(m)
    before = _AFTERNOON_BEFORE.search(m.string, 0, m.start()) if not m.group(1) else None
    if before is None or found == m.group(0):
        return found
    hour = int(found[:2])
    if hour < 12 and hour + 12 >= int(before.group(1)):
        return f"{hour + 12:02d}{found[2:]}"
    return found


_CLOCK_12H = re.compile(
    r"(?<![\d:.])(1[0-2]|0?[1-9])(?::([0-5]\d))?\s?([ap])\.?m\.?(?![a-z])", re.IGNORECASE
)


_CLOCK_RANGE = re.compile(r"(\d{2}:\d{2})\s*[-–—~～]\s*(?=\d{1,2}:\d{2})")
"""`09:00-17:00`: a range of times, whose dash would read as a minus."""
_CLOCK_ONE_DIGIT = re.compile(r"(?<![\d:.,])(\d):([0-5]\d)(?![\d:])")
"""`6:00`: an hour written without its leading zero (`06:00`)."""


_NOT_HOURS = frozenset({"once", "twice", "thrice", "single", "double", "triple", "dozen"})
_SPOKEN_CLOCK_HEADS = re.compile(
    patterns.words(
        (
            " in the ",
            "noon",
            "midday",
            "midnight",
            "час",
            "утра",
            "вечера",
            "половин",
            "полуд",
            "полден",
            "полноч",
            "полуноч",
        ),
        ignorecase=True,
    ),
    re.IGNORECASE,
)
_RU_CLOCK_RANGE = re.compile(r"(?<![\w-])с\s+(\d{1,2})\s+до\s+(\d{1,2})\s+час(?:ов|а)(?![\w-])")
"""`с 10 до 19 часов` is 10:00 to 19:00, the hours of a day."""


def _ru_clock(m: re.Match[str]) -> str:
    raw, part = m.group(2).lower(), m.group(3).lower()
    hour = int(raw) if raw.isdigit() else _RU_HOURS[raw]
    if hour > 12:
        return m.group(0)
    if part == "вечера" and hour < 12:
        hour += 12
    return f"{m.group(1)}{hour:02d}:00"


_EN_HOURS = {w: v for w, v in EN_NUMBERS.items() if 1 <= v <= 12 and w not in _NOT_HOURS} | {
    "one": 1
}
_EN_DAYTIME = re.compile(
    r"(?<![\w:-])(\d{1,2}(?::[0-5]\d)?|"
    + patterns.words(_EN_HOURS, ignorecase=True)
    + r")(?:\s+o'clock)?\s+in\s+the\s+(morning|afternoon|evening)(?![\w-])",
    re.IGNORECASE,
)
"""`eight in the morning`, `six in the evening`: a time of day in words."""
_EN_NOON = re.compile(
    r"(?<![\w-])(at|until|till|from|before|after|by)\s+(?:noon|midday)(?![\w-])", re.I
)
_MIDNIGHT = re.compile(
    r"(?<![\w-])(at|until|till|from|before|after|by|в|с|до|после|к)\s+(?:midnight|полночь|полуночи)"
    r"(?![\w-])",
    re.IGNORECASE,
)
_UNTIL = frozenset({"until", "till", "before", "by", "до", "к"})


def _midnight(m: re.Match[str]) -> str:
    """`at midnight` is 00:00, the start of a day; `until midnight` is 24:00, its end."""
    return f"{m.group(1)} {'24:00' if m.group(1).lower() in _UNTIL else '00:00'}"


_RU_HOURS = {w: int(v) for w, v in RU_NUMBERS.items() if 1 <= v <= 12 and v == int(v)} | {
    "часу": 1,
    "одного": 1,
}
_RU_DAYTIME = re.compile(
    r"(?<![\w-])(\d{1,2}|"
    + patterns.words(_RU_HOURS, ignorecase=True)
    + r")\s+час(?:а|ов|у)?\s+(утра|дня|вечера|ночи)(?![\w-])",
    re.IGNORECASE,
)
"""`двух часов дня`, `в 7 часов утра`: with `час` the part of the day makes it a time."""
_RU_CLOCK = re.compile(
    r"(?<![\w-])((?:в|с|до|по|к|после)\s+)(\d{1,2}|"
    + patterns.words((w for w in _RU_HOURS if not w.isdigit()), ignorecase=True)
    + r")\s+(утра|вечера)(?![\w-])",
    re.IGNORECASE,
)
"""`с 9 утра`, `до девяти вечера`: a Russian time of day by the part of the day, after a
preposition (`3 дня`, `2 ночи`, `3 вечера` alone are as often days, nights, evenings)."""
_RU_ORDINAL_HOURS = {
    "первого": 1, "второго": 2, "третьего": 3, "четвертого": 4, "четвёртого": 4,
    "пятого": 5, "шестого": 6, "седьмого": 7, "восьмого": 8, "девятого": 9, "десятого": 10,
    "одиннадцатого": 11, "двенадцатого": 12,
}  # fmt: skip
_RU_HALF_PAST = re.compile(
    r"(?<![\w-])((?:в|с|до|по|к|после)\s+)половин[ыуе]\s+("
    + patterns.words(_RU_ORDINAL_HOURS, ignorecase=True)
    + r")(?![\w-])",
    re.IGNORECASE,
)
"""`до половины одиннадцатого` is until 10:30 (half of the eleventh hour)."""
_RU_NOON = re.compile(r"(?<![\w-])((?:в|с|до|по|к|после)\s+)(?:полудня|полдень)(?![\w-])", re.I)


def _daytime(hour: int, part: str) -> int | None:
    """The 24-hour hour of `hour` in a part of the day, or None when the two do not fit."""
    if part in ("afternoon", "evening", "дня", "вечера") and hour < 12:
        return hour + 12 if part != "дня" or hour <= 6 else None
    if part in ("morning", "утра") and hour == 12:
        return None
    if part == "ночи":
        return None if 5 < hour < 12 else hour % 12
    return hour


def _spoken_clock(text: str) -> str:
    """Times of day written in words: `eight in the morning` → `08:00`, `at noon` → `at 12:00`,
    `двух часов дня` → `14:00`, `до половины одиннадцатого` → `до 10:30`, `до полудня` →
    `до 12:00`."""
    lowered = text.lower()

    def en(m: re.Match[str]) -> str:
        raw, _, minute = m.group(1).lower().partition(":")
        if raw.isdigit() and int(raw) > 12:
            return m.group(0)
        hour = _daytime(int(raw) if raw.isdigit() else _EN_HOURS[raw], m.group(2).lower())
        return m.group(0) if hour is None else f"{hour:02d}:{minute or '00'}"

    def ru(m: re.Match[str]) -> str:
        raw = m.group(1).lower()
        hour = _daytime(int(raw) if raw.isdigit() else _RU_HOURS[raw], m.group(2).lower())
        return m.group(0) if hour is None or hour > 24 else f"{hour:02d}:00"

    if " in the " in lowered:
        text = _EN_DAYTIME.sub(en, text)
    if "noon" in lowered or "midday" in lowered:
        text = _EN_NOON.sub(lambda m: f"{m.group(1)} 12:00", text)
    if "midnight" in lowered or "полноч" in lowered or "полуноч" in lowered:
        text = _MIDNIGHT.sub(_midnight, text)
    if "час" in lowered:
        text = _RU_DAYTIME.sub(ru, text)
    if "половин" in lowered:
        text = _RU_HALF_PAST.sub(
            lambda m: f"{m.group(1)}{_RU_ORDINAL_HOURS[m.group(2).lower()] - 1:02d}:30", text
        )
    if "полуд" in lowered or "полден" in lowered:
        text = _RU_NOON.sub(lambda m: f"{m.group(1)}12:00", text)
    return text


def normalize_clock(text: str) -> str:
    """`6 pm` → `18:00`, `9:30 a.m.` → `09:30`, `8:30` → `08:30`, `9 вечера` → `21:00`, `с 10
    до 19 часов` → `с 10:00 до 19:00`, `eight in the morning` → `08:00`: both sides write a
    time of day the same way (and sterling's subunit: `15 pence` → `£0.15`)."""
    if _ALL_DAY_HEADS.search(text):
        text = _ALL_DAY.sub(_all_day, text)
    if "etween" in text or "rom" in text:
        text = _EN_HOUR_RANGE.sub(_en_hour_range, text)
    if _SPOKEN_CLOCK_HEADS.search(text):
        text = _spoken_clock(text)
    if "p" in text and _PENCE.search(text):
        text = _PENCE.sub(lambda m: f"£0.{int(m.group(1)):02d}", text)
    if "утра" in text or "вечера" in text:
        text = _RU_CLOCK.sub(_ru_clock, text)
    if "час" in text:
        text = _RU_CLOCK_RANGE.sub(
            lambda m: (
                f"с {int(m.group(1)):02d}:00 до {int(m.group(2)):02d}:00"
                if int(m.group(1)) < 24 and int(m.group(2)) < 24
                else m.group(0)
            ),
            text,
        )
    if ":" in text:
        text = _CLOCK_ONE_DIGIT.sub(r"0\1:\2", text)
        text = _CLOCK_RANGE.sub(lambda m: m.group(1) + ("至" if has_cjk(text) else " to "), text)
    if "m" in text or "M" in text:
        text = _CLOCK_12H.sub(_clock_24h, text)
    if "clos" in text or "закрыва" in text:
        text = _OPENS_CLOSES.sub(_open_from_to, text)
    return text


_EN_HOUR_RANGE = re.compile(
    r"(?<![\w:.-])(between|from)\s+(1[0-2]|0?[1-9])\s+(and|to|until|till)\s+"
    r"(1[0-2]|0?[1-9])(?:\s?([ap])\.?m\.?(?![a-z])|\s+in\s+the\s+(morning|afternoon|evening))",
    re.IGNORECASE,
)
"""`between 8 and 10 in the morning`, `from 2 to 5 pm`: the start of a range of hours is in
the part of the day of its end."""


def _en_hour_range(m: re.Match[str]) -> str:
    start, end = int(m.group(2)), int(m.group(4))
    if start >= end:
        return m.group(0)  # `from 10 to 2 pm` crosses noon: the start is not in the afternoon
    part = (m.group(6) or ("afternoon" if m.group(5).lower() == "p" else "morning")).lower()
    first, last = _daytime(start, part), _daytime(end, part)
    if first is None or last is None:
        return m.group(0)
    return f"{m.group(1)} {first:02d}:00 {m.group(3)} {last:02d}:00"


_OPENS_CLOSES = re.compile(
    r"(?<![\w-])(?:(opens)\s+at|(открывается)\s+в)\s+(\d{2}:\d{2})"
    r"(?:\s*,)?\s+(?:and|и)\s+(?:closes\s+at|закрывается\s+в)\s+(\d{2}:\d{2})",
    re.IGNORECASE,
)
"""`opens at 06:00 and closes at 22:00` says when it is open: `is open from 06:00 to 22:00`."""


def _open_from_to(m: re.Match[str]) -> str:
    if m.group(1):
        return f"is open from {m.group(3)} to {m.group(4)}"
    return f"открыт с {m.group(3)} до {m.group(4)}"


def _clock_24h(m: re.Match[str]) -> str:
    hour = int(m.group(1)) % 12 + (12 if m.group(3).lower() == "p" else 0)
    return f"{hour:02d}:{m.group(2) or '00'}"


_ZH_MIDNIGHT = re.compile(f"零点(?![{ZH_NUMERALS}\\d])")
_ZH_QUARTERLY = re.compile(r"每(?:个|一个)?(?:季度|季)(?![度末初])")
"""`每季度`, `每个季度`: every quarter (not `每季度末`, the end of each quarter)."""
_ZH_DIGIT = {c: i for i, c in enumerate("零一二三四五六七八九")} | {"〇": 0}
_ZH_PERCENT = re.compile(
    f"百分之([{ZH_NUMERALS}]+|\\d+(?:\\.\\d+)?)(?:点([零〇一二三四五六七八九]+))?"
)
"""`百分之九十` is `90%`, `百分之零点五五` is `0.55%`: the percentage written in words."""


_ZH_PER_DAY = re.compile(r"(?<![\d每第])[一1](日|天)(?=[^\d，。；,;]{0,2}\d+次)")
"""`一日1次` and `一天吃一次` state a frequency, as `每日1次` does: once a day."""


def _fmt(value: float) -> str:
    return str(int(value)) if value == int(value) else repr(value)


# ----------------------------------------------------------------------------- units

_UNIT_FORMS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("ms", ("ms", "msec", "millisecond", "milliseconds", "мс", "миллисекунд", "毫秒")),
    ("s", ("s", "sec", "secs", "second", "seconds", "сек", "секунда", "секунды", "секунд",
           "секунду", "секундах", "秒", "秒钟")),
    ("min", ("min", "mins", "minute", "minutes", "мин", "минута", "минуты", "минут", "минуту",
             "минутах", "分钟", "分")),
    ("h", ("h", "hr", "hrs", "hour", "hours", "час", "часа", "часов", "часу", "часах",
           "小时", "个小时", "钟头")),
    ("d", ("day", "days", "день", "дня", "дней", "дни", "днях", "суток", "сутки", "天", "日")),
    ("bd", ("工作日", "个工作日")),
    ("wk", ("week", "weeks", "неделя", "недели", "недель", "неделю", "неделях", "周", "星期",
            "个星期")),
    ("mo", ("month", "months", "месяц", "месяца", "месяцев", "месяцах", "个月", "月")),
    ("yr", ("year", "years", "год", "года", "лет", "году", "годах", "年")),
    ("age", ("周岁", "岁")),
    ("%", ("%", "％", "percent", "per cent", "процент", "процента", "процентов", "процентах")),
    ("pp", ("percentage point", "percentage points", "п.п.", "процентных пункта",
            "процентных пунктов", "个百分点")),
    ("kb", ("kb", "kib", "кб", "kilobytes")),
    ("mb", ("mb", "mib", "мб", "megabytes", "мегабайт")),
    ("gb", ("gb", "gib", "гб", "gigabytes", "гигабайт")),
    ("tb", ("tb", "tib", "тб", "terabytes", "терабайт")),
    ("mbps", ("mbps", "мбит/с")),
    ("gbps", ("gbps", "гбит/с")),
    ("mg", ("mg", "мг", "milligram", "milligrams", "毫克")),
    ("g", ("g", "gram", "grams", "г", "грамм", "грамма", "граммов", "克")),
    ("kg", ("kg", "кг", "kilogram", "kilograms", "kilogramme", "kilogrammes", "килограмм",
            "килограмма", "килограммов", "килограммах", "公斤", "千克")),
    ("jin", ("斤",)),  # half a kilogram: `30斤` is not `30公斤`
    ("ml", ("ml", "мл", "milliliter", "milliliters", "millilitre", "millilitres", "миллилитр",
            "миллилитра", "миллилитров", "毫升")),
    ("l", ("litre", "litres", "liter", "liters", "литр", "литра", "литров")),
    ("wh", ("wh", "вт·ч", "watt-hours", "watt-hour", "ватт-часов", "ватт-часа", "ватт-час")),
    ("kwh", ("kwh", "квт·ч", "kilowatt-hours", "kilowatt-hour", "киловатт-часов",
             "киловатт-часа", "киловатт-час", "千瓦时")),
    ("km", ("km", "км", "kilometer", "kilometers", "kilometre", "kilometres", "километр",
            "километра", "километров", "километрах", "公里")),
    ("cm", ("cm", "см", "centimeter", "centimeters", "centimetre", "centimetres", "сантиметр",
            "сантиметра", "сантиметров", "厘米")),
    ("mm", ("mm", "мм", "millimeter", "millimeters", "millimetre", "millimetres", "миллиметр",
            "миллиметра", "миллиметров", "毫米")),
    ("m", ("meter", "meters", "metre", "metres", "метр", "метра", "метров", "米")),
    ("x", ("times", "раз", "раза", "倍")),
    ("usd", ("usd", "dollars", "dollar", "долларов", "доллара", "美元")),
    ("eur", ("eur", "euros", "euro", "евро", "欧元")),
    ("rub", ("rub", "рублей", "рубля", "рубль", "руб", "卢布")),
    ("cny", ("yuan", "rmb", "元", "юаней")),
    ("c", ("°c", "℃", "°с", "degrees", "градусов", "градуса", "摄氏度", "度")),
)  # fmt: skip
UNITS: dict[str, str] = {form: canon for canon, forms in _UNIT_FORMS for form in forms}
_CJK_UNITS = sorted((u for u in UNITS if has_cjk(u)), key=len)[::-1]
_PHRASE_UNITS = sorted((u for u in UNITS if " " in u or "-" in u), key=len)[::-1]
FREQUENCY_UNITS = frozenset({"s", "min", "h", "d", "wk", "mo", "yr"})
_PER_WORDS = r"every|each|per|каждый|каждую|каждое|каждые|каждого|раз в|раза в|один раз в|once per"
_FREQ_ADVERBS = {
    "hourly": "h", "daily": "d", "weekly": "wk", "monthly": "mo", "annually": "yr",
    "yearly": "yr", "nightly": "d", "ежечасно": "h", "ежедневно": "d", "еженедельно": "wk",
    "ежемесячно": "mo", "ежегодно": "yr", "ежесуточно": "d",
}  # fmt: skip
_ZH_FREQ = re.compile(r"每(?:个)?(小时|天|日|周|星期|月|年|秒|分钟)")


@dataclass(frozen=True, slots=True)
class Quantity:
    """A number with its unit (canonical, or None) and how it was written."""

    value: str
    unit: str | None
    text: str
    frequency: bool = False
    """Written without a digit as a rate (`every hour`, `每小时`): the unit must match too."""


@dataclass(frozen=True, slots=True)
class Identifier:
    """A name whose digits are part of it: `TLS 1.3` is (`tls`, `1.3`)."""

    key: str
    value: str
    text: str


_LETTER = "A-Za-z\u0400-\u04ff"
_PER_UNIT = re.compile(
    rf"\b(?:{_PER_WORDS}|once an?)(?:\s+(?:further|additional|extra|subsequent))?"
    rf"(?:\s+|(?<=per)-)([{_LETTER}]+)"
)
"""`every hour`, `per day`, `each further hour` (a rate: `£2.20 for each further hour`)."""
_NUMBER = re.compile(
    rf"(?<![{_LETTER}0-9_.,\-/])(\d{{1,3}}(?:[ \u00a0\u202f]\d{{3}})+(?![.,]?\d)|\d+(?:[.,]\d+)*)"
    rf"(?![.,]?\d)(?![{_LETTER}]*\d)(?!-?[{_LETTER}]+\d)"
)
"""A number: `600 000` and `1 000 000` (space-grouped thousands, as Russian writes them)
are one number each."""
_AFTER = re.compile(rf"[\s\-]?(°[cC]|[{_LETTER}%％][{_LETTER}/.]*|[\u4e00-\u9fff]{{1,3}})")
_WORDS = re.compile(rf"[{_LETTER}]+")
_IDENT = re.compile(
    r"(?<![A-Za-z0-9_.\-])([A-Za-z\u0400-\u04ff]+)([\s\-]?)(v?\d+(?:\.\d+)*)(?![\d.]*\d)"
    r"(?![A-Za-z])"
)
_VERSION_WORDS = frozenset({"v", "version", "версия", "версии", "версию", "версией", "ver"})


_OPEN_END = re.compile(
    r"\s+(?:or|или|и)\s+(?:more|fewer|less|longer|above|over|более|больше|менее|меньше)(?=\s)"
)
"""`or more` between a number and its unit (`two or more times`, `5 или более дней`)."""


def _unit_at(text: str, end: int) -> tuple[str | None, int, float]:
    """(canonical unit, end of the unit, scale multiplier) right after position `end`."""
    scale = 1.0
    rest = text[end : end + 40]
    lowered = rest.lower()
    for cjk in ("万", "亿", "千"):
        if lowered.startswith(cjk):
            scale *= {"万": 1e4, "亿": 1e8, "千": 1e3}[cjk]
            end += 1
            rest, lowered = rest[1:], lowered[1:]
            break
    open_end = _OPEN_END.match(lowered)
    if open_end is not None:
        # `two or more times`: a unit after the open end is the number's (the bound itself is
        # read by `bounds`)
        found = _unit_at(text, end + open_end.end())
        if found[0] is not None:
            return found
    m = _AFTER.match(rest)
    if m and scale == 1.0:
        word = m.group(1).lower().rstrip(".")
        if word in SCALES:
            scale *= SCALES[word]
            end += m.end()
            rest, lowered = rest[m.end() :], lowered[m.end() :]
            m = _AFTER.match(rest)
    stripped = lowered.lstrip(" -")
    for phrase in _PHRASE_UNITS:
        if stripped.startswith(phrase):
            return UNITS[phrase], end + len(lowered) - len(stripped) + len(phrase), scale
    for cjk in _CJK_UNITS:
        if stripped.startswith(cjk):
            return UNITS[cjk], end + len(lowered) - len(stripped) + len(cjk), scale
    if stripped[:1] and stripped[:1] in _COUNTERS:
        # a Chinese classifier counts something: 5次 and 2次 are counts of one kind
        counter = _SAME_COUNTER.get(stripped[0], stripped[0])
        return f"cl:{counter}", end + len(lowered) - len(stripped) + 1, scale
    if m:
        word = m.group(1).lower()
        if word in UNITS:
            return UNITS[word], end + m.end(), scale
        if word.endswith(".") and word.rstrip(".") in UNITS:
            # the unit ends the sentence (`a fee of 5%.`, `up to 20 km.`)
            return UNITS[word.rstrip(".")], end + m.start(1) + len(word.rstrip(".")), scale
        head = _WORDS.match(word)
        if head and head.group() in UNITS and len(head.group()) > 1:
            return UNITS[head.group()], end + m.start(1) + head.end(), scale
        if head and head.group() == word and word not in SCALES:
            # one qualifier between number and unit: `30 календарных дней`, `5 business days`
            after = _AFTER.match(rest[m.end() :])
            unit_word = after.group(1).lower().rstrip(".") if after else ""
            if (
                unit_word in UNITS
                and after is not None
                and after.group(1)[:1] != "-"
                and len(unit_word) > 2
            ):
                dots = len(after.group(1)) - len(after.group(1).rstrip("."))
                unit = UNITS[unit_word]
                if word in _BUSINESS and unit in ("d", "h", "wk"):
                    unit = "b" + unit  # working days are no fixed number of hours
                return unit, end + m.end() + after.end() - dots, scale
    return None, end, scale


_BUSINESS = frozenset(
    """business working work рабочих рабочие рабочий рабочего рабочем рабочему""".split()
)


def _value(raw: str, scale: float) -> str:
    token = number_token(raw)[1:]
    if scale == 1.0:
        return token
    try:
        return _fmt(float(token) * scale)
    except ValueError:
        return token


@short_cache(maxsize=2048)
def identifiers(text: str) -> tuple[Identifier, ...]:
    """Identifiers with digits in them: acronyms (`TLS 1.3`, `SHA-256`, `ISO 27001`, `IPv6`),
    names with a dotted version (`Python 3.11`) and `v2.1` / `version 2`."""
    out = []
    for m in _IDENT.finditer(text):
        prefix, sep, num = m.group(1), m.group(2), m.group(3)
        low = prefix.lower()
        caps = sum(c.isupper() for c in prefix)
        text_ = m.group(0)
        if low in _VERSION_WORDS:
            key = "v"
        elif num.startswith("v") and sep:
            key, text_ = "v", num  # `runs v2.1`: the word before is not part of the name
        elif (
            caps >= 2
            or (caps == 1 and len(prefix) <= 3 and sep != " ")
            or (prefix[0].isupper() and "." in num)
            or num.startswith("v")
        ):
            key = low
        else:
            continue
        if low in UNITS or low in SCALES:
            continue
        out.append(Identifier(key, num.lstrip("v"), text_))
    return tuple(out)


@short_cache(maxsize=2048)
def quantities(text: str) -> tuple[Quantity, ...]:
    """Numbers with unit and scale: digits (also glued to CJK: `50个`, `降低80%`), number words
    (`five`, `пяти`, `两个`) and frequencies without a digit (`every hour` is 1 h)."""
    taken = [(m.start(3), m.end(3)) for m in _IDENT.finditer(text) if _is_ident(m)]
    out: list[Quantity] = []
    for m in _NUMBER.finditer(text):
        if (
            any(a <= m.start() < b for a, b in taken)
            or text[max(0, m.start() - 1) : m.start()] == "第"
        ):
            continue  # 第2年 is "the second year", no amount
        unit, end, scale = _unit_at(text, m.end())
        sign = _currency_before(text, m.start())
        if sign is not None and unit not in _CURRENCY_UNITS:
            # `€2.40 an hour` is a price per hour, not 2.4 hours
            unit, end = None, m.end()
        out.append(Quantity(_value(m.group(1), scale), unit, text[m.start() : end].strip()))
    lowered = text.lower()
    inside = -1  # end of the compound number word being read (`twenty-five`, `двадцать пять`)
    phrases = [m.span(1) for m in _PHRASE_QUANTITY.finditer(lowered)]
    for m in _NUMBER_WORD.finditer(lowered):
        word = m.group()
        if m.start() < inside or any(a <= m.start() < b for a, b in phrases):
            continue  # inside a compound number, or a phrase read whole (`three quarters of…`)
        value: float | None = EN_NUMBERS.get(word) or RU_NUMBERS.get(word)
        if value is None and word not in ONE_WORDS and word not in SCALES:
            continue
        if word == "once" and not_a_count(lowered, m.start()):
            continue
        if value is not None or word in ONE_WORDS:
            whole, last = _compound(lowered, m.end(), value or 1)
            if last > m.end() and (value is not None or whole >= 100):  # `one hundred`
                value = whole
                inside = last
                unit, end, scale = _unit_at(lowered, last)
                out.append(Quantity(_fmt(value * scale), unit, text[m.start() : end].strip()))
                continue
        unit, end, scale = _unit_at(lowered, m.end())
        if word in _TIMES_WORDS:
            # `дважды`, `twice`: a count of times, as `2 раза` is; a unit after it is the period
            # the times fall in (`twice a month`), read on its own, not two months
            unit, end, scale = "x", m.end(), 1
        if value is None:
            bounded = word in ONE_WORDS and (
                _BOUND_BEFORE_ONE.search(lowered, 0, m.start())
                or (word == "one" and _ONE_TO_MANY.match(lowered, m.end()))
            )
            if word in SCALES or (unit is None and not bounded):
                continue
            value = 1
        out.append(Quantity(_fmt(value * scale), unit, text[m.start() : end].strip()))
    if has_cjk(text):
        normalized = normalize_zh(text)
        if normalized != text:
            for q in quantities(normalized):
                if q.text not in text:
                    out.append(q)
        for m in _ZH_FREQ.finditer(text):
            out.append(Quantity("1", UNITS[m.group(1)], m.group(0), frequency=True))
    for m in _PER_UNIT.finditer(lowered):
        unit = UNITS.get(m.group(1))
        if unit in FREQUENCY_UNITS:
            out.append(Quantity("1", unit, text[m.start() : m.end()], frequency=True))
    for m in _FREQ_WORD.finditer(lowered):
        if m.group() in _FREQ_ADVERBS:
            unit = _FREQ_ADVERBS[m.group()]
            out.append(Quantity("1", unit, text[m.start() : m.end()], frequency=True))
        elif (adjective := _RU_FREQ_ADJECTIVE.match(m.group())) is not None:
            unit = _RU_FREQ_STEMS[adjective.group(1)]
            out.append(Quantity("1", unit, text[m.start() : m.end()], frequency=True))
    for m in _PHRASE_QUANTITY.finditer(lowered):
        counted = _COUNT_BEFORE.search(lowered, max(0, m.start(1) - 24), m.start(1))
        if counted is not None and (
            counted.group(1)[:1].isdigit()
            or counted.group(1) in RU_NUMBERS
            or counted.group(1) in EN_NUMBERS
        ):
            continue  # `двух суток`: the unit of the number before it, read with it
        if _RU_ORDINAL_BEFORE.search(lowered, max(0, m.start(1) - 16), m.start(1)):
            continue  # `на пятые сутки`: which day, not how long
        amount, per = _PHRASE_VALUES[m.group(1)]
        rate = amount == "1" and _RATE_BEFORE.match(m.group())
        out.append(Quantity(amount, per, text[m.start(1) : m.end(1)], frequency=bool(rate)))
    for m in (*_RU_PER_UNIT.finditer(lowered), *_RU_PRICE_PER.finditer(lowered)):
        # `99,95% в месяц`: per month, as `каждый месяц` is
        out.append(Quantity("1", UNITS[m.group(1)], text[m.start() : m.end()], frequency=True))
    for m in _ARTICLE_UNIT.finditer(lowered):
        unit = UNITS.get(m.group(2))
        if unit is not None and not any(q.text.lower() == m.group(1) for q in out):
            out.append(Quantity("1", unit, text[m.start(1) : m.end(1)]))
    for m in _RU_BARE_UNIT.finditer(lowered):
        g = m.lastindex or 1  # the unit of whichever alternative matched
        unit = UNITS.get(m.group(g))
        if unit is not None and not any(
            m.start(g) < text.find(q.text) + len(q.text) and text.find(q.text) <= m.start(g)
            for q in out
        ):
            out.append(Quantity("1", unit, text[m.start(g) : m.end(g)]))
    if has_cjk(text):
        for m in _ZH_HALF.finditer(text):
            out.append(Quantity("0.5", UNITS[m.group(1)], m.group(0)))
    if len(out) >= 2:
        _range_scale(lowered, out)
    _range_units(text, out)
    return tuple(_with_currency(text, q) for q in out)


_RANGE_PAIR = re.compile(
    r"(?:(?<=between )|(?<![\d.,:]))(\d+(?:[.,]\d+)?)\s?(?:至|到|[-–~～]|to|до|(?<=\d )and)\s?"
    r"(\d+(?:[.,]\d+)?)(?![\d:])",
    re.IGNORECASE,
)


RANGE_PAIR = _RANGE_PAIR


_RANGE_SCALE = re.compile(
    r"(?<![\w-])(?:от|from|between)\s+(\S+)\s+(?:до|to|and)\s+\S+\s+("
    + patterns.words(SCALES)
    + r")(?![\w-])"
)


def _range_scale(lowered: str, out: list[Quantity]) -> None:
    """The first number of a range takes the scale of the second (`от двух до пяти тысяч
    рублей` is 2 000 to 5 000): Russian and English write the scale once."""
    for m in _RANGE_SCALE.finditer(lowered):
        scale = SCALES[m.group(2)]
        for i, q in enumerate(out):
            if q.text.lower() == m.group(1) and float(q.value) < scale:
                out[i] = Quantity(_fmt(float(q.value) * scale), q.unit, q.text, q.frequency)
                break


def _range_units(text: str, out: list[Quantity]) -> None:
    """The first number of a range takes the unit of the second (`18至70周岁`, `1 to 2
    hours`, `от 18 до 70 лет`): `18` there is 18 years of age."""
    for m in _RANGE_PAIR.finditer(text):
        second = next((q for q in out if q.text.startswith(m.group(2)) and q.unit), None)
        if second is None:
            continue
        # the second's value may be converted (`15千克` is 15000 g): the first scales alike
        written = float(m.group(2).replace(",", "."))
        factor = float(second.value) / written if written else 1.0
        for i, q in enumerate(out):
            if q.unit is None and q.text == m.group(1) and not q.frequency:
                value = q.value if factor == 1.0 else _fmt(float(q.value) * factor)
                out[i] = Quantity(value, second.unit, q.text)
                break


_ONCE_AT = re.compile(r"(?<![\w-])at\s+$")
_ONCE_PER = re.compile(r"\s+(?:a|an|per|every|each)\s")
"""`once a fortnight`, `once per quarter`: the period is the amount, `once` its frequency."""
_ONCE_CLAUSE = re.compile(
    r"\s+(?:you|we|they|he|she|it|i|the|your|our|their|its|this|that|these|those|all|any|no|"
    r"[a-z]+\s+(?:is|are|has|have|was|were))\b"
)


def not_a_count(lowered: str, at: int) -> bool:
    """`once` at `at` is no count: `at once` (immediately), the conjunction (`once you have
    been notified`: after that happens) or the frequency word of a period (`once a fortnight`)."""
    return bool(
        _ONCE_AT.search(lowered, max(0, at - 4), at)
        or _ONCE_CLAUSE.match(lowered, at + 4)
        or _ONCE_PER.match(lowered, at + 4)
    )


def once_after(lowered: str) -> bool:
    """The text has the conjunction `once` (`once you are notified` = after you are notified);
    `only once you confirm` is a necessary condition, compared as one."""
    at = lowered.find("once")
    while at >= 0:
        if (
            (at == 0 or not lowered[at - 1].isalpha())
            and _ONCE_CLAUSE.match(lowered, at + 4)
            and not lowered.endswith("only ", 0, at)
        ):
            return True
        at = lowered.find("once", at + 4)
    return False


_BOUND_BEFORE_ONE = re.compile(
    r"(?:(?:more|less|fewer)\s+than|at\s+(?:least|most)|up\s+to|более|менее|больше|меньше)\s+$"
)
"""`more than one tablet`: after a bound, `one` is a count (elsewhere it may be a pronoun)."""
_ONE_TO_MANY = re.compile(
    r"\s*(?:[-–]|\s(?:to|or)\s)\s*(?:\d|(?:two|three|four|five|six|seven|eight|nine|ten)(?![\w-]))"
)
"""`one to two days`, `one or two tablets`: the low end of a range is a count, as `1 to 2 days`
writes it."""
_NUMBER_JOIN = re.compile(r"(?:\s+and\s+|[\s-]+)([^\W\d_]+)")


_AND_A_HALF = re.compile(r"\s+(?:с половиной|and a half)(?![\w-])")


def _compound(lowered: str, end: int, value: float) -> tuple[float, int]:
    """(value, end) of a number word and the words that complete it: tens and units
    (`twenty-five`, `пятьдесят девять`), hundreds and the rest (`двести пятьдесят`,
    `one hundred and twenty`), and a half after them (`две с половиной`)."""
    while True:
        m = _NUMBER_JOIN.match(lowered, end)
        if m is None:
            break
        word = m.group(1)
        if lowered[end : end + 1] != "-" and lowered[m.end() : m.end() + 1] == "-":
            break  # `twenty one-day passes`: the next word begins a compound of its own
        nxt = EN_NUMBERS.get(word) or RU_NUMBERS.get(word) or (1 if word in ONE_WORDS else None)
        if word == "hundred" and 1 <= value <= 9:
            value, end = value * 100, m.end()
        elif nxt is not None and (
            (value % 10 == 0 and 20 <= value % 100 <= 90 and 1 <= nxt <= 9)
            or (value % 100 == 0 and 100 <= value <= 900 and 1 <= nxt <= 99)
        ):
            value, end = value + nxt, m.end()
        else:
            break
    half = _AND_A_HALF.match(lowered, end)  # `две с половиной тысячи`, `two and a half`
    return (value + 0.5, half.end()) if half is not None else (value, end)


def _with_currency(text: str, q: Quantity) -> Quantity:
    """`€100` and `$49` carry their currency as a unit, as `100 euros` does."""
    if q.unit is not None:
        return q
    at = text.find(q.text)
    sign = _currency_before(text, at) if at >= 0 else None
    if sign is None:
        return q
    unit = _CURRENCY_SIGNS.get(sign) or _CURRENCY_CODES[sign]
    return Quantity(q.value, unit, text[text.rindex(sign, 0, at) : at] + q.text)


_CURRENCY_SIGNS = {"$": "usd", "€": "eur", "£": "gbp", "₽": "rub", "¥": "cny", "￥": "cny"}
CURRENCIES = frozenset(_CURRENCY_SIGNS.values())
"""The currencies an amount may carry as its unit (`€100`, `100 euros`)."""
_CURRENCY_UNITS = frozenset({None, *CURRENCIES})


def _currency_before(text: str, at: int) -> str | None:
    """The currency sign or ISO code written right before position `at` (`€5`, `$ 5`,
    `USD 1,000`), if any."""
    if at > 0 and text[at - 1] in _CURRENCY_SIGNS:
        return text[at - 1]
    if at > 1 and text[at - 1] == " " and text[at - 2] in _CURRENCY_SIGNS:
        return text[at - 2]
    code = _CURRENCY_CODE_BEFORE.search(text, max(0, at - 5), at)
    return code.group(1) if code is not None else None


_CURRENCY_CODES = {"USD": "usd", "EUR": "eur", "GBP": "gbp", "RUB": "rub", "CNY": "cny"}
_CURRENCY_CODE_BEFORE = re.compile(r"(?<![A-Za-z])(USD|EUR|GBP|RUB|CNY)\s?$")
"""`USD 1,000` writes the currency as `$1,000` does."""


_PHRASE_VALUES: dict[str, tuple[str, str]] = {
    "half an hour": ("0.5", "h"), "half a day": ("0.5", "d"), "half a year": ("6", "mo"),
    "half hour": ("0.5", "h"), "half-hour": ("0.5", "h"),
    "a fortnight": ("14", "d"), "fortnight": ("14", "d"), "полчаса": ("0.5", "h"),
    "полдня": ("0.5", "d"), "полгода": ("6", "mo"), "полугода": ("6", "mo"),
    "сутки": ("1", "d"), "суток": ("1", "d"), "сутками": ("1", "d"),
    "a quarter": ("3", "mo"), "quarter": ("3", "mo"), "квартал": ("3", "mo"),
    "квартала": ("3", "mo"), "четверть часа": ("15", "min"), "четверти часа": ("15", "min"),
    "a quarter of an hour": ("15", "min"), "quarter of an hour": ("15", "min"),
    "двое суток": ("2", "d"), "трое суток": ("3", "d"), "четверо суток": ("4", "d"),
    "an hour and a half": ("1.5", "h"), "one and a half hours": ("1.5", "h"),
    "three quarters of an hour": ("45", "min"), "three-quarters of an hour": ("45", "min"),
    "полсуток": ("0.5", "d"), "quarterly": ("3", "mo"), "ежеквартально": ("3", "mo"),
}  # fmt: skip
PHRASE_AMOUNTS = tuple(_PHRASE_VALUES)
"""Amounts written as a phrase (`четверть часа`, `half an hour`)."""
_PHRASE_QUANTITY = re.compile(
    r"(?<![\w-])(?:(?:в течение|за|в|через|раз в|once|every|each|per|within|for|in|after)\s+)?("
    + patterns.words(_PHRASE_VALUES)
    + r")(?![\w-])"
)
_RU_ORDINAL_BEFORE = re.compile(
    r"(?<![\w-])(?:втор|трет|четв[её]рт|пят|шест|седьм|восьм|девят|десят)\w*\s+$"
)
"""An ordinal other than `первые` before a time noun: a day named by its place."""
_ARTICLE_UNIT = re.compile(
    r"(?<![\w-])(?:within|for|in|per|every|each|once|twice|times|after|than|over|up to|about"
    r"|at least|at most|gets?|receives?|takes?|lasts?"
    r"|of(?=\s+an?\s+[a-z]+\s+(?:or|and)\s+(?:more|longer|less|shorter|over|under)(?![\w-])))"
    r"\s+((?:a|an|one)\s+([a-z]+))(?![\w-])"
)
"""`within a week`, `once a day`, `for an hour`, `at least a week`, `rentals of a week or
longer`, `members get an hour`, `it takes a day`: the article counts one of the unit."""
_TIMES_WORDS = frozenset({"twice", "thrice", "дважды", "трижды", "четырежды", "пятикратно"})
_RU_FREQ_STEMS = {
    "суточн": "d", "ежедневн": "d", "еженедельн": "wk", "ежемесячн": "mo", "ежегодн": "yr",
    "ежечасн": "h",
}  # fmt: skip
_RU_ADJECTIVE_ENDINGS = ("ый", "ая", "ое", "ые", "ого", "ой", "ую", "ому", "ым", "ых", "ыми", "ом")
_RU_FREQ_ADJECTIVE = re.compile(
    f"({'|'.join(_RU_FREQ_STEMS)})(?:{'|'.join(_RU_ADJECTIVE_ENDINGS)})$"
)
"""`суточная доза`, `ежемесячный платёж`: per day, per month (as `daily` is)."""
_FREQ_WORD = re.compile(
    rf"(?<![{_LETTER}])"
    + patterns.words(
        (
            *_FREQ_ADVERBS,
            *(stem + ending for stem in _RU_FREQ_STEMS for ending in _RU_ADJECTIVE_ENDINGS),
        )
    )
    + rf"(?![{_LETTER}])"
)
"""The words the frequency loop of `quantities` reads, as whole words: the loop stays in C
for the other words of a text."""
_NUMBER_WORD = re.compile(
    rf"(?<![{_LETTER}])"
    + patterns.words((*EN_NUMBERS, *RU_NUMBERS, *ONE_WORDS, *SCALES))
    + rf"(?![{_LETTER}])"
)
"""The words the number-word loop of `quantities` reads (number words, `one`-words, scales)
as whole words of a lower-cased text."""
_COUNT_BEFORE = re.compile(r"(\d+(?:[.,]\d+)?|[^\W\d_]+)\s+$")
_RATE_BEFORE = re.compile(r"(?:в|раз в|per|every|each)\s(?!течение)")
"""`в сутки`, `per day`: one unit read as a rate, not an amount."""
_RU_PER_UNIT = re.compile(
    r"(?<![\w-])(?<!раз )(?<!раза )в\s+(месяц|неделю|год|день|час|минуту|секунду|сутки)"
    r"(?=(?:\s+(?:бесплатно|дополнительно|включительно))?\s*(?:[.,;:)!?]|$|\s(?:и|или|а|но)\s))"
)
"""A Russian rate at the end of its clause: `не менее 99,95% в месяц.`, `4 часа в месяц
бесплатно` (not `в день рождения`, `в час ночи`)."""
_RU_PRICE_PER = re.compile(
    r"(?:(?<=рублей )|(?<=рубля )|(?<=рубль )|(?<=евро ))(?:за|в)\s+"
    r"(минуту|час|сутки|день|неделю|месяц|год)(?![\w-])"
)
"""`15 рублей за минуту`: a price per unit of time, a rate."""
_ZH_HALF = re.compile(r"半个?(小时|天|年|月)")
_RU_BARE_UNIT = re.compile(
    r"(?<![\w-])(?:в течение|на|за|через|целый|целую|ровно|хранятся|хранится|действует|"
    r"действителен|действительна|длится|составляет|—|как минимум|минимум|хотя бы|не реже|"
    r"не чаще|не более|не менее|не больше|не меньше)\s+"
    r"(год|месяц|неделю|сутки|час|минуту|секунду|раз|раза)(?![\w-])"
    r"|(?<![\w-])(?:не дольше|не позднее|не позже|дольше|не более|не менее)\s+"
    r"(года|месяца|недели|суток|часа|минуты)(?![\w-])"
    r"|(?<![\w-])в течение\s+(?:первого|первой|первых)\s+(года|месяца|недели|суток|часа)(?![\w-])"
    r"|(?<![\w-])за\s+(день)(?=\s+до(?![\w-]))"
)
"""A Russian time noun with no number counts one (`хранятся год`, `в течение суток`, `в
течение первого года`, `за день до начала`)."""


_EXACT: dict[str, tuple[str, float]] = {
    "ms": ("s", 0.001), "s": ("s", 1), "min": ("s", 60), "h": ("s", 3600), "d": ("s", 86400),
    "wk": ("s", 604800), "mo": ("mo", 1), "yr": ("mo", 12), "mg": ("g", 0.001), "g": ("g", 1),
    "kg": ("g", 1000), "jin": ("g", 500), "m": ("m", 1), "km": ("m", 1000), "ml": ("ml", 1),
    "l": ("ml", 1000), "wh": ("wh", 1), "kwh": ("wh", 1000), "cm": ("m", 0.01), "mm": ("m", 0.001),
}  # fmt: skip
"""Units that convert exactly into one base: 14 days = 2 weeks, 24 hours = 1 day, 12 months =
1 year, 2 小时 = 120 分钟. A month is not 30 days and a gigabyte is not reliably 1024 MB, so
months and days, and data sizes, never convert into each other."""


def magnitude(q: Quantity) -> tuple[float, str] | None:
    """(value in the base unit, base unit) for exactly convertible units, else None."""
    if q.unit not in _EXACT:
        return None
    base, factor = _EXACT[q.unit]
    try:
        return round(float(q.value) * factor, 6), base
    except ValueError:
        return None


_APPROX: dict[str, tuple[str, float]] = {
    **_EXACT,
    "mo": ("s", 2_629_800.0), "yr": ("s", 31_557_600.0), "bd": ("s", 86400.0),
    "bh": ("s", 3600.0), "bwk": ("s", 604800.0),
    "kb": ("byte", 1e3), "mb": ("byte", 1e6), "gb": ("byte", 1e9), "tb": ("byte", 1e12),
}  # fmt: skip
"""Rough sizes for telling a different amount from an inexact rewording of the same one."""


def clearly_different(a: Quantity, b: Quantity) -> bool | None:
    """Whether two amounts of one kind differ by more than half (8 hours vs 8 days: a
    different value), rather than being near-equal wordings (30 days vs a month: inexact).
    None when they are not amounts of one kind."""
    if a.unit not in _APPROX or b.unit not in _APPROX:
        return None
    (ka, fa), (kb, fb) = _APPROX[a.unit], _APPROX[b.unit]
    if ka != kb:
        return None
    try:
        x, y = float(a.value) * fa, float(b.value) * fb
    except ValueError:
        return None
    low, high = sorted((x, y))
    return low <= 0 or high / low > 1.5


def in_claims_bound(
    q: Quantity,
    alike: Iterable[Quantity],
    claim_bounds: Mapping[str, frozenset[str]],
    ev_bounds: Mapping[str, frozenset[str]],
) -> bool:
    """The claim only bounds its amount, and every amount of that kind the evidence states
    exactly lies inside the bound (`extended by more than a year` where it says `by two
    years`; `up to 5 days` where it says `3 days`). A bound of the evidence's own (`within 7
    days` for `within 14 days`) is another rule, not this."""
    found = [bound_met(q, e, claim_bounds, ev_bounds) for e in alike]
    return bool(found) and all(found)


def bound_met(
    q: Quantity,
    e: Quantity,
    claim_bounds: Mapping[str, frozenset[str]],
    ev_bounds: Mapping[str, frozenset[str]],
) -> bool:
    """The evidence's exact amount `e` lies inside the one bound the claim puts on `q`."""
    kinds = claim_bounds.get(f"#{q.value}", frozenset())
    if kinds not in (frozenset({"lower"}), frozenset({"upper"})):
        return False
    mine, theirs = _size(q), _size(e)
    return (
        mine is not None
        and theirs is not None
        and mine[1] == theirs[1]
        and ev_bounds.get(f"#{e.value}", frozenset({"exact"})) == {"exact"}
        and (theirs[0] > mine[0] if "lower" in kinds else theirs[0] < mine[0])
    )


def _size(q: Quantity) -> tuple[float, str] | None:
    """(value, unit) in the base unit where the unit converts exactly, else as written."""
    exact = magnitude(q)
    if exact is not None:
        return exact
    try:
        return float(q.value), q.unit or ""
    except ValueError:
        return None


def rounds_to(exact: Quantity, rounded: Quantity) -> bool:
    """`exact` (97.1 %) written to the precision of `rounded` (97 %) is `rounded`: the same
    unit, fewer decimals on the rounded side."""
    if exact.unit != rounded.unit or "." not in exact.value:
        return False
    places = len(rounded.value.partition(".")[2])
    if places >= len(exact.value.partition(".")[2]):
        return False
    try:
        return round(float(exact.value), places) == float(rounded.value)
    except ValueError:
        return False


APPROXIMATE_WORDS = r"about|around|approximately|roughly|some|около|примерно|приблизительно"
"""Words that make the amount after them approximate (Latin and Cyrillic)."""
APPROXIMATE_BEFORE = re.compile(
    rf"(?:(?<![\w-])(?:{APPROXIMATE_WORDS})|~|(?<![预签节制公条合邀赴履违相特])约|大约|大概)\s*$",
    re.IGNORECASE,
)
"""A word that makes the amount after it approximate (`about 97%` for `97.1%`); not the 约 of
`预约3节` (book), `签约`, `节约`."""


def approximate_at(text: str, at: int) -> bool:
    """The amount at `at` follows an approximation word."""
    return APPROXIMATE_BEFORE.search(text[max(0, at - 20) : at]) is not None


def same_amount(a: Quantity, b: Quantity) -> bool:
    """The same value in the same unit, or the same amount in exactly convertible units."""
    if a.value == b.value and a.unit == b.unit:
        return True
    ma, mb = magnitude(a), magnitude(b)
    return ma is not None and ma == mb


def _is_ident(m: re.Match[str]) -> bool:
    return bool(identifiers(m.group(0)))


# ----------------------------------------------------------------------------- closed classes


@dataclass(frozen=True, slots=True)
class WordClass:
    """A closed word class matched as whole words (Latin, Cyrillic) or substrings (CJK)."""

    words: frozenset[str]
    phrases: tuple[str, ...]
    cjk: tuple[str, ...]
    cjk_exclude: tuple[str, ...] = ()
    word_re: re.Pattern[str] = re.compile(r"(?!)")
    """Matches wherever one of `words` may stand as a whole word: a C-speed test that lets a
    caller skip its word-by-word scan of a text that has none (a superset, never a miss)."""

    @classmethod
    def of(cls, items: str, exclude: str = "") -> WordClass:
        entries = [i.strip() for i in items.split(",") if i.strip()]
        cjk = tuple(sorted((e for e in entries if has_cjk(e)), key=len, reverse=True))
        words = frozenset(e for e in entries if " " not in e and not has_cjk(e))
        return cls(
            words,
            tuple(e for e in entries if " " in e and not has_cjk(e)),
            cjk,
            tuple(e.strip() for e in exclude.split(",") if e.strip()),
            re.compile(
                rf"(?<![^\W\d_]){patterns.words(words, ignorecase=True)}(?![^\W\d_])", re.IGNORECASE
            )
            if words
            else re.compile(r"(?!)"),
        )

    def count(self, lowered: str, words: tuple[str, ...]) -> int:
        """Occurrences (not distinct words): `not … no` is two negations."""
        n = sum(1 for w in words if w in self.words)
        n += sum(1 for p in self.phrases if p in lowered and _whole(p, lowered))
        if self.cjk and has_cjk(lowered):
            masked = lowered
            for ex in self.cjk_exclude:
                masked = masked.replace(ex, "□" * len(ex))
            for w in self.cjk:
                n += masked.count(w)
                masked = masked.replace(w, "□" * len(w))
        return n

    def find(self, lowered: str, words: frozenset[str]) -> list[str]:
        found = sorted(self.words & words)
        found += [p for p in self.phrases if p in lowered and _whole(p, lowered)]
        if self.cjk and has_cjk(lowered):
            masked = lowered
            for ex in self.cjk_exclude:
                masked = masked.replace(ex, "□" * len(ex))
            for w in self.cjk:
                if w in masked:
                    found.append(w)
                    masked = masked.replace(w, "□" * len(w))
        return found


NEGATION = WordClass.of(
    "not, no, never, none, nobody, nothing, neither, nor, cannot, can't, don't, doesn't, "
    "didn't, isn't, aren't, wasn't, weren't, won't, hasn't, haven't, hadn't, shouldn't, "
    "couldn't, wouldn't, mustn't, without, "
    "prohibited, forbidden, banned, disallowed, prohibition, "
    "не, нет, ни, никогда, ничего, никто, нельзя, невозможно, без, запрет, "
    "запрещено, запрещен, запрещён, запрещена, запрещены, запрещается, запрещаются, "
    # `применение недопустимо` says what `применять нельзя` says
    "недопустимо, недопустим, недопустима, недопустимы, "
    # `отсутствие задолженности` says what `нет задолженности` says
    "отсутствие, отсутствия, отсутствию, отсутствием, отсутствии, отсутствует, отсутствуют, "
    "不, 没, 没有, 无, 未, 别, 勿, 非, 无法, 并非, 不能, 不是, 不会, 禁止, 严禁, 不得, 不准, 不许, "
    # `违规载人` names carrying passengers as what the rules forbid (`禁止载人`)
    "违规, 违章",
    exclude="不同, 不断, 不仅, 不少, 不过, 不久, 不管, 不论, 无论, 非常, 未来, 无数, 不但, "
    "无不, 不得不, 除非, 莫非, 是非, 非洲, 不到, 差不多, 不错, 无理由, 无线, 未经, "
    "不超过, 不少于, 不低于, 不高于, 不多于, 不晚于, 不早于, "
    # adverbs and set phrases built on 不 that negate nothing: unknowingly, cannot help
    # (doing), in no time, rare, all at once, countless, self-evident, through and through,
    # sparing no effort, unbelievable
    "不知不觉, 不由得, 不由自主, 不禁, 不觉, 不一会, 不可多得, 不约而同, 不计其数, 不言而喻, "
    "不折不扣, 不遗余力, 不可思议, "
    # a question asked with A-not-A (`是不是`, `有没有`): it asks, it negates nothing
    "是不是, 能不能, 会不会, 有没有, 可不可以, 对不对, 好不好, 行不行, "
    # words whose 别 is `other` or `distinguish`, not `don't`
    "别人, 别的, 别家, 别处, 别国, 特别, 区别, 分别, 告别, 类别, 级别, 性别, 识别, 差别, 个别, "
    "别墅, 别名, 辨别, 鉴别, 离别, 派别, 判别, 甄别, 道别, 惜别, 诀别, "
    # words that only contain a negation character: force majeure, deductible waiver,
    # real estate, adverse (reaction), illegal
    "不可抗力, 不计免赔, 不动产, 不良, 不法, 无人机, 非法, "
    # organ insufficiency (肝功能不全): a condition's name
    "功能不全",
)
UNIVERSAL = WordClass.of(
    "all, every, each, any, entire, whole, always, everyone, everything, everybody, throughout, "
    "anyone, anybody, both, "
    "все, всех, всем, всеми, весь, вся, всё, всю, всего, каждый, каждая, каждое, каждые, "
    "каждого, каждому, каждой, каждую, каждым, каждом, каждых, каждыми, "
    "любой, любые, любого, любая, любое, любую, любым, любом, любых, любыми, любому, всегда, "
    "所有, 全部, 一切, 每个, 每位, 每名, 每笔, 每件, 每张, 每台, 每辆, 每份, 每家, "
    "每条, 每项, 每本, 每册, 每套, 每户, 全体, 任何, 任意, 任一, 总是, 全都, 都, 均, 一律, 统一",
)
MAJORITY = WordClass.of(
    "most, many, majority, "
    "большинство, большинства, многие, многих, многим, "
    "大多数, 多数, 许多, 大部分, 很多",
)
SOME = WordClass.of(
    "some, several, certain, part, partly, partially, sometimes, "
    "некоторые, некоторых, некоторым, несколько, нескольких, часть, части, частично, иногда, "
    "部分, 一些, 有些, 某些, 若干, 有时, 少数",
)
HEDGE = WordClass.of(
    "allegedly, reportedly, supposedly, apparently, rumoured, rumored, tried, tries, "
    "attempted, attempts, wanted, wants, wished, wishes, planned, plans, intends, intended, "
    "intention, hoped, hopes, hoping, believe, believes, believed, think, thinks, thought, "
    "expect, expects, suspect, suspects, suspected, assume, assumes, assumed, "
    "suppose, supposed, alleged, alleges, claimed, proposed, proposes, proposal, "
    "initiative, seeks, sought, whether, unclear, unknown, risk of, danger of, threat of, "
    "may be able, might be able, may be possible, might be possible, "
    "якобы, предположительно, по сообщениям, по словам, по мнению, "
    "пытался, пыталась, пытались, пытается, пытаются, попытался, попыталась, попытались, "
    "попытка, попытку, хотел, хотела, хотели, хочет, хотят, намеревался, намеревалась, "
    "намеревались, намерение, намерении, намерен, намерена, намерены, собирался, собиралась, "
    "собирались, собирается, собираются, планирует, планируют, планировал, планировала, "
    "планировали, планируется, считает, считают, считал, считала, считали, полагает, "
    "полагают, думает, думают, надеется, надеются, надеялся, надеялись, рассчитывает, "
    "рассчитывают, рассчитывали, ожидается, ожидаются, уверен, уверена, уверены, "
    "предполагает, подозревают, подозревали, подозревается, утверждает, "
    "утверждают, утверждал, утверждала, заявил, заявила, заявили, сообщил, сообщила, "
    "сообщили, сказал, сказала, сказали, ответил, ответила, отметил, отметила, отмечается, "
    "рассказал, рассказала, рассказали, инициатива, инициативу, инициативой, "
    "предложил, предложила, задача, опасность, угроза, неизвестно, "
    "试图, 企图, 打算, 想要, 据称, 据说, 认为, 相信, 希望, 期望, 预计, 声称, 宣称, 怀疑, "
    "是否, 能否, 可否, 提议",
)
"""Non-factual frames (`tried to`, `allegedly`, `planned`): evidence that only says someone
tried to do X does not say X happened. Epistemic hedges (`may`, `likely`) are modality, in
`stream.verify.slots`."""
BEFORE = WordClass.of("before, prior to, earlier than, перед, прежде, 之前, 以前, 前")
AFTER = WordClass.of("after, following, later than, после, спустя, 之后, 以后, 后, 起")
MORE = WordClass.of("more, greater, больше, более, 更多")
LESS = WordClass.of("less, fewer, меньше, менее, 更少")
INFERENCE = WordClass.of(
    "therefore, thus, hence, consequently, "
    "which means, this means, it follows, as a result, "
    "поэтому, следовательно, значит, отсюда, "
    "таким образом, в результате, "
    "因此, 所以, 这意味着, 由此可见, 意味着, 因而, 从而, 故而",
)

_BOUND_WORDS: dict[str, str] = {
    **dict.fromkeys(
        ("up to", "at most", "no more than", "not more than", "never more than",
         "never later than", "never longer than", "within", "under", "less than",
         "fewer than", "below", "maximum of", "a maximum of", "max", "не более", "не больше",
         "до", "менее", "максимум", "не свыше", "в пределах", "smaller than", "shorter than",
         "lower than", "no later than", "not later than", "limited to", "capped at",
         "no longer than", "not longer than", "may not exceed", "must not exceed",
         "does not exceed", "not exceed", "не позднее", "не дольше", "не выше", "ниже",
         "never exceeds", "never exceed", "never goes above", "never go above",
         "never goes over", "never go over", "never goes beyond", "never rises above",
         "не позднее чем через", "не позже чем через", "не позднее чем", "не позже чем",
         "не позднее чем за", "не позже чем за", "не позднее, чем за", "не позднее за",
         "не дальше", "не чаще", "не более чем", "не более чем за", "colder than",
         "younger than", "cheaper than", "lighter than", "slower than", "narrower than",
         "thinner than", "smaller than", "earlier than", "младше", "моложе",
         "не исполнилось", "не исполнился", "не исполнилась",
         "as many as", "as much as", "as long as", "for as long as",
         "менее чем", "меньше чем", "менее чем на", "меньше чем на", "меньше", "реже", "дешевле",
         "первые", "первых", "first",
         "короче", "короче чем", "короче чем на", "легче", "less expensive than", "ограничен",
         "ограничена", "ограничено",
         "ограничены", "ограничивается", "ограничиваются", "не позднее, чем через",
         "не позже, чем через", "no older than", "not older than",
         # a comparative under `no`/`not` bounds from above: `no larger than 40 x 30 cm`
         "no larger than", "not larger than", "no bigger than", "not bigger than",
         "no heavier than", "not heavier than", "no wider than", "not wider than",
         "no higher than", "not higher than", "no taller than", "not taller than",
         "no greater than", "not greater than", "no later than", "no more often than",
         "not more often than",
         # a limit given with `of` (`a weight limit of 8 kilograms`, `a cap of 3`)
         "limit of", "a limit of", "cap of", "a cap of", "ceiling of", "a ceiling of"),
        "upper"),
    **dict.fromkeys(
        ("at least", "no less than", "not less than", "never less than", "never fewer than",
         "never earlier than", "more than", "over", "above", "after",
         "minimum of", "a minimum of", "min", "exceeds", "exceed", "greater than", "beyond",
         "longer than", "later than", "larger than", "bigger than", "higher than",
         "no earlier than", "no fewer than", "не ранее", "не раньше", "выше", "не менее",
         "не ближе", "не реже", "как минимум", "не менее чем", "не ранее чем за",
         "не раньше чем за", "не ранее, чем за", "не ранее чем", "не раньше чем",
         "не меньше", "более", "свыше", "минимум", "через", "после", "от", "больше",
         "hotter than", "warmer than", "older than", "heavier than", "wider than",
         "faster than", "taller than", "deeper than", "thicker than", "старше",
         # an end no earlier than the date: `valid at least until 5 May` (not `no later than`)
         "at least until", "at least till", "at least through", "как минимум до",
         "минимум до", "по крайней мере до", "по меньшей мере до", "как минимум по", "хотя бы до",
         "более чем", "больше чем", "более чем на", "больше чем на", "превышает",
         "превышают", "превышать", "превысит", "превысят", "превышающий", "превышающей",
         "дольше", "позже", "позднее", "чаще", "дороже", "длиннее", "тяжелее",
         "дольше чем", "дольше чем на", "длиннее чем", "длиннее чем на",
         "more expensive than", "не ранее чем через", "не раньше чем через", "не менее чем через",
         "не меньше чем через", "не менее, чем через", "не меньше, чем через",
         "не ранее, чем через", "не раньше, чем через", "no younger than", "not younger than",
         "по крайней мере", "по меньшей мере", "хотя бы",
         "no smaller than", "not smaller than", "no shorter than", "not shorter than",
         "no lower than", "not lower than", "no lighter than", "not lighter than",
         "no sooner than", "not sooner than", "no less often than", "not less often than"),
        "lower"),
}  # fmt: skip
_GOING_UP = re.compile(r"(?<![\w-])(?:go|goes|going|went|gone)\s*$", re.IGNORECASE)
"""`going up to`: a phrasal verb of change before `to`, not the bound `up to`."""
_RU_BARE_UNITS = (
    "час", "часа", "сутки", "суток", "неделю", "недели", "месяц", "месяца", "год", "года",
    "день", "дня",
    "минуту", "минуты", "секунду", "секунды", "раз", "раза",
)  # fmt: skip
"""A Russian unit without a number is one of it: `не позднее чем за час` bounds 1 hour."""
_BOUND_RE = re.compile(
    r"(?<![\w-])("
    + patterns.words(_BOUND_WORDS, ignorecase=True)
    + r")\s+(?:(?:в|за|на)\s+)?(?:[$€£¥]\s?)?(?=\d|"
    + patterns.words((*EN_NUMBERS, *RU_NUMBERS, *ONE_WORDS, *_RU_BARE_UNITS), ignorecase=True)
    + r"\b|an?\s+(?:second|minute|hour|day|night|week|month|quarter|year)s?\b)",
    re.IGNORECASE,
)
_LATENESS = frozenset(
    {"no later than", "not later than", "no earlier than", "не позднее", "не позже",
     "не ранее", "не раньше", "не позднее чем за", "не позже чем за", "не позднее, чем за",
     "не позднее за", "не раньше чем за", "не ранее чем", "не ранее, чем за",
     "не ранее чем за", "не раньше, чем за", "не позже, чем за", "up to"}
)  # fmt: skip
_AHEAD_PREPOSITION = re.compile(r"\sза$", re.IGNORECASE)
"""`не позднее чем за 5 дней`: Russian `за N` is N ahead of the event (named before it or not),
so the lateness bound turns over as `… before` does."""
_AHEAD_OF_EVENT = re.compile(
    r"[\w.,–-]+(?:\s+[\w–-]+){0,8}?\s+(?:до|before|prior to|ahead of|beforehand|in advance)"
    r"(?![\w-])",
    re.IGNORECASE,
)
"""`… 3 days before the start`: a bound on the time ahead of an event turns over (`no later
than 3 days before` = at least 3 days ahead; `up to 10 days before` too), also across a second
bound of the same span (`не ранее чем за 3 месяца и не позднее чем за 15 дней до`), and ahead
of one the sentence leaves implicit (`no later than 48 hours beforehand`, `in advance`)."""
_COORDINATED = re.compile(r"[^.;!?。；]*?\s(?:и|and|or|или)\s+", re.IGNORECASE)
"""Text between two bounds that coordinates the second with the first (`… и дольше 5`)."""
_DURATION_BEFORE = re.compile(r"(?<![\w-])for\s+$", re.IGNORECASE)
"""`held for up to 20 minutes before the start`: a duration, not a deadline ahead of it."""
BOUND_NEGATION = r"(?:(?<![\w-])(?:not|never|cannot|не|нельзя)|n't)"
"""A negation that may govern a bound a few words on (`can't`, `cannot`, `нельзя`)."""
SCOPE_WORD = (
    r"(?!(?:who|which|that|if|when|unless|and|or|but|который|которая|которое|которые|"
    r"если|когда|и|или|но)(?![\w-]))[\w-]+"
)
"""A word a negation's scope runs over on its way to a bound: not one that opens a clause of
its own (`not charge customers who spend more than $50` leaves the bound unnegated)."""
_NEGATED_BEFORE = re.compile(
    rf"{BOUND_NEGATION}(?P<between>(?:\s+{SCOPE_WORD}){{0,4}})\s*$", re.IGNORECASE
)
EXTENT_BOUNDS = frozenset(
    {"more than", "less than", "fewer than", "longer than", "later than", "beyond", "больше",
     "более", "дольше", "свыше", "позже", "позднее", "чаще", "меньше", "менее", "реже"}
)  # fmt: skip
"""Bound words that measure the action itself (`take … for more than 3 days`, `call … more
than 600 times`): a negation three or four words back still governs them. Others (`above`,
`older than`) more often restrict a noun right before them (`do not use hot water above
30 °C`): only a negation at most two words back turns them over."""


def reaches_bound(between: str, bound_word: str) -> bool:
    """A negation with the words `between` it and `bound_word` governs that bound: any bound
    at most two words on, one that measures the action (`EXTENT_BOUNDS`) up to four."""
    return len(between.split()) <= 2 or bound_word.lower() in EXTENT_BOUNDS


def negation_governs(before: str, bound_word: str) -> bool:
    """A negation ending `before` turns the bound `bound_word` that follows over: `not kept
    beyond 7 days` (<= 7), `не должна превышать 8`, `do not take the tablets for more than 3
    days`, `нельзя принимать больше 8 таблеток`."""
    if bound_word.lower() in _NOT_TURNED:
        return False
    m = _NEGATED_BEFORE.search(before)
    return m is not None and reaches_bound(m.group("between"), bound_word)


_NOT_TURNED = frozenset(
    {"at least", "как минимум", "минимум", "по меньшей мере", "по крайней мере", "хотя бы",
     "не менее", "не менее чем", "no less than", "not less than"}
)  # fmt: skip
"""Bounds a negation before them does not turn over: `нельзя есть как минимум 8 часов`, `do
not eat for at least 8 hours` keep the fast at least that long."""


ZH_NEGATED_MODAL = r"(?:不能|不得|不可|不应|不要|不宜|切勿|请勿|勿|禁止|严禁)"
"""A Chinese prohibition that may govern a comparative a few characters on
(`不能连续使用超过3天`)."""
_ZH_NEGATED_BEFORE = re.compile(rf"{ZH_NEGATED_MODAL}[^，。；,;：:\d]{{0,8}}$")
_ZH_COMPARATIVES = frozenset({"超过", "多于", "高于", "大于", "少于", "低于", "小于"})
ZH_BOUND_BEFORE = re.compile(
    r"(最多只能|只能|仅能|未满|不满|不足|不到|未超过|不得超过|不能超过|不可超过|不应超过|不大于|不小于|不得少于|不得低于|最多|至多|不超过|少于|"
    r"低于|至少|不少于|多于|超过|高于|不低于|不高于|大于|小于|满|最高|上限|封顶|最低|最少|下限|最长|最短|最晚|最迟|"
    r"最早|达到)[^\d，。；]{0,6}\d"
)
_ZH_AHEAD = re.compile(r"前|提前")
"""`最晚在出发前2小时`, `最迟提前3天`: the latest time is a lead of at least that long."""
_ZH_BOUND_AFTER = re.compile(r"\d+(?:\.\d+)?\s?[^\d，。；\s]{0,4}?(以内|之内|以上|以下|之后|内|后)")
_ZH_BOUND_KIND = {
    "最多": "upper", "至多": "upper", "不超过": "upper", "少于": "upper", "低于": "upper",
    "不高于": "upper", "以内": "upper", "之内": "upper", "以下": "upper", "内": "upper",
    "至少": "lower", "不少于": "lower", "多于": "lower", "超过": "lower", "高于": "lower",
    "不低于": "lower", "以上": "lower", "之后": "lower", "后": "lower", "不得超过": "upper",
    "不能超过": "upper", "不可超过": "upper", "不应超过": "upper", "不大于": "upper",
    "不小于": "lower", "不得少于": "lower", "不得低于": "lower", "大于": "lower",
    "小于": "upper", "满": "lower", "最高": "upper", "上限": "upper", "封顶": "upper",
    "最低": "lower", "最少": "lower", "下限": "lower",
    "未满": "upper", "不满": "upper", "不足": "upper", "不到": "upper", "未超过": "upper",
    "最多只能": "upper", "只能": "upper", "仅能": "upper",
    "最长": "upper", "最短": "lower", "最晚": "upper", "最迟": "upper", "最早": "lower",
    "达到": "lower",
}  # fmt: skip


_EN_AFTER_KIND = {
    "at most": "upper", "at the most": "upper", "or less": "upper", "or fewer": "upper",
    "or shorter": "upper", "maximum": "upper", "max": "upper", "or younger": "upper",
    "or under": "upper", "or below": "upper", "and under": "upper", "and below": "upper",
    "at least": "lower", "at the least": "lower", "or more": "lower", "or longer": "lower",
    "minimum": "lower", "min": "lower", "or older": "lower", "or over": "lower",
    "or above": "lower", "and over": "lower", "and above": "lower", "and older": "lower",
    # Russian: `1500 рублей и больше`, `18 лет и старше`
    "и больше": "lower", "и более": "lower", "или больше": "lower", "или более": "lower",
    "и старше": "lower", "и выше": "lower", "и меньше": "upper", "и менее": "upper",
    "или меньше": "upper", "или менее": "upper", "и младше": "upper", "и ниже": "upper",
    "и дольше": "lower", "или дольше": "lower", "и короче": "upper", "или короче": "upper",
    # versions and dates: `iOS 16 or later`, `Android 12 and newer`, `версии 5 и новее`
    "or later": "lower", "or newer": "lower", "or higher": "lower", "and later": "lower",
    "and newer": "lower", "and higher": "lower", "и новее": "lower",
    "или новее": "lower", "или выше": "lower", "и позднее": "lower", "и более поздние": "lower",
}  # fmt: skip
_EN_AFTER_HEADS = re.compile(r"(?<![\w-])(?:at|or|and|max|min|и|или)(?![\w-])", re.IGNORECASE)
_EN_BOUND_AFTER = re.compile(
    r"(?<![\w.,-])(?=\d|"
    + patterns.words((*EN_NUMBERS, *RU_NUMBERS), ignorecase=True)
    + r"\b|an?\s+(?:second|minute|hour|day|night|week|month|quarter|year)s?\b)"
    + r"[\w.,]+(?:\s+[^\W\d_]+){0,3}?\s+("
    + patterns.words(_EN_AFTER_KIND, ignorecase=True)
    + r")(?![\w-])(?!\s+(?:[$€£¥]\s?)?(?:\d|"
    + patterns.words(EN_NUMBERS, ignorecase=True)
    + r"\b))",
    re.IGNORECASE,
)
"""`two guests a day at most`, `ten nights or longer`, `21 or older`, `1500 рублей и больше`: a
bound written after its amount."""
BOUND_AFTER_AMOUNT = _EN_BOUND_AFTER
BOUND_AFTER_HEADS = _EN_AFTER_HEADS
"""The first words of a bound written after its amount: a cheap test before the pattern."""


FLIPPED = {"upper": "lower", "lower": "upper"}
"""A bound turned over (a negation, a lateness word, an exception)."""


_BY_CLOCK = re.compile(r"(?<![\w-])by\s+(?=\d{1,2}:\d{2}(?!\d))", re.IGNORECASE)
"""`check-out is by 11:00`: a time of day `by` names is a deadline (`no later than 11:00`);
`by 5%` is a change, no bound."""


@short_cache(maxsize=1024)
def bounds(text: str) -> dict[str, frozenset[str]]:
    """Number token -> directions of the bounds put on it: `upper` (`up to 5`, `within 14
    days`, `不超过50`, `15分钟内`), `lower` (`at least 5`, `after 14 days`), `exact` (none)."""
    found: dict[str, set[str]] = {}
    spans: list[tuple[int, int, str]] = []
    flipped_until = -1  # where the last bound a negation turned over ends
    found_bounds = list(_BOUND_RE.finditer(text))
    for m in found_bounds:
        kind = _BOUND_WORDS[m.group(1).lower()]
        if m.group(1).lower() == "up to" and _GOING_UP.search(
            text, max(0, m.start() - 8), m.start()
        ):
            continue  # `the fee is going up to €70`: a new value, not a limit
        if negation_governs(text[max(0, m.start() - 48) : m.start()], m.group(1)) or (
            flipped_until >= 0 and _COORDINATED.fullmatch(text, flipped_until, m.start())
        ):
            # not kept beyond 7 days: <= 7; `нельзя … дольше 3 дней …, и дольше 5 дней …`:
            # the negation governs the coordinated bound too
            kind = FLIPPED[kind]
            flipped_until = m.end()
        else:
            flipped_until = -1
        ahead = _AHEAD_OF_EVENT.match(text, m.end())
        if (
            m.group(1).lower() in _LATENESS
            and (
                # the event's time is this bound's amount, not another bound's (`up to 10 rooms
                # must be cancelled at least 30 days before`)
                (
                    ahead
                    # `announced up to 72 hours in advance` is a lead of at most 72 hours: only
                    # a deadline (`no later than`) turns over ahead of an event left implicit
                    and not (
                        m.group(1).lower() == "up to"
                        and ahead.group().lower().endswith(("beforehand", "in advance"))
                    )
                    and not any(
                        m.end() < o.start() < ahead.end()
                        and not _COORDINATED.fullmatch(text, m.end(), o.start())
                        for o in found_bounds
                    )
                )
                or _AHEAD_PREPOSITION.search(m.group(1))
            )
            and not _DURATION_BEFORE.search(text, max(0, m.start() - 5), m.start())
        ):
            # no later than 3 days before it = at least 3 days before it
            kind = FLIPPED[kind]
        spans.append((m.end(), m.end(), kind))
    if "течение" in text:
        for m in _WITHIN_AFTER.finditer(text):
            spans.append((m.end(), m.end(), "upper"))
    if "by " in text or "By " in text:
        for m in _BY_CLOCK.finditer(text):
            # `if it is not returned by 18:00`: after 18:00
            negated = negation_governs(text[max(0, m.start() - 48) : m.start()], "by")
            spans.append((m.end(), m.end(), "lower" if negated else "upper"))
    if _HAVE_HEADS.search(text):
        for m in _HAVE_TIME.finditer(text):
            spans.append((m.end(), m.end(), "upper"))
    if _EN_AFTER_HEADS.search(text):
        for m in _EN_BOUND_AFTER.finditer(text):
            spans.append((m.start(), m.start(), _EN_AFTER_KIND[m.group(1).lower()]))
    if _ADJ_BOUND_HEADS.search(text):
        for m in _ADJ_BOUND.finditer(text):
            if _NO_BEFORE.search(text, max(0, m.start() - 8), m.start()):
                continue  # `with no minimum term … for 49 pounds`: no bound at all
            # a limit noun bounds only an amount it is given (`exceeding the limit makes the
            # API return 429` bounds nothing); an adjective, any amount of its clause
            amount = _given_amount(text, m, copula=m.group().lower() in _LIMIT_NOUNS)
            if amount is None:
                continue
            kind = (
                "lower" if m.group().lower().startswith(("min", "мин", "最低", "最少")) else "upper"
            )
            spans.append((amount.start(), amount.start(), kind))
    if has_cjk(text):
        for m in ZH_BOUND_BEFORE.finditer(text):
            kind = _ZH_BOUND_KIND[m.group(1)]
            if (
                not m.group(1).startswith("不")
                and text[max(0, m.start() - 2) : m.start()]
                in (
                    "不能",
                    "不得",
                    "不可",
                    "不会",
                    "不应",
                )
            ) or text[max(0, m.start() - 1) : m.start()] == "不":
                kind = FLIPPED[kind]  # 不能大于10: <= 10
            elif m.group(1) in _ZH_COMPARATIVES and _ZH_NEGATED_BEFORE.search(
                text[max(0, m.start() - 12) : m.start()]
            ):
                kind = FLIPPED[kind]  # 不能连续使用超过3天: <= 3
            elif m.group(1) in ("最晚", "最迟") and _ZH_AHEAD.search(m.group(0)):
                kind = FLIPPED[kind]  # 最晚在就诊前12小时: at least 12 hours ahead
            spans.append((m.end() - 1, m.end() - 1, kind))
        for m in _ZH_BOUND_AFTER.finditer(text):
            spans.append((m.start(), m.start(), _ZH_BOUND_KIND[m.group(1)]))
    for a, _, kind in list(spans):
        # `must not weigh more than 8 kilograms on Plus fares or 12 kilograms on Business
        # fares`: the coordinated amount of the same unit takes the same bound
        amount = _BOUNDED.match(text, a)
        joined = _COORDINATED_AMOUNT.match(text, amount.end()) if amount is not None else None
        if amount is not None and joined is not None:
            other = _BOUNDED.match(text, joined.end())
            if (
                other is not None
                and _unit_word(text, amount.end()) == _unit_word(text, other.end()) != ""
                and not any(b == joined.end() for b, _, _ in spans)
            ):
                spans.append((joined.end(), joined.end(), kind))
    for a, _, kind in list(spans):
        # `не более 4 г (8 таблеток)`: the amount in brackets restates the bounded one
        amount = _BOUNDED.match(text, a)
        restated = _RESTATED.match(text, amount.end()) if amount is not None else None
        if restated is not None:
            spans.append((restated.end(), restated.end(), kind))
    for m in _RANGE.finditer(text):
        # `between 18 and 70`, `18至70岁之间`: the ends are a lower and an upper bound
        low, high = range_groups(m)
        spans += [(m.start(low), m.start(low), "lower"), (m.start(high), m.start(high), "upper")]
    for m in _BOUNDED.finditer(text):
        raw = m.group(0).lower()
        kinds = {kind for a, _, kind in spans if a == m.start()}
        if raw in ONE_WORDS or raw in _RU_BARE_UNITS or raw in ("a", "an"):
            if not kinds:
                continue  # `one of`, `no one`, `час`: no amount, unless a bound counts it
            token = NUMBER_TOKENS["once"]  # `#1`
        else:
            token = NUMBER_TOKENS.get(raw) or number_token(raw)
            scale = _unit_word(text, m.end())
            if len(scale) >= 3 and scale in SCALES and token[1:].replace(".", "", 1).isdigit():
                # `больше четырёх тысяч рублей` bounds 4000, as its amount reads
                token = number_token(_fmt(float(token[1:]) * SCALES[scale]))
        found.setdefault(token, set()).update(kinds or {"exact"})
    return {k: frozenset(v) for k, v in found.items()}


_HAVE = r"(?<![\w-])(?:have|has|get|gets|есть|отводится|отводятся|да[её]тся)"
_HAVE_HEADS = re.compile(_HAVE + r"(?![\w-])")
_HAVE_TIME = re.compile(
    _HAVE + r"\s+"
    r"(?=[^\s,.;]+\s+(?:(?:working|business|calendar|full|рабоч\w+|календарн\w+)\s+)?"
    r"(?:minutes?|hours?|days?|weeks?|months?|минут\w*|час\w*|день|дн[яе]\w*|недел\w*|"
    r"месяц\w*|суток|сутки)[\s,]+(?:(?:in which )?to|чтобы|на то,? чтобы)(?![\w-]))",
    re.IGNORECASE,
)
"""`you have 14 days to return it`, `у вас есть три рабочих дня, чтобы сдать отчёт`: a
deadline, as `within 14 days` is."""
_WITHIN_AFTER = re.compile(
    r"(?<![\w-])в течение\s+(?=[^\s,.;]+(?:\s+[^\s,.;]+){0,3}?\s+"
    r"(?:после|с момента|со дня|с даты)(?![\w-]))",
    re.IGNORECASE,
)
"""`в течение трёх дней после приёма`: within three days of an event, a deadline (`в течение
трёх дней` alone is as often how long something lasts)."""
_ADJ_BOUND_HEADS = re.compile(
    r"(?i)minim|maxim|минимальн|максимальн|limit|лимит|最低|最少|最高|最多"
)
_ADJ_BOUND = re.compile(
    r"(?<![\w-])(?:minimum|maximum|минимальн\w*|максимальн\w*|limit|лимит)(?![\w-])(?!\s+of\b)"
    r"|(?:最低|最少|最高|最多)(?=[\u4e00-\u9fff]{1,6}(?:为|是))",
    re.IGNORECASE,
)
"""`Минимальная сумма заказа составляет 700 рублей`, `the minimum age is 18`, `最低消费为50元`:
an adjective that bounds the amount its noun is given; so does a limit (`the daily limit is
300 km`, `суточный лимит пробега — 300 километров`)."""
_CLAUSE_STOP = re.compile(r"[.;,!?，。；！？]")
_COORDINATED_AMOUNT = re.compile(r"(?:\s+[^\s\d,.;:]+){0,4}?\s+(?:or|and|или|и)\s+(?=\d)")
_UNIT_WORD = re.compile(r"\s*([^\W\d_]+)")


def _unit_word(text: str, at: int) -> str:
    m = _UNIT_WORD.match(text, at)
    return m.group(1).lower() if m else ""


_NO_BEFORE = re.compile(r"(?<![\w-])(?:no|without|без|нет)\s+$", re.IGNORECASE)


def mask_adjective_bounds(text: str) -> str:
    """Blank the bounding adjectives and limit nouns that bound an amount in their clause
    (`the maximum daily mileage is 300 km`, `лимит — 300 км`): the bound is compared as a slot,
    so the word is no content the evidence must repeat."""
    if not _ADJ_BOUND_HEADS.search(text):
        return text
    for m in _ADJ_BOUND.finditer(text):
        if _given_amount(text, m, copula=True) is not None:
            text = text[: m.start()] + " " * (m.end() - m.start()) + text[m.end() :]
    return text


_DURATION_HEADS = re.compile(
    r"(?i)period|term|duration|length|time|window|hours|срок|период|продолжительност"
    r"|длительност|время|часы|期|时长|时间"
)
_DURATION_NOUN = re.compile(
    r"(?<![\w-])(?:period|term|duration|length|time|window|hours|срок|период|продолжительность"
    r"|длительность|время|часы)(?![\w-])|(?:期限|时长|时间|期)(?=为|是)",
    re.IGNORECASE,
)
_CLOCK_AT = re.compile(r"\d{1,2}:\d{2}")
_TIME_UNITS = frozenset({"ms", "s", "min", "h", "d", "wk", "mo", "yr", "bd", "bh", "bwk"})


_LEVEL_OF = re.compile(r"(?<![\w-])(?:на уровне|at (?:a|the) level of)(?=\s*\d)", re.IGNORECASE)
"""`гарантируется на уровне 99,9 %`: the level is the amount, compared as one."""
_AGE_NOUN = re.compile(r"(?<![\w-])(?:age|возраст)(?![\w-])|年龄", re.IGNORECASE)
_AGE_UNITS = frozenset({"age", "yr"})


def _age_given(text: str, m: re.Match[str]) -> bool:
    """The age noun `m` is given an age in its clause (`your age must be between 18 and 70`,
    `年龄需要在18到70周岁之间`): the amount says it is an age."""
    end = _CLAUSE_STOP.search(text, m.end())
    clause = text[m.end() : end.start() if end else len(text)]
    return any(q.unit in _AGE_UNITS for q in quantities(clause))


def mask_duration_nouns(text: str) -> str:
    """Blank a noun that only names the duration it is given (`the retention period is 35
    days`, `срок хранения — 35 дней`, `保修期是24个月`), or the age (`your age must be between
    18 and 70`): the amount is compared as a slot, and the noun says no more than that it is
    a length of time or an age (`kept for 35 days`, `aged 18 to 70`)."""
    if "уровн" in text or "level" in text:
        text = _LEVEL_OF.sub(lambda m: " " * len(m.group()), text)
    if _AGE_NOUN.search(text):
        for m in _AGE_NOUN.finditer(text):
            if _age_given(text, m):
                text = text[: m.start()] + " " * (m.end() - m.start()) + text[m.end() :]
    if not _DURATION_HEADS.search(text):
        return text
    for m in _DURATION_NOUN.finditer(text):
        amount = _given_amount(text, m, copula=True)
        if amount is None:
            continue
        given = quantities(text[amount.start() : amount.start() + 40])
        timed = given and given[0].unit in _TIME_UNITS
        if (timed and text.startswith(given[0].text, amount.start())) or _CLOCK_AT.match(
            text, amount.start()
        ):
            text = text[: m.start()] + " " * (m.end() - m.start()) + text[m.end() :]
    return text


def _given_amount(text: str, m: re.Match[str], *, copula: bool) -> re.Match[str] | None:
    """The amount a bounding word `m` governs in its clause (with `copula`, only one it is
    given: `the limit is 300 km`), or None."""
    amount = _BOUNDED.search(text, m.end(), m.end() + 60)
    if amount is None or _CLAUSE_STOP.search(text, m.end(), amount.start()):
        return None
    if copula and not _COPULA.search(text, m.end(), amount.start()):
        return None
    return amount


_LIMIT_NOUNS = frozenset({"limit", "лимит"})
_COPULA = re.compile(
    r"(?<![\w-])(?:is|are|was|were|составляет|составляют|составляла|равен|равна)(?![\w-])"
    r"|\s[—–:]\s|为|是|\sв\s+$"
)
"""What gives the noun its amount (`the maximum age is 18`, `лимит — 300 км`, `лимит в 300 км`)."""

NUMBER_TOKENS = NUMBER_WORD_TOKENS
_RANGE_END = r"(\d+(?:[.,]\d+)*|" + patterns.words((*EN_NUMBERS, "one")) + r"(?![\w-]))"
_RANGE = re.compile(
    rf"(?<![\w-])(?:between\s+{_RANGE_END}\s+and|from\s+{_RANGE_END}\s+to)\s+{_RANGE_END}"
    r"|(?<![\d.])(\d+(?:\.\d+)*)\s?[^\d，。；\s]{0,3}?\s?(?:至|到|[-–~～])\s?(\d+(?:\.\d+)*)"
    r"[^\d，。；]{0,4}?之间",
    re.IGNORECASE,
)
"""A range stated as one (`between A and B`, `A至B…之间`). Not a bare `A至B` (`2010至2015年`,
`一次1至2片`), which may list the values it allows."""
RANGE = _RANGE


def range_groups(m: re.Match[str]) -> tuple[int, int]:
    """The groups of a `_RANGE` match holding its lower and upper end."""
    if m.group(3):
        return (1 if m.group(1) else 2), 3
    return 4, 5


_RESTATED = re.compile(r"[^\d()\n]{0,12}?\(\s*(?=\d)")
"""The opening bracket of an amount that restates the one before it: `4 г (8 таблеток)`."""
_BOUNDED = re.compile(
    r"\d+(?:[.,]\d+)*|(?<![\w-])"
    + patterns.words((*EN_NUMBERS, *RU_NUMBERS, *ONE_WORDS, *_RU_BARE_UNITS), ignorecase=True)
    + r"(?![\w-])"
    r"|(?<![\w-])an?(?=\s+(?:second|minute|hour|day|night|week|month|quarter|year)s?(?![\w-]))",
    re.IGNORECASE,
)
"""Amounts a bound word may govern: digits, number words, and `a` before a unit (`more than a
year`)."""


_SCAN = re.compile(rf"[{_LETTER}]+(?:['’\-][{_LETTER}]+)*")


@short_cache(maxsize=2048)
def scan(text: str) -> tuple[str, frozenset[str], tuple[str, ...]]:
    """Lower-cased text, its set of words and its words in order, computed once per text."""
    lowered = text.lower().replace("’", "'")
    words = tuple(_SCAN.findall(lowered))
    return lowered, frozenset(words), words
