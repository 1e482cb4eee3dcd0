"""One contradiction per point, with the pages on each side.

Strongest first. A disagreement that shares a side with one already chosen joins it (one
page against three is one contradiction with three on a side, not three); only statements
about the option stand for a side, others may join one; at most PER_CELL per option and
dimension, so one loud topic cannot flood the report.
"""

from __future__ import annotations

from collections import Counter

from research.reading.conflicts.statements import Conflict, Statement
from research.reading.text import first_mention

PER_CELL = 4  # the strongest few disagreements per option and dimension


def best_per_point(found: list[Conflict]) -> list[Conflict]:
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
