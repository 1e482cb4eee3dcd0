"""ClinicalTrials.gov API v2: design, arms, primary outcomes, posted results and dates."""

from __future__ import annotations

from research.outcomes import Outcome
from research.providers.primary import Subject
from research.providers.primary.clinicaltrials import words
from research.providers.primary.trials import result_line
from tests.research.providers.primary.fakeservices import FakeServices
from tests.research.providers.primary.world_research import SUSTAIN6_RESULTS


def test_studies_of_the_option_are_searched_as_an_intervention(
    primary, services: FakeServices
) -> None:
    result = primary("clinicaltrials").lookup(
        Subject("semaglutide", query="cardiovascular", limit=5)
    )

    assert result.outcome is Outcome.OK
    asked = services.asked("clinicaltrials")[0]
    assert (asked.query["query.intr"], asked.query["query.term"]) == (
        "semaglutide",
        "cardiovascular",
    )
    assert [record.url for record in result.records] == [
        "https://clinicaltrials.gov/study/NCT01720446",
        "https://clinicaltrials.gov/study/NCT02692716",
    ]


def test_a_trial_record_states_design_arms_and_primary_outcomes(
    primary, services: FakeServices
) -> None:
    result = primary("clinicaltrials").lookup(Subject("semaglutide", identifier="NCT01720446"))

    by_attribute = {}
    for fact in result.facts:
        by_attribute.setdefault(fact.attribute, []).append(fact.quote)
    assert by_attribute["trial_design"] == [
        "Design of NCT01720446: interventional, Phase 3, randomized, parallel assignment, "
        "quadruple masking, 3,297 participants (actual)"
    ]
    assert by_attribute["trial_arm"] == [
        "Arm of NCT01720446: Semaglutide 0.5 mg (experimental): Drug: semaglutide",
        "Arm of NCT01720446: Placebo (placebo comparator): Drug: placebo",
    ]
    assert by_attribute["trial_primary_outcome"] == [
        "Primary outcome of NCT01720446: Time From Randomisation to First Occurrence of a "
        "Major Adverse Cardiovascular Event (MACE) (time frame: Weeks 0-109)"
    ]
    assert by_attribute["trial_status"] == [
        "Status of NCT01720446: completed; started 2013-02-14; primary completion 2016-03; "
        "completion 2016-03-15"
    ]


def test_posted_results_are_stated_with_the_registrys_own_figures(
    primary, services: FakeServices
) -> None:
    result = primary("clinicaltrials").lookup(Subject("semaglutide", identifier="NCT01720446"))

    [found] = result.facts_about("trial_primary_result")
    assert found.quote == (
        "Primary outcome result of NCT01720446: Time From Randomisation to First Occurrence "
        "of a MACE (Weeks 0-109): Semaglutide 108 Participants; Placebo 146 Participants; "
        "Hazard Ratio (HR) 0.74 (95% CI 0.58 to 0.95), p <0.001"
    )
    assert found.event_date == "2017-04-12", "the day the results were posted"
    assert found.source_kind == "primary"
    record = result.records[0]
    assert (record.published, record.updated) == ("2012-11-01", "2019-01-22")
    assert "Body weight" not in found.quote, "secondary outcomes are not primary results"


def test_a_posted_analysis_gives_its_estimate_interval_and_p_value_as_facts(
    primary, services: FakeServices
) -> None:
    result = primary("clinicaltrials").lookup(Subject("semaglutide", identifier="NCT01720446"))

    about = (
        "NCT01720446, Time From Randomisation to First Occurrence of a MACE "
        "(Semaglutide vs Placebo)"
    )
    typed = {
        attribute: [(fact.value, fact.quote) for fact in result.facts_about(attribute)]
        for attribute in ("trial_effect", "trial_effect_interval", "trial_p_value")
    }
    assert typed == {
        "trial_effect": [("Hazard Ratio (HR) 0.74", f"Hazard Ratio (HR) of {about}: 0.74")],
        "trial_effect_interval": [
            (
                "0.58 to 0.95",
                f"95% confidence interval of the Hazard Ratio (HR) of {about}: 0.58 to 0.95",
            )
        ],
        "trial_p_value": [("<0.001", f"p-value of the Hazard Ratio (HR) of {about}: <0.001")],
    }
    lines = result.records[0].text.splitlines()
    assert all(f"- {quote}" in lines for found in typed.values() for _, quote in found)
    assert {fact.event_date for a in typed for fact in result.facts_about(a)} == {"2017-04-12"}


def test_a_trial_without_posted_results_says_so(primary, services: FakeServices) -> None:
    result = primary("clinicaltrials").lookup(Subject("x", identifier="NCT03548935"))

    assert result.facts_about("trial_primary_result") == []
    assert [(gap.attribute, gap.outcome, gap.detail) for gap in result.gaps] == [
        ("trial_results", Outcome.NO_HIT, "no results posted for NCT03548935")
    ]
    assert result.facts_about("trial_status")[0].value == "active not recruiting"


def test_pages_follow_the_next_page_token(primary, services: FakeServices) -> None:
    provider = primary("clinicaltrials")
    provider.page_size = 1

    result = provider.lookup(Subject("semaglutide", limit=3))

    tokens = [asked.query.get("pageToken") for asked in services.asked("clinicaltrials")]
    assert tokens[0] is None and len(tokens) == 3 and len(set(tokens)) == 3
    assert len(result.records) == 3


def test_the_last_page_ends_the_search(primary, services: FakeServices) -> None:
    provider = primary("clinicaltrials")
    provider.page_size = 2

    result = provider.lookup(Subject("semaglutide", limit=10))

    assert len(result.records) == 3
    assert len(services.asked("clinicaltrials")) == 2


def test_no_studies_is_no_hit(primary, services: FakeServices) -> None:
    result = primary("clinicaltrials").lookup(Subject("sitagliptin", query="heart failure"))

    assert result.outcome is Outcome.NO_HIT
    assert result.detail == (
        "ClinicalTrials.gov has no studies of 'sitagliptin' matching 'heart failure'"
    )


def test_an_unknown_study_is_no_hit(primary, services: FakeServices) -> None:
    result = primary("clinicaltrials").lookup(Subject("x", identifier="NCT09999999"))

    assert result.outcome is Outcome.NO_HIT
    assert result.detail == "ClinicalTrials.gov has no study NCT09999999"


def test_enums_read_as_words() -> None:
    assert words("PHASE3") == "Phase 3"
    assert words("EARLY_PHASE1") == "Early Phase 1"
    assert words("PLACEBO_COMPARATOR") == "placebo comparator"


def test_a_measure_without_values_gives_no_result_line() -> None:
    measure = dict(SUSTAIN6_RESULTS["outcomeMeasuresModule"]["outcomeMeasures"][0])
    measure["classes"] = []

    assert result_line(measure) == ""


def test_a_mean_keeps_its_dispersion() -> None:
    measure = {
        "title": "Change in HbA1c",
        "unitOfMeasure": "percentage points",
        "dispersionType": "STANDARD_DEVIATION",
        "groups": [{"id": "OG000", "title": "Empagliflozin 10 mg"}],
        "classes": [
            {
                "categories": [
                    {"measurements": [{"groupId": "OG000", "value": "-0.7", "spread": "0.9"}]}
                ]
            }
        ],
    }

    assert result_line(measure) == (
        "Change in HbA1c: Empagliflozin 10 mg -0.7 percentage points (standard deviation 0.9)"
    )
