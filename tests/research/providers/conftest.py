from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def local_index_dir(tmp_path_factory: pytest.TempPathFactory, settings) -> Path:
    """Each test keeps its local corpus indexes in a folder of its own, outside var/."""
    path = tmp_path_factory.mktemp("index")
    settings.LOCAL_INDEX_DIR = path
    return path
