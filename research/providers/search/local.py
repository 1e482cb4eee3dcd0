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

import logging
import os
import sqlite3
from collections.abc import Callable
from contextlib import closing
from dataclasses import replace
from pathlib import Path
from urllib.parse import quote

from research.outcomes import Outcome
from research.providers.base import SearchHit, SearchResult
from research.providers.deadline import Deadline, DeadlinePassed, within
from research.providers.documents import (
    DEFAULT_MAX_BYTES,
    Document,
    read_document,
)
from research.providers.search.local_index import (
    SCHEMA_VERSION,
    Scan,
    apply,
    default_index_dir,
    index_location,
    indexed,
    indexing_lock,
    rebuild,
    report_refusals,
    schema_version,
    stale,
    utf8,
    walk,
    write_lock,
)
from research.providers.search.local_query import query_terms, search_index

log = logging.getLogger(__name__)


# What a search says goes into the run's log and to MCP clients, who may be elsewhere: it
# never names the folder on the server (the operator configured it, and knows it).
NOT_UTF8 = "its folder's name is not valid UTF-8, so it cannot be indexed; rename it"


def local_url(source: str, relative: str) -> str:
    """A local document's address: `local://<source name>/<path inside its folder>`."""
    return f"local://{quote(source, safe='')}/{quote(relative)}"


def _no_paths(exc: BaseException) -> str:
    """An OS or SQLite error without the file name an OSError carries."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc)


class LocalCorpus:
    """A SearchProvider over a folder of documents."""

    name = "local"

    def __init__(
        self,
        folder: str | os.PathLike[str],
        index_path: Path | None = None,
        *,
        name: str | None = None,
        index_dir: Path | None = None,
        max_bytes: int = DEFAULT_MAX_BYTES,
        deadline: float | None = None,
        reader: Callable[[Path, Path, int], Document] = read_document,
    ) -> None:
        self.folder = Path(folder).expanduser().resolve()
        self.source_name = name or self.folder.name or "local"
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
            return SearchResult(Outcome.UNAVAILABLE, detail="its folder is missing on the server")
        if not utf8(str(self.folder)):
            return SearchResult(Outcome.UNAVAILABLE, detail=NOT_UTF8)
        if self.deadline is None:
            return self.search_index(terms, limit)
        deadline = Deadline.after(self.deadline)
        try:
            # Parsing a new corpus (PDFs above all) cannot be interrupted: the search runs
            # in a thread that may finish the indexing after the caller has moved on.
            return within(deadline, lambda: self.search_index(terms, limit), f"local {self.folder}")
        except DeadlinePassed:
            detail = (
                f"its index did not answer within {deadline.describe()}"
                " (new or changed files are still being indexed)"
            )
            return SearchResult(Outcome.TIMEOUT, detail=detail)

    def search_index(self, terms: list[str], limit: int) -> SearchResult:
        try:
            with closing(self._connect()) as conn:
                self._refresh(conn)
                hits = search_index(conn, terms, limit)
        except (sqlite3.Error, OSError) as exc:
            return SearchResult(Outcome.UNAVAILABLE, detail=f"its index failed: {_no_paths(exc)}")
        if not hits:
            return SearchResult(Outcome.NO_HIT, detail="nothing in its documents matches")
        return SearchResult(Outcome.OK, [self._addressed(hit) for hit in hits])

    def _addressed(self, hit: SearchHit) -> SearchHit:
        """The hit as it leaves the server: the file named by the source's name and its
        place in the folder (the index keeps the real path, which only the server needs)."""
        relative = Path(hit.local_path or "").relative_to(self.folder).as_posix()
        url = hit.url if not hit.url.startswith("file:") else local_url(self.source_name, relative)
        return replace(hit, url=url, local_path=relative)

    def refresh(self) -> int:
        """Bring the index up to date now; returns how many files were (re)indexed."""
        with closing(self._connect()) as conn:
            return self._refresh(conn)

    def _connect(self) -> sqlite3.Connection:
        # Autocommit mode: _refresh opens its own write transaction explicitly.
        conn = sqlite3.connect(self.index_path, timeout=30, isolation_level=None)
        if schema_version(conn) != SCHEMA_VERSION:
            rebuild(conn)
        return conn

    def _refresh(self, conn: sqlite3.Connection) -> int:
        scan = self._changes(conn)
        if not scan.changed:
            report_refusals(self.index_path, scan.refused, build=False)
            return 0  # the usual case: no lock, so concurrent searches never queue
        # One thread of this process parses at a time; the others wait, then find the
        # files done. Parsing runs outside SQLite's write lock so other processes may read.
        with indexing_lock(self.index_path):
            scan = self._changes(conn)
            report_refusals(self.index_path, scan.refused, build=scan.changed)
            if not scan.changed:
                return 0
            parsed = {
                path: self._read(Path(path), self.folder, self.max_bytes) for path in scan.stale
            }
            with write_lock(conn):
                return apply(conn, scan.on_disk, parsed)

    def _changes(self, conn: sqlite3.Connection) -> Scan:
        """The files on disk, the stale ones among them, and the refused ones."""
        scan = walk(self.folder, self.max_bytes)
        known = indexed(conn)
        scan.stale = [path for path, stat in scan.on_disk.items() if stale(known, path, stat)]
        scan.changed = bool(scan.stale) or not known.keys() <= scan.on_disk.keys()
        return scan
