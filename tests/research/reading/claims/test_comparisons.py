from __future__ import annotations

import pytest

from research.reading.claims import compare, option_mentions

TWO = ["Quillsync", "Loamdb"]
ZH = ["青鸟流程", "河图引擎"]


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Quillsync is faster than Loamdb.", {"Quillsync": 1, "Loamdb": -1}),
        ("Loamdb is slower than Quillsync.", {"Quillsync": 1, "Loamdb": -1}),
        ("Quillsync outperforms Loamdb on writes.", {"Quillsync": 1, "Loamdb": -1}),
        ("Quillsync beats Loamdb in every benchmark we ran.", {"Quillsync": 1, "Loamdb": -1}),
        ("Quillsync is less complex than Loamdb.", {"Quillsync": 1, "Loamdb": -1}),
        ("Quillsync has fewer bugs than Loamdb.", {"Quillsync": 1, "Loamdb": -1}),
        ("Unlike Loamdb, Quillsync supports offline edits.", {"Quillsync": 1, "Loamdb": -1}),
        ("Quillsync is not as fast as Loamdb.", {"Quillsync": -1, "Loamdb": 1}),
        ("Loamdb lags behind Quillsync on throughput.", {"Quillsync": 1, "Loamdb": -1}),
        ("Loamdb does not outperform Quillsync.", {"Quillsync": 1, "Loamdb": -1}),
        ("We chose Loamdb over Quillsync for its footprint.", {"Quillsync": -1, "Loamdb": 1}),
        ("Loamdb's latency is lower than Quillsync's.", {"Quillsync": -1, "Loamdb": 1}),
        ("Loamdb is heavier to run compared to Quillsync.", {"Quillsync": 1, "Loamdb": -1}),
    ],
)
def test_it_reads_who_wins_an_english_comparison(sentence, expected):
    assert compare(sentence, TWO) == expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("青鸟流程比河图引擎快。", {"青鸟流程": 1, "河图引擎": -1}),
        ("青鸟流程比河图引擎更容易上手。", {"青鸟流程": 1, "河图引擎": -1}),
        ("青鸟流程优于河图引擎。", {"青鸟流程": 1, "河图引擎": -1}),
        ("青鸟流程不如河图引擎。", {"青鸟流程": -1, "河图引擎": 1}),
        ("相比河图引擎，青鸟流程更轻量。", {"青鸟流程": 1, "河图引擎": -1}),
        ("与河图引擎相比，青鸟流程的生态更成熟。", {"青鸟流程": 1, "河图引擎": -1}),
        ("青鸟流程没有河图引擎快。", {"青鸟流程": -1, "河图引擎": 1}),
        ("青鸟流程相比河图引擎更快。", {"青鸟流程": 1, "河图引擎": -1}),
        ("青鸟流程的安装包比河图引擎小。", {"青鸟流程": 1, "河图引擎": -1}),
        ("河图引擎增长很快，但与青鸟流程相比仍有差距。", {"青鸟流程": 1, "河图引擎": -1}),
    ],
)
def test_it_reads_who_wins_a_chinese_comparison(sentence, expected):
    assert compare(sentence, ZH) == expected


@pytest.mark.parametrize(
    "sentence",
    [
        "Quillsync is as fast as Loamdb.",
        "Quillsync and Loamdb are both open source.",
        "Quillsync vs Loamdb: which is faster?",
        "Loamdb handles more than a million writes per second.",
        "Quillsync is faster than it was last year.",
        "We use Quillsync to feed Loamdb.",
    ],
)
def test_sentences_that_rank_nothing_give_nothing(sentence):
    assert compare(sentence, TWO) == {}


@pytest.mark.parametrize(
    "sentence",
    ["青鸟流程和河图引擎都支持 Windows。", "青鸟流程比较适合小团队，河图引擎适合大团队。"],
)
def test_chinese_lists_and_比较_are_not_comparisons(sentence):
    assert compare(sentence, ZH) == {}


def test_several_winners_can_share_one_loser():
    options = ["Quillsync", "Loamdb", "Tessera"]
    assert compare("Quillsync and Tessera are both easier to run than Loamdb.", options) == {
        "Quillsync": 1,
        "Tessera": 1,
        "Loamdb": -1,
    }


def test_a_long_name_is_also_mentioned_by_its_distinctive_last_word():
    options = ["Apache Pigeon", "Loamdb"]
    assert compare("Pigeon has a larger community than Loamdb.", options) == {
        "Apache Pigeon": 1,
        "Loamdb": -1,
    }
    text = "Apache Pigeon is fast; Pigeon clusters are easy to grow."
    assert option_mentions(text, "Apache Pigeon") == [(0, 13), (23, 29)]


def test_generic_last_words_do_not_stand_for_the_option():
    assert option_mentions("Pick any web framework.", "Quill Web Framework") == []
    assert option_mentions("The quillsync team", "Quillsync") == [(4, 13)]
