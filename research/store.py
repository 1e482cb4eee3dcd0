"""The run store: one folder per run, holding every artifact, the manifest and the log.

`index.json` is the manifest a run can be resumed from; `log.jsonl` is the append-only
decision log. Every write is atomic (temporary file in the same folder, then os.replace),
so no reader ever sees half a file, and a lock file keeps two workers off the same run.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import re
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

INDEX = "index.json"
LOG = "log.jsonl"
LOCK = ".lock"
INDEX_LOCK = ".index.lock"
_RUN_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
_ARTIFACT = re.compile(r"^[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)?$")

M = TypeVar("M", bound=BaseModel)


class StoreError(Exception):
    """A run folder or artifact name that cannot be used."""


class RunLocked(StoreError):
    """Another live process holds this run's lock."""


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


class RunStore:
    def __init__(self, root: Path, run_id: str) -> None:
        if not _RUN_ID.match(run_id):
            raise StoreError(f"not a valid run id: {run_id!r}")
        self.root = Path(root).resolve()
        self.run_id = run_id
        self.path = self.root / run_id

    # --- paths --------------------------------------------------------------------------

    def artifact_path(self, name: str) -> Path:
        """Resolve an artifact name inside the run folder; nothing may escape it."""
        if not _ARTIFACT.match(name) or ".." in name.split("/"):
            raise StoreError(f"not a valid artifact name: {name!r}")
        path = (self.path / name).resolve()
        if self.path.resolve() not in path.parents:
            raise StoreError(f"artifact name escapes the run folder: {name!r}")
        return path

    def exists(self) -> bool:
        return (self.path / INDEX).is_file()

    def create(self, params: dict[str, Any], stages: tuple[str, ...]) -> None:
        if self.exists():
            raise StoreError(f"run {self.run_id} already exists")
        self.path.mkdir(parents=True, exist_ok=True)
        index = {
            "run_id": self.run_id,
            "created": now_iso(),
            "params": params,
            "stages": {
                s: {"status": "pending", "started": None, "finished": None, "attempts": 0}
                for s in stages
            },
            "artifacts": [],
            "provider_outcomes": {},
            "replans": [],
            "tokens": {"total": 0},
        }
        atomic_write(self.path / INDEX, dumps(index))
        self.log("run_created", params=params)

    # --- artifacts ----------------------------------------------------------------------

    def write_bytes(self, name: str, data: bytes) -> None:
        path = self.artifact_path(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, data)
        digest = hashlib.sha256(data).hexdigest()
        self.update_index(lambda index: _record_artifact(index, name, len(data), digest))

    def write_text(self, name: str, text: str) -> None:
        self.write_bytes(name, text.encode("utf-8"))

    def write_texts(self, files: dict[str, str]) -> None:
        """Write several artifacts, then record them in the manifest in one update."""
        entries = []
        for name, text in files.items():
            data = text.encode("utf-8")
            path = self.artifact_path(name)
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(path, data)
            entries.append((name, len(data), hashlib.sha256(data).hexdigest()))

        def record(index: dict[str, Any]) -> None:
            for entry in entries:
                _record_artifact(index, *entry)

        self.update_index(record)

    def write_json(self, name: str, payload: Any) -> None:
        self.write_bytes(name, dumps(payload))

    def read_bytes(self, name: str) -> bytes:
        return self.artifact_path(name).read_bytes()

    def read_text(self, name: str) -> str:
        return self.artifact_path(name).read_text(encoding="utf-8")

    def read_json(self, name: str) -> Any:
        return json.loads(self.read_text(name))

    def read_model(self, name: str, model: type[M]) -> M:
        return model.model_validate_json(self.read_bytes(name))

    def is_valid(self, name: str, model: type[BaseModel] | None = None) -> bool:
        """True when the artifact exists, matches its recorded sha256 and parses."""
        entry = self.artifact_entry(name)
        try:
            data = self.read_bytes(name)
        except (FileNotFoundError, StoreError):
            return False
        if entry is None or hashlib.sha256(data).hexdigest() != entry["sha256"]:
            return False
        if model is None:
            return True
        try:
            model.model_validate_json(data)
        except ValidationError:
            return False
        return True

    def artifact_entry(self, name: str) -> dict[str, Any] | None:
        for entry in self.index().get("artifacts", []):
            if entry["name"] == name:
                return entry
        return None

    def artifact_names(self) -> list[str]:
        return [entry["name"] for entry in self.index().get("artifacts", [])]

    # --- manifest and log ---------------------------------------------------------------

    def index(self) -> dict[str, Any]:
        return json.loads((self.path / INDEX).read_text(encoding="utf-8"))

    def update_index(self, change: Any) -> dict[str, Any]:
        """Read-modify-write the manifest under its own short lock, so a worker, the web
        process and the recovery scan never lose each other's updates."""
        fd = os.open(self.path / INDEX_LOCK, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            index = self.index()
            change(index)
            atomic_write(self.path / INDEX, dumps(index))
            return index
        finally:
            os.close(fd)

    def log(self, event: str, **data: Any) -> None:
        """Append one decision-log line. A single write() of one line keeps lines whole."""
        line = json.dumps({"ts": now_iso(), "event": event, **data}, ensure_ascii=False)
        fd = os.open(self.path / LOG, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            os.write(fd, (line + "\n").encode("utf-8"))
        finally:
            os.close(fd)

    def read_log(self) -> list[dict[str, Any]]:
        try:
            lines = (self.path / LOG).read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            return []
        return [json.loads(line) for line in lines if line.strip()]

    # --- locking ------------------------------------------------------------------------

    @contextlib.contextmanager
    def lock(self, wait: float = 0.0) -> Iterator[None]:
        """Hold the run's lock. The kernel drops it if the process dies, so a killed worker
        never leaves a run locked."""
        fd = os.open(self.path / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            self._acquire(fd, wait)
            yield
        finally:
            os.close(fd)

    def is_locked(self) -> bool:
        try:
            with self.lock():
                return False
        except RunLocked:
            return True

    def _acquire(self, fd: int, wait: float) -> None:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise RunLocked(f"run {self.run_id} is being worked on") from None
                time.sleep(0.05)


def _record_artifact(index: dict[str, Any], name: str, size: int, digest: str) -> None:
    artifacts = [a for a in index["artifacts"] if a["name"] != name]
    artifacts.append({"name": name, "bytes": size, "sha256": digest})
    index["artifacts"] = sorted(artifacts, key=lambda a: a["name"])
