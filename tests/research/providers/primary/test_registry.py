"""Providers by name, from the settings; facts that trace to their records; search."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from research.outcomes import Outcome
from research.providers.base import SearchProvider
from research.providers.primary import (
    ANSWERS,
    LABELS,
    NAMES,
    PrimarySearch,
    UnknownPrimarySource,
    build_primary,
    parse_spec,
)
from research.providers.primary.config import DEFAULT_URLS, primary_urls
from tests.research.providers.primary.fakeservices import FakeServices
from tests.research.providers.primary.test_failures import FOUND
from tests.research.test_settings import python

REGISTRIES = {"github", "pypi", "npm", "crates", "wikipedia"}


@pytest.mark.parametrize("name", NAMES)
def test_every_fact_quotes_a_whole_line_of_its_own_record(
    primary, services: FakeServices, name: str
) -> None:
    result = primary(name).lookup(FOUND[name])

    records = {record.url: record for record in result.records}
    for fact in result.facts:
        lines = records[fact.record_url].text.splitlines()
        assert f"- {fact.quote}" in lines, fact
        assert fact.as_of == "2026-11-20"
        assert fact.source_kind == ("registry" if name in REGISTRIES else "primary")
        assert fact.option == FOUND[name].option
        assert fact.attribute in ANSWERS[name]
        assert fact.provider == name
    for record in result.records:
        assert record.retrieved_at == "2026-11-20T12:00:00Z"
        assert f"Record: {record.url}\nRetrieved: 2026-11-20T12:00:00Z from " in record.text
        assert record.api_urls and all(u.startswith(services.base) for u in record.api_urls)


def test_a_record_survives_a_round_trip_as_plain_data(primary, services: FakeServices) -> None:
    result = primary("github").lookup(FOUND["github"])

    record, fact = result.records[0].to_dict(), result.facts[0].to_dict()
    assert record["url"] == "https://github.com/pallets/flask"
    assert isinstance(record["api_urls"], list)
    assert fact["quote"] in record["text"]


@pytest.mark.parametrize(
    ("spec", "name"),
    [
        ("github", "github"),
        ("primary:PyPI", "pypi"),
        (" primary: clinicaltrials ", "clinicaltrials"),
    ],
)
def test_sources_name_providers_like_other_sources(spec: str, name: str) -> None:
    assert parse_spec(spec) == name


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("primary:gitlab", "no primary source named 'gitlab'; use one of github, pypi"),
        ("searxng:github", "is not a primary source; write primary:NAME"),
    ],
)
def test_an_unknown_name_says_which_exist(spec: str, message: str) -> None:
    with pytest.raises(UnknownPrimarySource, match=message):
        parse_spec(spec)


def test_every_name_has_a_label_and_says_what_it_answers() -> None:
    assert set(LABELS) == set(ANSWERS) == set(NAMES)


def test_providers_take_their_addresses_and_limits_from_the_settings(
    services: FakeServices, settings
) -> None:
    settings.PRIMARY_TIMEOUT = 7.0
    settings.PRIMARY_DEADLINE = 9.0
    settings.PRIMARY_MAX_BYTES = 123_456

    pypi = build_primary("primary:pypi")

    assert pypi.client.base_url == f"{services.base}/pypi"
    assert (pypi.client.timeout, pypi.deadline, pypi.client.max_bytes) == (7.0, 9.0, 123_456)
    assert pypi.client.cache.folder == settings.PRIMARY_CACHE_DIR


def test_services_that_ask_for_a_pace_get_it_by_default(services: FakeServices) -> None:
    assert build_primary("arxiv").client.min_interval == 3.0
    assert build_primary("crates").client.min_interval == 1.0
    assert build_primary("pypi").client.min_interval == 0.0


def test_github_sends_a_configured_token_and_otherwise_says_how_to_get_more(
    services: FakeServices, settings
) -> None:
    anonymous = build_primary("github").client
    settings.GITHUB_TOKEN = "ghp_abc"
    with_token = build_primary("github").client

    assert "Authorization" not in anonymous.headers
    assert anonymous.rate_limit_hint == "set GITHUB_TOKEN for a higher limit"
    assert with_token.headers["Authorization"] == "Bearer ghp_abc"
    assert with_token.rate_limit_hint == ""


def test_primary_urls_replace_defaults_one_service_at_a_time() -> None:
    urls = primary_urls({"github": "https://ghe.example.com/api/v3/"})

    assert urls["github"] == "https://ghe.example.com/api/v3"
    assert urls["pypi"] == DEFAULT_URLS["pypi"]


@pytest.mark.parametrize(
    ("pairs", "message"),
    [
        ({"gitlab": "https://gitlab.com"}, "'gitlab' is not a service"),
        ({"pypi": "ftp://mirror.example"}, "pypi='ftp://mirror.example' is not an http"),
    ],
)
def test_bad_primary_urls_stop_start_up_saying_why(pairs: dict, message: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=message):
        primary_urls(pairs)


def test_the_settings_read_primary_variables_from_the_environment(tmp_path) -> None:
    code = (
        "from django.conf import settings as s; "
        "print(s.PRIMARY_URLS['npm'], s.PRIMARY_CACHE_TTL, bool(s.GITHUB_TOKEN))"
    )
    proc = python(
        tmp_path,
        code,
        PRIMARY_URLS="npm=https://npm.mirror.example",
        PRIMARY_CACHE_TTL="60",
        GITHUB_TOKEN="ghp_x",
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["https://npm.mirror.example", "60", "True"]

    broken = python(tmp_path, "pass", PRIMARY_URLS="nuget=https://api.nuget.org")
    assert broken.returncode != 0
    assert "PRIMARY_URLS: 'nuget' is not a service" in broken.stderr


# --- search -----------------------------------------------------------------------------------


def test_a_search_service_serves_as_a_search_provider(primary, services: FakeServices) -> None:
    search: SearchProvider = PrimarySearch(primary("europepmc"))

    result = search.search("semaglutide cardiovascular", 2)

    assert search.name == "primary:europepmc"
    assert result.outcome is Outcome.OK
    first = result.hits[0]
    assert first.url == "https://europepmc.org/article/MED/27633186"
    assert first.published == "2016-09-15"
    assert "hazard ratio, 0.74" in first.snippet
    stored = search.record_for(first.url)
    assert stored is not None and stored.text.startswith("# Semaglutide and Cardiovascular")


def test_a_search_without_results_or_service_passes_its_outcome_on(
    primary, services: FakeServices
) -> None:
    search = PrimarySearch(primary("clinicaltrials"))
    nothing = search.search("quillnotamab", 5)
    services.modes["clinicaltrials"] = "error"
    broken = search.search("semaglutide", 5)

    assert nothing.outcome is Outcome.NO_HIT
    assert broken.outcome is Outcome.UNAVAILABLE
    assert "HTTP 500" in broken.detail


def test_fact_providers_are_not_search_services(primary, services: FakeServices) -> None:
    with pytest.raises(UnknownPrimarySource, match="github is not a search service"):
        PrimarySearch(primary("github"))
