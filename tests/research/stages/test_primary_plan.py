"""The plan asks a primary source only when a source names it and a dimension calls for
what it knows; a record's typed facts become claims quoting its lines."""

from __future__ import annotations

from research.artifacts import (
    AskedDimension,
    Dimension,
    Limits,
    Plan,
    PrimaryRecordDoc,
    Question,
    RecordFact,
)
from research.stages.plan import build_plan
from research.stages.records import record_claims, record_page


def plan_of(dimensions: list[str], sources: list[str], preset: str = "") -> Plan:
    question = Question(
        question="Choose between Quillsync and Loamdb",
        dimensions=[AskedDimension(name=d) for d in dimensions],
        sources=sources,
        preset=preset,
    )
    return build_plan(question, Limits())


def test_github_is_asked_about_each_option_for_licence_and_maintenance_only():
    plan = plan_of(
        ["licence risk", "maintenance activity", "customisation cost"], ["ddgs", "primary:github"]
    )
    assert [(a.provider, a.option) for a in plan.primary] == [
        ("github", "Quillsync"),
        ("github", "Loamdb"),
    ]
    assert plan.primary[0].dimensions == ["licence risk", "maintenance activity"]
    assert plan.primary[0].answer == "not asked"


def test_a_primary_source_no_dimension_calls_for_is_not_asked():
    assert plan_of(["customisation cost", "speed"], ["primary:github"]).primary == []


def test_a_registry_the_sources_do_not_name_is_never_asked():
    assert plan_of(["licence risk"], ["ddgs"]).primary == []


def test_the_clinical_preset_brings_the_trial_registry_and_europe_pmc():
    plan = plan_of([], ["ddgs"], preset="clinical")
    assert plan.sources == ["ddgs", "primary:clinicaltrials", "primary:europepmc"]
    assert {a.provider for a in plan.primary} == {"clinicaltrials", "europepmc"}
    trials = next(a for a in plan.primary if a.provider == "clinicaltrials")
    assert trials.dimensions == ["efficacy", "safety", "trial results"]


def record(facts: list[RecordFact]) -> PrimaryRecordDoc:
    lines = "\n".join(f"- {f.quote}" for f in facts)
    return PrimaryRecordDoc(
        ask_id="p01",
        provider="github",
        source_kind="registry",
        url="https://github.com/loam/loamdb",
        title="loam/loamdb on GitHub",
        text=f"# loam/loamdb on GitHub\n\n{lines}\n",
        retrieved_at="2026-12-01T10:00:00Z",
        published="2019-01-01",
        facts=facts,
    )


def fact(attribute: str, value: str, quote: str, event: str | None = None) -> RecordFact:
    return RecordFact(
        option="Loamdb",
        attribute=attribute,
        value=value,
        as_of="2026-12-01",
        event_date=event,
        quote=quote,
        provider="github",
    )


def claims_of(facts: list[RecordFact]):
    plan = Plan(
        question="q",
        options=["Loamdb", "Quillsync"],
        dimensions=[
            Dimension(name="licence risk", weight=1),
            Dimension(name="maintenance", weight=1),
        ],
        sources=["primary:github"],
        queries=[],
    )
    notes, stored = record_page(record(facts), "---\nsource_id: s1\n---\n\n")
    claims = record_claims(plan, notes, 1)
    for claim in claims:
        assert stored[claim.offset : claim.offset + len(claim.quote)] == claim.quote
    return {(c.attribute, c.value, c.polarity, c.dimension, c.date) for c in claims}


def test_a_source_available_licence_counts_against_the_licence_dimension():
    found = claims_of([fact("licence", "BUSL-1.1", "loam/loamdb licence (SPDX): BUSL-1.1")])
    assert found == {("licence", "BSL", -1, "licence risk", "2026-12-01")}


def test_an_archived_repository_is_inactive_whatever_its_last_release():
    found = claims_of(
        [
            fact("archived", "true", "loam/loamdb is archived (read-only)"),
            fact("latest_release", "v2.1.0", "Latest release: v2.1.0", "2026-11-20"),
        ]
    )
    assert ("maintenance", "inactive", -1, "maintenance", "2026-12-01") in found
    assert ("latest_version", "2.1", 0, "maintenance", "2026-11-20") in found


def test_a_product_wikidata_says_was_discontinued_is_inactive_whatever_its_last_release():
    found = claims_of(
        [
            fact("discontinued", "2025-03", "Loamdb discontinued (Wikidata P2669): 2025-03"),
            fact("latest_release", "v2.1.0", "Latest release: v2.1.0", "2026-11-20"),
        ]
    )
    assert ("maintenance", "inactive", -1, "maintenance", "2026-12-01") in found


def test_a_recent_release_is_active_and_one_three_years_old_says_releases_stopped():
    # The status holds on the day the record was retrieved, whenever the release came.
    recent = claims_of([fact("latest_release", "v2.1.0", "Latest: v2.1.0", "2026-10-01")])
    assert ("maintenance", "active", 1, "maintenance", "2026-12-01") in recent
    old = claims_of([fact("latest_release", "v0.9", "Latest: v0.9", "2023-05-01")])
    assert ("maintenance", "inactive", -1, "maintenance", "2026-12-01") in old


def test_a_last_release_one_to_two_years_old_says_releases_have_slowed():
    middle = claims_of([fact("latest_release", "v1.0", "Latest: v1.0", "2025-06-01")])
    assert ("maintenance", "slowing", -1, "maintenance", "2026-12-01") in middle


def history(value: str) -> set[tuple[str, str, int]]:
    quote = f"Loamdb had releases: {value}"
    found = claims_of([fact("release_history", value, quote, "2025-01-01")])
    return {(attribute, value, polarity) for attribute, value, polarity, *_ in found}


def test_release_history_is_active_with_a_stable_release_in_the_last_year():
    assert ("maintenance", "active", 1) in history(
        "3 in 12 months, 7 in 24 months, last 40 days, usual gap 90 days"
    )


def test_a_mature_library_that_releases_once_a_year_is_not_called_inactive():
    found = history("0 in 12 months, 1 in 24 months, last 400 days, usual gap 360 days")
    assert ("maintenance", "active", 1) in found
    assert (
        "release_history",
        "0 in 12 months, 1 in 24 months, last 400 days, usual gap 360 days",
        0,
    ) in found


def test_a_project_that_used_to_release_every_quarter_and_stopped_a_year_ago_is_slowing():
    found = history("0 in 12 months, 1 in 24 months, last 714 days, usual gap 120 days")
    assert ("maintenance", "slowing", -1) in found


def test_no_stable_release_in_two_years_is_inactive():
    found = history("0 in 12 months, 0 in 24 months, last 2544 days, usual gap 30 days")
    assert ("maintenance", "inactive", -1) in found


def test_a_fact_whose_line_is_not_in_the_record_is_left_out():
    doc = record([fact("licence", "MIT", "loam/loamdb licence (SPDX): MIT")])
    doc = doc.model_copy(update={"text": "# nothing here\n"})
    notes, _ = record_page(doc, "---\n---\n\n")
    assert notes.facts == [] and notes.key_points == []
