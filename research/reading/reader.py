"""The careful reader (research.reading.claims.reading) with what it needs to know of a run:
the options and dimensions, the stored pages (what stands around a quote) and the other
names the pages give the options."""

from __future__ import annotations

from dataclasses import dataclass, field

from research.artifacts import (
    KeyPoint,
    Plan,
)
from research.reading.claims.reading import (
    Point,
    Reading,
    options_spoken_of,
    read_stances,
)
from research.reading.keypoints import clean


@dataclass(frozen=True)
class Reader:
    """The careful reader (research.reading.claims.reading) with what it needs to know of
    the run: the options and dimensions, the stored pages (what stands around a quote)
    and the other names the pages give the options."""

    plan: Plan
    pages: dict[str, str]
    aliases: dict[str, tuple[str, ...]]
    # Claims and the contradiction finder both read each key point: it is read once.
    _read: dict[Point, Reading] = field(default_factory=dict, compare=False, repr=False)

    def stances(self, source_id: str, kp: KeyPoint) -> Reading:
        point = self._point(source_id, kp)
        if point not in self._read:
            dims = [d.name for d in self.plan.dimensions]
            self._read[point] = read_stances(point, self.plan.options, dims, self.aliases)
        return self._read[point]

    def _point(self, source_id: str, kp: KeyPoint) -> Point:
        stored = self.pages.get(source_id, "")
        return Point(
            quote=kp.quote,
            option=kp.option,
            about="table" if kp.header and kp.polarity else (kp.about or "named"),
            polarity=kp.polarity,
            header=kp.header,
            before=stored[max(0, kp.offset - 80) : kp.offset],
            after=stored[kp.offset + len(kp.quote) : kp.offset + len(kp.quote) + 80],
            cell=_cell_of(kp),
        )

    def about(self, source_id: str, kp: KeyPoint) -> set[str]:
        """The options the key point speaks about, as the reader attributes it."""
        return options_spoken_of(self._point(source_id, kp), self.plan.options, self.aliases)


def _cell_of(kp: KeyPoint) -> str | None:
    """A table cell's text when the key point quotes its whole row ("header: cell" is its
    text); a pros/cons item quotes itself, and is read as a sentence."""
    if not kp.header or not kp.text.startswith(f"{clean(kp.header)}: "):
        return None
    cell = kp.text[len(clean(kp.header)) + 2 :]
    return None if cell == clean(kp.quote) else cell
