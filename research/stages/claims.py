"""Claims drawn from one sentence: typed facts and stances.

Typed facts are licences, the latest version, release and last-commit dates, quantities
with units, and maintenance status. Stances are positive or negative statements about an
option on a dimension. Everything here is deterministic and works on English and Chinese.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from research.stages.lexicon import concepts_for

PERMISSIVE = {"MIT", "Apache-2.0", "BSD", "ISC", "Unlicense"}
RESTRICTIVE = {"GPL-2.0", "GPL-3.0", "AGPL-3.0", "SSPL", "BSL", "proprietary"}


@dataclass(frozen=True)
class Fact:
    attribute: str
    kind: str  # fact | stance
    value: str
    polarity: int
    dimension: str | None = None


# --- licences -----------------------------------------------------------------------------

LICENCE_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("AGPL-3.0", re.compile(r"\bAGPL(?:[- ]?v?3(?:\.0)?)?\b|Affero", re.I)),
    ("LGPL", re.compile(r"\bLGPL(?:[- ]?v?[23](?:\.\d)?)?\b|Lesser General Public", re.I)),
    ("GPL-2.0", re.compile(r"\bGPL[- ]?v?2(?:\.0)?\b", re.I)),
    ("GPL-3.0", re.compile(r"(?<![AL])\bGPL(?:[- ]?v?3(?:\.0)?)?\b|GNU General Public", re.I)),
    (
        "Apache-2.0",
        re.compile(r"\bApache(?:[- ]License)?(?:[,\s-]*(?:Version|v)?\s*2(?:\.0)?)?\b", re.I),
    ),
    ("MIT", re.compile(r"\bMIT(?=[\s-]*(?:licen[cs]|许可|协议|授权|$|[\s,.;)，。]))")),
    ("BSD", re.compile(r"\bBSD(?:[- ][0-9]-Clause)?\b", re.I)),
    ("MPL-2.0", re.compile(r"\bMPL(?:[- ]?2(?:\.0)?)?\b|Mozilla Public", re.I)),
    ("BSL", re.compile(r"Business Source|\bBUSL(?:-1\.1)?\b|\bBSL\b(?:[- ]1\.[01])?", re.I)),
    ("SSPL", re.compile(r"\bSSPL\b|Server Side Public", re.I)),
    (
        "proprietary",
        re.compile(
            r"proprietary licen[cs]e|closed[- ]source licen[cs]e|"
            r"(?:went|became|is now|turned) (?:closed[- ]source|proprietary)"
            r"|转为闭源|改为闭源",
            re.I,
        ),
    ),
]
_LICENCE_CONTEXT = re.compile(r"licen[cs]|许可|协议|授权|开源|relicens|terms", re.I)
_TRANSITION = re.compile(
    r"(?:switch(?:ed|es|ing)?|mov(?:ed|es|ing)|chang(?:ed|es|ing)|relicens(?:ed|es|ing)|"
    r"went|converted|migrated)\b[^.;]*?\b(?:to|under)\b|改为|改用|切换到|切换为|转为|变更为|换成",
    re.I,
)


def _hypothetical(clause: str) -> bool:
    """ "after which it converts to Apache-2.0" is not today's licence."""
    return bool(_HYPOTHETICAL.search(clause)) and not _TRANSITION.search(clause)


def licences(sentence: str) -> list[tuple[int, str]]:
    found: dict[str, int] = {}
    for name, pattern in LICENCE_PATTERNS:
        for match in pattern.finditer(sentence):
            if not _overlaps_known(found, match.start(), sentence):
                found.setdefault(name, match.start())
    return sorted((pos, name) for name, pos in found.items())


def _overlaps_known(found: dict[str, int], start: int, sentence: str) -> bool:
    # "AGPL" also matches the GPL pattern one letter in; the first, longer match wins.
    return any(abs(start - pos) <= 1 for pos in found.values())


_HYPOTHETICAL = re.compile(
    r"\b(?:will|would|could|might|if|converts? to|after which|unless)\b|"
    r"将会|如果|若",
    re.I,
)


def licence_fact(sentence: str) -> Fact | None:
    sentence = " , ".join(c for c in _CLAUSE.split(sentence) if not _hypothetical(c))
    named = licences(sentence)
    if not named or not (_LICENCE_CONTEXT.search(sentence) or len(named) == 1):
        return None
    transition = _TRANSITION.search(sentence)
    if transition:
        after = [name for pos, name in named if pos >= transition.start()]
        if after:
            return _licence(after[-1])
    names = sorted({name for _, name in named})
    if len(names) == 1:
        return _licence(names[0])
    if re.search(r"dual|either|双许可|双重许可", sentence, re.I):
        return Fact("licence", "fact", " OR ".join(names), 1)
    return None  # several licences without a clear current one: not a claim


def _licence(name: str) -> Fact:
    polarity = 1 if name in PERMISSIVE else -1 if name in RESTRICTIVE else 0
    return Fact("licence", "fact", name, polarity)


# --- maintenance status -------------------------------------------------------------------

_INACTIVE = re.compile(
    r"\barchived\b|\bdeprecated\b|\bunmaintained\b|\babandoned\b|no longer (?:actively )?"
    r"(?:maintained|developed|supported)|not (?:actively )?maintained|\bread-only\b|"
    r"end[- ]of[- ]life|\bEOL\b|discontinued|\bdead\b|已归档|归档|停止维护|不再维护|弃用|废弃|"
    r"停更|无人维护|停止更新|不再更新|"
    r"(?:hasn't|has not|haven't|have not|no) (?:had |seen |shipped )?(?:a |any )?(?:new )?"
    r"releases? in (?:over |more than )?(?:a|one|two|\d+) (?:years?|months)",
    re.I,
)
_ACTIVE = re.compile(
    r"actively (?:maintained|developed)|active development|(?:still|well|is) maintained|"
    r"(?:regular|frequent|monthly|weekly) releases|releases? (?:every|each) (?:week|month|"
    r"two weeks|fortnight|few weeks)|ships? (?:a release )?every|积极维护|持续维护|持续更新|"
    r"每月发布|活跃维护|仍在维护|维护活跃|频繁发布|定期发布|"
    r"(?:ships?|cuts?|publish(?:es)?) a release (?:roughly |about |almost )?every",
    re.I,
)
_NEGATED_INACTIVE = re.compile(
    r"\bnot (?:been )?(?:archived|deprecated|abandoned)|并未归档|没有归档", re.I
)


def maintenance_fact(sentence: str) -> Fact | None:
    sentence = " , ".join(clauses(sentence))
    if _NEGATED_INACTIVE.search(sentence):
        return Fact("maintenance", "fact", "active", 1)
    inactive = [m.start() for m in _INACTIVE.finditer(sentence)]
    active = [m.start() for m in _ACTIVE.finditer(sentence)]
    if not inactive and not active:
        return None
    # "was actively maintained until it was archived": the later statement is the news.
    if max(inactive, default=-1) > max(active, default=-1):
        return Fact("maintenance", "fact", "inactive", -1)
    return Fact("maintenance", "fact", "active", 1)


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
_SERIES = re.compile(r"\b\d+\.x\b|\b(?:line|series|branch)\b|系列|分支", re.I)
_RELEASED_ON = re.compile(
    r"(?:released|published|came out|shipped|tagged|发布|推出|上线)"
    r"[^.;。；]{0,30}$",
    re.I,
)
_RELEASED_AFTER = re.compile(
    r"^[^，。；,.;]{0,8}?(?:发布|推出|上线|released|came out|shipped)", re.I
)


_CLAUSE = re.compile(r"[;；，,。]|\bbut\b|\bwhile\b|\bwhereas\b", re.I)


def clauses(sentence: str) -> list[str]:
    """Clauses that do not speak of a release series: "the 2.x line only gets fixes" says
    nothing about the project as a whole."""
    return [c for c in _CLAUSE.split(sentence) if c.strip() and not _SERIES.search(c)]


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
        digits = "".join(str(_CN_DIGITS[c]) for c in year)
        iso = f"{digits}-{int(_chinese_number(month) or 0):02d}"
        dates.append(iso + (f"-{int(_chinese_number(day) or 0):02d}" if day else ""))
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
_CN_DIGITS = {
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
    return _chinese_number(text)


def _english_number(words: list[str]) -> int:
    total = 0
    for word in words:
        if word == "hundred":
            total *= 100
        elif word != "and":
            total += _WORD_NUMBERS[word]
    return total


def _chinese_number(text: str) -> float | None:
    total, section, digit = 0, 0, 0
    for char in text:
        if char in _CN_DIGITS:
            digit = _CN_DIGITS[char]
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


# --- all together -------------------------------------------------------------------------

_ATTRIBUTE_CONCEPTS = {
    "licence": ("licence", "risk", "cost", "replaceability"),
    "maintenance": ("maintenance", "activity", "community", "risk"),
    "latest_version": ("maintenance", "activity"),
    "last_commit": ("maintenance", "activity", "community"),
    "contributors": ("community", "activity", "maintenance"),
    "core team": ("community", "activity", "maintenance"),
    "stars": ("community", "activity"),
    "yearly price": ("cost", "price"),
    "price per seat": ("cost", "price"),
    "size (MB)": ("performance",),
    "latency (ms)": ("performance",),
}


def dimension_for(attribute: str, dimensions: list[str]) -> str | None:
    wanted = _ATTRIBUTE_CONCEPTS.get(
        attribute.split(" ")[0] if attribute.startswith("release_date") else attribute,
        ("maintenance", "activity"),
    )
    for concept in wanted:
        for dimension in dimensions:
            if concept in concepts_for(dimension):
                return dimension
    return None


def extract(sentence: str, dimensions: list[str], sentence_dimension: str | None) -> list[Fact]:
    """Every claim one sentence makes: its typed facts, then its stance if it has one."""
    facts = [
        f
        for f in (licence_fact(sentence), maintenance_fact(sentence), version_fact(sentence))
        if f is not None
    ]
    facts += date_facts(sentence) + quantity_facts(sentence)
    placed = [
        Fact(
            f.attribute,
            f.kind,
            f.value,
            f.polarity,
            dimension_for(f.attribute, dimensions) or sentence_dimension,
        )
        for f in facts
    ]
    polarity = stance_polarity(sentence)
    if polarity and sentence_dimension:
        placed.append(
            Fact(
                "stance",
                "stance",
                "positive" if polarity > 0 else "negative",
                polarity,
                sentence_dimension,
            )
        )
    return placed
