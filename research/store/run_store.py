"""The run store: one folder per run, holding every artifact, the manifest and the log.

`index.json` is the manifest a run can be resumed from; `log.jsonl` is the append-only
decision log. Every write is atomic (temporary file in the same folder, then os.replace),
so no reader ever sees half a file, and a lock file keeps two workers off the same run
(research.store.files). Every artifact read is checked against the sha256 the manifest
recorded when it was written.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import stat
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from django.conf import settings
from pydantic import BaseModel, ValidationError

from research.names import INDEX, INDEX_LOCK, LOG
from research.store.errors import ArtifactDamaged, ManifestDamaged, StoreError
from research.store.files import TEMPORARY, RunFolder, atomic_write, dumps, now_iso

M = TypeVar("M", bound=BaseModel)
_WRITERS = 8  # artifacts written at once by write_texts


class RunStore(RunFolder):
    def exists(self) -> bool:
        try:
            return stat.S_ISREG(os.lstat(self.path / INDEX).st_mode)
        except OSError:
            return False

    def create(self, params: dict[str, Any], stages: tuple[str, ...]) -> None:
        if self.exists():
            raise StoreError(f"run {self.run_id} already exists")
        self.path.mkdir(parents=True, exist_ok=True)
        atomic_write(self.path / INDEX, dumps(self.new_index(params, stages)))
        self.log("run_created", params=params)

    def new_index(self, params: dict[str, Any], stages: tuple[str, ...]) -> dict[str, Any]:
        """The manifest of a run that has not started: every stage pending, nothing written."""
        return {
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
            "analysis": {"mode": "deterministic", "model": None},
        }

    # --- artifacts ----------------------------------------------------------------------

    def write_bytes(self, name: str, data: bytes) -> None:
        path = self.artifact_path(name)
        self._make_folder(path.parent)
        atomic_write(path, data)
        digest = _digest(data)
        self.update_index(lambda index: _record_artifact(index, name, len(data), digest))

    def write_text(self, name: str, text: str) -> None:
        self.write_bytes(name, text.encode("utf-8"))

    def write_texts(self, files: dict[str, str]) -> None:
        """Write several artifacts, then record them in the manifest in one update."""
        entries = []
        for name, text in files.items():
            data = text.encode("utf-8")
            self._make_folder(self.artifact_path(name).parent)
            entries.append((name, len(data), _digest(data), data))
        # Each write waits for its own fsync; the disk takes them together.
        with ThreadPoolExecutor(max_workers=max(1, min(_WRITERS, len(entries)))) as pool:
            written = [pool.submit(atomic_write, self.artifact_path(e[0]), e[3]) for e in entries]
            for future in written:
                future.result()
        entries = [entry[:3] for entry in entries]

        def record(index: dict[str, Any]) -> None:
            for entry in entries:
                _record_artifact(index, *entry)

        self.update_index(record)

    def _make_folder(self, folder: Path) -> None:
        """Make an artifact's folder inside the run folder, never the run folder itself:
        a run folder deleted mid-run stays deleted, and the writes fail."""
        if folder != self.path:
            folder.mkdir(exist_ok=True)

    def write_json(self, name: str, payload: Any) -> None:
        self.write_bytes(name, dumps(payload))

    def read_bytes(self, name: str) -> bytes:
        """The artifact's bytes, checked against the sha256 the manifest recorded when it
        was written: ArtifactDamaged when they differ or a recorded file is missing. A
        file the manifest does not list is read as it is (there is nothing to check)."""
        self.artifact_path(name)  # checks the name
        for attempt in (1, 2):
            entry = self.artifact_entry(name)
            try:
                data = self._read(name)
            except FileNotFoundError:
                if entry is None:
                    raise
                problem = "it is missing"
            else:
                if entry is None or _digest(data) == entry.get("sha256"):
                    return data
                problem = (
                    "its contents no longer match the checksum recorded when it was written "
                    f"({_size(entry.get('bytes'))} then, {len(data):,} bytes now)"
                )
            if attempt == 1:
                time.sleep(0.05)  # a write and its manifest update may be a moment apart
        raise ArtifactDamaged(name, problem)

    def read_text(self, name: str) -> str:
        return self.read_bytes(name).decode("utf-8")

    def read_json(self, name: str) -> Any:
        return json.loads(self.read_text(name))

    def read_model(self, name: str, model: type[M]) -> M:
        data = self.read_bytes(name)
        try:
            return model.model_validate_json(data)
        except ValidationError as exc:
            raise ArtifactDamaged(name, f"it cannot be read ({_first_error(exc)})") from exc

    def is_valid(self, name: str, model: type[BaseModel] | None = None) -> bool:
        """True when the artifact exists, matches its recorded sha256 and parses."""
        try:
            entry = self.artifact_entry(name)
            self.artifact_path(name)  # checks the name
            data = self._read(name)
        except (OSError, StoreError):
            return False
        if entry is None or _digest(data) != entry.get("sha256"):
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
            if isinstance(entry, dict) and entry.get("name") == name:
                return entry
        return None

    def artifact_names(self) -> list[str]:
        entries = self.index().get("artifacts", [])
        return [str(e["name"]) for e in entries if isinstance(e, dict) and "name" in e]

    def damage(self, name: str, model: type[BaseModel] | None = None) -> ArtifactDamaged | None:
        """Why a recorded artifact cannot be trusted, or None when it is sound."""
        try:
            if model is None:
                self.read_bytes(name)
            else:
                self.read_model(name, model)
        except ArtifactDamaged as exc:
            return exc
        except (OSError, StoreError) as exc:
            return ArtifactDamaged(name, f"it cannot be read ({exc})")
        return None

    # --- manifest and log ---------------------------------------------------------------

    def index(self) -> dict[str, Any]:
        """The manifest; ManifestDamaged when it is there but cannot be read as one."""
        data = self._read(INDEX)
        try:
            index = json.loads(data)
        except ValueError as exc:
            raise ManifestDamaged(f"it is not valid JSON ({exc})") from exc
        if not isinstance(index, dict):
            raise ManifestDamaged("it is not a JSON object")
        if not isinstance(index.get("stages"), dict) or not isinstance(
            index.get("artifacts", []), list
        ):
            raise ManifestDamaged("it has no stages or no list of artifacts")
        return index

    def update_index(self, change: Any) -> dict[str, Any]:
        """Read-modify-write the manifest under its own short lock, so a worker, the web
        process and the recovery scan never lose each other's updates. A `change` that
        returns False leaves the file as it was: that is how a status-gated update says
        that its condition did not hold."""
        with self._flock(INDEX_LOCK, wait=None):
            index = self.index()
            if change(index) is not False:
                atomic_write(self.path / INDEX, dumps(index))
            return index

    def add_tokens(self, stage: str, prompt: int, completion: int) -> None:
        """Count model tokens a stage spent: `tokens: {<stage>: {prompt, completion}, total}`.
        Added, not set: a stage that runs again spends its tokens again."""

        def add(index: dict[str, Any]) -> None:
            tokens = index.setdefault("tokens", {"total": 0})
            used = tokens.setdefault(stage, {"prompt": 0, "completion": 0})
            used["prompt"] += prompt
            used["completion"] += completion
            tokens["total"] = int(tokens.get("total") or 0) + prompt + completion

        self.update_index(add)

    def update_analysis(self, **fields: Any) -> None:
        """Set keys of `analysis: {mode, model, ...}`, the method that produced the run."""
        self.update_index(lambda index: index.setdefault("analysis", {}).update(fields))

    def mark_budget_exhausted(self, entry: dict[str, Any]) -> None:
        """Note where the run's token budget ran out; the first note stands."""

        def mark(index: dict[str, Any]) -> bool:
            analysis = index.setdefault("analysis", {})
            if analysis.get("budget_exhausted"):
                return False
            analysis["budget_exhausted"] = entry
            return True

        self.update_index(mark)

    def mark_model_time_out(self, entry: dict[str, Any]) -> None:
        """Note each stage whose time with the model ran out (`analysis.time_out`)."""

        def mark(index: dict[str, Any]) -> bool:
            stages = index.setdefault("analysis", {}).setdefault("time_out", [])
            if any(e.get("stage") == entry.get("stage") for e in stages if isinstance(e, dict)):
                return False
            stages.append(entry)
            return True

        self.update_index(mark)

    def mark_model_unreachable(self, entry: dict[str, Any]) -> None:
        """Note the stage where the model could not be reached; the first note stands."""

        def mark(index: dict[str, Any]) -> bool:
            analysis = index.setdefault("analysis", {})
            if analysis.get("model_unreachable"):
                return False
            analysis["model_unreachable"] = entry
            return True

        self.update_index(mark)

    def log(self, event: str, **data: Any) -> None:
        """Append one decision-log line, whole or not at all. One write() of one line keeps
        lines whole between writers; on a nearly full disk a write can stop part way, and
        then what it wrote is cut off again (under a lock on the log, so no other writer's
        line is in between) and the error raised."""
        line = json.dumps({"ts": now_iso(), "event": event, **data}, ensure_ascii=False)
        data_out = (line + "\n").encode("utf-8")
        fd = self._open(LOG, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            start = os.fstat(fd).st_size
            try:
                if os.write(fd, data_out) < len(data_out):
                    raise OSError(errno.ENOSPC, "no space left to finish the log line", LOG)
            except OSError:
                os.ftruncate(fd, start)
                raise
        finally:
            os.close(fd)

    def read_log(self) -> list[dict[str, Any]]:
        """The decision log's events; a line that does not parse (cut short by a crash in
        an older version, or edited by hand) is left out."""
        try:
            lines = self._read(LOG).decode("utf-8", errors="replace").splitlines()
        except FileNotFoundError:
            return []
        events = []
        for line in lines:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if isinstance(event, dict):
                events.append(event)
        return events

    def remove_temporaries(self) -> list[str]:
        """Delete what atomic writes left behind when their process died mid-write. Call it
        holding the run lock: no artifact write is then under way, and the manifest's own
        lock keeps its writes safe while this runs."""
        removed = []
        with self._flock(INDEX_LOCK, wait=None):
            for folder, _dirs, files in os.walk(self.path):  # never follows links
                for name in files:
                    if TEMPORARY.fullmatch(name):
                        path = Path(folder) / name
                        with contextlib.suppress(FileNotFoundError):
                            path.unlink()
                            removed.append(path.relative_to(self.path).as_posix())
        return sorted(removed)


def store_for(run_id: str) -> RunStore:
    """The store of run `run_id`, in the configured runs folder (RUNS_DIR)."""
    return RunStore(settings.RUNS_DIR, run_id)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _size(value: Any) -> str:
    return f"{value:,} bytes" if isinstance(value, int) else "an unknown size"


def _first_error(exc: ValidationError) -> str:
    error = exc.errors()[0]
    where = ".".join(str(part) for part in error.get("loc", ())) or "the file"
    return f"{where}: {error.get('msg', 'invalid')}"


def _record_artifact(index: dict[str, Any], name: str, size: int, digest: str) -> None:
    artifacts = [a for a in index["artifacts"] if a["name"] != name]
    artifacts.append({"name": name, "bytes": size, "sha256": digest})
    index["artifacts"] = sorted(artifacts, key=lambda a: a["name"])
