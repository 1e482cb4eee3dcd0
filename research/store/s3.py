"""Runs kept as objects in an S3-compatible bucket (RUNS_STORE=s3://bucket/prefix).

Each run's files are objects named as in a run folder: `<prefix>/<run_id>/index.json`,
`.../log.jsonl`, `.../round_3_pages/s1.md`. A PUT is atomic, so a reader sees an old object
or the new one, never half of one; the run store writes the manifest after the artifacts it
lists. There are no kernel locks: the run's lock is a fenced lease in Redis
(research.store.leases). Under its lease a worker writes with its token: the manifest
records the token of its last writer, and a write by a holder whose token is older than the
latest is refused (LeaseLost). An artifact's write and its manifest entry, the manifest's
read-modify-writes and the log's appends (read, add the line, PUT) are made under the run's
manifest mutex, so no writer loses another's update and a log line is whole or absent.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import threading
from collections.abc import Iterator
from typing import Any

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from research.names import INDEX
from research.store.errors import LeaseLost, StoreUnavailable
from research.store.files import check_artifact_name, check_part_name, check_run_id
from research.store.leases import Lease, Leases

_MISSING = {"404", "NoSuchKey", "NotFound"}


class S3Root:
    """Every run under one bucket prefix, and the Redis that holds their leases."""

    def __init__(self, bucket: str, prefix: str, endpoint: str, redis_url: str, ttl: float):
        self.bucket, self.prefix, self.endpoint = bucket, prefix, endpoint
        self.leases = Leases(redis_url, f"{bucket}/{prefix}", ttl)
        self._clients: dict[int, Any] = {}

    @property
    def location(self) -> str:
        return f"s3://{self.bucket}/{self.prefix}".rstrip("/")

    @property
    def client(self) -> Any:
        """One client per process: a client made before a fork is not used after it."""
        pid = os.getpid()
        if pid not in self._clients:
            config = Config(connect_timeout=5, read_timeout=30, retries={"max_attempts": 3})
            self._clients[pid] = boto3.session.Session().client(
                "s3", endpoint_url=self.endpoint or None, config=config
            )
        return self._clients[pid]

    def key(self, *parts: str) -> str:
        return "/".join(p for p in (self.prefix, *parts) if p)

    def backend(self, run_id: str) -> S3Backend:
        return S3Backend(self, run_id)

    def run_ids(self) -> list[str]:
        found: list[str] = []
        prefix = f"{self.prefix}/" if self.prefix else ""
        pages = self.client.get_paginator("list_objects_v2").paginate
        with self.failing(""):
            for page in pages(Bucket=self.bucket, Prefix=prefix, Delimiter="/"):
                folders = page.get("CommonPrefixes", [])
                found += [f["Prefix"][len(prefix) :].rstrip("/") for f in folders]
        return sorted(found)

    def call(self, method: Any, name: str) -> Any:
        """`method`, whose errors become FileNotFoundError (no such object) or
        StoreUnavailable (anything else, said with the bucket's address)."""

        def called(**kwargs: Any) -> Any:
            with self.failing(name):
                return method(**kwargs)

        return called

    @contextlib.contextmanager
    def failing(self, name: str) -> Iterator[None]:
        where = f"{self.location}/{name}".rstrip("/")
        try:
            yield
        except ClientError as exc:
            code = str(exc.response.get("Error", {}).get("Code", ""))
            if code in _MISSING:
                raise FileNotFoundError(errno.ENOENT, "no such object", where) from exc
            raise StoreUnavailable(f"the run store at {where} refused: {exc}") from exc
        except BotoCoreError as exc:
            raise StoreUnavailable(f"the run store at {where} cannot be reached: {exc}") from exc


class S3Backend:
    """One run's objects, and its lease (research.store.backends.Backend)."""

    def __init__(self, root: S3Root, run_id: str) -> None:
        check_run_id(run_id)
        self.root, self.run_id = root, run_id
        self.leases = root.leases
        self._lease: Lease | None = None
        self._held = threading.local()  # how deep this thread holds the manifest mutex

    @property
    def location(self) -> str:
        return f"{self.root.location}/{self.run_id}"

    @property
    def token(self) -> int | None:
        """The fencing token of the lease this store holds, None when it holds none."""
        return self._lease.token if self._lease is not None else None

    def _key(self, name: str) -> str:
        return self.root.key(self.run_id, name)

    def _s3(self, method: str, name: str, **kwargs: Any) -> Any:
        call = self.root.call(getattr(self.root.client, method), f"{self.run_id}/{name}")
        return call(Bucket=self.root.bucket, **kwargs)

    # --- files --------------------------------------------------------------------------

    def check_name(self, name: str) -> None:
        check_artifact_name(name)

    def prepare(self) -> None:
        """Nothing to make: a bucket has no folders."""

    def read(self, name: str) -> bytes:
        return self._s3("get_object", name, Key=self._key(name))["Body"].read()

    def write(self, name: str, data: bytes) -> None:
        self._check_token()
        self._s3("put_object", name, Key=self._key(name), Body=data)

    def has(self, name: str) -> bool:
        try:
            self._s3("head_object", name, Key=self._key(name))
        except FileNotFoundError:
            return False
        return True

    def names(self) -> list[str] | None:
        """Every object of the run, None when it has none (there are no empty folders)."""
        prefix = self._key("") + "/"
        pages = self.root.client.get_paginator("list_objects_v2").paginate
        found = []
        with self.root.failing(self.run_id):
            for page in pages(Bucket=self.root.bucket, Prefix=prefix):
                found += [o["Key"][len(prefix) :] for o in page.get("Contents", [])]
        return sorted(found) or None

    def rename(self, name: str, new_name: str) -> None:
        source = {"Bucket": self.root.bucket, "Key": self._key(name)}
        self._check_token()
        self._s3("copy_object", name, Key=self._key(new_name), CopySource=source)
        self._s3("delete_object", name, Key=self._key(name))

    def append(self, name: str, data: bytes) -> None:
        """Read, add, PUT, under the manifest mutex: the line is whole or not there."""
        with self.mutex():
            try:
                before = self.read(name)
            except FileNotFoundError:
                before = b""
            self.write(name, before + data)

    def remove_temporaries(self) -> list[str]:
        """A PUT leaves nothing half-written behind."""
        return []

    # --- the lease, its token and the manifest mutex --------------------------------------

    @contextlib.contextmanager
    def lock(
        self, wait: float = 0.0, *, part: str | None = None, shared: bool = False
    ) -> Iterator[None]:
        """The run's lease, exclusive or `shared` (its holders write under its generation's
        token), or, with `part`, the lease of that one part of a stage (research.store.files
        says what each is for). A part's lease fences nothing: its writes are made under the
        run's shared lease, held beside it."""
        if part is not None:
            check_part_name(part)
            lease = self.leases.acquire(f"{self.run_id}.{part}", wait)
            try:
                yield
            finally:
                lease.release()
            return
        if shared:
            lease = self.leases.acquire_shared(self.run_id, wait, self._recorded_fence())
        else:
            lease = self._exclusive(wait)
        self._lease = lease
        try:
            yield
        finally:
            self._lease = None
            lease.release()

    def _exclusive(self, wait: float) -> Lease:
        lease = self.leases.acquire(self.run_id, wait)
        try:
            recorded = self._recorded_fence()
            if recorded >= lease.token:
                self.leases.raise_above(self.run_id, lease, recorded)
        except BaseException:
            lease.release()
            raise
        return lease

    def is_locked(self) -> bool:
        return self.leases.held(self.run_id)

    def _recorded_fence(self) -> int:
        """The token the manifest was last written under; 0 when it names none or cannot
        be read (then there is nothing of a holder's to protect)."""
        try:
            fence = json.loads(self.read(INDEX)).get("fence")
        except (OSError, ValueError, AttributeError):
            return 0
        return fence if isinstance(fence, int) else 0

    @contextlib.contextmanager
    def mutex(self) -> Iterator[None]:
        depth = getattr(self._held, "depth", 0)
        if depth:  # this thread already holds it: an artifact write and its manifest entry
            self._held.depth = depth + 1
            try:
                yield
            finally:
                self._held.depth = depth
            return
        with self.leases.mutex(self.run_id):
            self._held.depth = 1
            try:
                yield
            finally:
                self._held.depth = 0

    def writing(self) -> contextlib.AbstractContextManager[None]:
        return self.mutex()

    def fence(self, index: dict[str, Any]) -> None:
        """Record the writer's token in the manifest; refuse a writer older than the last."""
        token = self.token
        if token is None:
            return  # not a lease holder: the web process, a recovery pass, a cancel
        self._check_token()
        recorded = index.get("fence")
        if isinstance(recorded, int) and recorded > token:
            raise LeaseLost(
                f"run {self.run_id}: lease lost; the manifest was last written under token "
                f"{recorded}, after this worker's {token}, so this write was refused"
            )
        index["fence"] = token

    def _check_token(self) -> None:
        if self.token is not None:
            self.leases.check(self.run_id, self.token)
