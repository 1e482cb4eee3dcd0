"""A recommendation that rests on gaps is withheld: the leader's evidence must cover at
least half of the weight, and its lead must not come only from cells where the runner-up
has no evidence. The ranking and the matrix stay; the reason says what would settle it."""

from __future__ import annotations

from decisions.assessment import held_below
from decisions.scoring.totals import rank, total
from decisions.withhold import THIN, UNSHARED, withheld
from research.artifacts import Assessment
from tests.decisions.builders import Run, saas_run, scored


def ranking_of(table: dict[str, dict[str, float | None]], weights: dict[str, float]):
    cells = [scored(o, d, s) for o, row in table.items() for d, s in row.items()]
    totals = {o: total([c for c in cells if c.option == o], weights) for o in table}
    sites = {o: ["a.example.com", "b.example.org"] for o in table}
    return rank(totals, cells, weights, sites), cells


# --- the rule, on plain score cells -----------------------------------------------------------


def test_a_leader_with_evidence_on_a_third_of_the_weight_is_withheld_naming_its_gaps():
    weights = {"cost": 1.0, "licence risk": 1.0, "maintenance": 1.0}
    ranking, cells = ranking_of(
        {
            "SQLite": {"cost": 90.0, "licence risk": None, "maintenance": None},
            "Postgres": {"cost": 40.0, "licence risk": 60.0, "maintenance": None},
        },
        weights,
    )

    held = withheld(ranking, cells, weights)

    assert ranking[0].option == "SQLite"  # the neutral 50s still put it first
    assert held is not None and held.kind == THIN
    assert round(held.cover, 3) == 0.333
    assert [(g.option, g.dimension) for g in held.settle] == [
        ("SQLite", "licence risk"),
        ("SQLite", "maintenance"),
        ("Postgres", "maintenance"),
    ]


def test_evidence_on_exactly_half_of_the_weight_is_enough():
    weights = {"cost": 0.5, "licence risk": 0.3, "maintenance": 0.2}
    ranking, cells = ranking_of(
        {
            "SQLite": {"cost": 90.0, "licence risk": None, "maintenance": None},
            "Postgres": {"cost": 40.0, "licence risk": None, "maintenance": None},
        },
        weights,
    )

    assert withheld(ranking, cells, weights) is None


def test_the_heaviest_missing_cells_are_named_first():
    weights = {"cost": 0.2, "licence risk": 0.4, "maintenance": 0.3, "docs": 0.1}
    ranking, cells = ranking_of(
        {
            "SQLite": {"cost": 95.0, "licence risk": None, "maintenance": None, "docs": None},
            "Postgres": {"cost": 30.0, "licence risk": 50.0, "maintenance": None, "docs": 40.0},
        },
        weights,
    )

    held = withheld(ranking, cells, weights)

    assert held is not None and held.kind == THIN
    # SQLite's docs carry a tenth of the weight, less than any of the three named
    assert [(g.option, g.dimension) for g in held.settle] == [
        ("SQLite", "licence risk"),
        ("SQLite", "maintenance"),
        ("Postgres", "maintenance"),
    ]


def test_a_lead_that_comes_only_from_the_runner_ups_gaps_is_withheld():
    weights = {"speed": 1.0, "cost": 1.0, "docs": 1.0}
    ranking, cells = ranking_of(
        {
            "Steady": {"speed": 70.0, "cost": 75.0, "docs": 75.0},
            "Solo": {"speed": 85.0, "cost": None, "docs": None},
        },
        weights,
    )

    held = withheld(ranking, cells, weights)

    assert ranking[0].option == "Steady"
    assert held is not None and (held.kind, held.runner, held.shared) == (
        UNSHARED,
        "Solo",
        ["speed"],
    )
    assert [(g.option, g.dimension) for g in held.settle] == [("Solo", "cost"), ("Solo", "docs")]


def test_a_runner_up_with_no_evidence_at_all_leaves_nothing_to_compare_against():
    weights = {"speed": 1.0, "cost": 1.0}
    ranking, cells = ranking_of(
        {"Steady": {"speed": 70.0, "cost": 75.0}, "Solo": {"speed": None, "cost": None}},
        weights,
    )

    held = withheld(ranking, cells, weights)

    assert held is not None and (held.kind, held.shared) == (UNSHARED, [])


def test_a_leader_with_most_of_the_weight_that_leads_where_both_have_evidence_is_recommended():
    weights = {"speed": 0.5, "cost": 0.3, "docs": 0.2}
    ranking, cells = ranking_of(
        {
            "Steady": {"speed": 80.0, "cost": 70.0, "docs": None},
            "Other": {"speed": 60.0, "cost": 72.0, "docs": 90.0},
        },
        weights,
    )

    assert ranking[0].option == "Steady"
    assert withheld(ranking, cells, weights) is None


# --- through the decide stage ------------------------------------------------------------------


def test_a_leader_covering_a_third_of_the_weight_gets_no_recommendation_and_says_why():
    decision = saas_run().decide()

    rec = decision.recommendation
    top = decision.ranking[0]
    assert (top.option, top.evidence_share) == ("SQLite", 33.3)
    assert rec.option is None and rec.withheld == "thin_evidence"
    assert rec.no_recommendation_reason == (
        f"SQLite has the highest weighted total, {top.total:.1f}/100, but its evidence covers "
        "only 33% of the weight (1 of 3 dimensions), less than the half a recommendation "
        "needs, so none is given."
    )
    assert rec.would_settle == (
        "Evidence on licence risk and maintenance for SQLite, and on maintenance for Postgres "
        "would settle it."
    )
    assert rec.reasons == [rec.no_recommendation_reason, rec.would_settle]
    assert [(c.option, c.dimension) for c in rec.settling_cells] == [
        ("SQLite", "licence risk"),
        ("SQLite", "maintenance"),
        ("Postgres", "maintenance"),
    ]
    # the ranking and the matrix stay as they were
    assert [r.option for r in decision.ranking] == ["SQLite", "Postgres"]
    assert sum(1 for c in decision.matrix if not c.missing) == 3


def test_a_withheld_recommendation_comes_with_a_confidence_below_the_threshold():
    # Well sourced (primary pages, two or more sites per cell, a wide margin), but Steady's
    # lead over Solo comes only from cost, where Solo has no evidence.
    run = (
        Run(["Steady", "Solo"], ["speed", "cost"])
        .page("s1", "https://steady.dev/docs/pricing", "Steady pricing")
        .page("s2", "https://steady.dev/docs/benchmarks", "Steady benchmarks")
        .page("o1", "https://solo.dev/docs/benchmarks", "Solo benchmarks")
        .page("a", "https://bench.example.com/kv", "Key-value benchmarks")
        .page("b", "https://notes.example.org/kv", "Notes on embedded stores")
        .says("s1", "Steady", "cost", "Steady is free under the MIT licence.", +1, "licence", "MIT")
        .says("a", "Steady", "cost", "Steady is cheap to run.", +1)
        .says("b", "Steady", "cost", "Steady costs little to host.", +1)
        .says("s2", "Steady", "speed", "Steady serves 50,000 reads/s.", +1, "throughput", "50000")
        .says("b", "Steady", "speed", "Steady stalls under heavy write load.", -1)
        .says("o1", "Solo", "speed", "Solo serves 90,000 reads/s.", +1, "throughput", "90000")
        .says("a", "Solo", "speed", "Solo is remarkably fast.", +1)
        .says("b", "Solo", "speed", "Solo is the fastest store we tried.", +1)
    )

    decision = run.decide()

    assert decision.recommendation.withheld == "unshared_lead"
    assert (decision.assessment.confidence, decision.threshold) == (64.0, 65)
    assert decision.recommendation.low_confidence
    assert "giving 77.4" in decision.assessment.method  # what its parts alone would give
    assert decision.assessment.method.endswith(
        "No recommendation is given, so confidence is held below the threshold of 65: 64.0."
    )


def test_a_chinese_question_says_in_chinese_why_nothing_is_recommended_and_what_would_settle_it():
    rec = saas_run(language="zh").decide().recommendation

    assert rec.withheld == "thin_evidence"
    assert rec.no_recommendation_reason.startswith("SQLite的加权总分最高")
    assert "但其证据只覆盖 33% 的权重（3 个维度中的 1 个）" in rec.no_recommendation_reason
    assert (
        rec.would_settle
        == "补充SQLite在许可风险和维护活跃度方面，以及Postgres在维护活跃度方面的证据即可定夺。"
    )


def test_a_lead_resting_on_the_runner_ups_gaps_is_not_recommended_and_the_reason_says_so():
    run = (
        Run(["Solo", "Steady"], ["speed", "cost", "docs"])
        .page("a", "https://bench.example.com/kv", "Key-value benchmarks")
        .page("b", "https://notes.example.org/kv", "Notes on embedded stores")
        .page("c", "https://digest.example.net/kv", "The store digest")
        .says("a", "Solo", "speed", "Solo is remarkably fast.", +1)
        .says("b", "Solo", "speed", "Solo answers reads in microseconds.", +1)
        .says("c", "Solo", "speed", "Solo is the fastest store we tried.", +1)
    )
    for dim in ("speed", "cost", "docs"):
        run.says("a", "Steady", dim, f"Steady is good on {dim}.", +1)
        run.says("b", "Steady", dim, f"Steady does well on {dim}.", +1)

    decision = run.decide()

    rec = decision.recommendation
    assert decision.ranking[0].option == "Steady"
    assert (rec.option, rec.withheld) == (None, "unshared_lead")
    assert rec.no_recommendation_reason == (
        f"Steady has the highest weighted total, {decision.ranking[0].total:.1f}/100, but its "
        "lead over Solo comes only from dimensions where Solo has no evidence: on speed, where "
        "both have evidence, Steady does not lead, so no recommendation is given."
    )
    assert rec.would_settle == "Evidence on cost and docs for Solo would settle it."
    logged = next(e for e in run.ctx.events if e["event"] == "recommendation")
    assert (logged["option"], logged["withheld"]) == (None, "unshared_lead")


def test_holding_confidence_below_the_threshold_says_so_in_the_method():
    assessment = Assessment(
        coverage=90.0,
        consistency=90.0,
        timeliness=90.0,
        verifiability=90.0,
        confidence=81.3,
        method="confidence = 81.3.",
    )

    held = held_below(assessment, 65)

    assert held.confidence == 64.0
    assert held.method == (
        "confidence = 81.3. No recommendation is given, so confidence is held below the "
        "threshold of 65: 64.0."
    )
    assert held_below(held.model_copy(update={"confidence": 40.0}), 65).confidence == 40.0
