"""The short on-disk cache: a second ask is read from disk, an old entry is asked again."""

from __future__ import annotations

import json
from pathlib import Path

from research.outcomes import Outcome
from research.providers.http import Call
from research.providers.primary import Subject
from research.providers.primary.cache import ResponseCache, request_key
from research.providers.primary.client import ApiClient
from tests.research.providers.primary.fakeservices import FakeServices
from tests.research.providers.primary.world import NOW_EPOCH
from tests.testweb import TestWeb

TTL = 3600


def cached_client(base: str, folder: Path, now: list[float], **options: object) -> ApiClient:
    cache = ResponseCache(folder, TTL, clock=lambda: now[0])
    return ApiClient(
        "test",
        "Testservice",
        base,
        user_agent="VerdictTest/1",
        base_delay=0.0,
        cache=cache,
        clock=lambda: now[0],
        **options,  # type: ignore[arg-type]
    )


def get(api: ApiClient, path: str = "api/thing"):
    call = Call.within_seconds(5)
    with call.active():
        return api.get(path, {"q": "x"}, call=call)


def test_a_second_ask_is_answered_from_disk(testweb: TestWeb, tmp_path: Path) -> None:
    testweb.add_json("/api/thing", {"version": "1.0"})
    now = [NOW_EPOCH]
    api = cached_client(testweb.base, tmp_path, now)

    first = get(api)
    now[0] += 600
    second = get(api)

    assert (first.from_cache, second.from_cache) == (False, True)
    assert second.data == {"version": "1.0"}
    assert second.fetched_at == NOW_EPOCH, "a cached answer keeps the time it was retrieved"
    assert len(testweb.requests) == 1


def test_an_expired_entry_is_asked_again(testweb: TestWeb, tmp_path: Path) -> None:
    testweb.add_json("/api/thing", {"version": "1.0"})
    now = [NOW_EPOCH]
    api = cached_client(testweb.base, tmp_path, now)

    get(api)
    testweb.add_json("/api/thing", {"version": "2.0"})
    now[0] += TTL + 1
    again = get(api)

    assert again.data == {"version": "2.0"}
    assert not again.from_cache
    assert len(testweb.requests) == 2


def test_found_nothing_is_remembered_too(testweb: TestWeb, tmp_path: Path) -> None:
    api = cached_client(testweb.base, tmp_path, [NOW_EPOCH])

    first = get(api, "api/missing")
    second = get(api, "api/missing")

    assert (first.outcome, second.outcome) == (Outcome.NO_HIT, Outcome.NO_HIT)
    assert second.from_cache
    assert len(testweb.requests) == 1


def test_failures_and_malformed_answers_are_not_cached(testweb: TestWeb, tmp_path: Path) -> None:
    testweb.add("/api/thing", '{"version": ', content_type="application/json")
    api = cached_client(testweb.base, tmp_path, [NOW_EPOCH], tries=1)

    get(api)
    testweb.add_json("/api/thing", {"version": "1.0"})
    repaired = get(api)

    assert repaired.outcome is Outcome.OK
    assert not repaired.from_cache


def test_a_damaged_entry_is_ignored_and_replaced(testweb: TestWeb, tmp_path: Path) -> None:
    testweb.add_json("/api/thing", {"version": "1.0"})
    api = cached_client(testweb.base, tmp_path, [NOW_EPOCH])
    get(api)
    for entry in tmp_path.rglob("*.json"):
        entry.write_text("{not json", encoding="utf-8")

    answer = get(api)

    assert answer.outcome is Outcome.OK and not answer.from_cache
    assert len(testweb.requests) == 2


def test_the_key_is_the_request_whatever_the_parameter_order() -> None:
    assert request_key("s", "https://x.org/a?b=1&a=2") == request_key(
        "s", "https://x.org/a?a=2&b=1"
    )
    assert request_key("s", "https://x.org/a?a=2") != request_key("s", "https://x.org/a?a=3")
    assert request_key("s", "https://x.org/a") != request_key("t", "https://x.org/a")


def test_a_ttl_of_zero_keeps_nothing(testweb: TestWeb, tmp_path: Path) -> None:
    testweb.add_json("/api/thing", {"version": "1.0"})
    cache = ResponseCache(tmp_path / "cache", 0)
    api = ApiClient("test", "Testservice", testweb.base, user_agent="t", cache=cache)

    get(api)
    get(api)

    assert len(testweb.requests) == 2
    assert not (tmp_path / "cache").exists()


def test_a_provider_asked_twice_asks_the_service_once(primary, services: FakeServices) -> None:
    github = primary("github")

    first = github.lookup(Subject("Flask", identifier="pallets/flask"))
    second = github.lookup(Subject("Flask", identifier="pallets/flask"))

    assert first.facts == second.facts
    assert first.records[0].text == second.records[0].text
    assert len(services.asked("github")) == 2, "the repository and its latest release, once"


def test_the_github_token_is_sent_but_never_written_to_disk(
    primary, services: FakeServices, settings, primary_cache: Path
) -> None:
    settings.GITHUB_TOKEN = "ghp_secret123"

    primary("github").lookup(Subject("Flask", identifier="pallets/flask"))

    assert services.asked("github")[0].headers["authorization"] == "Bearer ghp_secret123"
    stored = [json.loads(p.read_text(encoding="utf-8")) for p in primary_cache.rglob("*.json")]
    assert len(stored) == 2
    assert not any("ghp_secret123" in json.dumps(entry) for entry in stored)
