"""Reading the files of a local corpus: safely first, then as text.

A corpus folder belongs to the user, and what is in it is not trusted: a file may be a
symlink that leads out of the folder (to /etc/passwd), far too large to read whole, or
not what its extension says. `read_local` refuses the first two without reading, and
`sniff` checks the bytes before any parser sees them.
"""

from __future__ import annotations

import datetime as dt
import io
import logging
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import lxml.html

from research.outcomes import Outcome
from research.providers.base import FetchResult
from research.providers.sniff import PDF, TEXT_TYPES, media_type_of, sniff

log = logging.getLogger(__name__)

DEFAULT_MAX_BYTES = 5_000_000
LOCAL_TYPES = {
    ".html": "text/html",
    ".htm": "text/html",
    ".md": "text/markdown",
    ".markdown": "text/markdown",
    ".txt": "text/plain",
    ".pdf": PDF,
}
ACCEPTED = frozenset({*TEXT_TYPES, PDF})

_FRONT_MATTER = re.compile(r"\A---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", re.DOTALL)
_DATE = re.compile(r"(\d{4})\s*(?:[-/.]|年)\s*(\d{1,2})\s*(?:[-/.]|月)\s*(\d{1,2})")
_URL_KEYS = ("url", "canonical", "canonical_url", "source", "link")
_DATE_KEYS = ("published", "date", "published_at", "pubdate", "created")
_HTML_DATE_META = frozenset(
    (
        "article:published_time og:published_time datepublished date dc.date publish-date pubdate"
    ).split()
)
_HTML_CHROME = "//script|//style|//noscript|//template|//nav|//footer|//aside"


class FileRefused(Exception):
    """A local file that is not read, and why (the message)."""

    def __init__(self, reason: str, outcome: Outcome = Outcome.BLOCKED) -> None:
        super().__init__(reason)
        self.outcome = outcome


@dataclass(frozen=True)
class Document:
    """What one file contributes to the index."""

    url: str
    title: str
    published: str | None
    body: str


# --- reading bytes safely ----------------------------------------------------------------


def refusal(path: Path, root: Path | None, max_bytes: int) -> str | None:
    """Why `path` must not be read (without reading it), else None."""
    if root is not None and not is_inside(path, root):
        return f"{path} leads out of the corpus folder {root}"
    try:
        status = path.stat()
    except OSError as exc:
        return f"{path} cannot be read ({exc.strerror or exc})"
    if not stat.S_ISREG(status.st_mode):
        return f"{path} is not a regular file"
    return too_large(path, status.st_size, max_bytes)


def too_large(path: Path, size: int, max_bytes: int) -> str | None:
    if size <= max_bytes:
        return None
    return f"{path} is {size:,} bytes, over the {max_bytes:,}-byte limit for local files"


def is_inside(path: Path, root: Path) -> bool:
    """True when `path`, every symlink on the way resolved, is inside `root`."""
    return Path(os.path.realpath(path)).is_relative_to(os.path.realpath(root))


def read_local(path: Path, root: Path | None, max_bytes: int) -> bytes:
    """The bytes of a corpus file (raises FileRefused or OSError).

    The path is resolved and must stay inside the root; the resolved file is opened
    without following a symlink (one swapped in after the check is not read either),
    must be a regular file (a FIFO would block for ever) and is never read past the cap.
    """
    resolved = os.path.realpath(path)
    if root is not None and not Path(resolved).is_relative_to(os.path.realpath(root)):
        raise FileRefused(f"{path} leads out of the corpus folder {root}")
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    with os.fdopen(os.open(resolved, flags), "rb") as handle:
        status = os.fstat(handle.fileno())
        if not stat.S_ISREG(status.st_mode):
            raise FileRefused(f"{path} is not a regular file")
        reason = too_large(path, status.st_size, max_bytes)
        if reason is not None:
            raise FileRefused(reason)
        data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:  # it grew after the check
        raise FileRefused(too_large(path, len(data), max_bytes) or "")
    return data


def load_local(path: Path, root: Path | None, declared: str, max_bytes: int) -> tuple[bytes, str]:
    """Read and sniff a corpus file: its bytes and the content type to read them as.

    Raises FileRefused (BLOCKED or NO_HIT, with the reason) or OSError.
    """
    data = read_local(path, root, max_bytes)
    sniffed = sniff(data, declared, ACCEPTED)
    if sniffed.outcome is not Outcome.OK:
        raise FileRefused(f"{path.name}: {sniffed.detail}", sniffed.outcome)
    return data, sniffed.content_type


# --- parsing -----------------------------------------------------------------------------


def read_document(
    path: Path, root: Path | None = None, max_bytes: int = DEFAULT_MAX_BYTES
) -> Document:
    """Read one file. A refused, unreadable or malformed file yields an empty body: it is
    skipped, with the reason logged, never fatal."""
    empty = Document(url=path.as_uri(), title=path.name, published=None, body="")
    declared = LOCAL_TYPES.get(path.suffix.lower(), "text/plain")
    try:
        data, content_type = load_local(path, root, declared, max_bytes)
    except (FileRefused, OSError) as exc:
        log.info("local corpus: skipped %s: %s", path, exc)
        return empty
    try:
        return _parse(path, data, content_type)
    except Exception as exc:  # pypdf and lxml raise many exception types on bad input
        log.info("local corpus: could not parse %s: %s", path, exc)
        return empty


def _parse(path: Path, data: bytes, content_type: str) -> Document:
    media_type = media_type_of(content_type)
    if media_type == PDF:
        return _read_pdf(path, data)
    if media_type in ("text/html", "application/xhtml+xml"):
        return _read_html(path, data)
    return _read_text(path, decode_text(data, content_type))


def _read_text(path: Path, text: str) -> Document:
    text = text.lstrip("\ufeff")
    meta: dict[str, str] = {}
    match = _FRONT_MATTER.match(text)
    if match:
        meta = _front_matter(match.group(1))
        text = text[match.end() :]
    return Document(
        url=_canonical(_first(meta, _URL_KEYS)) or path.as_uri(),
        title=meta.get("title") or _first_line(text) or path.stem,
        published=iso_date(_first(meta, _DATE_KEYS)),
        body=text.strip(),
    )


def _front_matter(block: str) -> dict[str, str]:
    """YAML-ish `key: value` lines; enough for url, title and published."""
    meta: dict[str, str] = {}
    for line in block.splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip():
            meta[key.strip().lower()] = value.strip().strip("\"'")
    return meta


def _first(meta: dict[str, str], keys: tuple[str, ...]) -> str | None:
    return next((meta[key] for key in keys if meta.get(key)), None)


def _first_line(text: str) -> str:
    for line in text.splitlines():
        stripped = line.strip().lstrip("#").strip()
        if stripped:
            return stripped[:120]
    return ""


def _read_html(path: Path, raw: bytes) -> Document:
    try:
        raw.decode("utf-8")
        parser = lxml.html.HTMLParser(encoding="utf-8")
    except UnicodeDecodeError:
        parser = lxml.html.HTMLParser()  # let the page's own charset declaration decide
    tree = lxml.html.document_fromstring(raw, parser=parser)
    canonical = tree.xpath(
        "//link[contains(concat(' ', normalize-space(@rel), ' '), ' canonical ')]/@href"
    )
    title = " ".join(" ".join(tree.xpath("//title//text()")).split())
    published = _html_published(tree)
    body = _html_text(tree)
    return Document(
        url=_canonical(canonical[0] if canonical else None) or path.as_uri(),
        title=title or _first_line(body) or path.stem,
        published=published,
        body=body,
    )


def _html_text(tree: lxml.html.HtmlElement) -> str:
    """The page's main text: <main> when it has one, without scripts or navigation chrome."""
    for element in tree.xpath(_HTML_CHROME):
        element.drop_tree()
    main = tree.xpath("//main") or tree.xpath("//body") or [tree]
    return " ".join(main[0].text_content().split())


def _html_published(tree: lxml.html.HtmlElement) -> str | None:
    for meta in tree.xpath("//meta[@content]"):
        key = (meta.get("property") or meta.get("name") or meta.get("itemprop") or "").lower()
        if key in _HTML_DATE_META and (date := iso_date(meta.get("content"))):
            return date
    times = tree.xpath("//time/@datetime")
    return iso_date(times[0]) if times else None


def _read_pdf(path: Path, data: bytes) -> Document:
    import pypdf  # only a folder with PDFs in it needs the reader

    reader = pypdf.PdfReader(io.BytesIO(data))
    if reader.is_encrypted:
        reader.decrypt("")  # many "encrypted" PDFs only restrict printing, with no password
    body = "\n".join(page.extract_text() or "" for page in reader.pages).strip()
    info = reader.metadata
    title = (info.title or "").strip() if info else ""
    created = info.creation_date if info else None
    return Document(
        url=path.as_uri(),
        title=title or _first_line(body) or path.stem,
        published=created.date().isoformat() if created else None,
        body=body,
    )


def _canonical(url: str | None) -> str | None:
    """Only an absolute http(s) URL can stand for the file on the web."""
    if not url:
        return None
    parts = urlsplit(url.strip())
    return url.strip() if parts.scheme in ("http", "https") and parts.netloc else None


def iso_date(text: str | None) -> str | None:
    """The first YYYY-MM-DD (or 2025/1/2, 2025年1月2日) in text, as an ISO date."""
    match = _DATE.search(text or "")
    if not match:
        return None
    try:
        return dt.date(*(int(part) for part in match.groups())).isoformat()
    except ValueError:
        return None


# --- deep-reading a corpus file ----------------------------------------------------------


def corpus_root(provider: str) -> Path | None:
    """The folder a `local:DIR` provider searched, which its files must stay inside."""
    kind, _, folder = provider.partition(":")
    return Path(folder) if kind.strip().lower() == "local" and folder.strip() else None


def read_corpus_file(
    url: str, path: Path, provider: str, declared: str, max_bytes: int | None = None
) -> FetchResult:
    """A corpus file as deep-read takes a fetched page: checked, sniffed, with an outcome.
    What it says names the file by `url`, never by its path or folder on the server."""
    root = corpus_root(provider)
    try:
        data, content_type = load_local(path, root, declared, max_bytes or _cap())
    except FileRefused as exc:
        detail = str(exc).replace(str(path), url)
        detail = detail.replace(str(root), "its folder") if root else detail
        return FetchResult(url=url, outcome=exc.outcome, detail=detail)
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        return FetchResult(url=url, outcome=Outcome.UNAVAILABLE, detail=f"unreadable: {why}")
    return FetchResult(
        url=url, outcome=Outcome.OK, final_url=url, content_type=content_type, body=data
    )


def decode_text(body: bytes, content_type: str) -> str:
    """A sniffed text body as text, in the charset its content type names."""
    charset = content_type.partition("charset=")[2].strip() or "utf-8"
    try:
        return body.decode(charset, errors="replace")
    except LookupError:
        return body.decode("utf-8", errors="replace")


def _cap() -> int:
    from django.conf import settings  # read at call time, so test overrides apply

    return int(getattr(settings, "LOCAL_MAX_BYTES", DEFAULT_MAX_BYTES))
