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
from functools import lru_cache
from itertools import combinations

from research.stages.claims import stance_polarity
from research.stages.claims.scope import about_a_part
from research.stages.claims.topics import named_points
from research.stages.text import first_mention, has_cjk, option_names, terms

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
    really actually generally usually often less few lot lots thing things why how
    group groups patient patients participant participants study studies trial trials
    result results week weeks month months year years treatment treated compared
    baseline mean respectively rate rates per vs versus total overall average
    con que para por una del los las como mais não uma dos das les des une est pour pas
    qui dans sur avec cette elle der die das und ist nicht mit für ein eine""".split()
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
# Pairs of words that cannot both hold of one thing. Each side is a regular expression.
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
    # The part of the quote about this option, when the sentence names several
    # ("Svelte ships 5KB; React 40KB"); figures and denials are read from it.
    focus: str = ""
    # A verdict the sentence gives this option outright: -1 for the one beaten in
    # "its tail latency is excellent, often beating Kafka".
    polarity: int | None = None
    # Whether the sentence uses its dimension's own words ("learning curve", "学习曲线"),
    # so that its verdict is a verdict on that dimension, whatever else it says.
    on_dimension: bool = False
    # Whether it states anything (not a heading, a question, a fragment, a sentence about
    # a part of the option): only statements disagree.
    stated: bool = True
    # Whether the reader ties it to the option by more than the page or the paragraph it
    # is on (it names the option, points back to it, sits in its column): only such
    # statements stand for a side; others may join one.
    named: bool = True
    # The careful reader's stance on its dimension, when it was read (claims.reading).
    stance: int | None = None

    @property
    def text(self) -> str:
        return self.focus or self.quote


@dataclass
class Conflict:
    a: Statement
    b: Statement
    attribute: str  # the shared point, in the sources' own words
    why: str  # negation | opposites | comparison | stance | verdict | figures
    kind: str  # time | scope | error
    note: str
    weight: float
    # Other sentences, from other pages, that side with a (or with b) on this point.
    a_also: list[Statement] = field(default_factory=list)
    b_also: list[Statement] = field(default_factory=list)


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
        if a.option != b.option or a.source_id == b.source_id or pair in seen or _asks(a, b):
            continue
        conflict = _judge(a, b, a.words & b.words, rarity)
        if conflict is not None:
            seen.add(pair)
            found.append(conflict)
    return _best_per_point(found)


NEAR_PER_CELL = 2  # near misses proposed per option and dimension


def near_conflicts(statements: list[Statement], limit: int) -> list[tuple[Statement, Statement]]:
    """Pairs this finder does not call a conflict but that speak to the same point, closest
    first: the ones a reader of meaning should judge. Words are what this finder compares,
    so it misses a point said in other words ("no persistence" against "a persistence layer"
    shares one word; an option's brand name shares none), dates said loosely ("early 2024"
    against "October 2024") and a figure in other units. A pair comes close by its shared
    rare words, by its dimension, by both sentences dating or measuring something, and by
    opposite tones; at most NEAR_PER_CELL per option and dimension, so one topic cannot
    take every place."""
    rarity = _rarity(statements)
    ranked: list[tuple[float, Statement, Statement]] = []
    seen: set[frozenset[str]] = set()
    for a, b in combinations(statements, 2):
        pair = frozenset((a.quote, b.quote))
        if a.option != b.option or a.site == b.site or pair in seen or _asks(a, b):
            continue
        closeness = _closeness(a, b, rarity)
        if closeness > 0:
            seen.add(pair)
            ranked.append((closeness, a, b))
    chosen: list[tuple[Statement, Statement]] = []
    cells: Counter[tuple[str, str | None]] = Counter()
    for _, a, b in sorted(ranked, key=lambda r: (-r[0], r[1].key, r[2].key)):
        cell = (a.option, a.dimension or b.dimension)
        if cells[cell] >= NEAR_PER_CELL or _judge(a, b, a.words & b.words, rarity) is not None:
            continue
        chosen.append((a, b))
        cells[cell] += 1
        if len(chosen) >= limit:
            break
    return chosen


def _closeness(a: Statement, b: Statement, rarity: dict[str, float]) -> float:
    """How likely two sentences speak to one point, 0 when nothing suggests it."""
    shared = sum(rarity.get(w, 0.0) for w in a.words & b.words)
    same_dimension = a.dimension is not None and a.dimension == b.dimension
    dated = bool(_YEAR.search(a.text) and _YEAR.search(b.text))
    measured = bool({f.unit for f in figures(a.text)} & {f.unit for f in figures(b.text)})
    tones = _verdict(a) * _verdict(b)
    hints = dated + measured + (tones < 0)
    if shared < MIN_SHARED / 2 and not (same_dimension and hints):
        return 0.0
    return shared + 1.5 * same_dimension + hints


def _asks(*statements: Statement) -> bool:
    """A question asserts nothing."""
    return any(s.quote.rstrip().endswith(("?", "？")) for s in statements)


# Clauses that can carry their own verdict; a comma inside a list does not start one.
_BIG_CLAUSE = re.compile(
    r"[;；。]\s*|,\s+(?:and|but|while|whereas)\s+|\s+(?:but|whereas)\s+|[，,]\s*(?:但|而)"
)
_CLAUSE = re.compile(r"[;；,，、]\s*|\s+(?:and|while|whereas|but)\s+", re.I)


def option_segments(quote: str, options: list[str]) -> dict[str, str]:
    """For a sentence whose clauses have different options as subjects ("Svelte ships
    5KB, React 40KB"), the clauses about each option. A clause belongs to the option it
    opens with, or else to the one before: in "Kafka uses 54x the memory of NATS", NATS
    is the yardstick, not the subject."""
    parts: dict[str, list[str]] = {}
    subject = None
    for clause in _CLAUSE.split(quote):
        opening = [o for o in options if 0 <= first_mention(clause.strip(), o) <= 4]
        if len(opening) == 1:
            subject = opening[0]
        if subject is not None:
            parts.setdefault(subject, []).append(clause)
    return {o: " ".join(c) for o, c in parts.items()} if len(parts) >= 2 else {}


def _rarity(statements: list[Statement]) -> dict[str, float]:
    """Inverse document frequency of each word over the run's key points."""
    df = Counter(w for s in statements for w in s.words)
    n = max(1, len(statements))
    return {w: math.log(n / c) for w, c in df.items() if c <= max(4, n // 6)}


def _judge(
    a: Statement, b: Statement, shared: frozenset[str], rarity: dict[str, float]
) -> Conflict | None:
    shared_weight = sum(rarity.get(w, 0.0) for w in shared)
    why = _why(a, b, shared, shared_weight, rarity)
    if why is None:
        return None
    point = _named(why, a, b, shared, rarity)
    kind, note = _explain(a, b, why, point)
    # Rank by how much of both sentences the shared point is (cosine of their rare words),
    # so two long sentences that share boilerplate do not outrank a pointed disagreement.
    # A sentence's overall tone may not be about the shared point, so opposite stances
    # weigh less than a denial or a different figure.
    cosine = shared_weight / math.sqrt(_mass(a, rarity) * _mass(b, rarity) or 1.0)
    base = MIN_SHARED if why == "verdict" else min(shared_weight, 2 * MIN_SHARED) + 5 * cosine
    # A sentence that names the option itself is surer to be about it than one that
    # borrows it from a heading or the page.
    named = sum(first_mention(s.text, s.option) >= 0 for s in (a, b))
    weight = (
        base * (0.6 if why in ("stance", "verdict") else 1.0)
        + min(a.strength, b.strength) / 50
        + named
    )
    return Conflict(a, b, point, why, kind, note, weight)


def _named(
    why: str, a: Statement, b: Statement, shared: frozenset[str], rarity: dict[str, float]
) -> str:
    """What the two disagree about, in a short phrase from their own words: the point one
    denies, the outcome, the measure two ranks are on, the dimension judged; never a run
    of cut words."""
    if why == "negation":
        return _denied_surface(a, b, rarity) or _denied_surface(b, a, rarity) or ""
    if why == "opposites":
        outcome = _differing_outcome(a.text, b.text)
        return outcome or _opposite_label(a.text, b.text) or ""
    if why == "comparison":
        points = sorted(named_points(a.text) & named_points(b.text), key=len, reverse=True)
        return points[0] if points else (a.dimension or "")
    return a.dimension or ""


def _mass(statement: Statement, rarity: dict[str, float]) -> float:
    return sum(rarity.get(w, 0.0) for w in statement.words)


def _why(
    a: Statement, b: Statement, shared: frozenset[str], weight: float, rarity: dict[str, float]
) -> str | None:
    """Which way two statements on one option disagree about one point, named in both, or
    None. Sharing rare words is never enough: one must deny what the other states, or call
    it the opposite, or rank the option the other way on it, or judge the dimension itself
    the other way. Figures are compared as typed facts (research.stages.claims)."""
    if not (a.stated and b.stated) or a.site == b.site:
        return None
    if _about_a_part(a.text) != _about_a_part(b.text):
        return None  # "the 1.x branch is deprecated" does not deny "actively maintained"
    if _denied_point(a, b, rarity) or _denied_point(b, a, rarity):
        return "negation"
    if weight >= MIN_SHARED and _opposed(a.text, b.text, shared, rarity):
        return "opposites"
    if _results_differ(a.text, b.text):
        return "opposites"  # "a significant reduction in MI" against "a nonsignificant trend"
    if weight >= MIN_SHARED and (a.polarity is not None or b.polarity is not None):
        pa, pb = _verdict(a), _verdict(b)
        if pa and pb and pa != pb and named_points(a.text) & named_points(b.text):
            return "comparison"  # "lowest p99 latency" against "beating it at p99"
        return None
    same_dimension = a.dimension is not None and a.dimension == b.dimension
    if same_dimension and a.on_dimension and b.on_dimension:
        pa, pb = _reading(a), _reading(b)
        if pa and pb and pa != pb:
            return "verdict"  # "easy to learn" against "学习曲线陡峭", in any two languages
    return None


def _reading(statement: Statement) -> int:
    """The careful reader's stance on the statement's dimension, where it was read."""
    return statement.stance if statement.stance is not None else _verdict(statement)


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


def _denied_point(a: Statement, b: Statement, rarity: dict[str, float]) -> str | None:
    """A point `a` denies outright ("no persistence", "不支持离线模式") that `b` states
    without denying it: the same words, in order, close together."""
    for phrase, _ in _denials_with_words(a.text):
        if (
            _worth_a_point(phrase, rarity)
            and not _names_an_option(phrase, a)
            and _states(b.text, phrase)
        ):
            return " ".join(phrase)
    return None


def _names_an_option(phrase: tuple[str, ...], statement: Statement) -> bool:
    """ "Django, not Flask, is the better choice" denies nothing about Flask's points."""
    names = {_stem(t) for name in option_names(statement.option) for t in terms(name)}
    return any(word in names for word in phrase)


def _denied_surface(a: Statement, b: Statement, rarity: dict[str, float]) -> str | None:
    """The denied point as `a` writes it ("offline mode", "persistence")."""
    for phrase, words in _denials_with_words(a.text):
        if (
            _worth_a_point(phrase, rarity)
            and not _names_an_option(phrase, a)
            and _states(b.text, phrase)
        ):
            return words
    return None


def _denials(text: str) -> tuple[tuple[str, ...], ...]:
    return tuple(phrase for phrase, _ in _denials_with_words(text))


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
            stems = tuple(_stem(w.lower()) for w in content[:3])
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
    words = [_stem(w) for w in re.findall(r"[a-z0-9][\w'-]*", text.lower())]
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


def _opposed(a: str, b: str, shared: frozenset[str], rarity: dict[str, float]) -> bool:
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


def _results_differ(a: str, b: str) -> bool:
    """One reports a reduction in an outcome that the other reports as not significant:
    the same named outcome ("non-fatal myocardial infarction"), opposite findings."""
    return _differing_outcome(a, b) is not None


def _differing_outcome(a: str, b: str) -> str | None:
    found_a, found_b = _results(a), _results(b)
    for point, found in found_a.items():
        if found_b.get(point) not in (None, found):
            return point
    return None


@lru_cache(maxsize=8192)
def _results(text: str) -> dict[str, str]:
    """{outcome: "yes" | "no"} for each named outcome a finding word stands just before,
    in the same clause."""
    found: dict[str, str] = {}
    for clause in _BIG_CLAUSE.split(text):
        for point, start in _outcomes(clause):
            before = clause[max(0, start - 70) : start]
            if _RESULT_NO.search(before):
                found.setdefault(point, "no")  # "a nonsignificant trend towards a reduction"
            elif _RESULT_YES.search(before):
                found.setdefault(point, "yes")
    return found


def _outcomes(clause: str) -> list[tuple[str, int]]:
    """Named outcomes of more than one word ("cardiovascular death", "non-fatal stroke"),
    or one that is not a bare modifier: the point a finding is about."""
    points = []
    for match in _OUTCOME.finditer(clause):
        points.append(
            (re.sub(r"[\s-]+", " ", match.group(0).lower()).replace("non ", "non"), match.start())
        )
    return points


_OUTCOME = re.compile(
    r"\b(?:non-?fatal )?(?:myocardial infarction|stroke|cardiovascular death|cv death|"
    r"all-cause mortality|death from any cause|hospitali[sz]ation for heart failure|"
    r"heart failure|mace|major adverse cardiovascular events|cardiovascular events|"
    r"hypoglyca?emia|hba1c|body weight)\b",
    re.I,
)


def _opposite_label(a: str, b: str) -> str | None:
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


def _dimension_verdicts(a: Statement, b: Statement, same_dimension: bool) -> str | None:
    if not (same_dimension and a.on_dimension and b.on_dimension):
        return None
    pa, pb = _verdict(a), _verdict(b)
    return "verdict" if pa and pb and pa != pb else None


_about_a_part = lru_cache(maxsize=8192)(about_a_part)


@lru_cache(maxsize=8192)
def _stance(text: str) -> int:
    # Every sentence meets every other: read each one's tone once.
    return stance_polarity(text)


def _verdict(statement: Statement) -> int:
    if statement.polarity is not None:
        return statement.polarity
    return _stance(statement.text)


_BEATEN = re.compile(
    r"\b(?:beat(?:s|ing)?|outperform(?:s|ing|ed)?|faster than|better than|cheaper than|"
    r"ahead of|surpass(?:es|ing)?|edges? out)\s+(?:the\s+)?$|(?:胜过|优于|超过|快于)\s*$",
    re.I,
)


def beaten(quote: str, option: str) -> bool:
    """Whether the sentence names `option` only as what its subject beats."""
    at = first_mention(quote, option)
    return at > 0 and bool(_BEATEN.search(quote[max(0, at - 30) : at]))


def _negated(quote: str, shared: frozenset[str]) -> bool:
    """Whether a negation governs one of the shared words: at most two words stand
    between them ("no persistence", "doesn't do persistent messaging", "not yet
    available"). "Not just X but Y" affirms X."""
    lowered = _NOT_A_DENIAL.sub(" ", quote.lower())
    for word in sorted(shared):
        at = lowered.find(word)
        while at >= 0:
            if _NEGATION_BEFORE.search(lowered[max(0, at - 40) : at]) or (
                has_cjk(word) and NEGATION.search(lowered[max(0, at - 3) : at])
            ):
                return True
            at = lowered.find(word, at + 1)
    return False


_NEGATION_BEFORE = re.compile(r"(?:" + NEGATION.pattern + r")(?:\s+[\w'-]+)?\s+$", re.I)


@dataclass(frozen=True)
class Figure:
    unit: str
    value: float
    context: frozenset[str]  # the words just around the number: what it measures


@lru_cache(maxsize=8192)
def figures(quote: str) -> tuple[Figure, ...]:
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
    return tuple(found)


_STATS = re.compile(r"\b9[059]\s?%\s?(?:CI|confidence)\b[^;)]*|\bp\s?[<=>]\s?0?\.\d+", re.I)
CONTEXT_CHARS = 40


def _around(text: str, match: re.Match[str]) -> frozenset[str]:
    window = text[max(0, match.start() - CONTEXT_CHARS) : match.end() + CONTEXT_CHARS // 2]
    return frozenset(_stem(t) for t in terms(window) if t not in GENERIC and not t[0].isdigit())


def _float(text: str) -> float:
    return float(text.replace(",", ""))


# Units specific enough that two figures in them on one dimension measure the same thing.
SPECIFIC_UNITS = frozenset("kb mb gb ms msg/s req/s rps $ € £ ¥".split())


def _figures_differ(a: str, b: str, shared: frozenset[str], same_dimension: bool) -> bool:
    """Two figures in one unit that measure the same thing (a shared word next to each,
    or a specific unit on the same dimension) and differ, while neither has a match on
    the other side."""
    fa, fb = figures(a), figures(b)
    for x in fa:
        for y in fb:
            alike = x.context & y.context & shared or (same_dimension and x.unit in SPECIFIC_UNITS)
            if x.unit != y.unit or not alike:
                continue
            if not _close_to_any(x.value, {f.value for f in fb if f.unit == x.unit}) and not (
                _close_to_any(y.value, {f.value for f in fa if f.unit == y.unit})
            ):
                return True
    return False


def _close_to_any(x: float, values: set[float]) -> bool:
    return any(abs(x - y) <= TOLERANCE * max(abs(x), abs(y), 1e-9) for y in values)


def _point(shared: frozenset[str], rarity: dict[str, float], quote: str) -> str:
    """What the two sentences are both about, in the first one's words: the stretch of it
    that holds the rarest shared words when they stand close together ("plugin API
    breaks"), else those words; shared CJK bigrams that follow each other are joined back
    into their phrase."""
    lowered = quote.lower()
    phrases = _cjk_phrases(lowered, shared)
    latin = sorted((w for w in shared if not has_cjk(w)), key=lambda w: (-rarity.get(w, 0.0), w))
    words = [_surface(quote, w) for w in latin[:3]]
    stretch = _stretch(quote, words) or _stretch(quote, words[:2])
    if stretch and not phrases:
        return stretch
    chosen = [*phrases[:2], *words][:3]
    return " ".join(sorted(chosen, key=lambda w: (lowered.find(w.lower()) + 1) or len(lowered)))


def _stretch(quote: str, words: list[str], most: int = 6) -> str | None:
    """The words of `quote` from the first of `words` to the last, if at most `most`."""
    spots = [quote.lower().find(w.lower()) for w in words if w]
    if len(spots) < 2 or min(spots) < 0:
        return None
    start, end = min(spots), max(spots) + len(words[spots.index(max(spots))])
    span = quote[start:end].strip(" :;,.")
    return span if len(span.split()) <= most else None


def _surface(quote: str, stem: str) -> str:
    """The word as the quote writes it: "queues" for the stem "queu"."""
    match = re.search(r"(?<![A-Za-z0-9])" + re.escape(stem) + r"[\w-]*", quote, re.I)
    return match.group(0) if match else stem


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
        "figures": "they give different figures",
        "negation": "one states it, the other denies it",
        "opposites": "they describe it in opposite terms",
        "comparison": "one puts it ahead, the other behind",
        "verdict": "they judge this dimension in opposite directions",
        "stance": "they judge it in opposite directions",
    }[why]
    lead = f"On “{point}”, {a.site} and {b.site} disagree: {what}"
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
        f"{lead}. Neither dates or scopes its statement, so the difference is unexplained: "
        f"one may be wrong or out of date. The stronger source is {stronger.site}."
    )


def _scopes_differ(a: str, b: str) -> bool:
    va, vb = set(_VERSION.findall(a)), set(_VERSION.findall(b))
    return bool(va and vb and va.isdisjoint(vb))


PER_CELL = 4  # the strongest few disagreements per option and dimension


def _best_per_point(found: list[Conflict]) -> list[Conflict]:
    """Strongest first. A disagreement that shares a side with one already chosen joins it
    (one page against three is one contradiction with three on a side, not three); at
    most PER_CELL per option and dimension, so one loud topic cannot flood the report."""
    chosen: list[Conflict] = []
    by_side: dict[str, tuple[Conflict, str]] = {}  # statement key -> (conflict, its side)
    cells: Counter[tuple[str, str | None]] = Counter()
    for c in sorted(found, key=lambda c: (not (c.a.named and c.b.named), -c.weight)):
        if _join(c, by_side) or not (c.a.named and c.b.named):
            continue
        cell = (c.a.option, c.a.dimension or c.b.dimension)
        if c.a.key in by_side or c.b.key in by_side or cells[cell] >= PER_CELL:
            continue
        chosen.append(c)
        by_side[c.a.key], by_side[c.b.key] = (c, "a"), (c, "b")
        cells[cell] += 1
    return chosen


def _join(c: Conflict, by_side: dict[str, tuple[Conflict, str]]) -> bool:
    for mine, other in ((c.a, c.b), (c.b, c.a)):
        if mine.key not in by_side or other.key in by_side:
            continue
        chosen, side = by_side[mine.key]
        # `other` disagrees with this side, so it stands with the opposite one.
        against = "b" if side == "a" else "a"
        joining = chosen.b_also if against == "b" else chosen.a_also
        same_page = [
            s for s in (getattr(chosen, against), *joining) if s.source_id == other.source_id
        ]
        if same_page:
            _prefer_naming(chosen, against, same_page[0], other, by_side)
        elif len(joining) < ALSO:
            joining.append(other)
            by_side[other.key] = (chosen, against)
        return True
    return False


def _prefer_naming(
    chosen: Conflict,
    side: str,
    present: Statement,
    other: Statement,
    by_side: dict[str, tuple[Conflict, str]],
) -> None:
    """One sentence speaks for a page on a side: one that names the option, if any."""
    if (
        first_mention(present.text, present.option) >= 0
        or first_mention(other.text, other.option) < 0
    ):
        return
    if getattr(chosen, side) is present:
        setattr(chosen, side, other)
    else:
        joining = chosen.a_also if side == "a" else chosen.b_also
        joining[joining.index(present)] = other
    del by_side[present.key]
    by_side[other.key] = (chosen, side)


ALSO = 3  # sentences listed beside each side
