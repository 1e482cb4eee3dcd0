"""The ground the run store stands on: a run folder's fixed names, atomic writes, and the
folder backend (research.store.backends): a folder whose files are opened without following
links and locked with kernel locks.

Nothing in a run folder is reached through a symbolic link: names are checked whole, and
the manifest, the log, the locks and the artifacts are opened with O_NOFOLLOW, so a link
planted in a run folder is refused with a StoreError instead of being followed.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import re
import stat
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from research.names import INDEX_LOCK, LOCK
from research.store.errors import RunLocked, StoreError

# Matched with fullmatch: `$` would also accept a name that ends in a newline.
_RUN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
_PART = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")  # a part of a stage with a lock of its own
_ARTIFACT = re.compile(r"[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)?")
# What atomic_write leaves behind when its process dies between writing and renaming.
TEMPORARY = re.compile(r"\..+\.tmp")

# Lock descriptors this process holds right now. A child forked meanwhile (a Celery prefork
# pool replacing a worker process) inherits copies that would keep a flock held after the
# parent lets go, so the child closes them first thing.
_HELD: set[int] = set()


def _close_inherited_locks() -> None:
    for fd in list(_HELD):
        with contextlib.suppress(OSError):
            os.close(fd)
    _HELD.clear()


os.register_at_fork(after_in_child=_close_inherited_locks)


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def atomic_write(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def dumps(payload: Any) -> bytes:
    if isinstance(payload, BaseModel):
        payload = payload.model_dump(mode="json")
    return (json.dumps(payload, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def check_run_id(run_id: str) -> None:
    if not isinstance(run_id, str) or not _RUN_ID.fullmatch(run_id):
        raise StoreError(f"not a valid run id: {run_id!r}")


def check_artifact_name(name: str) -> None:
    """A name at most one folder deep, of plain characters, that cannot climb out."""
    if not isinstance(name, str) or not _ARTIFACT.fullmatch(name):
        raise StoreError(f"not a valid artifact name: {name!r}")
    if ".." in name.split("/"):
        raise StoreError(f"not a valid artifact name: {name!r}")


def check_part_name(part: str) -> None:
    """The name of a part of a stage that has a lock of its own."""
    if not isinstance(part, str) or not _PART.fullmatch(part):
        raise StoreError(f"not a valid part name: {part!r}")


class FolderBackend:
    """One run's folder: the checked paths of its files, opened without following links,
    and its locks."""

    def __init__(self, root: Path, run_id: str) -> None:
        check_run_id(run_id)
        self.root = Path(root).resolve()
        self.run_id = run_id
        self.path = self.root / run_id

    @property
    def location(self) -> str:
        return str(self.path)

    # --- the backend's files (research.store.backends.Backend) ----------------------------

    def check_name(self, name: str) -> None:
        self.artifact_path(name)

    def prepare(self) -> None:
        self.path.mkdir(parents=True, exist_ok=True)

    def read(self, name: str) -> bytes:
        return self._read(name)

    def write(self, name: str, data: bytes) -> None:
        path = self.path / name
        self._make_folder(path.parent)
        atomic_write(path, data)

    def has(self, name: str) -> bool:
        try:
            return stat.S_ISREG(os.lstat(self.path / name).st_mode)
        except OSError:
            return False

    def names(self) -> list[str] | None:
        """The names of the folder's entries, None when the folder is not there."""
        try:
            return sorted(os.listdir(self.path))
        except OSError:
            return None

    def rename(self, name: str, new_name: str) -> None:
        os.replace(self.path / name, self.path / new_name)

    def append(self, name: str, data: bytes) -> None:
        """Append `data`, whole or not at all. One write() of one line keeps lines whole
        between writers; on a nearly full disk a write can stop part way, and then what it
        wrote is cut off again (under a lock on the file, so no other writer's line is in
        between) and the error raised."""
        fd = self._open(name, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            start = os.fstat(fd).st_size
            try:
                if os.write(fd, data) < len(data):
                    raise OSError(errno.ENOSPC, "no space left to finish the log line", name)
            except OSError:
                os.ftruncate(fd, start)
                raise
        finally:
            os.close(fd)

    def mutex(self) -> contextlib.AbstractContextManager[None]:
        """The manifest's own short lock, for its read-modify-writes."""
        return self._flock(INDEX_LOCK, wait=None)

    def writing(self) -> contextlib.AbstractContextManager[None]:
        """Around an artifact's write and its manifest entry: nothing more to hold here."""
        return contextlib.nullcontext()

    def fence(self, index: dict[str, Any]) -> None:
        """A kernel lock cannot outlive its holder: no token to check or record."""

    def remove_temporaries(self) -> list[str]:
        """Delete what atomic writes left behind when their process died mid-write."""
        removed = []
        with self.mutex():
            for folder, _dirs, files in os.walk(self.path):  # never follows links
                for name in files:
                    if TEMPORARY.fullmatch(name):
                        path = Path(folder) / name
                        with contextlib.suppress(FileNotFoundError):
                            path.unlink()
                            removed.append(path.relative_to(self.path).as_posix())
        return sorted(removed)

    def _make_folder(self, folder: Path) -> None:
        """Make an artifact's folder inside the run folder, never the run folder itself:
        a run folder deleted mid-run stays deleted, and the writes fail."""
        if folder != self.path:
            folder.mkdir(exist_ok=True)

    # --- paths --------------------------------------------------------------------------

    def artifact_path(self, name: str) -> Path:
        """The path of an artifact inside the run folder; nothing may escape it, and no
        part of it may be a symbolic link."""
        check_artifact_name(name)
        path = self.path / name
        if self._has_link(name):
            raise self._link_refused(name)
        if self.path.resolve() not in path.resolve().parents:
            raise StoreError(f"artifact name escapes the run folder: {name!r}")
        return path

    # --- locking ------------------------------------------------------------------------

    @contextlib.contextmanager
    def lock(
        self, wait: float = 0.0, *, part: str | None = None, shared: bool = False
    ) -> Iterator[None]:
        """Hold the run's lock. The kernel drops it if the process dies, so a killed worker
        never leaves a run locked.

        `shared` holds it beside other shared holders (the parts of a stage that several
        workers run at once), never beside an exclusive one (a whole stage, a recovery
        pass). `part` instead holds the lock of that one part of a stage, exclusively:
        whoever holds it is the one process running that part."""
        if part is not None:
            check_part_name(part)
            with self._flock(f"{LOCK}.{part}", wait):
                yield
            return
        with self._flock(LOCK, wait, shared=shared):
            yield

    def is_locked(self) -> bool:
        try:
            with self.lock():
                return False
        except RunLocked:
            return True

    @contextlib.contextmanager
    def _flock(self, name: str, wait: float | None, shared: bool = False) -> Iterator[None]:
        """Hold a flock on `name`, exclusive unless `shared`; wait None means block until
        it is free."""
        mode = fcntl.LOCK_SH if shared else fcntl.LOCK_EX
        fd = self._open(name, os.O_RDWR | os.O_CREAT)
        _HELD.add(fd)
        try:
            if wait is None:
                fcntl.flock(fd, mode)
            else:
                self._acquire(fd, wait, mode)
            yield
        finally:
            _HELD.discard(fd)
            os.close(fd)

    # --- opening files without following links -----------------------------------------

    def _open(self, name: str, flags: int) -> int:
        """Open `name` (at most one folder deep) in the run folder, refusing a symbolic
        link at every step instead of following it."""
        *folders, leaf = name.split("/")
        dir_fd = os.open(self.path, os.O_RDONLY | os.O_DIRECTORY)
        try:
            for folder in folders:
                inner = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=dir_fd)
                os.close(dir_fd)
                dir_fd = inner
            return os.open(leaf, flags | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644, dir_fd=dir_fd)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR) and self._has_link(name):
                raise self._link_refused(name) from exc
            raise
        finally:
            os.close(dir_fd)

    def _read(self, name: str) -> bytes:
        fd = self._open(name, os.O_RDONLY)
        with os.fdopen(fd, "rb") as handle:
            return handle.read()

    def _has_link(self, name: str) -> bool:
        step = self.path
        for part in name.split("/"):
            step = step / part
            if step.is_symlink():
                return True
        return False

    def _link_refused(self, name: str) -> StoreError:
        return StoreError(
            f"{name} in run {self.run_id} is a symbolic link; run files are never "
            "reached through links, so it was not followed"
        )

    def _acquire(self, fd: int, wait: float, mode: int = fcntl.LOCK_EX) -> None:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, mode | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise RunLocked(f"run {self.run_id} is being worked on") from None
                time.sleep(0.05)
