"""The run store: every artifact of a run, the manifest and the log, in a folder or a
bucket (research.store.backends).

`index.json` is the manifest a run can be resumed from; `log.jsonl` is the append-only
decision log. Every write is atomic (a temporary file then os.replace, or one S3 PUT), so no
reader ever sees half a file, and the manifest is written after the artifacts it lists. The
run's lock keeps two workers off the same run. Every artifact read is checked against the
sha256 the manifest recorded when it was written.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from research.names import INDEX, LOG
from research.store.backends import Backend, Root, runs_root
from research.store.errors import ArtifactDamaged, ManifestDamaged, StoreError
from research.store.files import FolderBackend, check_run_id, dumps, now_iso

M = TypeVar("M", bound=BaseModel)
_WRITERS = 8  # artifacts written at once by write_texts


class RunStore:
    """One run's artifacts, manifest and log, over the backend that keeps its files
    (research.store.backends): a folder, or objects in a bucket."""

    def __init__(self, root: Path | str | Root, run_id: str) -> None:
        check_run_id(run_id)
        self.run_id = run_id
        if isinstance(root, str | Path):
            self.backend: Backend = FolderBackend(Path(root), run_id)
        else:
            self.backend = root.backend(run_id)

    # --- where the run is, and its lock -------------------------------------------------

    @property
    def location(self) -> str:
        """Where the run's files are, for people: a folder path or an s3:// address."""
        return self.backend.location

    def location_of(self, name: str) -> str:
        """Where one of the run's files is, for people."""
        self.backend.check_name(name)
        return f"{self.location}/{name}"

    @property
    def path(self) -> Path:
        """The run folder; StoreError when the run is kept in a bucket."""
        return self._folder().path

    @property
    def root(self) -> Path:
        return self._folder().root

    def artifact_path(self, name: str) -> Path:
        return self._folder().artifact_path(name)

    def _folder(self) -> FolderBackend:
        if not isinstance(self.backend, FolderBackend):
            raise StoreError(f"run {self.run_id} is kept at {self.location}, not in a folder")
        return self.backend

    def lock(
        self, wait: float = 0.0, *, part: str | None = None, shared: bool = False
    ) -> contextlib.AbstractContextManager[None]:
        """Hold the run's lock (exclusive, or `shared` by the parts of a stage), or with
        `part` the lock of one part of a stage: a kernel lock on a folder, a fenced lease
        with a bucket. Either way a killed worker never leaves a run locked for good."""
        return self.backend.lock(wait, part=part, shared=shared)

    def is_locked(self) -> bool:
        return self.backend.is_locked()

    def has(self, name: str) -> bool:
        """Whether the file is there (listed in the manifest or not); StoreError for a name
        that is not an artifact's."""
        self.backend.check_name(name)
        return self.backend.has(name)

    def exists(self) -> bool:
        """Whether the run's manifest is there."""
        return self.backend.has(INDEX)

    def found(self) -> bool:
        """Whether the run is there at all: its manifest, or its decision log (written
        beside the manifest when the run was made) when the manifest went missing."""
        return self.exists() or self.backend.has(LOG)

    def create(self, params: dict[str, Any], stages: tuple[str, ...]) -> None:
        if self.exists():
            raise StoreError(f"run {self.run_id} already exists")
        self.backend.prepare()
        self.backend.write(INDEX, dumps(self.new_index(params, stages)))
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
        self.backend.check_name(name)
        digest = _digest(data)
        with self.backend.writing():
            self.backend.write(name, data)
            self.update_index(lambda index: _record_artifact(index, name, len(data), digest))

    def write_text(self, name: str, text: str) -> None:
        self.write_bytes(name, text.encode("utf-8"))

    def write_texts(self, files: dict[str, str]) -> None:
        """Write several artifacts, then record them in the manifest in one update."""
        entries = []
        for name, text in files.items():
            self.backend.check_name(name)
            data = text.encode("utf-8")
            entries.append((name, len(data), _digest(data), data))
        with self.backend.writing():
            # Written side by side: each write waits for its own flush to disk (or its PUT),
            # and the disk (or the bucket) takes them together.
            with ThreadPoolExecutor(max_workers=max(1, min(_WRITERS, len(entries)))) as pool:
                for future in [pool.submit(self.backend.write, e[0], e[3]) for e in entries]:
                    future.result()

            def record(index: dict[str, Any]) -> None:
                for entry in entries:
                    _record_artifact(index, *entry[:3])

            self.update_index(record)

    def read_unchecked(self, name: str) -> bytes:
        """The file's bytes as they are, not checked against the manifest: for rebuilding a
        manifest, and for the manifest and the log themselves."""
        self.backend.check_name(name)
        return self.backend.read(name)

    def write_json(self, name: str, payload: Any) -> None:
        self.write_bytes(name, dumps(payload))

    def read_bytes(self, name: str) -> bytes:
        """The artifact's bytes, checked against the sha256 the manifest recorded when it
        was written: ArtifactDamaged when they differ or a recorded file is missing. A
        file the manifest does not list is read as it is (there is nothing to check)."""
        self.backend.check_name(name)
        for attempt in (1, 2):
            entry = self.artifact_entry(name)
            try:
                data = self.backend.read(name)
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
            self.backend.check_name(name)
            data = self.backend.read(name)
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
        """The manifest; ManifestDamaged when it cannot be read as one, or went missing from
        a run that is still there (FileNotFoundError when the run is not)."""
        try:
            data = self.backend.read(INDEX)
        except FileNotFoundError:
            if not self.backend.has(LOG):
                raise
            raise ManifestDamaged("it is missing") from None
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
        that its condition did not hold. In a bucket, a lease holder's update is refused
        (LeaseLost) once a later holder has taken the run, and records its token."""
        with self.backend.mutex():
            index = self.index()
            if change(index) is not False:
                self.backend.fence(index)
                self.backend.write(INDEX, dumps(index))
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
        """Append one decision-log line, whole or not at all (the backend's append)."""
        line = json.dumps({"ts": now_iso(), "event": event, **data}, ensure_ascii=False)
        self.backend.append(LOG, (line + "\n").encode("utf-8"))

    def read_log(self) -> list[dict[str, Any]]:
        """The decision log's events; a line that does not parse (cut short by a crash in
        an older version, or edited by hand) is left out."""
        try:
            lines = self.backend.read(LOG).decode("utf-8", errors="replace").splitlines()
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
        return self.backend.remove_temporaries()


def store_for(run_id: str) -> RunStore:
    """The store of run `run_id`, where RUNS_STORE says: the runs folder (RUNS_DIR) or a
    bucket."""
    return RunStore(runs_root(), run_id)


def run_ids() -> list[str]:
    """Every run in the configured store, by id, including any the database does not list."""
    return runs_root().run_ids()


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
