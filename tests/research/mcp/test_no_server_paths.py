"""A run over a configured local folder and over a person's own documents, read from another
process as an MCP client over HTTP, and in the browser: nothing it is shown names a folder
on the server, the uploads folder or the person's user id. Local documents are named by
their source and their place in its folder (local://notes/loamdb.html), or by title."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from research import uploads
from research.models import ApiToken
from research.questions import Submission
from research.services import submit_question
from research.store import store_for
from tests.processes import ThreadedServer
from tests.runs import CORPUS_EN, drive

pytestmark = pytest.mark.django_db(transaction=True)

USER_ID = 48213  # distinctive, so that finding it anywhere means it leaked

# Runs in its own process: an MCP client somewhere else, with nothing but the URL and a token.
CLIENT = """
import json, sys
import anyio
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

url, secret, run_id = sys.argv[1:4]

async def main():
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {secret}"})
    said = []
    async with Client(streamable_http_client(f"{url}/mcp", http_client=http), mode="legacy") as s:
        for resource in (await s.list_resources()).resources:
            uri = str(resource.uri)
            if run_id in uri:
                said.append({"uri": uri, "text": (await s.read_resource(uri)).contents[0].text})
        calls = [
            ("search_engine_query", {"query": "Quillsync licence", "source": "notes"}),
            ("search_engine_query", {"query": "Quillsync sync", "source": ""}),
            ("list_sources", {}),
            ("get_run_status", {"run_id": run_id}),
            ("get_report", {"run_id": run_id}),
            ("read_dataset", {"run_id": run_id, "name": "round_1_candidates.json"}),
        ]
        for name, arguments in calls:
            result = await s.call_tool(name, arguments)
            texts = [c.text for c in result.content if hasattr(c, "text")]
            said.append({"tool": name, "structured": result.structured_content, "text": texts})
    print(json.dumps(said, ensure_ascii=False))

anyio.run(main)
"""


@pytest.fixture
def cleo(db, fast_passwords):
    return get_user_model().objects.create_user("cleo", password="pw", id=USER_ID)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """The notes corpus without its canonical links: each page is known by its file only."""
    copied = Path(shutil.copytree(CORPUS_EN, tmp_path / "srv" / "private-notes"))
    for page in copied.glob("*.html"):
        html = page.read_text(encoding="utf-8")
        page.write_text(re.sub(r'<link rel="canonical"[^>]*>', "", html), encoding="utf-8")
    return copied


@pytest.fixture
def finished_run(cleo, folder, settings, tmp_path):
    settings.SOURCES = {"notes": f"local:{folder}"}
    settings.DEFAULT_SOURCES = ["notes"]
    settings.VAR_DIR = tmp_path / "var"
    uploads.save(
        cleo,
        "team-notes.md",
        b"# Team notes on Quillsync\n\nQuillsync is released under the MIT License, and "
        b"Quillsync syncs offline. Loamdb costs more to run than Quillsync.\n",
    )
    question = "For our notes app, choose between Quillsync, Loamdb and Tessera"
    run = submit_question(
        cleo, Submission(question=question, sources=["notes", "mine"]), enqueue=False
    )
    drive(run.run_id)
    run.refresh_from_db()
    assert run.status == "done", run.error
    return run


def leaks(text: str, tmp_path: Path) -> list[str]:
    found = [str(tmp_path), "var/uploads", "private-notes", "file:", str(USER_ID)]
    return [needle for needle in found if needle in text]


def test_an_mcp_client_elsewhere_is_told_no_server_path_or_user_id(finished_run, cleo, tmp_path):
    from research.asgi import application

    _, secret = ApiToken.issue(cleo, "laptop")
    server = ThreadedServer(application, lifespan="on")
    url = server.start()
    try:
        answered = subprocess.run(
            [sys.executable, "-c", CLIENT, url, secret, finished_run.run_id],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        ).stdout
    finally:
        server.stop()
    said = json.loads(answered)
    read = {s["uri"].rpartition("/")[2] for s in said if "uri" in s}
    assert {"index.json", "round_1_candidates.json", "round_3_notes.json", "report.md"} <= read
    assert any(s["uri"].endswith(".md") and "round_3_pages" in s["uri"] for s in said if "uri" in s)
    assert leaks(answered, tmp_path) == []

    index = json.loads(next(s["text"] for s in said if s.get("uri", "").endswith("index.json")))
    assert index["params"]["sources"] == ["local://notes", "local://mine"]
    searched = next(s for s in said if s.get("tool") == "search_engine_query")["structured"]
    hits = searched["results"]
    assert hits and all(h["url"].startswith("local://notes/") for h in hits)
    assert all(h["title"] and h["source"] == "notes" for h in hits)


def test_the_web_pages_and_the_export_show_no_server_path_or_user_id(finished_run, cleo, tmp_path):
    browser = Client()
    browser.force_login(cleo)
    run_id = finished_run.run_id
    store = store_for(run_id)
    names = ["index.json", "log.jsonl", *store.artifact_names()]
    pages = [
        reverse("web:run", args=[run_id]),
        reverse("web:report", args=[run_id]),
        reverse("web:export", args=[run_id]),
        reverse("web:artifacts", args=[run_id]),
        *(reverse("web:artifact", args=[run_id, name]) for name in names),
        *(reverse("web:download", args=[run_id, name]) for name in names),
    ]
    for page in pages:
        answer = browser.get(page)
        assert answer.status_code == 200, page
        text = b"".join(answer.streaming_content if answer.streaming else [answer.content])
        assert leaks(text.decode(), tmp_path) == [], page
    candidates = store.read_json("round_1_candidates.json")["candidates"]
    assert any(c["url"] == "local://mine/team-notes.md" for c in candidates)
