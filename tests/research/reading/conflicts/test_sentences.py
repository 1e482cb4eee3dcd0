"""Contradictions between whole sentences: denials, opposite judgements, differing figures."""

from __future__ import annotations

from datetime import date

from research.reading.conflicts.sentences import figures, find_conflicts, topic_words
from research.reading.conflicts.statements import Statement

OPTIONS = ["Quillsync", "Loamdb", "Apache Tessera"]


def _st(key, quote, site, option="Quillsync", dimension="reliability", published=None):
    return Statement(
        key=key,
        option=option,
        dimension=dimension,
        source_id=key,
        site=site,
        published=published,
        quote=quote,
        offset=0,
        words=topic_words(quote, OPTIONS),
    )


FILLER = [
    _st(f"f{i}", text, f"filler{i}.example")
    for i, text in enumerate(
        [
            "Quillsync ships a command-line client for scripting.",
            "Quillsync has a plugin API documented with examples.",
            "Quillsync runs on Linux, macOS and Windows desktops.",
            "Quillsync stores notes as plain Markdown files.",
            "Quillsync offers keyboard shortcuts for every action.",
            "Quillsync syncs through any WebDAV server.",
            "Quillsync has a dark theme and a light theme.",
        ]
    )
]


def test_a_denial_of_what_another_source_states_is_a_contradiction():
    a = _st("a", "Quillsync has no offline mode: edits made on a plane are lost.", "blog.example")
    b = _st("b", "The offline mode of Quillsync queues edits until the network is back.", "docs.q")
    found = find_conflicts([a, b, *FILLER])
    assert len(found) == 1
    assert found[0].why == "negation"
    assert "offline" in found[0].attribute


def test_sentences_that_only_share_rare_words_do_not_contradict():
    # Figures are compared as typed facts, each named by what it measures
    # (test_crosscheck); two sentences with numbers and words in common are not enough.
    a = _st("a", "Quillsync uses 2.5x the memory of Loamdb at idle.", "bench.example")
    b = _st("b", "At idle Quillsync syncs 25x the notes of Loamdb, says the rewrite.", "n.example")
    assert find_conflicts([a, b, *FILLER]) == []


def test_a_statement_that_is_not_one_or_not_about_the_option_cannot_stand_for_a_side():
    a = _st("a", "Quillsync has no offline mode: edits made on a plane are lost.", "blog.example")
    b = _st("b", "The offline mode of Quillsync queues edits until the network is back.", "docs.q")
    heading = Statement(**{**b.__dict__, "stated": False})
    assert find_conflicts([a, heading, *FILLER]) == []
    unnamed = Statement(**{**b.__dict__, "named": False})
    assert find_conflicts([a, unnamed, *FILLER]) == []


def test_a_denial_in_a_condition_denies_nothing():
    a = _st("a", "For developers without an offline mode in mind, Quillsync is fine.", "a.example")
    b = _st("b", "The offline mode of Quillsync queues edits until the network is back.", "b.q")
    assert find_conflicts([a, b, *FILLER]) == []
    zh = _st("c", "对于没有离线模式需求的团队来说，Quillsync 足够。", "c.example")
    zh_b = _st("d", "Quillsync 的离线模式会在断网时缓存修改。", "d.example")
    assert find_conflicts([zh, zh_b, *FILLER]) == []


def test_a_finding_on_one_outcome_contradicts_only_the_same_outcome():
    mi = _st("a", "Quillsync led to a reduced risk of non-fatal myocardial infarction.", "a.ex")
    trend = _st(
        "b",
        "Quillsync gave a significant reduction in non-fatal stroke, and a nonsignificant "
        "trend towards a reduction in non-fatal myocardial infarction.",
        "b.ex",
    )
    stroke = _st("c", "Quillsync brought a significant reduction in non-fatal stroke.", "c.ex")
    assert [c.why for c in find_conflicts([mi, trend, *FILLER])] == ["opposites"]
    assert find_conflicts([stroke, trend, *FILLER]) == []


def test_matching_figures_and_figures_about_different_things_do_not_contradict():
    same = [
        _st("a", "Quillsync costs $8 per month for the team plan.", "shop.example"),
        _st("b", "The team plan of Quillsync costs $8 per month.", "review.example"),
    ]
    different = [
        _st("c", "Quillsync syncs 40% faster since the rewrite.", "x.example"),
        _st("d", "Support tickets for Quillsync fell 12% this year.", "y.example"),
    ]
    assert find_conflicts([*same, *FILLER]) == []
    assert find_conflicts([*different, *FILLER]) == []


def test_two_sentences_from_one_site_never_contradict_each_other():
    a = _st("a", "Quillsync has no offline mode at all.", "same.example")
    b = _st("b", "The offline mode of Quillsync queues edits.", "same.example")
    assert find_conflicts([a, b, *FILLER]) == []


def test_a_question_asserts_nothing():
    a = _st("a", "Does Quillsync have an offline mode?", "faq.example")
    b = _st("b", "Quillsync has no offline mode.", "blog.example")
    assert find_conflicts([a, b, *FILLER]) == []


def test_sources_years_apart_are_explained_as_a_change_over_time():
    a = _st("a", "Quillsync has no offline mode.", "old.example", published=date(2019, 3, 1))
    b = _st(
        "b",
        "The offline mode of Quillsync queues edits.",
        "new.example",
        published=date(2025, 5, 1),
    )
    [conflict] = find_conflicts([a, b, *FILLER])
    assert conflict.kind == "time"
    assert "new.example" in conflict.note


def test_chinese_denial_is_found_and_the_point_reads_as_a_phrase():
    a = _st("a", "青鸟流程不支持离线模式，断网后无法编辑。", "a.example", option="Quillsync")
    b = _st("b", "Quillsync 的离线模式会在断网时缓存修改。", "b.example", option="Quillsync")
    found = find_conflicts([a, b, *FILLER])
    assert [c.why for c in found] == ["negation"]
    assert "离线模式" in found[0].attribute


def test_figures_know_units_and_ignore_years_versions_and_confidence_intervals():
    read = figures("In 2024 v2.1.0 cut p99 latency to 40 ms (95% CI 30 to 50) for $12 a month.")
    assert {(f.unit, f.value) for f in read} == {("ms", 40.0), ("$", 12.0)}
    assert {(f.unit, f.value) for f in figures("周下载量超1800万")} == {("万", 1800.0)}


def test_clauses_are_given_to_the_option_that_opens_them_not_to_a_yardstick():
    from research.reading.conflicts.sentences import option_segments

    listed = option_segments(
        "Loamdb ships 5KB, Quillsync weighs 40KB; Loamdb loads first.", OPTIONS
    )
    assert listed == {
        "Loamdb": "Loamdb ships 5KB Loamdb loads first.",
        "Quillsync": "Quillsync weighs 40KB",
    }
    assert option_segments("Quillsync uses 54x the memory of Loamdb at idle.", OPTIONS) == {}


def test_the_option_a_sentence_says_its_subject_beats_is_ranked_behind():
    from research.reading.conflicts.sentences import beaten

    assert beaten("Its sync latency is excellent, often beating Loamdb at p99.", "Loamdb")
    assert not beaten("Loamdb is fast.", "Loamdb")
    ahead = _st("a", "Loamdb has the lowest p99 latency we measured.", "bench.example", "Loamdb")
    behind = Statement(
        key="b",
        option="Loamdb",
        dimension="reliability",
        source_id="b",
        site="blog.example",
        published=None,
        quote="Quillsync has excellent p99 latency, often beating Loamdb.",
        offset=0,
        words=topic_words("Quillsync has excellent p99 latency, often beating Loamdb.", OPTIONS),
        polarity=-1,
    )
    filler = [
        _st(f"l{i}", s.quote.replace("Quillsync", "Loamdb"), s.site, "Loamdb")
        for i, s in enumerate(FILLER)
    ]
    assert [c.why for c in find_conflicts([ahead, behind, *filler])] == ["comparison"]


def test_further_pages_on_either_side_join_the_contradiction_instead_of_repeating_it():
    a = _st("a", "Quillsync has no offline mode: edits made on a plane are lost.", "blog.example")
    b1 = _st(
        "b1", "The offline mode of Quillsync queues edits until the network is back.", "docs.q"
    )
    b2 = _st(
        "b2", "Quillsync keeps working in offline mode and syncs edits later.", "review.example"
    )
    [conflict] = find_conflicts([a, b1, b2, *FILLER])
    sides = {conflict.a.key, conflict.b.key, *(s.key for s in conflict.a_also + conflict.b_also)}
    assert sides == {"a", "b1", "b2"}


def test_opposite_verdicts_on_the_dimension_itself_contradict_across_languages():
    easy = _st(
        "a", "Quillsync is easy to learn for newcomers.", "en.example", dimension="learning curve"
    )
    steep = _st("b", "Quillsync 的学习曲线相当陡峭。", "zh.example", dimension="learning curve")
    easy = Statement(**{**easy.__dict__, "on_dimension": True})
    steep = Statement(**{**steep.__dict__, "on_dimension": True})
    assert [c.why for c in find_conflicts([easy, steep, *FILLER])] == ["verdict"]
    # Without the dimension's own words, a mood is not a verdict on it.
    vague = Statement(**{**steep.__dict__, "on_dimension": False})
    assert find_conflicts([easy, vague, *FILLER]) == []


def test_a_page_speaks_on_a_side_through_a_sentence_that_names_the_option():
    denial = _st(
        "a", "Quillsync has no offline mode: edits made on a plane are lost.", "blog.example"
    )
    vague = Statement(
        **{
            **_st("b", "The offline mode queues every edit and syncs it later.", "docs.q").__dict__,
            "source_id": "docs",
        }
    )
    named = Statement(
        **{
            **_st("c", "Quillsync ships an offline mode that syncs when back.", "docs.q").__dict__,
            "source_id": "docs",
        }
    )
    [conflict] = find_conflicts([denial, vague, named, *FILLER])
    sides = [conflict.a, conflict.b, *conflict.a_also, *conflict.b_also]
    assert "c" in {s.key for s in sides} and "b" not in {s.key for s in sides}


def test_a_status_of_an_old_branch_does_not_contradict_the_projects_status():
    old = _st("a", "The Quillsync 1.x branch is deprecated; upgrade to 3.x soon.", "a.example")
    now = _st("b", "Quillsync is actively maintained and 3.x ships monthly.", "b.example")
    assert find_conflicts([old, now, *FILLER]) == []


def test_a_negated_term_in_chinese_sides_with_its_opposite():
    closed = _st("a", "Quillsync 是闭源商业软件，需要购买授权。", "a.example")
    not_open = _st("b", "Quillsync 并不是开源软件，源代码不公开。", "b.example")
    assert find_conflicts([closed, not_open, *FILLER]) == []


def test_each_contradiction_names_its_point_in_a_short_phrase_from_the_quotes():
    denial = find_conflicts(
        [
            _st("a", "Quillsync has no offline mode: edits made on a plane are lost.", "a.ex"),
            _st("b", "The offline mode of Quillsync queues every edit until later.", "b.ex"),
            *FILLER,
        ]
    )
    assert [c.attribute for c in denial] == ["offline mode"]
    clear = find_conflicts(
        [
            _st("a", "Quillsync keeps vault data in the clear on its sync servers.", "a.ex"),
            _st("b", "Only encrypted vault data of Quillsync reaches its sync servers.", "b.ex"),
            *FILLER,
        ]
    )
    assert [c.attribute for c in clear] == ["encryption"]
