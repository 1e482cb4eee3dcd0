"""Search a folder of .md/.txt/.html/.pdf files, fully offline, with SQLite FTS5.

Two full-text tables share each document's rowid:
- `fts_tri` uses the trigram tokenizer: substring matching for terms of 3+ characters,
  which works for CJK text without a word segmenter ("许可证" finds "开源许可证").
- `fts_bi` uses unicode61 over text whose CJK runs are rewritten as overlapping
  bigrams. Trigram cannot match terms shorter than 3 characters (the 2-character
  Chinese words "许可", "成本", or "Go"); this table can.
A query is an OR of its terms, each sent to the table that can match it; the bm25 scores
of both are summed.

The index lives in the folder as .verdict-index.sqlite3 (or in the temp dir when the
folder is read-only) and each search first re-indexes files whose mtime or size changed.
"""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from research.outcomes import Outcome
from research.providers.base import SearchHit, SearchResult

INDEX_NAME = ".verdict-index.sqlite3"
EXTENSIONS = frozenset({".md", ".markdown", ".txt", ".html", ".htm", ".pdf"})
SCHEMA_VERSION = 1
SNIPPET_CHARS = 240
TITLE_WEIGHT = 5.0

_CJK_CHARS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK_RUN = re.compile(f"[{_CJK_CHARS}]+")
# A Latin term: letters/digits, with inner . + # - kept ("node.js", "c++", "c#").
_QUERY_TOKEN = re.compile(
    rf"[{_CJK_CHARS}]+|[^\W_{_CJK_CHARS}](?:[^\W{_CJK_CHARS}]|[.+#-](?=[^\W{_CJK_CHARS}]))*[+#]*"
)
_STOPWORDS = frozenset(
    """a about above after again all also am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for
    from further had has have having he her here hers him his how i if in into is it its
    itself just me more most my no nor not now of off on once only or other our ours out
    over own same she should so some such than that the their theirs them then there these
    they this those through to too under until up very was we were what when where which
    while who whom why will with would you your yours vs versus choose choosing pick
    option options decide deciding""".split()
)
# Function words that only glue a Chinese question together ("A和B哪个好").
_CJK_STOPWORDS = re.compile(
    "还是|哪个|哪一个|什么|怎么|如何|之间|我们|应该|或者|的|了|和|与|及|或|吗|呢|吧|是|在|选"
)

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS docs (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    mtime_ns INTEGER NOT NULL,
    size INTEGER NOT NULL,
    url TEXT NOT NULL,
    title TEXT NOT NULL,
    published TEXT,
    body TEXT NOT NULL
);
CREATE VIRTUAL TABLE IF NOT EXISTS fts_tri USING fts5(title, body, tokenize='trigram');
CREATE VIRTUAL TABLE IF NOT EXISTS fts_bi USING fts5(title, body, tokenize='unicode61');
PRAGMA user_version = {SCHEMA_VERSION};
"""


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

    @property
    def index_path(self) -> Path:
        if self._index_path is None:
            self._index_path = _index_location(self.folder)
        return self._index_path

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.index_path, timeout=30)
        if conn.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
            # An index from another version of this code: cheaper to rebuild than migrate.
            conn.executescript("DROP TABLE IF EXISTS docs; DROP TABLE IF EXISTS fts_tri;")
            conn.executescript("DROP TABLE IF EXISTS fts_bi;" + _SCHEMA)
        return conn

    def _refresh(self, conn: sqlite3.Connection) -> int:
        """Re-index changed files and forget deleted ones, in one write transaction."""
        on_disk = dict(_walk(self.folder, self.index_path))
        conn.execute("BEGIN IMMEDIATE")  # concurrent searches wait instead of double-indexing
        try:
            known = {row[1]: row for row in conn.execute("SELECT id, path, mtime_ns, size FROM docs")}
            changed = [p for p, stat in on_disk.items() if _stale(known.get(p), stat)]
            gone = [row[0] for path, row in known.items() if path not in on_disk or path in changed]
            for doc_id in gone:
                _delete(conn, doc_id)
            for path in changed:
                _insert(conn, Path(path), on_disk[path])
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        return len(changed)


# --- where the index lives, which files it holds ------------------------------------------


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
            if path.suffix.lower() not in EXTENSIONS or name.startswith(INDEX_NAME):
                continue
            try:
                stat = path.stat()
            except OSError:
                continue  # vanished or unreadable between listing and stat
            if path != index_path:
                yield str(path), (stat.st_mtime_ns, stat.st_size)


def _stale(row: tuple[int, str, int, int] | None, stat: tuple[int, int]) -> bool:
    return row is None or (row[2], row[3]) != stat


def _delete(conn: sqlite3.Connection, doc_id: int) -> None:
    for table in ("docs", "fts_tri", "fts_bi"):
        conn.execute(f"DELETE FROM {table} WHERE rowid = ?", (doc_id,))


def _insert(conn: sqlite3.Connection, path: Path, stat: tuple[int, int]) -> None:
    """Index one file. An unreadable file is remembered with an empty body, so it is not
    parsed again on every search, but retried as soon as it changes."""
    from research.providers.search.documents import read_document

    doc = read_document(path)
    values = (str(path), *stat, doc.url, doc.title, doc.published, doc.body)
    cursor = conn.execute(
        "INSERT INTO docs (path, mtime_ns, size, url, title, published, body)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        values,
    )
    if doc.body or doc.title:
        rowid = cursor.lastrowid
        conn.execute("INSERT INTO fts_tri (rowid, title, body) VALUES (?, ?, ?)", (rowid, doc.title, doc.body))
        conn.execute(
            "INSERT INTO fts_bi (rowid, title, body) VALUES (?, ?, ?)",
            (rowid, cjk_bigrams(doc.title), cjk_bigrams(doc.body)),
        )
