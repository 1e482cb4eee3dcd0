"""Runs the report page's what-if script (static/js/whatif.js) under Node, so tests can hold
its numbers to the decide stage's."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings

SCRIPT = Path(settings.BASE_DIR) / "static" / "js" / "whatif.js"


def node_rank(model: dict, weights: list[float]) -> list[dict]:
    """The script's ranking of `model`'s options under `weights`."""
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip("Node.js is not installed (apt-get install nodejs)")
    program = (
        f"const w = require({json.dumps(str(SCRIPT))});"
        "let input = ''; process.stdin.on('data', d => input += d);"
        "process.stdin.on('end', () => { const a = JSON.parse(input);"
        " process.stdout.write(JSON.stringify(w.rank(a.model, a.weights))); });"
    )
    done = subprocess.run(
        [node, "-e", program],
        input=json.dumps({"model": model, "weights": weights}),
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return json.loads(done.stdout)
