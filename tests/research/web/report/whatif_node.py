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
    return node_call("rank(a.model, a.weights)", model, weights)


def node_to_win(model: dict, weights: list[float]) -> dict | None:
    """The script's smallest change of one weight that lets the runner-up win."""
    return node_call("toWin(a.model, a.weights, w.rank(a.model, a.weights))", model, weights)


def node_recommend(model: dict, weights: list[float]) -> dict:
    """The script's recommendation under `weights`: {option, why, top, over}."""
    return node_call("recommend(a.model, w.rank(a.model, a.weights), a.weights)", model, weights)


def node_call(expression: str, model: dict, weights: list[float]):
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip("Node.js is not installed (apt-get install nodejs)")
    program = (
        f"const w = require({json.dumps(str(SCRIPT))});"
        "let input = ''; process.stdin.on('data', d => input += d);"
        "process.stdin.on('end', () => { const a = JSON.parse(input);"
        f" process.stdout.write(JSON.stringify(w.{expression})); }});"
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
