"""Every file of a run: listed with size and checksum, shown, downloaded, and nothing else."""

from __future__ import annotations

import hashlib
import json
import re

import pytest

from research.runs import rows
from research.store import store_for
from tests.research.web.conftest import make_run

pytestmark = pytest.mark.django_db


@pytest.fixture
def run(ada):
    run = make_run(ada)
    store = store_for(run.run_id)
    store.write_json("round_0_plan.json", {"question": "Quillsync or Loamdb?", "options": ["a"]})
    store.write_texts(
        {
            "round_3_pages/s1.md": "# Quillsync\n\n<script>alert('x')</script> & more",
            "round_3_pages/s2.md": "# Loamdb\n",
        }
    )
    store.write_text("report.md", "# Report\n\n| a | b |\n|---|---|\n")
    return run


def test_the_listing_names_every_file_with_its_size_and_checksum(ada_client, run):
    store = store_for(run.run_id)
    response = ada_client.get(f"/runs/{run.run_id}/artifacts/")
    assert response.status_code == 200
    for entry in store.index()["artifacts"]:
        assert f"/runs/{run.run_id}/artifacts/view/{entry['name']}" in response.text
        assert f"/runs/{run.run_id}/artifacts/download/{entry['name']}" in response.text
        assert f'title="{entry["sha256"]}"' in response.text
    for record in ("index.json", "log.jsonl"):
        assert f"/artifacts/view/{record}" in response.text
    assert 'Pages read <span class="count">2</span>' in response.text
    assert "The plan: options, dimensions and weights" in response.text


def test_stage_outputs_are_listed_in_pipeline_order_and_pages_by_their_title(ada_client, run):
    store = store_for(run.run_id)
    store.write_json(
        "round_3_notes.json",
        {
            "sources": [
                {
                    "source_id": "s1",
                    "page": "round_3_pages/s1.md",
                    "title": "Quillsync licence FAQ",
                    "site": "quillsync.dev",
                    "status": "OK",
                    "url": "https://quillsync.dev/faq",
                }
            ]
        },
    )
    response = ada_client.get(f"/runs/{run.run_id}/artifacts/")
    names = re.findall(r'class="file-name" href="[^"]+">([^<]+)</a>', response.text)
    assert names[:3] == ["round_0_plan.json", "round_3_notes.json", "report.md"]
    assert "Quillsync licence FAQ · quillsync.dev" in response.text


def test_a_json_file_is_shown_pretty_printed(ada_client, run):
    response = ada_client.get(f"/runs/{run.run_id}/artifacts/view/round_0_plan.json")
    assert response.status_code == 200
    assert "{\n  &quot;question&quot;: &quot;Quillsync or Loamdb?&quot;," in response.text


def test_a_page_is_shown_as_escaped_text(ada_client, run):
    response = ada_client.get(f"/runs/{run.run_id}/artifacts/view/round_3_pages/s1.md")
    assert response.status_code == 200
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; more" in response.text
    assert "<script>alert" not in response.text


def test_the_decision_log_is_shown_as_events(ada_client, run):
    response = ada_client.get(f"/runs/{run.run_id}/artifacts/view/log.jsonl")
    assert response.status_code == 200
    assert '<strong class="log-event">run_created</strong>' in response.text


def test_a_download_is_the_file_as_stored_as_an_attachment(ada_client, run):
    store = store_for(run.run_id)
    response = ada_client.get(f"/runs/{run.run_id}/artifacts/download/round_3_pages/s1.md")
    body = b"".join(response.streaming_content)
    assert response.status_code == 200
    assert body == store.read_bytes("round_3_pages/s1.md")
    assert hashlib.sha256(body).hexdigest() == store.artifact_entry("round_3_pages/s1.md")["sha256"]
    assert response["Content-Disposition"] == f'attachment; filename="{run.run_id}-s1.md"'
    assert response["Content-Type"] == "text/markdown; charset=utf-8"


def test_the_manifest_downloads_as_json(ada_client, run):
    response = ada_client.get(f"/runs/{run.run_id}/artifacts/download/index.json")
    assert response["Content-Type"] == "application/json"
    assert json.loads(b"".join(response.streaming_content))["run_id"] == run.run_id


@pytest.mark.parametrize(
    "name",
    [
        "../../etc/passwd",
        "..%2f..%2fetc%2fpasswd",
        "%2e%2e/%2e%2e/etc/passwd",
        "round_3_pages/../../index.json",
        "round_3_pages/%2e%2e/%2e%2e/index.json",
        "/etc/passwd",
        "%2fetc%2fpasswd",
        "round_3_pages/",
        ".lock",
        ".index.lock",
        "round_9_missing.json",
        "round_3_pages/s1.md%00.json",
    ],
)
@pytest.mark.parametrize("action", ["view", "download"])
def test_a_name_that_is_not_a_file_of_the_run_is_not_found(ada_client, run, name, action):
    response = ada_client.get(f"/runs/{run.run_id}/artifacts/{action}/{name}")
    assert response.status_code == 404


def test_a_file_in_the_folder_that_the_manifest_does_not_list_is_not_served(ada_client, run):
    (store_for(run.run_id).path / "notes.txt").write_text("private", encoding="utf-8")
    response = ada_client.get(f"/runs/{run.run_id}/artifacts/view/notes.txt")
    assert response.status_code == 404


def test_another_runs_files_cannot_be_reached_through_this_run(ada, ada_client, bob, run):
    other = make_run(bob)
    for path in (
        f"../{other.run_id}/index.json",
        f"..%2f{other.run_id}%2findex.json",
        f"round_3_pages/../../{other.run_id}/index.json",
    ):
        response = ada_client.get(f"/runs/{run.run_id}/artifacts/view/{path}")
        assert response.status_code == 404, path


def test_a_file_listed_but_gone_from_disk_is_not_found(ada_client, run):
    store_for(run.run_id).artifact_path("round_3_pages/s2.md").unlink()
    response = ada_client.get(f"/runs/{run.run_id}/artifacts/view/round_3_pages/s2.md")
    assert response.status_code == 404


# --- damaged files ------------------------------------------------------------------------


def test_a_damaged_page_is_flagged_in_the_listing_with_its_stage_to_rerun(ada_client, run):
    rows.mark_run(run.run_id, "done")
    store = store_for(run.run_id)
    store.artifact_path("round_3_pages/s1.md").write_text("# Quill", encoding="utf-8")

    listing = ada_client.get(f"/runs/{run.run_id}/artifacts/").text
    shown = ada_client.get(f"/runs/{run.run_id}/artifacts/view/round_3_pages/s1.md").text

    assert "round_3_pages/s1.md is damaged:</strong> its contents no longer match" in listing
    assert listing.count('<span class="pill st-failed">Damaged</span>') == 1
    for html in (listing, shown):
        assert '<input type="hidden" name="stage" value="deepread">' in html
        assert "Re-run from deep-read" in html
    assert "This file is damaged:</strong> its contents no longer match" in shown


def test_a_corrupt_manifest_lists_what_can_be_shown_and_offers_to_rebuild_it(ada_client, run):
    rows.mark_run(run.run_id, "done")
    store = store_for(run.run_id)
    store.path.joinpath("index.json").write_text('{"stages": {"retrie', encoding="utf-8")

    listing = ada_client.get(f"/runs/{run.run_id}/artifacts/")
    manifest = ada_client.get(f"/runs/{run.run_id}/artifacts/view/index.json")
    page = ada_client.get(f"/runs/{run.run_id}/artifacts/view/round_3_pages/s1.md")

    assert listing.status_code == 200
    assert "The manifest (index.json) is damaged:</strong> it is not valid JSON" in listing.text
    assert f'action="/runs/{run.run_id}/repair/"' in listing.text
    assert "/artifacts/view/log.jsonl" in listing.text
    assert manifest.status_code == 200 and "{&quot;stages&quot;: {&quot;retrie" in manifest.text
    assert page.status_code == 404
