from __future__ import annotations

from research.reading.keypoints import key_points

TEXT = (
    "# Choosing a sync engine\n\n"
    "Loamdb is released under the MIT License, which keeps licence risk low. "
    "The weather was nice that day. "
    "Quillsync ships a plugin API that makes customisation cheap.\n\n"
    "Both teams publish release notes."
)


def test_every_key_point_quote_is_an_exact_substring_at_its_offset():
    points = key_points(TEXT, ["Loamdb", "Quillsync"], ["licence risk", "customisation cost"])
    assert points
    for point in points:
        assert TEXT[point.offset : point.offset + len(point.quote)] == point.quote


def test_it_picks_sentences_about_an_option_on_a_dimension_and_skips_chatter():
    points = key_points(TEXT, ["Loamdb", "Quillsync"], ["licence risk", "customisation cost"])
    found = {(p.option, p.dimension) for p in points}
    assert ("Loamdb", "licence risk") in found
    assert ("Quillsync", "customisation cost") in found
    assert not any("weather" in p.quote for p in points)


def test_offsets_account_for_a_stored_header_before_the_text():
    header = "---\ntitle: x\n---\n\n"
    stored = header + TEXT
    points = key_points(TEXT, ["Loamdb"], ["licence risk"], base_offset=len(header))
    assert all(stored[p.offset : p.offset + len(p.quote)] == p.quote for p in points)


def test_it_reads_chinese_sentences():
    text = (
        "河图引擎采用 Apache-2.0 许可证，商业使用风险较低。今天天气很好。"
        "星轨调度的社区很活跃，贡献者众多。"
    )
    points = key_points(text, ["河图引擎", "星轨调度"], ["风险", "社区活跃度"])
    options = {p.option for p in points}
    assert options == {"河图引擎", "星轨调度"}
    assert all(text[p.offset : p.offset + len(p.quote)] == p.quote for p in points)


def test_a_page_about_one_option_lends_it_to_sentences_that_do_not_name_it():
    text = "The licence is Apache-2.0, so licence risk is low for commercial apps."
    points = key_points(text, ["Quillsync", "Loamdb"], ["licence risk"], page_option="Quillsync")
    assert points[0].option == "Quillsync"


def test_a_sentence_comparing_two_options_is_kept_and_filed_under_the_first_named():
    text = "Loamdb replicates writes far faster than Quillsync does on the same hardware."
    points = key_points(text, ["Quillsync", "Loamdb"], ["performance"])
    assert [p.option for p in points] == ["Loamdb"]


def test_a_list_under_a_heading_naming_an_option_is_about_that_option():
    text = (
        "## Quillsync\n\n"
        "- Drawbacks: complex to deploy and operate on small teams.\n"
        "- Its plugin system has breaking changes in every release.\n\n"
        "## Loamdb\n\n"
        "- Simple to deploy as a single binary.\n"
    )
    points = key_points(text, ["Quillsync", "Loamdb"], ["operational complexity"])
    by_quote = {p.quote: p for p in points}
    drawback = by_quote["complex to deploy and operate on small teams."]
    assert (drawback.option, drawback.polarity, drawback.header) == ("Quillsync", -1, "Drawbacks")
    assert by_quote["- Simple to deploy as a single binary."].option == "Loamdb"


def test_an_over_long_run_on_sentence_yields_clauses_not_nothing():
    clause = "Quillsync keeps licence costs low for teams of any size"
    text = ", ".join([clause] * 12) + "."
    points = key_points(text, ["Quillsync"], ["licence risk"])
    assert points
    assert all(len(p.quote) <= 400 and text[p.offset :].startswith(p.quote) for p in points)


def test_a_table_row_naming_an_option_is_a_quotable_key_point():
    text = "| Product | Licence | Price |\n|---|---|---|\n| Quillsync | MIT | $5 per seat |\n"
    points = key_points(text, ["Quillsync", "Loamdb"], ["licence risk"])
    assert [p.quote for p in points] == ["| Quillsync | MIT | $5 per seat |"]


def test_calls_to_action_are_not_key_points():
    text = (
        "Compare speed, licence and cost to choose the best sync engine for you. "
        "Read more about Quillsync pricing. "
        "Quillsync costs $5 per seat per month."
    )
    points = key_points(text, ["Quillsync"], ["cost"], page_option="Quillsync")
    assert [p.quote for p in points] == ["Quillsync costs $5 per seat per month."]


def test_a_clause_setting_a_topic_aside_does_not_file_the_sentence_under_that_topic():
    from research.reading.keypoints import best_dimension

    dims = ["licence risk", "maintenance activity", "customisation cost"]
    assert (
        best_dimension("Separate from the licence question: customising Loamdb is expensive.", dims)
        == "customisation cost"
    )
    assert (
        best_dimension("撇开许可证不谈，定制河图引擎的成本很高。", ["许可证风险", "定制成本"])
        == "定制成本"
    )
    assert best_dimension("Loamdb was archived in 2025.", dims) == "maintenance activity"


def test_a_sentence_referring_to_an_option_is_a_key_point_even_without_a_dimensions_words():
    text = (
        "Quillsync accepts one writer at a time. It keeps its data in one file.\n\n"
        "The weather was pleasant that week.\n\n"
        "Loamdb keeps every tenant in a schema of its own."
    )
    points = key_points(text, ["Quillsync", "Loamdb"], ["scalability", "feature set"])
    assert [(p.option, p.quote) for p in points] == [
        ("Quillsync", "Quillsync accepts one writer at a time."),
        ("Quillsync", "It keeps its data in one file."),
        ("Loamdb", "Loamdb keeps every tenant in a schema of its own."),
    ]


# --- which option a sentence is filed under ------------------------------------------------

OPTIONS = ["Quillsync", "Loamdb", "Tessera"]


def filed(text: str, dimensions: list[str], page_option: str | None = None, options=OPTIONS):
    return [(p.option, p.quote) for p in key_points(text, options, dimensions, page_option)]


def test_an_option_named_only_as_a_yardstick_does_not_become_the_sentences_subject():
    text = "Unlike Loamdb, Quillsync replicates writes at a steady throughput."
    assert filed(text, ["throughput"]) == [("Quillsync", text)]


def test_a_paragraph_stays_with_its_option_after_others_are_named_in_passing():
    text = (
        "We evaluated Quillsync for a month. "
        "Compared with Loamdb and Tessera, it replicates writes fast. "
        "It is released under the MIT licence, which keeps licence risk low."
    )
    points = filed(text, ["throughput", "licence risk"])
    assert {option for option, _ in points} == {"Quillsync"}


def test_alternatives_listed_on_a_page_about_one_option_are_not_filed_under_it():
    text = (
        "Alternatives such as Featherline and Brightdash are released under the MIT licence, "
        "which keeps licence risk low.\n\n"
        "Other tools like Loamdb, Tessera and Featherline are cheap to license.\n\n"
        "像 Featherline、Brightdash 这样的替代品采用 MIT 许可证，许可风险很低。"
    )
    assert filed(text, ["licence risk", "许可风险"], page_option="Quillsync") == []


def test_a_sentence_about_the_pages_option_still_counts_when_it_names_others_in_passing():
    text = "Unlike Featherline and Brightdash, it is released under the MIT licence."
    assert filed(text, ["licence risk"], page_option="Quillsync") == [("Quillsync", text)]


def test_the_kind_with_a_definite_article_names_the_option_of_the_page():
    options = ["Tessera ORM", "Loamdb"]
    text = (
        "The ORM is released under the MIT licence, which keeps licence risk low.\n\n"
        "该 ORM 采用 MIT 许可证，许可风险很低。"
    )
    points = key_points(text, options, ["licence risk", "许可风险"], page_option="Tessera ORM")
    assert [(p.option, p.about) for p in points] == [("Tessera ORM", "named")] * 2


def test_a_bundle_and_a_brand_with_its_kind_are_found_in_running_text():
    options = ["Loamdb with Brightdash", "Tessera ORM"]
    text = (
        "Loamdb keeps licence risk low with its MIT licence. "
        "Tessera's ORM is released under the GPL, which raises licence risk."
    )
    assert [p.option for p in key_points(text, options, ["licence risk"])] == options
