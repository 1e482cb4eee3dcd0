"""A page's published and updated dates, where they came from, or honestly none."""

from __future__ import annotations

import datetime as dt

import pytest

from research.providers.pagedates import (
    PageDate,
    date_from_front_matter,
    date_from_headers,
    date_from_html,
    find_page_date,
    parse_date,
)

TODAY = dt.date(2026, 11, 20)


def page(head: str = "", body: str = "<p>Some text about options.</p>") -> str:
    return f"<!DOCTYPE html><html><head><title>t</title>{head}</head><body>{body}</body></html>"


# --- HTML metadata ------------------------------------------------------------------------------


def test_open_graph_article_times_give_published_and_updated() -> None:
    html = page(
        '<meta property="article:published_time" content="2024-03-05T10:00:00Z">'
        '<meta property="article:modified_time" content="2025-01-10T08:00:00Z">'
    )

    found = date_from_html(html, today=TODAY)

    assert found == PageDate("2024-03-05", "2025-01-10", "html-meta", "HTML metadata")
    assert found.latest == "2025-01-10"
    assert found.describe() == "published 2024-03-05, updated 2025-01-10 (from HTML metadata)"


def test_json_ld_dates_are_read() -> None:
    html = page(
        '<script type="application/ld+json">'
        '{"@type": "NewsArticle", "datePublished": "2023-02-01", "dateModified": "2023-06-01"}'
        "</script>"
    )

    found = date_from_html(html, today=TODAY)

    assert (found.published, found.updated) == ("2023-02-01", "2023-06-01")


def test_a_time_element_is_the_published_date_with_no_separate_update() -> None:
    html = page(body='<article><time datetime="2022-08-09">9 August</time><p>x</p></article>')

    found = date_from_html(html, today=TODAY)

    assert (found.published, found.updated, found.source) == ("2022-08-09", None, "html-meta")


@pytest.mark.parametrize(
    "body",
    [
        "<p>Posted on March 3, 2021 by somebody, who wrote a lot.</p>",
        "<p>Text.</p><footer>© 2019 Example Corp</footer>",
        "<p>No dates here at all.</p>",
    ],
)
def test_dates_only_mentioned_in_the_text_are_not_taken_for_the_pages_date(body: str) -> None:
    assert date_from_html(page(body=body), today=TODAY) is None


def test_a_date_after_today_is_not_believed() -> None:
    html = page('<meta property="article:published_time" content="2031-01-01">')

    assert date_from_html(html, today=TODAY) is None


def test_unparseable_html_has_no_date() -> None:
    assert date_from_html("", today=TODAY) is None
    assert date_from_html(b"\x00\x01\x02", today=TODAY) is None


# --- front matter --------------------------------------------------------------------------------


def test_yaml_front_matter_gives_date_and_updated() -> None:
    text = "---\ntitle: Kafka vs NATS\ndate: 2024-05-01\nupdated: '2025-02-03'\n---\n\n# Body\n"

    found = date_from_front_matter(text, today=TODAY)

    assert found == PageDate(
        "2024-05-01", "2025-02-03", "front-matter", "front matter 'date' and 'updated'"
    )


def test_toml_front_matter_is_read_too() -> None:
    text = '+++\ntitle = "Release notes"\nlastmod = 2025-09-30T10:00:00+08:00\n+++\nText'

    found = date_from_front_matter(text, today=TODAY)

    assert (found.published, found.updated, found.detail) == (
        None,
        "2025-09-30",
        "front matter 'lastmod'",
    )


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2024-03-05", "2024-03-05"),
        ("2024/3/5", "2024-03-05"),
        ("2024年3月5日", "2024-03-05"),
        ("2024-03-05T23:30:00-08:00", "2024-03-05"),
        ("March 5, 2024", "2024-03-05"),
        ("5 Mar 2024", "2024-03-05"),
        ("2024", None),
        ("March 2024", None),
        ("yesterday", None),
        ("2024-13-45", None),
        ("1850-01-01", None),
        ("2030-01-01", None),
        ("", None),
    ],
)
def test_written_dates_are_read_only_when_they_name_a_day(value: str, expected) -> None:
    assert parse_date(value, TODAY) == expected


def test_a_file_without_front_matter_or_without_dates_in_it_has_none() -> None:
    assert date_from_front_matter("# Just a heading\n\ndate: 2024-01-01\n", today=TODAY) is None
    assert (
        date_from_front_matter("---\nurl: https://x.org\ntitle: X\n---\nbody", today=TODAY) is None
    )


def test_an_update_before_publication_is_ignored() -> None:
    text = "---\npublished: 2024-05-01\nmodified: 2023-01-01\n---\n"

    found = date_from_front_matter(text, today=TODAY)

    assert (found.published, found.updated) == ("2024-05-01", None)


# --- HTTP headers --------------------------------------------------------------------------------


def test_last_modified_is_the_updated_date() -> None:
    headers = {
        "Date": "Fri, 20 Nov 2026 12:00:00 GMT",
        "Last-Modified": "Tue, 14 Oct 2025 09:30:00 GMT",
    }

    found = date_from_headers(headers, today=TODAY)

    assert found == PageDate(None, "2025-10-14", "http-header", "Last-Modified header")


def test_last_modified_stamped_at_the_moment_of_the_answer_says_nothing() -> None:
    headers = {
        "date": "Fri, 20 Nov 2026 12:00:00 GMT",
        "last-modified": "Fri, 20 Nov 2026 11:59:58 GMT",
    }

    assert date_from_headers(headers, today=TODAY) is None


@pytest.mark.parametrize(
    "headers",
    [{}, {"Last-Modified": "not a date"}, {"Last-Modified": "Thu, 01 Jan 1970 00:00:00 GMT"}],
)
def test_no_usable_last_modified_is_no_date(headers: dict) -> None:
    assert date_from_headers(headers, today=TODAY) is None


# --- the best place that has one ----------------------------------------------------------------


def test_html_metadata_wins_over_the_headers() -> None:
    html = page('<meta name="date" content="2024-06-01">')
    headers = {"Last-Modified": "Tue, 14 Oct 2025 09:30:00 GMT"}

    found = find_page_date(html.encode(), "text/html; charset=utf-8", headers, today=TODAY)

    assert (found.source, found.published) == ("html-meta", "2024-06-01")


def test_a_page_without_metadata_falls_back_to_last_modified() -> None:
    headers = {"Last-Modified": "Tue, 14 Oct 2025 09:30:00 GMT"}

    found = find_page_date(page(), "text/html", headers, today=TODAY)

    assert (found.source, found.updated) == ("http-header", "2025-10-14")


def test_a_markdown_file_is_dated_by_its_front_matter() -> None:
    text = "---\nurl: https://example.org/post\ndate: 2023-11-02\n---\n# Post\n"

    found = find_page_date(text, "text/markdown", today=TODAY)

    assert (found.source, found.published) == ("front-matter", "2023-11-02")


def test_html_without_a_content_type_is_recognised() -> None:
    html = page('<meta property="article:published_time" content="2024-03-05">')

    assert find_page_date(html, today=TODAY).source == "html-meta"


def test_nothing_anywhere_is_none() -> None:
    assert find_page_date(page(), "text/html", {"Server": "nginx"}, today=TODAY) is None
    assert find_page_date("plain words", "text/plain", today=TODAY) is None
    assert find_page_date(today=TODAY) is None
