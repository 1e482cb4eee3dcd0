"""Whole runs that ask primary sources: GitHub for three open-source projects, and
ClinicalTrials.gov and Europe PMC for three drugs, answered by the local fake services, beside
a local folder of dated pages."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from research.artifacts import Crosscheck, Decision, Notes, Plan
from research.models import Run
from research.store import RunStore, store_for
from tests.research.providers.primary import world, world_research
from tests.research.providers.primary.fakeservices import FakeServices
from tests.runs import drive, new_run, run_question

pytestmark = pytest.mark.django_db

DIMENSIONS = [("licence risk", 1.0), ("maintenance activity", 1.0), ("customisation cost", 1.0)]


@pytest.fixture
def services(settings, tmp_path: Path, allow_loopback, monkeypatch) -> Iterator[FakeServices]:
    fake = FakeServices().start()
    settings.PRIMARY_URLS = fake.urls()
    settings.PRIMARY_TIMEOUT = 5.0
    settings.PRIMARY_DEADLINE = 5.0
    settings.PRIMARY_CACHE_DIR = tmp_path / "primary-cache"
    settings.GITHUB_TOKEN = ""
    yield fake
    fake.stop()


def page(folder: Path, name: str, date: str | None, title: str, body: str) -> None:
    dated = f"date: {date}\n" if date else ""
    url = f"https://blog.example.net/{name}"
    text = f"---\ntitle: {title}\nurl: {url}\n{dated}---\n\n# {title}\n\n{body}\n"
    (folder / f"{name}.md").write_text(text, encoding="utf-8")


def read(store: RunStore, name: str) -> dict:
    return json.loads(store.read_bytes(name))


# --- three open-source projects -----------------------------------------------------------


@pytest.fixture
def projects(monkeypatch, services) -> None:
    repos = {
        "quill/quillsync": world.github_repo(
            "quill/quillsync", spdx="MIT", stars=4_200, pushed=world.days_ago(3)
        ),
        "loam/loamdb": world.github_repo(
            "loam/loamdb",
            spdx="BUSL-1.1",
            licence_name="Business Source License 1.1",
            stars=9_800,
            pushed=world.days_ago(6),
        ),
        "tessera-labs/tessera": world.github_repo(
            "tessera-labs/tessera",
            spdx="Apache-2.0",
            archived=True,
            stars=1_300,
            pushed="2022-05-02T08:00:00Z",
        ),
    }
    releases = {
        "quill/quillsync": {"tag_name": "v3.4.0", "published_at": world.days_ago(20)},
        "loam/loamdb": {"tag_name": "v2.1.0", "published_at": world.days_ago(40)},
        "tessera-labs/tessera": {"tag_name": "v0.9.2", "published_at": "2022-04-28T10:00:00Z"},
    }
    for name, repo in repos.items():
        monkeypatch.setitem(world.GITHUB_REPOS, name, repo)
        monkeypatch.setitem(world.GITHUB_RELEASES, name, releases[name])


@pytest.fixture
def project_pages(tmp_path: Path) -> Path:
    folder = tmp_path / "projects"
    folder.mkdir()
    page(
        folder,
        "notes-apps-2023",
        "2023-01-10",
        "Local-first notes engines compared",
        "Loamdb is released under the MIT License, so licence risk is low. "
        "Tessera is actively maintained, with regular releases. "
        "Quillsync has a plugin API that keeps customisation cost low.",
    )
    page(
        folder,
        "quillsync-review",
        "2026-10-02",
        "Quillsync review",
        "Quillsync is open source under the MIT License. "
        "Quillsync is actively maintained and ships a release every month. "
        "Customising Quillsync is cheap thanks to its plugin system.",
    )
    page(
        folder,
        "loamdb-notes",
        "2025-03-15",
        "Loamdb in production",
        "Loamdb is actively maintained by a funded team. "
        "Customisation cost for Loamdb is high: its extension API is closed.",
    )
    page(
        folder,
        "tessera-guide",
        None,
        "Tessera setup guide",
        "Tessera customisation is cheap: every part of it is a plugin. "
        "Tessera is open source under the Apache License 2.0.",
    )
    return folder


@pytest.fixture
def project_run(projects, project_pages) -> RunStore:
    _, store = run_question(
        "For our local-first notes app, choose between Quillsync, Loamdb and Tessera",
        [f"local:{project_pages}", "primary:github"],
        dimensions=DIMENSIONS,
    )
    return store


def test_the_plan_says_what_github_was_asked_about_each_project_and_what_it_answered(
    project_run,
):
    plan = Plan.model_validate(read(project_run, "round_0_plan.json"))
    asked = {(a.provider, a.option): a for a in plan.primary}
    assert set(asked) == {("github", o) for o in ("Quillsync", "Loamdb", "Tessera")}
    for ask in asked.values():
        assert ask.answer == "found" and ask.records == 1 and ask.facts >= 4
        assert "licence" in ask.asks and "latest_release" in ask.asks
        assert ask.dimensions == ["licence risk", "maintenance activity"]  # not customisation


def test_each_github_answer_is_a_stored_page_whose_facts_quote_its_lines(project_run):
    notes = Notes.model_validate(read(project_run, "round_3_notes.json"))
    records = [s for s in notes.sources if s.kind == "registry"]
    assert {s.url for s in records} == {
        "https://github.com/quill/quillsync",
        "https://github.com/loam/loamdb",
        "https://github.com/tessera-labs/tessera",
    }
    pushed = {
        "https://github.com/quill/quillsync": world.days_ago(3)[:10],
        "https://github.com/loam/loamdb": world.days_ago(6)[:10],
        "https://github.com/tessera-labs/tessera": "2022-05-02",
    }
    for src in records:
        stored = project_run.read_bytes(src.page).decode("utf-8")
        # Dated by what the record says (its last push), as of the day it was retrieved.
        assert src.updated == pushed[src.url]
        assert "record's own dates, as of" in (src.date_source or "")
        for fact in src.facts:
            assert stored[fact.offset : fact.offset + len(fact.quote)] == fact.quote


def test_licence_and_maintenance_cells_rest_on_the_registry_facts(project_run):
    crosscheck = Crosscheck.model_validate(read(project_run, "round_4_crosscheck.json"))
    decision = Decision.model_validate(read(project_run, "round_5_decision.json"))
    by_id = {c.id: c for c in crosscheck.claims}
    cells = {(c.option, c.dimension): c for c in decision.matrix}

    def registry_claims(option: str, dimension: str) -> list:
        cell = cells[(option, dimension)]
        return [by_id[i] for i in cell.claim_ids if by_id[i].source_kind == "registry"]

    loamdb_licence = registry_claims("Loamdb", "licence risk")
    assert [(c.attribute, c.value, c.polarity) for c in loamdb_licence] == [("licence", "BSL", -1)]
    assert loamdb_licence[0].date  # the day the record states it
    assert cells[("Loamdb", "licence risk")].base < 50  # source-available, whatever 2023 said
    assert cells[("Quillsync", "licence risk")].base > 75
    tessera = cells[("Tessera", "maintenance activity")]
    assert tessera.capped_by in {c.id for c in registry_claims("Tessera", "maintenance activity")}
    assert tessera.score <= 20  # archived on GitHub, whatever the 2023 blog says
    assert cells[("Quillsync", "maintenance activity")].base > 75


def test_a_stale_blog_that_contradicts_the_registry_is_superseded(project_run):
    crosscheck = Crosscheck.model_validate(read(project_run, "round_4_crosscheck.json"))
    decision = Decision.model_validate(read(project_run, "round_5_decision.json"))
    by_id = {c.id: c for c in crosscheck.claims}
    settled = {
        (x.option, x.attribute): x
        for x in crosscheck.contradictions
        if x.cause == "time" and x.current and by_id[x.current].source_kind == "registry"
    }
    assert ("Loamdb", "licence") in settled
    assert ("Tessera", "maintenance") in settled
    blog = settled[("Loamdb", "licence")]
    stale = blog.b if blog.a.claim_id == blog.current else blog.a
    assert "released under the MIT License" in stale.quote
    cell = {(c.option, c.dimension): c for c in decision.matrix}[("Loamdb", "licence risk")]
    assert stale.claim_id in cell.superseded
    report = project_run.read_bytes("report.md").decode("utf-8")
    assert "superseded by a later source" in report


def test_the_report_cites_the_records_with_their_dates(project_run):
    report = project_run.read_bytes("report.md").decode("utf-8")
    notes = Notes.model_validate(read(project_run, "round_3_notes.json"))
    for src in notes.sources:
        if src.kind == "registry":
            line = next(ln for ln in report.splitlines() if src.url in ln and "registry" in ln)
            assert f"updated {src.updated}" in line and "own dates, as of" in line
    assert "loam/loamdb licence (SPDX): BUSL-1.1" in report  # a record line, quoted


def test_timeliness_follows_the_dates_of_the_pages(project_run):
    decision = Decision.model_validate(read(project_run, "round_5_decision.json"))
    crosscheck = Crosscheck.model_validate(read(project_run, "round_4_crosscheck.json"))
    notes = Notes.model_validate(read(project_run, "round_3_notes.json"))
    dated = {s.source_id: s for s in notes.sources}
    assert dated  # every page has its date and where it came from, or says it has none
    blog = next(s for s in notes.sources if s.url.endswith("notes-apps-2023"))
    assert (blog.published, blog.date_source) == ("2023-01-10", "front matter 'date'")
    guide = next(s for s in notes.sources if s.url.endswith("tessera-guide"))
    assert guide.published is None and guide.date_source is None
    by_id = {c.id: c for c in crosscheck.claims}
    values = {
        c.timeliness
        for c in decision.matrix
        if not c.missing and c.dimension == "customisation cost"
    }
    assert len(values) > 1  # pages of 2026, of 2023 and undated do not score alike
    cost = {c.option: c for c in decision.matrix if c.dimension == "customisation cost"}
    sources = {by_id[i].source_id for i in cost["Tessera"].claim_ids}
    assert sources == {guide.source_id} and cost["Tessera"].timeliness == 50.0


def test_the_run_page_says_what_each_primary_source_answered(project_run, client, ada):
    Run.objects.filter(run_id=project_run.run_id).update(owner=ada)
    client.force_login(ada)
    html = client.get(f"/runs/{project_run.run_id}/").content.decode("utf-8")
    assert "Primary sources asked" in html
    assert html.count('data-answer="found"') == 3
    assert "repositories (GitHub)" in html


def test_github_out_of_reach_is_could_not_look_and_the_run_still_reports(
    projects, project_pages, services
):
    services.modes["github"] = "error"
    _, store = run_question(
        "For our local-first notes app, choose between Quillsync, Loamdb and Tessera",
        [f"local:{project_pages}", "primary:github"],
        dimensions=DIMENSIONS,
    )
    plan = Plan.model_validate(read(store, "round_0_plan.json"))
    assert {a.answer for a in plan.primary} == {"could not look"}
    notes = Notes.model_validate(read(store, "round_3_notes.json"))
    assert not any(s.kind for s in notes.sources)
    assert store.read_bytes("report.md")


# --- three drugs ---------------------------------------------------------------------------


def trial_results(drug: str, ratio: str, low: str, high: str) -> dict:
    results = copy.deepcopy(world_research.SUSTAIN6_RESULTS)
    measure = results["outcomeMeasuresModule"]["outcomeMeasures"][0]
    measure["groups"][0]["title"] = drug.title()
    measure["analyses"][0].update(paramValue=ratio, ciLowerLimit=low, ciUpperLimit=high)
    return results


@pytest.fixture
def drugs(monkeypatch, services) -> None:
    studies = [
        world_research.study(
            "NCT09000001",
            "Cardiovascular Outcomes With Veltaglutide",
            "veltaglutide",
            results=trial_results("veltaglutide", "0.74", "0.58", "0.95"),
        ),
        world_research.study(
            "NCT09000002",
            "Cardiovascular Outcomes With Corvaflozin",
            "corvaflozin",
            results=trial_results("corvaflozin", "0.98", "0.89", "1.08"),
        ),
        world_research.study(
            "NCT09000003", "Sitavarin Safety Study", "sitavarin", status="RECRUITING"
        ),
    ]
    monkeypatch.setattr(world_research, "STUDIES", studies)
    monkeypatch.setattr(world_research, "EUROPEPMC", [])


@pytest.fixture
def drug_pages(tmp_path: Path) -> Path:
    folder = tmp_path / "drugs"
    folder.mkdir()
    page(
        folder,
        "diabetes-options",
        "2026-09-01",
        "Second-line options for type 2 diabetes",
        "Veltaglutide costs about $900 a month without insurance. "
        "Corvaflozin is cheap as a generic, at about $40 a month. "
        "Sitavarin is well tolerated and its safety record is good.",
    )
    return folder


def test_a_clinical_question_asks_the_trial_registry_and_rests_its_trial_cells_on_it(
    drugs, drug_pages
):
    run = new_run(
        "For type 2 diabetes after metformin, choose between Veltaglutide, Corvaflozin "
        "and Sitavarin",
        sources=[f"local:{drug_pages}"],
        preset="clinical",
    )
    drive(run.run_id)
    store = store_for(run.run_id)
    plan = Plan.model_validate(read(store, "round_0_plan.json"))
    answers = {(a.provider, a.option): a.answer for a in plan.primary}
    assert answers[("clinicaltrials", "Veltaglutide")] == "found"
    assert answers[("europepmc", "Veltaglutide")] == "found nothing"
    crosscheck = Crosscheck.model_validate(read(store, "round_4_crosscheck.json"))
    decision = Decision.model_validate(read(store, "round_5_decision.json"))
    by_id = {c.id: c for c in crosscheck.claims}
    cells = {(c.option, c.dimension): c for c in decision.matrix}
    velta = cells[("Veltaglutide", "trial results")]
    results = [by_id[i] for i in velta.claim_ids if by_id[i].attribute == "trial_primary_result"]
    assert results and results[0].source_kind == "primary" and results[0].polarity == 1
    assert results[0].date == "2017-04-12"  # when the results were posted
    corva = cells[("Corvaflozin", "trial results")]
    assert not corva.missing and corva.base < velta.base  # an interval across 1 favours nothing
    report = store.read_bytes("report.md").decode("utf-8")
    assert "clinicaltrials.gov" in report.lower() and "Hazard Ratio (HR) 0.74" in report
