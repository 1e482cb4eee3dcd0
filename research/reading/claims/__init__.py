"""Claims drawn from one sentence: typed facts and stances.

Typed facts are licences, the latest version, release and last-commit dates, quantities
with units, and maintenance status. Stances are positive or negative statements about an
option on a dimension; comparisons rank one option against another; tables and pros/cons
lists give facts per option; scope_of tells a statement about one component, an old
version or the past from one about the project today. Everything here is deterministic and
works on English and Chinese.
"""

from __future__ import annotations

from dataclasses import replace

from research.reading.claims.comparisons import compare, option_mentions
from research.reading.claims.facts import Fact, clauses
from research.reading.claims.licences import (
    LICENCE_PATTERNS,
    licence_fact,
    licence_polarity,
    licences,
)
from research.reading.claims.numbers import number_range, parse_number, quantity_facts
from research.reading.claims.scope import scope_of
from research.reading.claims.stances import stance_polarity
from research.reading.claims.status import maintenance_fact
from research.reading.claims.tables import TableFact, table_rows
from research.reading.claims.topics import licence_as_risk
from research.reading.claims.versions import date_facts, normalise_version, version_fact
from research.reading.lexicon import concepts_for

__all__ = [
    "LICENCE_PATTERNS",
    "Fact",
    "TableFact",
    "clauses",
    "compare",
    "date_facts",
    "dimension_for",
    "extract",
    "licence_fact",
    "licences",
    "maintenance_fact",
    "normalise_version",
    "number_range",
    "option_mentions",
    "parse_number",
    "quantity_facts",
    "scope_of",
    "stance_polarity",
    "table_rows",
    "version_fact",
]

# --- all together -------------------------------------------------------------------------

_ATTRIBUTE_CONCEPTS = {
    "licence": ("licence", "risk", "cost", "replaceability"),
    "maintenance": ("maintenance", "activity", "community", "risk"),
    "latest_version": ("maintenance", "activity"),
    "release_date": ("maintenance", "activity"),
    "last_commit": ("maintenance", "activity", "community"),
    "contributors": ("community", "activity", "maintenance"),
    "core team": ("community", "activity", "maintenance"),
    "stars": ("community", "activity"),
    "downloads per month": ("ecosystem", "community"),
    "percentage (share of": ("community", "ecosystem"),
    "yearly price": ("cost", "price"),
    "price per": ("cost", "price"),
    "size": ("performance",),
    "memory": ("performance", "operations", "cost"),
    "latency": ("performance",),
    "render time": ("performance",),
    "throughput": ("performance",),
    "multiple": ("performance",),
    "hazard ratio": ("cardiovascular", "efficacy"),
}


def dimension_for(attribute: str, dimensions: list[str]) -> str | None:
    """The dimension a typed fact belongs on, by the longest attribute prefix that names
    its concepts; None when no dimension fits (then the sentence's own dimension is used)."""
    keys = [k for k in _ATTRIBUTE_CONCEPTS if attribute == k or attribute.startswith(k)]
    wanted = _ATTRIBUTE_CONCEPTS[max(keys, key=len)] if keys else ()
    for concept in wanted:
        for dimension in dimensions:
            if concept in concepts_for(dimension):
                return dimension
    return None


def extract(
    sentence: str,
    dimensions: list[str],
    sentence_dimension: str | None,
    *,
    options: list[str] | None = None,
    stances: bool = True,
) -> list[Fact]:
    """Every claim one sentence makes: its typed facts, then its stance if it has one.

    Each fact carries the sentence's scope (scope_of) when it speaks of a component, an old
    version or the past. Given the options, option names are not read as judgements, and a
    sentence that compares two of them gives one stance per compared option (Fact.option
    set) instead of one undirected stance. Without `stances`, only the typed facts."""
    scope = scope_of(sentence)
    facts = [
        f
        for f in (licence_fact(sentence), maintenance_fact(sentence), version_fact(sentence))
        if f is not None
    ]
    facts += date_facts(sentence) + quantity_facts(sentence)
    placed = [
        _judged_on(
            replace(
                f,
                dimension=dimension_for(f.attribute, dimensions) or sentence_dimension,
                scope=scope,
            )
        )
        for f in facts
    ]
    if not sentence_dimension or not stances:
        return placed
    ranked = compare(sentence, options) if options else {}
    if ranked:
        return placed + [
            _stance(polarity, sentence_dimension, scope, option)
            for option, polarity in ranked.items()
        ]
    polarity = stance_polarity(sentence, options or ())
    return placed + ([_stance(polarity, sentence_dimension, scope)] if polarity else [])


def _judged_on(fact: Fact) -> Fact:
    """A licence judged as the dimension it is placed on asks: as a risk or as openness."""
    if fact.attribute != "licence" or not fact.dimension:
        return fact
    return replace(fact, polarity=licence_polarity(fact.value, licence_as_risk(fact.dimension)))


def _stance(polarity: int, dimension: str, scope: str | None, option: str | None = None) -> Fact:
    value = "positive" if polarity > 0 else "negative"
    return Fact("stance", "stance", value, polarity, dimension, option=option, scope=scope)
