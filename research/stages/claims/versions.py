"""Version and date facts: the latest release, release dates, the last commit."""

from __future__ import annotations

import re

from research.stages.claims.facts import Fact, clauses
from research.stages.claims.numbers import CN_DIGITS, chinese_number

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
    r"\b(" + "|".join(_MONTHS) + r")\s+(?:(\d{1,2}),?\s+)?(20\d\d)\b",
    re.I,
)
_LAST_COMMIT = re.compile(
    r"last commit|latest commit|most recent commit|最后一次提交|最近一次提交", re.I
)


_PRERELEASE = re.compile(
    r"\b(?:beta|alpha|rc\d*|release candidate|preview|nightly|canary)\b|测试版|预览版|内测|公测",
    re.I,
)
_RELEASED_ON = re.compile(
    r"(?:released|published|came out|shipped|tagged|发布|推出|上线)"
    r"[^.;。；]{0,30}$",
    re.I,
)
_RELEASED_AFTER = re.compile(
    r"^[^，。；,.;]{0,8}?(?:发布|推出|上线|released|came out|shipped)", re.I
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
    versions = re.findall(_VERSION, sentence)
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


def _iso(match: re.Match[str]) -> str:
    """An ISO date at the precision the text gives: 2024-12-03 or 2024-10."""
    iso, cn_year, cn_month, cn_day, month, day, year = match.groups()
    if iso:
        return iso
    if cn_year:
        year, number, day = cn_year, int(cn_month), cn_day
    else:
        number = _MONTHS.index(month.lower()) + 1
    return f"{year}-{number:02d}" + (f"-{int(day):02d}" if day else "")
