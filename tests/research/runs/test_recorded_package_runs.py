"""A whole run on Luigi, Celery and Pendulum beside three old dated pages, with PyPI
answering as it really did (the recordings in ../shared/api-recordings, served on
127.0.0.1): the records are primary evidence for their own option, dated by their latest
stable release, and their release history decides maintenance."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from research.artifacts import Crosscheck, Decision, Notes
from research.providers.primary import build_primary
from research.store import RunStore
from tests.research.providers.primary.recordings import (
    RECORDINGS,
    RecordedServices,
    needs_recordings,
    pypi_route,
)
from tests.research.providers.primary.world import NOW_EPOCH
from tests.runs import run_question

pytestmark = [pytest.mark.django_db, needs_recordings]

DIMENSIONS = [("licence risk", 1.0), ("maintenance activity", 1.0)]
RECORDS = {
    "Luigi": "https://pypi.org/project/luigi/",
    "Celery": "https://pypi.org/project/celery/",
    "Pendulum": "https://pypi.org/project/pendulum/",
}


@pytest.fixture(scope="module")
def recorded() -> Iterator[RecordedServices]:
    services = RecordedServices().route("pypi", pypi_route()).start()
    yield services
    services.stop()


@pytest.fixture
def run(recorded, settings, tmp_path: Path, allow_loopback, monkeypatch) -> RunStore:
    settings.PRIMARY_URLS = recorded.urls()
    settings.PRIMARY_CACHE_DIR = tmp_path / "primary-cache"
    # PyPI is asked on a fixed day, so the release history's windows do not move with the
    # calendar: 2026-11-20, 714 days after Luigi's last release.
    monkeypatch.setattr(
        "research.runs.runners.retrieve.build_primary",
        lambda name: build_primary(name, clock=lambda: NOW_EPOCH, pace=0),
    )
    pages = tmp_path / "run-pages"
    shutil.copytree(RECORDINGS / "run-pages", pages)
    _, store = run_question(
        "For our data pipelines, choose between Luigi, Celery and Pendulum",
        [f"local:{pages}", "primary:pypi"],
        dimensions=DIMENSIONS,
    )
    return store


def read(store: RunStore, name: str) -> dict:
    return json.loads(store.read_bytes(name))


def test_no_option_with_a_record_is_said_to_lack_a_primary_source(run):
    report = run.read_bytes("report.md").decode("utf-8")
    decision = Decision.model_validate(read(run, "round_5_decision.json"))

    assert "No primary source" not in report
    assert decision.assessment.verifiability > 0


def test_luigis_maintenance_rests_on_its_release_history_not_on_a_2019_blog(run):
    crosscheck = Crosscheck.model_validate(read(run, "round_4_crosscheck.json"))
    decision = Decision.model_validate(read(run, "round_5_decision.json"))
    notes = Notes.model_validate(read(run, "round_3_notes.json"))
    record = next(s for s in notes.sources if s.url == RECORDS["Luigi"])
    cells = {(c.option, c.dimension): c for c in decision.matrix}
    luigi = cells[("Luigi", "maintenance activity")]
    claims = {c.id: c for c in crosscheck.claims}

    said = [claims[i] for i in luigi.claim_ids if claims[i].source_id == record.source_id]
    status = next(c for c in said if c.attribute == "maintenance")
    # No stable release in the 12 months to 2026-11-20, one in the 24: slowing, not dead.
    assert (status.value, status.polarity) == ("slowing", -1)
    assert "0 stable releases in the 12 months to 2026-11-20 and 1 in the 24" in status.quote
    assert luigi.base < 50  # the 2019 "frequent releases" does not outweigh the record
    blog = [c for c in crosscheck.claims if c.option == "Luigi" and "frequent" in c.quote]
    assert blog and all(c.id in luigi.superseded for c in blog if c.attribute == "maintenance")
    # Celery's and Pendulum's records show no release for years: inactive, capped.
    for option in ("Celery", "Pendulum"):
        assert cells[(option, "maintenance activity")].score <= 20


def test_each_record_is_dated_by_its_latest_stable_release_as_of_the_day_asked(run):
    notes = Notes.model_validate(read(run, "round_3_notes.json"))
    report = run.read_bytes("report.md").decode("utf-8")
    latest = {"Luigi": "2024-12-06", "Celery": "2019-12-16", "Pendulum": "2018-07-30"}

    for option, url in RECORDS.items():
        record = next(s for s in notes.sources if s.url == url)
        assert record.updated == latest[option], option
        assert record.date_source == "the PyPI record's own dates, as of 2026-11-20"
        line = next(ln for ln in report.splitlines() if url in ln and "registry" in ln)
        assert f"updated {latest[option]}" in line and "as of 2026-11-20" in line


def test_timeliness_follows_the_records_dates_not_the_day_they_were_fetched(run):
    decision = Decision.model_validate(read(run, "round_5_decision.json"))
    cells = {(c.option, c.dimension): c for c in decision.matrix}

    # Pendulum's record and page are years old: its cells are not "timely" for being asked today.
    pendulum = cells[("Pendulum", "licence risk")]
    assert pendulum.timeliness is not None and pendulum.timeliness <= 20
