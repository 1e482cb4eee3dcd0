from __future__ import annotations

import string

import pytest

from reports.strings import HEADINGS, Strings
from research.i18n import words


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_the_report_says_the_same_things_in_both_languages_with_the_same_facts():
    english, chinese = words("en").REPORT, words("zh").REPORT
    assert chinese.keys() == english.keys()
    for key in english:
        assert fields(chinese[key]) == fields(english[key]), key
    assert HEADINGS["zh"]["matrix"] == "评分矩阵"
    assert HEADINGS["en"]["matrix"] == "Score matrix"


def test_a_language_without_words_falls_back_to_english():
    assert words("fr").REPORT_HEADINGS["matrix"] == "Score matrix"
    assert words("zh").REPORT_HEADINGS["matrix"] == "评分矩阵"


@pytest.mark.parametrize(
    ("attribute", "english", "chinese"),
    [
        ("licence", "licence", "许可证"),
        ("latest_version", "latest version", "最新版本"),
        ("release_date 1.4.0", "release date of 1.4.0", "1.4.0 的发布日期"),
        ("latency (ms, p99)", "latency (ms, p99)", "延迟 (ms, p99)"),
        ("a new attribute", "a new attribute", "a new attribute"),
    ],
)
def test_claim_attributes_are_named_in_the_report_language(attribute, english, chinese):
    assert Strings("en").attribute(attribute) == english
    assert Strings("zh").attribute(attribute) == chinese


def test_stances_and_statuses_are_worded_but_licence_names_are_not():
    zh = Strings("zh")
    assert (zh.value("positive"), zh.value("inactive"), zh.value("MIT")) == (
        "正面",
        "已停止维护",
        "MIT",
    )
    assert Strings("en").value("positive") == "positive"


def test_an_unknown_language_falls_back_to_english():
    assert Strings("fr").heading("background") == "Background"
