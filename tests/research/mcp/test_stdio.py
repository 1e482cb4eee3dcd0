"""`manage.py mcp` over stdio, driven by the SDK's client as a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from research import services
from research.artifacts import Question
from research.store import store_for
from tools.bench.question_reading import shaped

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[3]


def test_stdio_server_acts_for_the_named_user(runs_dir):
    ada = get_user_model().objects.create_user("ada", password="x" * 12)
    bob = get_user_model().objects.create_user("bob", password="x" * 12)
    run = services.create_run(
        Question(question="Quillsync vs Loamdb", options=["Quillsync", "Loamdb"], sources=[]),
        owner=ada,
    )
    store_for(run.run_id).write_text("report.md", "# Report\n\nChoose Quillsync.\n")
    services.create_run(Question(question="Theirs vs ours", sources=[]), owner=bob)
    params = StdioServerParameters(
        command=sys.executable,
        args=["manage.py", "mcp", "--user", "ada"],
        cwd=str(ROOT),
        env={
            **os.environ,
            "RUNS_DIR": str(runs_dir),
            "DATABASE_URL": f"sqlite:///{settings.DATABASES['default']['NAME']}",
        },
    )

    async def main():
        async with Client(params, mode="legacy") as client:
            listed = json.loads((await client.read_resource("research://runs")).contents[0].text)
            report = await client.call_tool("get_report", {"run_id": run.run_id})
            tools = {t.name for t in (await client.list_tools()).tools}
            return listed, report, tools

    listed, report, tools = anyio.run(main)
    assert [r["run_id"] for r in listed["runs"]] == [run.run_id]
    assert not report.is_error
    assert "Choose Quillsync" in report.structured_content["markdown"]
    assert {"start_research", "get_run_status", "get_report", "read_dataset"} <= tools


def test_stdout_carries_only_the_protocol_and_logs_go_to_stderr(runs_dir):
    get_user_model().objects.create_superuser("root", password="x" * 12)
    env = {
        **os.environ,
        "RUNS_DIR": str(runs_dir),
        "DATABASE_URL": f"sqlite:///{settings.DATABASES['default']['NAME']}",
        "LOG_LEVEL": "INFO",
    }
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "0"},
        },
    }
    proc = subprocess.run(
        [sys.executable, "manage.py", "mcp"],
        cwd=ROOT,
        env=env,
        input=json.dumps(initialize) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    assert lines, proc.stderr
    messages = [json.loads(line) for line in lines]  # every stdout line is JSON-RPC
    assert messages[0]["id"] == 1
    assert messages[0]["result"]["serverInfo"]["name"] == "verdict"
    assert messages[0]["result"]["serverInfo"]["version"] == "0.1.0"  # pyproject.toml
    assert "MCP on stdio for root" in proc.stderr


@pytest.mark.serial  # it times itself
def test_a_megabyte_question_is_refused_at_once_over_stdio(runs_dir):
    get_user_model().objects.create_user("ada", password="x" * 12)
    params = StdioServerParameters(
        command=sys.executable,
        args=["manage.py", "mcp", "--user", "ada"],
        cwd=str(ROOT),
        env={
            **os.environ,
            "RUNS_DIR": str(runs_dir),
            "DATABASE_URL": f"sqlite:///{settings.DATABASES['default']['NAME']}",
        },
    )
    question = shaped("one clause", 1_000_000)  # read from every character, it took minutes

    async def main():
        async with Client(params, mode="legacy") as client:
            start = time.perf_counter()
            result = await client.call_tool("start_research", {"question": question})
            return result, time.perf_counter() - start

    result, seconds = anyio.run(main)
    assert seconds < 1.0
    assert result.is_error
    assert result.structured_content["errors"] == {"question": ["at most 8000 characters"]}
    assert len(result.model_dump_json()) < 4096
