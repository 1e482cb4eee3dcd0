"""When a page was published or last updated, and where that was read.

Three places say so, in the order they are believed:
- `front-matter`: a local Markdown or text file's front matter (`date:`, `updated:`, ...),
  YAML between `---` lines or TOML between `+++` lines;
- `html-meta`: an HTML page's metadata (article:published_time, JSON-LD datePublished,
  <time datetime>, and the other places htmldate knows), never dates guessed from the text
  of the page, which are as often a copyright year or a date the page only mentions;
- `http-header`: the Last-Modified header, for the updated date only, and only when it is
  not just the moment the server answered (dynamic pages stamp every answer with "now").

Nothing found is None, never a guess: timeliness then stays "unknown". Dates after today
are not believed either (a typo, or a post scheduled for later).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Literal

import htmldate
import lxml.html
from dateutil import parser as dateparser
from lxml.etree import ParserError

DateSource = Literal["front-matter", "html-meta", "http-header", "search-result", "record"]

PUBLISHED_KEYS = (
    "published",
    "date",
    "published_at",
    "publishdate",
    "publish_date",
    "date_published",
    "datepublished",
    "pubdate",
    "created",
    "created_at",
)
UPDATED_KEYS = (
    "updated",
    "modified",
    "last_modified",
    "lastmod",
    "updated_at",
    "date_modified",
    "datemodified",
    "last_updated",
)
EARLIEST = dt.date(1900, 1, 1)
EARLIEST_ON_THE_WEB = dt.date(1995, 1, 1)  # htmldate's own floor, and a Last-Modified one
# A Last-Modified this close to the answer's own Date is the server stamping "now".
DYNAMIC_STAMP = dt.timedelta(seconds=60)

_YAML = re.compile(r"\A\ufeff?---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", re.DOTALL)
_TOML = re.compile(r"\A\ufeff?\+\+\+[ \t]*\r?\n(.*?)\r?\n\+\+\+[ \t]*(?:\r?\n|\Z)", re.DOTALL)
_KEY_VALUE = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*[:=]\s*(.+?)\s*$")
_NUMERIC = re.compile(r"(\d{4})\s*(?:[-/.]|年)\s*(\d{1,2})\s*(?:[-/.]|月)\s*(\d{1,2})")
_YEAR = re.compile(r"(?<!\d)(1[89]\d\d|20\d\d)(?!\d)")
_HTML_TYPES = ("text/html", "application/xhtml+xml")


@dataclass(frozen=True)
class PageDate:
    published: str | None  # ISO dates (YYYY-MM-DD)
    updated: str | None  # only when it differs from published
    source: DateSource
    detail: str  # which field said so: "front matter 'date'", "Last-Modified header"

    @property
    def latest(self) -> str:
        """The most recent date the page carries: what timeliness counts from."""
        return max(day for day in (self.published, self.updated) if day)

    def describe(self) -> str:
        parts = [f"published {self.published}"] if self.published else []
        parts += [f"updated {self.updated}"] if self.updated else []
        return f"{', '.join(parts)} (from {self.detail})"


def find_page_date(
    body: bytes | str = b"",
    content_type: str = "",
    headers: Mapping[str, str] | None = None,
    today: dt.date | None = None,
) -> PageDate | None:
    """The page's date from the best place that has one, or None."""
    text = body.decode("utf-8", errors="replace") if isinstance(body, bytes) else body
    media_type = content_type.split(";", 1)[0].strip().lower()
    is_html = media_type in _HTML_TYPES or (
        not media_type and text.lstrip()[:15].lower().startswith(("<!doctype html", "<html"))
    )
    found = None
    if text and not is_html:
        found = date_from_front_matter(text, today=today)
    elif text:
        found = date_from_html(text, today=today)
    return found or date_from_headers(headers or {}, today=today)


# --- front matter ---------------------------------------------------------------------------


def date_from_front_matter(text: str, today: dt.date | None = None) -> PageDate | None:
    match = _YAML.match(text) or _TOML.match(text)
    if not match:
        return None
    fields = _fields(match.group(1))
    published = _first_date(fields, PUBLISHED_KEYS, today)
    updated = _first_date(fields, UPDATED_KEYS, today)
    if published is None and updated is None:
        return None
    keys = [found[0] for found in (published, updated) if found]
    detail = "front matter " + " and ".join(f"'{key}'" for key in keys)
    return _page_date(
        published[1] if published else None,
        updated[1] if updated else None,
        "front-matter",
        detail,
    )


def _fields(block: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    for line in block.splitlines():
        match = _KEY_VALUE.match(line)
        if match:
            key = match.group(1).lower().replace("-", "_")
            fields.setdefault(key, match.group(2).strip().strip("\"'"))
    return fields


def _first_date(
    fields: dict[str, str], keys: tuple[str, ...], today: dt.date | None
) -> tuple[str, str] | None:
    for key in keys:
        day = parse_date(fields.get(key, ""), today)
        if day:
            return key, day
    return None


def parse_date(value: str, today: dt.date | None = None) -> str | None:
    """A written date as ISO: 2024-03-05, 2024/3/5, 2024年3月5日, 2024-03-05T10:00:00+08:00
    (the day as written, not moved to UTC), 'March 5, 2024', '5 Mar 2024'. A date without a
    four-digit year, before 1900 or after today is None."""
    value = value.strip()
    if not value or not _YEAR.search(value):
        return None
    numeric = _NUMERIC.search(value)
    try:
        if numeric:
            day = dt.date(*(int(part) for part in numeric.groups()))
        else:
            day = dateparser.parse(value, default=dt.datetime(1, 1, 1)).date()
            # A year or a month alone is no day: parsed again with other defaults, it moves.
            if dateparser.parse(value, default=dt.datetime(2, 2, 2)).date() != day:
                return None
    except (ValueError, OverflowError, TypeError):
        return None
    return _believable(day, today, EARLIEST)


def _believable(day: dt.date, today: dt.date | None, earliest: dt.date) -> str | None:
    latest = (today or dt.datetime.now(dt.UTC).date()) + dt.timedelta(days=1)
    return day.isoformat() if earliest <= day <= latest else None


# --- HTML -------------------------------------------------------------------------------------


def date_from_html(html: str | bytes, today: dt.date | None = None) -> PageDate | None:
    """The dates in an HTML page's metadata, through htmldate without its text search."""
    try:
        tree = lxml.html.document_fromstring(html)
    except (ParserError, ValueError):
        return None
    latest = today or dt.datetime.now(dt.UTC).date()
    # A parsed tree, never a string: htmldate fetches strings that look like URLs.
    published = _htmldate(tree, latest, original=True)
    updated = _htmldate(tree, latest, original=False)
    if published is None and updated is None:
        return None
    return _page_date(published, updated, "html-meta", "HTML metadata")


def _htmldate(tree: lxml.html.HtmlElement, today: dt.date, original: bool) -> str | None:
    try:
        found = htmldate.find_date(
            tree,
            extensive_search=False,
            original_date=original,
            min_date=EARLIEST_ON_THE_WEB.isoformat(),
            max_date=today.isoformat(),
        )
    except (ValueError, TypeError, AttributeError):
        return None
    return parse_date(found, today) if found else None


# --- HTTP headers -----------------------------------------------------------------------------


def date_from_headers(headers: Mapping[str, str], today: dt.date | None = None) -> PageDate | None:
    """Last-Modified as the updated date, unless it is only the time of the answer."""
    lowered = {key.lower(): value for key, value in headers.items()}
    modified = _http_date(lowered.get("last-modified"))
    if modified is None:
        return None
    answered = _http_date(lowered.get("date"))
    if answered is not None and abs(answered - modified) <= DYNAMIC_STAMP:
        return None
    day = _believable(modified.date(), today, EARLIEST_ON_THE_WEB)
    if day is None:
        return None
    return PageDate(None, day, "http-header", "Last-Modified header")


def _http_date(value: str | None) -> dt.datetime | None:
    if not value:
        return None
    try:
        moment = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)


def _page_date(
    published: str | None, updated: str | None, source: DateSource, detail: str
) -> PageDate:
    if updated == published or (published and updated and updated < published):
        updated = None  # an "update" before publication says nothing new
    return PageDate(published, updated, source, detail)
