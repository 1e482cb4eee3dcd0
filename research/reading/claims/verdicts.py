"""What a clause judges, dimension by dimension.

A judging word counts for the dimension whose cue stands next to it: its own, if it is a
cue, else the nearest within reach. A dimension's own verdict words ("open source",
"at-least-once") and reported results are read first, and a wider reading holds the words
inside it ("low operational overhead"). A judging word next to another topic's cue
("steep learning curve" on a run about speed), or right before a noun no dimension names
("a flexible architecture"), judges that, not a dimension of the run.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from research.reading.claims.results import NEUTRAL, results_hits
from research.reading.claims.stances import stance_hits, turn
from research.reading.claims.topics import cue_pattern, other_cues, verdict_patterns
from research.reading.text import has_cjk

OTHER = "~other"  # a judging word about something no dimension of the run is about
REACH = 36  # characters between a judging word and the cue it judges (Chinese: a third)


def cue_hits(text: str, dimensions: Sequence[str]) -> list[tuple[int, int, str]]:
    hits = []
    for dim in dimensions:
        pattern = cue_pattern(dim)
        if pattern is not None:
            hits += [(m.start(), m.end(), dim) for m in pattern.finditer(text)]
    return hits


def dims_of(cues: list[tuple[int, int, str]]) -> list[str]:
    return list(dict.fromkeys(d for _, _, d in cues))


Hit = tuple[int, int, float, str]


def signs(
    text: str, cues: list[tuple[int, int, str]], dimensions: Sequence[str]
) -> tuple[dict[str, float], float]:
    """({dimension: summed verdict}, the verdict of judging words near no cue). A
    dimension's own verdict words and reported results are read first; a general
    evaluative word over the same words adds nothing. A neutral result ("no significant
    difference") leaves its dimension without a stance."""
    generic = stance_hits(text)
    wider = [h for h in generic if any(s < h.end and h.start < e for s, e, _ in cues)]
    read: list[Hit] = []
    for s, e, w, d in verdict_hits(text, dimensions):
        # "low operational overhead", "adds only 3% overhead": the wider reading holds the
        # verdict word with what qualifies it.
        if any(h.start <= s and e <= h.end and (h.end - h.start) > (e - s) for h in wider):
            continue
        read.append((s, e, w * turned(text, s, e), d))
    others = other_cues(text, dimensions)
    blocked: set[str] = set()
    loose = 0.0
    for start, end, weight in results_hits(text):
        dim = _nearest_dimension(text, start, end, cues)
        if dim is not None and weight == NEUTRAL:
            blocked.add(dim)
        elif dim is not None and not _overlaps_any(start, end, read):
            read.append((start, end, weight * turned(text, start, end), dim))
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


def turned(text: str, start: int, end: int) -> float:
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


def verdict_hits(text: str, dimensions: Sequence[str]) -> list[Hit]:
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
