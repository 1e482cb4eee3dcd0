"""Which primary sources the plan asks, about which option, and why.

A primary source is asked when a source of the run names it (`primary:github`, or a
preset's own) and a dimension of the question calls for what it knows: a project's
licence, maintenance, community or release history from the registries; trial results,
efficacy and safety from ClinicalTrials.gov and Europe PMC; research evidence from arXiv
and Europe PMC. Each option is asked about once per source, for all the dimensions that
called for it.
"""

from __future__ import annotations

from research.artifacts import Dimension, PrimaryAsk
from research.providers.primary import ANSWERS
from research.reading import concepts_for

REGISTRIES = ("github", "pypi", "npm", "crates", "wikipedia")
TRIALS = ("clinicaltrials", "europepmc")
PAPERS = ("arxiv", "europepmc")

# (concepts of the lexicon, words of a dimension's name) -> the sources that answer them
CALLS: tuple[tuple[frozenset[str], frozenset[str], tuple[str, ...]], ...] = (
    (
        frozenset({"licence", "maintenance", "activity", "community"}),
        frozenset({"release", "releases", "history", "popularity", "adoption", "发布", "版本"}),
        REGISTRIES,
    ),
    (
        frozenset({"efficacy", "cardiovascular"}),
        frozenset(
            {"trial", "trials", "safety", "result", "results", "outcome", "outcomes", "adverse"}
            | {"疗效", "安全性", "试验", "临床"}
        ),
        TRIALS,
    ),
    (
        frozenset(),
        frozenset({"research", "evidence", "study", "studies", "paper", "papers", "literature"})
        | frozenset({"研究", "证据", "论文"}),
        PAPERS,
    ),
)
SPEC_KIND = "primary"


def primary_names(sources: list[str]) -> list[str]:
    """The primary sources a run's sources name, in order: `primary:github` -> github."""
    names = []
    for spec in sources:
        kind, _, name = spec.partition(":")
        if kind.strip().lower() == SPEC_KIND and name.strip().lower() in ANSWERS:
            names.append(name.strip().lower())
    return list(dict.fromkeys(names))


def called_for(dimension: str) -> tuple[str, ...]:
    """The primary sources that know about `dimension`, by its concepts and its words."""
    concepts = set(concepts_for(dimension))
    lowered = dimension.lower()
    words = set(lowered.replace("-", " ").split())
    found: list[str] = []
    for wanted, named, providers in CALLS:
        if (
            concepts & wanted
            or words & named
            or any(w in lowered for w in named if not w.isascii())
        ):
            found += providers
    return tuple(dict.fromkeys(found))


def primary_asks(
    options: list[str], dimensions: list[Dimension], sources: list[str]
) -> list[PrimaryAsk]:
    """One ask per (source, option) whose source a dimension calls for: options first,
    so each option's facts come in together."""
    available = primary_names(sources)
    calling: dict[str, list[str]] = {}
    for dimension in dimensions:
        for provider in called_for(dimension.name):
            if provider in available:
                calling.setdefault(provider, []).append(dimension.name)
    asks = []
    for option in options:
        for provider in available:
            if provider in calling:
                asks.append(
                    PrimaryAsk(
                        id=f"p{len(asks) + 1:02d}",
                        provider=provider,
                        option=option,
                        dimensions=calling[provider],
                        asks=list(ANSWERS[provider]),
                    )
                )
    return asks
