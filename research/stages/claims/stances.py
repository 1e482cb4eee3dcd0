"""Stances: whether a sentence judges an option positively or negatively."""

from __future__ import annotations

import re

# --- stances ------------------------------------------------------------------------------

_POSITIVE = (
    "easy",
    "easier",
    "simple",
    "cheap",
    "inexpensive",
    "affordable",
    "free of charge",
    "well documented",
    "well-documented",
    "excellent",
    "great",
    "mature",
    "stable",
    "flexible",
    "powerful",
    "fast",
    "vibrant",
    "thriving",
    "friendly",
    "straightforward",
    "painless",
    "smooth",
    "recommend",
    "solid",
    "gentle",
    "responsive",
    "healthy",
    "permissive",
    "low risk",
    "low-risk",
    "safe choice",
    "cheap to",
    "active",
    "lively",
    "answered",
    "helpful",
    "平缓",
    "容易",
    "简单",
    "便宜",
    "低成本",
    "风险低",
    "风险较低",
    "风险很低",
    "完善",
    "优秀",
    "成熟",
    "稳定",
    "灵活",
    "强大",
    "活跃",
    "友好",
    "推荐",
    "上手快",
    "门槛低",
    "齐全",
    "省心",
    "放心",
    "无忧",
    "不错",
    "顺手",
    "好用",
    "很好",
    "方便",
    "热闹",
    "及时",
    "safe",
    "safe pick",
    "refreshingly",
)
_NEGATIVE = (
    "hard",
    "difficult",
    "steep",
    "expensive",
    "costly",
    "pricey",
    "risky",
    "high risk",
    "poorly documented",
    "undocumented",
    "buggy",
    "unstable",
    "slow",
    "painful",
    "complex",
    "complicated",
    "limited",
    "lacking",
    "lacks",
    "abandoned",
    "inactive",
    "stagnant",
    "frustrating",
    "avoid",
    "brittle",
    "fragile",
    "worried",
    "concern",
    "headache",
    "burden",
    "lock-in",
    "real risk",
    "a risk",
    "flagged",
    "ghost town",
    "unanswered",
    "quiet",
    "dead",
    "breaks",
    "陡峭",
    "困难",
    "难以",
    "昂贵",
    "风险高",
    "风险较高",
    "缺乏",
    "不完善",
    "复杂",
    "不稳定",
    "冷清",
    "不活跃",
    "负担",
    "麻烦",
    "踩坑",
    "担心",
    "隐患",
    "门槛高",
    "贵",
    "没法",
    "无法",
    "很难",
    "没人理",
    "不友好",
    "吃力",
    "brutal",
    "wary",
    "punishing",
    "nightmare",
    "陡",
    "做不出",
    "做不到",
)
_LOW_HIGH = re.compile(
    r"\b(low|lower|minimal|negligible|high|higher|significant)\s+(?:\w+\s+)?"
    r"(risk|cost|costs|overhead|barrier|price)\b|"
    r"\b(risk|cost|costs|overhead|barrier|price)\s+(?:is|are|stays|remains|was)\s+"
    r"(?:\w+\s+)?(low|minimal|negligible|high|significant)\b",
    re.I,
)
_NEGATOR = re.compile(
    r"\b(?:not|never|hardly|isn't|aren't|wasn't|no|nothing)\b(?:\s+[\w']+){0,4}\s*$|"
    r"不$|没有$|并不$",
    re.I,
)
# Names that contain a cue word without judging anything: "stable release", "free tier".
_NEUTRAL_PHRASES = re.compile(
    r"\bstable (?:release|version|branch|api|line|channel)s?\b|"
    r"\bfree (?:tier|plan)\b",
    re.I,
)


def stance_polarity(sentence: str) -> int:
    score = _low_high_score(sentence)
    masked = _NEUTRAL_PHRASES.sub(" ", _LOW_HIGH.sub(" ", sentence))
    score += sum(_cue_sign(masked, cue, +1) for cue in _POSITIVE)
    score += sum(_cue_sign(masked, cue, -1) for cue in _NEGATIVE)
    return (score > 0) - (score < 0)


def _low_high_score(sentence: str) -> int:
    score = 0
    for match in _LOW_HIGH.finditer(sentence):
        level = (match.group(1) or match.group(4) or "").lower()
        score += 1 if level in ("low", "lower", "minimal", "negligible") else -1
    return score


def _cue_sign(sentence: str, cue: str, sign: int) -> int:
    total = 0
    for match in _cue_pattern(cue).finditer(sentence):
        negated = _NEGATOR.search(sentence[max(0, match.start() - 40) : match.start()])
        total += -sign if negated else sign
    return total


_CUE_CACHE: dict[str, re.Pattern[str]] = {}


def _cue_pattern(cue: str) -> re.Pattern[str]:
    if cue not in _CUE_CACHE:
        if re.match(r"[\u4e00-\u9fff]", cue):
            # "不" before a Chinese cue is a negator, handled by _NEGATOR, except in 不完善 etc.
            _CUE_CACHE[cue] = re.compile(re.escape(cue))
        else:
            _CUE_CACHE[cue] = re.compile(r"(?<![A-Za-z])" + re.escape(cue) + r"(?![A-Za-z])", re.I)
    return _CUE_CACHE[cue]
