"""Pages of a run whose files were damaged after they were written: each says which file,
how, and offers re-running the stage that wrote it, instead of answering 500 or showing text
that is no longer there."""

from __future__ import annotations

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


def test_a_corrupt_manifest_makes_the_report_page_offer_to_rebuild_it(install, ada_client):
    run = install("en")
    store_for(run.run_id).path.joinpath("index.json").write_text('{"stages": {"retri')

    html = ada_client.get(reverse("web:report", args=[run.run_id])).content.decode()

    assert "<code>index.json</code>: it is not valid JSON" in html
    assert reverse("web:repair", args=[run.run_id]) in html
