from __future__ import annotations

from datetime import date

import hypothesis
import pytest
from hypothesis import strategies as st

from decisions.scoring.cell import score_cell
from decisions.scoring.sources import SourceInfo, parse_published, source_infos, timeliness_of
from decisions.scoring.totals import NEUTRAL, backing_sites, evidence_share, percent, rank, total
from research.artifacts import (
    Claim,
    Contradiction,
    Notes,
    ScoreCell,
    SourceNotes,
)
from research.outcomes import Outcome
from tests.decisions.builders import (
    DRAWN_DIMENSIONS,
    DRAWN_OPTIONS,
    TODAY,
    contradiction,
    evidence,
    fact,
    matrix,
    scored,
    source,
    stance,
    weights_strategy,
)

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
    a, b = infos["a"], infos["b"]
    assert (a.strength, a.published, a.kind, a.site) == (
        90.0,
        date(2024, 3, 1),
        "primary",
        "github.com",
    )
    assert (b.strength, b.published, b.kind, b.site) == (
        30.0,
        date(2022, 1, 5),
        "community",
        "reddit.com",
    )
    assert a.graded is not None and a.graded.owner == "Loamdb"


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

    # raw         = 50 + 50 * (0.9 * +1 + 0.3 * -1) / (0.9 + 0.3) = 75.0
    # n_eff       = 0.9 + 0.3 = 1.2
    # base        = 50 + (75 - 50) * 1.2 / (1.2 + 1) = 63.6
    # strength    = (90 + 30) / 2 = 60.0
    # consistency = two sites (loamdb.io, reddit.com), no contradiction = 100.0
    # timeliness  = (100 + 60) / 2 = 80.0
    # score       = 0.4*63.6 + 0.3*60 + 0.2*100 + 0.1*80 = 25.44 + 18 + 20 + 8 = 71.4
    assert (cell.raw_base, cell.evidence_weight, cell.prior_weight, cell.sites) == (
        75.0,
        1.2,
        1.0,
        2,
    )
    assert (cell.base, cell.strength, cell.consistency, cell.timeliness) == (
        63.6,
        60.0,
        100.0,
        80.0,
    )
    assert cell.score == 71.4
    assert cell.claim_ids == ["c1", "c2"]
    assert not cell.missing


def test_the_cell_says_how_its_base_was_shrunk() -> None:
    claims = [stance("c1", "Loamdb", "perf", "s1", +1), stance("c2", "Loamdb", "perf", "s2", -1)]

    cell = score_cell("Loamdb", "perf", claims, SOURCES, [], TODAY)

    assert cell.notes[0] == (
        "base = 50 + (raw 75.0 - 50) x 1.20 / (1.20 + 1) = 63.6: 2 sites took a side, "
        "with evidence weight 1.20"
    )


def test_a_contradiction_on_a_single_site_cell_lowers_its_consistency() -> None:
    licence_a = fact("c3", "Loamdb", "cost", "s3", "licence", "MIT")
    licence_b = fact("c9", "Loamdb", "cost", "elsewhere", "licence", "BSL")
    claims = [stance("c4", "Loamdb", "cost", "s3", +1), licence_a]

    cell = score_cell(
        "Loamdb", "cost", claims, SOURCES, [contradiction(licence_a, licence_b)], TODAY
    )

    # base        = 50 + (100 - 50) * 0.6 / (0.6 + 1) = 68.75 -> 68.8 (the licence is neutral)
    # strength    = 60.0  (one distinct source, s3)
    # consistency = 70 (one site) - 35 (one contradiction touches c3) = 35.0
    # timeliness  = 50.0  (undated)
    # score       = 0.4*68.8 + 0.3*60 + 0.2*35 + 0.1*50 = 27.52 + 18 + 7 + 5 = 57.5
    assert (cell.base, cell.strength, cell.consistency, cell.timeliness) == (
        68.8,
        60.0,
        35.0,
        50.0,
    )
    assert cell.score == 57.5


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

    assert (cell.base, cell.raw_base, cell.evidence_weight) == (50.0, None, 0.0)
    assert cell.notes == ["no source takes a side, so base is 50"]


def test_cell_components_are_rounded_to_one_decimal() -> None:
    claims = [
        stance("c1", "Loamdb", "perf", "s1", +1),
        stance("c2", "Loamdb", "perf", "s2", +1),
        stance("c3", "Loamdb", "perf", "s3", -1),
    ]

    cell = score_cell("Loamdb", "perf", claims, SOURCES, [], TODAY)

    # raw         = 50 + 50 * (0.9 + 0.3 - 0.6) / 1.8 = 66.67 -> 66.7
    # base        = 50 + 16.67 * 1.8 / 2.8 = 60.71 -> 60.7
    # timeliness  = (100 + 60 + 50) / 3 = 70.0
    # score       = 0.4*60.7 + 0.3*60 + 0.2*100 + 0.1*70 = 24.28 + 18 + 20 + 7 = 69.28 -> 69.3
    assert (cell.raw_base, cell.base, cell.timeliness, cell.score) == (66.7, 60.7, 70.0, 69.3)


def test_two_pages_on_one_site_do_not_corroborate_each_other() -> None:
    docs = source("s4", "primary", date(2025, 1, 10), "loamdb.io")
    claims = [stance("c1", "Loamdb", "perf", "s1", +1), stance("c2", "Loamdb", "perf", "s4", +1)]

    cell = score_cell("Loamdb", "perf", claims, {**SOURCES, "s4": docs}, [], TODAY)

    assert cell.consistency == 70.0


# --- what explains a contradiction -------------------------------------------------------

# An older review and a newer one on maintenance, and a forum post siding with the old one.
THEN = source("t1", "comparison", date(2022, 2, 1), "old-review.example")
NOW = source("t2", "comparison", date(2025, 4, 1), "new-review.example")
ECHO = source("t3", "community", date(2022, 3, 1), "forum.example")
TIMES = {s.source_id: s for s in (THEN, NOW, ECHO)}
WAS_SLOW = stance("m1", "Loamdb", "maintenance", "t1", -1, "Loamdb releases once a year.")
ECHOED = stance("m3", "Loamdb", "maintenance", "t3", -1, "Loamdb hardly ever ships.")
IS_BUSY = stance("m2", "Loamdb", "maintenance", "t2", +1, "Loamdb now ships every month.")


def maintenance(*contradictions: Contradiction, language: str = "en") -> ScoreCell:
    claims = [WAS_SLOW, IS_BUSY, ECHOED]
    return score_cell("Loamdb", "maintenance", claims, TIMES, list(contradictions), TODAY, language)


def test_a_change_over_time_scores_the_current_state_alone() -> None:
    changed = contradiction(WAS_SLOW, IS_BUSY, "time", current=IS_BUSY, a_also=(ECHOED,))

    cell = maintenance(changed)

    # only the newer review votes: 50 + 50 * 0.6 / 1.6 = 68.75 -> 68.8
    assert (cell.raw_base, cell.base, cell.evidence_weight) == (100.0, 68.8, 0.6)
    # three sites back the cell and the settled contradiction takes nothing off
    assert cell.consistency == 100.0
    assert cell.superseded == ["m1", "m3"]
    assert cell.claim_ids == ["m1", "m2", "m3"]  # still listed as evidence
    assert any(
        n.startswith("superseded by a later source: m1, m3 (old-review.example, forum.example)")
        and "m2 (new-review.example) describes the current state" in n
        for n in cell.notes
    )


def test_without_the_change_over_time_the_old_pages_pull_the_judgement_down() -> None:
    unexplained = contradiction(WAS_SLOW, IS_BUSY, "error", a_also=(ECHOED,))

    cell = maintenance(unexplained)

    # raw = 50 + 50 * (0.6 - 0.6 - 0.3) / 1.5 = 40; base = 50 - 10 * 1.5 / 2.5 = 44
    assert (cell.raw_base, cell.base) == (40.0, 44.0)
    assert cell.consistency == 65.0  # 100 - 35
    assert cell.superseded == []


def test_a_change_over_time_with_no_known_current_side_counts_half() -> None:
    cell = maintenance(contradiction(WAS_SLOW, IS_BUSY, "time"))

    assert cell.consistency == 82.5  # 100 - 17.5
    assert cell.superseded == []


def test_a_difference_of_scope_weighs_half_as_much_as_an_unexplained_one() -> None:
    scope = maintenance(contradiction(WAS_SLOW, IS_BUSY, "scope"))
    error = maintenance(contradiction(WAS_SLOW, IS_BUSY, "error"))
    unknown = maintenance(contradiction(WAS_SLOW, IS_BUSY))

    assert (scope.consistency, error.consistency, unknown.consistency) == (82.5, 65.0, 65.0)
    assert scope.notes[-1] == (
        "consistency = 100 (two or more sites) - 17.5 for x-m1-m2 (other versions or setups: "
        "half) = 82.5"
    )
    assert error.notes[-1].endswith("- 35 for x-m1-m2 (nothing explains it) = 65.0")


def test_a_page_siding_with_one_side_brings_the_contradiction_into_its_own_cell() -> None:
    echo_only = score_cell(
        "Loamdb",
        "maintenance",
        [ECHOED],
        TIMES,
        [contradiction(WAS_SLOW, IS_BUSY, "error", a_also=(ECHOED,))],
        TODAY,
    )

    assert echo_only.consistency == 35.0  # 70 (one site) - 35


def test_an_archived_statement_superseded_by_a_later_source_caps_nothing() -> None:
    archived = Claim(
        id="a1",
        option="Loamdb",
        dimension="maintenance",
        attribute="maintenance",
        kind="fact",
        value="inactive",
        polarity=-1,
        source_id="t1",
        quote="Loamdb was archived by its owners.",
    )
    revived = Claim(
        id="a2",
        option="Loamdb",
        dimension="maintenance",
        attribute="maintenance",
        kind="fact",
        value="active",
        polarity=1,
        source_id="t3",
        quote="Loamdb is maintained again.",
    )
    # The forum post is older than the archived note, so the status rule alone would cap.
    forum = source("t3", "community", date(2021, 1, 1), "forum.example")
    sources = {**TIMES, "t3": forum}
    claims = [archived, revived]
    plain = score_cell("Loamdb", "maintenance", claims, sources, [], TODAY)
    changed = score_cell(
        "Loamdb",
        "maintenance",
        claims,
        sources,
        [contradiction(archived, revived, "time", current=revived)],
        TODAY,
    )

    assert plain.capped_by == "a1"
    assert changed.capped_by is None
    assert changed.superseded == ["a1"]


def test_the_superseded_note_is_written_in_the_plans_language() -> None:
    cell = maintenance(contradiction(WAS_SLOW, IS_BUSY, "time", current=IS_BUSY), language="zh")

    assert any(n.startswith("已被较新的来源取代：m1（old-review.example）") for n in cell.notes)
    assert cell.notes[-1].startswith("一致性 = 100（两个以上站点）- 0（x-m1-m2：已被较新的来源取代")


# --- thin evidence is shrunk toward 50 -----------------------------------------------------


def test_one_positive_sentence_is_not_a_hundred() -> None:
    cell = score_cell(
        "Loamdb", "perf", [stance("c1", "Loamdb", "perf", "s3", +1)], SOURCES, [], TODAY
    )

    # one review: 50 + 50 * 0.6 / (0.6 + 1) = 68.75 -> 68.8
    assert cell.raw_base == 100.0
    assert cell.base == 68.8


def test_more_independent_agreement_moves_base_further_from_50() -> None:
    reviews = {
        f"r{i}": source(f"r{i}", "comparison", date(2025, 1, 1), f"review{i}.example")
        for i in range(4)
    }
    bases = [
        score_cell(
            "Loamdb",
            "perf",
            [stance(f"c{i}", "Loamdb", "perf", f"r{i}", +1) for i in range(n)],
            reviews,
            [],
            TODAY,
        ).base
        for n in (1, 2, 4)
    ]

    # 50 + 50 * n_eff / (n_eff + 1) with n_eff 0.6, 1.2, 2.4
    assert bases == [68.8, 77.3, 85.3]


def test_a_forum_post_moves_base_less_than_a_primary_source() -> None:
    forum = score_cell(
        "Loamdb", "perf", [stance("c1", "Loamdb", "perf", "s2", +1)], SOURCES, [], TODAY
    )
    official = score_cell(
        "Loamdb", "perf", [stance("c1", "Loamdb", "perf", "s1", +1)], SOURCES, [], TODAY
    )

    # 50 + 50 * 0.3 / 1.3 = 61.5 and 50 + 50 * 0.9 / 1.9 = 73.7
    assert (forum.base, official.base) == (61.5, 73.7)


def test_one_site_saying_it_five_times_is_still_one_voice() -> None:
    once = [stance("c1", "Loamdb", "perf", "s3", +1), stance("c2", "Loamdb", "perf", "s1", -1)]
    repeated = [
        *(stance(f"p{i}", "Loamdb", "perf", "s3", +1) for i in range(5)),
        stance("c2", "Loamdb", "perf", "s1", -1),
    ]

    first = score_cell("Loamdb", "perf", once, SOURCES, [], TODAY)
    again = score_cell("Loamdb", "perf", repeated, SOURCES, [], TODAY)

    assert (first.raw_base, first.base) == (again.raw_base, again.base)


# --- who wrote it -------------------------------------------------------------------------

RIVALS = ["Marrowline", "Pebblestack"]


def graded_sources(*pages: tuple[str, str, str]) -> dict[str, SourceInfo]:
    """(source id, url, title) -> sources graded by the real classifier."""
    notes = Notes(
        sources=[
            SourceNotes(source_id=i, url=u, title=t, published="2025-03-01", status=Outcome.OK)
            for i, u, t in pages
        ]
    )
    return source_infos(notes, RIVALS)


VENDOR_COMPARISON = ("v", "https://marrowline.io/blog/vs-pebblestack", "Marrowline vs Pebblestack")
PEBBLE_DOCS = ("p", "https://pebblestack.dev/docs/delivery", "Delivery guarantees")
REVIEW_PAGE = ("r", "https://queue-notes.example.org/review", "Two queues after a year")


def test_a_vendors_verdict_on_its_rival_counts_as_an_interested_party() -> None:
    sources = graded_sources(VENDOR_COMPARISON, REVIEW_PAGE)
    knock = stance("c1", "Pebblestack", "reliability", "v", -1, "Pebblestack loses messages")

    by_vendor = score_cell("Pebblestack", "reliability", [knock], sources, [], TODAY)

    # 30 rather than the 60 of a comparison article: 50 - 50 * 0.3 / 1.3 = 38.5
    assert (by_vendor.strength, by_vendor.base) == (30.0, 38.5)
    assert (
        "marrowline.io counts 30: interested party: published by Marrowline's vendor"
        in by_vendor.notes
    )


def test_a_vendors_praise_of_itself_next_to_a_rival_is_discounted() -> None:
    sources = graded_sources(VENDOR_COMPARISON)
    boast = stance("c1", "Marrowline", "reliability", "v", +1, "Marrowline never drops a message")

    cell = score_cell("Marrowline", "reliability", [boast], sources, [], TODAY)

    assert (cell.strength, cell.base) == (30.0, 61.5)
    assert any("judging itself against rivals" in n for n in cell.notes)


def test_a_projects_own_page_judging_itself_counts_as_a_review_but_its_facts_as_primary() -> None:
    sources = graded_sources(PEBBLE_DOCS)
    praise = stance("c1", "Pebblestack", "reliability", "p", +1, "Pebblestack is rock solid")
    licence = fact("c2", "Pebblestack", "licence risk", "p", "licence", "MIT")

    judged = score_cell("Pebblestack", "reliability", [praise], sources, [], TODAY)
    stated = score_cell("Pebblestack", "licence risk", [licence], sources, [], TODAY)

    assert (judged.strength, judged.base) == (60.0, 68.8)
    assert stated.strength == 90.0


# --- status dominates maintenance ---------------------------------------------------------


def archived_cell(*extra: Claim, sources: dict[str, SourceInfo] | None = None) -> ScoreCell:
    archived = Claim(
        id="m1",
        option="Loamdb",
        dimension="maintenance",
        attribute="maintenance",
        kind="fact",
        value="inactive",
        polarity=-1,
        source_id="s1",
        quote="The Loamdb repository was archived by its owners and is read-only.",
    )
    claims = [archived, *extra]
    return score_cell("Loamdb", "maintenance", claims, sources or SOURCES, [], TODAY)


def test_an_archived_project_scores_low_on_maintenance_however_good_the_evidence() -> None:
    praise = [
        stance(f"p{i}", "Loamdb", "maintenance", sid, +1) for i, sid in enumerate(("s2", "s3"))
    ]

    cell = archived_cell(*praise)

    # without the cap: strength 60, consistency 100, timeliness 70 would make it 60+
    assert cell.base is not None and cell.base <= 15.0
    assert cell.score is not None and cell.score <= 20.0
    assert cell.capped_by == "m1"
    assert cell.notes[-1] == (
        "loamdb.io says Loamdb is no longer maintained (“The Loamdb repository was archived by "
        "its owners and is read-only.”), so base is capped at 15 and the score at 20"
    )


def test_a_later_statement_that_the_project_is_active_again_lifts_the_cap() -> None:
    later = source("s9", "comparison", date(2025, 5, 1), "queue-notes.example.org")
    revived = Claim(
        id="m2",
        option="Loamdb",
        dimension="maintenance",
        attribute="maintenance",
        kind="fact",
        value="active",
        polarity=1,
        source_id="s9",
        quote="Loamdb is actively maintained again under a new foundation.",
    )

    cell = archived_cell(revived, sources={**SOURCES, "s9": later})

    assert cell.capped_by is None
    assert cell.score is not None and cell.score > 20.0
    assert "is active after the statement that it is not" in cell.notes[-1]


def test_an_undated_archived_statement_is_not_overruled_by_a_dated_active_one() -> None:
    undated = source("s1", "primary", None, "loamdb.io")
    active = stance("p1", "Loamdb", "maintenance", "s2", +1)

    cell = archived_cell(active, sources={**SOURCES, "s1": undated})

    assert cell.capped_by == "m1"


# --- language -----------------------------------------------------------------------------


def test_cell_notes_are_written_in_the_plans_language() -> None:
    claims = [stance("c1", "Loamdb", "perf", "s1", +1), stance("c2", "Loamdb", "perf", "s2", -1)]

    cell = score_cell("Loamdb", "perf", claims, SOURCES, [], TODAY, language="zh")

    assert cell.notes[0].startswith("基础分 = 50 + (原始 75.0 - 50) x 1.20 / (1.20 + 1) = 63.6")
    assert "证据权重 1.20" in cell.notes[0]


# --- total and rank -----------------------------------------------------------------------


def test_total_is_the_weighted_mean_over_every_dimension_with_a_missing_cell_at_50() -> None:
    cells = [scored("A", "perf", 80.0), scored("A", "cost", 40.0), scored("A", "docs", None)]

    # (3*80 + 1*40 + 2*50) / (3 + 1 + 2) = 380 / 6; docs has no evidence, so it counts as 50
    assert total(cells, {"perf": 3.0, "cost": 1.0, "docs": 2.0}) == pytest.approx(380 / 6)


def test_a_dimension_of_the_plan_without_any_cell_also_counts_as_neutral() -> None:
    # (80 + 50) / 2: the weights are the plan's dimensions, whatever cells were passed
    assert total([scored("A", "perf", 80.0)], {"perf": 1.0, "cost": 1.0}) == 65.0


def test_gaps_pull_a_total_toward_50_from_either_side() -> None:
    weights = {"perf": 1.0, "cost": 1.0}
    high = [scored("A", "perf", 90.0), scored("A", "cost", None)]
    low = [scored("B", "perf", 10.0), scored("B", "cost", None)]

    assert (total(high, weights), total(low, weights)) == (70.0, 30.0)


def test_total_is_none_when_every_cell_is_missing() -> None:
    assert (
        total([scored("A", "perf", None), scored("A", "cost", None)], {"perf": 1.0, "cost": 1.0})
        is None
    )


def test_the_evidence_share_is_the_weight_of_the_dimensions_with_evidence() -> None:
    weights = {"licence": 0.4, "maintenance": 0.35, "cost": 0.25}
    cells = [
        scored("A", "licence", 70.0),
        scored("A", "maintenance", None),
        scored("A", "cost", 60.0),
    ]

    assert evidence_share(cells, weights) == pytest.approx(65.0)
    assert evidence_share([scored("A", "licence", None)], weights) == 0.0


@pytest.mark.parametrize(
    ("share", "shown"), [(100.0, "100"), (99.6, "99"), (65.0, "65"), (0.2, "1"), (0.0, "0")]
)
def test_a_share_reads_100_only_when_all_of_it_and_0_only_when_none(
    share: float, shown: str
) -> None:
    assert percent(share) == shown


def test_one_strong_dimension_no_longer_outranks_solid_evidence_on_every_dimension() -> None:
    sources = {
        s.source_id: s
        for s in (
            source("p1", "primary", date(2025, 3, 1), "solo.dev"),
            source("r1", "comparison", date(2025, 3, 1), "reviews.example.com"),
            source("r2", "comparison", date(2025, 2, 1), "bench.example.org"),
        )
    }
    dims = ["perf", "cost", "docs"]
    claims = [
        *(stance(f"a{i}", "Solo", "perf", sid, +1) for i, sid in enumerate(("p1", "r1", "r2"))),
        *(stance(f"b{d}{sid}", "Steady", d, sid, +1) for d in dims for sid in ("r1", "r2")),
    ]
    cells = matrix(["Solo", "Steady"], dims, claims, sources, [])
    weights = dict.fromkeys(dims, 1.0)
    totals = {o: total([c for c in cells if c.option == o], weights) for o in ("Solo", "Steady")}

    solo = next(c for c in cells if c.option == "Solo" and c.dimension == "perf")
    steady = [c.score or 0 for c in cells if c.option == "Steady"]
    assert solo.score is not None and solo.score > max(steady)  # its one cell is the best
    # ...but the two dimensions it has no evidence on count as 50, not as absent
    assert totals["Solo"] == pytest.approx((solo.score + 50 + 50) / 3)
    ranking = rank(totals, cells, weights)
    assert [(r.option, r.evidence_share) for r in ranking] == [
        ("Steady", 100.0),
        ("Solo", 33.3),
    ]


def test_the_sites_behind_an_option_are_its_registrable_domains_once_each() -> None:
    sources = {
        s.source_id: s
        for s in (
            source("p1", "primary", TODAY, "solo.dev"),
            source("p2", "primary", TODAY, "solo.dev"),
            source("r1", "comparison", TODAY, "reviews.example.com"),
        )
    }
    claims = [
        stance("c1", "Solo", "perf", "p1", +1),
        stance("c2", "Solo", "cost", "p2", +1),
        stance("c3", "Other", "cost", "r1", +1),
    ]
    cells = matrix(["Solo", "Other"], ["perf", "cost"], claims, sources, [])

    solo = [c for c in cells if c.option == "Solo"]
    assert backing_sites(solo, claims, sources) == ["solo.dev"]


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
        return [(r.option, r.total) for r in rank(totals, cells, weights)]

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

    ranking = rank(totals, cells, {"perf": 3.0, "cost": 1.0})

    assert [(r.option, r.rank, r.cells_with_evidence, r.evidence_share) for r in ranking] == [
        ("Zeta", 1, 2, 100.0),
        ("Alpha", 2, 1, 75.0),
        ("Beta", 3, 1, 75.0),
        ("Nada", 4, 0, 0.0),
    ]
    assert ranking[-1].total is None


def test_rank_rounds_totals_so_float_noise_does_not_decide_a_tie() -> None:
    cells = [scored("A", "perf", 60.0), scored("B", "perf", 60.0), scored("B", "cost", 60.0)]

    ranking = rank({"A": 60.000000001, "B": 59.99999999}, cells, {"perf": 1.0, "cost": 1.0})

    assert [(r.option, r.total) for r in ranking] == [("B", 60.0), ("A", 60.0)]


# --- properties ---------------------------------------------------------------------------


@hypothesis.given(evidence(), weights_strategy, st.dates(date(2020, 1, 1), date(2030, 1, 1)))
def test_every_part_stays_in_range_and_totals_lie_between_cell_scores_and_50_for_a_gap(
    drawn: tuple[list[Claim], dict[str, SourceInfo], list[Contradiction]],
    weights: dict[str, float],
    today: date,
) -> None:
    claims, sources, contradictions = drawn
    cells = matrix(DRAWN_OPTIONS, DRAWN_DIMENSIONS, claims, sources, contradictions, today)

    for cell in cells:
        parts = (cell.base, cell.strength, cell.consistency, cell.timeliness, cell.score)
        if cell.missing:
            assert parts == (None, None, None, None, None)
        else:
            assert all(p is not None and 0 <= p <= 100 for p in parts)
    for option in DRAWN_OPTIONS:
        own = [c.score for c in cells if c.option == option and c.score is not None]
        result = total([c for c in cells if c.option == option], weights)
        if not own:
            assert result is None
        else:
            # a gap counts as 50, so the total lies between the scores and 50 when there is one
            bounds = own if len(own) == len(DRAWN_DIMENSIONS) else [*own, NEUTRAL]
            assert result is not None
            assert min(bounds) - 1e-9 <= result <= max(bounds) + 1e-9


@hypothesis.given(evidence(), weights_strategy, st.floats(0.001, 1000))
def test_scaling_every_weight_leaves_totals_unchanged(
    drawn: tuple[list[Claim], dict[str, SourceInfo], list[Contradiction]],
    weights: dict[str, float],
    factor: float,
) -> None:
    claims, sources, contradictions = drawn
    cells = matrix(DRAWN_OPTIONS, DRAWN_DIMENSIONS, claims, sources, contradictions)
    scaled = {d: w * factor for d, w in weights.items()}

    for option in DRAWN_OPTIONS:
        own = [c for c in cells if c.option == option]
        before, after = total(own, weights), total(own, scaled)
        if before is None:
            assert after is None
        else:
            assert after == pytest.approx(before, rel=1e-9)
