"""GitHub: the option's own repository, and the state of its maintenance as facts."""

from __future__ import annotations

from research.outcomes import Outcome
from research.providers.primary import PrimaryResult, Subject
from tests.research.providers.primary.fakeservices import FakeServices


def facts(result: PrimaryResult) -> dict[str, str]:
    return {fact.attribute: fact.value for fact in result.facts}


def test_the_repository_named_like_the_option_is_found_and_read(
    primary, services: FakeServices
) -> None:
    result = primary("github").lookup(Subject("Flask"))

    assert result.outcome is Outcome.OK
    assert facts(result) == {
        "licence": "BSD-3-Clause",
        "archived": "false",
        "stars": "70123",
        "last_push": "2026-11-18",
        "latest_release": "3.1.2",
        "open_issues": "7",
    }
    record = result.records[0]
    assert record.url == "https://github.com/pallets/flask"
    assert "- pallets/flask licence (SPDX): BSD-3-Clause\n" in record.text
    assert (record.published, record.updated) == ("2010-04-06", "2026-11-18")
    assert result.links == {
        "repository": "https://github.com/pallets/flask",
        "homepage": "https://flask.palletsprojects.com",
    }


def test_a_more_starred_tutorial_or_fork_is_not_taken_for_the_project(
    primary, services: FakeServices
) -> None:
    result = primary("github").lookup(Subject("Flask"))

    assert result.records[0].title == "pallets/flask on GitHub"
    search = services.asked("github")[0]
    assert (search.path, search.query["q"], search.query["sort"]) == (
        "/search/repositories",
        "Flask in:name",
        "stars",
    )


def test_the_latest_release_carries_its_own_date(primary, services: FakeServices) -> None:
    result = primary("github").lookup(Subject("Flask"))

    release = result.facts_about("latest_release")[0]
    assert release.event_date == "2026-08-19"
    assert release.as_of == "2026-11-20"
    assert release.quote == "Latest release of pallets/flask: 3.1.2, published 2026-08-19"
    assert release.source_kind == "registry"
    assert release.record_url == "https://github.com/pallets/flask"


def test_a_known_repository_is_read_without_searching(primary, services: FakeServices) -> None:
    by_name = primary("github").lookup(Subject("Flask", identifier="pallets/flask"))
    by_url = primary("github").lookup(
        Subject("Flask", url="https://github.com/pallets/flask/releases")
    )

    assert by_name.outcome is by_url.outcome is Outcome.OK
    assert not any(r.path.startswith("/search") for r in services.asked("github"))


def test_an_archived_project_that_only_tags_gives_its_highest_final_tag(
    primary, services: FakeServices
) -> None:
    result = primary("github").lookup(Subject("Inkpad", identifier="oldorg/inkpad"))

    assert facts(result)["archived"] == "true"
    release = result.facts_about("latest_release")[0]
    # Listed first is a release candidate; v1.9.0 sorts after v1.10.0 by name.
    assert (release.value, release.event_date) == ("v1.10.0", "2021-02-27")
    assert "(the project publishes no GitHub releases)" in release.quote
    assert "- oldorg/inkpad is archived (read-only)" in result.records[0].text


def test_a_repository_without_a_licence_file_has_no_licence_fact_but_says_why(
    primary, services: FakeServices
) -> None:
    result = primary("github").lookup(Subject("Inkpad", identifier="oldorg/inkpad"))

    assert "licence" not in facts(result)
    assert [(gap.attribute, gap.outcome) for gap in result.gaps] == [("licence", Outcome.NO_HIT)]
    assert "none detected by GitHub" in result.records[0].text


def test_a_licence_github_cannot_name_is_no_spdx_fact(primary, services: FakeServices) -> None:
    result = primary("github").lookup(Subject("thing", identifier="oddlicence/thing"))

    assert "licence" not in facts(result)
    assert "GitHub gives no SPDX id" in result.records[0].text
    assert result.gaps[0].detail == "GitHub does not recognise the licence"


def test_no_repository_with_the_options_name_is_no_hit_saying_what_was_found(
    primary, services: FakeServices
) -> None:
    result = primary("github").lookup(Subject("tutorial"))

    assert result.outcome is Outcome.NO_HIT
    assert result.detail == (
        "GitHub has no repository named 'tutorial' (the search found someone/flask-tutorial)"
    )
    assert result.facts == []


def test_an_unknown_repository_is_no_hit(primary, services: FakeServices) -> None:
    result = primary("github").lookup(Subject("Ghost", identifier="nobody/ghost"))

    assert result.outcome is Outcome.NO_HIT
    assert result.detail == "GitHub has no repository nobody/ghost"


def test_a_release_lookup_that_fails_leaves_a_gap_not_a_failed_repository(
    primary, services: FakeServices
) -> None:
    services.path_modes[("github", "/repos/pallets/flask/releases/latest")] = "error"

    result = primary("github").lookup(Subject("Flask", identifier="pallets/flask"))

    assert result.outcome is Outcome.OK
    assert "latest_release" not in facts(result)
    assert facts(result)["licence"] == "BSD-3-Clause"
    [gap] = result.gaps
    assert (gap.attribute, gap.outcome) == ("latest_release", Outcome.UNAVAILABLE)
    assert "could not look" in gap.detail


def test_a_spent_rate_limit_says_when_it_resets_and_how_to_raise_it(
    primary, services: FakeServices
) -> None:
    services.modes["github"] = "rate-limited"
    github = primary("github")

    first = github.lookup(Subject("Flask", identifier="pallets/flask"))
    second = github.lookup(Subject("React", identifier="facebook/react"))

    assert first.outcome is Outcome.RATE_LIMITED
    assert "API rate limit exceeded" in first.detail
    assert "set GITHUB_TOKEN for a higher limit" in first.detail
    assert second.outcome is Outcome.RATE_LIMITED
    assert second.detail.startswith(
        "not asked: GitHub's rate limit is spent until 2026-11-20T13:00"
    )
    assert len(services.asked("github")) == 1


def test_the_token_is_sent_and_a_rejected_one_is_unauthorized(
    primary, services: FakeServices, settings
) -> None:
    settings.GITHUB_TOKEN = "wrong-token"

    result = primary("github").lookup(Subject("Flask", identifier="pallets/flask"))

    assert result.outcome is Outcome.UNAUTHORIZED
    assert "Bad credentials" in result.detail
    asked = services.asked("github")[0]
    assert asked.headers["x-github-api-version"] == "2022-11-28"
    assert len(services.asked("github")) == 1


def test_a_secondary_rate_limit_is_waited_out_as_asked(
    primary, services: FakeServices, waits: list[float]
) -> None:
    services.modes["github"] = "retry-after"

    result = primary("github").lookup(Subject("Flask", identifier="pallets/flask"))

    assert result.outcome is Outcome.OK
    assert waits and waits[0] >= 2.0
