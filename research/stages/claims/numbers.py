"""Quantity facts, and reading numbers written as digits, English words or Chinese."""

from __future__ import annotations

import re

from research.stages.claims.facts import Fact

# --- quantities ---------------------------------------------------------------------------

_UNITS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen "
    "fourteen fifteen sixteen seventeen eighteen nineteen"
).split()
_TENS = ("_ _ twenty thirty forty fifty sixty seventy eighty ninety").split()
_WORD_NUMBERS = {w: n for n, w in enumerate(_UNITS)} | {
    w: 10 * n for n, w in enumerate(_TENS) if n >= 2
}
_UNDER_100 = (
    r"(?:(?:"
    + "|".join(_TENS[2:])
    + r")(?:[- ](?:"
    + "|".join(_UNITS[1:10])
    + r"))?|"
    + "|".join(sorted(_UNITS, key=len, reverse=True))
    + r")"
)
_WORDS = (
    r"(?:(?:"
    + "|".join(_UNITS[1:10])
    + r")\s+hundred(?:\s+(?:and\s+)?"
    + _UNDER_100
    + r")?|"
    + _UNDER_100
    + r")"
)
CN_DIGITS = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_CN_UNITS = {"十": 10, "百": 100, "千": 1000}
_NUMBER = r"(\d+(?:[.,]\d+)*|[零〇一二两三四五六七八九十百千万]+|\b" + _WORDS + r"\b)"
_QUANTITIES: list[tuple[str, re.Pattern[str]]] = [
    (
        "core team",
        re.compile(
            r"core (?:team|maintainers?)[^.]{0,20}?\b"
            + _NUMBER
            + r"\b|"
            + _NUMBER
            + r"\s*(?:core maintainers|名核心维护者|位核心维护者)",
            re.I,
        ),
    ),
    (
        "contributors",
        re.compile(
            _NUMBER
            + r"\+?\s*(?:active\s+)?(?:contributors|位贡献者|名贡献者)|"
            + _NUMBER
            + r"\s+(?:people|developers|engineers)\s+(?:\w+\s+){0,3}contribut"
            r"|贡献者[^，。]{0,6}?" + _NUMBER + r"\s*[人位名]",
            re.I,
        ),
    ),
    (
        "stars",
        re.compile(
            _NUMBER + r"\s*(k)?\s*(?:GitHub\s+)?stars|" + _NUMBER + r"\s*(k)?\s*(?:颗)?星", re.I
        ),
    ),
    ("size (MB)", re.compile(_NUMBER + r"\s*(?:MB|megabytes|兆)", re.I)),
    ("latency (ms)", re.compile(_NUMBER + r"\s*(?:ms|milliseconds|毫秒)", re.I)),
    (
        "yearly price",
        re.compile(
            r"(?:每年|年费|/年)[^，。]{0,8}?"
            + _NUMBER
            + r"\s*(万)?元|"
            + _NUMBER
            + r"\s*(万)?元\s*(?:/年|每年|一年)|"
            r"\$\s?" + _NUMBER + r"(k)?\s*(?:(?:per|a|/)\s*(?:year|yr)|annually|per annum)",
            re.I,
        ),
    ),
    (
        "throughput",
        re.compile(
            r"每秒[^，。\d]{0,8}?"
            + _NUMBER
            + r"\s*个|"
            + _NUMBER
            + r"\s*(?:requests|tasks|ops|operations|writes)\s*(?:per second|/s)",
            re.I,
        ),
    ),
    ("price per seat", re.compile(r"\$\s?" + _NUMBER + r"\s*(?:per|a|/)\s*(?:seat|user)", re.I)),
]


_PERCENTILE = re.compile(r"\b(?:p\d{2,3}(?:\.\d+)?|median|mean|average|tail)\b|中位数|平均", re.I)


def quantity_facts(sentence: str) -> list[Fact]:
    facts = []
    for attribute, pattern in _QUANTITIES:
        match = pattern.search(sentence)
        if match is None:
            continue
        value = _quantity(match)
        if value is not None:
            facts.append(Fact(_qualified(attribute, sentence), "fact", _format_number(value), 0))
    return facts


def _qualified(attribute: str, sentence: str) -> str:
    """p50 and p99 latency are different measures, not conflicting values of one."""
    if attribute != "latency (ms)":
        return attribute
    match = _PERCENTILE.search(sentence)
    return f"latency (ms, {match.group(0).lower()})" if match else attribute


def _quantity(match: re.Match[str]) -> float | None:
    groups = [g for g in match.groups() if g]
    if not groups:
        return None
    number = parse_number(groups[0])
    if number is None:
        return None
    multiplier = {"k": 1000, "万": 10_000}
    for extra in groups[1:]:
        number *= multiplier.get(extra.lower(), 1)
    return number


def parse_number(text: str) -> float | None:
    """Read 1,200 / 2.5 / forty-eight / three hundred and ten / 两万九千八百."""
    text = text.replace(",", "").strip()
    try:
        return float(text)
    except ValueError:
        pass
    words = re.split(r"[\s-]+", text.lower())
    if all(w in _WORD_NUMBERS or w in ("hundred", "and") for w in words):
        return float(_english_number(words))
    return chinese_number(text)


def _english_number(words: list[str]) -> int:
    total = 0
    for word in words:
        if word == "hundred":
            total *= 100
        elif word != "and":
            total += _WORD_NUMBERS[word]
    return total


def chinese_number(text: str) -> float | None:
    total, section, digit = 0, 0, 0
    for char in text:
        if char in CN_DIGITS:
            digit = CN_DIGITS[char]
        elif char in _CN_UNITS:
            section += (digit or 1) * _CN_UNITS[char]
            digit = 0
        elif char == "万":
            total += (section + digit) * 10_000
            section, digit = 0, 0
        else:
            return None
    return float(total + section + digit)


def _format_number(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"
