"""One key point as the contradiction finders see it (Statement), and a disagreement between
two of them with the pages on each side (Conflict)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date


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
    # For a comparison table's cell: its row's label, and whether the cell answers it
    # "yes", "no" or "optional" (research.reading.conflicts.cells).
    row: str = ""
    says: str | None = None

    @property
    def text(self) -> str:
        return self.focus or self.quote


@dataclass
class Conflict:
    a: Statement
    b: Statement
    attribute: str  # the shared point, in the sources' own words
    why: str  # negation | opposites | comparison | stance | verdict | figures | table
    kind: str  # time | scope | error
    note: str
    weight: float
    # Other sentences, from other pages, that side with a (or with b) on this point.
    a_also: list[Statement] = field(default_factory=list)
    b_also: list[Statement] = field(default_factory=list)
