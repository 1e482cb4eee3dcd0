from __future__ import annotations

import pytest

from decisions.report import SECTIONS, ReportIncomplete, validate

PAGE = "---\nsource_id: s1\n---\n\nLoamdb is released under the MIT License."


def report(sections=SECTIONS, quote="Loamdb is released under the MIT License.") -> str:
    body = [f"## {name}\n\nSee [1] “{quote}”\n" for name in sections]
    return "# Decision report\n\n" + "\n".join(body)


def test_a_complete_report_with_real_quotes_passes():
    validate(report(), {"s1": PAGE}, {1: "s1"}, has_evidence=True)


@pytest.mark.parametrize("missing", SECTIONS)
def test_a_report_missing_any_section_is_an_error(missing):
    sections = [s for s in SECTIONS if s != missing]
    with pytest.raises(ReportIncomplete, match="missing or out of order"):
        validate(report(sections), {"s1": PAGE}, {1: "s1"}, has_evidence=True)


def test_sections_out_of_order_are_an_error():
    sections = list(SECTIONS)
    sections[0], sections[1] = sections[1], sections[0]
    with pytest.raises(ReportIncomplete):
        validate(report(sections), {"s1": PAGE}, {1: "s1"}, has_evidence=True)


def test_a_quote_that_is_not_in_its_cited_source_is_an_error():
    with pytest.raises(ReportIncomplete, match="quote not found"):
        validate(
            report(quote="Loamdb is released under the GPL."),
            {"s1": PAGE},
            {1: "s1"},
            has_evidence=True,
        )


def test_a_section_that_cites_nothing_is_an_error_when_there_is_evidence():
    text = report().replace("## Options\n\nSee [1]", "## Options\n\nSee")
    with pytest.raises(ReportIncomplete, match="cite no evidence"):
        validate(text, {"s1": PAGE}, {1: "s1"}, has_evidence=True)
