from __future__ import annotations

from pathlib import Path

import pytest

from research.artifacts import STAGES
from research.context import StageContext
from research.llm import client
from research.store import RunStore
from tests.llm_stub import llm_settings, llm_stub  # noqa: F401  (fixtures)


@pytest.fixture(autouse=True)
def fresh_format_memory(monkeypatch) -> None:
    """Which endpoints refused json_schema is remembered per process; each test starts new."""
    monkeypatch.setattr(client, "_JSON_OBJECT_ONLY", set())
    monkeypatch.setattr(client, "_REASONING_PARAMETERS", set())


@pytest.fixture
def store(tmp_path: Path) -> RunStore:
    run = RunStore(tmp_path / "runs", "run-llm")
    run.create({"question": "Alderstream or Brightwell?"}, STAGES)
    return run


@pytest.fixture
def ctx(store: RunStore) -> StageContext:
    return StageContext(log=store.log)
