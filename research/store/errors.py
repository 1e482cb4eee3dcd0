"""What can go wrong with a run folder, each saying what to do about it."""

from __future__ import annotations

from research.names import INDEX, artifact_stage, stage_label


class StoreError(Exception):
    """A run folder or artifact name that cannot be used."""


class RunLocked(StoreError):
    """Another live process holds this run's lock."""


class ArtifactDamaged(StoreError):
    """A file of the run is not what was written: it no longer matches the sha256 the
    manifest recorded for it, it is missing, or it cannot be read. The message names the
    file and the stage that wrote it, which re-running repairs."""

    def __init__(self, name: str, problem: str) -> None:
        self.name = name
        self.problem = problem
        self.stage = artifact_stage(name)
        repair = (
            f" Re-run from {stage_label(self.stage)} to write it again."
            if self.stage
            else " Resuming the run rebuilds it from the files that are still sound."
        )
        super().__init__(f"{name} is damaged: {problem}.{repair}")


class ManifestDamaged(ArtifactDamaged, ValueError):
    """index.json cannot be read as a manifest."""

    def __init__(self, problem: str) -> None:
        super().__init__(INDEX, problem)


class RunGone(StoreError):
    """The run folder, or its manifest, is not there: deleted while the run was going, or
    never completed (the process creating it stopped before it wrote index.json)."""


class LeaseLost(RunLocked):
    """A worker's lease on a run ran out and a later worker took the run: what the first
    one still writes is refused, so it cannot overwrite the later one's work."""


class StoreUnavailable(StoreError, OSError):
    """The bucket or the Redis that holds the runs' leases cannot be reached."""
