"""The careful reader end to end: which option, dimension and polarity a sentence yields
(research.reading.claims.reading.read_stances), or why it yields none.

A stance needs a clause that is about the option, a cue of the dimension in that clause and
a judging word, comparison or result. Every sentence here is invented; the products are
fictional.
"""

from __future__ import annotations

import pytest

from research.reading.claims.reading import Point, options_spoken_of, read_stances

EN = ("Quillsync", "Loamdb", "Tessera")
ZH = ("青鸟流程", "河图引擎", "星轨调度")
DRUGS = ("Glarivex", "Tomeprazan")
DRUGS_ZH = ("格列维克斯", "托美拉赞")

SPEED = "throughput"
OPS = "operational complexity"
LEARNING = "learning curve"
LICENCE = "licence risk"
UPKEEP = "maintenance activity"
CUSTOM = "customisation cost"
PRICE = "price"
LATENCY = "latency"
AUDITS = "security audits"
HEART = "cardiovascular outcomes"
SUGAR = "HbA1c reduction"
ZH_LEARNING = "学习成本"
ZH_SPEED = "运行性能"
ZH_OPS = "运维复杂度"
ZH_UPKEEP = "维护活跃度"
ZH_LICENCE = "许可风险"
ZH_PRICE = "价格"
ZH_HEART = "心血管获益"
ZH_SUGAR = "降糖疗效"

# The text around a line that stands on its own, as a heading or a title does.
ALONE = {"before": "\n\n", "after": "\n\nQuillsync was built by a small team in 2019."}
ALONE_ZH = {"before": "\n\n", "after": "\n\n青鸟流程由一个小团队开发。"}


def reading(quote, dimensions, options=EN, *, option=None, about="named", **where):
    """What the reader makes of the quote as a key point of `option` (the first option by
    default) on the given dimensions."""
    point = Point(quote, option or options[0], about=about, **where)
    return read_stances(point, list(options), list(dimensions))


def stances(quote, dimensions, options=EN, **where) -> set[tuple[str, str, int]]:
    return {
        (s.option, s.dimension, s.polarity)
        for s in reading(quote, dimensions, options, **where).stances
    }


def cell(quote, dimensions, *, column, header, options=EN, option=None):
    """A table cell or a pros/cons item: its option, its column's verdict, its header."""
    return stances(
        quote, dimensions, options, option=option, about="table", polarity=column, header=header
    )


# --- a stance: the option, a cue of the dimension, a judgement -------------------------------


@pytest.mark.parametrize(
    ("quote", "dimension", "expected"),
    [
        ("Quillsync is fast.", SPEED, 1),
        ("Quillsync delivers excellent throughput.", SPEED, 1),
        ("Quillsync has poor throughput under load.", SPEED, -1),
        ("Quillsync is simple to deploy.", OPS, 1),
        ("Quillsync is easy to learn.", LEARNING, 1),
        ("Quillsync is not hard to learn.", LEARNING, 1),
        ("Quillsync has a steep learning curve.", LEARNING, -1),
        ("Quillsync is open source.", "licence", 1),
        ("Quillsync is licensed under the GPL.", "licence", 1),
        ("Quillsync is released under the MIT licence.", LICENCE, 1),
        ("Quillsync is proprietary.", LICENCE, -1),
        ("Quillsync is actively maintained.", UPKEEP, 1),
        ("Quillsync is no longer maintained.", UPKEEP, -1),
        ("Quillsync has been archived.", UPKEEP, -1),
        ("Quillsync is expensive.", PRICE, -1),
        ("Quillsync is cheap.", PRICE, 1),
        ("Quillsync has passed three independent security audits.", AUDITS, 1),
        ("Quillsync has never been audited.", AUDITS, -1),
    ],
)
def test_a_clause_naming_the_option_and_judging_a_dimension_takes_a_stance(
    quote, dimension, expected
):
    assert stances(quote, [dimension]) == {("Quillsync", dimension, expected)}


@pytest.mark.parametrize(
    ("quote", "expected"),
    [
        ("Quillsync is released under the permissive MIT licence.", 1),
        ("Quillsync is licensed under the AGPL.", -1),
        ("Any fork of Quillsync will have to license its changes under the AGPL.", -1),
        ("Quillsync's copyleft licence binds the code you link with it.", -1),
        ("Quillsync is source-available under the Business Source License.", -1),
        ("青鸟流程采用宽松许可，可商用。", 1),
    ],
)
def test_licence_risk_weighs_what_the_licence_obliges_a_team_building_on_it(quote, expected):
    option = "青鸟流程" if "青鸟" in quote else "Quillsync"
    assert stances(quote, [LICENCE], [option, "Loamdb"]) == {(option, LICENCE, expected)}


@pytest.mark.parametrize(
    "quote",
    [
        "Quillsync is an open-source application.",
        "Quillsync is open source and runs on every desktop.",
        "青鸟流程是一款开源软件。",
    ],
)
def test_open_source_alone_judges_no_licence_risk(quote):
    option = "青鸟流程" if "青鸟" in quote else "Quillsync"
    assert stances(quote, [LICENCE], [option, "Loamdb"]) == set()


@pytest.mark.parametrize(
    ("quote", "dimension", "expected"),
    [
        ("青鸟流程性能出色。", ZH_SPEED, 1),
        ("青鸟流程很慢。", ZH_SPEED, -1),
        ("青鸟流程上手容易。", ZH_LEARNING, 1),
        ("青鸟流程学习曲线陡峭。", ZH_LEARNING, -1),
        ("青鸟流程的文档很完善。", ZH_LEARNING, 1),
        ("青鸟流程运维复杂。", ZH_OPS, -1),
        ("青鸟流程已经停止维护。", ZH_UPKEEP, -1),
        ("青鸟流程是开源的。", "许可", 1),
        ("青鸟流程采用宽松许可，商用无限制。", ZH_LICENCE, 1),
        ("青鸟流程是闭源软件。", ZH_LICENCE, -1),
        ("青鸟流程价格昂贵。", ZH_PRICE, -1),
        ("青鸟流程完全免费。", ZH_PRICE, 1),
    ],
)
def test_a_chinese_clause_naming_the_option_and_judging_a_dimension_takes_a_stance(
    quote, dimension, expected
):
    assert stances(quote, [dimension], ZH) == {("青鸟流程", dimension, expected)}


@pytest.mark.parametrize(
    ("quote", "dimension", "options"),
    [
        ("The new release is fast.", SPEED, EN),
        ("Featherline is fast.", SPEED, EN),
        ("新版本的性能非常出色。", ZH_SPEED, ZH),
    ],
)
def test_a_sentence_that_names_no_option_takes_no_stance(quote, dimension, options):
    assert reading(quote, [dimension], options).stances == ()


@pytest.mark.parametrize(
    ("quote", "dimension", "options"),
    [
        ("Quillsync is excellent.", SPEED, EN),
        ("The team behind Quillsync is great.", SPEED, EN),
        ("青鸟流程非常优秀。", ZH_SPEED, ZH),
    ],
)
def test_praise_that_names_no_cue_of_the_dimension_takes_no_stance(quote, dimension, options):
    assert reading(quote, [dimension], options).stances == ()


@pytest.mark.parametrize(
    ("quote", "dimension", "options"),
    [
        ("Quillsync publishes its throughput numbers.", SPEED, EN),
        ("Quillsync's throughput depends on partition count.", SPEED, EN),
        ("Quillsync reaches 2 million messages per second.", SPEED, EN),
        ("Quillsync ships a release every two weeks.", UPKEEP, EN),
        ("青鸟流程的性能取决于配置。", ZH_SPEED, ZH),
    ],
)
def test_a_clause_that_names_the_dimension_without_judging_it_takes_no_stance(
    quote, dimension, options
):
    assert reading(quote, [dimension], options).stances == ()


@pytest.mark.parametrize(
    ("quote", "dimension", "options"),
    [
        ("Quillsync is suitable for high-throughput workloads.", SPEED, EN),
        ("Quillsync is designed for fast ingestion.", SPEED, EN),
        ("青鸟流程适合对性能要求高的场景。", ZH_SPEED, ZH),
    ],
)
def test_what_the_option_is_meant_for_is_not_a_judgement(quote, dimension, options):
    assert reading(quote, [dimension], options).stances == ()


@pytest.mark.parametrize(
    ("quote", "dimension", "options"),
    [
        ("It has a steep learning curve.", LEARNING, EN),
        ("But it has a steep learning curve.", LEARNING, EN),
        ("The project has a steep learning curve.", LEARNING, EN),
        ("它上手很容易。", ZH_LEARNING, ZH),
    ],
)
def test_it_after_a_sentence_about_the_option_refers_to_the_option(quote, dimension, options):
    found = stances(quote, [dimension], options, about="pronoun")
    assert {(o, d) for o, d, _ in found} == {(options[0], dimension)}


@pytest.mark.parametrize(
    ("quote", "dimension", "options"),
    [
        ("It has a steep learning curve.", LEARNING, EN),
        ("它上手很容易。", ZH_LEARNING, ZH),
    ],
)
def test_it_with_nothing_before_it_refers_to_no_option(quote, dimension, options):
    assert reading(quote, [dimension], options, about="named").stances == ()


@pytest.mark.parametrize(
    ("quote", "dimension", "options"),
    [
        ("They are fast.", SPEED, EN),
        ("它们的性能都很出色。", ZH_SPEED, ZH),
    ],
)
def test_they_may_mean_several_options_and_takes_no_stance(quote, dimension, options):
    assert reading(quote, [dimension], options, about="pronoun").stances == ()


@pytest.mark.parametrize(
    ("quote", "dimension", "options", "expected"),
    [
        ("- Very fast writes.", SPEED, EN, 1),
        ("- Painfully slow compaction.", SPEED, EN, -1),
        ("- 上手很容易。", ZH_LEARNING, ZH, 1),
        ("- 性能出色。", ZH_SPEED, ZH, 1),
    ],
)
def test_a_list_item_under_a_heading_naming_the_option_is_about_the_option(
    quote, dimension, options, expected
):
    assert stances(quote, [dimension], options, about="heading") == {
        (options[0], dimension, expected)
    }


@pytest.mark.parametrize(
    ("quote", "dimension", "options"),
    [
        ("- Very fast writes.", SPEED, EN),
        ("- 性能出色。", ZH_SPEED, ZH),
    ],
)
def test_the_same_list_item_outside_such_a_list_is_about_no_option(quote, dimension, options):
    assert reading(quote, [dimension], options, about="named").stances == ()


def test_a_list_item_without_a_full_stop_still_states_something():
    found = stances(
        "- Fast writes", [SPEED], about="heading", before="\n", after="\n- Simple setup"
    )
    assert found == {("Quillsync", SPEED, 1)}


@pytest.mark.parametrize(
    ("quote", "dimension"),
    [
        ("- ZooKeeper is hard to operate.", OPS),
        ("- FeatherLine is very fast.", SPEED),
    ],
)
def test_a_list_item_opening_with_another_products_name_is_not_the_headings_option(
    quote, dimension
):
    assert reading(quote, [dimension], about="heading").stances == ()


def test_a_list_item_naming_another_option_is_that_options():
    assert stances("- Loamdb is very fast.", [SPEED], about="heading") == {("Loamdb", SPEED, 1)}


# --- only statements judge -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("quote", "options", "dimension"),
    [
        ("# Quillsync is fast", EN, SPEED),
        ("## Why Quillsync is fast", EN, SPEED),
        ("1.2 Quillsync is fast", EN, SPEED),
        ("## 青鸟流程性能出色", ZH, ZH_SPEED),
    ],
)
def test_a_heading_takes_no_stance(quote, options, dimension):
    assert reading(quote, [dimension], options).stances == ()


@pytest.mark.parametrize(
    "quote",
    [
        "Quillsync Delivers Fast Sync",
        "Quillsync: Fast, Simple, Reliable Sync",
        "Quillsync Is The Fastest Sync Engine",
    ],
)
def test_a_title_case_line_on_its_own_is_a_title_and_takes_no_stance(quote):
    result = reading(quote, [SPEED], **ALONE)
    assert result.stances == ()
    assert result.refused == "a heading or title"


def test_a_chinese_line_on_its_own_without_a_stop_is_a_title_and_takes_no_stance():
    assert reading("青鸟流程性能出色", [ZH_SPEED], ZH, **ALONE_ZH).stances == ()


@pytest.mark.parametrize(
    ("quote", "options", "dimension"),
    [
        ("Is Quillsync fast enough for you?", EN, SPEED),
        ("Quillsync is fast, isn't it?", EN, SPEED),
        ("Why is Quillsync so easy to learn?", EN, LEARNING),
        ("青鸟流程的学习成本高吗？", ZH, ZH_LEARNING),
        ("青鸟流程的性能为什么这么出色？", ZH, ZH_SPEED),
    ],
)
def test_a_question_takes_no_stance(quote, options, dimension):
    result = reading(quote, [dimension], options)
    assert result.stances == ()
    assert result.refused == "a question"


@pytest.mark.parametrize(
    "quote",
    [
        "Try Quillsync today and see how fast it is.",
        "Download Quillsync for blazing fast sync.",
        "Sign up for Quillsync, the fastest sync engine.",
        "Read our guide to see why Quillsync is fast.",
        "Check out Quillsync, the fastest sync engine.",
    ],
)
def test_a_call_to_action_takes_no_stance(quote):
    result = reading(quote, [SPEED])
    assert result.stances == ()
    assert result.refused == "a call to action"


@pytest.mark.parametrize(
    ("quote", "options", "dimension"),
    [
        ("This article compares Quillsync and Loamdb on throughput.", EN, SPEED),
        ("This article explains why Quillsync is fast.", EN, SPEED),
        ("In this guide we show why Quillsync is fast.", EN, SPEED),
        ("Here is why Quillsync is fast.", EN, SPEED),
        ("本文将对比青鸟流程和河图引擎的运行性能。", ZH, ZH_SPEED),
    ],
)
def test_a_page_describing_itself_takes_no_stance(quote, options, dimension):
    result = reading(quote, [dimension], options)
    assert result.stances == ()
    assert result.refused == "the page describing itself"


@pytest.mark.parametrize(
    "quote",
    [
        "I wanted to benchmark Quillsync because it is supposed to be fast.",
        "We plan to show that Quillsync is faster than Loamdb.",
    ],
)
def test_the_writers_plan_takes_no_stance(quote):
    result = reading(quote, [SPEED])
    assert result.stances == ()
    assert result.refused == "the writer describing a plan"


@pytest.mark.parametrize(
    "quote",
    [
        "Patients were randomly assigned to Glarivex, which lowered cardiovascular risk.",
        "The primary outcome was a reduction in cardiovascular death with Glarivex.",
        "The aim of this study was to show that Glarivex reduces the risk of stroke.",
    ],
)
def test_a_study_describing_its_design_takes_no_stance(quote):
    result = reading(quote, [HEART], DRUGS)
    assert result.stances == ()
    assert result.refused == "a study describing its design"


def test_page_metadata_takes_no_stance():
    quote = "Author: Jane Roe Published: 2024-05-02 Verdict: Quillsync is fast"
    result = reading(quote, [SPEED], after="\nMore")
    assert result.stances == ()
    assert result.refused == "page metadata"


@pytest.mark.parametrize(
    ("quote", "before"),
    [
        ("and Quillsync is fast.", ""),
        ("and Quillsync is fast.", "We tuned the cluster.\n"),
        ("the new engine makes Quillsync fast.", ""),
    ],
)
def test_a_line_opening_in_lower_case_is_a_fragment_and_takes_no_stance(quote, before):
    result = reading(quote, [SPEED], before=before)
    assert result.stances == ()
    assert result.refused == "a fragment cut at its start"


@pytest.mark.parametrize(
    ("quote", "after", "options", "dimension"),
    [
        ("Quillsync is fast because of the", " new", EN, SPEED),
        ("Quillsync is fast, simple and reliable for", " teams", EN, SPEED),
        ("Quillsync is fast", "", EN, SPEED),
        ("Quillsync is fast for most workloads", "", EN, SPEED),
        ("青鸟流程的性能非常出色", "", ZH, ZH_SPEED),
    ],
)
def test_a_fragment_cut_at_its_end_takes_no_stance(quote, after, options, dimension):
    result = reading(quote, [dimension], options, after=after)
    assert result.stances == ()
    assert result.refused == "a fragment cut at its end"


def test_the_same_unfinished_words_inside_a_running_text_do_state():
    found = stances("Quillsync is fast for most workloads", [SPEED], after=" and it scales.")
    assert found == {("Quillsync", SPEED, 1)}


@pytest.mark.parametrize(
    "quote",
    [
        "Quillsync es muy rápido y fácil de usar para los equipos.",
        "Quillsync est très rapide et facile à utiliser pour les équipes.",
        "Quillsync очень быстрый.",
    ],
)
def test_a_sentence_in_a_language_the_reader_does_not_read_takes_no_stance(quote):
    assert reading(quote, [SPEED]).stances == ()


# --- what is not the option's ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("quote", "options", "dimension"),
    [
        ("The legacy Quillsync adapter is deprecated.", EN, UPKEEP),
        ("The Quillsync Redis plugin is unmaintained.", EN, UPKEEP),
        ("Quillsync's Redis plugin is unmaintained.", EN, UPKEEP),
        ("青鸟流程的 Redis 插件已经停止维护。", ZH, ZH_UPKEEP),
    ],
)
def test_a_sentence_about_a_component_is_not_the_options(quote, options, dimension):
    assert reading(quote, [dimension], options).stances == ()


@pytest.mark.parametrize(
    ("quote", "options", "dimension"),
    [
        ("Versions of Quillsync before 2.0 were slow.", EN, SPEED),
        ("青鸟流程的旧版本性能较差。", ZH, ZH_SPEED),
    ],
)
def test_a_sentence_about_an_old_version_is_not_the_option_today(quote, options, dimension):
    assert reading(quote, [dimension], options).stances == ()


@pytest.mark.parametrize(
    ("quote", "options", "dimension"),
    [
        ("Quillsync used to be slow.", EN, SPEED),
        ("Quillsync used to be hard to deploy.", EN, OPS),
        ("青鸟流程以前很慢。", ZH, ZH_SPEED),
    ],
)
def test_a_sentence_about_the_past_is_not_the_option_today(quote, options, dimension):
    assert reading(quote, [dimension], options).stances == ()


@pytest.mark.parametrize(
    "quote",
    [
        "The Quillsync protocol is slow.",
        "Quillsync-compatible stores are fast.",
    ],
)
def test_a_thing_named_after_the_option_is_not_the_option(quote):
    assert reading(quote, [SPEED]).stances == ()


def test_an_option_named_as_a_yardstick_takes_no_stance():
    assert stances("Tessera is fast, like Quillsync.", [SPEED]) == {("Tessera", SPEED, 1)}


def test_an_option_that_is_only_a_yardstick_for_another_product_takes_no_stance():
    assert reading("Featherline is fast, like Quillsync.", [SPEED]).stances == ()


@pytest.mark.parametrize(
    ("quote", "expected"),
    [
        (
            "Loamdb is a faster alternative to Quillsync.",
            {("Loamdb", SPEED, 1), ("Quillsync", SPEED, -1)},
        ),
        (
            "Featherline, a faster alternative to Quillsync, is gaining users.",
            {("Quillsync", SPEED, -1)},
        ),
    ],
)
def test_what_an_alternative_is_praised_for_the_option_it_replaces_lacks(quote, expected):
    assert stances(quote, [SPEED]) == expected


# --- which way a dimension points ------------------------------------------------------------


@pytest.mark.parametrize(
    ("quote", "dimension", "expected"),
    [
        ("Quillsync has no operational overhead.", OPS, 1),
        ("Quillsync reduces operational complexity.", OPS, 1),
        ("Quillsync has less operational complexity than most brokers.", OPS, 1),
        ("Quillsync adds operational complexity.", OPS, -1),
        ("Quillsync brings deployment complexity.", OPS, -1),
        ("Quillsync has high operational overhead.", OPS, -1),
        ("Quillsync has low latency.", LATENCY, 1),
        ("Quillsync's latency is low.", LATENCY, 1),
        ("Quillsync has high latency.", LATENCY, -1),
        ("Quillsync carries a low licence risk.", LICENCE, 1),
        ("Quillsync carries a high licence risk.", LICENCE, -1),
        ("Quillsync has a low customisation cost.", CUSTOM, 1),
        ("Quillsync has a high customisation cost.", CUSTOM, -1),
        ("Quillsync has a low price.", PRICE, 1),
        ("Quillsync's price is high.", PRICE, -1),
    ],
)
def test_for_cost_complexity_overhead_latency_and_risk_less_is_better(quote, dimension, expected):
    assert stances(quote, [dimension]) == {("Quillsync", dimension, expected)}


@pytest.mark.parametrize(
    ("quote", "expected"),
    [
        ("青鸟流程部署简单，运维成本低。", 1),
        ("青鸟流程依赖很多，部署复杂。", -1),
    ],
)
def test_in_chinese_too_less_operational_burden_is_better(quote, expected):
    assert stances(quote, [ZH_OPS], ZH) == {("青鸟流程", ZH_OPS, expected)}


@pytest.mark.parametrize(
    ("quote", "dimension", "header", "column", "options", "expected"),
    [
        ("Brings deployment complexity", OPS, "Pros", 1, EN, -1),
        ("Slow writes", SPEED, "Pros", 1, EN, -1),
        ("Simple to deploy", OPS, "Cons", -1, EN, 1),
        ("部署复杂", ZH_OPS, "优点", 1, ZH, -1),
    ],
)
def test_a_cells_own_words_outrank_its_columns_verdict(
    quote, dimension, header, column, options, expected
):
    found = cell(quote, [dimension], column=column, header=header, options=options)
    assert found == {(options[0], dimension, expected)}


@pytest.mark.parametrize(
    ("quote", "dimension", "header", "column", "options", "expected"),
    [
        ("Simple to deploy", OPS, "Pros", 1, EN, 1),
        ("Steep learning curve", LEARNING, "Cons", -1, EN, -1),
        ("Pricing", PRICE, "Cons", -1, EN, -1),
        ("上手容易", ZH_LEARNING, "优点", 1, ZH, 1),
        ("学习曲线陡峭", ZH_LEARNING, "缺点", -1, ZH, -1),
    ],
)
def test_a_pros_or_cons_item_on_the_dimension_takes_its_verdict(
    quote, dimension, header, column, options, expected
):
    found = cell(quote, [dimension], column=column, header=header, options=options)
    assert found == {(options[0], dimension, expected)}


def test_a_pros_item_on_another_dimension_takes_no_stance():
    assert cell("Great community", [LEARNING], column=1, header="Pros") == set()


@pytest.mark.parametrize(
    ("option", "text", "column", "expected"),
    [
        ("Quillsync", "proprietary", -1, {("Quillsync", LICENCE, -1)}),
        ("Loamdb", "MIT", 1, {("Loamdb", LICENCE, 1)}),
        ("Quillsync", "proprietary", 0, {("Quillsync", LICENCE, -1)}),
        ("Quillsync", "see vendor page", 0, set()),
    ],
)
def test_a_table_row_gives_its_columns_option_the_cells_verdict_on_the_rows_dimension(
    option, text, column, expected
):
    row = "| Licence | proprietary | MIT |"
    point = Point(row, option, about="table", polarity=column, header="Licence", cell=text)
    found = read_stances(point, list(EN), [LICENCE]).stances
    assert {(s.option, s.dimension, s.polarity) for s in found} == expected


# --- trade-offs ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("quote", "dimension", "options"),
    [
        ("Quillsync is fast, but complex queries are slow.", SPEED, EN),
        ("Quillsync is easy to pick up, but hard to learn in depth.", LEARNING, EN),
        ("青鸟流程上手容易，但深入掌握很难。", ZH_LEARNING, ZH),
    ],
)
def test_praise_and_fault_of_one_dimension_in_one_sentence_take_no_stance(
    quote, dimension, options
):
    assert reading(quote, [dimension], options).stances == ()


def test_a_mixed_pros_item_takes_no_stance_even_under_pros():
    quote = "Fast writes, but complex queries are slow"
    assert cell(quote, [SPEED], column=1, header="Pros") == set()


@pytest.mark.parametrize(
    ("quote", "dimensions", "options", "expected"),
    [
        (
            "Quillsync is easy to learn but hard to operate.",
            [LEARNING, OPS],
            EN,
            {("Quillsync", LEARNING, 1), ("Quillsync", OPS, -1)},
        ),
        (
            "Quillsync is easy to learn; operating it is painful.",
            [LEARNING, OPS],
            EN,
            {("Quillsync", LEARNING, 1), ("Quillsync", OPS, -1)},
        ),
        (
            "Quillsync is fast, with a steep learning curve.",
            [SPEED, LEARNING],
            EN,
            {("Quillsync", SPEED, 1), ("Quillsync", LEARNING, -1)},
        ),
        (
            "Quillsync is fast but expensive.",
            [SPEED, PRICE],
            EN,
            {("Quillsync", SPEED, 1), ("Quillsync", PRICE, -1)},
        ),
        (
            "青鸟流程性能很好，但学习曲线陡峭。",
            [ZH_SPEED, ZH_LEARNING],
            ZH,
            {("青鸟流程", ZH_SPEED, 1), ("青鸟流程", ZH_LEARNING, -1)},
        ),
    ],
)
def test_clauses_on_different_dimensions_take_one_stance_each(quote, dimensions, options, expected):
    assert stances(quote, dimensions, options) == expected


# --- results ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "quote",
    [
        "Glarivex was noninferior to placebo for major cardiovascular events.",
        "Glarivex did not increase the risk of heart failure.",
        "There was no significant difference in cardiovascular events with Glarivex.",
        "Glarivex had a neutral effect on cardiovascular events.",
        "Glarivex did not increase cardiovascular risk.",
        "Glarivex showed no increase in cardiovascular risk.",
    ],
)
def test_a_result_that_finds_no_difference_takes_no_stance(quote):
    assert reading(quote, [HEART, SUGAR], DRUGS).stances == ()


@pytest.mark.parametrize(
    "quote",
    [
        "Glarivex reduced the risk of cardiovascular death.",
        "Glarivex reduced the risk of cardiovascular death by 21%.",
        "Glarivex reduced the risk of heart failure hospitalisation.",
        "Glarivex lowered the incidence of stroke.",
        "Glarivex was associated with a lower risk of stroke.",
        "The risk of stroke was lower with Glarivex.",
        "Patients on Glarivex had fewer cardiovascular deaths.",
        "Glarivex is cardioprotective.",
    ],
)
def test_a_reduced_risk_of_a_cardiovascular_outcome_favours_the_drug_on_that_outcome_only(
    quote,
):
    assert stances(quote, [HEART, SUGAR], DRUGS) == {("Glarivex", HEART, 1)}


def test_a_cardiovascular_result_says_nothing_on_glucose_lowering():
    quote = "Glarivex reduced the risk of cardiovascular death."
    assert reading(quote, [SUGAR], DRUGS).stances == ()


@pytest.mark.parametrize(
    "quote",
    [
        "Glarivex reduced HbA1c by 1.3 percentage points.",
        "Glarivex lowered HbA1c by 1.3 percentage points.",
    ],
)
def test_a_glucose_result_favours_the_drug_on_glucose_lowering_only(quote):
    assert stances(quote, [HEART, SUGAR], DRUGS) == {("Glarivex", SUGAR, 1)}


@pytest.mark.parametrize(
    ("interval", "expected"),
    [
        ("0.74 (95% CI 0.62-0.89)", {("Glarivex", HEART, 1)}),
        ("0.93 (95% CI 0.81-1.07)", set()),
        ("1.32 (95% CI 1.10-1.58)", {("Glarivex", HEART, -1)}),
    ],
)
def test_a_hazard_ratio_favours_only_when_its_whole_interval_lies_below_one(interval, expected):
    quote = f"With Glarivex, cardiovascular death had a hazard ratio of {interval}."
    assert stances(quote, [HEART, SUGAR], DRUGS) == expected


def test_a_hazard_ratio_on_a_cardiovascular_outcome_says_nothing_on_glucose_lowering():
    quote = "Glarivex cut cardiovascular deaths, HR 0.74 (95% CI 0.62 to 0.89)."
    assert reading(quote, [SUGAR], DRUGS).stances == ()


@pytest.mark.parametrize(
    ("quote", "expected"),
    [
        (
            "Glarivex lowered blood glucose but had no effect on cardiovascular events.",
            {("Glarivex", SUGAR, 1)},
        ),
        (
            "Glarivex lowered blood glucose; there was no significant difference in "
            "cardiovascular events.",
            {("Glarivex", SUGAR, 1)},
        ),
        (
            "Glarivex did not increase the risk of heart failure, but it lowered HbA1c more "
            "than placebo.",
            {("Glarivex", SUGAR, 1)},
        ),
    ],
)
def test_each_outcome_of_a_sentence_is_read_on_its_own_dimension(quote, expected):
    assert stances(quote, [HEART, SUGAR], DRUGS) == expected


@pytest.mark.parametrize(
    ("quote", "expected"),
    [
        ("Glarivex increased the risk of heart failure.", -1),
        ("Glarivex had a hazard ratio of 1.25 for heart failure (95% CI 1.05-1.49).", -1),
    ],
)
def test_a_raised_risk_counts_against_the_drug(quote, expected):
    assert stances(quote, [HEART, SUGAR], DRUGS) == {("Glarivex", HEART, expected)}


@pytest.mark.parametrize(
    ("quote", "dimension", "expected"),
    [
        ("格列维克斯增加了心衰风险。", ZH_HEART, -1),
        ("格列维克斯的降糖效果好。", ZH_SUGAR, 1),
    ],
)
def test_chinese_results_are_read_on_their_outcome(quote, dimension, expected):
    assert stances(quote, [dimension], DRUGS_ZH) == {("格列维克斯", dimension, expected)}


# --- comparisons -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("quote", "dimension", "expected"),
    [
        ("Quillsync is faster than Loamdb.", SPEED, {("Quillsync", 1), ("Loamdb", -1)}),
        ("Loamdb is faster than Quillsync.", SPEED, {("Loamdb", 1), ("Quillsync", -1)}),
        ("Quillsync outperforms Loamdb on throughput.", SPEED, {("Quillsync", 1), ("Loamdb", -1)}),
        (
            "Loamdb is harder to learn than Quillsync.",
            LEARNING,
            {("Quillsync", 1), ("Loamdb", -1)},
        ),
        (
            "Quillsync, not Loamdb, is the better choice for beginners.",
            LEARNING,
            {("Quillsync", 1), ("Loamdb", -1)},
        ),
        ("Quillsync has lower latency than Loamdb.", LATENCY, {("Quillsync", 1), ("Loamdb", -1)}),
        ("Quillsync has higher latency than Loamdb.", LATENCY, {("Quillsync", -1), ("Loamdb", 1)}),
        ("Quillsync is more expensive than Loamdb.", PRICE, {("Quillsync", -1), ("Loamdb", 1)}),
        (
            "Quillsync and Tessera are faster than Loamdb.",
            SPEED,
            {("Quillsync", 1), ("Tessera", 1), ("Loamdb", -1)},
        ),
        (
            "Unlike Quillsync, Loamdb is actively maintained.",
            UPKEEP,
            {("Loamdb", 1), ("Quillsync", -1)},
        ),
    ],
)
def test_a_comparison_is_good_for_the_winner_and_bad_for_the_loser(quote, dimension, expected):
    assert stances(quote, [dimension]) == {(o, dimension, p) for o, p in expected}


@pytest.mark.parametrize(
    ("quote", "dimension", "expected"),
    [
        ("青鸟流程比河图引擎快。", ZH_SPEED, {("青鸟流程", 1), ("河图引擎", -1)}),
        ("青鸟流程的性能比河图引擎好。", ZH_SPEED, {("青鸟流程", 1), ("河图引擎", -1)}),
        ("相比河图引擎，青鸟流程的性能更好。", ZH_SPEED, {("青鸟流程", 1), ("河图引擎", -1)}),
        ("青鸟流程的学习成本比河图引擎低。", ZH_LEARNING, {("青鸟流程", 1), ("河图引擎", -1)}),
        ("青鸟流程不如河图引擎容易上手。", ZH_LEARNING, {("青鸟流程", -1), ("河图引擎", 1)}),
        ("河图引擎比青鸟流程便宜。", ZH_PRICE, {("青鸟流程", -1), ("河图引擎", 1)}),
    ],
)
def test_a_chinese_comparison_is_good_for_the_winner_and_bad_for_the_loser(
    quote, dimension, expected
):
    assert stances(quote, [dimension], ZH) == {(o, dimension, p) for o, p in expected}


@pytest.mark.parametrize(
    ("quote", "options", "dimension"),
    [
        ("Quillsync is better than Loamdb.", EN, SPEED),
        ("青鸟流程优于河图引擎。", ZH, ZH_SPEED),
    ],
)
def test_a_comparison_that_names_no_dimension_takes_no_stance(quote, options, dimension):
    assert reading(quote, [dimension], options).stances == ()


def test_a_comparison_and_a_separate_clause_are_read_each_on_its_dimension():
    quote = "Quillsync is faster than Loamdb but harder to learn."
    assert stances(quote, [SPEED, LEARNING]) == {
        ("Quillsync", SPEED, 1),
        ("Loamdb", SPEED, -1),
        ("Quillsync", LEARNING, -1),
    }


def test_a_drug_superior_to_another_on_glucose_lowering_wins_and_the_other_loses():
    quote = "Glarivex was superior to Tomeprazan in lowering HbA1c."
    assert stances(quote, [HEART, SUGAR], DRUGS) == {
        ("Glarivex", SUGAR, 1),
        ("Tomeprazan", SUGAR, -1),
    }


# --- a judging word judges the cue next to it ------------------------------------------------


@pytest.mark.parametrize(
    ("quote", "dimensions", "options", "expected"),
    [
        (
            "Quillsync has excellent documentation and its throughput is average.",
            [SPEED, LEARNING],
            EN,
            {("Quillsync", LEARNING, 1)},
        ),
        (
            "Quillsync has a steep learning curve and high throughput.",
            [SPEED, LEARNING],
            EN,
            {("Quillsync", LEARNING, -1), ("Quillsync", SPEED, 1)},
        ),
        (
            "青鸟流程文档完善，吞吐量一般。",
            [ZH_SPEED, ZH_LEARNING],
            ZH,
            {("青鸟流程", ZH_LEARNING, 1)},
        ),
    ],
)
def test_a_judging_word_judges_the_dimension_whose_cue_stands_next_to_it(
    quote, dimensions, options, expected
):
    assert stances(quote, dimensions, options) == expected


def test_a_judging_word_far_from_the_only_cue_does_not_judge_it():
    quote = (
        "Quillsync offers an excellent dashboard that we used every day while measuring throughput."
    )
    assert reading(quote, [SPEED]).stances == ()


# --- who a point speaks about ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("quote", "about", "expected"),
    [
        ("Loamdb is faster than Quillsync.", "named", {"Loamdb", "Quillsync"}),
        ("Tessera is fast, like Quillsync.", "named", {"Tessera"}),
        (
            "Featherline, a faster alternative to Quillsync, is gaining users.",
            "named",
            {"Quillsync"},
        ),
        ("It is fast.", "pronoun", {"Quillsync"}),
        ("It is fast.", "named", set()),
    ],
)
def test_the_options_a_point_speaks_of_are_those_it_is_about_or_ranks(quote, about, expected):
    point = Point(quote, "Quillsync", about=about)
    assert options_spoken_of(point, list(EN)) == expected


def test_a_table_cell_speaks_of_its_columns_option_only():
    point = Point("Faster than Loamdb", "Quillsync", about="table", polarity=1, header="Pros")
    assert options_spoken_of(point, list(EN)) == {"Quillsync"}


@pytest.mark.parametrize(
    "quote",
    [
        "Quillsync is the choice for complex analytical queries.",
        "Quillsync handles large, complicated workflows across many teams.",
        "青鸟流程适合处理复杂的分析查询。",
    ],
)
def test_the_work_an_option_is_put_to_is_not_a_judgement_of_its_complexity(quote):
    option = "青鸟流程" if "青鸟" in quote else "Quillsync"
    dimension = ZH_OPS if "青鸟" in quote else OPS
    assert stances(quote, [dimension], [option, "Loamdb"]) == set()


def test_the_options_own_complexity_is_still_judged():
    assert stances("Quillsync is complex to operate at scale.", [OPS]) == {("Quillsync", OPS, -1)}


@pytest.mark.parametrize(
    ("quote", "dimension"),
    [
        (
            "Regardless of the size and complexity of the Quillsync setup, clients need only "
            "the server's address.",
            OPS,
        ),
        ("无论青鸟流程的部署规模多大、多复杂，客户端只需要服务器地址。", ZH_OPS),
    ],
)
def test_what_a_sentence_sets_aside_is_not_judged(quote, dimension):
    option = "青鸟流程" if "青鸟" in quote else "Quillsync"
    assert stances(quote, [dimension], [option, "Loamdb"]) == set()
