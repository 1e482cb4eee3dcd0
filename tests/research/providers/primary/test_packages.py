"""The Python, JavaScript and Rust package indexes: latest version, cadence, licence."""

from __future__ import annotations

from research.outcomes import Outcome
from research.providers.primary import PrimaryResult, Subject
from research.providers.primary.releases import name_candidates
from tests.research.providers.primary.fakeservices import FakeServices


def facts(result: PrimaryResult) -> dict[str, str]:
    return {fact.attribute: fact.value for fact in result.facts}


def quote(result: PrimaryResult, attribute: str) -> str:
    return result.facts_about(attribute)[0].quote


# --- PyPI -------------------------------------------------------------------------------------


def test_pypi_gives_the_latest_version_its_date_the_cadence_and_the_licence(
    primary, services: FakeServices
) -> None:
    result = primary("pypi").lookup(Subject("Flask"))

    assert result.outcome is Outcome.OK
    assert facts(result) == {
        "latest_release": "3.1.2",
        "release_cadence": "3 in 12 months, median gap 120 days",
        "release_history": "3 in 12 months, 4 in 24 months, last 93 days, usual gap 120 days",
        "licence": "BSD-3-Clause",
    }
    assert result.facts_about("latest_release")[0].event_date == "2026-08-19"
    assert quote(result, "licence") == "Flask licence (licence expression): BSD-3-Clause"
    assert result.records[0].url == "https://pypi.org/project/Flask/"
    assert services.asked("pypi")[0].path == "/pypi/flask/json"


def test_pypi_releases_without_files_or_with_every_file_yanked_do_not_count(
    primary, services: FakeServices
) -> None:
    result = primary("pypi").lookup(Subject("Flask"))

    # 3.1.0, 3.1.1 and 3.1.2 in the year; 3.1.1rc1 is a preview, 3.1.1.post1 was yanked,
    # 0.1 has no files.
    assert quote(result, "release_cadence") == (
        "Flask had 3 releases in the 12 months to 2026-11-20; "
        "median gap between releases 120 days (last 3 gaps)"
    )
    assert result.records[0].published == "2025-07-08", "the first upload, not the empty 0.1"


def test_pypi_links_the_source_repository_for_the_next_lookup(
    primary, services: FakeServices
) -> None:
    result = primary("pypi").lookup(Subject("Flask"))

    assert result.links["repository"] == "https://github.com/pallets/flask/"


def test_pypi_tries_the_name_run_together_when_the_hyphenated_one_is_missing(
    primary, services: FakeServices
) -> None:
    result = primary("pypi").lookup(Subject("Django REST framework"))

    assert result.outcome is Outcome.OK
    assert [asked.path for asked in services.asked("pypi")] == [
        "/pypi/django-rest-framework/json",
        "/pypi/djangorestframework/json",
    ]
    assert facts(result)["licence"] == "BSD"


def test_pypi_reads_the_licence_classifier_when_the_field_holds_the_whole_text(
    primary, services: FakeServices
) -> None:
    result = primary("pypi").lookup(Subject("oldlib"))

    assert quote(result, "licence") == "oldlib licence (classifier): MIT License"
    assert facts(result)["release_cadence"] == "0 in 12 months, median gap 481 days"


def test_pypi_takes_the_name_from_a_project_url(primary, services: FakeServices) -> None:
    result = primary("pypi").lookup(
        Subject("the microframework", url="https://pypi.org/project/Flask/3.1.2/")
    )

    assert result.outcome is Outcome.OK
    assert [asked.path for asked in services.asked("pypi")] == ["/pypi/Flask/json"]


def test_pypi_has_no_such_package(primary, services: FakeServices) -> None:
    result = primary("pypi").lookup(Subject("Quillnote"))

    assert result.outcome is Outcome.NO_HIT
    assert result.detail == "PyPI has no package named 'Quillnote'"


def test_names_to_try_keep_an_identifier_alone() -> None:
    assert name_candidates("Django REST framework") == [
        "django-rest-framework",
        "djangorestframework",
    ]
    assert name_candidates("Flask") == ["flask"]
    assert name_candidates("anything", "exact-name") == ["exact-name"]


# --- npm ----------------------------------------------------------------------------------------


def test_npm_gives_the_latest_tag_not_the_next_one(primary, services: FakeServices) -> None:
    result = primary("npm").lookup(Subject("React"))

    assert facts(result) == {
        "latest_release": "19.2.0",
        "release_cadence": "4 in 12 months, median gap 90 days",
        "release_history": "4 in 12 months, 5 in 24 months, last 40 days, usual gap 90 days",
        "licence": "MIT",
    }
    assert result.facts_about("latest_release")[0].event_date == "2026-10-11"
    assert result.records[0].url == "https://www.npmjs.com/package/react"
    assert result.links["repository"] == "https://github.com/facebook/react"


def test_npm_says_when_the_latest_version_is_deprecated(primary, services: FakeServices) -> None:
    result = primary("npm").lookup(Subject("request"))

    assert quote(result, "deprecated") == (
        "request 2.88.2 is deprecated on npm: request has been deprecated, "
        "see https://github.com/request/request/issues/3142"
    )
    assert facts(result)["licence"] == "Apache-2.0", "the old {type: ...} form"
    assert facts(result)["release_cadence"].startswith("0 in 12 months")


def test_npm_asks_for_a_scoped_package_with_its_slash_encoded(
    primary, services: FakeServices
) -> None:
    result = primary("npm").lookup(
        Subject("Vue reactivity", url="https://www.npmjs.com/package/@vue/reactivity")
    )

    assert result.outcome is Outcome.OK
    assert services.asked("npm")[0].raw_path == "/npm/@vue%2Freactivity"
    assert facts(result)["latest_release"] == "3.5.13"


def test_an_npm_document_past_the_cap_still_gives_the_latest_version(
    primary, services: FakeServices, settings
) -> None:
    settings.PRIMARY_MAX_BYTES = 100_000

    result = primary("npm").lookup(Subject("TypeScript"))

    assert result.outcome is Outcome.OK
    assert facts(result) == {"latest_release": "5.9.3", "licence": "Apache-2.0"}
    [gap] = result.gaps
    assert (gap.attribute, gap.outcome) == ("release_cadence", Outcome.BLOCKED)
    assert "more than 100,000 bytes (PRIMARY_MAX_BYTES)" in gap.detail
    assert [asked.path for asked in services.asked("npm")] == ["/typescript", "/typescript/latest"]


def test_npm_has_no_such_package(primary, services: FakeServices) -> None:
    assert primary("npm").lookup(Subject("Quillnote")).outcome is Outcome.NO_HIT


# --- crates.io ----------------------------------------------------------------------------------


def test_crates_gives_the_highest_stable_version_and_skips_yanked_ones(
    primary, services: FakeServices
) -> None:
    result = primary("crates").lookup(Subject("Serde"))

    assert facts(result) == {
        "latest_release": "1.0.228",
        "release_cadence": "2 in 12 months, median gap 185 days",  # not the 1.0.229 alpha
        "release_history": "2 in 12 months, 3 in 24 months, last 50 days, usual gap 185 days",
        "licence": "MIT OR Apache-2.0",
    }
    assert result.facts_about("latest_release")[0].event_date == "2026-10-01"
    assert result.records[0].url == "https://crates.io/crates/serde"
    assert services.asked("crates")[0].headers["user-agent"].startswith("VerdictBot")


def test_crates_reads_the_versions_when_the_crate_answer_leaves_them_out(
    primary, services: FakeServices
) -> None:
    result = primary("crates").lookup(Subject("tokio"))

    assert facts(result)["latest_release"] == "1.48.0"
    assert facts(result)["licence"] == "MIT"
    assert [asked.path for asked in services.asked("crates")] == [
        "/crates/tokio",
        "/crates/tokio/versions",
    ]
    assert len(result.records[0].api_urls) == 2


def test_crates_has_no_such_crate(primary, services: FakeServices) -> None:
    result = primary("crates").lookup(Subject("Quillnote"))

    assert result.outcome is Outcome.NO_HIT
    assert result.detail == "crates.io has no crate named 'Quillnote'"
