from __future__ import annotations

from research.reading.claims import TableFact, table_rows

OPTIONS = ["Apache Pigeon", "Loamdb", "Tessera"]


def facts_of(text: str, options: list[str] = OPTIONS) -> list[tuple[str, str, str, int]]:
    facts = table_rows(text, options)
    for fact in facts:
        assert text[fact.start : fact.end] in text.splitlines()[_line_of(text, fact)]
    return [(f.option, f.header, f.cell, f.polarity) for f in facts]


def _line_of(text: str, fact: TableFact) -> int:
    return text[: fact.start].count("\n")


FEATURES = """\
# Choosing a queue

| Feature | Pigeon | Loamdb | Tessera |
|---|:---:|---|---|
| Exactly-once delivery | ✅ | ❌ | Yes (since 2.1) |
| Throughput (msg/s) | 1,200,000 | 40,000 | 96,000 ✓ |
| Learning curve | Steep | Gentle | n/a |
"""


def test_a_table_with_a_column_per_option_gives_each_cell_to_its_option():
    assert facts_of(FEATURES) == [
        ("Apache Pigeon", "Exactly-once delivery", "✅", 1),
        ("Loamdb", "Exactly-once delivery", "❌", -1),
        ("Tessera", "Exactly-once delivery", "Yes (since 2.1)", 1),
        ("Apache Pigeon", "Throughput (msg/s)", "1,200,000", 0),
        ("Loamdb", "Throughput (msg/s)", "40,000", 0),
        ("Tessera", "Throughput (msg/s)", "96,000 ✓", 1),
        ("Apache Pigeon", "Learning curve", "Steep", -1),
        ("Loamdb", "Learning curve", "Gentle", 1),
        ("Tessera", "Learning curve", "n/a", 0),
    ]


def test_a_table_fact_quotes_its_whole_row_verbatim():
    fact = table_rows(FEATURES, OPTIONS)[0]
    assert (
        FEATURES[fact.start : fact.end] == "| Exactly-once delivery | ✅ | ❌ | Yes (since 2.1) |"
    )


def test_a_table_with_a_row_per_option_reads_pros_and_cons_columns():
    text = """\
| Option | Pros | Cons | License |
|--------|------|------|---------|
| Loamdb | tiny footprint | few integrations | MIT |
| Tessera | rich ecosystem | heavy | AGPL-3.0 |
"""
    assert facts_of(text) == [
        ("Loamdb", "Pros", "tiny footprint", 1),
        ("Loamdb", "Cons", "few integrations", -1),
        ("Loamdb", "License", "MIT", 0),
        ("Tessera", "Pros", "rich ecosystem", 1),
        ("Tessera", "Cons", "heavy", -1),
        ("Tessera", "License", "AGPL-3.0", 0),
    ]


def test_list_items_under_a_cons_heading_count_against_the_option_of_the_heading_above():
    text = """\
## Apache Pigeon

Pigeon is a replicated log.

### Pros
- handles huge volumes

### Cons

- complex to deploy and operate
- needs a JVM

## What about cost?
- cheap everywhere
"""
    assert facts_of(text) == [
        ("Apache Pigeon", "Pros", "handles huge volumes", 1),
        ("Apache Pigeon", "Cons", "complex to deploy and operate", -1),
        ("Apache Pigeon", "Cons", "needs a JVM", -1),
    ]
    item = table_rows(text, OPTIONS)[1]
    assert text[item.start : item.end] == "complex to deploy and operate"


def test_lead_in_lines_name_the_option_or_carry_the_item():
    text = "Drawbacks of Loamdb:\n* a single maintainer\n\nTessera\nCons: limited plugin support\n"
    assert facts_of(text) == [
        ("Loamdb", "Drawbacks of Loamdb", "a single maintainer", -1),
        ("Tessera", "Cons", "limited plugin support", -1),
    ]


def test_chinese_pros_and_cons_lists_and_support_tables():
    options = ["青鸟流程", "河图引擎"]
    text = """\
## 河图引擎

✅ 优点

  • 生态丰富
  • 上手快

❌ 缺点

  • 文档较少

| 维度 | 青鸟流程 | 河图引擎 |
|—————-|—————————-|——————–|
| 插件 | 支持 | 不支持 |
| 性能 | 极高 | 一般 |
"""
    assert facts_of(text, options) == [
        ("河图引擎", "优点", "生态丰富", 1),
        ("河图引擎", "优点", "上手快", 1),
        ("河图引擎", "缺点", "文档较少", -1),
        ("青鸟流程", "插件", "支持", 1),
        ("河图引擎", "插件", "不支持", -1),
        ("青鸟流程", "性能", "极高", 1),
        ("河图引擎", "性能", "一般", -1),  # behind 极高 in the same row
    ]


def test_lists_outside_a_pros_or_cons_section_and_tables_without_options_give_nothing():
    text = """\
## Loamdb
- written in Rust
- MIT licensed

| Version | Date |
|---|---|
| 2.0 | 2024-03 |
"""
    assert table_rows(text, OPTIONS) == []


def test_a_flattened_table_with_no_corner_label_keeps_footnote_marks_with_their_cells():
    text = (
        "The main differences:\n\n"
        "Quillsync Loamdb Tessera\n"
        "Offline edits Yes No [1] No\n"
        "Result storage No Yes Yes\n"
        "[1] Loamdb queues edits only while the app stays open.\n"
    )
    cells = {
        (f.option, f.header): f.cell for f in table_rows(text, ["Quillsync", "Loamdb", "Tessera"])
    }
    assert cells[("Loamdb", "Offline edits")] == "No [1]"
    assert cells[("Tessera", "Offline edits")] == "No"
    assert cells[("Quillsync", "Result storage")] == "No"


def test_a_table_whose_label_column_is_written_last_in_the_header_reads_each_option_its_cells():
    text = (
        "| Quillsync | Loamdb | Tessera | |\n"
        "|---|---|---|---|\n"
        "| Broker | Redis, SQS | Redis | none |\n"
    )
    cells = {f.option: f.cell for f in table_rows(text, ["Quillsync", "Loamdb", "Tessera"])}
    assert cells == {"Quillsync": "Redis, SQS", "Loamdb": "Redis", "Tessera": "none"}
