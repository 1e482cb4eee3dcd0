"""Every answer recorded in ../shared/api-recordings is replayed to its provider by a test
that checks the facts read from it: a recording added there without one fails here."""

from __future__ import annotations

from tests.research.providers.primary import test_recorded_answers, test_recorded_research
from tests.research.providers.primary.recordings import RECORDINGS, needs_recordings

pytestmark = needs_recordings

# Folders that hold no service's answer, and why.
NOT_ANSWERS = {
    "run-pages": "pages written for a whole run, searched as a local corpus beside primary:pypi",
}
BOOKKEEPING = {"_provenance.json"}


def replayed() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for module in (test_recorded_answers, test_recorded_research):
        for service, files in module.REPLAYED.items():
            found.setdefault(service, set()).update(files)
    return found


def recorded() -> dict[str, set[str]]:
    return {
        folder.name: {f.name for f in folder.iterdir() if f.is_file()} - BOOKKEEPING
        for folder in RECORDINGS.iterdir()
        if folder.is_dir() and folder.name not in NOT_ANSWERS
    }


def test_every_recording_is_replayed_to_its_provider():
    tested = replayed()
    missing = sorted(
        f"{service}/{name}"
        for service, names in recorded().items()
        for name in names - tested.get(service, set())
    )

    assert missing == [], f"recordings no test replays: {missing}"


def test_every_replayed_recording_is_there():
    there = recorded()
    phantom = sorted(
        f"{service}/{name}"
        for service, names in replayed().items()
        for name in names - there.get(service, set())
    )

    assert phantom == [], f"tests name recordings that are not in {RECORDINGS}: {phantom}"
