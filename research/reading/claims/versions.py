"""Version and date facts: the latest release, release dates, the last commit."""

from __future__ import annotations

import re

from research.reading.claims.facts import Fact, clauses
from research.reading.claims.numbers import CN_DIGITS, chinese_number

# --- versions and dates -------------------------------------------------------------------

_VERSION = r"v?(\d+\.\d+(?:\.\d+)?)"
_LATEST = re.compile(
    r"latest|current|newest|most recent|final|"
    r"last\s+(?:\w+\s+)?(?:stable\s+)?(?:release|version)|"
    r"最新|当前版本|目前版本|最后一个版本|最终版本",
    re.I,
)
_MONTHS = (
    "january february march april may june july august september october november december"
).split()
_DATE = re.compile(
    r"\b(20\d\d-\d\d-\d\d)\b|(20\d\d)\s*年\s*(\d{1,2})\s*月(?:\s*(\d{1,2})\s*日)?|"
    r"\b(" + "|".join(_MONTHS) + r")\s+(?:(\d{1,2}),?\s+)?(20\d\d)\b|"
    r"\b(early|mid|late|end of)[- ](20\d\d)\b|(20\d\d)\s*年\s*(初|中|底|末)",
    re.I,
)
# A part of a year, as its months: "early 2024" and "2024 年初" cannot be October 2024.
PARTS_OF_YEAR = {"E": (1, 4), "M": (5, 8), "L": (9, 12)}
_PART = {
    "early": "E",
    "mid": "M",
    "late": "L",
    "end of": "L",
    "初": "E",
    "中": "M",
    "底": "L",
    "末": "L",
}
# "Svelte 5", "React 19": a product's major version, written after its name.
_MAJOR = re.compile(
    r"\b[A-Z][A-Za-z.]+\s+(\d{1,2})(?:\.0)?\+?(?![\d.]|\s*(?:%|年|days?|years?|mg))"
)
_LAST_COMMIT = re.compile(
    r"last commit|latest commit|most recent commit|最后一次提交|最近一次提交", re.I
)


_PRERELEASE = re.compile(
    r"\b(?:beta|alpha|rc\d*|release candidate|preview|nightly|canary)\b|测试版|预览版|内测|公测",
    re.I,
)
_RELEASED_ON = re.compile(
    r"(?:released|published|came out|shipped|tagged|launched|stable in|went stable|"
    r"发布|推出|上线)(?:[^.;。；]|\.(?=\d)){0,30}$",
    re.I,
)
_RELEASED_AFTER = re.compile(
    r"^[^。；.;]{0,20}?(?:发布|推出|上线|released|came out|shipped|launched)", re.I
)


def version_fact(sentence: str) -> Fact | None:
    found = {
        v
        for clause in clauses(sentence)
        if _LATEST.search(clause)
        for v in re.findall(_VERSION, clause)
    }
    found = {normalise_version(v) for v in found}
    if len(found) != 1 or _PRERELEASE.search(sentence):
        return None  # none, several, or a beta: which release is current is not plain
    return Fact("latest_version", "fact", found.pop(), 0)


def normalise_version(version: str) -> str:
    """2.7 and 2.7.0 name one release."""
    parts = version.lstrip("v").split(".")
    while len(parts) > 2 and parts[-1] == "0":
        parts.pop()
    return ".".join(parts)


def date_facts(sentence: str) -> list[Fact]:
    dates = [_iso(m) for m in _DATE.finditer(sentence)] + _cn_dates(sentence)
    if len(dates) != 1:
        return []
    if _LAST_COMMIT.search(sentence):
        return [Fact("last_commit", "fact", dates[0], 0)]
    versions = re.findall(_VERSION, sentence) or _MAJOR.findall(sentence)
    match = _DATE.search(sentence) or _CN_DATE.search(sentence)
    before = sentence[: match.start()] if match else ""
    after = sentence[match.end() :] if match else ""
    if len(set(versions)) == 1 and (_RELEASED_ON.search(before) or _RELEASED_AFTER.search(after)):
        return [Fact(f"release_date {versions[0]}", "fact", dates[0], 0)]
    return []


_CN_DATE = re.compile(
    r"([〇零一二三四五六七八九]{4})\s*年\s*([一二三四五六七八九十]{1,3})\s*月"
    r"(?:\s*([一二三四五六七八九十]{1,3})\s*[日号])?"
)


def _cn_dates(sentence: str) -> list[str]:
    """二〇二二年十一月 -> 2022-11."""
    dates = []
    for year, month, day in _CN_DATE.findall(sentence):
        digits = "".join(str(CN_DIGITS[c]) for c in year)
        iso = f"{digits}-{int(chinese_number(month) or 0):02d}"
        dates.append(iso + (f"-{int(chinese_number(day) or 0):02d}" if day else ""))
    return dates


def readable_date(value: str) -> str:
    """ "2024-E" as "early 2024"; other dates as they are."""
    match = re.fullmatch(r"(\d{4})-([EML])", value)
    if match is None:
        return value
    return f"{ {'E': 'early', 'M': 'mid', 'L': 'late'}[match.group(2)] } {match.group(1)}"


def same_release(attribute: str) -> str:
    """A release date's attribute with its version as a release names it: "5.0" is
    release 5, as "Svelte 5" calls it."""
    return re.sub(r"(release_date \S+?)(?:\.0)+\+?$", r"\1", attribute)


def _iso(match: re.Match[str]) -> str:
    """An ISO date at the precision the text gives: 2024-12-03, 2024-10, or a part of a
    year as 2024-E (early), 2024-M (mid), 2024-L (late)."""
    iso, cn_year, cn_month, cn_day, month, day, year, part, part_year, cn_part_year, cn_part = (
        match.groups()
    )
    if iso:
        return iso
    if part or cn_part:
        return f"{part_year or cn_part_year}-{_PART[(part or cn_part).lower()]}"
    if cn_year:
        year, number, day = cn_year, int(cn_month), cn_day
    else:
        number = _MONTHS.index(month.lower()) + 1
    return f"{year}-{number:02d}" + (f"-{int(day):02d}" if day else "")
