"""Stage 0: from the question form to options, weighted dimensions and sub-queries."""

from __future__ import annotations

import pytest

from research.artifacts import AskedDimension, Limits, Plan, Question
from research.stages.plan import (
    PRESETS,
    PlanError,
    broaden,
    build_plan,
    extract_options,
)

SOURCES = ["local:/tmp/corpus"]


def plan_for(
    question: str,
    options: list[str] | None = None,
    dimensions: list[tuple[str, float]] | None = None,
    preset: str | None = None,
) -> Plan:
    asked = Question(
        question=question,
        options=options or [],
        dimensions=[AskedDimension(name=n, weight=w) for n, w in dimensions or []],
        preset=preset or "",
        sources=SOURCES,
    )
    return build_plan(asked, Limits())


# --- options -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "options"),
    [
        (
            "We need a notes app; choose between Quillnote, Inkpad and Notably, weighing cost, "
            "licence risk and maintenance activity",
            ["Quillnote", "Inkpad", "Notably"],
        ),
        ("Choose between Postgres and MySQL for analytics", ["Postgres", "MySQL"]),
        ("Quillnote vs Inkpad", ["Quillnote", "Inkpad"]),
        ("Quillnote vs. Inkpad or Notably?", ["Quillnote", "Inkpad", "Notably"]),
        ("Should we use Node.js versus Deno for our API?", ["Node.js", "Deno"]),
        ("Quillnote or Inkpad?", ["Quillnote", "Inkpad"]),
        ("Should we use Quillnote, Inkpad or Notably?", ["Quillnote", "Inkpad", "Notably"]),
        ("Which is better, Quillnote or Inkpad?", ["Quillnote", "Inkpad"]),
        ("Is Postgres or MySQL better for analytics?", ["Postgres", "MySQL"]),
        ("Choose Quillnote, Inkpad or Notably.", ["Quillnote", "Inkpad", "Notably"]),
        (
            "Which app should we pick: Quillnote, Inkpad, or Notably?",
            ["Quillnote", "Inkpad", "Notably"],
        ),
        ("A vs B", ["A", "B"]),
        ("A or B?", ["A", "B"]),
        ("Quillnote、Inkpad、Notably 三选一", ["Quillnote", "Inkpad", "Notably"]),
        ("团队笔记工具，青鸟、河图、星轨三选一，看重成本", ["青鸟", "河图", "星轨"]),
        ("在飞书和钉钉之间怎么选？", ["飞书", "钉钉"]),
        ("我们团队在飞书与钉钉之间选择哪个？", ["飞书", "钉钉"]),
        ("我们应该用飞书还是钉钉？", ["飞书", "钉钉"]),
        ("飞书还是钉钉还是企业微信", ["飞书", "钉钉", "企业微信"]),
        ("Quillnote 与 Inkpad 对比", ["Quillnote", "Inkpad"]),
        ("飞书和钉钉哪个好？", ["飞书", "钉钉"]),
        ("用友和金蝶哪个好", ["用友", "金蝶"]),
        ("Quillnote vs Inkpad 哪个好", ["Quillnote", "Inkpad"]),
        (
            "Compare semaglutide, empagliflozin and sitagliptin on HbA1c reduction and cost.",
            ["semaglutide", "empagliflozin", "sitagliptin"],
        ),
        ("Compare Redis and Memcached for caching", ["Redis", "Memcached"]),
        ("飞书和钉钉选哪个？", ["飞书", "钉钉"]),
        ("青鸟、河图、星轨用哪一个", ["青鸟", "河图", "星轨"]),
        ("Quillnote vs Inkpad, cost 60%, risk 40%", ["Quillnote", "Inkpad"]),
    ],
)
def test_options_are_read_from_the_phrasing_of_the_question(
    question: str, options: list[str]
) -> None:
    plan = plan_for(question)

    assert plan.options == options
    assert plan.options_source == "question"


@pytest.mark.parametrize("question", ["What should we do about our notes?", "we need a notes tool"])
def test_a_question_without_an_option_list_yields_none(question: str) -> None:
    assert extract_options(question) == []


def test_given_options_win_over_the_question() -> None:
    plan = plan_for("Quillnote vs Inkpad", options=[" Notably ", "Bearnote", ""])

    assert plan.options == ["Notably", "Bearnote"]
    assert plan.options_source == "given"


def test_too_few_options_says_how_to_name_them() -> None:
    with pytest.raises(PlanError, match=r"--option A --option B, or ask 'A vs B'"):
        plan_for("Which notes app is best for us?")


def test_one_given_option_is_too_few() -> None:
    with pytest.raises(PlanError, match="at least two options"):
        plan_for("Quillnote vs Inkpad", options=["Quillnote"])


def test_more_than_eight_options_is_refused() -> None:
    with pytest.raises(PlanError, match="at most 8"):
        plan_for("Which one?", options=[f"Option {n}" for n in range(9)])


def test_duplicate_options_are_refused_whatever_their_case() -> None:
    with pytest.raises(PlanError, match="listed twice"):
        plan_for("Which one?", options=["Quillnote", "quillnote"])


def test_a_repeated_option_in_the_question_is_refused() -> None:
    with pytest.raises(PlanError, match="listed twice"):
        plan_for("Quillnote vs Quillnote?")


# --- the question ------------------------------------------------------------------------


@pytest.mark.parametrize("question", ["", "   \n\t "])
def test_an_empty_question_is_refused(question: str) -> None:
    with pytest.raises(PlanError, match="question is empty"):
        plan_for(question, options=["A", "B"])


def test_a_question_over_2000_characters_is_refused() -> None:
    with pytest.raises(PlanError, match="under 2,000"):
        plan_for("Quillnote vs Inkpad " + "x" * 2_000)


def test_a_question_of_exactly_2000_characters_is_accepted() -> None:
    question = "Quillnote vs Inkpad?" + " " + "x" * 1_979

    assert len(plan_for(question).question) == 2_000


def test_whitespace_in_the_question_is_collapsed() -> None:
    assert plan_for("  Quillnote\n vs   Inkpad ").question == "Quillnote vs Inkpad"


def test_language_is_chinese_when_the_question_has_cjk_text() -> None:
    assert plan_for("飞书还是钉钉？").language == "zh"
    assert plan_for("Quillnote vs Inkpad").language == "en"


def test_no_source_is_refused() -> None:
    with pytest.raises(PlanError, match="at least one source"):
        build_plan(Question(question="A vs B", sources=[" "]), Limits())


def test_sources_and_limits_are_kept_in_the_plan() -> None:
    limits = Limits(max_candidates=10)

    plan = build_plan(Question(question="A vs B", sources=["ddgs", "ddgs", "local:/x"]), limits)

    assert plan.sources == ["ddgs", "local:/x"]
    assert plan.limits.max_candidates == 10


# --- dimensions --------------------------------------------------------------------------


def test_without_dimensions_or_preset_the_tech_preset_is_used() -> None:
    plan = plan_for("Quillnote vs Inkpad")

    assert plan.preset == "tech"
    assert [d.name for d in plan.dimensions] == [
        "cost",
        "learning curve",
        "community activity",
        "extensibility",
        "risk",
    ]
    assert [d.weight for d in plan.dimensions] == pytest.approx([0.2] * 5)


def test_the_procurement_preset_has_its_own_dimensions() -> None:
    plan = plan_for("Acme or Globex?", preset="Procurement")

    assert plan.preset == "procurement"
    assert [d.name for d in plan.dimensions] == [name for name, _ in PRESETS["procurement"]]


def test_a_chinese_question_gets_chinese_preset_dimensions() -> None:
    tech = plan_for("飞书还是钉钉？")
    procurement = plan_for("供应商甲还是供应商乙？", preset="procurement")

    assert [d.name for d in tech.dimensions] == [
        "成本",
        "学习曲线",
        "社区活跃度",
        "可扩展性",
        "风险",
    ]
    assert [d.name for d in procurement.dimensions] == [
        "价格",
        "交付时间",
        "售后支持",
        "合规",
        "可替代性",
    ]


def test_an_unknown_preset_lists_the_known_ones() -> None:
    with pytest.raises(PlanError, match="choose one of clinical, procurement, tech"):
        plan_for("A vs B", preset="legal")


def test_custom_dimensions_win_over_a_preset_and_are_normalised() -> None:
    plan = plan_for(
        "A vs B", dimensions=[("cost", 2), ("licence risk", 1), ("speed", 1)], preset="tech"
    )

    assert plan.preset is None
    assert [(d.name, d.weight) for d in plan.dimensions] == [
        ("cost", pytest.approx(0.5)),
        ("licence risk", pytest.approx(0.25)),
        ("speed", pytest.approx(0.25)),
    ]
    assert sum(d.weight for d in plan.dimensions) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("dimensions", "message"),
    [
        ([("cost", 0.0)], "above 0"),
        ([("cost", -1.0)], "above 0"),
        ([("cost", float("nan"))], "above 0"),
        ([("  ", 1.0)], "has no name"),
        ([("cost", 1.0), ("Cost", 2.0)], "listed twice"),
        ([(f"d{n}", 1.0) for n in range(13)], "at most 12"),
    ],
)
def test_bad_dimensions_are_refused(dimensions: list[tuple[str, float]], message: str) -> None:
    with pytest.raises(PlanError, match=message):
        plan_for("A vs B", dimensions=dimensions)


# --- sub-queries -------------------------------------------------------------------------


def test_queries_cover_each_option_and_dimension_then_comparisons_then_options() -> None:
    plan = plan_for("Quillnote vs Inkpad vs Notably", dimensions=[("licence risk", 1), ("cost", 1)])

    assert [(q.id, q.text, q.kind) for q in plan.queries] == [
        ("q01", "Quillnote licence risk", "option_dimension"),
        ("q02", "Quillnote cost", "option_dimension"),
        ("q03", "Inkpad licence risk", "option_dimension"),
        ("q04", "Inkpad cost", "option_dimension"),
        ("q05", "Notably licence risk", "option_dimension"),
        ("q06", "Notably cost", "option_dimension"),
        ("q07", "Quillnote vs Inkpad vs Notably licence risk", "comparison"),
        ("q08", "Quillnote vs Inkpad vs Notably comparison", "comparison"),
        ("q09", "Quillnote", "option"),
        ("q10", "Inkpad", "option"),
        ("q11", "Notably", "option"),
    ]
    assert (plan.queries[0].option, plan.queries[0].dimension) == ("Quillnote", "licence risk")
    assert (plan.queries[6].option, plan.queries[6].dimension) == (None, "licence risk")
    assert plan.queries[8].option == "Quillnote"


def test_repeated_query_texts_are_dropped_and_ids_stay_consecutive() -> None:
    plan = plan_for("A vs B", dimensions=[("comparison", 1)])

    texts = [q.text for q in plan.queries]
    assert texts == ["A comparison", "B comparison", "A vs B comparison", "A", "B"]
    assert [q.id for q in plan.queries] == ["q01", "q02", "q03", "q04", "q05"]


def test_chinese_questions_get_chinese_queries() -> None:
    plan = plan_for("飞书还是钉钉？", dimensions=[("cost", 1), ("许可", 1)])

    assert [d.name for d in plan.dimensions] == ["cost", "许可"]  # the user's names are kept
    assert [q.text for q in plan.queries] == [
        "飞书 成本",
        "飞书 许可",
        "钉钉 成本",
        "钉钉 许可",
        "飞书、钉钉 成本 对比",
        "飞书、钉钉 对比",
        "飞书",
        "钉钉",
    ]


def test_the_plan_round_trips_through_json() -> None:
    plan = plan_for("Quillnote vs Inkpad")

    assert Plan.model_validate_json(plan.model_dump_json()) == plan


# --- broadening --------------------------------------------------------------------------


def test_broaden_uses_fewer_shorter_queries_without_dimensions() -> None:
    plan = plan_for("Quillnote vs Inkpad vs Notably")

    broad = broaden(plan)

    assert broad.broadened is True
    assert [(q.id, q.text, q.kind) for q in broad.queries] == [
        ("q01", "Quillnote", "option"),
        ("q02", "Inkpad", "option"),
        ("q03", "Notably", "option"),
        ("q04", "Quillnote pros and cons", "broad"),
        ("q05", "Inkpad pros and cons", "broad"),
        ("q06", "Notably pros and cons", "broad"),
        ("q07", "Quillnote vs Inkpad vs Notably", "comparison"),
    ]
    assert len(broad.queries) < len(plan.queries)
    assert all(q.dimension is None for q in broad.queries)
    assert (broad.options, broad.dimensions) == (plan.options, plan.dimensions)
    assert plan.broadened is False  # the original plan is left alone


def test_broaden_speaks_chinese_for_a_chinese_plan() -> None:
    broad = broaden(plan_for("飞书还是钉钉？"))

    assert [q.text for q in broad.queries] == [
        "飞书",
        "钉钉",
        "飞书 优缺点",
        "钉钉 优缺点",
        "飞书 与 钉钉 对比",
    ]
