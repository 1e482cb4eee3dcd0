"""Keeping a folder's search index fresh: the schema, the files that changed since the last
search (by mtime and size), the ones refused and why, and one writer at a time."""

from __future__ import annotations

import hashlib
import logging
import os
import sqlite3
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from research.providers.documents import (
    LOCAL_TYPES,
    Document,
    refusal,
)
from research.providers.search.local_query import cjk_bigrams

log = logging.getLogger(__name__)


SCHEMA_VERSION = 2  # bump when the schema or the text extraction changes: forces a rebuild


EXTENSIONS = frozenset(LOCAL_TYPES)


# Separate statements rather than one script: executescript() commits first, and the
# rebuild has to run inside one write transaction.
SCHEMA = (
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


DROP = tuple(f"DROP TABLE IF EXISTS {table}" for table in ("docs", "fts_tri", "fts_bi"))


def schema_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def rebuild(conn: sqlite3.Connection) -> None:
    """Create the index, or replace one written by another version of this code
    (rebuilding beats migrating).

    Searches run in parallel threads and processes, and on a new index they all find it
    missing at once. The version is checked again under the write lock so only the first
    builds it: a second rebuild would drop the tables the first one has just filled.
    """
    with write_lock(conn):
        if schema_version(conn) != SCHEMA_VERSION:
            for statement in (*DROP, *SCHEMA):
                conn.execute(statement)


@contextmanager
def write_lock(conn: sqlite3.Connection) -> Iterator[None]:
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


def indexing_lock(index_path: Path) -> threading.Lock:
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
        forget_missing_folders(index_dir)
        note.write_bytes(os.fsencode(folder))
    return index_dir / f"{digest}.sqlite3"


def forget_missing_folders(index_dir: Path) -> None:
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
class Scan:
    """One walk of the corpus folder."""

    on_disk: dict[str, tuple[int, int]] = field(default_factory=dict)  # path -> (mtime, size)
    refused: list[str] = field(default_factory=list)  # why each skipped file was skipped
    stale: list[str] = field(default_factory=list)  # paths to parse again
    changed: bool = False  # files to parse again or to forget: the index needs a build


# The refusals last logged for each index, so that a search that builds nothing does not
# log them again: every search walks the folder.
_reported: dict[Path, frozenset[str]] = {}


_reported_guard = threading.Lock()


def report_refusals(index_path: Path, refused: list[str], build: bool) -> None:
    """Log why each file is skipped: all of them when the index is built, else only those
    this process has not logged for this index yet."""
    with _reported_guard:
        before = frozenset() if build else _reported.get(index_path, frozenset())
        _reported[index_path] = frozenset(refused)
    for reason in refused:
        if reason not in before:
            log.warning("local corpus: skipped %s", reason)


def walk(folder: Path, max_bytes: int) -> Scan:
    """Every document file in `folder` that may be read, with its (mtime, size), and the
    reason for each one that may not.

    os.walk does not descend into symlinked folders; a symlinked file is kept only when
    it resolves to a file inside the folder.
    """
    scan = Scan()
    for root, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".")]  # .git, .venv, caches
        for name in [d for d in dirs if not utf8(d)]:
            dirs.remove(name)
            scan.refused.append(not_utf8(Path(root) / name, "folder"))
        for name in files:
            path = Path(root) / name
            if path.suffix.lower() not in EXTENSIONS:
                continue
            reason = not_utf8(path, "file") if not utf8(name) else None
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


def utf8(name: str) -> bool:
    """Whether a name from the file system is valid UTF-8 (Python keeps the bytes that are
    not as lone surrogates, which SQLite cannot store)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def not_utf8(path: Path, kind: str) -> str:
    shown = os.fsencode(path).decode("utf-8", errors="backslashreplace")
    return f"{shown}: the {kind} name is not valid UTF-8, so it cannot be indexed; rename it"


def indexed(conn: sqlite3.Connection) -> dict[str, tuple[int, int, int]]:
    rows = conn.execute("SELECT path, id, mtime_ns, size FROM docs")
    return {path: (doc_id, mtime, size) for path, doc_id, mtime, size in rows}


def stale(known: dict[str, tuple[int, int, int]], path: str, stat: tuple[int, int]) -> bool:
    row = known.get(path)
    return row is None or (row[1], row[2]) != stat


def apply(
    conn: sqlite3.Connection, on_disk: dict[str, tuple[int, int]], parsed: dict[str, Document]
) -> int:
    """Write the parsed files and forget deleted ones. Re-checks staleness inside the lock,
    since another process may have indexed the same files meanwhile."""
    known = indexed(conn)
    todo = [path for path in parsed if stale(known, path, on_disk[path])]
    for path, (doc_id, _, _) in known.items():
        if path not in on_disk or path in todo:
            for table in ("docs", "fts_tri", "fts_bi"):
                conn.execute(f"DELETE FROM {table} WHERE rowid = ?", (doc_id,))
    for path in todo:
        insert(conn, path, on_disk[path], parsed[path])
    return len(todo)


def insert(conn: sqlite3.Connection, path: str, stat: tuple[int, int], doc: Document) -> None:
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
