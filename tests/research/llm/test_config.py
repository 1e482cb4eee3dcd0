"""The LLM settings, each read by a fresh process the way a server starts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

LIMITS = ["MAX_CANDIDATES", "MAX_KEPT", "MAX_PAGES", "MAX_PAGE_CHARS"]


def start(var_dir: Path, names: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("LLM_", "MAX_"))}
    clean.update(VAR_DIR=str(var_dir), DJANGO_SETTINGS_MODULE="research.settings", **env)
    shown = ", ".join(f"{n!r}: settings.{n}" for n in names)
    code = (
        "import django, json; django.setup(); from django.conf import settings; "
        f"print(json.dumps({{{shown}}}))"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=settings.BASE_DIR,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )


def shown(var_dir: Path, names: list[str], **env: str) -> dict:
    proc = start(var_dir, names, **env)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_a_model_reads_as_many_pages_as_the_reader_alone_and_the_limits_still_change(tmp_path):
    defaults = {
        "MAX_CANDIDATES": 50,
        "MAX_KEPT": 30,
        "MAX_PAGES": 30,
        "MAX_PAGE_CHARS": 30_000,
    }
    assert shown(tmp_path, LIMITS) == defaults
    llm = shown(tmp_path, LIMITS, LLM_BASE_URL="http://127.0.0.1:11434/v1", LLM_MODEL="m")
    assert llm == defaults
    chosen = shown(
        tmp_path, LIMITS, LLM_BASE_URL="http://h/v1", LLM_MODEL="m", MAX_KEPT="20", MAX_PAGES="8"
    )
    assert chosen == defaults | {"MAX_KEPT": 20, "MAX_PAGES": 8}


def test_models_per_task_come_from_the_list_and_from_one_variable_per_task(tmp_path):
    got = shown(
        tmp_path,
        ["LLM_STAGE_MODELS", "LLM_BASE_URL"],
        LLM_BASE_URL="http://127.0.0.1:8000/v1/",
        LLM_MODEL="qwen3:32b",
        LLM_STAGE_MODELS="filter=qwen3:8b, deep-read=qwen3:14b",
        LLM_MODEL_FILTER="qwen3:4b",
        LLM_MODEL_DECIDE="deepseek-chat",
    )
    assert got["LLM_STAGE_MODELS"] == {
        "filter": "qwen3:4b",
        "deepread": "qwen3:14b",
        "decide": "deepseek-chat",
    }
    assert got["LLM_BASE_URL"] == "http://127.0.0.1:8000/v1"


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"LLM_BASE_URL": "http://127.0.0.1:11434/v1"}, "LLM_BASE_URL is set but LLM_MODEL is not"),
        (
            {"LLM_BASE_URL": "127.0.0.1:11434", "LLM_MODEL": "m"},
            "LLM_BASE_URL must be an http(s) URL such as http://127.0.0.1:11434/v1",
        ),
        (
            {"LLM_RESPONSE_FORMAT": "xml"},
            "LLM_RESPONSE_FORMAT must be one of auto, json_schema, json_object, got 'xml'",
        ),
        ({"LLM_STAGE_MODELS": "review=m"}, "LLM_STAGE_MODELS: 'review' is not a stage; use plan"),
        ({"LLM_MAX_TOKENS_PER_RUN": "0"}, "LLM_MAX_TOKENS_PER_RUN must be at least 1, got 0"),
    ],
)
def test_a_wrong_llm_setting_stops_the_start_up_and_says_what_to_fix(tmp_path, env, message):
    proc = start(tmp_path, ["LLM_MODEL"], **env)
    assert proc.returncode != 0
    assert message in proc.stderr
