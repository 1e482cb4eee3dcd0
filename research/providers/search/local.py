"""Search a folder of .md/.txt/.html/.pdf files, fully offline, with SQLite FTS5.

Two full-text tables share each document's rowid:
- `fts_tri` uses the trigram tokenizer: substring matching for terms of 3+ characters,
  which works for CJK text without a word segmenter ("许可证" finds "开源许可证").
- `fts_bi` uses unicode61 over text whose CJK runs are rewritten as overlapping bigrams.
  Trigram cannot match terms shorter than 3 characters (2-character Chinese words such
  as "许可" or "成本", or "Go"); this table can.
A query becomes an OR of its meaningful terms, each sent to the table that can match it,
and the bm25 scores from both tables are summed.

The index is kept under the app's own data folder (settings.LOCAL_INDEX_DIR), one file
per corpus folder, and never written into the user's folder. Each search first re-indexes
the files whose mtime or size changed, so repeated searches are fast and the index never
goes stale. Files that are too large, symlinks that lead out of the folder, and files or
folders whose names are not valid UTF-8 (which the index cannot store) are skipped, each
with its reason logged once per index build; each search ends within its deadline.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import sqlite3
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from research.outcomes import Outcome
from research.providers.base import SearchHit, SearchResult
from research.providers.deadline import Deadline, DeadlinePassed, within
from research.providers.documents import (
    DEFAULT_MAX_BYTES,
    LOCAL_TYPES,
    Document,
    iso_date,
    read_document,
    refusal,
)

__all__ = ["Document", "LocalCorpus", "iso_date", "query_terms", "read_document"]

log = logging.getLogger(__name__)

EXTENSIONS = frozenset(LOCAL_TYPES)
SCHEMA_VERSION = 2  # bump when the schema or the text extraction changes: forces a rebuild
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


class LocalCorpus:
    """A SearchProvider over a folder of documents."""

    name = "local"

    def __init__(
        self,
        folder: str | os.PathLike[str],
        index_path: Path | None = None,
        *,
        index_dir: Path | None = None,
        max_bytes: int = DEFAULT_MAX_BYTES,
        deadline: float | None = None,
        reader: Callable[[Path, Path, int], Document] = read_document,
    ) -> None:
        self.folder = Path(folder).expanduser().resolve()
        self._index_path = index_path
        self._index_dir = index_dir
        self.max_bytes = max_bytes
        self.deadline = deadline  # seconds per search; None waits for the index to be built
        self._read = reader

    @property
    def index_path(self) -> Path:
        if self._index_path is None:
            self._index_path = index_location(self.folder, self._index_dir or default_index_dir())
        return self._index_path

    def search(self, query: str, limit: int) -> SearchResult:
        terms = query_terms(query)
        if not terms:
            return SearchResult(Outcome.NO_HIT, detail=f"no searchable words in {query!r}")
        if not self.folder.is_dir():
            return SearchResult(Outcome.UNAVAILABLE, detail=f"folder {self.folder} is missing")
        if not _utf8(str(self.folder)):
            return SearchResult(Outcome.UNAVAILABLE, detail=_not_utf8(self.folder, "folder"))
        if self.deadline is None:
            return self._search(terms, limit)
        deadline = Deadline.after(self.deadline)
        try:
            # Parsing a new corpus (PDFs above all) cannot be interrupted: the search runs
            # in a thread that may finish the indexing after the caller has moved on.
            return within(deadline, lambda: self._search(terms, limit), f"local {self.folder}")
        except DeadlinePassed:
            detail = (
                f"the index of {self.folder} did not answer within {deadline.describe()}"
                " (new or changed files are still being indexed)"
            )
            return SearchResult(Outcome.TIMEOUT, detail=detail)

    def _search(self, terms: list[str], limit: int) -> SearchResult:
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
        scan = self._changes(conn)
        if not scan.changed:
            _report_refusals(self.index_path, scan.refused, build=False)
            return 0  # the usual case: no lock, so concurrent searches never queue
        # One thread of this process parses at a time; the others wait, then find the
        # files done. Parsing runs outside SQLite's write lock so other processes may read.
        with _indexing_lock(self.index_path):
            scan = self._changes(conn)
            _report_refusals(self.index_path, scan.refused, build=scan.changed)
            if not scan.changed:
                return 0
            parsed = {
                path: self._read(Path(path), self.folder, self.max_bytes) for path in scan.stale
            }
            with _write_lock(conn):
                return _apply(conn, scan.on_disk, parsed)

    def _changes(self, conn: sqlite3.Connection) -> _Scan:
        """The files on disk, the stale ones among them, and the refused ones."""
        scan = _walk(self.folder, self.max_bytes)
        known = _known(conn)
        scan.stale = [path for path, stat in scan.on_disk.items() if _stale(known, path, stat)]
        scan.changed = bool(scan.stale) or not known.keys() <= scan.on_disk.keys()
        return scan


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


_locks: dict[Path, threading.Lock] = {}
_locks_guard = threading.Lock()


def _indexing_lock(index_path: Path) -> threading.Lock:
    with _locks_guard:
        return _locks.setdefault(index_path, threading.Lock())


def default_index_dir() -> Path:
    try:
        from django.conf import settings

        return Path(settings.LOCAL_INDEX_DIR)
    except ImproperlyConfigured:  # used as a library, outside Django
        return Path(tempfile.gettempdir()) / "verdict-index"


def index_location(folder: Path, index_dir: Path) -> Path:
    """The index file of `folder`: named after it in the app's index folder, never inside
    the corpus. A note beside it names the folder, so indexes of folders that are gone can
    be removed. The folder's name is taken as bytes: it need not be valid UTF-8."""
    digest = hashlib.sha256(os.fsencode(folder)).hexdigest()[:16]
    index_dir.mkdir(parents=True, exist_ok=True)
    note = index_dir / f"{digest}.folder"
    if not note.exists():
        _forget_missing_folders(index_dir)
        note.write_bytes(os.fsencode(folder))
    return index_dir / f"{digest}.sqlite3"


def _forget_missing_folders(index_dir: Path) -> None:
    """Delete the indexes of folders that no longer exist (temporary folders, mostly)."""
    for note in index_dir.glob("*.folder"):
        try:
            if Path(os.fsdecode(note.read_bytes())).is_dir():
                continue
            for stale in index_dir.glob(f"{note.stem}.sqlite3*"):
                stale.unlink(missing_ok=True)
            note.unlink(missing_ok=True)
        except OSError:
            continue  # another process is removing it too


@dataclass
class _Scan:
    """One walk of the corpus folder."""

    on_disk: dict[str, tuple[int, int]] = field(default_factory=dict)  # path -> (mtime, size)
    refused: list[str] = field(default_factory=list)  # why each skipped file was skipped
    stale: list[str] = field(default_factory=list)  # paths to parse again
    changed: bool = False  # files to parse again or to forget: the index needs a build


# The refusals last logged for each index, so that a search that builds nothing does not
# log them again: every search walks the folder.
_reported: dict[Path, frozenset[str]] = {}
_reported_guard = threading.Lock()


def _report_refusals(index_path: Path, refused: list[str], build: bool) -> None:
    """Log why each file is skipped: all of them when the index is built, else only those
    this process has not logged for this index yet."""
    with _reported_guard:
        before = frozenset() if build else _reported.get(index_path, frozenset())
        _reported[index_path] = frozenset(refused)
    for reason in refused:
        if reason not in before:
            log.warning("local corpus: skipped %s", reason)


def _walk(folder: Path, max_bytes: int) -> _Scan:
    """Every document file in `folder` that may be read, with its (mtime, size), and the
    reason for each one that may not.

    os.walk does not descend into symlinked folders; a symlinked file is kept only when
    it resolves to a file inside the folder.
    """
    scan = _Scan()
    for root, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".")]  # .git, .venv, caches
        for name in [d for d in dirs if not _utf8(d)]:
            dirs.remove(name)
            scan.refused.append(_not_utf8(Path(root) / name, "folder"))
        for name in files:
            path = Path(root) / name
            if path.suffix.lower() not in EXTENSIONS:
                continue
            reason = _not_utf8(path, "file") if not _utf8(name) else None
            reason = reason or refusal(path, folder, max_bytes)
            if reason is not None:
                scan.refused.append(reason)
                continue
            try:
                stat = path.stat()
            except OSError:
                continue  # vanished between the check and now
            scan.on_disk[str(path)] = (stat.st_mtime_ns, stat.st_size)
    return scan


def _utf8(name: str) -> bool:
    """Whether a name from the file system is valid UTF-8 (Python keeps the bytes that are
    not as lone surrogates, which SQLite cannot store)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _not_utf8(path: Path, kind: str) -> str:
    shown = os.fsencode(path).decode("utf-8", errors="backslashreplace")
    return f"{shown}: the {kind} name is not valid UTF-8, so it cannot be indexed; rename it"


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
