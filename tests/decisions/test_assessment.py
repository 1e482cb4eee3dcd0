from __future__ import annotations

import hypothesis
import pytest
from hypothesis import strategies as st

from decisions.assessment import assess, cell_support, corroboration
from decisions.scoring.sources import SourceInfo
from decisions.scoring.totals import rank, total
from research.artifacts import (
    Assessment,
    Claim,
    Contradiction,
    Crosscheck,
    RankedOption,
    ScoreCell,
)
from tests.decisions.builders import (
    BSL,
    CELLS,
    CROSSCHECK,
    MIT,
    OPTIONS,
    SOURCES,
    TODAY,
    contradiction,
    evidence,
    fact,
    matrix,
    source,
    stance,
)


def ranked(*totals: float | None) -> list[RankedOption]:
    return [
        RankedOption(option=f"o{i}", total=t, rank=i + 1, cells_with_evidence=1)
        for i, t in enumerate(totals)
    ]


def assessed(
    ranking: list[RankedOption],
    crosscheck: Crosscheck = CROSSCHECK,
    cells: list[ScoreCell] | None = None,
) -> Assessment:
    return assess(
        CELLS if cells is None else cells,
        ranking,
        crosscheck,
        SOURCES,
        verified_quotes=1,
        total_quotes=2,
        options=OPTIONS,
        today=TODAY,
    )


# --- assess -------------------------------------------------------------------------------


def test_confidence_is_computed_from_the_four_parts_by_hand() -> None:
    result = assessed(ranked(70.0, 50.0))

    # coverage      = 80 * 3/4 cells (Tessera x cost is missing) + 20 * 1/2 options with a
    #                 primary claim (only Loamdb, via s1) = 60 + 10 = 70.0
    # consistency   = groups with >= 2 sources: (Loamdb, licence, cost) and
    #                 (Tessera, version, None) = 2; contradicted groups = 1
    #                 -> 100 * (1 - 1/2) = 50.0
    # timeliness    = mean over s1..s4 = (100 + 60 + 50 + 20) / 4 = 57.5
    # verifiability = 100 * 1 primary claim / 6 claims * 1/2 quotes verified = 8.33 -> 8.3
    # weighted sum  = 0.35*70 + 0.25*50 + 0.15*57.5 + 0.25*8.3
    #               = 24.5 + 12.5 + 8.625 + 2.075 = 47.7
    # corroboration = Loamdb x perf and Tessera x perf rest on one site (0); Loamdb x cost
    #                 has loamdb.io 0.9 + dbreview.com 0.6 = 1.5 (1) -> 100 * 1/3 = 33.3
    # confidence    = 47.7 * (0.6 + 0.4 * 0.333) = 47.7 * 0.733 = 34.96 -> 35.0; the gap is
    #                 20, so no margin penalty
    assert (result.coverage, result.consistency, result.timeliness, result.verifiability) == (
        70.0,
        50.0,
        57.5,
        8.3,
    )
    assert result.corroboration == 33.3
    assert result.confidence == 35.0


def test_a_close_race_lowers_confidence_by_the_margin_penalty() -> None:
    clear = assessed(ranked(70.0, 50.0))
    close = assessed(ranked(62.0, 57.9, None))

    # gap = 62.0 - 57.9 = 4.1 -> factor 0.8 + 0.02 * 4.1 = 0.882; 35.0 * 0.882 = 30.87 -> 30.9
    assert close.confidence == 30.9
    assert close.confidence < clear.confidence


def test_a_single_option_with_a_total_has_no_margin_penalty() -> None:
    assert assessed(ranked(62.0, None)).confidence == 35.0


def test_the_method_states_the_formula_with_the_actual_numbers() -> None:
    method = assessed(ranked(62.0, 57.9)).method

    assert method == (
        "confidence = 0.35 x coverage 70.0 + 0.25 x consistency 50.0 + 0.15 x timeliness 57.5"
        " + 0.25 x verifiability 8.3 = 47.7; corroboration is 33.3 (the share of scored cells"
        " backed by two or more independent sites, not only forums or interested parties), so"
        " it is multiplied by 0.6 + 0.4 x 0.33 = 0.733, giving 35.0; the top two options are"
        " only 4.1 points apart, so it is multiplied by 0.8 + 0.02 x 4.1 = 0.882, giving 30.9."
    )


def test_the_method_says_when_the_margin_is_wide_enough() -> None:
    method = assessed(ranked(70.0, 50.0)).method

    assert method.endswith(
        "giving 35.0; the top two options are 20.0 points apart, so no margin penalty applies."
    )


def test_the_method_is_written_in_chinese_for_a_chinese_question() -> None:
    result = assess(
        CELLS, ranked(62.0, 57.9), CROSSCHECK, SOURCES, 1, 2, OPTIONS, TODAY, language="zh"
    )

    assert result.method.startswith("置信度 = 0.35 x 覆盖度 70.0 + 0.25 x 一致性 50.0")
    assert "佐证度为 33.3" in result.method
    assert result.method.endswith(
        "前两名仅相差 4.1 分，因此乘以 0.8 + 0.02 x 4.1 = 0.882，得 30.9。"
    )


def with_cause(cause: str | None, current: Claim | None = None) -> Crosscheck:
    return CROSSCHECK.model_copy(
        update={"contradictions": [contradiction(MIT, BSL, cause, current=current)]}
    )


def test_a_licence_change_settled_by_a_later_source_does_not_lower_consistency() -> None:
    unexplained = assessed(ranked(70.0, 50.0), with_cause("error"))
    changed = assessed(ranked(70.0, 50.0), with_cause("time", current=BSL))

    # 2 corroborated groups; the licence point now weighs 0 instead of 1
    assert (unexplained.consistency, changed.consistency) == (50.0, 100.0)
    assert changed.confidence > unexplained.confidence
    assert "(contradicted points behind consistency: 0 counted in full; 0 at half" in changed.method
    assert "; 1 not at all, superseded by a later source)" in changed.method


def test_a_difference_of_scope_lowers_consistency_half_as_much_as_an_error() -> None:
    scope = assessed(ranked(70.0, 50.0), with_cause("scope"))
    time_unknown = assessed(ranked(70.0, 50.0), with_cause("time"))

    # 100 * (1 - 0.5 / 2) = 75
    assert (scope.consistency, time_unknown.consistency) == (75.0, 75.0)
    assert "1 at half, as other versions or setups" in scope.method


def test_the_method_says_nothing_of_causes_when_every_contradiction_counts_in_full() -> None:
    assert "contradicted points" not in assessed(ranked(70.0, 50.0), with_cause("error")).method


def test_the_weighting_of_contradictions_is_explained_in_chinese() -> None:
    result = assess(
        CELLS, ranked(70.0, 50.0), with_cause("scope"), SOURCES, 1, 2, OPTIONS, TODAY, "zh"
    )

    assert "（一致性中，0 处矛盾全额计入，1 处可能由版本、场景不同或前后变化解释" in result.method


# --- corroboration ------------------------------------------------------------------------


def test_a_cell_on_one_site_or_on_weak_sources_only_has_no_support() -> None:
    forum_b = source("s5", "community", None, "forum.example")
    sources = {**SOURCES, "s5": forum_b}
    single = [stance("a1", "Loamdb", "perf", "s1", +1), stance("a2", "Loamdb", "perf", "s1", +1)]
    forums = [stance("b1", "Loamdb", "perf", "s3", +1), stance("b2", "Loamdb", "perf", "s5", +1)]
    backed = [stance("d1", "Loamdb", "perf", "s1", +1), stance("d2", "Loamdb", "perf", "s3", +1)]

    def support(claims: list[Claim]) -> float:
        cell = matrix(["Loamdb"], ["perf"], claims, sources, [])[0]
        return cell_support(cell, claims, sources)

    assert support(single) == 0.0
    assert support(forums) == 0.0
    # loamdb.io 0.9 + reddit.com 0.3 = 1.2 of the 1.5 that fully corroborates
    assert support(backed) == pytest.approx(0.8)


def test_corroboration_counts_only_scored_cells() -> None:
    claims = [stance("d1", "Loamdb", "perf", "s1", +1), stance("d2", "Loamdb", "perf", "s2", +1)]
    cells = matrix(OPTIONS, ["perf", "cost"], claims, SOURCES, [])

    # one scored cell, fully backed (0.9 + 0.6); three missing cells do not count
    assert corroboration(cells, claims, SOURCES) == 100.0


def test_confidence_is_zero_without_any_claims() -> None:
    empty = Crosscheck(claims=[], consensus=[], contradictions=[], gaps=[])
    cells = matrix(OPTIONS, ["perf", "cost"], [], SOURCES, [])

    result = assessed(ranked(None, None), crosscheck=empty, cells=cells)

    assert result.confidence == 0.0
    assert (result.coverage, result.timeliness, result.verifiability) == (0.0, 0.0, 0.0)
    assert "confidence is 0" in result.method


def test_consistency_is_sixty_when_nothing_was_corroborated_or_contradicted() -> None:
    lone = [stance("c1", "Loamdb", "perf", "s1", +1)]
    crosscheck = Crosscheck(claims=lone, consensus=[], contradictions=[], gaps=[])

    result = assessed(
        ranked(70.0, None),
        crosscheck=crosscheck,
        cells=matrix(OPTIONS, ["perf"], lone, SOURCES, []),
    )

    assert result.consistency == 60.0


def test_verifiability_ignores_the_quote_ratio_when_no_quote_was_checked() -> None:
    result = assess(
        CELLS,
        ranked(70.0, 50.0),
        CROSSCHECK,
        SOURCES,
        verified_quotes=0,
        total_quotes=0,
        options=OPTIONS,
        today=TODAY,
    )

    # 100 * 1/6 * 1 = 16.67 -> 16.7
    assert result.verifiability == 16.7


@hypothesis.given(evidence(), st.integers(0, 10), st.integers(0, 10))
def test_every_assessment_part_stays_between_0_and_100(
    drawn: tuple[list[Claim], dict[str, SourceInfo], list[Contradiction]],
    verified: int,
    extra: int,
) -> None:
    claims, sources, contradictions = drawn
    options, dimensions = ["A", "B", "C"], ["perf", "cost", "docs"]
    cells = matrix(options, dimensions, claims, sources, contradictions)
    weights = dict.fromkeys(dimensions, 1.0)
    totals = {o: total([c for c in cells if c.option == o], weights) for o in options}
    crosscheck = Crosscheck(claims=claims, consensus=[], contradictions=contradictions, gaps=[])

    result = assess(
        cells,
        rank(totals, cells, weights),
        crosscheck,
        sources,
        verified,
        verified + extra,
        options,
        TODAY,
    )

    parts = (
        result.coverage,
        result.consistency,
        result.timeliness,
        result.verifiability,
        result.confidence,
    )
    assert all(0 <= p <= 100 for p in parts)


# --- records --------------------------------------------------------------------------------


def test_a_registry_record_is_primary_evidence_for_its_own_option() -> None:
    record = SourceInfo(
        source_id="r1", strength=100.0, published=TODAY, kind="registry", site="pypi.org"
    )
    licence = fact("r1c", "Tessera", "cost", "r1", "licence", "MIT")
    with_record = CROSSCHECK.model_copy(update={"claims": [*CROSSCHECK.claims, licence]})
    before = assessed(ranked(70.0, 50.0))
    after = assess(
        CELLS, ranked(70.0, 50.0), with_record, {**SOURCES, "r1": record}, 1, 2, OPTIONS, TODAY
    )

    # both options now have a primary claim: coverage 60 + 20 * 2/2 = 80; verifiability
    # 100 * 2 primary / 7 claims * 1/2 quotes verified = 14.3
    assert (before.coverage, after.coverage) == (70.0, 80.0)
    assert after.verifiability == 14.3
