"""The run as a graph: each option x dimension's trail, from its sub-queries to the claims
the pages gave it, and where the trail ended when the cell has no evidence."""

from __future__ import annotations

from pathlib import Path

import pytest

from research.runs import execute, manifest, registry
from research.store import readers, store_for
from research.web import plan_graph
from tests.runs import new_run

pytestmark = pytest.mark.django_db


def graph_of(run_id: str) -> plan_graph.Graph:
    graph = plan_graph.build(store_for(run_id))
    assert graph is not None
    return graph


def build(question: str, corpus: Path, owner, *, before_read=None, **fields):
    """A run of `question` over `corpus`, stage by stage; `before_read(store)` runs just
    before the deep-read."""
    run = new_run(question, sources=[f"local:{corpus}"], owner=owner, **fields)
    stage = registry.active_stages()[0]
    while stage is not None:
        if stage == "deepread" and before_read:
            before_read(store_for(run.run_id))
        execute.execute_stage(run.run_id, stage)
        last, stage = stage, registry.next_stage(stage)
    manifest.finish_run(run.run_id, last)
    run.refresh_from_db()
    return run


def test_each_cell_of_a_finished_run_shows_its_queries_pages_and_claims(install):
    run = install("en")
    store = store_for(run.run_id)
    graph = graph_of(run.run_id)
    assert graph.options == ["Quillsync", "Loamdb", "Tessera"]
    assert graph.dimensions == ["licence risk", "maintenance activity", "customisation cost"]
    assert len(graph.cells) == 9
    found = readers.candidates(store)
    claims = readers.crosscheck(store).claims
    kept = {k.id for k in readers.filtered(store).kept}
    for cell in graph.cells:
        assert [q.text for q in cell.queries] == [f"{cell.option} {cell.dimension}"]
        hits = sum(c.hits for c in found.provider_calls if c.query == cell.queries[0].text)
        assert cell.hits == hits > 0
        mine = [
            c.id
            for c in found.candidates
            if c.option == cell.option and c.dimension == cell.dimension
        ]
        assert [p.source_id for p in cell.pages] == mine
        assert {p.source_id for p in cell.pages if p.kept} == kept & set(mine)
        given = [c for c in claims if c.option == cell.option and c.dimension == cell.dimension]
        assert cell.claims == len(given)
        assert set(cell.claims_by_page) == {c.source_id for c in given}
        assert (cell.outcome == plan_graph.EVIDENCE) == bool(given)
    assert graph.cell("Loamdb", "licence risk").outcome == "evidence"
    assert graph.cell("Loamdb", "licence risk").claims_by_page


def test_a_cell_whose_kept_pages_were_read_but_said_nothing_ends_at_nothing_found(install):
    graph = graph_of(install("en_budget").run_id)
    cell = graph.cell("Quillsync", "maintenance activity")
    assert cell.outcome == plan_graph.NOTHING_FOUND
    assert cell.read == 1 and cell.claims == 0
    # Past the reading budget: kept, never opened.
    unread = graph.cell("Quillsync", "customisation cost")
    assert unread.outcome == plan_graph.NOT_READ
    assert [p.read for p in unread.pages] == ["unread"]


def test_a_dimension_no_page_speaks_of_ends_at_no_query_hit(notes_corpus, ada):
    run = build(
        "For our notes app, choose between Zorblat and Quillsync",
        notes_corpus,
        ada,
        dimensions=[{"name": "xylophony", "weight": 1}, {"name": "licence risk", "weight": 1}],
    )
    graph = graph_of(run.run_id)
    cell = graph.cell("Zorblat", "xylophony")
    assert cell.outcome == plan_graph.NO_HIT
    assert cell.hits == 0 and cell.pages == []


def test_a_cell_whose_pages_the_filter_all_dropped_ends_there(notes_corpus, ada):
    run = build(
        "For our notes app, choose between Quillsync, Loamdb and Tessera",
        notes_corpus,
        ada,
        dimensions=[{"name": "licence risk", "weight": 1}, {"name": "maintenance", "weight": 1}],
        limits={"max_kept": 3, "min_kept": 1},
    )
    dropped = [c for c in graph_of(run.run_id).cells if c.outcome == plan_graph.ALL_DROPPED]
    assert dropped
    for cell in dropped:
        assert cell.pages and not any(p.kept for p in cell.pages) and cell.claims == 0


def test_a_cell_whose_kept_pages_could_not_be_read_ends_at_unreadable(notes_corpus, ada):
    def lose_pages(store):
        for kept in readers.filtered(store).kept:
            if kept.local_path:
                (notes_corpus / kept.local_path).unlink(missing_ok=True)

    run = build(
        "For our notes app, choose between Quillsync and Loamdb",
        notes_corpus,
        ada,
        dimensions=[{"name": "licence risk", "weight": 1}],
        before_read=lose_pages,
    )
    graph = graph_of(run.run_id)
    cell = graph.cell("Quillsync", "licence risk")
    assert cell.outcome == plan_graph.UNREADABLE
    assert cell.pages and all(p.read == "failed" for p in cell.pages if p.kept)


def test_the_run_page_draws_the_graph_with_a_table_of_the_same_trails(install, ada_client):
    run = install("en_budget")
    page = ada_client.get(f"/runs/{run.run_id}/").text
    svg = page.split('<svg class="trail-graph"', 1)[1].split("</svg>", 1)[0]
    assert 'role="img"' in svg and "<title" in svg and "<desc" in svg
    assert svg.count('<g class="trail ') == 9
    assert 'data-cell="Quillsync · maintenance activity" data-outcome="nothing_found"' in svg
    assert 'data-cell="Quillsync · customisation cost" data-outcome="not_read"' in svg
    assert "read, nothing found" in svg
    # Hovering a cell's claims names the pages that gave them.
    licence = svg.split('data-cell="Loamdb · licence risk"', 1)[1].split("</g>", 1)[0]
    assert '<g class="claims-from"><title>' in licence and ": 3</title>" in licence
    table = page.split('<details class="graph-table">', 1)[1].split("</details>", 1)[0]
    assert table.count("<tr data-outcome=") == 9
    assert "Quillsync maintenance activity (8)" in table
    assert "kept pages not read (budget)" in table
    assert ' style="' not in page.split("data-plan-graph", 1)[1].split("</section>", 1)[0]


def test_the_graph_of_a_chinese_question_speaks_chinese(install, ada_client):
    run = install("zh")
    page = ada_client.get(f"/runs/{run.run_id}/").text
    assert "运行图" in page
    assert 'data-cell="星轨调度 · 学习曲线" data-outcome="nothing_found"' in page
    assert "读过，但没有找到" in page


def test_a_run_still_before_its_crosscheck_draws_no_graph(ada, ada_client, notes_corpus):
    run = new_run(
        "For our notes app, choose between Quillsync and Loamdb",
        owner=ada,
        sources=[f"local:{notes_corpus}"],
    )
    page = ada_client.get(f"/runs/{run.run_id}/")
    assert page.status_code == 200
    assert "data-plan-graph" not in page.text


def test_another_user_cannot_see_the_graph(install, bob_client):
    run = install("en")
    response = bob_client.get(f"/runs/{run.run_id}/")
    assert response.status_code == 404
    assert "data-plan-graph" not in response.text
