"""Turn a fetched body (HTML, plain text, Markdown or PDF) into the page's main text.

The text returned is the canonical stored text of a source: later stages quote exact
substrings of it and record their offsets, so nothing may rewrite it after this point.
"""

from __future__ import annotations

import io
import logging
import re
import threading
from collections.abc import Callable
from copy import deepcopy
from dataclasses import dataclass
from datetime import date, datetime
from urllib.parse import urlsplit

import htmldate
import lxml.html
import trafilatura
from charset_normalizer import from_bytes
from lxml.etree import ParserError

log = logging.getLogger(__name__)

HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
PDF_TYPES = frozenset({"application/pdf"})
# Browsers decode these labels with GB18030, a superset: pages that declare GB2312 often
# contain characters that only GBK or GB18030 have.
_CHARSET_ALIASES = {"gb2312": "gb18030", "gbk": "gb18030", "x-gbk": "gb18030"}
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)""", re.IGNORECASE)
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_NOISE_TAGS = ("script", "style", "noscript", "template", "head")
# Where a cut may fall: after whitespace, or after a CJK sentence end (CJK has no spaces).
_BREAKS = re.compile(r"\s|(?<=[。！？；])")
_TRUNCATE_SLACK = 0.8  # never give up more than 20% of the allowance to find a boundary


@dataclass(frozen=True)
class ExtractedPage:
    title: str
    text: str  # Markdown for HTML pages; the canonical text quotes are taken from
    published: str | None  # ISO date (YYYY-MM-DD) when known
    site: str  # the site's name when the page gives one, else its hostname
    truncated: bool  # True when text was cut at max_chars
    chars: int  # len(text)


@dataclass(frozen=True)
class _Parts:
    title: str = ""
    text: str = ""
    published: str | None = None
    site: str = ""


def extract_page(body: bytes, content_type: str, url: str, max_chars: int) -> ExtractedPage:
    """Extract title, main text, date and site from a body. Never raises for bad input: an
    unreadable body gives an empty text, which callers treat as nothing to quote."""
    parts = _extractor(content_type, body)(body, content_type, url)
    text, truncated = truncate(normalise(parts.text), max_chars)
    return ExtractedPage(
        title=normalise(parts.title).replace("\n", " "),
        text=text,
        published=parts.published,
        site=parts.site or (urlsplit(url).hostname or ""),
        truncated=truncated,
        chars=len(text),
    )


def _extractor(content_type: str, body: bytes) -> Callable[[bytes, str, str], _Parts]:
    media_type = content_type.split(";", 1)[0].strip().lower()
    if media_type in HTML_TYPES:
        return _extract_html
    if media_type in PDF_TYPES:
        return _extract_pdf
    if media_type.startswith("text/"):
        return _extract_text
    # An unknown or missing type (local files, odd servers): let the body say what it is.
    head = body[:1024].lstrip().lower()
    if head.startswith(b"%pdf-"):
        return _extract_pdf
    if head.startswith((b"<!doctype html", b"<html")):
        return _extract_html
    return _extract_text


# A page with a table and a date in its metadata, and one whose date is in its text: between
# them they take the paths a page's first extraction pays for (trafilatura's and htmldate's
# lazy set-up), so that a worker pays it when it starts, not in a run.
_WARM_UP_PAGES = (
    b"<html><head><title>Warm-up</title>"
    b'<meta property="article:published_time" content="2026-01-02"></head><body><article>'
    b"<h1>Warm-up</h1><p>A paragraph of text long enough to count as a page's main text, "
    b"with a second sentence in it.</p><table><tr><th>a</th><th>b</th></tr>"
    b"<tr><td>1</td><td>2</td></tr></table></article></body></html>",
    b"<html><body><div><p>Published on 3 February 2026.</p><p>Text.</p></div></body></html>",
)
_warm = threading.Event()


def warm_up() -> None:
    """Pay the first extraction's one-off costs now; a process pays them once."""
    if _warm.is_set():
        return
    for body in _WARM_UP_PAGES:
        # A short domain: trafilatura then reads its list of top-level domains, once.
        extract_page(body, "text/html; charset=utf-8", "https://ab.org/warm-up", 1_000)
    _warm.set()


def is_warm() -> bool:
    return _warm.is_set()


# --- HTML ----------------------------------------------------------------------------


def _extract_html(body: bytes, content_type: str, url: str) -> _Parts:
    html = _XML_DECLARATION.sub("", decode_html(body, content_type), count=1)
    # Parsed once, the way trafilatura parses a string; the text, the metadata, the date
    # and the fallbacks all read this one tree (trafilatura and htmldate copy a tree before
    # they prune it).
    tree = trafilatura.load_html(html)
    if tree is None:  # not quite HTML to trafilatura: read what lxml makes of it
        return _fallback_parts(_parse_html(html), url)
    text = trafilatura.extract(
        tree, url=url, output_format="markdown", include_formatting=True, include_links=False
    )
    metadata = trafilatura.extract_metadata(tree, default_url=url)
    return _Parts(
        title=getattr(metadata, "title", None) or _html_title(tree),
        text=text or _plain_text(tree),
        published=_iso_date(getattr(metadata, "date", None)) or _find_date(tree, url),
        site=getattr(metadata, "sitename", None) or "",
    )


def _fallback_parts(tree: lxml.html.HtmlElement | None, url: str) -> _Parts:
    if tree is None:
        return _Parts()
    return _Parts(title=_html_title(tree), text=_plain_text(tree), published=_find_date(tree, url))


def decode_html(body: bytes, content_type: str) -> str:
    """Decode with the charset from the header, then from <meta>, then by detection."""
    declared = charset_of(content_type) or _meta_charset(body)
    if declared:
        try:
            return body.decode(declared, errors="replace")
        except LookupError:
            log.info("unknown charset %r, detecting instead", declared)
    return _detect_and_decode(body)


def _meta_charset(body: bytes) -> str | None:
    match = _META_CHARSET.search(body[:4096])
    return _normalise_charset(match.group(1).decode("ascii")) if match else None


def _detect_and_decode(body: bytes) -> str:
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        best = from_bytes(body).best()
        return str(best) if best is not None else body.decode("utf-8", errors="replace")


def _html_title(tree: lxml.html.HtmlElement) -> str:
    return (tree.findtext(".//title") or "").strip()


def _plain_text(tree: lxml.html.HtmlElement) -> str:
    """Every visible text of the page: the fallback when trafilatura finds no main text."""
    tree = deepcopy(tree)  # pruned below; the date is still to be read from the page
    for element in tree.iter(*_NOISE_TAGS):
        element.drop_tree()
    lines = (" ".join(line.split()) for line in tree.text_content().splitlines())
    return "\n".join(line for line in lines if line)


def _find_date(tree: lxml.html.HtmlElement, url: str) -> str | None:
    # A parsed tree, never a string: htmldate downloads strings that look like URLs.
    found = htmldate.find_date(tree, url=url, extensive_search=True, original_date=True)
    return _iso_date(found)


def _parse_html(html: str) -> lxml.html.HtmlElement | None:
    try:
        return lxml.html.document_fromstring(html)
    except (ParserError, ValueError):
        return None


# --- plain text, Markdown and PDF --------------------------------------------------------


def _extract_text(body: bytes, content_type: str, url: str) -> _Parts:
    charset = charset_of(content_type) or "utf-8"
    try:
        text = body.decode(charset, errors="replace")
    except LookupError:
        text = body.decode("utf-8", errors="replace")
    return _Parts(title=_text_title(text), text=text)


def _text_title(text: str) -> str:
    """A Markdown file's first heading, else a short first line."""
    heading = re.search(r"^#{1,6}\s+(.+?)\s*#*\s*$", text, re.MULTILINE)
    if heading:
        return heading.group(1)
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return first if len(first) <= 150 else ""


def _extract_pdf(body: bytes, content_type: str, url: str) -> _Parts:
    from pypdf import PdfReader  # a second's fraction to import, for PDFs only

    try:
        reader = PdfReader(io.BytesIO(body))
        if reader.is_encrypted:
            reader.decrypt("")  # many PDFs are "encrypted" with an empty user password
        text = "\n\n".join(page.extract_text() or "" for page in reader.pages)
        metadata = reader.metadata
    except Exception as exc:  # pypdf raises many types on damaged files; none is fatal here
        log.info("unreadable PDF at %s: %s", url, exc)
        return _Parts()
    title = str(metadata.title or "") if metadata else ""
    return _Parts(title=title, text=text, published=_pdf_date(metadata))


def _pdf_date(metadata: object) -> str | None:
    try:
        created = getattr(metadata, "creation_date", None)
    except Exception:  # a malformed date string in the PDF's info dictionary
        return None
    return _iso_date(created)


# --- shared helpers ------------------------------------------------------------------


def charset_of(content_type: str) -> str | None:
    """The charset parameter of a Content-Type header, normalised, if any."""
    match = re.search(r"charset\s*=\s*[\"']?([\w.:-]+)", content_type, re.IGNORECASE)
    return _normalise_charset(match.group(1)) if match else None


def _normalise_charset(name: str) -> str:
    name = name.strip().lower()
    return _CHARSET_ALIASES.get(name, name)


def _iso_date(value: object) -> str | None:
    if isinstance(value, datetime | date):
        return value.strftime("%Y-%m-%d")
    if isinstance(value, str) and _ISO_DATE.match(value):
        return value
    return None


def normalise(text: str) -> str:
    """Unify line ends, drop trailing spaces and collapse runs of blank lines to one."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
    text = "\n".join(line.rstrip() for line in text.split("\n"))
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def truncate(text: str, max_chars: int) -> tuple[str, bool]:
    """Cut `text` to at most max_chars, at a word or sentence boundary when one is near."""
    if len(text) <= max_chars:
        return text, False
    cut = text[:max_chars]
    ends = [match.start() for match in _BREAKS.finditer(cut)]
    if ends and ends[-1] >= max_chars * _TRUNCATE_SLACK:
        cut = cut[: ends[-1]]
    return cut.rstrip(), True
