"""Search a folder of .md/.txt/.html/.pdf files, fully offline, with SQLite FTS5.

Two full-text tables share each document's rowid:
- `fts_tri` uses the trigram tokenizer: substring matching for terms of 3+ characters,
  which works for CJK text without a word segmenter ("许可证" finds "开源许可证").
- `fts_bi` uses unicode61 over text whose CJK runs are rewritten as overlapping bigrams.
  Trigram cannot match terms shorter than 3 characters (2-character Chinese words such
  as "许可" or "成本", or "Go"); this table can.
A query becomes an OR of its meaningful terms, each sent to the table that can match it,
and the bm25 scores from both tables are summed.

The index lives in the folder as .verdict-index.sqlite3 (or in the temp dir when the
folder is read-only). Each search first re-indexes the files whose mtime or size changed,
so repeated searches are fast and the index never goes stale.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import re
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import lxml.html
import pypdf

from research.outcomes import Outcome
from research.providers.base import SearchHit, SearchResult

INDEX_NAME = ".verdict-index.sqlite3"
EXTENSIONS = frozenset({".md", ".markdown", ".txt", ".html", ".htm", ".pdf"})
SCHEMA_VERSION = 1  # bump when the schema or the text extraction changes: forces a rebuild
SNIPPET_CHARS = 240
TITLE_WEIGHT = 5.0  # a term in the title says more about the document than one in the body

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK_RUN = re.compile(f"[{_CJK}]+")
# A CJK run, or a Latin word keeping inner . + # - ("node.js", "c++", "c#").
_TOKEN = re.compile(rf"[{_CJK}]+|[^\W_{_CJK}](?:[^\W{_CJK}]|[.+#-](?=[^\W{_CJK}]))*[+#]*")


def _wordset(text: str) -> frozenset[str]:
    return frozenset(text.split())


_STOPWORDS = _wordset(
    """a about after again all also am an and any are as at be because been before being
    between both but by can could did do does doing down during each few for from further
    had has have having he her here him his how i if in into is it its itself just me more
    most my no nor not now of off on once only or other our out over own same she should so
    some such than that the their them then there these they this those through to too
    under until up very was we were what when where which while who whom why will with
    would you your vs versus choose choosing pick option options decide deciding"""
)
# Function words that only glue a Chinese question together ("A和B哪个好").
_CJK_STOPWORDS = re.compile(
    "还是|哪个|哪一个|什么|怎么|如何|之间|我们|应该|或者|的|和|与|吗|呢|吧|了"
)
_FRONT_MATTER = re.compile(r"\A---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", re.DOTALL)
_DATE = re.compile(r"(\d{4})\s*(?:[-/.]|年)\s*(\d{1,2})\s*(?:[-/.]|月)\s*(\d{1,2})")
_URL_KEYS = ("url", "canonical", "canonical_url", "source", "link")
_DATE_KEYS = ("published", "date", "published_at", "pubdate", "created")
_HTML_DATE_META = _wordset(
    "article:published_time og:published_time datepublished date dc.date publish-date pubdate"
)

_HTML_CHROME = "//script|//style|//noscript|//template|//nav|//footer|//aside"

# Separate statements rather than one script: executescript() commits first, and the
# rebuild has to run inside one write transaction.
_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS docs (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    mtime_ns INTEGER NOT NULL,
    size INTEGER NOT NULL,
    url TEXT NOT NULL,
    title TEXT NOT NULL,
    published TEXT,
    body TEXT NOT NULL
)""",
    "CREATE VIRTUAL TABLE IF NOT EXISTS fts_tri USING fts5(title, body, tokenize='trigram')",
    "CREATE VIRTUAL TABLE IF NOT EXISTS fts_bi USING fts5(title, body, tokenize='unicode61')",
    f"PRAGMA user_version = {SCHEMA_VERSION}",
)
_DROP = tuple(f"DROP TABLE IF EXISTS {table}" for table in ("docs", "fts_tri", "fts_bi"))


@dataclass(frozen=True)
class Document:
    """What one file contributes to the index."""

    url: str
    title: str
    published: str | None
    body: str


class LocalCorpus:
    """A SearchProvider over a folder of documents."""

    name = "local"

    def __init__(self, folder: str | os.PathLike[str], index_path: Path | None = None) -> None:
        self.folder = Path(folder).expanduser().resolve()
        self._index_path = index_path

    @property
    def index_path(self) -> Path:
        if self._index_path is None:
            self._index_path = _index_location(self.folder)
        return self._index_path

    def search(self, query: str, limit: int) -> SearchResult:
        terms = query_terms(query)
        if not terms:
            return SearchResult(Outcome.NO_HIT, detail=f"no searchable words in {query!r}")
        if not self.folder.is_dir():
            return SearchResult(Outcome.UNAVAILABLE, detail=f"folder {self.folder} is missing")
        try:
            with closing(self._connect()) as conn:
                self._refresh(conn)
                hits = _search(conn, terms, limit)
        except (sqlite3.Error, OSError) as exc:
            return SearchResult(Outcome.UNAVAILABLE, detail=f"local index failed: {exc}")
        if not hits:
            return SearchResult(Outcome.NO_HIT, detail=f"nothing in {self.folder} matches")
        return SearchResult(Outcome.OK, hits)

    def refresh(self) -> int:
        """Bring the index up to date now; returns how many files were (re)indexed."""
        with closing(self._connect()) as conn:
            return self._refresh(conn)

    def _connect(self) -> sqlite3.Connection:
        # Autocommit mode: _refresh opens its own write transaction explicitly.
        conn = sqlite3.connect(self.index_path, timeout=30, isolation_level=None)
        if _version(conn) != SCHEMA_VERSION:
            _rebuild(conn)
        return conn

    def _refresh(self, conn: sqlite3.Connection) -> int:
        on_disk = dict(_walk(self.folder, self.index_path))
        known = _known(conn)
        stale = [path for path, stat in on_disk.items() if _stale(known, path, stat)]
        if not stale and known.keys() <= on_disk.keys():
            return 0  # the usual case: no write lock, so concurrent searches never queue
        # Parse outside the write lock: PDFs are slow, and other searches may read meanwhile.
        parsed = {path: read_document(Path(path)) for path in stale}
        with _write_lock(conn):
            return _apply(conn, on_disk, parsed)


# --- keeping the index fresh -------------------------------------------------------------


def _version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def _rebuild(conn: sqlite3.Connection) -> None:
    """Create the index, or replace one written by another version of this code
    (rebuilding beats migrating).

    Searches run in parallel threads and processes, and on a new index they all find it
    missing at once. The version is checked again under the write lock so only the first
    builds it: a second rebuild would drop the tables the first one has just filled.
    """
    with _write_lock(conn):
        if _version(conn) != SCHEMA_VERSION:
            for statement in (*_DROP, *_SCHEMA):
                conn.execute(statement)


@contextmanager
def _write_lock(conn: sqlite3.Connection) -> Iterator[None]:
    """One write transaction, taking the lock at the start: other writers wait, readers
    go on reading the last committed index."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _index_location(folder: Path) -> Path:
    """Inside the folder when we may write there, else a per-folder file in the temp dir."""
    inside = folder / INDEX_NAME
    if os.access(folder, os.W_OK) and (not inside.exists() or os.access(inside, os.W_OK)):
        return inside
    digest = hashlib.sha256(str(folder).encode("utf-8")).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"verdict-index-{digest}.sqlite3"


def _walk(folder: Path, index_path: Path) -> Iterator[tuple[str, tuple[int, int]]]:
    for root, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".")]  # .git, .venv, caches
        for name in files:
            path = Path(root) / name
            if path.suffix.lower() not in EXTENSIONS or path == index_path:
                continue
            try:
                stat = path.stat()
            except OSError:
                continue  # vanished or unreadable between listing and stat
            yield str(path), (stat.st_mtime_ns, stat.st_size)


def _known(conn: sqlite3.Connection) -> dict[str, tuple[int, int, int]]:
    rows = conn.execute("SELECT path, id, mtime_ns, size FROM docs")
    return {path: (doc_id, mtime, size) for path, doc_id, mtime, size in rows}


def _stale(known: dict[str, tuple[int, int, int]], path: str, stat: tuple[int, int]) -> bool:
    row = known.get(path)
    return row is None or (row[1], row[2]) != stat


def _apply(
    conn: sqlite3.Connection, on_disk: dict[str, tuple[int, int]], parsed: dict[str, Document]
) -> int:
    """Write the parsed files and forget deleted ones. Re-checks staleness inside the lock,
    since another process may have indexed the same files meanwhile."""
    known = _known(conn)
    todo = [path for path in parsed if _stale(known, path, on_disk[path])]
    for path, (doc_id, _, _) in known.items():
        if path not in on_disk or path in todo:
            for table in ("docs", "fts_tri", "fts_bi"):
                conn.execute(f"DELETE FROM {table} WHERE rowid = ?", (doc_id,))
    for path in todo:
        _insert(conn, path, on_disk[path], parsed[path])
    return len(todo)


def _insert(conn: sqlite3.Connection, path: str, stat: tuple[int, int], doc: Document) -> None:
    # An unreadable file is still recorded (empty body), so it is not parsed again on
    # every search, yet it is retried as soon as its mtime or size changes.
    cursor = conn.execute(
        "INSERT INTO docs (path, mtime_ns, size, url, title, published, body)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (path, *stat, doc.url, doc.title, doc.published, doc.body),
    )
    if not doc.body:
        return
    rowid = cursor.lastrowid
    conn.execute(
        "INSERT INTO fts_tri (rowid, title, body) VALUES (?, ?, ?)", (rowid, doc.title, doc.body)
    )
    conn.execute(
        "INSERT INTO fts_bi (rowid, title, body) VALUES (?, ?, ?)",
        (rowid, cjk_bigrams(doc.title), cjk_bigrams(doc.body)),
    )


# --- querying ----------------------------------------------------------------------------


def query_terms(query: str) -> list[str]:
    """The meaningful terms of a natural-language query, lower-cased and deduplicated."""
    terms: list[str] = []
    for token in _TOKEN.findall(query.lower()):
        if _CJK_RUN.fullmatch(token):
            terms.extend(_cjk_terms(token))
        elif len(token) >= 2 and token not in _STOPWORDS:
            terms.append(token)
    return list(dict.fromkeys(terms))


def _cjk_terms(run: str) -> list[str]:
    """Short pieces stay whole words; long runs (no segmenter here) become bigrams."""
    terms: list[str] = []
    for piece in _CJK_STOPWORDS.split(run):
        if 2 <= len(piece) <= 4:
            terms.append(piece)
        elif len(piece) > 4:
            terms.extend(piece[i : i + 2] for i in range(len(piece) - 1))
    return terms


def cjk_bigrams(text: str) -> str:
    """Rewrite each CJK run as space-separated overlapping bigrams for the unicode61 table."""

    def split(match: re.Match[str]) -> str:
        run = match.group(0)
        grams = [run[i : i + 2] for i in range(len(run) - 1)] or [run]
        return " " + " ".join(grams) + " "

    return _CJK_RUN.sub(split, text)


def _search(conn: sqlite3.Connection, terms: list[str], limit: int) -> list[SearchHit]:
    scores: dict[int, float] = {}
    for table, group in (
        ("fts_tri", [t for t in terms if len(t) >= 3]),
        ("fts_bi", [t for t in terms if len(t) < 3]),
    ):
        if group:
            for rowid, score in _ranked(conn, table, group, limit * 4):
                scores[rowid] = scores.get(rowid, 0.0) + score
    best = sorted(scores, key=lambda rowid: scores[rowid])  # bm25: lower is better
    hits: list[SearchHit] = []
    seen_urls: set[str] = set()
    for rowid in best:
        hit = _hit(conn, rowid, terms)
        if hit.url not in seen_urls:  # two copies of one page are one source
            seen_urls.add(hit.url)
            hits.append(hit)
        if len(hits) >= limit:
            break
    return hits


def _ranked(
    conn: sqlite3.Connection, table: str, terms: list[str], limit: int
) -> list[tuple[int, float]]:
    expression = " OR ".join('"' + term.replace('"', '""') + '"' for term in terms)
    sql = (
        f"SELECT rowid, bm25({table}, {TITLE_WEIGHT}, 1.0) FROM {table}"
        f" WHERE {table} MATCH ? ORDER BY 2 LIMIT ?"
    )
    return conn.execute(sql, (expression, limit)).fetchall()


def _hit(conn: sqlite3.Connection, rowid: int, terms: list[str]) -> SearchHit:
    path, url, title, published, body = conn.execute(
        "SELECT path, url, title, published, body FROM docs WHERE id = ?", (rowid,)
    ).fetchone()
    return SearchHit(
        url=url, title=title, snippet=snippet(body, terms), published=published, local_path=path
    )


def snippet(body: str, terms: list[str]) -> str:
    """A window of the body around the first matched term, whitespace collapsed."""
    lowered = body.lower()
    found = [i for i in (lowered.find(t) for t in terms) if i >= 0]
    start = max(0, min(found) - SNIPPET_CHARS // 3) if found else 0
    end = start + SNIPPET_CHARS
    text = " ".join(body[start:end].split())
    return ("…" if start > 0 else "") + text + ("…" if end < len(body) else "")


# --- reading documents -------------------------------------------------------------------


def read_document(path: Path) -> Document:
    """Read one file. An unreadable or malformed file yields an empty body: skipped, not fatal."""
    suffix = path.suffix.lower()
    reader = {".pdf": _read_pdf, ".html": _read_html, ".htm": _read_html}.get(suffix, _read_text)
    try:
        return reader(path)
    except Exception:  # pypdf and lxml raise many exception types on bad input
        return Document(url=path.as_uri(), title=path.name, published=None, body="")


def _read_text(path: Path) -> Document:
    text = path.read_text(encoding="utf-8", errors="replace").lstrip("\ufeff")
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


def _read_html(path: Path) -> Document:
    raw = path.read_bytes()
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


def _read_pdf(path: Path) -> Document:
    reader = pypdf.PdfReader(path)
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
