"""How sure the reader is of a stance, from what any reader would doubt in its sentence.

Each doubt is general, not a phrase of some page: the option is only pointed at (a
pronoun, the page's subject) rather than named; other options stand in the same sentence
without a comparison that sets them apart; the sentence judges many things at once; it is
long enough for a clause to be misattributed; it softens its verdict with a modal ("may",
"can be", "可能"); it weighs a gain against a loss ("trades X for Y", "at the cost of").
A stance is as sure as the product of its doubts; below the reader's threshold it is kept
as a quotable statement and never scored.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from research.reading.claims.clauses import (
    HEADING,
    NAMED,
    PAGE,
    PARAGRAPH,
    PRONOUN,
    TABLE,
    Point,
    mentions,
)

# How the sentence came to be about its option, when it does not name it.
_POINTED_AT = {NAMED: 1.0, TABLE: 0.95, PRONOUN: 0.8, HEADING: 0.75, PARAGRAPH: 0.65, PAGE: 0.6}
_MODAL = re.compile(
    r"\b(?:may|might|could|can be|can get|can become|tends? to|sometimes|occasionally|"
    r"in some cases|at times)\b|可能|有时|往往|容易出现",
    re.I,
)
# A sentence that weighs a gain against a loss: its verdicts on either side are not plain.
_TRADE_OFF = re.compile(
    r"\btrade(?:s|d)?(?:-offs?| offs?)?\b(?! (?:show|fair|secret)s?\b)|"
    r"\bat the (?:cost|expense|price) of\b|"
    r"\bin exchange for\b|\bcomes? at a (?:cost|price)\b|代价|以牺牲|取舍|权衡",
    re.I,
)
_WORDS = re.compile(r"[\w'-]+|[\u4e00-\u9fff]{2}")
# Chosen on topics the reader's rules were not written from (see README, "Reading").
# Chosen on the check topics, whose rules were not written from them: at 0.7 their claim
# precision was highest before recall fell away (README, "How the reader is measured").
THRESHOLD = 0.7


def sureness(
    point: Point,
    option: str,
    cells: int,
    options: Sequence[str],
    aliases: dict[str, tuple[str, ...]],
    ranked: bool = False,
) -> float:
    """How sure a stance on `option` read from the point is, 0 to 1. `cells` is how many
    option-and-dimension cells the sentence judges; `ranked` when a comparison between
    options gave the stance."""
    named = {o for _, _, o in mentions(point.quote, options, aliases)}
    sure = 1.0 if option in named else _POINTED_AT.get(point.about or NAMED, 0.6)
    others = len(named - {option})
    if others and not ranked and point.about != TABLE:
        sure *= 0.85**others
    if cells >= 3:
        sure *= 0.85
    words = len(_WORDS.findall(point.quote))
    if words > 60:
        sure *= 0.75
    elif words > 40:
        sure *= 0.9
    if _MODAL.search(point.quote):
        sure *= 0.75
    if _TRADE_OFF.search(point.quote):
        sure *= 0.6
    return round(sure, 2)
