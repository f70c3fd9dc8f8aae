"""Number words of English and Russian (every case form), for tokens and typed units.

Kept apart from `units` so the tokenizer can map `five`/`пяти` to the value token `#5` without
importing the unit tables: a paraphrase that spells a number matches its digits.
"""

from __future__ import annotations

EN_NUMBERS: dict[str, int] = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90, "hundred": 100, "dozen": 12, "twice": 2, "once": 1,
    "thrice": 3, "single": 1, "double": 2, "triple": 3,
}  # fmt: skip
"""`one` is left out on purpose: as a pronoun (`one of`, `no one`) it is no count."""

_RU_BASE: dict[str, int] = {
    "пять": 5, "шесть": 6, "семь": 7, "девять": 9, "десять": 10, "одиннадцать": 11,
    "двенадцать": 12, "тринадцать": 13, "четырнадцать": 14, "пятнадцать": 15,
    "шестнадцать": 16, "семнадцать": 17, "восемнадцать": 18, "девятнадцать": 19,
    "двадцать": 20, "тридцать": 30,
}  # fmt: skip
RU_NUMBERS: dict[str, float] = {
    **{form: v for word, v in _RU_BASE.items() for form in (word, word[:-1] + "и", word + "ю")},
    "два": 2, "две": 2, "двух": 2, "двум": 2, "двумя": 2, "три": 3, "трех": 3, "трёх": 3,
    "трем": 3, "трём": 3, "тремя": 3, "четыре": 4, "четырех": 4, "четырёх": 4, "четырем": 4,
    "четырём": 4, "четырьмя": 4, "восемь": 8, "восьми": 8, "восемью": 8, "сорок": 40,
    "сорока": 40, "пятьдесят": 50, "пятидесяти": 50, "шестьдесят": 60, "шестидесяти": 60,
    "семьдесят": 70, "семидесяти": 70, "восемьдесят": 80, "восьмидесяти": 80,
    "девяносто": 90, "девяноста": 90, "двести": 200, "двухсот": 200, "триста": 300,
    "трехсот": 300, "трёхсот": 300, "четыреста": 400, "четырехсот": 400, "четырёхсот": 400,
    "пятьсот": 500, "пятисот": 500, "шестьсот": 600, "шестисот": 600, "семьсот": 700,
    "семисот": 700, "восемьсот": 800, "восьмисот": 800, "девятьсот": 900, "девятисот": 900,
    "сто": 100, "ста": 100, "дважды": 2, "трижды": 3, "однажды": 1,
    "полтора": 1.5, "полторы": 1.5, "полутора": 1.5,
    # collective numerals (`двое суток`, `трое детей`)
    "двое": 2, "двоих": 2, "трое": 3, "троих": 3, "четверо": 4, "четверых": 4,
    "пятеро": 5, "пятерых": 5, "шестеро": 6, "семеро": 7,
}  # fmt: skip
ONE_WORDS = frozenset({"one", "один", "одна", "одно", "одного", "одной", "одну", "одним"})
"""`one` counts only in front of a unit (`one hour`), never as a pronoun."""

NUMBER_WORD_TOKENS: dict[str, str] = {
    w: "#" + (str(int(v)) if v == int(v) else str(v))
    for w, v in (*EN_NUMBERS.items(), *RU_NUMBERS.items())
}
"""Word -> the number token `tokens` gives digits (`twelve` -> `#12`)."""
