"""Who gives and who receives in a clause with a verb of transfer.

A bag of aligned words cannot tell `HR sends each employee a statement` from `each employee
sends HR a statement`: both have every word of the other. A verb of transfer (send, pay,
refund, `выдавать`, `получать`) names a giver and a recipient, and the clause says which is
which by its form: the subject of an active `send` gives, the subject of a passive one or of
`receive` gets, `by X` and `from X` name the giver, `to X` (or the first of two objects) the
recipient; in Russian the cases do (`отдел выдаёт сотруднику`, `сотрудник получает от отдела`).
Reading the two roles lets a claim restate the transfer from the other side (`you receive a
statement from HR`) and shows when it hands the roles over (`HR receives a statement from each
employee`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from stream.verify.lexicon import bases_of, keys, predicate, ru_lemmas, ru_tags, union
from stream.verify.tokens import ADDRESSEE, EN_STOP, RU_STOP

_EN_GIVE = frozenset(
    """send give pay provide issue return refund grant offer transfer lend deliver sell supply
    award assign forward email mail hand reimburse repay owe allocate submit donate""".split()
)
"""The subject of an active form gives; `to X` or the first of two objects receives."""
_EN_RECEIVE = frozenset("receive get obtain collect buy borrow".split())
"""The subject of an active form receives; `from X` gives."""
_EN_CHARGE = frozenset("charge bill fine invoice".split())
"""Money goes from the object to the subject (`the hotel charges guests a fee`)."""
_EN_BE = frozenset("is are was were be been being get gets got getting".split())
_EN_DETERMINERS = frozenset(
    "a an the each every your their its his her our this that these those all any some".split()
)
_EN_FUNCTION = frozenset(
    """must may might should will would shall can could cannot not never also only always
    usually then still just""".split()
)
_EN_PREPOSITIONS = frozenset(
    """to from by for in on at within through via during after before under over with without
    into onto per about across against until""".split()
)
_EN_SUBORDINATORS = frozenset(
    """if unless when whenever once after before while although though because as since until
    in on at during within for by""".split()
)
_RU_GIVE = frozenset(
    """выдавать выдать отправлять отправить присылать прислать платить заплатить выплачивать
    выплатить предоставлять предоставить возвращать вернуть перечислять перечислить направлять
    направить передавать передать давать дать начислять начислить продавать продать высылать
    выслать отдавать отдать возмещать возместить компенсировать""".split()
)
_RU_RECEIVE = frozenset("получать получить покупать купить брать взять".split())
_WORD = re.compile(r"[A-Za-z\u0400-\u04ff]+(?:['’-][A-Za-z\u0400-\u04ff]+)*")
_CLAUSE_END = re.compile(r"[,;:]|\s(?:if|unless|when|except|если|кроме|когда)\s", re.IGNORECASE)

MAX_CLAUSE_WORDS = 30
"""A longer clause is no simple transfer: its roles are not read."""


@dataclass(frozen=True, slots=True)
class Transfer:
    """The verb of transfer of a clause, and the words naming its giver and its recipient
    (empty when the clause does not name one; `addressed` when it names the reader)."""

    verb: str
    giver: tuple[str, ...]
    recipient: tuple[str, ...]
    receiving: bool
    """The verb is said from the recipient's side (`receive`, `получать`)."""
    addressed: bool

    @property
    def giver_keys(self) -> frozenset[str]:
        return _keys_of(self.giver)

    @property
    def recipient_keys(self) -> frozenset[str]:
        return _keys_of(self.recipient)


def _keys_of(words: tuple[str, ...]) -> frozenset[str]:
    return union(keys(w) for w in words)


def _content(words: list[str]) -> tuple[str, ...]:
    return tuple(
        w
        for w in words
        if w not in EN_STOP
        and w not in RU_STOP
        and w not in _EN_DETERMINERS
        and w not in ADDRESSEE
        and w not in _EN_FUNCTION
        and len(w) > 1
        and not w.isdigit()
    )


@lru_cache(maxsize=4096)
def transfer(text: str) -> Transfer | None:
    """The transfer the first verb of transfer of `text` states (in English, of its main
    clause when a subordinate clause or a phrase opens it), or None."""
    words = [m.group().lower() for m in _WORD.finditer(text)]
    if not words or len(words) > MAX_CLAUSE_WORDS:
        return None
    if any("\u0400" <= c <= "\u04ff" for c in text):
        return _ru_transfer(words)
    return _en_transfer(text)


def _en_kind(word: str) -> str | None:
    bases = bases_of(word)
    if bases & _EN_GIVE:
        return "give"
    if bases & _EN_RECEIVE:
        return "receive"
    if bases & _EN_CHARGE:
        return "charge"
    return None


def _en_transfer(text: str) -> Transfer | None:
    start = 0
    first = _WORD.match(text.lstrip())
    if first is not None and first.group().lower() in _EN_SUBORDINATORS:
        comma = text.find(",")
        if comma < 0:
            return None  # the main clause is not found: nothing is read
        start = comma + 1
    words = [m.group().lower() for m in _WORD.finditer(text, start)]
    for i, word in enumerate(words):
        kind = _en_kind(word)
        if kind is None or i == 0 or words[i - 1] in _EN_DETERMINERS | _EN_PREPOSITIONS:
            continue  # `the refund`, `a transfer`: a noun; `after getting a tattoo`: no clause
        if not predicate(word, words[i - 1], words[i + 1] if i + 1 < len(words) else ""):
            continue  # `for a full refund`: a noun after its adjective
        after = words[i + 1] if i + 1 < len(words) else ""
        if word in {"get", "gets", "got", "getting"} and after.endswith(("ed", "paid")):
            continue  # `get paid`, `get refunded`: a passive, read at the participle
        return _en_roles(words, i, kind)
    return None


def _en_roles(words: list[str], i: int, kind: str) -> Transfer:
    """The roles around the verb of transfer `words[i]`: the subject before it, the objects
    and the `to`/`from`/`by` phrases after it up to the clause's end."""
    subject_words = words[:i]
    passive = any(w in _EN_BE for w in words[max(0, i - 3) : i]) and (
        words[i].endswith(("ed", "en")) or words[i] in {"sent", "paid", "lent", "sold", "got"}
    )
    subject = _content([w for w in subject_words if w not in _EN_BE])
    addressed = any(w in ADDRESSEE for w in subject_words)
    rest: list[str] = []
    for w in words[i + 1 :]:
        if w in {"if", "unless", "when", "except", "and", "or", "but"}:
            break
        rest.append(w)
    chunks: list[tuple[str, list[str]]] = []
    for w in rest:
        if w in _EN_PREPOSITIONS:
            chunks.append((w, []))
        elif w in _EN_DETERMINERS:
            if not chunks or chunks[-1][1]:
                chunks.append(("", []))  # `each employee | a statement`: a second object
        elif chunks:
            chunks[-1][1].append(w)
        else:
            chunks.append(("", [w]))

    def marked(preposition: str) -> tuple[str, ...]:
        return next((_content(ws) for m, ws in chunks if m == preposition), ())

    to, source, agent = marked("to"), marked("from"), marked("by")
    objects = [_content(ws) for m, ws in chunks if not m]
    # `sends each employee a statement`: of two objects right after the verb, the first gets
    two_objects = len(chunks) >= 2 and not chunks[0][0] and not chunks[1][0]
    first_object = objects[0] if two_objects else ()
    bare = bool(chunks) and not chunks[0][0]
    if kind == "give":
        if passive:
            giver, recipient = agent, to or (subject if bare else ())
        else:
            giver, recipient = subject, to or first_object
        receiving = False
    elif kind == "receive":
        if passive:
            giver, recipient = source, agent
        else:
            giver, recipient = source, subject
        receiving = True
    else:  # charge
        if passive:
            giver, recipient = subject, agent
        else:
            giver, recipient = (objects[0] if objects else ()), subject
        receiving = True
    return Transfer(words[i], giver, recipient, receiving, addressed and not passive)


_RU_MEASURES = (
    "продолжительност", "стоимост", "размер", "объём", "объем", "вес", "срок", "длин",
    "мощност", "ёмкост", "емкост", "высот", "ширин", "площад", "цен", "сумм", "количеств",
    "образ", "способ", "пут", "частот",
)  # fmt: skip
"""Instrumental nouns that measure or say how (`отпуск продолжительностью 28 дней`), never
the agent of a passive."""
_RU_PREPOSITIONS = frozenset(
    """в во на с со к ко о об от до по за из у для при про над под без через между после
    перед""".split()
)


def _ru_kind(word: str) -> tuple[str, bool] | None:
    """(give or receive, passive) of a Russian verb form, or None."""
    for lemma, pos in ru_lemmas(word):
        if pos not in {"VERB", "INFN", "PRTS", "PRTF"}:
            continue
        base = lemma[:-2] if lemma.endswith(("ся", "сь")) else lemma
        passive = base != lemma or pos in {"PRTS", "PRTF"}
        if base in _RU_GIVE:
            return "give", passive
        if base in _RU_RECEIVE:
            return "receive", passive
    return None


def _ru_case(word: str, previous: str) -> set[str]:
    """The cases a Russian noun may be in, or `<preposition>+` after a preposition."""
    if previous in _RU_PREPOSITIONS:
        return {f"{previous}+"}
    found = set()
    for tag in ru_tags(word):
        if not tag.startswith("NOUN"):
            continue
        for case in ("nomn", "datv", "ablt", "gent", "accs"):
            if case in tag:
                found.add(case)
    return found


def _ru_transfer(words: list[str]) -> Transfer | None:
    for i, word in enumerate(words):
        found = _ru_kind(word)
        if found is None:
            continue
        kind, passive = found
        nominative: list[str] = []
        dative: list[str] = []
        instrumental: list[str] = []
        source: list[str] = []
        for k, w in enumerate(words):
            if k == i:
                continue
            previous = words[k - 1] if k else ""
            cases = _ru_case(w, previous)
            if cases & {"от+", "у+"}:
                source.append(w)  # `получает от отдела`, `у продавца`
            elif cases == {"nomn"} or (cases == {"nomn", "accs"} and k < i):
                nominative.append(w)
            elif "datv" in cases and "nomn" not in cases and "accs" not in cases:
                dative.append(w)
            elif cases == {"ablt"} and not any(w.startswith(m) for m in _RU_MEASURES):
                instrumental.append(w)
        addressed = any(w in ADDRESSEE for w in words[:i]) or word.endswith(("ете", "ите"))
        if kind == "give":
            if passive:
                giver, recipient = _content(instrumental), _content(dative)
            else:
                giver, recipient = _content(nominative), _content(dative)
            return Transfer(word, giver, recipient, False, False)
        if passive:
            return None
        return Transfer(word, _content(source), _content(nominative), True, addressed)
    return None


def reversed_roles(claim: Transfer, evidence: Transfer) -> bool:
    """The claim names the evidence's giver as its recipient and its recipient as its giver
    (both: one participant read in the other's place may be a misread clause)."""
    cg, cr = claim.giver_keys, claim.recipient_keys
    eg, er = evidence.giver_keys, evidence.recipient_keys
    return bool(cg & er and cr & eg and not cg & eg and not cr & er)


def same_roles(claim: Transfer, evidence: Transfer) -> bool:
    """The claim names the same giver and recipient (the reader standing for the recipient
    the document names)."""
    cg, cr = claim.giver_keys, claim.recipient_keys
    eg, er = evidence.giver_keys, evidence.recipient_keys
    if not cg:
        # the claim names no giver (`сотрудник получает отпуск` / `сотрудникам предоставляется
        # отпуск`, `each employee receives a statement` / `HR sends each employee …`): the
        # one participant it names is the recipient
        return (bool(cr & er) and not cr & eg) or (claim.addressed and not cr and bool(er))
    if not cg or not cg & eg or cg & er:
        return False
    if claim.addressed and not cr:
        return bool(er)
    return bool(cr & er and not cr & eg)
