"""What the model answers when it cross-validates: stances and typed facts read from the key
points it was sent, and a verdict on each pair of them."""

from __future__ import annotations

from pydantic import BaseModel

from research.artifacts import KeyPoint
from research.reading import Point as ReaderPoint
from research.reading import not_a_statement, options_spoken_of


class ModelStance(BaseModel):
    kp: int
    option: str
    dimension: str
    polarity: int
    confidence: float = 1.0


class ModelFact(BaseModel):
    kp: int
    option: str
    attribute: str
    value: str


class PairVerdict(BaseModel):
    a: int
    b: int
    option: str
    contradicts: bool
    point: str
    cause: str
    note: str


class Reading(BaseModel):
    # Each required in the schema sent; a list left out (local models in JSON mode drop
    # those they have nothing for) reads as empty rather than costing the call a repair.
    stances: list[ModelStance] = []
    facts: list[ModelFact] = []
    pairs: list[PairVerdict] = []


def not_a_stance(kp: KeyPoint, option: str, options: list[str]) -> str | None:
    """Why a model's stance cannot stand, whatever the model says: the sentence states
    nothing (a heading, a question, a study's design) or is not about the option."""
    reason = not_a_statement(kp.quote)
    if reason:
        return f"the sentence is {reason}, which judges nothing"
    point = ReaderPoint(kp.quote, kp.option, about=kp.about or "named", polarity=kp.polarity)
    if option not in options_spoken_of(point, options):
        return f"the sentence is not about {option}"
    return None
