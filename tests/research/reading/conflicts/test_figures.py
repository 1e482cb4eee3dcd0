"""Figures of one option that two sources state differently: prices in one period, set
prices against a tight tolerance, round figures that stand for the exact one, and a note
that says which page is the newer."""

from __future__ import annotations

from datetime import date

from research.artifacts import Claim
from research.reading.claims import quantity_facts
from research.reading.conflicts.facts import SourceFacts, find_contradictions

SOURCES = {
    "old": SourceFacts("prices.example", "comparison", 60.0, date(2023, 2, 1)),
    "new": SourceFacts("vendor.example", "primary", 90.0, date(2025, 5, 1)),
}


def _claims(*quotes: tuple[str, str]) -> list[Claim]:
    found = []
    for source_id, quote in quotes:
        for fact in quantity_facts(quote):
            found.append(
                Claim(
                    id=f"c{len(found) + 1:03d}",
                    option="Quillsync",
                    dimension="cost",
                    attribute=fact.attribute,
                    kind="fact",
                    value=fact.value,
                    polarity=0,
                    source_id=source_id,
                    quote=quote,
                    offset=0,
                )
            )
    return found


def test_a_price_by_the_year_is_set_against_one_by_the_month():
    claims = _claims(
        ("old", "Quillsync Teams costs $4 per user per month."),
        ("new", "Quillsync Teams is $60 per user per year."),
    )
    [found] = find_contradictions(claims, SOURCES)
    assert found.attribute.startswith("price per seat")
    assert "$4" in found.a.quote + found.b.quote and "$60" in found.a.quote + found.b.quote


def test_the_same_price_by_the_year_and_by_the_month_agrees():
    claims = _claims(
        ("old", "Quillsync Teams costs $4 per user per month."),
        ("new", "Quillsync Teams is $48 per user per year."),
    )
    assert find_contradictions(claims, SOURCES) == []


def test_list_prices_a_few_percent_apart_are_different_prices_and_the_note_names_the_newer():
    claims = _claims(
        ("old", "The list price of Quillsync is $935.77 per month."),
        ("new", "Quillsync's list price is currently $968.52 per month."),
    )
    [found] = find_contradictions(claims, SOURCES)
    assert "935.77" in found.note and "968.52" in found.note
    assert "newer" in found.note and "vendor.example" in found.note
    assert found.cause == "time" and found.current is not None


def test_a_round_price_stands_for_the_exact_one():
    claims = _claims(
        ("old", "Quillsync runs about $1,000 per month at list price."),
        ("new", "Quillsync's list price is currently $968.52 per month."),
    )
    assert find_contradictions(claims, SOURCES) == []


def test_star_counts_in_thousands_and_in_digits_are_one_figure():
    same = _claims(
        ("old", "Quillsync has 30k GitHub stars."),
        ("new", "Quillsync passed 30,000 stars on GitHub."),
    )
    assert find_contradictions(same, SOURCES) == []
    apart = _claims(
        ("old", "Quillsync has 30k GitHub stars."),
        ("new", "Quillsync 在 GitHub 上有 1.2万 颗星。"),
    )
    [found] = find_contradictions(apart, SOURCES)
    assert found.attribute == "stars"


def test_two_trials_median_survival_in_months_are_compared_and_two_arms_are_not():
    claims = _claims(
        ("old", "Zelbrin gave a median progression-free survival (PFS) of 18.9 months."),
        ("new", "In the pooled cohort the median PFS with Zelbrin was 11.2 months."),
    )
    [found] = find_contradictions(claims, SOURCES)
    assert found.attribute == "median progression-free survival (months)"
    two_arms = "Median PFS was 18.9 months with Zelbrin versus 10.2 months with the comparator."
    assert not any(f.attribute.startswith("median") for f in quantity_facts(two_arms))
