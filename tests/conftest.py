from __future__ import annotations

pytest_plugins = ["tests.testweb"]

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def runs_dir(tmp_path: Path, settings) -> Path:
    """Every test writes its runs into its own folder, never into ./runs."""
    path = tmp_path / "runs"
    path.mkdir()
    settings.RUNS_DIR = path
    settings.RETRY_BASE_DELAY = 0.0
    return path
