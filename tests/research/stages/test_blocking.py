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
from research.reading.conflicts import facts as fact_conflicts
from research.reading.conflicts import sentences as conflicts
from research.reading.conflicts.facts import (
    SourceFacts,
    conflict,
    find_contradictions,
    topic_of,
)
from research.reading.conflicts.sentences import find_conflicts, topic_words
from research.reading.conflicts.sides import best_per_point
from research.reading.conflicts.statements import Conflict, Statement
from research.reading.text import contains_term
from research.stages import filter as filter_stage
from research.stages.filter import Judgement, _near_duplicate
from research.stages.near_copies import grams, least_shared, shared_at_least

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
def test_texts_alike_share_at_least_the_characters_the_index_counts_on(a, b):
    a, b = a.strip().lower(), b.strip().lower()
    if SequenceMatcher(None, a, b).ratio() >= 0.9:
        shared = set(grams(a)) & set(grams(b))
        assert len(shared) >= least_shared(len(a) + len(b), 0.9)
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


# --- contradictions between sentences -----------------------------------------------------

SENTENCE_OPTIONS = ["Quillsync", "Loamdb"]
SENTENCES = [
    "{o} has no offline mode: edits made on a plane are lost.",
    "The offline mode of {o} queues edits until the network is back.",
    "{o} keeps working in offline mode and syncs edits later.",
    "For developers without an offline mode in mind, {o} is fine.",
    "{o} led to a reduced risk of non-fatal myocardial infarction.",
    "{o} showed a nonsignificant trend in non-fatal myocardial infarction.",
    "{o} brought a significant reduction in non-fatal stroke.",
    "{o} has the lowest p99 latency we measured.",
    "Its sync latency is excellent, often beating {o} at p99.",
    "{o} is easy to learn for newcomers.",
    "{o} 的学习曲线相当陡峭。",
    "{o} 不支持离线模式，断网后无法编辑。",
    "{o} 的离线模式会在断网时缓存修改。",
    "The {o} 1.x branch is deprecated; upgrade to 3.x soon.",
    "{o} is actively maintained and 3.x ships monthly.",
    "{o} keeps vault data in the clear on its sync servers.",
    "Only encrypted vault data of {o} reaches its sync servers.",
    "{o} is open source under the MIT licence.",
    "{o} is proprietary, with a source-available core.",
    "{o} uses 2.5x the memory of its rival at idle.",
    "{o} ships a command-line client for scripting.",
    "{o} stores notes as plain Markdown files.",
    "Is {o} stable enough for production?",
    "{o} moved to the BSL in 2024.",
    "The {o} repository was archived in 2023.",
    "{o} syncs 40% faster since the rewrite.",
    "Support tickets for {o} fell 12% this year.",
]


@st.composite
def statements(draw) -> list[Statement]:
    found = []
    for n in range(draw(st.integers(0, 22))):
        option = draw(st.sampled_from(SENTENCE_OPTIONS))
        quote = draw(st.sampled_from(SENTENCES)).format(o=option)
        source = draw(st.integers(0, 7))
        found.append(
            Statement(
                key=f"k{n}",
                option=option,
                dimension=draw(st.sampled_from([None, "learning curve", "reliability"])),
                source_id=f"s{source}",
                site=f"site{source % 5}.example",
                published=draw(st.sampled_from([None, date(2022, 1, 1), date(2025, 1, 1)])),
                quote=quote,
                offset=n,
                strength=draw(st.sampled_from([30.0, 50.0, 90.0])),
                words=topic_words(quote, SENTENCE_OPTIONS),
                polarity=draw(st.sampled_from([None, None, 1, -1])),
                on_dimension=draw(st.booleans()),
                stated=draw(st.sampled_from([True, True, True, False])),
                named=draw(st.sampled_from([True, True, False])),
                stance=draw(st.sampled_from([None, None, 0, 1, -1])),
            )
        )
    return found


def all_pairs_conflicts(statements: list[Statement]) -> list[Conflict]:
    """Every statement against every other, as the finder did before it used an index."""
    rarity = conflicts._rarity(statements)
    found = []
    seen: set[frozenset[str]] = set()
    for a, b in combinations(statements, 2):
        pair = frozenset((a.quote, b.quote))
        if a.option != b.option or a.source_id == b.source_id or pair in seen:
            continue
        if conflicts._asks(a, b):
            continue
        conflict = conflicts._judge(a, b, a.words & b.words, rarity)
        if conflict is not None:
            seen.add(pair)
            found.append(conflict)
    return best_per_point(found)


def _shown(found: list[Conflict]) -> list[tuple]:
    return [
        (
            c.a.key,
            c.b.key,
            c.attribute,
            c.why,
            c.kind,
            c.note,
            c.weight,
            [s.key for s in c.a_also],
            [s.key for s in c.b_also],
        )
        for c in found
    ]


@settings(max_examples=300, deadline=None)
@given(statements())
def test_sentences_compared_through_the_index_disagree_as_every_pair_does(statements):
    assert _shown(find_conflicts(statements)) == _shown(all_pairs_conflicts(statements))


def test_the_generated_sentences_disagree_in_every_way_the_finder_knows():
    # The property above means something only if its inputs disagree: these do, each way.
    def statement(n, template, dimension=None, on_dimension=False, polarity=None, o="Quillsync"):
        quote = SENTENCES[template].format(o=o)
        return Statement(
            key=f"k{n}", option=o, dimension=dimension, source_id=f"s{n}",
            site=f"site{n}.example", published=None, quote=quote, offset=0,
            words=topic_words(quote, SENTENCE_OPTIONS), on_dimension=on_dimension,
            polarity=polarity,
        )  # fmt: skip

    pairs = {
        "negation": (statement(0, 0), statement(1, 1)),
        "negation (Chinese)": (statement(0, 11), statement(1, 12)),
        "opposites": (statement(0, 4), statement(1, 5)),
        "opposite terms": (statement(0, 15), statement(1, 16)),
        "comparison": (statement(0, 7), statement(1, 8, polarity=-1)),
        "verdict": (
            statement(0, 9, "learning curve", True),
            statement(1, 10, "learning curve", True),
        ),
    }
    # Other sentences, about the other option, so that shared words are rare among them.
    filler = [statement(10 + n, t, o="Loamdb") for n, t in enumerate((20, 21, 19, 9, 6, 3))]
    found = {name: find_conflicts([*pair, *filler]) for name, pair in pairs.items()}
    assert {name: [c.why for c in f] for name, f in found.items()} == {
        "negation": ["negation"],
        "negation (Chinese)": ["negation"],
        "opposites": ["opposites"],
        "opposite terms": ["opposites"],
        "comparison": ["comparison"],
        "verdict": ["verdict"],
    }


def all_pairs_near_misses(statements: list[Statement], limit: int) -> list[tuple[str, str]]:
    """The near misses as found by comparing every pair."""
    rarity = conflicts._rarity(statements)
    ranked = []
    seen: set[frozenset[str]] = set()
    for a, b in combinations(statements, 2):
        pair = frozenset((a.quote, b.quote))
        if a.option != b.option or a.site == b.site or pair in seen or conflicts._asks(a, b):
            continue
        closeness = conflicts._closeness(a, b, rarity)
        if closeness > 0:
            seen.add(pair)
            ranked.append((closeness, a, b))
    chosen = []
    cells: dict = {}
    for _, a, b in sorted(ranked, key=lambda r: (-r[0], r[1].key, r[2].key)):
        cell = (a.option, a.dimension or b.dimension)
        if cells.get(cell, 0) >= conflicts.NEAR_PER_CELL:
            continue
        if conflicts._judge(a, b, a.words & b.words, rarity) is not None:
            continue
        chosen.append((a.key, b.key))
        cells[cell] = cells.get(cell, 0) + 1
        if len(chosen) >= limit:
            break
    return chosen


@settings(max_examples=200, deadline=None)
@given(statements(), st.integers(1, 12))
def test_near_misses_found_through_the_index_are_those_every_pair_gives(statements, limit):
    found = [(a.key, b.key) for a, b in conflicts.near_conflicts(statements, limit)]
    assert found == all_pairs_near_misses(statements, limit)
