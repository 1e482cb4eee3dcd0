"""The providers read the answers the services really sent (recorded by other public
projects, in ../shared/api-recordings) and state the right facts from them."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from research.outcomes import Outcome
from research.providers.primary import PrimaryProvider, PrimaryResult, Subject, build_primary
from tests.research.providers.primary.recordings import (
    JSON,
    PYPI,
    Asked,
    RecordedServices,
    Reply,
    file_route,
    needs_recordings,
    pypi_route,
    recording,
)
from tests.research.providers.primary.world import NOW_EPOCH

pytestmark = needs_recordings

NPM = {
    "/lodash": "lodash.json",
    "/node-forge": "node-forge.json",
    "/@opentelemetry/api": "opentelemetry-api.json",
    "/is-stream": "is-stream.json",
    "/@types/jquery": "types_jquery.json",
    "/react-dom": "peer_dependency_deprecated.json",
}
CRATES = {
    "/crates/regex": "regex.json",
    "/crates/time": "time.json",
    "/crates/es-entity": "package_fetcher.json",
}
GITHUB = {
    "/repos/PyGithub/PyGithub": "repos_PyGithub_PyGithub.json",
    "/repos/PyGithub/PyGithub/tags": "repos_PyGithub_PyGithub_tags.json",
    "/repos/PyGithub/PyGithub/commits/f5f9756a1dd52a53820cc54927abb34725377987": (
        "repos_PyGithub_PyGithub_commits_f5f9756.json"
    ),
    "/repos/rickrickston123/RepoTest": "repos_rickrickston123_RepoTest.json",
    "/repos/rickrickston123/RepoTest/releases/latest": (
        "repos_rickrickston123_RepoTest_releases_latest.json"
    ),
    "/repos/twbs/bootstrap": "repos_twbs_bootstrap.json",
    "/repos/stellarcarbon/sorocarbon": "repos_stellarcarbon_sorocarbon.json",
    "/repos/jacquev6/PyGithub": "repos_jacquev6_PyGithub_old.json",
    "/search/repositories": "search_repositories_github_python.json",
    "/repositories/112116543": "repositories_112116543.json",  # where a 301 points
}

GITHUB_404 = {"/repos/jacquev6/Xxx": "repos_jacquev6_Xxx_404.json"}
GITHUB_MOVED = "repos_protoncoin_protoncoin_301.json"


def github_moved(asked: Asked) -> Reply | None:
    """GitHub's 301 for a renamed repository, pointing (here, locally) at its new address."""
    if asked.path != "/repos/protoncoin/protoncoin":
        return None
    moved_to = {"Location": "/github/repositories/112116543"}
    return 301, JSON, recording("github", GITHUB_MOVED), moved_to


# Which recording each test reads: the suite fails when a recording has none
# (test_every_recording_is_replayed).
REPLAYED = {
    "pypi": set(PYPI.values()),
    "npm": set(NPM.values()),
    "crates": {*CRATES.values(), "not_found.json"},
    "github": {*GITHUB.values(), *GITHUB_404.values(), GITHUB_MOVED},
    "europepmc": {"search_cancer_core.json"},
}


def crates_not_found(asked: Asked) -> Reply | None:
    if asked.path.startswith("/crates/"):
        return 404, JSON, recording("crates", "not_found.json")
    return None


@pytest.fixture(scope="module")
def recorded() -> Iterator[RecordedServices]:
    services = (
        RecordedServices()
        .route("pypi", pypi_route())
        .route("npm", file_route("npm", NPM))
        .route("crates", file_route("crates", CRATES))
        .route("crates", crates_not_found)
        .route("github", file_route("github", GITHUB))
        .route("github", file_route("github", GITHUB_404, status=404))
        .route("github", github_moved)
        .route("europepmc", file_route("europepmc", {"/search": "search_cancer_core.json"}))
        .start()
    )
    yield services
    services.stop()


@pytest.fixture
def provider(recorded, settings, tmp_path) -> Iterator[Callable[[str], PrimaryProvider]]:
    settings.PRIMARY_URLS = recorded.urls()
    settings.PRIMARY_CACHE_DIR = tmp_path / "primary-cache"
    settings.GITHUB_TOKEN = ""
    built: list[PrimaryProvider] = []

    def make(name: str) -> PrimaryProvider:
        made = build_primary(name, sleep=lambda _: None, clock=lambda: NOW_EPOCH, pace=0)
        built.append(made)
        return made

    yield make
    for made in built:
        made.close()


def facts(result: PrimaryResult) -> dict[str, str]:
    return {fact.attribute: fact.value for fact in result.facts}


PYPI_FACTS = {
    "luigi": ("3.6.0", "2024-12-06", "Apache License 2.0", "0 in 12 months, 1 in 24 months"),
    "celery": ("4.4.0", "2019-12-16", "BSD", "0 in 12 months, 0 in 24 months"),
    "pendulum": ("2.0.3", "2018-07-30", "MIT", "0 in 12 months, 0 in 24 months"),
    "psycopg2": ("2.6.2", "2016-07-07", "LGPL with exceptions or ZPL", "0 in 12 months, 0 in"),
}


@pytest.mark.parametrize("name", PYPI_FACTS)
def test_pypi_reads_each_recorded_package_dated_by_its_latest_stable_release(provider, name):
    version, day, licence, history = PYPI_FACTS[name]
    result = provider("pypi").lookup(Subject(name))

    assert result.outcome is Outcome.OK
    found = facts(result)
    assert (found["latest_release"], found["licence"]) == (version, licence)
    assert found["release_history"].startswith(history)
    assert result.records[0].updated == day  # the record's date: its latest stable release


def test_pypi_counts_no_release_candidate_toward_celerys_history(provider):
    result = provider("pypi").lookup(Subject("celery"))

    # 4.4.0rc1-rc5 came between 4.3.0 and 4.4.0; the usual gap is between stable releases.
    assert "the last, 4.4.0, came out 2019-12-16" in result.facts_about("release_history")[0].quote


NPM_FACTS = {
    "lodash": ("4.17.21", "MIT", "2021-02-20"),
    "node-forge": ("1.3.1", "(BSD-3-Clause OR GPL-2.0)", "2022-03-30"),
    "@opentelemetry/api": ("1.0.4", "Apache-2.0", "2021-12-22"),
    "is-stream": ("3.0.0", "MIT", "2021-08-10"),
    "@types/jquery": ("3.5.14", "MIT", "2022-02-24"),
    "react-dom": ("16.3.1", "MIT", "2018-04-04"),
}


@pytest.mark.parametrize("name", NPM_FACTS)
def test_npm_reads_each_recorded_package(provider, name):
    version, licence, day = NPM_FACTS[name]
    result = provider("npm").lookup(Subject(name, identifier=name))

    assert result.outcome is Outcome.OK
    assert (facts(result)["latest_release"], facts(result)["licence"]) == (version, licence)
    assert result.records[0].updated == day


def test_npm_leaves_previews_and_the_next_tag_out_of_opentelemetrys_history(provider):
    result = provider("npm").lookup(Subject("@opentelemetry/api", identifier="@opentelemetry/api"))

    history = result.facts_about("release_history")[0]
    # 1.1.0 (`next`) came after 1.0.4, and 21 of the 54 versions are previews.
    assert "the last, 1.0.4, came out 2021-12-22" in history.quote
    assert history.value.endswith("usual gap 13 days")


def test_npm_reads_a_deprecated_package_as_deprecated(provider):
    result = provider("npm").lookup(Subject("react-dom", identifier="react-dom"))

    assert facts(result)["deprecated"] == "true"


CRATES_FACTS = {
    "regex": ("1.0.0", "MIT/Apache-2.0", "2018-05-01"),
    "time": ("0.1.40", "MIT/Apache-2.0", "2018-05-10"),
    "es-entity": ("0.3.23", "Apache-2.0", None),
}


@pytest.mark.parametrize("name", CRATES_FACTS)
def test_crates_reads_each_recorded_crate(provider, name):
    version, licence, day = CRATES_FACTS[name]
    result = provider("crates").lookup(Subject(name))

    assert result.outcome is Outcome.OK
    assert (facts(result)["latest_release"], facts(result)["licence"]) == (version, licence)
    if day:
        assert result.records[0].updated == day


def test_crates_says_found_nothing_for_its_recorded_not_found(provider):
    result = provider("crates").lookup(Subject("no-such-crate"))

    assert result.outcome is Outcome.NO_HIT


GITHUB_FACTS = {
    "PyGithub/PyGithub": {"licence": "LGPL-3.0", "last_push": "2026-04-14", "stars": "7701"},
    "rickrickston123/RepoTest": {"latest_release": "v1.0", "last_push": "2020-07-14"},
    "twbs/bootstrap": {"licence": "MIT", "stars": "171281", "last_push": "2025-01-30"},
    "stellarcarbon/sorocarbon": {"licence": "MIT", "stars": "1"},
    "jacquev6/PyGithub": {"last_push": "2012-05-19"},
}


@pytest.mark.parametrize("name", GITHUB_FACTS)
def test_github_reads_each_recorded_repository(provider, name):
    result = provider("github").lookup(Subject(name.split("/")[1], identifier=name))

    assert result.outcome is Outcome.OK
    assert GITHUB_FACTS[name].items() <= facts(result).items()
    assert result.records[0].title == f"{name} on GitHub"  # even without `full_name`


def test_github_says_one_star_not_one_stars(provider):
    result = provider("github").lookup(Subject("sorocarbon", identifier="stellarcarbon/sorocarbon"))

    assert result.facts_about("stars")[0].quote.startswith("stellarcarbon/sorocarbon has 1 star ")


def test_github_says_found_nothing_for_its_recorded_not_found(provider):
    result = provider("github").lookup(Subject("Xxx", identifier="jacquev6/Xxx"))

    assert result.outcome is Outcome.NO_HIT


def test_github_follows_a_renamed_repository_to_its_new_name(provider):
    result = provider("github").lookup(Subject("protoncoin", identifier="protoncoin/protoncoin"))

    assert result.outcome is Outcome.OK
    assert result.records[0].title == "padima2/protoncoin on GitHub"
    assert result.records[0].url == "https://github.com/padima2/protoncoin"
    assert {"licence": "MIT", "last_push": "2018-03-31"}.items() <= facts(result).items()


def test_europe_pmc_links_free_to_read_full_text_and_open_access_apart(provider):
    result = provider("europepmc").lookup(Subject("", query="cancer", limit=6))

    assert result.outcome is Outcome.OK
    free = {f.record_url for f in result.facts_about("free_full_text")}
    open_access = {f.record_url for f in result.facts_about("open_access_full_text")}
    # 39709208 is free to read ("F"); 40437959 is open access ("OA").
    assert "https://europepmc.org/article/MED/39709208" in free
    assert "https://europepmc.org/article/MED/40437959" in open_access
    assert not free & open_access
