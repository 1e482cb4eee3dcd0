"""The ways two statements on one point can disagree, each read from the words of both.

- a denial: one denies the very words the other states ("no persistence" against "the
  persistence layer"), not in a condition and not of the option's own name;
- opposite terms on one point (encrypted / in the clear, open source / proprietary);
- a finding on one outcome that one reports significant and the other not;
- a ranking: the option beaten in one sentence ("often beating X at p99").
"""

from __future__ import annotations

import re
from functools import lru_cache

from research.reading.claims.topics import named_points
from research.reading.conflicts.statements import Statement
from research.reading.conflicts.words import GENERIC, stem
from research.reading.text import first_mention, has_cjk, option_names, terms

# Clauses that can carry their own verdict; a comma inside a list does not start one.
_BIG_CLAUSE = re.compile(
    r"[;；。]\s*|,\s+(?:and|but|while|whereas)\s+|\s+(?:but|whereas)\s+|[，,]\s*(?:但|而)"
)

NEGATION = re.compile(
    r"\b(?:not|no|never|none|without|lacks?|lacking|doesn'?t|don'?t|isn'?t|aren'?t|wasn'?t|"
    r"weren'?t|cannot|can'?t|won'?t|neither|nor)\b|"
    r"不是|不会|不能|不支持|不需要|不用|不再|并不|并非|没有|无法|尚未|未能|不提供|不包含|"
    r"不具备|缺乏|缺少",
    re.I,
)
# What each pair of opposite terms is about, in the order of OPPOSITES.
OPPOSITE_POINTS = [
    "encryption",
    "open source",
    "stability",
    "support",
    "persistence",
    "synchronous or asynchronous",
    "maintenance status",
]
OPPOSITES: list[tuple[str, str]] = [
    (r"\bencrypted\b|加密存储", r"\bunencrypted\b|\bplain ?text\b|\bin the clear\b|明文|未加密"),
    (
        r"\bopen[- ]source\b|\bfree software\b|\bopen-sourced?\b|开源",
        r"\bproprietary\b|\bclosed[- ]source\b|\bsource[- ]available\b|"
        r"\bnon-?commercial\b|\bnot (?:free|open)|闭源",
    ),
    (r"\bstable\b|稳定版|正式版", r"\b(?:experimental|beta|preview|unstable)\b|实验性|测试版"),
    (r"\bsupported\b|支持", r"\b(?:unsupported|removed|dropped)\b|不支持|已移除"),
    (
        r"\bpersist(?:ent|ence|s)\b|\bdurable\b|持久化",
        r"\bfire[- ]and[- ]forget\b|\bin-memory only\b|\bno persistence\b|不持久",
    ),
    (r"\bsynchronous(?:ly)?\b|同步", r"\basynchronous(?:ly)?\b|\basync\b|异步"),
    (
        r"\b(?:deprecated|discontinued|archived|end[- ]of[- ]life)\b|弃用|停止维护",
        r"\b(?:actively maintained|recommended)\b|积极维护|推荐",
    ),
]
_OPPOSITES = [(re.compile(a, re.I), re.compile(b, re.I)) for a, b in OPPOSITES]

# --- explicit denials ---------------------------------------------------------------------

_DENIAL_EN = re.compile(
    r"\b(?:no|not|never|without|lacks?|lacking|doesn'?t|don'?t|isn'?t|aren'?t|wasn'?t|"
    r"weren'?t|cannot|can'?t|won'?t|didn'?t|neither|nor)\b(?P<what>[^,.;:!?()\[\]—–]{2,60})",
    re.I,
)
_DENIAL_ZH = re.compile(
    r"(?:不支持|不提供|不包含|不具备|没有|不是|并非|无法|不能|尚未|未能|不再|缺乏|缺少|不)"
    r"(?P<what>[\u4e00-\u9fffA-Za-z0-9]{2,8})"
)
_CONDITION = re.compile(
    r"\b(?:if|unless|when|whether|for (?:those|people|developers|teams|users|anyone) "
    r"(?:who|with|without))\b[^,.;:!?]*|对于[^，,。；;]*?(?:来说|而言)|如果[^，,。；;]*",
    re.I,
)
# A finding whose object is part of the point: "no reduction in cardiovascular death".
_NEEDS_OBJECT = re.compile(
    r"(?i)reductions?|increases?|differences?|changes?|effects?|improvements?|benefits?|risks?"
)
_PHRASE_ENDS = frozenset(
    "on in for with at by from to when if because since unless until while and or but "
    "so as than".split()
)
_FILLER_WORDS = frozenset(
    """a an the any do does did have has had be is are was were been its their it this that
    really actually just only even yet still always necessarily quite very much many more
    so too to of in on for with at by as from""".split()
)


def denied_point(a: Statement, b: Statement, rarity: dict[str, float]) -> str | None:
    """A point `a` denies outright ("no persistence", "不支持离线模式", a "No" in a table's
    row) that `b` states without denying it: the same words, in order, close together."""
    for phrase, _ in _denied(a):
        if (
            _worth_a_point(phrase, rarity)
            and not _names_an_option(phrase, a)
            and _states(b.text, phrase)
        ):
            return " ".join(phrase)
    return None


def _names_an_option(phrase: tuple[str, ...], statement: Statement) -> bool:
    """ "Django, not Flask, is the better choice" denies nothing about Flask's points."""
    names = {stem(t) for name in option_names(statement.option) for t in terms(name)}
    return any(word in names for word in phrase)


def denied_surface(a: Statement, b: Statement, rarity: dict[str, float]) -> str | None:
    """The denied point as `a` writes it ("offline mode", "persistence")."""
    for phrase, words in _denied(a):
        if (
            _worth_a_point(phrase, rarity)
            and not _names_an_option(phrase, a)
            and _states(b.text, phrase)
        ):
            return words
    return None


def _denied(statement: Statement) -> tuple[tuple[tuple[str, ...], str], ...]:
    """What the statement denies: a table's "No" denies its whole row ("result storage"),
    every word of it, where a sentence's denial leaves out the words all texts use."""
    found = _denials_with_words(statement.text)
    if statement.says != "no" or not statement.row or has_cjk(statement.row):
        return found
    words = [w for w in statement.row.split() if w not in _FILLER_WORDS][:3]
    return ((tuple(stem(w) for w in words), " ".join(words)), *found) if words else found


def denied_phrases_of(statement: Statement) -> tuple[tuple[str, ...], ...]:
    """The points the statement denies, each as its stems: what `denied_point` looks for."""
    return tuple(phrase for phrase, _ in _denied(statement))


def _denials(text: str) -> tuple[tuple[str, ...], ...]:
    return tuple(phrase for phrase, _ in _denials_with_words(text))


def denied_phrases(text: str) -> tuple[tuple[str, ...], ...]:
    """The points the text denies, each as its stems: what `denied_point` looks for."""
    return _denials(text)


def opposite_terms(text: str) -> list[int]:
    """Which pairs of OPPOSITES the text uses, either side, in any of its clauses: a text
    using none takes no side on any of them."""
    clauses = _BIG_CLAUSE.split(text.lower())
    return [
        p
        for p, (yes, no) in enumerate(_OPPOSITES)
        if any(yes.search(c) or no.search(c) for c in clauses)
    ]


@lru_cache(maxsize=8192)
def _denials_with_words(text: str) -> tuple[tuple[tuple[str, ...], str], ...]:
    """The points a text denies, each as (stems, its words as written): up to three
    content words right after each negation, but not in a condition or an audience ("for
    developers without a functional background", "对于没有……的开发者来说", "if you don't
    need")."""
    found = []
    text = _CONDITION.sub(" ", _NOT_A_DENIAL.sub(" ", text))
    for match in _DENIAL_EN.finditer(text):
        content: list[str] = []
        for word in re.findall(r"[A-Za-z0-9][\w'-]*", match.group("what")):
            if content and word.lower() in _PHRASE_ENDS and not _NEEDS_OBJECT.match(content[-1]):
                break  # "no offline edits on mobile": the point is "offline edits"
            if word.lower() not in _FILLER_WORDS and word.lower() not in GENERIC:
                content.append(word)
        if content:
            stems = tuple(stem(w.lower()) for w in content[:3])
            found.append((stems, " ".join(content[:3])))
    for match in _DENIAL_ZH.finditer(text):
        if len(match.group("what")) >= 4:  # "没有运行时" is too short to be one point
            found.append(((match.group("what")[:4],), match.group("what")[:4]))
    return tuple(found)


def _worth_a_point(phrase: tuple[str, ...], rarity: dict[str, float]) -> bool:
    """One common word is not a point ("no message"); a word of the decision's vocabulary
    or a rare one is ("no persistence")."""
    if len(phrase) > 1 or has_cjk(phrase[0]):
        return True
    return bool(named_points(phrase[0]))


def _states(text: str, phrase: tuple[str, ...]) -> bool:
    """Whether the text says the phrase's words in order within a few words, and nowhere
    denies them."""
    if has_cjk(phrase[0]):
        at = text.find(phrase[0])
        return at >= 0 and not NEGATION.search(text[max(0, at - 3) : at])
    words = [stem(w) for w in re.findall(r"[a-z0-9][\w'-]*", text.lower())]
    if phrase in _denials(text):
        return False
    for i, word in enumerate(words):
        if word != phrase[0]:
            continue
        rest = words[i + 1 : i + 1 + 6]
        if _in_order(phrase[1:], rest) and not _negation_before(words[max(0, i - 3) : i]):
            return True
    return False


def _in_order(wanted: tuple[str, ...], words: list[str]) -> bool:
    position = 0
    for word in wanted:
        try:
            position = words.index(word, position) + 1
        except ValueError:
            return False
    return True


_NEGATION_WORDS = frozenset(
    "no not never without lack lacks lacking doesn't dont don't isn't aren't wasn't cannot "
    "can't won't didn't neither nor".split()
)


def _negation_before(words: list[str]) -> bool:
    return any(w in _NEGATION_WORDS for w in words)


def opposed(a: str, b: str, shared: frozenset[str], rarity: dict[str, float]) -> bool:
    """One says the shared point is X where the other says it is the opposite of X. Only
    the clauses carrying the point count: "a significant drop in strokes and a
    nonsignificant trend for infarctions" is negative about infarctions."""
    point = sorted(shared, key=lambda w: -rarity.get(w, 0.0))[:2]
    near_a, near_b = _clauses_with(a, point), _clauses_with(b, point)
    for yes, no in _OPPOSITES:
        side_a, side_b = _side(near_a, yes, no), _side(near_b, yes, no)
        if side_a and side_b and side_a != side_b:
            return True
    return False


# --- results on one outcome -------------------------------------------------------------

_RESULT_NO = re.compile(
    r"\b(?:non-?significant(?:ly)?|not (?:statistically )?significant(?:ly)?|"
    r"no (?:statistically )?significant|no (?:difference|effect|benefit)|similar)\b|"
    r"无显著|没有显著",
    re.I,
)
_RESULT_YES = re.compile(
    r"\b(?:significant(?:ly)?|reduced|reduces|reduction|reductions|lowered|lower|fewer)\b|"
    r"显著降低|降低",
    re.I,
)


def results_differ(a: str, b: str) -> bool:
    """One reports a reduction in an outcome that the other reports as not significant:
    the same named outcome ("non-fatal myocardial infarction"), opposite findings."""
    return differing_outcome(a, b) is not None


def findings(text: str) -> dict[str, str]:
    """{outcome: "yes" | "no"}: the outcomes the text reports a finding on."""
    return _results(text)


def differing_outcome(a: str, b: str) -> str | None:
    found_a, found_b = _results(a), _results(b)
    for point, found in found_a.items():
        if found_b.get(point) not in (None, found):
            return point
    return None


@lru_cache(maxsize=8192)
def _results(text: str) -> dict[str, str]:
    """{outcome: "yes" | "no"} for each named outcome a finding word stands just before,
    or just after ("death from any cause was lower"), in the same clause. Outcomes listed
    together ("in MACE and all-cause mortality") share their finding."""
    found: dict[str, str] = {}
    for clause in _BIG_CLAUSE.split(text):
        previous: tuple[str, int] | None = None  # the last outcome's finding and its end
        for point, start, end in _outcomes(clause):
            finding = _finding_before(clause[max(0, start - 70) : start])
            if finding is None and previous and _LISTED.fullmatch(clause[previous[1] : start]):
                finding = previous[0]
            finding = finding or _finding_after(clause[end : end + 40])
            if finding is not None:
                found.setdefault(point, finding)
                previous = (finding, end)
    return found


def _finding_before(before: str) -> str | None:
    if _DEFINING.search(before):
        return None  # "reduced the composite endpoint (cardiovascular death, ...)": a part
    if _RESULT_NO.search(before):
        return "no"  # "a nonsignificant trend towards a reduction"
    return "yes" if _RESULT_YES.search(before) else None


def _finding_after(after: str) -> str | None:
    if _AFTER_NO.match(after):
        return "no"
    return "yes" if _AFTER_YES.match(after) else None


_DEFINING = re.compile(r"\bcomposite\b|\((?![^()]*\))|\b(?:including|included)\s*:?\s*$", re.I)
_LISTED = re.compile(r"\s*(?:\([^()]{1,12}\))?\s*(?:,|,?\s*(?:and|or))\s*", re.I)
_AFTER_YES = re.compile(
    r"\s*(?:\([^()]{1,12}\)\s*)?(?:was|were|is|are)\s+(?:significantly\s+)?(?:lower|reduced)\b",
    re.I,
)
_AFTER_NO = re.compile(
    r"\s*(?:\([^()]{1,12}\)\s*)?(?:was|were|is|are|did)\s+(?:similar|not\s+(?:significantly\s+)?"
    r"(?:lower|reduced|differ|different))\b",
    re.I,
)


def _outcomes(clause: str) -> list[tuple[str, int, int]]:
    """Named outcomes of more than one word ("cardiovascular death", "non-fatal stroke"),
    or one that is not a bare modifier: the point a finding is about, where it starts and
    ends."""
    points = []
    for match in _OUTCOME.finditer(clause):
        name = re.sub(r"[\s-]+", " ", match.group(0).lower()).replace("non ", "non")
        points.append((_SAME_OUTCOME.get(name, name), match.start(), match.end()))
    return points


# One outcome under its other names: "death from any cause" is all-cause mortality.
_SAME_OUTCOME = {
    "death from any cause": "all cause mortality",
    "cv death": "cardiovascular death",
    "major adverse cardiovascular events": "mace",
    "hypoglycaemia": "hypoglycemia",
    "hospitalisation for heart failure": "hospitalization for heart failure",
}


_OUTCOME = re.compile(
    r"\b(?:non-?fatal )?(?:myocardial infarction|stroke|cardiovascular death|cv death|"
    r"all-cause mortality|death from any cause|hospitali[sz]ation for heart failure|"
    r"heart failure|mace|major adverse cardiovascular events|cardiovascular events|"
    r"hypoglyca?emia|hba1c|body weight)\b",
    re.I,
)


def opposite_label(a: str, b: str) -> str | None:
    """The point of the first pair of opposite terms the two texts take different sides
    of."""
    for (yes, no), label in zip(_OPPOSITES, OPPOSITE_POINTS, strict=True):
        side_a, side_b = _side(a.lower(), yes, no), _side(b.lower(), yes, no)
        if side_a and side_b and side_a != side_b:
            return label
    return None


def _side(text: str, yes: re.Pattern[str], no: re.Pattern[str]) -> str | None:
    # The qualified form wins: "a nonsignificant reduction" is not a reduction, and
    # "并不是开源" is not open source.
    if no.search(text):
        return "no"
    found = yes.search(text)
    if found is None:
        return None
    before = text[max(0, found.start() - 12) : found.start()]
    return "no" if _NEGATION_BEFORE.search(before) or _CJK_NEGATION_END.search(before) else "yes"


_CJK_NEGATION_END = re.compile(r"(?:不是|并不是|并非|不|非|没有|未)$")


def _clauses_with(text: str, words: list[str]) -> str:
    lowered = text.lower()
    clauses = [c for c in _BIG_CLAUSE.split(lowered) if any(w in c for w in words)]
    return " | ".join(clauses)


_NOT_A_DENIAL = re.compile(r"\bnot (?:just|only|merely|simply)\b|\bno (?:doubt|wonder)\b", re.I)


_BEATEN = re.compile(
    r"\b(?:beat(?:s|ing)?|outperform(?:s|ing|ed)?|faster than|better than|cheaper than|"
    r"ahead of|surpass(?:es|ing)?|edges? out)\s+(?:the\s+)?$|(?:胜过|优于|超过|快于)\s*$|"
    r"\w,\s*(?:and\s+)?not\s+$",
    re.I,
)


def beaten(quote: str, option: str) -> bool:
    """Whether the sentence names `option` only as what its subject beats."""
    at = first_mention(quote, option)
    return at > 0 and bool(_BEATEN.search(quote[max(0, at - 30) : at]))


_NEGATION_BEFORE = re.compile(r"(?:" + NEGATION.pattern + r")(?:\s+[\w'-]+)?\s+$", re.I)
