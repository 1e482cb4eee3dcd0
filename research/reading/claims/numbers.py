"""Quantity facts, and reading numbers written as digits, English words or Chinese."""

from __future__ import annotations

import re

from research.reading.alternation import fold_for_literals, literals_of, may_match
from research.reading.claims.facts import Fact
from research.reading.claims.measures import measure_facts

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
# "数百万" and "上千" are vague amounts, not numbers.
_NUMBER = (
    r"(\d+(?:[.,]\d+)*|(?<![数几上成近零〇一二两三四五六七八九十百千万])[零〇一二两三四五六七八九十百千万]+|\b"
    + _WORDS
    + r"\b)"
)
_SCALE = r"(?:\s*(k|K|M|million|thousand|billion)\b|\s*(万|亿))?"
# "8–11 million": a range is kept as both ends.
_COUNT = _NUMBER + r"(?:\s*(?:[-–—~]|to)\s*" + _NUMBER + r")?" + _SCALE
_SCALES = {
    "k": 1e3,
    "thousand": 1e3,
    "m": 1e6,
    "million": 1e6,
    "billion": 1e9,
    "万": 1e4,
    "亿": 1e8,
}
_PER_SECOND = r"\s*(?:(?:per|a|each)\s+sec(?:ond)?|/\s*s(?:ec)?\b)"
_NOT_A_UNIT_AFTER = r"(?![A-Za-z/]|\s*(?:/\s*s|ps|per\s+sec|每秒))"
_QUANTITIES: list[tuple[str, re.Pattern[str]]] = [
    (
        "core team",
        re.compile(
            r"core (?:team|maintainers?)[^.]{0,20}?(?<!since )(?<!in )\b"
            + _NUMBER
            + r"\b(?!\s*(?:years?|months?))|"
            + _NUMBER
            + r"\s*(?:core maintainers|名核心维护者|位核心维护者)",
            re.I,
        ),
    ),
    (
        "contributors",
        re.compile(
            _COUNT
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
            _COUNT + r"\+?\s*(?:GitHub\s+)?stars|"
            r"(\d+(?:[.,]\d+)*)\s*(?:(k|K)|(万))?\+?\s*(?:颗|个)?\s*(?:星标|星)(?![级评期座球空])|"
            + _NUMBER
            + r"\s*颗星",
            re.I,
        ),
    ),
    (
        "throughput (msg/s)",
        re.compile(
            _COUNT
            + r"\s*(?:messages?|msgs?|events?)\s*(?:(?:per|a|each)\s+sec(?:ond)?|/\s*s(?:ec)?\b)|"
            r"每秒[^，。\d]{0,8}?"
            + _COUNT
            + r"\s*条|"
            + _COUNT
            + r"\s*条(?:消息)?\s*(?:/\s*秒|每秒)",
            re.I,
        ),
    ),
    (
        "throughput (MB/s)",
        re.compile(
            _NUMBER + r"\s*(?:MB|MiB|megabytes)\s*(?:/\s*s(?:ec)?\b|ps\b|per\s+sec(?:ond)?)", re.I
        ),
    ),
    (
        "throughput",
        re.compile(
            r"每秒[^，。\d]{0,8}?"
            + _COUNT
            + r"\s*个|"
            + _COUNT
            + r"\s*(?:requests|reqs|tasks|ops|operations|writes)"
            + _PER_SECOND,
            re.I,
        ),
    ),
    (
        "size (MB)",
        # "千兆网络" is a gigabit network, not a thousand megabytes.
        re.compile(
            r"(\d+(?:[.,]\d+)*|(?<![数几上成近零〇一二两三四五六七八九十百千万])[零〇一二两三四五六七八九十]+[百千]?)\s*(?:MB|MiB|megabytes)"
            + _NOT_A_UNIT_AFTER
            + r"|(\d+(?:[.,]\d+)*)\s*兆(?!网|宽带|以太|比特|位|bit|bps|赫|Hz|带宽|每秒|/秒)",
            re.I,
        ),
    ),
    (
        "size (KB)",
        re.compile(r"(\d+(?:[.,]\d+)*)\s*(?:KB|KiB|kilobytes)" + _NOT_A_UNIT_AFTER, re.I),
    ),
    ("latency (ms)", re.compile(_NUMBER + r"\s*(?:ms|milliseconds|毫秒)(?![A-Za-z/])", re.I)),
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
        "price per seat",
        re.compile(
            r"\$\s?"
            + _NUMBER
            + r"\s*(?:per|a|/)\s*(?:seat|user)(?!\s*(?:per|a|/)\s*(?:month|mo|year|yr)\b)",
            re.I,
        ),
    ),
]
# What every quantity above starts from: a number in digits, in Chinese, or as a whole
# English word. A sentence without one is spared the search for each quantity in turn.
_ANY_NUMBER = re.compile(
    r"\d|[零〇一二两三四五六七八九十百千万]|\b(?:"
    + "|".join(sorted(_UNITS + _TENS[2:], key=len, reverse=True))
    + r")\b",
    re.I,
)
# The English number words make the patterns above slow: they are tried at every position.
# A sentence without one as a whole word is searched with the same patterns less that one
# alternative, which can match nowhere in it: the matches, spans and groups are the same.
_NUMBER_WORDS = r"|\b" + _WORDS + r"\b"
_A_NUMBER_WORD = re.compile(r"\b(?:" + "|".join(_UNITS + _TENS[2:]) + r")\b", re.I)
_QUANTITIES_IN_FIGURES = [
    (attribute, re.compile(pattern.pattern.replace(_NUMBER_WORDS, ""), pattern.flags))
    for attribute, pattern in _QUANTITIES
]
_LITERALS = {p: literals_of(p, shortest=2) for _, p in (*_QUANTITIES, *_QUANTITIES_IN_FIGURES)}
# Where a number measures something other than the option itself.
_PAYLOAD = re.compile(
    r"\b(?:messages?|payloads?|files?|uploads?|attachments?|records?|batch|data|transfer(?:red)?)\b|"
    r"/\s*sec|消息|文件|数据",
    re.I,
)
_NOT_THE_OPTION = {
    "size (MB)": _PAYLOAD,
    "size (KB)": _PAYLOAD,
    "latency (ms)": re.compile(
        r"\b(?:timeouts?|intervals?|sleeps?|delays?|window|ttl|every|waits?)\b|超时|间隔", re.I
    ),
}
_MEMORY = re.compile(r"\b(?:memory|RAM|heap|RSS)\b|内存", re.I)
_RENDER = re.compile(r"\brender(?:s|ing)?\b|渲染", re.I)
_PERCENTILE = re.compile(r"\b(?:p\d{2,3}(?:\.\d+)?|median|mean|average|tail)\b|中位数|平均", re.I)


# Downloads in a period, read per month so that weekly and monthly counts compare.
_PER_MONTH = {"day": 30.44, "week": 30.44 / 7, "month": 1.0, "year": 1 / 12}
_PERIOD_WORDS = {
    "日": "day",
    "天": "day",
    "daily": "day",
    "day": "day",
    "周": "week",
    "week": "week",
    "weekly": "week",
    "wk": "week",
    "月": "month",
    "month": "month",
    "monthly": "month",
    "mo": "month",
    "年": "year",
    "year": "year",
    "yearly": "year",
    "annual": "year",
}
_DOWNLOADS = re.compile(
    r"(?P<n1>\d[\d.,]*)\s*(?P<s1>k|K|M|million|thousand|billion|万|亿)?\+?\s*"
    r"(?P<p1>weekly|monthly|daily|annual|yearly)?\s*(?:npm\s+|npm\s*)?downloads\b"
    r"(?:\s*(?:per|a|/|each)\s*(?P<p2>week|month|day|year|mo|wk)\b)?|"
    r"(?P<p3>周|月|日|年)均?\s*下载量\s*(?:超过|超|达到|达|约|接近|突破)?\s*"
    r"(?P<n2>\d[\d.,]*)\s*(?P<s2>万|亿|k|K|M)?",
    re.I,
)


def download_facts(sentence: str) -> list[Fact]:
    """ "1.8M weekly downloads", "月均下载量超过500万次": one count a month. A sentence with
    several counts (a row of a table flattened into text) gives none: which is whose is
    not in it."""
    found = list(_DOWNLOADS.finditer(sentence))
    if len(found) != 1:
        return []
    match = found[0]
    period = match.group("p1") or match.group("p2") or match.group("p3")
    number = parse_number(match.group("n1") or match.group("n2") or "")
    if period is None or number is None:
        return []
    scale = _SCALES.get((match.group("s1") or match.group("s2") or "").lower(), 1.0)
    monthly = number * scale * _PER_MONTH[_PERIOD_WORDS[period.lower()]]
    return [Fact("downloads per month", "fact", _format_number(round(monthly, -3)), 0)]


def quantity_facts(sentence: str) -> list[Fact]:
    facts = download_facts(sentence)
    quantities = _QUANTITIES if _A_NUMBER_WORD.search(sentence) else _QUANTITIES_IN_FIGURES
    folded = fold_for_literals(sentence)
    for attribute, pattern in quantities if _ANY_NUMBER.search(sentence) else ():
        # Looked for only where a word it cannot match without stands (a unit, a noun).
        if not may_match(_LITERALS[pattern], folded):
            continue
        match = pattern.search(sentence)
        if match is None or _measures_something_else(attribute, sentence, match):
            continue
        value = _quantity(match)
        if value is not None:
            facts.append(Fact(_qualified(attribute, sentence), "fact", value, 0))
    return facts + measure_facts(sentence)


def _measures_something_else(attribute: str, sentence: str, match: re.Match[str]) -> bool:
    guard = _NOT_THE_OPTION.get(attribute)
    if guard and guard.search(sentence):
        return True
    if attribute in ("core team", "contributors"):
        # A year is not a head count: "core maintainers since 2019".
        return bool(re.fullmatch(r"(?:19|20)\d\d", next(g for g in match.groups() if g)))
    return False


def _qualified(attribute: str, sentence: str) -> str:
    """p50 and p99 latency are different measures, not conflicting values of one; a size in
    memory is not the size on disk."""
    if attribute == "size (MB)" and _MEMORY.search(sentence):
        return "memory (MB)"
    if attribute != "latency (ms)":
        return attribute
    if _RENDER.search(sentence):
        return "render time (ms)"
    match = _PERCENTILE.search(sentence)
    return f"latency (ms, {match.group(0).lower()})" if match else attribute


def _quantity(match: re.Match[str]) -> str | None:
    """The number a match reads, scaled by k/million/万; a range reads as "low-high"."""
    groups = [g for g in match.groups() if g]
    if not groups:
        return None
    numbers, scale = [], 1.0
    for group in groups:
        if group.lower() in _SCALES and numbers:
            scale *= _SCALES[group.lower()]
        elif (number := parse_number(group)) is not None:
            numbers.append(number)
    if not numbers:
        return None
    return "-".join(_format_number(n * scale) for n in numbers[:2])


def parse_number(text: str) -> float | None:
    """Read 1,200 / 2.5 / −1.4 / forty-eight / three hundred and ten / 两万九千八百. A range
    ("8000000-11000000") reads as its midpoint, so that tolerance comparisons still work;
    number_range gives both ends."""
    bounds = number_range(text)
    if bounds is not None:
        return (bounds[0] + bounds[1]) / 2
    text = text.replace(",", "").replace("\u2212", "-").strip()
    try:
        return float(text)
    except ValueError:
        pass
    words = re.split(r"[\s-]+", text.lower())
    if all(w in _WORD_NUMBERS or w in ("hundred", "and") for w in words):
        return float(_english_number(words))
    return chinese_number(text)


_RANGE = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*[-–—]\s*(-?\d+(?:\.\d+)?)\s*$")


def number_range(text: str) -> tuple[float, float] | None:
    """(low, high) for a range value such as "8000000-11000000", else None."""
    match = _RANGE.match(text.replace(",", ""))
    if match is None:
        return None
    low, high = float(match.group(1)), float(match.group(2))
    return (low, high) if low <= high else None


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
            total += (section + digit or 1) * 10_000
            section, digit = 0, 0
        else:
            return None
    return float(total + section + digit)


def _format_number(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"
