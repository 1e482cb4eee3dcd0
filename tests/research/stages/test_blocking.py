"""The contradiction finders and the near-copy rule compare only what can match; on any
input they must find exactly what comparing every pair finds. Each test keeps the
all-pairs finder as the reference and checks the two agree on generated inputs."""

from __future__ import annotations

from datetime import date
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from research.artifacts import Claim, ContradictionSide
from research.stages import fact_conflicts
from research.stages.fact_conflicts import (
    SourceFacts,
    conflict,
    find_contradictions,
    topic_of,
)
from research.stages.text import contains_term

EXAMPLES = settings(max_examples=150, deadline=None)

# --- typed facts --------------------------------------------------------------------------

SOURCES = {
    f"s{i}": SourceFacts(
        site=f"site{i % 4}.example",
        kind=("primary", "comparison", "community")[i % 3],
        strength=(90.0, 60.0, 30.0, 45.0)[i % 4],
        published=(date(2024, 3, 1), date(2025, 6, 1), None)[i % 3],
        own=i == 0,
    )
    for i in range(6)
}
FACTS = {
    "licence": ["MIT", "Apache-2.0", "MIT OR Apache-2.0", "BSL-1.1"],
    "maintenance": ["active", "archived", "deprecated"],
    "release_date 5.0": ["2024", "2024-10", "2024-E", "2024-10-03", "2025-01-02"],
    "release_date 5": ["2024-10-03", "2024-L"],
    "latest_version": ["5.0.1", "5.1.0", "4.9"],
    "price_per_seat": ["40", "42", "60", "forty"],
}
QUOTES = [
    "{o} is {v}.",
    "{o} 1.5 and earlier are {v}, and it switched in 2024.",
    "From 1.6, {o} is {v}.",
    "In 2022 {o} was {v}.",
    "{o} costs {v} per seat this year.",
    "Over the past two years {o} reached {v}.",
    "It is {v}.",
]


@st.composite
def claims(draw) -> list[Claim]:
    found = []
    for n in range(draw(st.integers(0, 24))):
        option = draw(st.sampled_from(["Quillsync", "Loamdb"]))
        if draw(st.integers(0, 4)) == 0:
            kind, attribute = "stance", "stance"
            value = draw(st.sampled_from(["positive", "negative"]))
            dimension = draw(st.sampled_from(["cost", "licence risk"]))
        else:
            kind, attribute = "fact", draw(st.sampled_from(sorted(FACTS)))
            value, dimension = draw(st.sampled_from(FACTS[attribute])), None
        quote = draw(st.sampled_from(QUOTES)).format(o=option, v=value)
        found.append(
            Claim(
                id=f"c{n + 1:03d}",
                option=option,
                dimension=dimension,
                attribute=attribute,
                kind=kind,
                value=value,
                polarity={"positive": 1, "negative": -1}.get(value, 0),
                source_id=draw(st.sampled_from(sorted(SOURCES))),
                quote=quote,
            )
        )
    return found


def all_pairs_contradictions(claims: list[Claim], facts: dict[str, SourceFacts]) -> list:
    """Every claim against every other, as the finder did before it compared by topic."""
    pairs = []
    for a, b in combinations(claims, 2):
        if a.kind != "fact":
            continue
        note = conflict(a, b, facts[a.source_id], facts[b.source_id])
        if note is None:
            continue
        named = sum(contains_term(c.quote, c.option) for c in (a, b))
        pairs.append(
            (min(facts[a.source_id].strength, facts[b.source_id].strength) + named, a, b, note)
        )
    found: dict = {}
    for _, a, b, note in sorted(pairs, key=lambda p: (-p[0], p[1].id, p[2].id)):
        key = topic_of(a)
        if key not in found:
            found[key] = (
                fact_conflicts._contradiction(len(found) + 1, a, b, note, facts),
                a,
                [a, b],
            )
            continue
        record, first, members = found[key]
        for claim in (a, b):
            if all(m.id != claim.id and m.source_id != claim.source_id for m in members):
                members.append(claim)
                side = ContradictionSide(
                    claim_id=claim.id, source_id=claim.source_id, quote=claim.quote
                )
                (record.a_also if claim.value == first.value else record.b_also).append(side)
    return [fact_conflicts._with_values(record, members) for record, _, members in found.values()]


@EXAMPLES
@given(claims())
def test_typed_facts_compared_by_topic_find_what_every_pair_finds(claims):
    blocked = find_contradictions(claims, SOURCES)
    reference = all_pairs_contradictions(claims, SOURCES)
    assert [c.model_dump() for c in blocked] == [c.model_dump() for c in reference]


def test_the_generated_claims_do_contradict_each_other():
    # The property above means something only if its inputs disagree: these do.
    a = Claim(
        id="c001",
        option="Loamdb",
        attribute="licence",
        kind="fact",
        value="MIT",
        source_id="s1",
        quote="Loamdb is MIT.",
    )
    b = a.model_copy(
        update={"id": "c002", "value": "BSL-1.1", "source_id": "s2", "quote": "Loamdb is BSL-1.1."}
    )
    c = a.model_copy(
        update={"id": "c003", "value": "BSL-1.1", "source_id": "s4", "quote": "It is BSL-1.1."}
    )
    found = find_contradictions([a, b, c], SOURCES)
    assert [(x.attribute, x.a.claim_id, x.b.claim_id) for x in found] == [
        ("licence", "c001", "c003")  # the pair of the stronger sources stands for it
    ]
    assert [s.claim_id for s in found[0].b_also] == ["c002"]
