"""Every provider, against every way a service fails: always a typed outcome, never a
crash, and "could not look" never passes for "found nothing"."""

from __future__ import annotations

import time

import pytest

from research.outcomes import Outcome
from research.providers.primary import NAMES, Subject
from tests.research.providers.primary.fakeservices import FakeServices

FOUND = {
    "github": Subject("Flask", identifier="pallets/flask"),
    "pypi": Subject("Flask"),
    "npm": Subject("React"),
    "crates": Subject("serde"),
    "wikipedia": Subject("Vue.js"),
    "arxiv": Subject("XGBoost", query="LightGBM"),
    "europepmc": Subject("semaglutide"),
    "clinicaltrials": Subject("semaglutide"),
}
NOTHING = {
    "github": Subject("Ghost", identifier="nobody/ghost"),
    "pypi": Subject("Quillnote"),
    "npm": Subject("Quillnote"),
    "crates": Subject("Quillnote"),
    "wikipedia": Subject("Quillnote"),
    "arxiv": Subject("Quillnote"),
    "europepmc": Subject("quillnotamab"),
    "clinicaltrials": Subject("quillnotamab"),
}
SERVICES = {"wikipedia": ("wikipedia-en", "wikipedia-zh", "wikidata")}
MODES = {
    "hang": Outcome.TIMEOUT,
    "error": Outcome.UNAVAILABLE,
    "malformed": Outcome.UNAVAILABLE,
    "wrong-shape": Outcome.UNAVAILABLE,
    "rate-limited": Outcome.RATE_LIMITED,
}


def test_every_provider_is_covered() -> None:
    assert set(FOUND) == set(NOTHING) == set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_each_provider_finds_its_record(primary, services: FakeServices, name: str) -> None:
    result = primary(name).lookup(FOUND[name])

    assert result.outcome is Outcome.OK
    assert result.records and result.facts


@pytest.mark.parametrize("name", NAMES)
def test_found_nothing_is_no_hit_with_nothing_made_up(
    primary, services: FakeServices, name: str
) -> None:
    result = primary(name).lookup(NOTHING[name])

    assert result.outcome is Outcome.NO_HIT
    assert result.outcome.looked
    assert (result.records, result.facts) == ([], [])
    assert result.detail


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", NAMES)
def test_a_failing_service_is_could_not_look_never_a_crash(
    primary, services: FakeServices, settings, name: str, mode: str
) -> None:
    settings.PRIMARY_DEADLINE = 0.5
    for service in SERVICES.get(name, (name,)):
        services.modes[service] = mode
    started = time.monotonic()

    result = primary(name).lookup(FOUND[name])

    assert result.outcome is MODES[mode], result.detail
    assert not result.outcome.looked, "could not look is not found nothing"
    assert (result.records, result.facts) == ([], [])
    assert result.detail
    assert time.monotonic() - started < 3.0, "the lookup ends by its deadline"


@pytest.mark.parametrize("name", NAMES)
def test_a_service_that_fails_once_is_asked_again(
    primary, services: FakeServices, name: str
) -> None:
    for service in SERVICES.get(name, (name,)):
        services.modes[service] = "flaky"

    result = primary(name).lookup(FOUND[name])

    assert result.outcome is Outcome.OK


@pytest.mark.parametrize(
    ("name", "subject"),
    [
        ("github", Subject("Flask")),
        ("arxiv", FOUND["arxiv"]),
        ("europepmc", FOUND["europepmc"]),
        ("clinicaltrials", FOUND["clinicaltrials"]),
        ("wikipedia", Subject("Vue", identifier="Q24589705")),
    ],
)
def test_a_search_at_a_wrong_address_could_not_look_rather_than_found_nothing(
    primary, services: FakeServices, settings, name: str, subject: Subject
) -> None:
    service = "wikidata" if name == "wikipedia" else name
    settings.PRIMARY_URLS = {**services.urls(), service: f"{services.base}/moved-away"}

    result = primary(name).lookup(subject)

    assert result.outcome is Outcome.UNAVAILABLE
    assert "HTTP 404" in result.detail and "is its address right?" in result.detail
