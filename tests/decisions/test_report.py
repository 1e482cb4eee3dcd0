from __future__ import annotations

import pytest

from decisions.i18n import HEADINGS
from decisions.report import SECTIONS, ReportIncomplete, validate

PAGE = "---\nsource_id: s1\n---\n\nLoamdb is released under the MIT License."
LANGUAGES = ("en", "zh")


def report(sections=SECTIONS, quote="Loamdb is released under the MIT License.", language="en"):
    body = [f"## {HEADINGS[language][s]}\n\nSee [1] “{quote}”\n" for s in sections]
    return "# Decision report\n\n" + "\n".join(body)


def check(text: str, language: str = "en") -> None:
    validate(text, {"s1": PAGE}, {1: "s1"}, has_evidence=True, language=language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_complete_report_with_real_quotes_passes(language):
    check(report(language=language), language)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("missing", SECTIONS)
def test_a_report_missing_any_section_is_an_error_in_either_language(missing, language):
    sections = [s for s in SECTIONS if s != missing]
    with pytest.raises(ReportIncomplete, match="missing or out of order") as error:
        check(report(sections, language=language), language)
    assert HEADINGS[language][missing] in str(error.value)


@pytest.mark.parametrize("language", LANGUAGES)
def test_sections_out_of_order_are_an_error(language):
    sections = list(SECTIONS)
    sections[1], sections[2] = sections[2], sections[1]
    with pytest.raises(ReportIncomplete):
        check(report(sections, language=language), language)


def test_a_chinese_report_under_english_headings_is_missing_its_sections():
    with pytest.raises(ReportIncomplete, match="背景"):
        check(report(language="en"), "zh")


def test_a_quote_that_is_not_in_its_cited_source_is_an_error():
    with pytest.raises(ReportIncomplete, match="quote not found"):
        check(report(quote="Loamdb is released under the GPL."))


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_section_that_cites_nothing_is_an_error_when_there_is_evidence(language):
    heading = HEADINGS[language]["options"]
    text = report(language=language).replace(f"## {heading}\n\nSee [1]", f"## {heading}\n\nSee")
    with pytest.raises(ReportIncomplete, match="cite no evidence"):
        check(text, language)
