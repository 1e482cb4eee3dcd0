"""Correcting the reader: a claim marked misread or a contradiction marked not real is kept
beside the run, the run is decided again with it, the pages say who corrected what, and it
can be undone. The stored pages never change."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from research.artifacts import Corrections
from research.store import readers, store_for
from tests.research.mcp.clients import call_tool
from tests.runs import a_claim_that_moves_its_cell

pytestmark = pytest.mark.django_db


def a_scored_claim(run_id: str):
    return a_claim_that_moves_its_cell(store_for(run_id))


def cell_of(run_id: str, option: str, dimension: str):
    matrix = readers.decision(store_for(run_id)).matrix
    return next(c for c in matrix if (c.option, c.dimension) == (option, dimension))


def mark(client, run_id: str, **fields):
    data = {"target": "claim", "kind": "not_a_claim", "note": "", "back": "#matrix", **fields}
    return client.post(reverse("web:correct", args=[run_id]), data)


def pages_of(run_id: str) -> dict[str, bytes]:
    folder = store_for(run_id).path / "round_3_pages"
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_a_claim_marked_not_a_claim_leaves_its_cell_and_undo_brings_it_back(install, ada_client):
    run = install("en")
    claim_id, cell = a_scored_claim(run.run_id)
    pages = pages_of(run.run_id)

    response = mark(ada_client, run.run_id, target_id=claim_id, note="a heading, not a judgement")

    assert response.status_code == 302 and response["Location"].endswith("#matrix")
    after = cell_of(run.run_id, cell.option, cell.dimension)
    assert claim_id not in after.claim_ids
    assert after.score != cell.score
    assert pages_of(run.run_id) == pages  # the stored pages are never edited
    [made] = readers.corrections(store_for(run.run_id)).corrections
    assert (made.target_id, made.kind, made.by, made.note) == (
        claim_id,
        "not_a_claim",
        "ada",
        "a heading, not a judgement",
    )
    page = ada_client.get(reverse("web:report", args=[run.run_id])).text
    assert f'data-corrected-away="{claim_id}"' in page
    assert "corrected by ada: not a claim" in page
    markdown = ada_client.get(reverse("web:export", args=[run.run_id])).content.decode()
    assert f"`{claim_id}`: not a claim, corrected by ada on" in markdown

    undo = reverse("web:undo-correction", args=[run.run_id, made.id])
    assert ada_client.post(undo).status_code == 302

    restored = cell_of(run.run_id, cell.option, cell.dimension)
    assert restored.score == cell.score and claim_id in restored.claim_ids
    [undone] = readers.corrections(store_for(run.run_id)).corrections
    assert undone.undone_by == "ada" and undone.undone_at
    markdown = ada_client.get(reverse("web:export", args=[run.run_id])).content.decode()
    assert "undone by ada" in markdown


def test_a_claim_read_on_the_wrong_dimension_moves_to_the_one_named(install, ada_client):
    run = install("en")
    claim_id, cell = a_scored_claim(run.run_id)
    other = next(
        d.name for d in readers.plan(store_for(run.run_id)).dimensions if d.name != cell.dimension
    )

    mark(ada_client, run.run_id, target_id=claim_id, kind="wrong_dimension", value=other)

    assert claim_id not in cell_of(run.run_id, cell.option, cell.dimension).claim_ids
    assert claim_id in cell_of(run.run_id, cell.option, other).claim_ids
    page = ada_client.get(reverse("web:report", args=[run.run_id])).text
    assert f"corrected by ada: wrong dimension (should be: {other})" in page


def test_a_contradiction_marked_not_real_no_longer_counts(install, ada_client):
    run = install("en")
    store = store_for(run.run_id)
    before = readers.decision(store)
    contradiction = readers.crosscheck(store).contradictions[0]

    mark(
        ada_client, run.run_id, target="contradiction", target_id=contradiction.id, kind="not_real"
    )

    after = readers.decision(store)
    # Decided again without it: how sure the decision is, and what it says is missing.
    assert after.assessment != before.assessment
    assert after.missing_information != before.missing_information
    page = ada_client.get(reverse("web:report", args=[run.run_id])).text
    assert f'id="x-{contradiction.id}"' not in page
    assert f'data-corrected-away="{contradiction.id}"' in page
    assert readers.crosscheck(store).contradictions[0] == contradiction  # as read, on disk


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"target_id": "nope"}, "This run has no claim"),
        ({"kind": "not_real"}, "A claim can be marked"),
        ({"kind": "wrong_option", "value": "Nonesuch"}, "is not one of"),
    ],
)
def test_a_correction_that_cannot_be_made_says_why(install, ada_client, fields, message):
    run = install("en")
    claim_id, _ = a_scored_claim(run.run_id)
    response = mark(ada_client, run.run_id, **{"target_id": claim_id, **fields})
    page = ada_client.get(response["Location"]).text
    assert message in page.replace("&#x27;", "'")
    assert readers.corrections(store_for(run.run_id)) == Corrections()


def test_another_user_gets_a_404_and_corrects_nothing(install, ada_client, bob_client):
    run = install("en")
    claim_id, _ = a_scored_claim(run.run_id)
    assert mark(bob_client, run.run_id, target_id=claim_id).status_code == 404
    form = reverse("web:correction-form", args=[run.run_id, claim_id])
    assert bob_client.get(form).status_code == 404
    assert (
        ada_client.get(reverse("web:correction-form", args=[run.run_id, "nope"])).status_code == 404
    )
    mark(ada_client, run.run_id, target_id=claim_id)
    [made] = readers.corrections(store_for(run.run_id)).corrections
    undo = reverse("web:undo-correction", args=[run.run_id, made.id])
    assert bob_client.post(undo).status_code == 404
    assert readers.corrections(store_for(run.run_id)).active() == [made]


def test_mcp_reads_the_corrections_as_a_resource_of_the_run(install, ada, ada_client, bob):
    run = install("en")
    claim_id, _ = a_scored_claim(run.run_id)
    mark(ada_client, run.run_id, target_id=claim_id, kind="wrong_polarity", value="-1")

    read = call_tool(ada, "read_dataset", {"run_id": run.run_id, "name": "corrections.json"})
    [line] = read.structured_content["data"]["corrections"]
    assert (line["target_id"], line["kind"], line["value"], line["by"]) == (
        claim_id,
        "wrong_polarity",
        "-1",
        "ada",
    )
    refused = call_tool(bob, "read_dataset", {"run_id": run.run_id, "name": "corrections.json"})
    assert refused.is_error


def test_quality_exports_corrections_as_labelled_sentences(install, ada_client, tmp_path):
    run = install("en")
    claim_id, _ = a_scored_claim(run.run_id)
    claim = next(c for c in readers.crosscheck(store_for(run.run_id)).claims if c.id == claim_id)
    mark(
        ada_client,
        run.run_id,
        target_id=claim_id,
        kind="wrong_polarity",
        value="-1",
        note="sarcasm",
    )

    out = io.StringIO()
    call_command("quality", corrections=run.run_id, stdout=out)

    [line] = [json.loads(s) for s in out.getvalue().splitlines()]
    assert line["quote"] == claim.quote and line["url"].startswith("http")
    assert (line["option"], line["dimension"], line["polarity"]) == (
        claim.option,
        claim.dimension,
        -1,
    )
    assert (line["run_option"], line["run_dimension"], line["run_polarity"]) == (
        claim.option,
        claim.dimension,
        claim.polarity,
    )
    assert "wrong polarity; sarcasm" in line["why"]


def test_the_evidence_viewer_offers_the_same_correction_and_shows_it(install, ada_client):
    run = install("en")
    claim_id, _ = a_scored_claim(run.run_id)
    claim = next(c for c in readers.crosscheck(store_for(run.run_id)).claims if c.id == claim_id)
    viewer = reverse("web:evidence", args=[run.run_id, claim.source_id])
    page = ada_client.get(viewer).text
    form = reverse("web:correction-form", args=[run.run_id, claim_id])
    assert f'href="{form}"' in page
    assert f'name="target_id" value="{claim_id}"' in ada_client.get(form).text

    mark(ada_client, run.run_id, target_id=claim_id, kind="wrong_option", value="Tessera")

    page = ada_client.get(viewer).text
    assert f'data-corrected="{claim_id}"' in page and "corrected by ada: wrong option" in page


def test_past_the_cap_a_correction_is_refused_and_nothing_changes(install, ada_client, settings):
    settings.CORRECTIONS_PER_RUN = 1
    run = install("en")
    store = store_for(run.run_id)
    first, second = [c.id for c in readers.crosscheck(store).claims[:2]]
    mark(ada_client, run.run_id, target_id=first)
    decided = store.read_bytes("round_5_decision.json")

    response = mark(ada_client, run.run_id, target_id=second)

    page = ada_client.get(response["Location"]).text
    assert "This run already has 1 corrections, the most one run may keep" in page
    assert [c.target_id for c in readers.corrections(store).corrections] == [first]
    assert store.read_bytes("round_5_decision.json") == decided
