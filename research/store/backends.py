"""Where a run's files live. The run store (research.store.run_store) keeps its manifest,
sha256 checks and log over a backend, written once; a backend only stores named files and
holds the run's locks:

- FolderBackend (research.store.files): a folder per run under RUNS_DIR, atomic writes by
  rename, kernel locks. The default (RUNS_STORE unset or `file:`).
- S3Backend (research.store.s3): objects `<prefix>/<run_id>/<name>` in any S3-compatible
  service (RUNS_STORE=s3://bucket/prefix), with the run's lock a fenced lease in Redis
  (research.store.leases), so workers on many hosts need no shared folder.
"""

from __future__ import annotations

import contextlib
import functools
from pathlib import Path
from typing import Any, Protocol

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from research.store.files import FolderBackend


class Backend(Protocol):
    """One run's files and locks. Names are the run's artifact names (`report.md`,
    `round_3_pages/s1.md`), the manifest and the log; `read` raises FileNotFoundError for a
    name never written, and `write` is atomic: a reader sees the old bytes or the new."""

    run_id: str

    @property
    def location(self) -> str: ...

    def check_name(self, name: str) -> None: ...
    def prepare(self) -> None: ...
    def read(self, name: str) -> bytes: ...
    def write(self, name: str, data: bytes) -> None: ...
    def has(self, name: str) -> bool: ...
    def names(self) -> list[str] | None: ...
    def rename(self, name: str, new_name: str) -> None: ...
    def append(self, name: str, data: bytes) -> None: ...
    def lock(
        self, wait: float = 0.0, *, part: str | None = None, shared: bool = False
    ) -> contextlib.AbstractContextManager[None]: ...
    def is_locked(self) -> bool: ...
    def mutex(self) -> contextlib.AbstractContextManager[None]: ...
    def writing(self) -> contextlib.AbstractContextManager[None]: ...
    def fence(self, index: dict[str, Any]) -> None: ...
    def remove_temporaries(self) -> list[str]: ...


class Root(Protocol):
    """Where every run is: makes each run's backend and lists the runs."""

    @property
    def location(self) -> str: ...

    def backend(self, run_id: str) -> Backend: ...
    def run_ids(self) -> list[str]: ...


class FolderRoot:
    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    @property
    def location(self) -> str:
        return str(self.path)

    def backend(self, run_id: str) -> Backend:
        return FolderBackend(self.path, run_id)

    def run_ids(self) -> list[str]:
        if not self.path.is_dir():
            return []
        return sorted(entry.name for entry in self.path.iterdir())


def parse_runs_store(value: str) -> tuple[str, str] | None:
    """RUNS_STORE as (bucket, prefix) for s3://bucket/prefix; None for the folder store
    (unset or `file:`). Anything else is a configuration error that says what is accepted."""
    value = value.strip()
    if value in ("", "file:"):
        return None
    if value.startswith("s3://"):
        bucket, _, prefix = value[len("s3://") :].partition("/")
        if bucket:
            return bucket, prefix.strip("/")
    raise ImproperlyConfigured(
        f"RUNS_STORE must be unset, file: (run folders in RUNS_DIR) or s3://bucket/prefix, "
        f"got {value!r}"
    )


def runs_root() -> Root:
    """The configured store of every run: RUNS_DIR, or the bucket RUNS_STORE names."""
    bucket = parse_runs_store(getattr(settings, "RUNS_STORE", ""))
    if bucket is None:
        return FolderRoot(settings.RUNS_DIR)
    return _s3_root(
        *bucket,
        settings.S3_ENDPOINT_URL,
        settings.CELERY_BROKER_URL,
        float(settings.STAGE_LEASE),
    )


@functools.cache
def _s3_root(bucket: str, prefix: str, endpoint: str, redis_url: str, ttl: float) -> Root:
    from research.store.s3 import S3Root  # boto3 is loaded only where a bucket is used

    return S3Root(bucket, prefix, endpoint, redis_url, ttl)
