"""The run store: a run's artifacts, manifest and log (run_store) over where they are kept
(backends): a folder's safe files and kernel locks (files), or a bucket's objects (s3) with
fenced Redis leases (leases); what can go wrong (errors), and each artifact read as its
model (readers)."""

from research.names import INDEX, INDEX_LOCK, LOCK, LOG
from research.store.errors import ArtifactDamaged, ManifestDamaged, RunGone, RunLocked, StoreError
from research.store.files import atomic_write, dumps, now_iso
from research.store.run_store import RunStore, run_ids, store_for

__all__ = [
    "INDEX",
    "INDEX_LOCK",
    "LOCK",
    "LOG",
    "ArtifactDamaged",
    "ManifestDamaged",
    "RunGone",
    "RunLocked",
    "RunStore",
    "StoreError",
    "atomic_write",
    "dumps",
    "now_iso",
    "run_ids",
    "store_for",
]
