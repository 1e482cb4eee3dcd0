from __future__ import annotations

import pytest

from research.reading.claims import maintenance_fact, scope_of


@pytest.mark.parametrize(
    ("sentence", "kind"),
    [
        ("The legacy STOMP adapter in Loamdb is deprecated.", "component"),
        ("The old admin UI of Tessera is slow.", "component"),
        ("Classic queue mirroring in Quillsync is going away.", "component"),
        ("The Tessera JDBC connector is unmaintained.", "component"),
        ("Loamdb 的 Redis 适配器已停止维护。", "component"),
        ("Before 2.0, Tessera had no clustering.", "old version"),
        ("Prior to v3 the Quillsync API was unstable.", "old version"),
        ("Versions 2.3 and earlier of Loamdb are MIT licensed.", "old version"),
        ("早期版本的青鸟流程不支持集群。", "old version"),
        ("旧版河图引擎很慢。", "old version"),
        ("In version 1.x, Loamdb stored everything in one file.", "version"),
        ("Quillsync used to crash under load.", "past"),
        ("Tessera was originally written in Ruby.", "past"),
        ("以前青鸟流程的文档很差。", "past"),
        ("In 2015 Quillsync was the fastest option.", "year"),
    ],
)
def test_it_names_the_part_version_or_time_a_statement_is_about(sentence, kind):
    scope = scope_of(sentence)
    assert scope is not None and scope.split(":")[0] == kind


@pytest.mark.parametrize(
    "sentence",
    [
        "Quillsync is fast and well documented.",
        "Quillsync is used to build APIs.",
        "Medicines like Loamdex are used to treat migraines.",
        "Quillsync has a rich plugin ecosystem.",
        "青鸟流程的插件生态很丰富。",
        "青鸟流程过去一年发布了 12 个版本。",
        "Tessera is still in its early days.",
        "青鸟流程仍处于早期阶段。",
        "Loamdb integrates well with legacy systems.",
        "Loamdb messages stay well below 1MB.",
        "Patients took 0.5 mg of Loamdex.",
    ],
)
def test_statements_about_the_whole_project_today_have_no_scope(sentence):
    assert scope_of(sentence) is None


def test_recent_years_are_not_the_past_when_the_current_year_is_known():
    assert scope_of("In 2025 Tessera moved to a monthly cadence.", current_year=2026) is None
    assert (
        scope_of("In 2019 Tessera moved to a monthly cadence.", current_year=2026) == "year: 2019"
    )


def test_a_deprecated_component_says_nothing_about_maintenance_of_the_project():
    assert maintenance_fact("The legacy STOMP adapter in Loamdb is deprecated.") is None
    assert maintenance_fact("Loamdb used to be actively developed.") is None
    fact = maintenance_fact("Loamdb used to be actively developed, but it is archived now.")
    assert fact is not None and fact.value == "inactive"
