"""Stage 0: the dimensions and weights a question names, read as its options are."""

from __future__ import annotations

import pytest

from research.artifacts import AskedDimension, Limits, Question
from research.stages.plan import PlanError, build_plan, read_dimensions


def weights(question: str, options: tuple[str, ...] = ()) -> dict[str, float]:
    read = read_dimensions(question, options)
    assert not read.problem, read.problem
    total = sum(w for _, w in read.dimensions)
    return {name: round(w / total, 3) for name, w in read.dimensions}


@pytest.mark.parametrize(
    ("question", "names"),
    [
        (
            "For an event-driven backend, choose between RabbitMQ, Apache Kafka and NATS, "
            "weighing delivery guarantees, operational complexity and throughput.",
            ["delivery guarantees", "operational complexity", "throughput"],
        ),
        (
            "Compare semaglutide, empagliflozin and sitagliptin on HbA1c reduction, "
            "cardiovascular outcomes and cost.",
            ["HbA1c reduction", "cardiovascular outcomes", "cost"],
        ),
        (
            "Compare Redis and Memcached for caching in terms of latency, memory use and "
            "persistence",
            ["latency", "memory use", "persistence"],
        ),
        (
            "Quillnote vs Inkpad, considering price as well as support for our team",
            ["price", "support"],
        ),
        (
            "前端框架选型：Vue、React、Svelte 三选一，考虑学习成本、生态成熟度、运行性能",
            ["学习成本", "生态成熟度", "运行性能"],
        ),
        ("飞书还是钉钉？权衡价格和安全性", ["价格", "安全性"]),
        ("从价格、性能和稳定性三个方面比较飞书和钉钉", ["价格", "性能", "稳定性"]),
    ],
)
def test_a_listed_dimension_after_a_cue_is_read_with_equal_weight(question, names) -> None:
    read = weights(question)
    assert list(read) == names
    assert len(set(read.values())) == 1


def test_an_order_of_importance_gives_falling_weights() -> None:
    assert weights("Postgres or MySQL? Cost matters most, then risk.") == {
        "Cost": 0.667,
        "risk": 0.333,
    }
    assert weights("A vs B; for us cost matters most, then risk, then speed") == {
        "cost": 0.5,
        "risk": 0.333,
        "speed": 0.167,
    }
    assert weights("Kafka vs RabbitMQ: throughput matters more than latency") == {
        "throughput": 0.667,
        "latency": 0.333,
    }
    assert weights("飞书和钉钉选哪个？性能最重要，其次是价格，再次是生态") == {
        "性能": 0.5,
        "价格": 0.333,
        "生态": 0.167,
    }


def test_shares_are_taken_as_given_and_the_rest_is_split() -> None:
    assert weights("青鸟、河图、星轨三选一，考虑价格、性能和生态，价格占 40%") == {
        "价格": 0.4,
        "性能": 0.3,
        "生态": 0.3,
    }
    assert weights("A vs B with 70% for cost and 30% for support") == {
        "cost": 0.7,
        "support": 0.3,
    }
    assert weights("A vs B, weighing cost (50%), risk and speed") == {
        "cost": 0.5,
        "risk": 0.25,
        "speed": 0.25,
    }


def test_shares_that_leave_nothing_for_a_named_dimension_are_a_problem() -> None:
    read = read_dimensions("A vs B, weighing cost (60%), risk (40%) and speed")
    assert "leaving nothing for speed" in read.problem


@pytest.mark.parametrize(
    "question",
    [
        "Quillnote vs Inkpad",
        "We are considering Vue or React?",
        "For our team's local-first notes app, choose Quillsync or Loamdb?",
        "First, Vue vs React.",
        "Kafka is 40% faster than RabbitMQ: which one?",
        "青鸟、河图、星轨三选一，哪个更适合我们的审批系统？",
    ],
)
def test_a_question_that_names_no_dimension_reads_none(question: str) -> None:
    read = read_dimensions(question, ("Vue", "React", "Quillsync", "Loamdb", "Kafka", "RabbitMQ"))
    assert read.dimensions == [] and read.problem == ""


def test_a_dimension_never_names_an_option() -> None:
    read = read_dimensions(
        "Choose Vue or React, weighing React's ecosystem, cost and speed", ["Vue", "React"]
    )
    assert [n for n, _ in read.dimensions] == ["cost", "speed"]


def test_a_cue_with_nothing_readable_after_it_says_so() -> None:
    read = read_dimensions("Vue vs React, weighing everything that could matter to us")
    assert read.dimensions == []
    assert "no dimension could be read" in read.problem and "weighing" in read.problem


def plan_of(question: str, dimensions=(), preset: str = ""):
    asked = Question(
        question=question,
        dimensions=[AskedDimension(name=n, weight=w) for n, w in dimensions],
        preset=preset,
        sources=["local:/tmp/corpus"],
    )
    return build_plan(asked, Limits())


def test_the_plan_takes_the_question_dimensions_over_a_preset_and_says_where_they_came_from() -> (
    None
):
    plan = plan_of("Vue vs React, weighing bundle size and hiring", preset="procurement")

    assert plan.preset is None
    assert [(d.name, d.weight, d.origin) for d in plan.dimensions] == [
        ("bundle size", 0.5, "question"),
        ("hiring", 0.5, "question"),
    ]
    assert any(q.text == "Vue bundle size" for q in plan.queries)


def test_given_dimensions_win_over_the_question_and_a_preset_is_marked_as_such() -> None:
    given = plan_of("Vue vs React, weighing bundle size and hiring", dimensions=[("cost", 1)])
    preset = plan_of("Vue vs React")

    assert [(d.name, d.origin) for d in given.dimensions] == [("cost", "form")]
    assert {d.origin for d in preset.dimensions} == {"preset"}


def test_the_plan_refuses_dimensions_it_cannot_read() -> None:
    with pytest.raises(PlanError, match="no dimension could be read"):
        plan_of("Vue vs React, weighing everything that could matter to us")
