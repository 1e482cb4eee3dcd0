"""Contradictions between sentences that speak to the same point.

Typed facts (licences, versions, statuses) are compared attribute by attribute in
crosscheck. Most disagreements on real pages are not typed, though: "NATS has no
persistence" against "JetStream adds persistence to NATS", or "2.7x the memory" against
"27 times the memory". Two sentences from different sites are on the same point when they
share distinctive words (words rare among all the run's key points, so "the" or the
option's own name do not count). They contradict when, on that point:

- one denies what the other asserts (a negation just before a shared word);
- they judge it in opposite directions (stance words);
- they give different figures in the same unit.

Each contradiction says why the sources may differ: time (dates or years apart), scope or
data set (different versions, workloads or populations), or one source being wrong.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from itertools import combinations

from research.stages.claims import stance_polarity
from research.stages.text import has_cjk, option_names, terms

# Words too common in decision writing to make two sentences "about the same point".
GENERIC = frozenset(
    """also more most much many very can could may might will would use used using uses
    one two new good better best like just only still even well make makes made way
    each other such some any all than then there here when where while which who whom
    been being have has had was were into onto over under about after before because
    both either neither same different however although though support supports supported
    based provide provides provided offer offers offered feature features option options
    time times way system systems data users user people team teams project projects
    want need needs needed get gets getting see seen say says said know known
    not nor never none without yes its it's you your they them their our out off
    really actually generally usually often less few lot lots thing things""".split()
)
NEGATION = re.compile(
    r"\b(?:not|no|never|none|without|lacks?|lacking|doesn'?t|don'?t|isn'?t|aren'?t|wasn'?t|"
    r"weren'?t|cannot|can'?t|won'?t|neither|nor)\b|"
    r"不是|不会|不能|不支持|不需要|不用|不再|并不|并非|没有|无法|尚未|未能|不提供|不包含|"
    r"不具备|缺乏|缺少",
    re.I,
)
_NUMBER_UNIT = re.compile(
    r"(?<![A-Za-z0-9.])(\d+(?:[.,]\d+)?)\s*(%|x\b|×|times\b|ms\b|s\b|kb\b|mb\b|gb\b|k\b|m\b|"
    r"million\b|msg/s|req/s|rps\b|万|倍|次)?",
    re.I,
)
_CURRENCY = re.compile(r"([$€£¥])\s?(\d+(?:[.,]\d+)?)")
_UNIT_FAMILY = {"x": "x", "×": "x", "times": "x", "倍": "x", "k": "k", "m": "M", "million": "M"}
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")
_VERSION = re.compile(
    r"(?<![A-Za-z0-9.])(?:v\d+(?:\.\d+)*|\d+\.\d+\.\d+)\b|\bversion\s?\d+(?:\.\d+)*", re.I
)
MIN_SHARED = 2.2  # summed rarity of the shared words (one rare word, or two middling ones)
TOLERANCE = 0.03  # rounding; a price 3.5% higher is a different price


@dataclass(frozen=True)
class Statement:
    """One key point, as the contradiction finder sees it."""

    key: str  # unique id of the key point within the run
    option: str
    dimension: str | None
    source_id: str
    site: str
    published: date | None
    quote: str
    offset: int
    strength: float = 50.0
    words: frozenset[str] = field(default=frozenset(), compare=False)


@dataclass(frozen=True)
class Conflict:
    a: Statement
    b: Statement
    attribute: str  # the shared point, in the sources' own words
    why: str  # negation | stance | figures
    kind: str  # time | scope | error
    note: str
    weight: float


def topic_words(quote: str, options: list[str]) -> frozenset[str]:
    """The words that say what a sentence is about, lightly stemmed ("vaults" = "vault");
    the options' own names say which option, not which point, so they do not count."""
    names = {_stem(t) for o in options for name in option_names(o) for t in terms(name)}
    words = (_stem(t) for t in terms(quote) if t not in GENERIC and not t[0].isdigit())
    return frozenset(w for w in words if w not in names and _meaningful(w))


# Characters that make a CJK bigram grammar rather than content ("的是", "一个").
_FUNCTION_CHARS = frozenset(
    "的了是在和与也都就而及或其这那一个中上为以对于等有着被把让从到很更最将可"
)


def _meaningful(word: str) -> bool:
    if has_cjk(word):
        return len(word) == 2 and not (set(word) & _FUNCTION_CHARS)
    return len(word) > 2


def _stem(word: str) -> str:
    if has_cjk(word) or len(word) <= 4:
        return word
    for suffix in ("ies", "es", "s"):
        if word.endswith(suffix) and not word.endswith("ss"):
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


def find_conflicts(statements: list[Statement]) -> list[Conflict]:
    rarity = _rarity(statements)
    found: list[Conflict] = []
    seen: set[frozenset[str]] = set()
    for a, b in combinations(statements, 2):
        pair = frozenset((a.quote, b.quote))
        if a.option != b.option or a.site == b.site or pair in seen or _asks(a, b):
            continue
        conflict = _judge(a, b, a.words & b.words, rarity)
        if conflict is not None:
            seen.add(pair)
            found.append(conflict)
    return _best_per_point(found)


def _asks(*statements: Statement) -> bool:
    """A question asserts nothing."""
    return any(s.quote.rstrip().endswith(("?", "？")) for s in statements)


def _rarity(statements: list[Statement]) -> dict[str, float]:
    """Inverse document frequency of each word over the run's key points."""
    df = Counter(w for s in statements for w in s.words)
    n = max(1, len(statements))
    return {w: math.log(n / c) for w, c in df.items() if c <= max(2, n // 6)}


def _judge(
    a: Statement, b: Statement, shared: frozenset[str], rarity: dict[str, float]
) -> Conflict | None:
    shared_weight = sum(rarity.get(w, 0.0) for w in shared)
    why = _why(a, b, shared, shared_weight)
    if why is None:
        return None
    point = _point(shared, rarity, a.quote) or (a.dimension or "")
    kind, note = _explain(a, b, why, point)
    weight = shared_weight + min(a.strength, b.strength) / 50
    return Conflict(a, b, point, why, kind, note, weight)


def _why(a: Statement, b: Statement, shared: frozenset[str], weight: float) -> str | None:
    same_dimension = a.dimension is not None and a.dimension == b.dimension
    if _figures_differ(a.quote, b.quote, shared):
        return "figures"
    if weight < MIN_SHARED:
        return None
    if _negated(a.quote, shared) != _negated(b.quote, shared):
        return "negation"
    pa, pb = stance_polarity(a.quote), stance_polarity(b.quote)
    if pa and pb and pa != pb and same_dimension and weight >= 1.5 * MIN_SHARED:
        return "stance"
    return None


def _negated(quote: str, shared: frozenset[str]) -> bool:
    """Whether a negation stands within a few words before one of the shared words."""
    lowered = quote.lower()
    for word in sorted(shared):
        at = lowered.find(word)
        while at >= 0:
            window = lowered[max(0, at - (5 if has_cjk(word) else 30)) : at]
            if NEGATION.search(window):
                return True
            at = lowered.find(word, at + 1)
    return False


@dataclass(frozen=True)
class Figure:
    unit: str
    value: float
    context: frozenset[str]  # the words just around the number: what it measures


def figures(quote: str) -> list[Figure]:
    """Numbers with units ("38%", "2.7x", "$935.77", "500万") and the words around each.
    Years, versions and statistics' own furniture ("95% CI") are not figures."""
    text = _STATS.sub(" ", _YEAR.sub(" ", _VERSION.sub(" ", quote)))
    found = []
    for match in _CURRENCY.finditer(text):
        found.append(Figure(match.group(1), _float(match.group(2)), _around(text, match)))
    text = _CURRENCY.sub(lambda m: " " * len(m.group(0)), text)
    for match in _NUMBER_UNIT.finditer(text):
        if match.group(2):
            unit = _UNIT_FAMILY.get(match.group(2).lower(), match.group(2).lower())
            found.append(Figure(unit, _float(match.group(1)), _around(text, match)))
    return found


_STATS = re.compile(r"\b9[059]\s?%\s?(?:CI|confidence)\b[^;)]*|\bp\s?[<=>]\s?0?\.\d+", re.I)
CONTEXT_CHARS = 40


def _around(text: str, match: re.Match[str]) -> frozenset[str]:
    window = text[max(0, match.start() - CONTEXT_CHARS) : match.end() + CONTEXT_CHARS // 2]
    return frozenset(_stem(t) for t in terms(window) if t not in GENERIC and not t[0].isdigit())


def _float(text: str) -> float:
    return float(text.replace(",", ""))


def _figures_differ(a: str, b: str, shared: frozenset[str]) -> bool:
    """Two figures in one unit that measure the same thing (a shared word next to each)
    and differ, while neither has a match on the other side."""
    fa, fb = figures(a), figures(b)
    for x in fa:
        for y in fb:
            if x.unit != y.unit or not (x.context & y.context & shared):
                continue
            if not _close_to_any(x.value, {f.value for f in fb if f.unit == x.unit}) and not (
                _close_to_any(y.value, {f.value for f in fa if f.unit == y.unit})
            ):
                return True
    return False


def _close_to_any(x: float, values: set[float]) -> bool:
    return any(abs(x - y) <= TOLERANCE * max(abs(x), abs(y), 1e-9) for y in values)


def _point(shared: frozenset[str], rarity: dict[str, float], quote: str) -> str:
    """The shared words, rarest first, in the order they appear in the first quote;
    shared CJK bigrams that follow each other are joined back into their phrase."""
    lowered = quote.lower()
    phrases = _cjk_phrases(lowered, shared)
    latin = sorted((w for w in shared if not has_cjk(w)), key=lambda w: -rarity.get(w, 0.0))
    chosen = [*phrases[:2], *latin[:3]][:3]
    return " ".join(sorted(chosen, key=lambda w: (lowered.find(w) + 1) or len(lowered)))


def _cjk_phrases(text: str, shared: frozenset[str]) -> list[str]:
    runs: list[str] = []
    current = ""
    for i in range(len(text) - 1):
        if text[i : i + 2] in shared:
            current = current + text[i + 1] if current else text[i : i + 2]
        elif current:
            runs.append(current)
            current = ""
    if current:
        runs.append(current)
    return sorted(dict.fromkeys(runs), key=len, reverse=True)


def _explain(a: Statement, b: Statement, why: str, point: str) -> tuple[str, str]:
    what = {
        "figures": "give different figures",
        "negation": "one denies what the other states",
        "stance": "judge it in opposite directions",
    }[why]
    lead = f"On “{point}”, {a.site} and {b.site} {what}"
    years = _YEAR.findall(a.quote), _YEAR.findall(b.quote)
    dates = a.published, b.published
    if dates[0] and dates[1] and abs((dates[0] - dates[1]).days) > 365:
        newer = a if dates[0] > dates[1] else b
        return "time", (
            f"{lead}. They were published {abs(dates[0].year - dates[1].year)} or more years "
            f"apart: likely a change over time; the newer one ({newer.site}, "
            f"{newer.published}) describes the current state."
        )
    if years[0] and years[1] and set(years[0]).isdisjoint(years[1]):
        return "time", f"{lead}. They speak of different years: likely a change over time."
    if _scopes_differ(a.quote, b.quote):
        return "scope", (
            f"{lead}. They name different versions, setups or data sets: the difference may "
            "be one of scope, not an error."
        )
    stronger = a if a.strength >= b.strength else b
    return "error", (
        f"{lead}. Nothing in either suggests a different time or scope, so one of them is "
        f"likely wrong; the stronger source is {stronger.site}."
    )


def _scopes_differ(a: str, b: str) -> bool:
    va, vb = set(_VERSION.findall(a)), set(_VERSION.findall(b))
    return bool(va and vb and va.isdisjoint(vb))


def _best_per_point(found: list[Conflict]) -> list[Conflict]:
    """One contradiction per pair of sentences, and each sentence in at most two, so one
    loud page cannot flood the report."""
    chosen: list[Conflict] = []
    uses: Counter[str] = Counter()
    for c in sorted(found, key=lambda c: -c.weight):
        if uses[c.a.key] >= 2 or uses[c.b.key] >= 2:
            continue
        chosen.append(c)
        uses[c.a.key] += 1
        uses[c.b.key] += 1
    return chosen
