"""A comparison table's cell against another table's row or a sentence elsewhere, and a
trial finding reported one way in one source and the other way in another."""

from __future__ import annotations

from research.reading.conflicts.cells import cell_says, cell_statement, row_key
from research.reading.conflicts.kinds import findings
from research.reading.conflicts.sentences import find_conflicts, topic_words
from research.reading.conflicts.statements import Statement

OPTIONS = ["Quillsync", "Loamdb"]


def _st(key, text, site, quote=None, row="", says=None):
    return Statement(
        key=key,
        option="Quillsync",
        dimension="reliability",
        source_id=key,
        site=site,
        published=None,
        quote=quote or text,
        offset=0,
        words=topic_words(text, OPTIONS),
        focus=text if quote else "",
        row=row,
        says=says,
    )


def _cell(key, header, cell, site, row_text):
    text = cell_statement("Quillsync", header, cell)
    return _st(key, text, site, quote=row_text, row=row_key(header), says=cell_says(cell))


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


def test_cells_answer_their_row_yes_no_or_optionally_whatever_their_markup():
    assert [cell_says(c) for c in ("Yes ✓", "**No** [1]", "None built-in", "Optional", "内置")] == [
        "yes",
        "no",
        "no",
        "optional",
        "yes",
    ]
    assert cell_says("Redis, RabbitMQ") is None
    assert cell_statement("Quillsync", "Result storage", "No [2]") == (
        "Quillsync has no result storage."
    )
    assert cell_statement("Quillsync", "离线模式", "不支持") == "Quillsync不支持离线模式。"


def test_a_no_in_one_table_against_a_yes_in_another_on_the_same_row_is_a_contradiction():
    no = _cell("a", "Offline edits", "No [1]", "vendor.example", "| Offline edits | No [1] | Yes |")
    yes = _cell("b", "**Offline edits**", "✓", "review.example", "| **Offline edits** | ✓ | ✓ |")
    [found] = find_conflicts([no, yes, *FILLER])
    assert found.why == "table" and found.attribute == "offline edit"
    assert "“no”" in found.note and "“yes”" in found.note


def test_an_optional_cell_does_not_contradict_a_yes_but_does_a_no():
    optional = _cell(
        "a", "Offline edits", "Optional", "vendor.example", "| Offline edits | Optional |"
    )
    yes = _cell("b", "Offline edits", "Yes", "review.example", "| Offline edits | Yes |")
    no = _cell("c", "Offline edits", "No", "forum.example", "| Offline edits | No |")
    assert find_conflicts([optional, yes, *FILLER]) == []
    assert [c.why for c in find_conflicts([optional, no, *FILLER])] == ["table"]


def test_a_table_saying_no_against_a_sentence_stating_it_is_a_denial():
    no = _cell("a", "Result storage", "No", "vendor.example", "| Result storage | No | Yes |")
    says = _st("b", "Quillsync supports task priorities, retries and result storage.", "blog.q")
    [found] = find_conflicts([no, says, *FILLER])
    assert found.why == "negation" and found.attribute == "result storage"
    assert "Quillsync has no result storage." in found.note


def test_a_chinese_table_saying_no_against_a_chinese_sentence_stating_it():
    no = _cell("a", "离线编辑", "不支持", "vendor.cn", "| 离线编辑 | 不支持 | 支持 |")
    says = _st("b", "Quillsync 的离线编辑功能会在联网后自动同步。", "blog.cn")
    [found] = find_conflicts([no, says, *FILLER])
    assert found.why == "negation"


def test_the_same_row_answered_alike_or_other_rows_do_not_contradict():
    yes = _cell("a", "Result storage", "Yes", "vendor.example", "| Result storage | Yes |")
    also = _cell(
        "b", "Result storage", "Built-in", "review.example", "| Result storage | Built-in |"
    )
    other = _cell("c", "Task priorities", "No", "forum.example", "| Task priorities | No |")
    assert find_conflicts([yes, also, other, *FILLER]) == []


def test_findings_read_after_the_outcome_under_its_other_names_and_in_a_list():
    assert findings("Death from any cause was lower in the Zelbrin group (5.7% vs 8.3%).") == {
        "all cause mortality": "yes"
    }
    assert findings(
        "No significant differences in major adverse cardiovascular events (MACE) and "
        "all-cause mortality were seen."
    ) == {"mace": "no", "all cause mortality": "no"}
    # The parts of a composite endpoint are not findings of their own.
    assert (
        findings(
            "Zelbrin reduced the composite endpoint (cardiovascular death, nonfatal stroke) by 20%."
        )
        == {}
    )


def test_a_finding_in_a_bullet_is_set_against_the_trial_reporting_no_significant_effect():
    bullet = _st("a", "• Reduced risk of non-fatal myocardial infarction", "summary.example")
    trial = _st(
        "b",
        "There was a nonsignificant trend towards a reduction in nonfatal myocardial "
        "infarction (HR 0.81, P = 0.2).",
        "journal.example",
    )
    [found] = find_conflicts([bullet, trial, *FILLER])
    assert found.attribute == "nonfatal myocardial infarction"
