"""The decide stage over plain artifacts: who wrote a source, thin evidence, status facts,
gaps that say whether anything was read, and the plan's language."""

from __future__ import annotations

import pytest

from decisions.decide import verify_quotes
from research.artifacts import (
    Contradiction,
    Crosscheck,
    Decision,
)
from research.outcomes import Outcome
from tests.decisions.builders import Run, kept, side


def cell(decision: Decision, option: str, dimension: str):
    return next(c for c in decision.matrix if (c.option, c.dimension) == (option, dimension))


# --- status dominates ---------------------------------------------------------------------


def test_an_archived_project_does_not_score_well_on_maintenance() -> None:
    run = (
        Run(["Orchardkv", "Quernbase"], ["maintenance"])
        .page("o1", "https://orchardkv.dev/blog/farewell", "Farewell")
        .page("r1", "https://kv-digest.example.com/roundup", "Key-value stores this spring")
        .page("r2", "https://storage-notes.example.org/kv", "Notes on embedded stores")
        .says(
            "o1",
            "Orchardkv",
            "maintenance",
            "The Orchardkv repository has been archived and will receive no further fixes.",
            -1,
            "maintenance",
            "inactive",
        )
        .says("r1", "Orchardkv", "maintenance", "Orchardkv has a friendly issue tracker.", +1)
        .says("r2", "Orchardkv", "maintenance", "Orchardkv's maintainers answer quickly.", +1)
    )

    orchard = cell(run.decide(), "Orchardkv", "maintenance")

    assert orchard.base is not None and orchard.base <= 15
    assert orchard.score is not None and orchard.score <= 20
    assert orchard.capped_by == "c001"
    assert any("no longer maintained" in note for note in orchard.notes)


# --- who wrote it -------------------------------------------------------------------------


def test_the_log_says_who_wrote_each_source_and_every_input_to_every_cell() -> None:
    run = (
        Run(["Orchardkv", "Quernbase"], ["speed"])
        .page("v1", "https://orchardkv.dev/compare/quernbase", "Orchardkv vs Quernbase")
        .says("v1", "Quernbase", "speed", "Quernbase stalls on large writes.", -1)
    )

    run.decide()

    graded = next(e for e in run.ctx.events if e["event"] == "source_graded")
    assert (graded["publisher"], graded["interested"]) == ("Orchardkv", True)
    assert graded["why"] == "interested party: published by Orchardkv's vendor"
    scored = next(
        e for e in run.ctx.events if e["event"] == "cell_scored" and e["option"] == "Quernbase"
    )
    for key in ("base", "raw_base", "evidence_weight", "prior_weight", "sites", "notes"):
        assert key in scored
    assert scored["strength"] == 30.0


def changed_speed(run: Run, current: str) -> Contradiction:
    quick, slow, echo = run.claims
    return Contradiction(
        id="x01",
        option="Orchardkv",
        attribute="stance",
        dimension="speed",
        a=side(quick),
        b=side(slow),
        b_also=[side(echo)],
        note="",
        cause="time",
        current=current,
    )


def speed_run() -> Run:
    return (
        Run(["Orchardkv"], ["speed"])
        .page("p1", "https://kv-bench.example.org/2025", "Key-value stores in 2025")
        .page("p2", "https://kv-notes.example.net/2021", "Key-value notes", published="2021-04-01")
        .page("p3", "https://forum.example.com/t/orchardkv/3", "Orchardkv speed")
        .says("p1", "Orchardkv", "speed", "Orchardkv answers reads in a millisecond.", +1)
        .says("p2", "Orchardkv", "speed", "Orchardkv is sluggish on reads.", -1)
        .says("p3", "Orchardkv", "speed", "Orchardkv felt sluggish to us too.", -1)
    )


def test_the_log_names_the_claims_a_later_source_supersedes() -> None:
    run = speed_run()
    run.contradictions = [changed_speed(run, current="c001")]

    decision = run.decide()

    event = next(e for e in run.ctx.events if e["event"] == "claims_superseded")
    assert (event["contradiction"], event["current"]) == ("x01", "c001")
    assert event["claim_ids"] == ["c002", "c003"]
    assert "superseded by a later source" in event["reason"]
    assert decision.matrix[0].superseded == ["c002", "c003"]


def test_only_pages_whose_quote_was_found_stand_on_a_side_of_a_contradiction() -> None:
    run = speed_run()
    x = changed_speed(run, current="c003")
    check = Crosscheck(claims=run.claims, consensus=[], contradictions=[x], gaps=[])
    pages = {"p1": run.claims[0].quote, "p2": run.claims[1].quote, "p3": "a different text"}

    kept = verify_quotes(check, pages, run.ctx).crosscheck.contradictions[0]

    assert kept.b_also == []
    assert kept.current is None  # its claim was not found, so which side is current is unknown


# --- gaps ---------------------------------------------------------------------------------


def test_a_gap_says_which_pages_about_the_option_were_never_read() -> None:
    run = (
        Run(["Orchardkv", "Quernbase"], ["cost"], max_pages=1)
        .page("r1", "https://kv-digest.example.com/roundup", "Orchardkv pricing")
        .says("r1", "Orchardkv", "cost", "Orchardkv is free for small teams.", +1)
    )
    run.unread = [
        kept("u1", "Quernbase plans and prices", "https://quernbase.io/pricing", "Quernbase")
    ]

    decision = run.decide()

    expected = (
        "No evidence on Quernbase x cost; 1 page about Quernbase was not read: “Quernbase plans "
        "and prices” (https://quernbase.io/pricing): beyond the reading budget of 1 pages"
    )
    assert expected in decision.missing_information
    assert cell(decision, "Quernbase", "cost").notes == [expected]
    assert decision.not_read == ["Quernbase plans and prices (https://quernbase.io/pricing)"]


def test_a_gap_says_when_an_unreachable_page_might_have_filled_it() -> None:
    run = (
        Run(["Orchardkv", "Quernbase"], ["cost"])
        .page("r1", "https://kv-digest.example.com/roundup", "Orchardkv pricing")
        .page(
            "q1",
            "https://quernbase.io/pricing",
            "Quernbase pricing",
            status=Outcome.TIMEOUT,
            published=None,
        )
        .says("r1", "Orchardkv", "cost", "Orchardkv is free for small teams.", +1)
    )

    decision = run.decide()

    line = cell(decision, "Quernbase", "cost").notes[0]
    assert "“Quernbase pricing” (https://quernbase.io/pricing): could not be read (TIMEOUT)" in line
    assert "https://quernbase.io/pricing: TIMEOUT" in decision.unreachable


def test_a_gap_with_everything_read_says_nothing_was_found_in_the_pages_read() -> None:
    run = (
        Run(["Orchardkv", "Quernbase"], ["cost"])
        .page("r1", "https://kv-digest.example.com/roundup", "Orchardkv pricing")
        .page("r2", "https://storage-notes.example.org/kv", "Embedded stores")
        .says("r1", "Orchardkv", "cost", "Orchardkv is free for small teams.", +1)
    )

    decision = run.decide()

    assert (
        "No evidence on Quernbase x cost was found in the 2 pages read"
        in decision.missing_information
    )


# --- language -----------------------------------------------------------------------------


def test_a_chinese_question_gets_chinese_sentences_throughout() -> None:
    run = (
        Run(["青石队列", "松涛存储"], ["成本", "维护"], language="zh")
        .page("r1", "https://mq-review.example.cn/qingshi", "青石队列评测")
        .page("r2", "https://dev-weekly.example.cn/42", "本周消息队列")
        .says("r1", "青石队列", "成本", "青石队列对小团队免费，成本很低。", +1)
        .says("r2", "青石队列", "成本", "青石队列的托管费用也不高。", +1)
        .says("r2", "松涛存储", "维护", "松涛存储的维护者回复很慢。", -1)
    )

    decision = run.decide()

    assert decision.recommendation.reasons[0].startswith("青石队列的加权总分最高")
    assert decision.assessment.method.startswith("置信度 = ")
    assert "在已读的 2 个页面中没有找到关于松涛存储在成本方面的证据" in (
        decision.missing_information
    )
    assert cell(decision, "青石队列", "成本").notes[0].startswith("基础分 = ")


# --- honest totals ------------------------------------------------------------------------


def test_an_option_strong_on_one_dimension_alone_no_longer_outranks_one_with_evidence_on_all():
    # Middling, backed by one site on every dimension, is the runner-up Steady is weighed
    # against: a lead over Solo alone would rest on Solo's gaps (decisions.withhold).
    run = (
        Run(["Solo", "Steady", "Middling"], ["speed", "cost", "docs"])
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
        run.says("c", "Middling", dim, f"Middling is decent on {dim}.", +1)

    decision = run.decide()

    solo = cell(decision, "Solo", "speed")
    assert solo.score is not None
    assert all(solo.score > (c.score or 0) for c in decision.matrix if c.option == "Steady")
    # its two dimensions without evidence count as 50 each, not as absent
    assert decision.totals["Solo"] == pytest.approx((solo.score + 50 + 50) / 3, abs=0.05)
    assert [(r.option, r.evidence_share) for r in decision.ranking] == [
        ("Steady", 100.0),
        ("Middling", 100.0),
        ("Solo", 33.3),
    ]
    assert decision.recommendation.option == "Steady"
    assert decision.recommendation.reasons[0].endswith(
        "with evidence on 3 of 3 dimensions, 100% of the weight."
    )


def single_site_run(language: str = "en") -> Run:
    """Solo's evidence all comes from its own site (two pages of solo.dev); Other's from
    two independent reviews that think little of it."""
    return (
        Run(["Solo", "Other"], ["speed", "cost"], language=language)
        .page("s1", "https://solo.dev/blog/fast", "Solo is fast")
        .page("s2", "https://docs.solo.dev/pricing", "Solo pricing")
        .page("r1", "https://bench.example.com/kv", "Key-value benchmarks")
        .page("r2", "https://notes.example.org/kv", "Notes on embedded stores")
        .says("s1", "Solo", "speed", "Solo answers reads in microseconds.", +1)
        .says("s2", "Solo", "cost", "Solo is free for small teams.", +1)
        .says("r1", "Other", "speed", "Other is slow under load.", -1)
        .says("r2", "Other", "cost", "Other is expensive for what it does.", -1)
    )


def test_a_best_option_whose_evidence_all_comes_from_one_site_is_not_recommended():
    run = single_site_run()

    decision = run.decide()

    best = decision.ranking[0]
    assert (best.option, best.sites) == ("Solo", ["solo.dev"])
    assert best.total is not None and best.total > (decision.ranking[1].total or 0)
    assert decision.recommendation.option is None
    assert decision.recommendation.single_site == "solo.dev"
    assert decision.recommendation.reasons == [
        f"Solo has the highest weighted total, {best.total:.1f}/100 (evidence on 2 of 2 "
        "dimensions, 100% of the weight), but all of its scored evidence comes from one site, "
        "solo.dev. A recommendation needs evidence from two or more independent sites, so none "
        "is given."
    ]
    assert all(c.score is not None for c in decision.matrix)  # the matrix stays as it was
    logged = next(e for e in run.ctx.events if e["event"] == "recommendation")
    assert (logged["option"], logged["single_site"]) == (None, "solo.dev")


def test_a_chinese_question_says_in_chinese_why_one_site_is_not_enough():
    decision = single_site_run(language="zh").decide()

    reason = decision.recommendation.reasons[0]
    assert reason.startswith("Solo的加权总分最高")
    assert "但其全部评分证据都来自同一个站点：solo.dev" in reason
    assert reason.endswith("作出推荐需要两个以上独立站点的证据，因此不作推荐。")


def test_a_reason_names_a_cell_only_when_two_independent_sites_back_it():
    run = (
        Run(["Alder", "Birch"], ["speed", "cost"])
        .page("r1", "https://bench.example.com/kv", "Key-value benchmarks")
        .page("r2", "https://notes.example.org/kv", "Notes on embedded stores")
        # speed: two sites that disagree; cost: one site that likes it
        .says("r1", "Alder", "speed", "Alder is quick on reads.", +1)
        .says("r2", "Alder", "speed", "Alder is slow on writes.", -1)
        .says("r1", "Alder", "cost", "Alder is cheap to run.", +1)
        .says("r1", "Birch", "speed", "Birch is sluggish.", -1)
        .says("r2", "Birch", "speed", "Birch lags behind.", -1)
        .says("r2", "Birch", "cost", "Birch is costly.", -1)
    )

    decision = run.decide()

    speed, cost = cell(decision, "Alder", "speed"), cell(decision, "Alder", "cost")
    assert (speed.sites, cost.sites) == (2, 1)
    assert (cost.score or 0) > (speed.score or 0)  # the better cell rests on one site
    assert decision.recommendation.option == "Alder"
    named = [r for r in decision.recommendation.reasons if r.startswith("On ")]
    assert named == [f"On speed it scores {speed.score:.1f} (claims c001, c002)."]
