"""The careful reader: the stances one sentence takes, each on one option and dimension.

A stance is read only from a clause that
- is about its option: names it as more than a yardstick or an example, opens with a
  pronoun after a sentence about it, or sits in its table column or pros/cons list;
- speaks to the dimension: one of the dimension's cues (topics.py) in the same clause;
- judges it: an evaluative word, a comparison, a result against a reference, or a
  verdict the dimension's own words make ("open source" on a licence).
Anything less is a statement: quotable, never scored. A judging word counts for the
dimension whose cue stands next to it, so "fast, with a steep learning curve" is good on
speed and bad on learning; a sentence that praises and faults one dimension ("fast, but
complex queries are slow") takes no stance on it.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from research.stages.claims.comparisons import compare
from research.stages.claims.gate import foreign, not_a_statement
from research.stages.claims.mentions import mentions_of
from research.stages.claims.results import NEUTRAL, results_hits
from research.stages.claims.scope import scope_of
from research.stages.claims.stances import neutral_masked, stance_hits, turn
from research.stages.claims.topics import cue_pattern, other_cues, verdict_patterns
from research.stages.text import has_cjk

# How a key point came to be about its option (KeyPoint.about).
NAMED, PRONOUN, TABLE, HEADING, PARAGRAPH, PAGE = (
    "named",
    "pronoun",
    "table",
    "heading",
    "paragraph",
    "page",
)
_OUT_OF_SCOPE = ("component", "old version", "past")
NO_JUDGEMENT = "no judgement on a dimension"
OTHER = "~other"  # a judging word about something no dimension of the run is about
REACH = 36  # characters between a judging word and the cue it judges (Chinese: a third)


@dataclass(frozen=True)
class Stance:
    option: str
    dimension: str
    polarity: int


@dataclass(frozen=True)
class Reading:
    stances: tuple[Stance, ...] = ()
    refused: str | None = None  # why the sentence takes no stance, when it takes none


@dataclass(frozen=True)
class Point:
    """A key point as the reader sees it."""

    quote: str
    option: str | None
    about: str | None = NAMED
    polarity: int | None = None  # the verdict of its table column or pros/cons list
    header: str | None = None
    before: str = ""  # the stored text just before and after the quote
    after: str = ""
    cell: str | None = None  # a table cell's own text, when the quote is its whole row


@dataclass
class _Clause:
    text: str
    subjects: list[str] = field(default_factory=list)
    rivals: list[str] = field(default_factory=list)  # "an alternative to X": X
    contrast: bool = False  # opens with "but", "although", "但"
    aside: bool = False  # what the option suits ("Best for: ..."), which judges nothing


def read_stances(
    point: Point,
    options: Sequence[str],
    dimensions: Sequence[str],
    aliases: dict[str, tuple[str, ...]] | None = None,
) -> Reading:
    """The stances the point takes, or why it takes none."""
    aliases = aliases or {}
    quote = point.quote
    if point.about != TABLE:
        reason = not_a_statement(quote, point.before, point.after)
        if reason:
            return Reading(refused=reason)
    if foreign(quote):
        return Reading(refused="not in a language the reader reads")
    scope = _out_of_scope(quote, options, aliases)
    if scope and not _clauses_in_scope(point, options, aliases):
        return Reading(refused=f"about {scope}")
    if point.about == TABLE and point.cell is not None:
        return _table_reading(point, dimensions)
    ranked = _ranked(quote, options, dimensions, aliases)
    if ranked:
        return Reading(stances=ranked)
    found: dict[tuple[str, str], list[int]] = {}
    for verdicts in _verdicts_by_clause(
        _clauses(point, options, aliases), options, dimensions, aliases
    ):
        for (option, dim), sign in verdicts.items():
            found.setdefault((option, dim), []).append(sign)
    if not found and point.about == TABLE and point.option and point.polarity:
        found = {(point.option, d): [point.polarity] for d in _dims_named(quote, dimensions)}
    stances = tuple(
        Stance(option, dimension, signs[0])
        for (option, dimension), signs in found.items()
        if len(set(signs)) == 1  # praised and faulted in one sentence: mixed, no stance
    )
    return Reading(stances=stances, refused=None if stances else NO_JUDGEMENT)


def _verdicts_by_clause(
    clauses: list[_Clause], options: Sequence[str], dimensions: Sequence[str], aliases: dict
) -> list[dict[tuple[str, str], int]]:
    """Each clause's verdicts. Judging words that stand by no cue take the one dimension
    of the clause a "but" sets them against: "easy at first, but a burden later" and
    "updates efficiently, but re-renders cost performance" are mixed."""
    read = [_clause_verdicts(c, options, dimensions, aliases) for c in clauses]
    verdicts = [v for v, _ in read]
    for i, clause in enumerate(clauses):
        loose = read[i][1]
        if verdicts[i] or not loose:
            continue
        for j in (i - 1, i + 1):
            if not 0 <= j < len(clauses):
                continue
            dims = {d for _, d in verdicts[j]}
            same_subject = clauses[j].subjects == clause.subjects
            if clauses[max(i, j)].contrast and same_subject and len(dims) == 1:
                sign = 1 if loose > 0 else -1
                verdicts[i] = {(o, next(iter(dims))): sign for o in clause.subjects}
                break
    return verdicts


def _ranked(
    quote: str, options: Sequence[str], dimensions: Sequence[str], aliases: dict
) -> tuple[Stance, ...]:
    """A sentence that ranks options against each other on one dimension ("X, not Y, is
    the better choice for beginners", "X is faster than Y")."""
    ranked = compare(quote, list(options))
    if not ranked:
        return ()
    dims = _dims_of(_cue_hits(_masked(quote, options, aliases), dimensions))
    if len(dims) != 1:
        return ()
    return tuple(Stance(o, dims[0], p) for o, p in ranked.items())


def options_spoken_of(
    point: Point, options: Sequence[str], aliases: dict[str, tuple[str, ...]] | None = None
) -> set[str]:
    """The options the point speaks about as the reader attributes clauses: named as more
    than a yardstick, pointed back to, or in a table column or list of it."""
    aliases = aliases or {}
    if point.about == TABLE and point.option:
        return {point.option}
    found = set(compare(point.quote, list(options)))
    for clause in _clauses(point, options, aliases):
        found.update(clause.subjects)
        found.update(clause.rivals)
    return found


def _out_of_scope(text: str, options: Sequence[str], aliases: dict) -> str | None:
    """What makes a text about something other than the option today: one of its parts,
    an old version, the past, or another product it runs with ("clusters with ZooKeeper")."""
    scope = scope_of(text)
    if scope and scope.split(":")[0] in _OUT_OF_SCOPE:
        return scope
    for match in _WITH_PRODUCT.finditer(text):
        if not _mentions(match.group(1), options, aliases):
            return f"another product: {match.group(1)}"
    return None


def _clauses_in_scope(point: Point, options: Sequence[str], aliases: dict) -> bool:
    """Whether some clause of the point is about the option today ("was once slow, but it
    is now the fastest": the second clause is)."""
    clauses = _clauses(point, options, aliases)
    return len(clauses) > 1 and any(not _out_of_scope(c.text, options, aliases) for c in clauses)


# "with ZooKeeper", "on top of PostgreSQL": a product named in CamelCase beside the option.
_WITH_PRODUCT = re.compile(
    r"\b(?:clusters?|setups?|deployments?|installations?|mode|versions?|configurations?|"
    r"running|backed|built|bottlenecks?|limitations?|problems?|issues?|trouble)\s+"
    r"(?:with|on top of|alongside|on|by|in)\s+([A-Z][a-z]+(?:[A-Z][A-Za-z]*)?)\b"
)


def _table_reading(point: Point, dimensions: Sequence[str]) -> Reading:
    """A table cell: its column's option, the dimension its row names, its verdict. A cell
    whose own words praise and fault ("very fast, large runtime") gives none."""
    cell = point.cell or ""
    dims = _dims_named(point.header or "", dimensions) or _dims_named(cell, dimensions)
    if len(dims) != 1 or not point.option:
        return Reading(refused=NO_JUDGEMENT)
    polarity = point.polarity or _cell_verdict(cell, dims[0], dimensions)
    if not polarity:
        return Reading(refused=NO_JUDGEMENT)
    return Reading(stances=(Stance(point.option, dims[0], polarity),))


def _cell_verdict(cell: str, dimension: str, dimensions: Sequence[str]) -> int:
    """What a cell's own words judge on its row's dimension ("Always persistent")."""
    total = sum(
        w * _turned(cell, s, e) for s, e, w, d in _verdict_hits(cell, dimensions) if d == dimension
    )
    return (total > 0) - (total < 0)


def _dims_named(text: str, dimensions: Sequence[str]) -> list[str]:
    return [d for d in dimensions if (p := cue_pattern(d)) is not None and p.search(text)]


# --- clauses and who they are about -------------------------------------------------------

_CONTRAST_WORDS = r"(?:but|however|whereas|while|although|though|yet|except|nonetheless)"
_HARD_BREAK = re.compile(
    r"\s*[;；:：]\s*|\s+[—–]\s+|\s+-\s+|(?<=\S)[—–](?=\S)|"
    rf",?\s+(?={_CONTRAST_WORDS}\b)|"
    r"[，,]\s*(?=(?:但|但是|而|不过|然而|可是|却|虽然|尽管))|(?<=[。])",
    re.I,
)
_CONTRAST = re.compile(rf"^\s*(?:{_CONTRAST_WORDS}\b|但|但是|而|不过|然而|可是|却|虽然|尽管)", re.I)
_SOFT_BREAK = re.compile(r"[,，、]\s*")
# A pronoun that points back to one option; "they" and "它们" may mean several.
_PRONOUN = re.compile(
    r"^\s*(?:(?:but|however|and|yet|although|though|while|whereas)\s+)?"
    r"(?:it|its|it's|the (?:project|framework|library|tool|drug|"
    r"software|product|platform|service|broker|database|app))\b|"
    r"^\s*(?:但|而|不过)?(?:它(?!们)|其|该)",
    re.I,
)
# A list item that opens with another product's name ("ZooKeeper security lags ...") is
# about that product, not the option its heading names.
_OTHER_NAME_FIRST = re.compile(r"^\s*(?:[-*+•·▪◦‣]|\d{1,2}[.)、])?\s*[A-Z][a-z]+[A-Z]\w*")
# Where an option is named as a yardstick or an example, not as what is judged.
_REFERENCE = re.compile(
    r"(?:\bthan|\binstead of|\brather than|\bunlike|\bcompared (?:to|with)|"
    r"\brelative to|\bversus|\bvs\.?|\blike|\bsuch as|\bincluding|\bover|\bfrom|\bbeyond|"
    r",\s*not|\boutperform(?:s|ed|ing)?|\bbeats?|\bbeating|\bsurpass(?:es|ed)?|\bbehind|"
    r"\bahead of|\b(?:reduc|lower|cut|sav)\w*\s+(?:the\s+)?(?:costs?|prices?|bills?)\s+"
    r"(?:of|for|on)|"
    r"\d(?:\.\d+)?\s*(?:x|×|times)\s+(?:(?:more|less|the)\s+)*(?:[\w-]+\s+){0,2}of|"
    r"相比|比|像|如|例如|比如|包括)\s*(?:the\s+)?$",
    re.I,
)
_RIVAL = re.compile(
    r"(?:\balternatives? (?:to|for)|\breplacements? for|\bsubstitutes? for|替代)\s*(?:the\s+)?$",
    re.I,
)
# "the Kafka protocol", "a Redis-compatible store": a mention naming something else.
_MODIFIER = re.compile(
    r"^(?:-?compatible|[- ](?:protocol|api|apis|wire protocol|clones?|forks?|wrappers?|"
    r"compatible|client|clients|connectors?|plugins?|alternatives?|killer|cli|sdks?|"
    r"dashboard|console|operator|exporter|driver|drivers)\b)",
    re.I,
)
# "Best for: ...", "适用场景：...": what follows describes uses, not the option.
_USE_CASE_LEAD = re.compile(
    r"(?:\b(?:best|ideal|good|great|suitable|suited|perfect) for|\buse cases?|\bwhen to use|"
    r"适用场景|适用于|适合|使用场景|应用场景)\s*[:：]?\s*$",
    re.I,
)
_LIST_JOIN = re.compile(r"^\s*(?:,|、|/|&|\band\b|\bor\b|和|与|及)\s*(?:\bboth\b\s*)?$", re.I)


def _clauses(point: Point, options: Sequence[str], aliases: dict) -> list[_Clause]:
    """The quote's clauses, each with the options it is about. A comma-level piece that
    names another option starts a clause of its own ("Svelte renders fastest, Vue balances
    speed and reactivity, React needs care"); a piece naming none continues the clause."""
    quote = point.quote
    spans: list[list] = []  # [start, end, subjects, rivals]
    for start, end, opens in _pieces(quote):
        subjects, rivals = _subjects(quote[start:end], options, aliases)
        last = spans[-1] if spans else None
        if last is None or opens or (subjects and last[2] and subjects != last[2]):
            spans.append([start, end, subjects, rivals])
            continue
        last[1] = end
        last[2] = last[2] or subjects
        last[3] = last[3] + rivals
    clauses = [
        _Clause(quote[s:e], subjects, rivals, bool(_CONTRAST.match(quote[s:e])))
        for s, e, subjects, rivals in spans
    ]
    for lead, clause in itertools.pairwise(clauses):
        clause.aside = bool(_USE_CASE_LEAD.search(lead.text))
    _inherit(clauses, _first_subject(point), aliases)
    return clauses


def _inherit(clauses: list[_Clause], first: list[str], aliases: dict) -> None:
    """A clause that names nobody is about the one before it; the first is about the
    point's option when the point itself is (a pronoun, a heading over a list item). A
    concession names its subject after it: "Although small, the Vue ecosystem ..."."""
    for i, clause in enumerate(clauses):
        if clause.subjects:
            continue
        if i:
            clause.subjects = list(clauses[i - 1].subjects)
        elif first:
            clause.subjects = list(first)
        elif (
            len(clauses) > 1
            and not clause.rivals
            and (clauses[1].contrast or _only_names(clauses[1].text, clauses[1].subjects, aliases))
        ):
            clause.subjects = list(clauses[1].subjects)  # "Best lightweight fabric: NATS."


def _only_names(text: str, subjects: list[str], aliases: dict) -> bool:
    left = _masked(text, subjects, aliases)
    return bool(subjects) and not re.search(r"\w", left)


def _first_subject(point: Point) -> list[str]:
    if point.option is None:
        return []
    if point.about in (PRONOUN, TABLE) and _PRONOUN.match(point.quote):
        return [point.option]
    if point.about == TABLE:
        return [point.option]
    if point.about in (HEADING, PARAGRAPH) and _is_bullet(point.quote):
        return [] if _OTHER_NAME_FIRST.match(point.quote) else [point.option]
    return []


def _is_bullet(quote: str) -> bool:
    return bool(re.match(r"^\s*(?:[-*+•·▪◦‣]|\d{1,2}[.)、])\s+", quote))


def _pieces(quote: str) -> list[tuple[int, int, bool]]:
    """(start, end, opens a clause) of the quote's comma-level pieces: a piece after a
    hard break (a semicolon, a colon, a dash, "but") opens a clause of its own."""
    out: list[tuple[int, int, bool]] = []
    hard_at = 0
    for hard in [*_HARD_BREAK.finditer(quote), None]:
        end = hard.start() if hard else len(quote)
        opens = True
        soft_at = hard_at
        for soft in [*_SOFT_BREAK.finditer(quote, hard_at, end), None]:
            piece_end = soft.end() if soft else end
            if quote[soft_at:piece_end].strip():
                out.append((soft_at, piece_end, opens))
                opens = False
            soft_at = piece_end
        hard_at = hard.end() if hard else len(quote)
    return out


def _subjects(text: str, options: Sequence[str], aliases: dict) -> tuple[list[str], list[str]]:
    """(the options a piece is about, the options it offers an alternative to). What it
    is about is the first option it names as more than a yardstick, an example or part of
    another name, with any listed along with it ("Django and Flask both ...")."""
    named, rivals = [], []
    previous: tuple[int, str] | None = None  # end and role of the mention before
    for start, end, option in _mentions(text, options, aliases):
        before = text[max(0, start - 28) : start]
        listed = previous is not None and _LIST_JOIN.match(text[previous[0] : start])
        if _RIVAL.search(before) or (listed and previous and previous[1] == "rival"):
            rivals.append(option)
            role = "rival"
        elif _REFERENCE.search(before) or (listed and previous and previous[1] == "yardstick"):
            role = "yardstick"  # "such as Quillsync and Loamdb": both are examples
        elif _MODIFIER.match(text[end:]):
            role = "part"
        else:
            named.append((start, end, option))
            role = "subject"
        previous = (end, role)
    if not named:
        return [], rivals
    chosen = [named[0]]
    for mention in named[1:]:
        if not _LIST_JOIN.match(_unbracketed(text[chosen[-1][1] : mention[0]])):
            break
        chosen.append(mention)
    return list(dict.fromkeys(o for _, _, o in chosen)), rivals


def _unbracketed(text: str) -> str:
    """ "1Password (commercial SaaS) and " lists as "1Password and "."""
    return re.sub(r"\s*[(（][^()（）]*[)）]\s*", " ", text)


def _mentions(text: str, options: Sequence[str], aliases: dict) -> list[tuple[int, int, str]]:
    found = mentions_of(text, options)
    for option, names in aliases.items():
        for name in names:
            for m in re.finditer(r"(?<![\w])" + re.escape(name) + r"(?![\w])", text, re.I):
                if not any(s < m.end() and m.start() < e for s, e, _ in found):
                    found.append((m.start(), m.end(), option))
    return sorted(found)


# --- what a clause says about a dimension -------------------------------------------------

# Words that name a thing without judging it: an indirect question ("how fast it is"),
# what the option suits ("suitable for complex apps"), what options differ in.
_NOT_JUDGED = re.compile(
    r"\bhow (?:fast|slow|efficient|efficiently|easy|easily|hard|good|well|reliable|secure|"
    r"much|many|big|small|scalable|mature|stable|popular|complex)\b|\bwhether\b[^,;]*|"
    r"\b(?:suitable|suited|ideal|great|best|good|perfect|designed|intended|meant) for\b.*|"
    r"\bwhen (?:building|you need|you want)\b.*|"
    r"\bdiffer(?:s|ing)? (?:mainly |mostly |primarily |chiefly )?(?:in|on)\b.*|"
    r"\btrade-?offs? (?:between|in|of)\b.*|"
    r"\b(?:might|may|could) (?:have )?(?:contributed|contribute|explained|explain|"
    r"accounted|account|been due|be due)\b.*|"
    r"(?:适合|适用于?|适用场景|用于|面向)[^，,。；;]*|是否[^，,。；;]*|"
    r"\b(?:at|under|with) (?:very |relatively )?(?:low|lower|high|higher|moderate|heavy|light|"
    r"small|large|larger|smaller) (?:throughputs?|loads?|volumes?|scale|traffic|concurrency|"
    r"message rates?|sizes?)\b|\bfor more\b[^,;]*",
    re.I,
)


def _clause_verdicts(
    clause: _Clause, options: Sequence[str], dimensions: Sequence[str], aliases: dict
) -> tuple[dict[tuple[str, str], int], float]:
    """({(option, dimension): sign} for what the clause judges, the verdict of its judging
    words that stand by no cue)."""
    if (not clause.subjects and not clause.rivals) or clause.aside:
        return {}, 0.0
    if _out_of_scope(clause.text, options, aliases):
        return {}, 0.0
    text = _masked(clause.text, options, aliases)
    cues = _cue_hits(text, dimensions)
    ranked = compare(clause.text, list(options))
    if ranked:
        dims = _dims_of(cues)
        return ({(o, dims[0]): p for o, p in ranked.items()} if len(dims) == 1 else {}), 0.0
    totals, loose = _signs(text, cues, dimensions)
    signs = {d: (1 if t > 0 else -1) for d, t in totals.items() if abs(t) >= 0.5}
    verdicts = {(o, d): s for d, s in signs.items() for o in clause.subjects}
    # "A lighter alternative to X": what the alternative is praised for, X lacks.
    for rival in clause.rivals:
        for d, s in signs.items():
            verdicts.setdefault((rival, d), -s)
    return verdicts, loose


def _masked(text: str, options: Sequence[str], aliases: dict) -> str:
    for start, end, _ in _mentions(text, options, aliases):
        text = text[:start] + " " * (end - start) + text[end:]
    text = text.replace("\u2019", "'")
    text = _NOT_JUDGED.sub(lambda m: " " * len(m.group(0)), text)
    return neutral_masked(text)


def _cue_hits(text: str, dimensions: Sequence[str]) -> list[tuple[int, int, str]]:
    hits = []
    for dim in dimensions:
        pattern = cue_pattern(dim)
        if pattern is not None:
            hits += [(m.start(), m.end(), dim) for m in pattern.finditer(text)]
    return hits


def _dims_of(cues: list[tuple[int, int, str]]) -> list[str]:
    return list(dict.fromkeys(d for _, _, d in cues))


Hit = tuple[int, int, float, str]


def _signs(
    text: str, cues: list[tuple[int, int, str]], dimensions: Sequence[str]
) -> tuple[dict[str, float], float]:
    """({dimension: summed verdict}, the verdict of judging words near no cue). A
    dimension's own verdict words and reported results are read first; a general
    evaluative word over the same words adds nothing. A neutral result ("no significant
    difference") leaves its dimension without a stance."""
    generic = stance_hits(text)
    wider = [h for h in generic if any(s < h.end and h.start < e for s, e, _ in cues)]
    read: list[Hit] = []
    for s, e, w, d in _verdict_hits(text, dimensions):
        # "low operational overhead", "adds only 3% overhead": the wider reading holds the
        # verdict word with what qualifies it.
        if any(h.start <= s and e <= h.end and (h.end - h.start) > (e - s) for h in wider):
            continue
        read.append((s, e, w * _turned(text, s, e), d))
    others = other_cues(text, dimensions)
    blocked: set[str] = set()
    loose = 0.0
    for start, end, weight in results_hits(text):
        dim = _nearest_dimension(text, start, end, cues)
        if dim is not None and weight == NEUTRAL:
            blocked.add(dim)
        elif dim is not None and not _overlaps_any(start, end, read):
            read.append((start, end, weight * _turned(text, start, end), dim))
    for start, end, weight, amount in generic:  # already turned by their context
        if _overlaps_any(start, end, read):
            continue
        dim = _nearest_dimension(text, start, end, cues, others)
        if amount and not any(s < end and start < e for s, e, _ in cues):
            continue  # "an extensive feature set": a level of something no dimension names
        if dim == OTHER or _attributive(text, end, cues):
            continue  # "steep learning curve" on a run about speed; "a flexible architecture"
        if dim is None:
            loose += weight
        else:
            read.append((start, end, weight, dim))
    totals: dict[str, float] = {}
    for _, _, weight, dim in read:
        if dim not in blocked:
            totals[dim] = totals.get(dim, 0.0) + weight
    return totals, loose


_SMALL = re.compile(r"\b(?:small|slight|modest|marginal|minimal|minor)(?:\s+but\s+\w+)?\s+$", re.I)
_ONLY = re.compile(
    r"^[\"'”’)\s]{0,4}(?:\w+\s+){0,2}?only\s+(?:covers?|appl(?:y|ies)|works?|supports?|handles?|"
    r"guarantees?|holds?)\b",
    re.I,
)


def _turned(text: str, start: int, end: int) -> float:
    """A verdict or result as the words around it leave it: negated, fixed or hedged as
    any cue is (stances.turn); "a small reduction" is no finding; an "exactly-once" that
    "only covers" some pipelines is a limit, not a strength."""
    if _SMALL.search(text[max(0, start - 24) : start]):
        return 0.0
    if _ONLY.match(text[end : end + 40]):
        return -1.0
    return turn(text, start, end)


def _overlaps_any(start: int, end: int, read: list[Hit]) -> bool:
    return any(s < end and start < e for s, e, _, _ in read)


def _verdict_hits(text: str, dimensions: Sequence[str]) -> list[Hit]:
    """What a dimension's own words judge, the longest reading of a stretch first ("not
    open source" over "open source")."""
    hits: list[Hit] = []
    for dim in dimensions:
        good, bad = verdict_patterns(dim)
        for pattern, sign in ((good, 1.0), (bad, -1.0)):
            if pattern is not None:
                hits += [(m.start(), m.end(), sign, dim) for m in pattern.finditer(text)]
    hits.sort(key=lambda h: -(h[1] - h[0]))
    kept: list[Hit] = []
    for hit in hits:
        inside = [k for k in kept if hit[0] < k[1] and k[0] < hit[1]]
        # The same words on two dimensions may both count ("cheap and open source"), but
        # a shorter reading inside a longer one does not ("fastest-growing" is not fast).
        if any(k[3] == hit[3] or (k[0] <= hit[0] and hit[1] <= k[1]) for k in inside):
            continue
        kept.append(hit)
    return kept


def _nearest_dimension(
    text: str,
    start: int,
    end: int,
    cues: list[tuple[int, int, str]],
    others: list[tuple[int, int, str]] = (),  # type: ignore[assignment]
) -> str | None:
    """The dimension a judging word judges: its own, if it is one of the dimension's cues,
    else the one whose cue stands nearest within reach; None when none is in reach or two
    are equally near, OTHER when what it judges is something no dimension of the run is
    about (a cue of another topic: "latency" on a run about throughput)."""
    own = {d for s, e, d in cues if s < end and start < e}
    if len(own) == 1:
        return own.pop()
    if not own and any(s < end and start < e for s, e, _ in others):
        return OTHER
    cues = [*cues, *others]
    reach = REACH // 3 if has_cjk(text[start:end]) else REACH
    distances: dict[str, int] = {}
    for s, e, d in cues:
        if own and d not in own:
            continue
        gap = max(s - end, start - e, 0)
        if gap <= reach:
            distances[d] = min(gap, distances.get(d, gap))
    if not distances:
        return None
    best = min(distances.values())
    nearest = [d for d, g in distances.items() if g == best]
    if len(nearest) != 1:
        return None
    return OTHER if nearest[0].startswith("~") else nearest[0]


_FUNCTION_NEXT = re.compile(
    r"^\s*(?:(?:and|or|but|to|for|with|in|on|at|of|by|as|than|when|if|because|so|yet|"
    r"compared|overall|enough|too|is|are|was|were|be|been|has|have|had|can|could|will|"
    r"would|may|might|should|must|does|do|did|makes?|made|means?|remains?|becomes?|gets?|"
    r"case|choice|option|fit|bet|pick|solution|alternative)\b|[,.;:!?)\]—–-]|$)",
    re.I,
)


def _attributive(text: str, end: int, cues: list[tuple[int, int, str]]) -> bool:
    """An adjective right before a noun no dimension names judges that noun: "a flexible
    architecture", "a good article". Chinese runs together and is left alone."""
    after = text[end : end + 30]
    if has_cjk(after[:3]) or _FUNCTION_NEXT.match(after):
        return False
    word = re.match(r"\s+([A-Za-z][\w-]*)", after)
    if word is None:
        return False
    at = end + word.start(1)
    return not any(s <= at < e for s, e, _ in cues)
