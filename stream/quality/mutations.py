"""Mutation operators: the small edits that turn a faithful claim into a hallucination.

The most dangerous hallucination keeps a real sentence and edits one word: a number, a unit, a
version, a name, a quantifier, a condition, the polarity. Each operator here makes one such
edit in English, Russian or Chinese; a gate must decide none of the results `entailed` against
the evidence the original claim was faithful to. `citegate eval` runs them over the entailed
records of every file (the mutation catch rate), and `tests/gate/` over hand-written pairs.
Every operator is deterministic and returns None when it does not apply to a claim.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from stream.verify.claims import strip_markers
from stream.verify.units import EN_NUMBERS, RU_NUMBERS, UNIVERSAL, ZH_CLASSIFIERS, ZH_NUMERALS, scan


@dataclass(frozen=True, slots=True)
class Mutant:
    """One edited claim, the operator that made it and what it changed."""

    operator: str
    claim: str
    change: str


Operator = Callable[[str, str], tuple[str, str] | None]
"""(claim, language) -> (mutated claim, description of the change) or None."""

_CJK = re.compile("[\u4e00-\u9fff]")


def _sub_first(
    pattern: str, repl: Callable[[re.Match[str]], str], text: str, flags: int = 0
) -> tuple[str, str] | None:
    m = re.search(pattern, text, flags)
    if not m:
        return None
    new = repl(m)
    if new == m.group(0):
        return None
    return text[: m.start()] + new + text[m.end() :], f"{m.group(0)} -> {new}"


def _swap_table(text: str, table: dict[str, str], *, words: bool) -> tuple[str, str] | None:
    """Replace the first (leftmost) key of `table` found in `text`, keeping a capital."""
    best: tuple[int, str] | None = None
    for key in table:
        pattern = rf"(?<![\w-]){re.escape(key)}(?![\w-])" if words else re.escape(key)
        m = re.search(pattern, text, re.IGNORECASE)
        if m and (best is None or m.start() < best[0]):
            best = (m.start(), m.group(0))
    if best is None:
        return None
    start, found = best
    new = table[found.lower()] if found.lower() in table else table[found]
    if found[:1].isupper() and new[:1].islower():
        new = new[:1].upper() + new[1:]
    return text[:start] + new + text[start + len(found) :], f"{found} -> {new}"


# ----------------------------------------------------------------------------- operators


def change_number(claim: str, language: str) -> tuple[str, str] | None:
    """A digit number becomes ten times larger (decimals +1), glued to CJK text or not."""

    def repl(m: re.Match[str]) -> str:
        raw = m.group(0)
        if re.fullmatch(r"\d+", raw):
            n = int(raw)
            return str(n + 1) if 1800 <= n <= 2100 else str(n * 10 if n else 1)
        head, _, tail = raw.replace(",", ".").partition(".")
        return f"{int(head) + 1}{'.' if '.' in raw else ','}{tail}"

    return _sub_first(
        r"(?<![A-Za-z\u0400-\u04ff\d.,\-])\d+(?:[.,]\d+)?(?![\d.,]*\d)(?![A-Za-z])", repl, claim
    )


_EN_WORDS = {
    v: k
    for k, v in EN_NUMBERS.items()
    if k not in {"once", "single", "double", "triple", "twice", "thrice", "dozen"}
}


def change_number_word(claim: str, language: str) -> tuple[str, str] | None:
    """five -> six, пяти -> шести (same case), 两个 -> 三个."""
    if language == "zh":
        pattern = f"([{ZH_NUMERALS}]+)(?=({'|'.join(ZH_CLASSIFIERS)}))"
        swap = {
            "一": "两",
            "两": "三",
            "二": "三",
            "三": "四",
            "四": "五",
            "五": "六",
            "六": "七",
            "七": "八",
            "八": "九",
            "九": "十",
            "十": "二十",
        }

        def zh(m: re.Match[str]) -> str:
            run = m.group(1)
            return run[:-1] + swap.get(run[-1], run[-1])

        return _sub_first(pattern, zh, claim)
    if language == "ru":
        forms = sorted(RU_NUMBERS, key=len, reverse=True)
        by_value: dict[float, list[str]] = {}
        for form, value in RU_NUMBERS.items():
            by_value.setdefault(value, []).append(form)

        def ru(m: re.Match[str]) -> str:
            word = m.group(0).lower()
            value = RU_NUMBERS[word]
            same = by_value[value]
            index = same.index(word)
            target = by_value.get(value + 1) or by_value.get(value * 2) or ["шести"]
            return target[min(index, len(target) - 1)]

        return _sub_first(rf"(?<![\w-])({'|'.join(forms)})(?![\w-])", ru, claim, re.IGNORECASE)
    words = sorted(_EN_WORDS.values(), key=len, reverse=True)

    def en(m: re.Match[str]) -> str:
        value = EN_NUMBERS[m.group(0).lower()]
        new = _EN_WORDS.get(value + 1) or _EN_WORDS.get(value * 2) or "seventeen"
        return new.capitalize() if m.group(0)[0].isupper() else new

    return _sub_first(rf"(?<![\w-])({'|'.join(words)})(?![\w-])", en, claim, re.IGNORECASE)


_UNIT_SWAP = {
    "en": {
        "seconds": "minutes",
        "second": "minute",
        "minutes": "hours",
        "minute": "hour",
        "hours": "days",
        "hour": "day",
        "days": "weeks",
        "day": "week",
        "weeks": "months",
        "week": "month",
        "months": "years",
        "month": "year",
        "years": "decades",
        "ms": "s",
        "mb": "GB",
        "gb": "TB",
        "kb": "MB",
        "tb": "PB",
        "mg": "g",
        "kg": "t",
        "percent": "percentage points",
        "%": " percentage points",
        "km": "miles",
        "milliseconds": "seconds",
        "mbps": "Gbps",
        "gbps": "Tbps",
    },
    "ru": {
        "секунд": "минут",
        "секунды": "минуты",
        "секунду": "минуту",
        "минут": "часов",
        "минуты": "часа",
        "минуту": "час",
        "часов": "дней",
        "часа": "дня",
        "час": "день",
        "дней": "недель",
        "дня": "недели",
        "день": "неделю",
        "недель": "месяцев",
        "недели": "месяца",
        "неделю": "месяц",
        "месяцев": "лет",
        "месяца": "года",
        "лет": "десятилетий",
        "года": "десятилетия",
        "мб": "ГБ",
        "гб": "ТБ",
        "мг": "г",
        "%": " процентных пункта",
        "процентов": "процентных пунктов",
    },
    "zh": {
        "毫秒": "秒",
        "秒": "分钟",
        "分钟": "小时",
        "小时": "天",
        "天": "周",
        "周": "个月",
        "个月": "年",
        "年": "十年",
        "MB": "GB",
        "GB": "TB",
        "%": "个百分点",
        "毫克": "克",
    },
}


def change_unit(claim: str, language: str) -> tuple[str, str] | None:
    """The unit after a number changes: 30 seconds -> 30 minutes, 30 секунд -> 30 минут."""
    table = _UNIT_SWAP.get(language, _UNIT_SWAP["en"])
    alternatives = "|".join(re.escape(k) for k in sorted(table, key=len, reverse=True))
    if language == "zh":
        pattern = rf"(?:[\d{ZH_NUMERALS}]|每)\s?({alternatives})"
    else:
        words = "|".join(sorted({*EN_NUMBERS, *RU_NUMBERS}, key=len, reverse=True))
        pattern = (
            rf"(?:\d|\b(?:{words}|every|each|каждые|каждый|каждую))[\s\-]?({alternatives})"
            r"(?![\w])"
        )
    m = re.search(pattern, claim, re.IGNORECASE)
    if not m:
        return None
    found = m.group(1)
    key = found if found in table else found.lower()
    if key not in table:
        return None
    new = table[key].strip() if m.start(1) > 0 and claim[m.start(1) - 1] == " " else table[key]
    return claim[: m.start(1)] + new + claim[m.end(1) :], f"{found} -> {new}"


def change_frequency(claim: str, language: str) -> tuple[str, str] | None:
    """every 12 hours -> every hour, каждые 12 часов -> каждый час, 每12小时 -> 每小时."""
    if language == "zh":
        return _sub_first(
            r"每(\d+|[一二两三四五六七八九十]+)(个)?(小时|天|周|月|年|分钟|秒)",
            lambda m: "每" + m.group(3),
            claim,
        )
    if language == "ru":
        singular = {
            "часов": "час",
            "часа": "час",
            "дней": "день",
            "дня": "день",
            "минут": "минуту",
            "минуты": "минуту",
            "недель": "неделю",
            "недели": "неделю",
            "месяцев": "месяц",
            "месяца": "месяц",
        }

        def ru(m: re.Match[str]) -> str:
            unit = singular.get(m.group(2).lower(), m.group(2))
            every = "каждую" if unit in {"минуту", "неделю"} else "каждый"
            return f"{every} {unit}"

        return _sub_first(r"кажд\w+ (\d+) (\w+)", ru, claim, re.IGNORECASE)
    return _sub_first(
        r"\bevery (\d+|two|three|four|five|six|eight|ten|twelve|twenty-four) (\w+?)s\b",
        lambda m: f"every {m.group(2)}",
        claim,
        re.IGNORECASE,
    )


_IDENT_SWAP = {
    "sha-256": "SHA-1",
    "sha256": "SHA1",
    "iso 27001": "ISO 9001",
    "aes-256": "AES-128",
    "ipv6": "IPv4",
    "http/2": "HTTP/1.1",
    "oauth 2.0": "OAuth 1.0",
    "tls 1.3": "TLS 1.2",
    "tls 1.2": "TLS 1.1",
    "gdpr": "CCPA",
    "pci dss": "HIPAA",
    "soc 2": "SOC 1",
}


def change_identifier(claim: str, language: str) -> tuple[str, str] | None:
    """A version or standard number inside a name: TLS 1.3 -> TLS 1.2, ISO 27001 -> ISO 9001."""
    swapped = _swap_table(claim, _IDENT_SWAP, words=True)
    if swapped:
        return swapped

    def bump(m: re.Match[str]) -> str:
        head, num = m.group(1), m.group(2)
        parts = num.split(".")
        parts[-1] = str(int(parts[-1]) + 1)
        return head + ".".join(parts)

    return _sub_first(
        r"(?<![\w.])((?:[A-Za-z]*[A-Z][A-Za-z]*[A-Z][A-Za-z]*|[Vv]|[Vv]ersion |версии |версия )"
        r"[\s\-]?v?)(\d+(?:\.\d+)*)(?![\d.]*\d)",
        bump,
        claim,
    )


_SIBLINGS = {
    "en": {
        "staging": "production",
        "production": "staging",
        "eu": "US",
        "us": "EU",
        "europe": "Asia",
        "postgresql": "MySQL",
        "mysql": "PostgreSQL",
        "aws": "Azure",
        "azure": "AWS",
        "linux": "Windows",
        "windows": "macOS",
        "monday": "Friday",
        "friday": "Monday",
        "january": "March",
        "march": "January",
        "admins": "guests",
        "administrators": "guests",
        "adults": "children",
        "children": "adults",
        "ibuprofen": "aspirin",
        "aspirin": "ibuprofen",
        "insulin": "metformin",
        "germany": "France",
        "france": "Germany",
        "london": "Paris",
        "paris": "London",
        "china": "Japan",
        "japan": "China",
        "india": "Pakistan",
        "california": "Texas",
        "kafka": "RabbitMQ",
        "redis": "Memcached",
        "android": "iOS",
        "ios": "Android",
        "visa": "Mastercard",
        "primary": "replica",
        "read": "write",
        "encrypted": "compressed",
        "patients": "doctors",
        "men": "women",
        "women": "men",
        "summer": "winter",
        "winter": "summer",
        "north": "south",
        "south": "north",
        "east": "west",
        "west": "east",
    },
    "ru": {
        "тестовом": "продуктивном",
        "тестовый": "продуктивный",
        "москве": "Петербурге",
        "москва": "Петербург",
        "ес": "США",
        "сша": "ЕС",
        "россии": "Казахстане",
        "администраторы": "гости",
        "администраторов": "гостей",
        "взрослых": "детей",
        "детей": "взрослых",
        "понедельник": "пятницу",
        "январе": "марте",
        "ибупрофен": "аспирин",
        "postgresql": "MySQL",
        "linux": "Windows",
        "менеджеры": "стажёры",
        "менеджеров": "стажёров",
        "клиентов": "партнёров",
        "пациентов": "врачей",
        "летом": "зимой",
        "зимой": "летом",
        "мужчин": "женщин",
    },
    "zh": {
        "测试": "生产",
        "生产": "测试",
        "北京": "上海",
        "上海": "北京",
        "欧盟": "美国",
        "美国": "欧盟",
        "中国": "日本",
        "管理员": "访客",
        "成人": "儿童",
        "儿童": "成人",
        "周一": "周五",
        "一月": "三月",
        "阿司匹林": "布洛芬",
        "布洛芬": "阿司匹林",
        "夏天": "冬天",
        "冬天": "夏天",
        "男性": "女性",
        "女性": "男性",
        "医生": "护士",
        "患者": "医生",
        "客户": "合作伙伴",
        "员工": "访客",
        "主库": "从库",
        "读": "写",
        "香港": "台湾",
        "南方": "北方",
        "北方": "南方",
    },
}
_FALLBACK_ENTITY = {"en": "Norway", "ru": "Норвегии", "zh": "挪威"}


def swap_entity(claim: str, language: str) -> tuple[str, str] | None:
    """A name or a role swaps with a sibling: staging -> production, 测试 -> 生产; otherwise the
    first capitalised name inside the sentence becomes another (`Norway`)."""
    swapped = _swap_table(claim, _SIBLINGS.get(language, {}), words=language != "zh")
    if swapped:
        return swapped
    if language == "zh":
        return _sub_first(
            r"[A-Z][A-Za-z]+", lambda m: "Norway" if m.group(0) != "Norway" else "Chile", claim
        )
    m = re.search(r"(?<=[\w,] )([A-ZА-ЯЁ][a-zа-яё]{2,})", claim)
    if not m:
        return None
    new = _FALLBACK_ENTITY.get(language, "Norway")
    return claim[: m.start()] + new + claim[m.end() :], f"{m.group(0)} -> {new}"


_WIDEN = {
    "en": {
        "some": "all",
        "several": "all",
        "most": "all",
        "many": "all",
        "certain": "all",
        "a few": "all",
        "part of": "all of",
        "often": "always",
        "sometimes": "always",
        "usually": "always",
    },
    "ru": {
        "некоторые": "все",
        "некоторых": "всех",
        "несколько": "все",
        "большинство": "все",
        "многие": "все",
        "многих": "всех",
        "часть": "все",
        "иногда": "всегда",
        "часто": "всегда",
        "обычно": "всегда",
    },
    "zh": {
        "部分": "所有",
        "一些": "所有",
        "有些": "所有",
        "某些": "所有",
        "大多数": "所有",
        "多数": "全部",
        "许多": "所有",
        "有时": "总是",
        "通常": "总是",
        "经常": "总是",
    },
}


def widen_quantifier(claim: str, language: str) -> tuple[str, str] | None:
    """some -> all, большинство -> все, 部分 -> 所有; with no quantifier, `all` is added."""
    swapped = _swap_table(claim, _WIDEN[language], words=language != "zh")
    if swapped:
        return swapped
    lowered, words, _ = scan(claim)
    if UNIVERSAL.find(lowered, words):
        return None  # already universal: nothing left to widen
    if language == "zh":
        return "所有" + claim, "+ 所有"
    if language == "ru":
        return "Все " + claim[:1].lower() + claim[1:], "+ все"
    if claim.lower().startswith("the "):
        return "All the " + claim[4:], "+ all"
    return "All " + claim[:1].lower() + claim[1:], "+ all"


_SCOPE = {
    "en": {
        "internal users": "all users",
        "internal": "all",
        "in the eu": "worldwide",
        "in europe": "worldwide",
        "in the us": "worldwide",
        "employees": "everyone",
        "staff": "everyone",
        "for admins": "for all users",
        "enterprise customers": "all customers",
        "premium": "all",
        "adults": "everyone",
        "patients": "everyone",
    },
    "ru": {
        "внутренних пользователей": "всех пользователей",
        "внутренних": "всех",
        "менеджеры отдела": "все сотрудники",
        "в ес": "по всему миру",
        "в россии": "по всему миру",
        "сотрудников отдела": "всех сотрудников",
        "отдела": "компании",
        "корпоративных клиентов": "всех клиентов",
        "взрослых": "всех",
    },
    "zh": {
        "内部用户": "所有用户",
        "内部": "所有",
        "欧盟": "全球",
        "国内": "全球",
        "部分用户": "全部用户",
        "企业客户": "所有客户",
        "成人": "所有人",
        "员工": "所有人",
    },
}


def swap_scope(claim: str, language: str) -> tuple[str, str] | None:
    """The scope grows: internal users -> all users, in the EU -> worldwide, 内部 -> 所有; a
    place after `in`/`в`/`在` becomes `worldwide`."""
    swapped = _swap_table(claim, _SCOPE[language], words=language != "zh")
    if swapped:
        return swapped
    if language == "zh":
        return _sub_first(
            r"在([\u4e00-\u9fff]{2,3}?)(?=[\u4e00-\u9fff])", lambda m: "在全球", claim
        )
    if language == "ru":
        return _sub_first(r"\bв ([А-ЯЁ]\w+)", lambda m: "по всему миру", claim)
    return _sub_first(r"\bin (?:the )?([A-Z]\w+)", lambda m: "worldwide", claim)


_CONDITION = {
    "en": (
        r"(,?\s*\b(?:unless|except|except for|only if|if|provided that|as long as|until)\b"
        r"[^,.;]*)"
    ),
    "ru": r"(,?\s*\b(?:если только|только если|если|кроме|за исключением|при условии)\b[^,.;]*)",
    "zh": r"((?:除非|仅当|只有|如果|除了|若|只要)[^，。；,]*[，,]?)",
}


def drop_condition(claim: str, language: str) -> tuple[str, str] | None:
    """The condition or exception is dropped: `…, unless X` -> `…`; `如果X，Y` -> `Y`."""
    m = re.search(_CONDITION[language], claim, re.IGNORECASE)
    if not m:
        return None
    new = (claim[: m.start()] + claim[m.end() :]).strip()
    if language != "zh" and m.start() == 0:
        new = new.lstrip(", ")
        new = new[:1].upper() + new[1:]
    if not re.search(r"\w", new) or new == claim:
        return None
    return new, f"- {m.group(0).strip()}"


_EN_AUX = r"\b(is|are|was|were|can|will|must|should|does|do|did|has|have|had|may|could|would)\b"
_ZH_NEG = {
    "是": "不是",
    "会": "不会",
    "能": "不能",
    "可以": "不可以",
    "有": "没有",
    "需要": "不需要",
    "必须": "不必",
    "支持": "不支持",
    "允许": "不允许",
    "包括": "不包括",
    "提供": "不提供",
    "使用": "不使用",
}


def negate(claim: str, language: str) -> tuple[str, str] | None:
    """The claim's polarity flips: is -> is not, 是 -> 不是, `не` before the verb."""
    if language == "zh":
        for word, neg in _ZH_NEG.items():
            i = claim.find(word)
            if i >= 0 and claim[max(0, i - 1) : i] not in {"不", "没"}:
                return claim[:i] + neg + claim[i + len(word) :], f"{word} -> {neg}"
        return "并非" + claim, "+ 并非"
    if language == "ru":
        m = re.search(
            r"(?<![\w-])(\w+(?:ет|ют|ит|ят|ется|ются|ится|ятся|ал|ала|али|ило|ыл|ыла|ыли|ен|ена|ено|ены|ан|ана|ано|аны))(?![\w-])",
            claim,
        )
        if m and m.start() > 0:
            return claim[: m.start()] + "не " + claim[m.start() :], f"+ не {m.group(0)}"
        return "Неверно, что " + claim[:1].lower() + claim[1:], "+ неверно, что"
    m = re.search(_EN_AUX, claim, re.IGNORECASE)
    if m and not re.match(r"\s+not\b", claim[m.end() :]):
        return claim[: m.end()] + " not" + claim[m.end() :], f"{m.group(0)} -> {m.group(0)} not"
    m = re.search(r"(?<=\s)(\w+?)(s|ed)\b", claim)
    if m and m.start() > 0:
        verb = m.group(1)
        aux = "does not" if m.group(2) == "s" else "did not"
        return claim[: m.start()] + f"{aux} {verb}" + claim[
            m.end() :
        ], f"{m.group(0)} -> {aux} {verb}"
    return None


_MODAL = {
    "en": {
        "may": "will",
        "might": "will",
        "could": "will",
        "can": "must",
        "possibly": "certainly",
        "potentially": "certainly",
        "likely": "certainly",
        "suggests": "proves",
        "suggest": "prove",
        "should": "must",
        "often": "always",
        "usually": "always",
    },
    "ru": {
        "может": "обязательно будет",
        "могут": "обязательно будут",
        "возможно": "обязательно",
        "вероятно": "гарантированно",
        "следует": "обязательно нужно",
        "можно": "нужно",
        "рекомендуется": "обязательно",
        "иногда": "всегда",
    },
    "zh": {
        "可能": "一定",
        "可以": "必须",
        "能够": "必须",
        "或许": "必然",
        "也许": "一定",
        "建议": "必须",
        "应该": "必须",
        "能": "必须",
    },
}


def strengthen_modality(claim: str, language: str) -> tuple[str, str] | None:
    """may -> will, может -> обязательно будет, 可能 -> 一定; otherwise a guarantee is added."""
    swapped = _swap_table(claim, _MODAL[language], words=language != "zh")
    if swapped:
        return swapped
    if language == "zh":
        return "保证" + claim, "+ 保证"
    if language == "ru":
        return "Гарантированно, " + claim[:1].lower() + claim[1:], "+ гарантированно"
    m = re.search(r"\b(is|are)\b", claim)
    if m:
        return claim[: m.end()] + " always" + claim[
            m.end() :
        ], f"{m.group(0)} -> {m.group(0)} always"
    return "It is guaranteed that " + claim[:1].lower() + claim[1:], "+ it is guaranteed that"


_CLAUSES = {
    "en": (
        " and is replicated to a second region",
        " and was approved by the board in 2019",
        " and applies to all subsidiaries",
    ),
    "ru": (
        " и реплицируется во второй регион",
        " и было одобрено советом директоров в 2019 году",
        " и распространяется на все дочерние компании",
    ),
    "zh": ("，并且会复制到第二个区域", "，并已于2019年获得董事会批准", "，并适用于所有子公司"),
}


def append_clause(claim: str, language: str) -> tuple[str, str] | None:
    """An unsupported clause is appended: `… and is replicated to a second region`."""
    clauses = _CLAUSES[language]
    clause = clauses[sum(map(ord, claim)) % len(clauses)]
    body = claim.rstrip()
    end = ""
    while body and body[-1] in ".。!?！？":
        end = body[-1] + end
        body = body[:-1]
    return body + clause + (end or ("。" if language == "zh" else ".")), f"+{clause.strip()}"


_CUES = {"en": "Therefore, ", "ru": "Поэтому ", "zh": "因此，"}


def add_inference(claim: str, language: str) -> tuple[str, str] | None:
    """An inference cue presents the claim as a conclusion: `Therefore, …`."""
    cue = _CUES[language]
    if language == "zh":
        return cue + claim, f"+ {cue}"
    first = claim[:1]
    keep = claim[:2].isupper() or (len(claim) > 1 and claim[1:2].isupper())
    return cue + (claim if keep else first.lower() + claim[1:]), f"+ {cue.strip()}"


_ANTONYMS = {
    "en": {
        "increase": "decrease",
        "increases": "decreases",
        "increased": "decreased",
        "decrease": "increase",
        "decreases": "increases",
        "decreased": "increased",
        "reduces": "increases",
        "reduced": "increased",
        "reduce": "increase",
        "higher": "lower",
        "lower": "higher",
        "more": "less",
        "less": "more",
        "allows": "prohibits",
        "allow": "prohibit",
        "allowed": "prohibited",
        "before": "after",
        "after": "before",
        "faster": "slower",
        "slower": "faster",
        "improves": "worsens",
        "improved": "worsened",
        "above": "below",
        "below": "above",
        "enabled": "disabled",
        "disabled": "enabled",
        "safe": "unsafe",
        "effective": "ineffective",
        "maximum": "minimum",
        "minimum": "maximum",
        "rises": "falls",
        "rose": "fell",
    },
    "ru": {
        "увеличивает": "уменьшает",
        "увеличивается": "уменьшается",
        "увеличилось": "уменьшилось",
        "увеличился": "уменьшился",
        "уменьшает": "увеличивает",
        "снижает": "повышает",
        "снижается": "повышается",
        "повышает": "снижает",
        "повышается": "снижается",
        "больше": "меньше",
        "меньше": "больше",
        "выше": "ниже",
        "ниже": "выше",
        "разрешено": "запрещено",
        "разрешает": "запрещает",
        "запрещено": "разрешено",
        "до": "после",
        "после": "до",
        "включено": "отключено",
        "быстрее": "медленнее",
        "максимум": "минимум",
        "минимум": "максимум",
        "вырос": "упал",
        "выросло": "упало",
    },
    "zh": {
        "增加": "减少",
        "减少": "增加",
        "提高": "降低",
        "降低": "提高",
        "上升": "下降",
        "下降": "上升",
        "允许": "禁止",
        "禁止": "允许",
        "之前": "之后",
        "之后": "之前",
        "高于": "低于",
        "低于": "高于",
        "启用": "禁用",
        "禁用": "启用",
        "更快": "更慢",
        "最大": "最小",
        "最小": "最大",
        "增长": "下降",
        "多": "少",
        "大": "小",
    },
}


def swap_antonym(claim: str, language: str) -> tuple[str, str] | None:
    """A direction word flips: increases -> decreases, выше -> ниже, 提高 -> 降低."""
    return _swap_table(claim, _ANTONYMS[language], words=language != "zh")


_BOUNDS = {
    "en": {
        "up to": "at least",
        "at most": "at least",
        "no more than": "no less than",
        "within": "after",
        "less than": "more than",
        "fewer than": "more than",
        "under": "over",
        "at least": "at most",
        "more than": "less than",
        "maximum of": "minimum of",
        "limited to": "at least",
    },
    "ru": {
        "не более": "не менее",
        "не менее": "не более",
        "до": "от",
        "менее": "более",
        "более": "менее",
        "максимум": "минимум",
        "в течение": "через",
        "не больше": "не меньше",
        "не меньше": "не больше",
    },
    "zh": {
        "最多": "至少",
        "至少": "最多",
        "不超过": "不少于",
        "不少于": "不超过",
        "以内": "以上",
        "以上": "以内",
        "少于": "多于",
        "多于": "少于",
        "低于": "高于",
        "超过": "不到",
    },
}


def flip_bound(claim: str, language: str) -> tuple[str, str] | None:
    """A bound on a number flips: up to 50 -> at least 50, не более 5 -> не менее 5,
    最多50 -> 至少50 (only where a number follows, as in a limit or a deadline)."""
    table = _BOUNDS[language]
    alternatives = "|".join(re.escape(k) for k in sorted(table, key=len, reverse=True))
    if language == "zh":
        pattern = rf"({alternatives})(?=[^\d，。]{{0,4}}\d)"
    else:
        words = "|".join(sorted({*EN_NUMBERS, *RU_NUMBERS}, key=len, reverse=True))
        pattern = rf"(?<![\w-])({alternatives})(?=\s+(?:[$€£]\s?)?(?:\d|(?:{words})\b))"
    m = re.search(pattern, claim, re.IGNORECASE)
    if not m:
        return None
    found = m.group(1)
    new = table.get(found.lower(), table.get(found, found))
    if found[:1].isupper():
        new = new[:1].upper() + new[1:]
    return claim[: m.start(1)] + new + claim[m.end(1) :], f"{found} -> {new}"


_REASONS = {
    "en": (" because of a regulatory requirement", " to reduce costs", " for security reasons"),
    "ru": (" из-за требований регулятора", " для снижения затрат", " по соображениям безопасности"),
    "zh": ("，这是出于监管要求", "，以降低成本", "，出于安全考虑"),
}


def add_reason(claim: str, language: str) -> tuple[str, str] | None:
    """A reason the evidence never gives is added: `… because of a regulatory requirement`."""
    reasons = _REASONS[language]
    reason = reasons[sum(map(ord, claim)) % len(reasons)]
    body = claim.rstrip()
    end = ""
    while body and body[-1] in ".。!?！？":
        end = body[-1] + end
        body = body[:-1]
    return body + reason + (end or ("。" if language == "zh" else ".")), f"+{reason.strip()}"


_SUFFICIENT = {
    "en": {"only if": "if", "only when": "when", "only after": "after", "only with": "with"},
    "ru": {
        "только если": "если",
        "лишь если": "если",
        "только при": "при",
        "только после": "после",
    },
    "zh": {"只有": "如果", "仅当": "当", "只能在": "可以在"},
}


def make_sufficient(claim: str, language: str) -> tuple[str, str] | None:
    """A necessary condition is made sufficient: `only if` -> `if`, 只有…才 -> 如果…就."""
    table = _SUFFICIENT[language]
    found = _swap_table(claim, table, words=language != "zh")
    if found is None or language != "zh":
        return found
    text, change = found
    return text.replace("才", "就", 1), change


_INEXACT = {
    "en": {"30 days": "a month", "thirty days": "a month", "31 days": "a month",
           "4 weeks": "a month", "four weeks": "a month", "90 days": "three months",
           "365 days": "a year", "52 weeks": "a year", "1,000 MB": "1 GB", "1000 MB": "1 GB"},
    "ru": {"30 дней": "месяц", "тридцать дней": "месяц", "4 недели": "месяц",
           "90 дней": "три месяца", "365 дней": "год", "1000 МБ": "1 ГБ"},
    "zh": {"30天": "一个月", "三十天": "一个月", "90天": "三个月", "365天": "一年",
           "4周": "一个月", "1000 MB": "1 GB"},
}  # fmt: skip
"""Amounts an assistant rounds into a unit that is not exactly the same: a month is not 30
days, a year not 365 days, a gigabyte not reliably 1000 MB."""


def inexact_unit(claim: str, language: str) -> tuple[str, str] | None:
    """An amount becomes a near but inexact one: `30 days` -> `a month`."""
    return _swap_table(claim, _INEXACT[language], words=language != "zh")


OPERATORS: dict[str, Operator] = {
    "number": change_number,
    "number_word": change_number_word,
    "unit": change_unit,
    "frequency": change_frequency,
    "identifier": change_identifier,
    "entity": swap_entity,
    "quantifier": widen_quantifier,
    "scope": swap_scope,
    "condition": drop_condition,
    "negation": negate,
    "modality": strengthen_modality,
    "clause": append_clause,
    "inference": add_inference,
    "antonym": swap_antonym,
    "bound": flip_bound,
    "sufficient": make_sufficient,
    "inexact_unit": inexact_unit,
    "reason": add_reason,
}
"""Every operator by name, in report order."""


def mutants(claim: str, language: str, operators: tuple[str, ...] | None = None) -> list[Mutant]:
    """One mutant per operator that applies to `claim` (languages other than en/ru/zh are
    mutated with the English tables)."""
    claim = strip_markers(claim).strip()
    lang = language if language in {"en", "ru", "zh"} else "en"
    if lang != "zh" and _CJK.search(claim):
        lang = "zh"
    out = []
    for name in operators or tuple(OPERATORS):
        made = OPERATORS[name](claim, lang)
        if made is not None and made[0] != claim:
            out.append(Mutant(name, made[0], made[1]))
    return out
