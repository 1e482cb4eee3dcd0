"""The contradiction finders and the near-copy rule compare only what can match; on any
input they must find exactly what comparing every pair finds. Each test keeps the
all-pairs finder as the reference and checks the two agree on generated inputs."""

from __future__ import annotations

from datetime import date
from difflib import SequenceMatcher
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from research.artifacts import Candidate, Claim, ContradictionSide
from research.stages import fact_conflicts
from research.stages import filter as filter_stage
from research.stages.fact_conflicts import (
    SourceFacts,
    conflict,
    find_contradictions,
    topic_of,
)
from research.stages.filter import Judgement, _near_duplicate
from research.stages.near_copies import grams, shared_at_least
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


# --- near-copies among candidates ---------------------------------------------------------

OPTIONS = ["Quillsync", "Loamdb"]
TITLES = [
    "Quillsync licence review: harbour and lantern",
    "Loamdb vs Quillsync: licences compared",
    "Loamdb sync engine, a deep dive",
    "JetStream | Docs",
]
SNIPPETS = [
    "Quillsync moved to the BSL in 2024; earlier releases stay MIT, and the team says forks "
    "remain welcome under the old terms.",
    "Loamdb keeps every write in an append-only log and replays it on start, which makes "
    "recovery slow on large vaults.",
    "Short snippet about Loamdb.",
]
URLS = [
    "https://quill.example/blog/licence",
    "https://www.quill.example/blog/licence/",
    "http://quill.example/blog/licence?utm_source=feed",
    "https://loam.example/docs/sync",
    "https://other.example/post",
]


@st.composite
def edited(draw, bases: list[str]) -> str:
    """One of `bases`, with a few characters inserted, deleted or changed: some stay alike,
    some do not."""
    text = list(draw(st.sampled_from(bases)))
    for _ in range(draw(st.integers(0, 8))):
        at = draw(st.integers(0, len(text)))
        what = draw(st.sampled_from(["insert", "delete", "change"]))
        char = draw(st.sampled_from(list("ae ioXz")))
        if what == "insert" or not text or at == len(text):
            text.insert(at, char)
        elif what == "delete":
            del text[at]
        else:
            text[at] = char
    return "".join(text)


@st.composite
def judgements(draw) -> list[Judgement]:
    found = []
    for n in range(draw(st.integers(0, 16))):
        candidate = Candidate(
            id=f"s{n}",
            url=draw(st.sampled_from(URLS)) + draw(st.sampled_from(["", f"/{n}"])),
            title=draw(edited(TITLES)),
            snippet=draw(edited(SNIPPETS)),
            provider="searxng",
            query="q",
            rank=n,
        )
        drop = draw(st.sampled_from([None, None, None, "outdated"]))
        found.append(Judgement(candidate, float(draw(st.integers(0, 3))), [], drop))
    return found


def all_pairs_duplicates(judged: list[Judgement]) -> list[str | None]:
    firsts: list[Judgement] = []
    drops = []
    for j in judged:
        if j.drop is not None:
            drops.append(j.drop)
            continue
        original = next(
            (f for f in firsts if _near_duplicate(f.candidate, j.candidate, OPTIONS)), None
        )
        if original is None:
            firsts.append(j)
            drops.append(None)
        else:
            drops.append(f"near-duplicate of {original.candidate.id} ({original.candidate.url})")
    return drops


def all_pairs_copies(ranking: list[Judgement]) -> list[str]:
    firsts: list[Candidate] = []
    copies = []
    for j in ranking:
        if any(_near_duplicate(f, j.candidate, OPTIONS) for f in firsts):
            copies.append(j.candidate.id)
        else:
            firsts.append(j.candidate)
    return copies


@EXAMPLES
@given(judgements())
def test_near_copies_found_through_the_index_are_those_every_pair_finds(judged):
    reference = all_pairs_duplicates(judged)
    copies = all_pairs_copies(judged)
    filter_stage._mark_duplicates(judged, OPTIONS)
    assert [j.drop for j in judged] == reference
    assert [j.candidate.id for j in filter_stage._copies(judged, OPTIONS)] == copies


@EXAMPLES
@given(edited(TITLES + SNIPPETS), edited(TITLES + SNIPPETS))
def test_texts_alike_share_at_least_the_trigrams_the_index_counts_on(a, b):
    a, b = a.strip().lower(), b.strip().lower()
    if SequenceMatcher(None, a, b).ratio() >= 0.9:
        shared = set(grams(a)) & set(grams(b))
        assert len(shared) >= max(shared_at_least(len(a), 0.9), shared_at_least(len(b), 0.9))


def test_the_generated_candidates_include_near_copies_of_each_kind():
    def candidate(n, url, title, snippet):
        return Candidate(
            id=f"s{n}", url=url, title=title, snippet=snippet, provider="p", query="q", rank=n
        )

    judged = [
        Judgement(candidate(0, URLS[0], TITLES[0], SNIPPETS[0]), 3, []),
        Judgement(candidate(1, URLS[1], "Other title", "other"), 2, []),  # same address
        Judgement(candidate(2, URLS[3], TITLES[0] + "!", SNIPPETS[0][:-4]), 1, []),  # alike
        Judgement(candidate(3, URLS[4], "A new page", SNIPPETS[1]), 1, []),
    ]
    filter_stage._mark_duplicates(judged, OPTIONS)
    assert [j.drop and j.drop.split(" (")[0] for j in judged] == [
        None,
        "near-duplicate of s0",
        "near-duplicate of s0",
        None,
    ]
