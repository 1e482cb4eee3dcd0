"""Pages of a run whose files were damaged after they were written: each says which file,
how, and offers re-running the stage that wrote it, instead of answering 500 or showing text
that is no longer there."""

from __future__ import annotations

import hashlib

import pytest
from django.urls import reverse

from research.artifacts import Notes
from research.store import store_for

pytestmark = pytest.mark.django_db


def truncate(run, name: str, keep: int = 40) -> None:
    path = store_for(run.run_id).artifact_path(name)
    path.write_bytes(path.read_bytes()[:keep])


def first_page(run) -> tuple[str, str]:
    source = store_for(run.run_id).read_model("round_3_notes.json", Notes).ok_sources()[0]
    return source.source_id, source.page


def rerun_button(stage: str) -> str:
    return f'<input type="hidden" name="stage" value="{stage}"><button type="submit"'


def test_a_truncated_round_file_makes_the_report_page_name_it_and_offer_its_stage(
    install, ada_client
):
    run = install("en")
    truncate(run, "round_2_filtered.json")

    response = ada_client.get(reverse("web:report", args=[run.run_id]))

    assert response.status_code == 200
    html = response.content.decode()
    assert "A file of this run is damaged" in html
    assert "<code>round_2_filtered.json</code>: its contents no longer match the checksum" in html
    assert rerun_button("filter") in html and "Re-run from filter" in html


def test_a_stored_page_truncated_after_the_fact_is_never_quoted_as_if_whole(install, ada_client):
    run = install("en")
    source_id, page = first_page(run)
    truncate(run, page)

    report = ada_client.get(reverse("web:report", args=[run.run_id])).content.decode()
    viewer = ada_client.get(reverse("web:evidence", args=[run.run_id, source_id]))

    for html in (report, viewer.content.decode()):
        assert f"<code>{page}</code>: its contents no longer match the checksum" in html
        assert rerun_button("deepread") in html and "Re-run from deep-read" in html
    assert viewer.status_code == 200


def test_a_damaged_report_is_not_exported(install, ada_client):
    run = install("en")
    truncate(run, "report.md")

    response = ada_client.get(reverse("web:export", args=[run.run_id]))

    assert response.status_code == 409
    assert "<code>report.md</code>: its contents no longer match" in response.content.decode()


def test_a_corrupt_manifest_of_a_sound_run_is_rebuilt_and_kept_beside_it(install, ada_client):
    run = install("en")
    store = store_for(run.run_id)
    store.path.joinpath("index.json").write_text('{"stages": {"retri')

    html = ada_client.get(reverse("web:report", args=[run.run_id])).content.decode()

    assert "index.json, could not be read (it is not valid JSON" in html
    assert 'id="matrix"' in html
    assert store.path.joinpath("index.json.damaged").read_text() == '{"stages": {"retri'


def test_a_corrupt_manifest_beside_a_damaged_file_makes_the_report_page_offer_to_rebuild_it(
    install, ada_client
):
    run = install("en")
    truncate(run, "round_4_crosscheck.json")
    store_for(run.run_id).path.joinpath("index.json").write_text('{"stages": {"retri')

    html = ada_client.get(reverse("web:report", args=[run.run_id])).content.decode()

    assert "<code>index.json</code>: it is not valid JSON" in html
    assert reverse("web:repair", args=[run.run_id]) in html


def digests(store) -> dict[str, str]:
    """sha256 of every file of the run but its manifest, log and locks."""
    return {
        path.relative_to(store.path).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in store.path.rglob("*")
        if path.is_file() and not path.name.startswith((".", "index.json", "log.jsonl"))
    }


def test_a_finished_run_whose_manifest_was_deleted_shows_its_report_and_says_it_was_rebuilt(
    install, ada_client
):
    run = install("en")
    store = store_for(run.run_id)
    before, listed = digests(store), store.index()["artifacts"]
    store.path.joinpath("index.json").unlink()

    report = ada_client.get(reverse("web:report", args=[run.run_id]))
    export = ada_client.get(reverse("web:export", args=[run.run_id]))

    assert report.status_code == 200
    html = report.content.decode()
    assert "index.json, could not be read (it is missing)" in html
    assert "Verdict rebuilt it from the run&#x27;s files" in html
    assert 'id="matrix"' in html, "the report itself is shown"
    assert export.status_code == 200 and export.content.startswith(b"#")
    assert digests(store) == before
    assert store.index()["artifacts"] == listed


def test_a_finished_run_without_its_decision_names_the_missing_file_and_offers_to_repair(
    install, ada_client
):
    run = install("en")
    store_for(run.run_id).artifact_path("round_5_decision.json").unlink()

    report = ada_client.get(reverse("web:report", args=[run.run_id])).content.decode()
    page = ada_client.get(reverse("web:run", args=[run.run_id])).content.decode()

    assert "appears here once all five stages have finished" not in report
    assert "<code>round_5_decision.json</code>: it is missing" in report
    assert rerun_button("decide") in report and "Re-run from decide" in report
    assert "<code>round_5_decision.json</code>: it is missing" in page
    assert reverse("web:repair", args=[run.run_id]) in page


def test_repairing_a_run_missing_its_manifest_and_its_decision_runs_decide_again(
    install, ada_client, started
):
    run = install("en")
    store = store_for(run.run_id)
    store.path.joinpath("index.json").unlink()
    store.artifact_path("round_5_decision.json").unlink()

    report = ada_client.get(reverse("web:report", args=[run.run_id])).content.decode()
    repaired = ada_client.post(reverse("web:repair", args=[run.run_id]), follow=True)

    assert "<code>index.json</code>: it is missing" in report
    assert reverse("web:repair", args=[run.run_id]) in report
    assert "the run goes on from decide" in repaired.content.decode()
    assert "gone from the server" not in repaired.content.decode()
    assert started == [(run.run_id, "decide")]
