from __future__ import annotations

from reports.narrative import Say, cause, describe, reasons, top_contradiction
from research.artifacts import (
    Assessment,
    Claim,
    Contradiction,
    ContradictionSide,
    Decision,
    Dimension,
    Plan,
    RankedOption,
    Recommendation,
    ScoreCell,
)

PLAN = Plan(
    question="Alder or Birch?",
    options=["Alder", "Birch"],
    dimensions=[Dimension(name="cost", weight=0.6), Dimension(name="risk", weight=0.4)],
    sources=["local:corpus"],
    queries=[],
)
CLAIMS = {
    "c1": Claim(id="c1", option="Alder", dimension="cost", attribute="stance", kind="stance",
                value="positive", polarity=1, source_id="s1", quote="Alder is cheap."),
    "c2": Claim(id="c2", option="Alder", dimension="risk", attribute="licence", kind="fact",
                value="MIT", source_id="s2", quote="Alder is MIT."),
    "c3": Claim(id="c3", option="Birch", dimension="cost", attribute="stance", kind="stance",
                value="negative", polarity=-1, source_id="s2", quote="Birch is dear."),
    "c4": Claim(id="c4", option="Birch", dimension="risk", attribute="licence", kind="fact",
                value="GPL-3.0", source_id="s3", quote="Birch is GPL."),
}  # fmt: skip


def cite(source_ids: list[str]) -> str:
    return ", ".join(f"[{s[1:]}]" for s in sorted(set(source_ids)))


def cell(
    option: str, dimension: str, score: float | None, *claim_ids: str, sites: int = 2
) -> ScoreCell:
    """A scored cell is backed by two independent sites unless a test says otherwise."""
    if score is None:
        return ScoreCell(option=option, dimension=dimension, missing=True)
    return ScoreCell(
        option=option, dimension=dimension, score=score, claim_ids=list(claim_ids), sites=sites
    )


def decision(
    matrix,
    totals: dict[str, float | None],
    option: str | None = "Alder",
    single_site: str | None = None,
) -> Decision:
    ordered = sorted(totals, key=lambda o: -(totals[o] or -1))
    return Decision(
        matrix=matrix,
        totals=totals,
        ranking=[
            RankedOption(
                option=o,
                total=totals[o],
                rank=i,
                cells_with_evidence=sum(1 for c in matrix if c.option == o and not c.missing),
            )
            for i, o in enumerate(ordered, 1)
        ],
        recommendation=Recommendation(
            option=option, reasons=[], low_confidence=False, single_site=single_site
        ),
        assessment=Assessment(
            coverage=0, consistency=0, timeliness=0, verifiability=0, confidence=0, method=""
        ),
        threshold=65,
        missing_information=[],
    )


def side(claim_id: str) -> ContradictionSide:
    claim = CLAIMS[claim_id]
    return ContradictionSide(claim_id=claim_id, source_id=claim.source_id, quote=claim.quote)


def contradiction(id_: str, option: str, attribute: str, dimension: str, a: str, b: str):
    return Contradiction(
        id=id_, option=option, attribute=attribute, dimension=dimension, a=side(a), b=side(b),
        note="",
    )  # fmt: skip


def test_the_reasons_are_the_winners_total_its_lead_and_the_dimension_that_decided_it():
    matrix = [
        cell("Alder", "cost", 90, "c1"),
        cell("Alder", "risk", 50, "c2"),
        cell("Birch", "cost", 40, "c3"),
        cell("Birch", "risk", 70, "c4"),
    ]
    said = reasons(decision(matrix, {"Alder": 74, "Birch": 52}), PLAN, CLAIMS, cite, ["s1"])
    assert [s.key for s in said] == ["reason_total", "reason_margin", "reason_versus"]
    assert said[0].params == {
        "option": "Alder", "total": "74.0", "covered": 2, "dimensions": 2, "share": "100",
        "cites": "[1], [2]",
    }  # fmt: skip
    assert said[1].params == {"runner": "Birch", "runner_total": "52.0", "gap": "22.0"}
    # Alder gains 0.6 x 50 on cost and loses 0.4 x 20 on risk: cost decided it.
    assert said[2].params["dimension"] == "cost"
    assert said[2].params["runner_score"] == "40.0"
    assert said[2].params["cites"] == "[1]"


def test_a_close_race_is_called_one():
    matrix = [cell("Alder", "cost", 70, "c1"), cell("Birch", "cost", 66, "c3")]
    said = reasons(decision(matrix, {"Alder": 70, "Birch": 66}), PLAN, CLAIMS, cite, ["s1"])
    assert said[1].key == "reason_close"


def test_without_a_comparable_runner_up_the_winners_biggest_contribution_is_named():
    matrix = [
        cell("Alder", "cost", 60, "c1"),
        cell("Alder", "risk", 95, "c2"),
        cell("Birch", "cost", None),
        cell("Birch", "risk", None),
    ]
    said = reasons(decision(matrix, {"Alder": 74, "Birch": None}), PLAN, CLAIMS, cite, ["s1"])
    assert [s.key for s in said] == ["reason_total", "reason_alone", "reason_strongest"]
    assert said[2].params["dimension"] == "risk"  # 0.4 x 95 > 0.6 x 60


def test_the_winners_total_says_how_much_of_the_weight_rests_on_evidence():
    matrix = [cell("Alder", "cost", 80, "c1"), cell("Alder", "risk", None)]
    said = reasons(decision(matrix, {"Alder": 68, "Birch": None}), PLAN, CLAIMS, cite, ["s1"])
    assert (said[0].params["covered"], said[0].params["share"]) == (1, "60")  # cost weighs 0.6


def test_a_cell_backed_by_one_site_is_never_given_as_a_reason():
    matrix = [
        cell("Alder", "cost", 90, "c1", sites=1),
        cell("Alder", "risk", 50, "c2", sites=1),
        cell("Birch", "cost", 40, "c3"),
        cell("Birch", "risk", 70, "c4"),
    ]
    said = reasons(decision(matrix, {"Alder": 74, "Birch": 52}), PLAN, CLAIMS, cite, ["s1"])
    assert [s.key for s in said] == ["reason_total", "reason_margin"]


def test_the_comparison_is_made_only_where_both_cells_have_two_sites():
    matrix = [
        cell("Alder", "cost", 90, "c1"),
        cell("Alder", "risk", 80, "c2"),
        cell("Birch", "cost", 40, "c3", sites=1),  # the bigger gain, but on one site
        cell("Birch", "risk", 70, "c4"),
    ]
    said = reasons(decision(matrix, {"Alder": 86, "Birch": 52}), PLAN, CLAIMS, cite, ["s1"])
    assert said[2].key == "reason_versus"
    assert (said[2].params["dimension"], said[2].params["runner_score"]) == ("risk", "70.0")


def test_when_the_biggest_contribution_rests_on_one_site_the_backed_cell_is_named_as_such():
    matrix = [
        cell("Alder", "cost", 60, "c1"),
        cell("Alder", "risk", 95, "c2", sites=1),
        cell("Birch", "cost", None),
        cell("Birch", "risk", None),
    ]
    said = reasons(decision(matrix, {"Alder": 74, "Birch": None}), PLAN, CLAIMS, cite, ["s1"])
    assert said[2].key == "reason_backed"  # not "its largest contribution": risk is, alone
    assert (said[2].params["dimension"], said[2].params["sites"]) == ("cost", 2)


def test_a_best_option_on_a_single_site_gets_no_recommendation_and_the_reason_names_the_site():
    matrix = [cell("Alder", "cost", 90, "c1", sites=1), cell("Alder", "risk", None)]
    d = decision(matrix, {"Alder": 74, "Birch": None}, option=None, single_site="alder.dev")
    said = reasons(d, PLAN, CLAIMS, cite, ["s1"])
    assert [s.key for s in said] == ["reason_single_site"]
    assert said[0].params == {
        "option": "Alder", "total": "74.0", "covered": 1, "dimensions": 2, "share": "60",
        "cites": "[1]", "site": "alder.dev",
    }  # fmt: skip


def test_a_lead_resting_on_gaps_gives_the_decisions_own_reason_what_would_settle_it_and_cites():
    matrix = [
        cell("Alder", "cost", 90, "c1"),
        cell("Alder", "risk", None),
        cell("Birch", "cost", 95, "c3"),
        cell("Birch", "risk", None),
    ]
    d = decision(matrix, {"Alder": 74, "Birch": 72}, option=None)
    d.recommendation = d.recommendation.model_copy(
        update={
            "withheld": "unshared_lead",
            "no_recommendation_reason": "Alder does not lead where both have evidence.",
            "would_settle": "Evidence on risk for Alder and Birch would settle it.",
        }
    )
    said = reasons(d, PLAN, CLAIMS, cite, ["s1", "s2"])
    assert said == [
        Say("sentence", {"sentence": "Alder does not lead where both have evidence."}),
        Say("sentence", {"sentence": "Evidence on risk for Alder and Birch would settle it."}),
        Say("evidence", {"cites": "[1], [2]"}),
    ]


def test_with_no_recommendation_the_reasons_say_what_was_read_and_what_was_unreachable():
    d = decision([cell("Alder", "cost", None)], {"Alder": None, "Birch": None}, option=None)
    d.unreachable = ["https://example.org: TIMEOUT"]
    said = reasons(d, PLAN, {}, cite, ["s1", "s2"])
    assert [s.key for s in said] == ["reason_nothing_verified", "reason_unreachable"]
    assert said[0].params == {"cites": "[1], [2]"}
    assert reasons(d, PLAN, {}, cite, [])[0].key == "reason_nothing_read"


def test_the_contradiction_that_touches_the_recommendation_comes_first():
    on_birch = contradiction("x1", "Birch", "licence", "risk", "c4", "c4")
    on_alder = contradiction("x2", "Alder", "stance", "cost", "c1", "c1")
    d = decision([], {"Alder": 80, "Birch": 60})
    assert top_contradiction([on_birch, on_alder], d, PLAN, CLAIMS) is on_alder


def test_for_one_option_the_contradiction_on_the_heavier_dimension_comes_first():
    on_risk = contradiction("x1", "Alder", "licence", "risk", "c2", "c2")
    on_cost = contradiction("x2", "Alder", "stance", "cost", "c1", "c1")
    d = decision([], {"Alder": 80, "Birch": 60})
    assert top_contradiction([on_risk, on_cost], d, PLAN, CLAIMS) is on_cost
    assert top_contradiction([], d, PLAN, CLAIMS) is None


def test_an_unexplained_clash_of_facts_comes_before_sentences_and_changes_over_time():
    sentences = contradiction("x1", "Alder", "stance", "cost", "c1", "c1")
    sentences.b.claim_id = "c5"
    changed = contradiction("x2", "Alder", "licence", "cost", "c2", "c2")
    changed.cause = "time"
    clash = contradiction("x3", "Alder", "licence", "risk", "c2", "c2")
    clash.cause = "error"
    claims = CLAIMS | {"c5": CLAIMS["c1"].model_copy(update={"id": "c5", "kind": "statement"})}
    d = decision([], {"Alder": 80, "Birch": 60})
    assert top_contradiction([sentences, changed, clash], d, PLAN, claims) is clash
    assert top_contradiction([sentences, changed], d, PLAN, claims) is changed


def test_a_contradiction_is_described_by_citation_number_and_value_without_quotes():
    x = contradiction("x1", "Birch", "licence", "risk", "c2", "c4")
    said = describe(x, CLAIMS, {"s2": 2, "s3": 3})
    assert said.key == "contradiction_fact"
    assert said.params == {"a": "[2]", "b": "[3]", "a_value": "MIT", "b_value": "GPL-3.0"}


def test_a_whole_sentence_claim_is_described_by_citation_number_alone():
    statement = CLAIMS["c4"].model_copy(
        update={"id": "c5", "kind": "statement", "value": "Birch is GPL"}
    )
    claims = CLAIMS | {"c5": statement}
    x = contradiction("x1", "Birch", "licence", "risk", "c2", "c4")
    x.b.claim_id = "c5"
    said = describe(x, claims, {"s2": 2, "s3": 3})
    assert said.key == "contradiction_plain"
    assert "a_value" not in said.params


def test_a_change_over_time_names_the_earlier_and_the_current_pages():
    x = contradiction("x1", "Birch", "licence", "risk", "c2", "c4")
    x.cause, x.current = "time", "c4"
    x.a_also = [side("c1")]  # a second page siding with the earlier state
    said = cause(x, CLAIMS, {"s1": 1, "s2": 2, "s3": 3})
    assert said.key == "cause_time"
    assert said.params == {"earlier": "[1], [2]", "current": "[3]", "count": 2}
    x.current = "c1"  # the current claim sides with a: b is the earlier state
    assert cause(x, CLAIMS, {"s1": 1, "s2": 2, "s3": 3}).params["earlier"] == "[3]"


def test_a_change_over_time_without_a_current_side_says_only_what_it_knows():
    x = contradiction("x1", "Birch", "licence", "risk", "c2", "c4")
    x.cause, x.current = "time", "c3"  # on neither side
    assert cause(x, CLAIMS, {"s2": 2, "s3": 3}).params == {"current": "[2]"}
    x.current = None
    assert cause(x, CLAIMS, {"s2": 2, "s3": 3}).key == "cause_time_unknown"


def test_a_difference_of_scope_names_both_sides():
    x = contradiction("x1", "Birch", "licence", "risk", "c2", "c4")
    x.cause = "scope"
    assert cause(x, CLAIMS, {"s2": 2, "s3": 3}) == Say("cause_scope", {"a": "[2]", "b": "[3]"})


def test_an_unexplained_difference_names_the_stronger_source():
    x = contradiction("x1", "Birch", "licence", "risk", "c2", "c4")
    numbers = {"s1": 1, "s2": 2, "s3": 3}
    assert cause(x, CLAIMS, numbers) is None  # no cause given
    x.cause = "error"
    assert cause(x, CLAIMS, numbers).key == "cause_error"  # strengths unknown
    said = cause(x, CLAIMS, numbers, {"c2": 60.0, "c4": 90.0})
    assert said == Say(
        "cause_error_stronger", {"stronger": "[3]", "strong": "90", "weaker": "[2]", "weak": "60"}
    )
    x.a_also = [side("c1")]  # a primary page joins the weaker side: now they are even
    even = cause(x, CLAIMS, numbers, {"c1": 90.0, "c2": 60.0, "c4": 90.0})
    assert even == Say("cause_error_even", {"strength": "90"})
