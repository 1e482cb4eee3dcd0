from __future__ import annotations

from research.stages.keypoints import key_points

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
