from __future__ import annotations

import pytest

from research.reading.claims import (
    date_facts,
    extract,
    licence_fact,
    maintenance_fact,
    parse_number,
    quantity_facts,
    stance_polarity,
    version_fact,
)


@pytest.mark.parametrize(
    ("sentence", "licence"),
    [
        ("Loamdb is released under the MIT License.", "MIT"),
        ("Quillsync is licensed under the Apache License, Version 2.0.", "Apache-2.0"),
        ("Tessera is distributed under the GNU Affero General Public License v3.0.", "AGPL-3.0"),
        ("Loamdb switched from MIT to the Business Source License in 2024.", "BSL"),
        ("河图引擎已改为 AGPL-3.0 许可证。", "AGPL-3.0"),
        ("青鸟流程采用 MIT 许可证开源。", "MIT"),
    ],
)
def test_it_reads_the_current_licence(sentence, licence):
    fact = licence_fact(sentence)
    assert fact is not None and fact.value == licence


def test_a_licence_that_only_applies_later_is_not_todays_licence():
    sentence = "After four years each release converts to Apache-2.0 under the change date."
    assert licence_fact(sentence) is None


def test_permissive_licences_count_for_and_copyleft_against_licence_risk():
    assert licence_fact("It is MIT licensed.").polarity == 1
    assert licence_fact("It is AGPL-3.0 licensed.").polarity == -1


@pytest.mark.parametrize(
    ("sentence", "status"),
    [
        ("Tessera is actively maintained, with releases every month.", "active"),
        ("The Tessera repository was archived in March 2025 and is unmaintained.", "inactive"),
        ("Quillsync hasn't had a release in over a year.", "inactive"),
        ("It was actively maintained until the maintainers archived it.", "inactive"),
        ("星轨调度已于 2025 年 7 月归档，项目已停止维护。", "inactive"),
        ("星轨调度仍在积极维护，每月发布。", "active"),
    ],
)
def test_it_reads_maintenance_status(sentence, status):
    assert maintenance_fact(sentence).value == status


def test_a_status_about_one_release_line_is_not_about_the_project():
    assert maintenance_fact("The 2.x line is deprecated and only gets security fixes.") is None


def test_it_reads_the_latest_version_but_not_history_or_betas():
    assert version_fact("The current release is version 3.4.2.").value == "3.4.2"
    assert version_fact("Latest version: 2.7.0").value == "2.7"
    assert version_fact("Quillsync 2.7 was the last release of the 2.x line.") is None
    assert version_fact("The latest beta is 4.0.0-rc1.") is None
    assert version_fact("Version 3.0 replaced the merge engine.") is None


def test_it_reads_release_dates_in_english_and_chinese():
    assert date_facts("Tessera 2.8.0 came out in October 2024.")[0].value == "2024-10"
    assert date_facts("青鸟流程 2.4.0 于 2024 年 3 月 1 日发布。")[0].value == "2024-03-01"
    fact = date_facts("云杉搭建 2.0 早在二〇二二年十一月就已经发布了。")[0]
    assert (fact.attribute, fact.value) == ("release_date 2.0", "2022-11")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("forty-eight", 48),
        ("three hundred and ten", 310),
        ("1,200", 1200),
        ("两万九千八百", 29800),
        ("十二万", 120000),
    ],
)
def test_it_reads_numbers_written_in_words_and_chinese(text, value):
    assert parse_number(text) == value


def test_quantities_keep_their_unit_and_measure():
    facts = {f.attribute: f.value for f in quantity_facts("It has about 40 contributors.")}
    assert facts == {"contributors": "40"}
    p99 = quantity_facts("Its p99 latency is 45 ms.")[0]
    assert p99.attribute == "latency (ms, p99)"
    price = quantity_facts("河图引擎每年十二万元的授权费。")[0]
    assert (price.attribute, price.value) == ("yearly price", "120000")


@pytest.mark.parametrize(
    ("sentence", "polarity"),
    [
        ("Quillsync is easy to extend.", 1),
        ("Customising Loamdb is expensive and poorly documented.", -1),
        ("Licence risk is low for most teams.", 1),
        ("Not everything about Quillsync is cheap to change, though.", -1),
        ("河图引擎的学习曲线陡峭。", -1),
        ("青鸟流程上手非常快，文档示例齐全。", 1),
        ("The Tessera docs list every release.", 0),
    ],
)
def test_it_reads_the_direction_of_a_judgement(sentence, polarity):
    assert stance_polarity(sentence) == polarity


def test_a_stance_needs_a_dimension_and_facts_are_placed_on_the_matching_one():
    dims = ["licence risk", "maintenance activity"]
    facts = extract(
        "Tessera is AGPL-3.0, so it is risky for proprietary apps.", dims, "licence risk"
    )
    assert {(f.attribute, f.dimension) for f in facts} == {
        ("licence", "licence risk"),
        ("stance", "licence risk"),
    }
    assert [f for f in extract("It is easy.", dims, None) if f.kind == "stance"] == []


def test_typed_facts_land_on_the_dimension_their_measure_belongs_to():
    dims = ["cost", "performance", "maintenance activity"]
    placed = {
        f.attribute: f.dimension
        for f in extract("Loamdb costs $12 per month and its p99 latency is 40 ms.", dims, None)
    }
    assert placed == {"price per month": "cost", "latency (ms, p99)": "performance"}


def test_given_the_options_a_comparison_gives_each_option_its_own_stance():
    dims = ["performance"]
    sentence = "Quillsync is much faster than Loamdb."
    facts = extract(sentence, dims, "performance", options=["Quillsync", "Loamdb"])
    assert {(f.option, f.value) for f in facts if f.kind == "stance"} == {
        ("Quillsync", "positive"),
        ("Loamdb", "negative"),
    }
    old_form = extract(sentence, dims, "performance")
    assert [(f.option, f.value) for f in old_form] == [(None, "positive")]


def test_given_the_options_an_option_name_is_not_read_as_a_judgement():
    facts = extract(
        "Solid ships a release every month.", ["activity"], "activity", options=["Solid"]
    )
    assert [f for f in facts if f.kind == "stance"] == []


def test_facts_about_a_component_carry_their_scope():
    facts = extract("The legacy Loamdb adapter is MIT licensed.", ["licence risk"], "licence risk")
    assert facts and all(f.scope == "component: The legacy Loamdb adapter" for f in facts)
