from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["tests.testweb", "tests.processes"]


@pytest.fixture(autouse=True)
def runs_dir(tmp_path: Path, settings) -> Path:
    """Every test writes its runs into its own folder, never into ./runs."""
    path = tmp_path / "runs"
    path.mkdir()
    settings.RUNS_DIR = path
    settings.RETRY_BASE_DELAY = 0.0
    settings.LOCAL_INDEX_DIR = tmp_path / "index"  # corpora's search indexes, never ./var
    return path
