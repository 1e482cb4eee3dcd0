"""Records and the facts that quote them; dates and release cadence."""

from __future__ import annotations

import datetime as dt

from research.providers.primary.dates import iso_day, release_cadence, timestamp, to_date
from research.providers.primary.records import RecordWriter, clean
from tests.research.providers.primary.world import NOW_EPOCH


def writer() -> RecordWriter:
    return RecordWriter(
        provider="pypi",
        source_kind="registry",
        option="Flask",
        url="https://pypi.org/project/Flask/",
        title="Flask on PyPI",
        retrieved_at="2026-11-20T12:00:00Z",
        service="the PyPI JSON API",
    )


def test_a_fact_quotes_the_line_it_adds_word_for_word() -> None:
    record = writer()
    fact = record.fact("licence", "BSD-3-Clause", "Flask licence:\n  BSD-3-Clause\t")
    built = record.build(published="2010-04-06")

    assert fact.quote == "Flask licence: BSD-3-Clause"
    assert "\n- Flask licence: BSD-3-Clause\n" in built.text
    assert (fact.as_of, fact.record_url, fact.option) == (
        "2026-11-20",
        "https://pypi.org/project/Flask/",
        "Flask",
    )
    assert built.text.startswith(
        "# Flask on PyPI\n\nRecord: https://pypi.org/project/Flask/\n"
        "Retrieved: 2026-11-20T12:00:00Z from the PyPI JSON API\n"
    )


def test_text_from_a_service_cannot_break_a_record_into_new_lines() -> None:
    record = writer()
    fact = record.fact("licence", "MIT", "licence: MIT\n# Injected heading\x00\x1b[31m")
    built = record.build()

    assert "\n# Injected heading" not in built.text
    assert fact.quote == "licence: MIT # Injected heading [31m"
    assert clean("a\r\nb\u2028c") == "a b c"


def test_a_record_has_no_runs_of_blank_lines() -> None:
    record = writer()
    record.heading("Abstract")
    record.paragraph("")
    record.paragraph("Text.")

    assert "\n\n\n" not in record.build().text


def test_dates_keep_the_precision_they_were_given() -> None:
    assert iso_day("2024-03-05T10:00:00Z") == "2024-03-05"
    assert iso_day("2019-06") == "2019-06"
    assert iso_day("2019") == "2019"
    assert iso_day("2019-02-30") is None
    assert iso_day(None) is None
    assert to_date("2019-06") is None
    assert to_date("2019-06-01") == dt.date(2019, 6, 1)
    assert timestamp(NOW_EPOCH) == "2026-11-20T12:00:00Z"


def test_cadence_counts_the_year_and_the_median_of_recent_gaps() -> None:
    until = dt.date(2026, 11, 20)
    dates = [until - dt.timedelta(days=n) for n in (10, 40, 100, 400, 800)]

    cadence = release_cadence(dates, until)

    assert cadence.in_window == 3
    assert cadence.median_gap_days == 180.0  # gaps 400, 300, 60 and 30
    assert cadence.describe("x") == (
        "x had 3 releases in the 12 months to 2026-11-20; "
        "median gap between releases 180 days (last 4 gaps)"
    )


def test_cadence_of_one_release_has_no_gap_and_none_without_releases() -> None:
    until = dt.date(2026, 11, 20)

    single = release_cadence([dt.date(2020, 1, 1)], until)

    assert (
        single.describe("x") == "x had 0 releases in the 12 months to 2026-11-20 (1 release in all)"
    )
    assert single.value() == "0 in 12 months"
    assert release_cadence([], until) is None
    assert release_cadence([dt.date(2027, 1, 1)], until) is None, (
        "no release counts before it happened"
    )
