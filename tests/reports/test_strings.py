from __future__ import annotations

import string

import pytest

from reports.strings import HEADINGS, Strings
from research.i18n import en, words, zh

STRINGS = {"en": words("en").REPORT, "zh": words("zh").REPORT}


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_both_languages_have_the_same_strings_with_the_same_placeholders():
    assert STRINGS["zh"].keys() == STRINGS["en"].keys()
    for key, english in STRINGS["en"].items():
        assert fields(STRINGS["zh"][key]) == fields(english), key
    assert HEADINGS["zh"].keys() == HEADINGS["en"].keys()


def test_every_table_of_words_is_there_in_both_languages():
    tables = {name for name in vars(en) if name.isupper()}
    assert tables == {name for name in vars(zh) if name.isupper()}
    assert {"REPORT", "REPORT_HEADINGS", "WEB", "DECIDE", "SOURCE_KINDS"} <= tables


def test_a_language_without_words_falls_back_to_english():
    assert words("fr") is en


def test_no_chinese_string_is_left_in_english():
    ascii_only = [key for key, text in STRINGS["zh"].items() if text.isascii() and text.strip()]
    assert ascii_only == []


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
