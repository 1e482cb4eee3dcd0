from __future__ import annotations

from datetime import date

import hypothesis
import pytest
from hypothesis import strategies as st

from decisions.scoring import (
    SourceInfo,
    parse_published,
    rank,
    score_cell,
    source_infos,
    timeliness_of,
    total,
)
from research.artifacts import (
    Claim,
    Contradiction,
    ContradictionSide,
    Notes,
    ScoreCell,
    SourceNotes,
)
from research.outcomes import Outcome

TODAY = date(2025, 6, 1)

# --- builders, shared with test_assessment ------------------------------------------------


def source(source_id: str, kind: str, published: date | None, site: str) -> SourceInfo:
    strength = {"primary": 90.0, "comparison": 60.0, "community": 30.0}[kind]
    return SourceInfo(
        source_id=source_id, strength=strength, published=published, kind=kind, site=site
    )


def stance(
    claim_id: str,
    option: str,
    dimension: str | None,
    source_id: str,
    polarity: int,
    quote: str = "",
) -> Claim:
    return Claim(
        id=claim_id,
        option=option,
        dimension=dimension,
        attribute="stance",
        kind="stance",
        value="",
        polarity=polarity,
        source_id=source_id,
        quote=quote or f"quote {claim_id}",
    )


def fact(
    claim_id: str, option: str, dimension: str | None, source_id: str, attribute: str, value: str
) -> Claim:
    return Claim(
        id=claim_id,
        option=option,
        dimension=dimension,
        attribute=attribute,
        kind="fact",
        value=value,
        source_id=source_id,
        quote=f"{attribute} is {value}",
    )


def contradiction(a: Claim, b: Claim) -> Contradiction:
    return Contradiction(
        id=f"x-{a.id}-{b.id}",
        option=a.option,
        attribute=a.attribute,
        dimension=a.dimension,
        a=ContradictionSide(claim_id=a.id, source_id=a.source_id, quote=a.quote),
        b=ContradictionSide(claim_id=b.id, source_id=b.source_id, quote=b.quote),
        note="the sources disagree",
    )


def matrix(
    options: list[str],
    dimensions: list[str],
    claims: list[Claim],
    sources: dict[str, SourceInfo],
    contradictions: list[Contradiction],
    today: date = TODAY,
) -> list[ScoreCell]:
    """Every option x dimension cell, option-major, as the decide stage builds it."""
    return [
        score_cell(
            o,
            d,
            [c for c in claims if c.option == o and c.dimension == d],
            sources,
            contradictions,
            today,
        )
        for o in options
        for d in dimensions
    ]


def scored(option: str, dimension: str, score: float | None) -> ScoreCell:
    if score is None:
        return ScoreCell(option=option, dimension=dimension, missing=True)
    return ScoreCell(option=option, dimension=dimension, score=score, claim_ids=["c"])


# primary, under a year old (timeliness 100)
OFFICIAL = source("s1", "primary", date(2025, 1, 10), "loamdb.io")
# community, 2 years 3 months old (timeliness 60)
FORUM = source("s2", "community", date(2023, 3, 1), "reddit.com")
# comparison, undated (timeliness 50)
REVIEW = source("s3", "comparison", None, "example.com")
SOURCES = {s.source_id: s for s in (OFFICIAL, FORUM, REVIEW)}


# --- source_infos -------------------------------------------------------------------------


def test_source_infos_classify_only_the_sources_that_were_read() -> None:
    notes = Notes(
        sources=[
            SourceNotes(
                source_id="a",
                url="https://github.com/loamdb/loamdb",
                title="Loamdb",
                published="2024-03",
                site="GitHub",
                status=Outcome.OK,
            ),
            SourceNotes(
                source_id="b",
                url="https://www.reddit.com/r/db/comments/1",
                title="t",
                published="2022-01-05T10:00:00Z",
                status=Outcome.OK,
            ),
            SourceNotes(source_id="c", url="https://slow.example.org/", status=Outcome.TIMEOUT),
        ]
    )

    infos = source_infos(notes, ["Loamdb", "Tessera"])

    assert set(infos) == {"a", "b"}
    assert infos["a"] == SourceInfo("a", 90.0, date(2024, 3, 1), "primary", "github.com")
    assert infos["b"] == SourceInfo("b", 30.0, date(2022, 1, 5), "community", "reddit.com")


def test_source_infos_judge_a_redirected_page_by_where_it_landed() -> None:
    notes = Notes(
        sources=[
            SourceNotes(
                source_id="a",
                url="https://bit.ly/x",
                final_url="https://docs.loamdb.io/licence",
                status=Outcome.OK,
            )
        ]
    )

    info = source_infos(notes, ["Loamdb"])["a"]

    assert (info.kind, info.site) == ("primary", "loamdb.io")


def test_an_unreadable_publication_date_counts_as_unknown() -> None:
    assert parse_published("last spring") is None
    assert parse_published(None) is None
    assert parse_published("2021") == date(2021, 1, 1)


# --- timeliness ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("published", "expected"),
    [
        (date(2025, 5, 1), 100.0),
        (date(2024, 6, 1), 100.0),  # exactly one year old still counts as within a year
        (date(2024, 5, 31), 80.0),
        (date(2022, 6, 1), 60.0),
        (date(2020, 6, 1), 40.0),
        (date(2020, 5, 31), 20.0),
        (None, 50.0),
        (date(2026, 1, 1), 100.0),  # a date in the future is not penalised
    ],
)
def test_timeliness_steps_down_with_age(published: date | None, expected: float) -> None:
    assert timeliness_of(published, TODAY) == expected


def test_timeliness_handles_a_leap_day_today() -> None:
    assert timeliness_of(date(2023, 2, 28), date(2024, 2, 29)) == 100.0


# --- score_cell ---------------------------------------------------------------------------


def test_a_cell_without_claims_is_missing_and_has_no_numbers() -> None:
    cell = score_cell("Loamdb", "cost", [], SOURCES, [], TODAY)

    assert cell.missing
    assert cell.claim_ids == []
    assert (cell.base, cell.strength, cell.consistency, cell.timeliness, cell.score) == (
        None,
        None,
        None,
        None,
        None,
    )


def test_a_cell_whose_only_claims_come_from_unread_sources_is_missing() -> None:
    cell = score_cell(
        "Loamdb", "cost", [stance("c1", "Loamdb", "cost", "gone", 1)], SOURCES, [], TODAY
    )

    assert cell.missing and cell.score is None


def test_a_cell_weighs_stances_by_source_strength() -> None:
    claims = [stance("c1", "Loamdb", "perf", "s1", +1), stance("c2", "Loamdb", "perf", "s2", -1)]

    cell = score_cell("Loamdb", "perf", claims, SOURCES, [], TODAY)

    # base        = 50 + 50 * ((+90 - 30) / (90 + 30)) = 50 + 25 = 75.0
    # strength    = (90 + 30) / 2 = 60.0
    # consistency = two sites (loamdb.io, reddit.com), no contradiction = 100.0
    # timeliness  = (100 + 60) / 2 = 80.0
    # score       = 0.4*75 + 0.3*60 + 0.2*100 + 0.1*80 = 30 + 18 + 20 + 8 = 76.0
    assert (cell.base, cell.strength, cell.consistency, cell.timeliness) == (
        75.0,
        60.0,
        100.0,
        80.0,
    )
    assert cell.score == 76.0
    assert cell.claim_ids == ["c1", "c2"]
    assert not cell.missing


def test_a_contradiction_on_a_single_site_cell_lowers_its_consistency() -> None:
    licence_a = fact("c3", "Loamdb", "cost", "s3", "licence", "MIT")
    licence_b = fact("c9", "Loamdb", "cost", "elsewhere", "licence", "BSL")
    claims = [stance("c4", "Loamdb", "cost", "s3", +1), licence_a]

    cell = score_cell(
        "Loamdb", "cost", claims, SOURCES, [contradiction(licence_a, licence_b)], TODAY
    )

    # base        = 50 + 50 * (60 / 60) = 100.0  (the licence fact is neutral)
    # strength    = 60.0  (one distinct source, s3)
    # consistency = 70 (one site) - 35 (one contradiction touches c3) = 35.0
    # timeliness  = 50.0  (undated)
    # score       = 0.4*100 + 0.3*60 + 0.2*35 + 0.1*50 = 40 + 18 + 7 + 5 = 70.0
    assert (cell.base, cell.strength, cell.consistency, cell.timeliness) == (
        100.0,
        60.0,
        35.0,
        50.0,
    )
    assert cell.score == 70.0


def test_consistency_never_goes_below_zero() -> None:
    claims = [fact(f"c{i}", "Loamdb", "cost", "s3", "licence", "MIT") for i in range(3)]
    others = [fact(f"o{i}", "Loamdb", "cost", "s1", "licence", "BSL") for i in range(3)]
    contradictions = [contradiction(a, b) for a, b in zip(claims, others, strict=True)]

    cell = score_cell("Loamdb", "cost", claims, SOURCES, contradictions, TODAY)

    # 70 - 3 * 35 = -35, clamped to 0
    assert cell.consistency == 0.0


def test_neutral_claims_alone_give_a_middle_base() -> None:
    cell = score_cell(
        "Loamdb", "cost", [fact("c1", "Loamdb", "cost", "s1", "licence", "MIT")], SOURCES, [], TODAY
    )

    assert cell.base == 50.0


def test_cell_components_are_rounded_to_one_decimal() -> None:
    claims = [
        stance("c1", "Loamdb", "perf", "s1", +1),
        stance("c2", "Loamdb", "perf", "s2", +1),
        stance("c3", "Loamdb", "perf", "s3", -1),
    ]

    cell = score_cell("Loamdb", "perf", claims, SOURCES, [], TODAY)

    # base        = 50 + 50 * ((90 + 30 - 60) / 180) = 50 + 16.67 = 66.7
    # strength    = (90 + 30 + 60) / 3 = 60.0
    # consistency = three sites = 100.0
    # timeliness  = (100 + 60 + 50) / 3 = 70.0
    # score       = 0.4*66.7 + 0.3*60 + 0.2*100 + 0.1*70 = 26.68 + 18 + 20 + 7 = 71.68 -> 71.7
    assert (cell.base, cell.timeliness, cell.score) == (66.7, 70.0, 71.7)


def test_two_pages_on_one_site_do_not_corroborate_each_other() -> None:
    docs = source("s4", "primary", date(2025, 1, 10), "loamdb.io")
    claims = [stance("c1", "Loamdb", "perf", "s1", +1), stance("c2", "Loamdb", "perf", "s4", +1)]

    cell = score_cell("Loamdb", "perf", claims, {**SOURCES, "s4": docs}, [], TODAY)

    assert cell.consistency == 70.0


# --- total and rank -----------------------------------------------------------------------


def test_total_is_the_weighted_mean_over_cells_with_evidence() -> None:
    cells = [scored("A", "perf", 80.0), scored("A", "cost", 40.0), scored("A", "docs", None)]

    # (3*80 + 1*40) / (3 + 1) = 280 / 4 = 70.0; docs has no evidence so its weight drops out
    assert total(cells, {"perf": 3.0, "cost": 1.0, "docs": 2.0}) == 70.0


def test_total_is_none_when_every_cell_is_missing() -> None:
    assert (
        total([scored("A", "perf", None), scored("A", "cost", None)], {"perf": 1.0, "cost": 1.0})
        is None
    )


def test_total_refuses_a_dimension_without_a_weight() -> None:
    with pytest.raises(ValueError, match="perf"):
        total([scored("A", "perf", 80.0)], {"cost": 1.0})


def test_a_three_to_one_weighting_changes_the_ranking() -> None:
    cells = [
        scored("A", "perf", 80.0),
        scored("A", "cost", 40.0),
        scored("B", "perf", 50.0),
        scored("B", "cost", 90.0),
    ]

    def ranking(weights: dict[str, float]) -> list[tuple[str, float | None]]:
        totals = {o: total([c for c in cells if c.option == o], weights) for o in ("A", "B")}
        return [(r.option, r.total) for r in rank(totals, cells)]

    # equal: A = (80 + 40) / 2 = 60.0, B = (50 + 90) / 2 = 70.0
    assert ranking({"perf": 1.0, "cost": 1.0}) == [("B", 70.0), ("A", 60.0)]
    # 3:1:  A = (240 + 40) / 4 = 70.0, B = (150 + 90) / 4 = 60.0
    assert ranking({"perf": 3.0, "cost": 1.0}) == [("A", 70.0), ("B", 60.0)]


def test_rank_puts_options_without_a_total_last_and_breaks_ties_by_evidence_then_name() -> None:
    cells = [
        scored("Zeta", "perf", 60.0),
        scored("Zeta", "cost", 60.0),
        scored("Alpha", "perf", 60.0),
        scored("Alpha", "cost", None),
        scored("Beta", "perf", 60.0),
        scored("Beta", "cost", None),
        scored("Nada", "perf", None),
        scored("Nada", "cost", None),
    ]
    totals = {"Nada": None, "Beta": 60.0, "Alpha": 60.0, "Zeta": 60.0}

    ranking = rank(totals, cells)

    assert [(r.option, r.rank, r.cells_with_evidence) for r in ranking] == [
        ("Zeta", 1, 2),
        ("Alpha", 2, 1),
        ("Beta", 3, 1),
        ("Nada", 4, 0),
    ]
    assert ranking[-1].total is None


def test_rank_rounds_totals_so_float_noise_does_not_decide_a_tie() -> None:
    cells = [scored("A", "perf", 60.0), scored("B", "perf", 60.0), scored("B", "cost", 60.0)]

    ranking = rank({"A": 60.000000001, "B": 59.99999999}, cells)

    assert [(r.option, r.total) for r in ranking] == [("B", 60.0), ("A", 60.0)]


# --- properties ---------------------------------------------------------------------------

OPTIONS = ["A", "B", "C"]
DIMENSIONS = ["perf", "cost", "docs"]
dates = st.one_of(st.none(), st.dates(min_value=date(2000, 1, 1), max_value=date(2030, 1, 1)))
source_strategy = st.builds(
    SourceInfo,
    source_id=st.just(""),
    strength=st.floats(0, 100),
    published=dates,
    kind=st.sampled_from(["primary", "comparison", "community"]),
    site=st.sampled_from(["a.org", "b.org", "c.org"]),
)
claim_strategy = st.tuples(
    st.sampled_from(OPTIONS),
    st.sampled_from(DIMENSIONS),
    st.integers(0, 5),
    st.sampled_from([-1, 0, 1]),
)
weights_strategy = st.fixed_dictionaries({d: st.floats(0.01, 100) for d in DIMENSIONS})


@st.composite
def evidence(draw: st.DrawFn) -> tuple[list[Claim], dict[str, SourceInfo], list[Contradiction]]:
    infos = draw(st.lists(source_strategy, min_size=6, max_size=6))
    sources = {
        f"s{i}": SourceInfo(f"s{i}", s.strength, s.published, s.kind, s.site)
        for i, s in enumerate(infos)
    }
    rows = draw(st.lists(claim_strategy, max_size=30))
    claims = [stance(f"c{i}", o, d, f"s{s}", p) for i, (o, d, s, p) in enumerate(rows)]
    pairs = (
        draw(st.lists(st.tuples(st.sampled_from(claims), st.sampled_from(claims)), max_size=5))
        if claims
        else []
    )
    return claims, sources, [contradiction(a, b) for a, b in pairs]


@hypothesis.given(evidence(), weights_strategy, st.dates(date(2020, 1, 1), date(2030, 1, 1)))
def test_every_part_stays_in_range_and_totals_lie_between_cell_scores(
    drawn: tuple[list[Claim], dict[str, SourceInfo], list[Contradiction]],
    weights: dict[str, float],
    today: date,
) -> None:
    claims, sources, contradictions = drawn
    cells = matrix(OPTIONS, DIMENSIONS, claims, sources, contradictions, today)

    for cell in cells:
        parts = (cell.base, cell.strength, cell.consistency, cell.timeliness, cell.score)
        if cell.missing:
            assert parts == (None, None, None, None, None)
        else:
            assert all(p is not None and 0 <= p <= 100 for p in parts)
    for option in OPTIONS:
        own = [c.score for c in cells if c.option == option and c.score is not None]
        result = total([c for c in cells if c.option == option], weights)
        if not own:
            assert result is None
        else:
            assert result is not None
            assert min(own) - 1e-9 <= result <= max(own) + 1e-9


@hypothesis.given(evidence(), weights_strategy, st.floats(0.001, 1000))
def test_scaling_every_weight_leaves_totals_unchanged(
    drawn: tuple[list[Claim], dict[str, SourceInfo], list[Contradiction]],
    weights: dict[str, float],
    factor: float,
) -> None:
    claims, sources, contradictions = drawn
    cells = matrix(OPTIONS, DIMENSIONS, claims, sources, contradictions)
    scaled = {d: w * factor for d, w in weights.items()}

    for option in OPTIONS:
        own = [c for c in cells if c.option == option]
        before, after = total(own, weights), total(own, scaled)
        if before is None:
            assert after is None
        else:
            assert after == pytest.approx(before, rel=1e-9)
