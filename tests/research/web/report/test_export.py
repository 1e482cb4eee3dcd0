"""Download Markdown: report.md as a UTF-8 attachment whose links work anywhere."""

from __future__ import annotations

import pytest
from django.urls import reverse
from markdown_it import MarkdownIt

from research.artifacts import Notes
from research.store import store_for

pytestmark = pytest.mark.django_db


def download(client, run_id: str):
    return client.get(reverse("web:export", args=[run_id]))


def test_the_export_is_a_utf8_attachment_named_after_the_run(install, ada_client):
    run = install("zh")
    response = download(ada_client, run.run_id)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/markdown; charset=utf-8"
    assert (
        response["Content-Disposition"] == f'attachment; filename="verdict-report-{run.run_id}.md"'
    )
    text = response.content.decode("utf-8")
    assert "决策报告" in text


def test_the_export_parses_as_commonmark_with_working_tables(install, ada_client):
    run = install("en")
    text = download(ada_client, run.run_id).content.decode("utf-8")
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    tables = [t for t in tokens if t.type == "table_open"]
    assert len(tables) >= 3  # dimensions, score matrix, confidence
    cells = [t.content for t in tokens if t.type == "inline" and t.map]
    assert any("Quillsync" in c for c in cells)
    html = MarkdownIt("commonmark").enable("table").render(text)
    assert "<th>Option</th>" in html or "<th>Option" in html


def test_the_export_links_each_extract_to_the_evidence_viewer(install, ada_client):
    run = install("en")
    text = download(ada_client, run.run_id).content.decode("utf-8")
    hrefs = [
        t.attrGet("href")
        for block in MarkdownIt("commonmark").enable("table").parse(text)
        for t in block.children or []
        if t.type == "link_open"
    ]
    assert not [h for h in hrefs if "round_3_pages/" in h]
    assert "](round_3_pages/" not in text
    notes = store_for(run.run_id).read_model("round_3_notes.json", Notes)
    for src in notes.ok_sources():
        url = f"http://testserver/runs/{run.run_id}/evidence/{src.source_id}/"
        assert url in hrefs
        assert ada_client.get(url).status_code == 200


def test_the_run_folder_copy_keeps_its_relative_links(install, ada_client):
    run = install("en")
    download(ada_client, run.run_id)
    assert "](round_3_pages/" in store_for(run.run_id).read_text("report.md")


def test_a_run_without_a_report_cannot_be_downloaded_yet(install, ada_client):
    run = install("en", status="running")
    response = download(ada_client, run.run_id)
    assert response.status_code == 409
    assert "Content-Disposition" not in response
