"""What the engine knows of a stage: its name, the artifacts it writes, and its runner."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from research.context import StageContext
from research.store import RunStore
from research.store.readers import MODELS


class StageError(Exception):
    """A stage could not produce valid output. The message is safe to show to users."""


@dataclass
class StageSpec:
    name: str
    # Each file the stage writes under a fixed name, with the model that parses it (None:
    # text). Deep-read's stored pages are recorded in the manifest instead.
    outputs: list[tuple[str, type[BaseModel] | None]]
    # Loads the stage's inputs from the run folder, calls the stage, writes its outputs;
    # returns the counts the manifest and the pages show.
    run: Callable[[RunStore, StageContext], dict[str, Any]]


def outputs(*names: str) -> list[tuple[str, type[BaseModel] | None]]:
    """The files a stage writes, each with the model it must parse as (None: text)."""
    return [(name, MODELS.get(name)) for name in names]
