"""How study and benchmark results are read (research.reading.claims.results.results_hits):
a result for the option, against it, or one that favours neither. Every sentence here is
invented; the drugs are fictional.
"""

from __future__ import annotations

import pytest

from research.reading.claims.results import NEUTRAL, results_hits

FAVOURS, AGAINST = 1.0, -1.0


def results(text: str) -> list[tuple[str, float]]:
    """(the words of each result the text reports, its weight), in the order found."""
    return [(text[start:end], weight) for start, end, weight in results_hits(text)]


def weights(text: str) -> list[float]:
    return [weight for _, weight in results(text)]


@pytest.mark.parametrize(
    "text",
    [
        "Glarivex was noninferior to placebo for major cardiovascular events.",
        "Glarivex was non-inferior to Tomeprazan.",
        "Noninferiority of Glarivex was shown for cardiovascular outcomes.",
        "There was no significant difference between Glarivex and Tomeprazan in stroke.",
        "The difference in heart failure was not statistically significant.",
        "Glarivex did not increase the risk of heart failure.",
        "Glarivex did not significantly increase the rate of hypoglycaemia.",
        "Glarivex did not differ from placebo in cardiovascular death.",
        "Glarivex had a neutral effect on cardiovascular events.",
        "Glarivex was not associated with pancreatitis.",
        "Glarivex and Tomeprazan had similar rates of hypoglycaemia.",
        "Glarivex had no effect on blood pressure.",
    ],
)
def test_a_result_that_finds_no_difference_is_neutral(text):
    assert weights(text) == [NEUTRAL]


@pytest.mark.parametrize(
    "text",
    [
        "Glarivex reduced the risk of cardiovascular death.",
        "Glarivex significantly lowered the rate of stroke.",
        "Glarivex cut hospitalisation events by a third.",
        "Glarivex produced a 26% relative risk reduction in major cardiovascular events.",
        "Glarivex produced a 14 percent reduction in major adverse events.",
        "Glarivex showed a significant reduction in heart failure.",
        "Patients on Glarivex had lower mortality.",
        "Patients on Glarivex had fewer cardiovascular deaths.",
        "Glarivex improved cardiovascular outcomes.",
    ],
)
def test_a_reduced_risk_favours_the_treatment(text):
    assert weights(text) == [FAVOURS]


@pytest.mark.parametrize(
    "text",
    [
        "Glarivex increased the risk of fractures.",
        "Glarivex significantly raised the rate of infections.",
        "Glarivex doubled the risk of pancreatitis.",
        "Patients on Glarivex had a higher rate of infections.",
        "Patients on Glarivex had an elevated risk of ketoacidosis.",
    ],
)
def test_a_raised_risk_counts_against_the_treatment(text):
    assert weights(text) == [AGAINST]


def test_a_benefit_looked_for_and_not_found_counts_against_the_treatment():
    assert weights("Glarivex did not reduce the rate of stroke.") == [AGAINST]


def test_did_not_increase_is_neutral_while_increased_counts_against():
    assert weights("Glarivex did not increase the risk of stroke.") == [NEUTRAL]
    assert weights("Glarivex increased the risk of stroke.") == [AGAINST]


def test_noninferior_then_superior_is_not_read_as_neutral():
    text = "Glarivex was noninferior to placebo and then proved superior to it."
    assert NEUTRAL not in weights(text)


# --- ratios with their confidence intervals --------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "hazard ratio 0.74 (95% CI 0.62-0.89)",
        "hazard ratio 0.74; 95% CI, 0.62 to 0.89",
        "HR, 0.88; 95% CI, 0.79 to 0.99",
        "HR 0.81 (95% CI 0.70–0.94)",
        "odds ratio 0.70 (95% confidence interval 0.55-0.90)",
        "relative risk 0.80 (0.66 to 0.97)",
    ],
)
def test_a_ratio_whose_whole_interval_lies_below_one_favours_the_treatment(text):
    assert weights(text) == [FAVOURS]


@pytest.mark.parametrize(
    "text",
    [
        "HR 0.93 (95% CI 0.81-1.07)",
        "hazard ratio 1.04; 95% CI, 0.90 to 1.20",
        "odds ratio 0.85 (95% CI 0.70-1.03)",
        "relative risk 0.80 (0.60 to 1.00)",
    ],
)
def test_a_ratio_whose_interval_reaches_one_is_neutral(text):
    assert weights(text) == [NEUTRAL]


@pytest.mark.parametrize(
    "text",
    [
        "HR 1.32 (95% CI 1.10-1.58)",
        "odds ratio 1.45 (95% confidence interval 1.12 to 1.88)",
    ],
)
def test_a_ratio_whose_whole_interval_lies_above_one_counts_against_the_treatment(text):
    assert weights(text) == [AGAINST]


@pytest.mark.parametrize(
    "text",
    [
        "The hazard ratio was 0.74.",
        "HR 0.74",
    ],
)
def test_a_ratio_without_its_interval_is_not_read_as_a_result(text):
    assert results(text) == []


def test_a_ratio_result_spans_the_ratio_and_its_interval():
    text = "Cardiovascular death: HR 0.74 (95% CI 0.62-0.89) with Glarivex."
    assert results(text) == [("HR 0.74 (95% CI 0.62-0.89", FAVOURS)]


def test_a_sentence_with_two_outcomes_reports_each_result_where_it_stands():
    text = "Glarivex reduced the risk of stroke but did not increase the risk of heart failure."
    assert set(results(text)) == {
        ("reduced the risk", FAVOURS),
        ("did not increase the risk", NEUTRAL),
    }


# --- not results -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Quillsync handled 40% more requests than Loamdb.",
        "Quillsync's risk register is public.",
        "Patients at high risk were excluded from the Glarivex trial.",
        "Glarivex is taken once a week.",
        "青鸟流程的性能很好。",
    ],
)
def test_a_sentence_that_reports_no_result_has_none(text):
    assert results(text) == []
