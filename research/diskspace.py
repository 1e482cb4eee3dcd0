"""A full disk under the run folders: noticed, said plainly, and waited out.

When a write fails for want of space (ENOSPC, or EDQUOT for a quota), the stage stops and
its run waits: the database, which lives elsewhere, says "waiting for disk space: no space
left on ...", the run's rows stay queued, and the supervisor sends the stage again once a
write succeeds, without counting the wait as a lost worker. The decision log is never left
with half a line (research.store.RunStore.log).
"""

from __future__ import annotations

import errno

from research.names import stage_label
from research.store import StoreError

FULL = (errno.ENOSPC, errno.EDQUOT)
WAITING = "waiting for disk space"


class DiskFull(StoreError):
    """A stage could not write for want of disk space; its run waits for room."""

    def __init__(self, stage: str, cause: OSError) -> None:
        self.stage = stage
        self.cause = cause
        super().__init__(reason(stage))


def full(exc: BaseException | None) -> OSError | None:
    """The out-of-space error behind `exc` (itself, or what caused it), if there is one."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, OSError) and exc.errno in FULL:
            return exc
        exc = exc.__cause__ or exc.__context__
    return None


def reason(stage: str) -> str:
    """What the run's row says while it waits (the stage's own words follow its id)."""
    return (
        f"{WAITING}: no space left on the disk that holds the run folders, so "
        f"{stage_label(stage)} could not write its files. It goes on by itself once there "
        "is room again."
    )


def is_waiting(error: str) -> bool:
    return f": {WAITING}: " in f": {error}"
