"""A local folder's files are named as the pages name them (title, kind, date), never by
their path on the server: in the report page, the evidence viewer and the Markdown export."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from django.urls import reverse

from research.artifacts import Notes
from research.store import store_for
from tests.runs import CORPUS_EN, run_question

pytestmark = pytest.mark.django_db


@pytest.fixture
def folder_run(ada, tmp_path: Path):
    """The notes corpus without its canonical links: each page's address is its file."""
    folder = tmp_path / "private-notes"
    shutil.copytree(CORPUS_EN, folder)
    for page in folder.glob("*.html"):
        html = page.read_text(encoding="utf-8")
        page.write_text(re.sub(r'<link rel="canonical"[^>]*>', "", html), encoding="utf-8")
    run, store = run_question(
        "For our notes app, choose between Quillsync, Loamdb and Tessera", [f"local:{folder}"]
    )
    run.owner = ada
    run.save(update_fields=["owner"])
    assert any(
        s.url.startswith("local://private-notes/")
        for s in store.read_model("round_3_notes.json", Notes).ok_sources()
    )
    return run, folder


def test_the_export_names_local_files_by_title_never_by_path(folder_run, ada_client):
    run, folder = folder_run
    text = ada_client.get(reverse("web:export", args=[run.run_id])).content.decode()
    notes = store_for(run.run_id).read_model("round_3_notes.json", Notes)
    assert str(folder) not in text and "file:" not in text
    for src in notes.ok_sources():
        assert src.title in text


def test_the_report_page_and_the_viewer_show_no_server_path(folder_run, ada_client):
    run, folder = folder_run
    page = ada_client.get(reverse("web:report", args=[run.run_id])).content.decode()
    assert str(folder) not in page
    src = store_for(run.run_id).read_model("round_3_notes.json", Notes).ok_sources()[0]
    viewer = ada_client.get(reverse("web:evidence", args=[run.run_id, src.source_id]))
    assert str(folder) not in viewer.content.decode()
    assert src.title in viewer.content.decode()
