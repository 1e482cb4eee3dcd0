"""crates.io's API: GET /api/v1/crates/<name>, and /versions when the crate's answer does
not carry its versions.

The latest version is `max_stable_version` (else `newest_version`); its licence is the
SPDX expression of that version. Yanked versions do not count toward the cadence.
crates.io asks crawlers for at most one request a second and a User-Agent that says who
is asking: both are kept (see the registry).
"""

from __future__ import annotations

import datetime as dt
from urllib.parse import quote

from research.outcomes import Outcome
from research.providers.http import Call
from research.providers.primary.base import (
    ApiProvider,
    flag,
    gap,
    items,
    obj,
    require_dict,
    text,
)
from research.providers.primary.client import ApiAnswer
from research.providers.primary.dates import iso_day, to_date
from research.providers.primary.records import Gap, PrimaryResult, Subject
from research.providers.primary.releases import (
    first_answer,
    name_in_url,
    semver_stable,
    write_latest,
    write_licence,
    write_releases,
)

VERSIONS_PER_PAGE = 100


def name_from_url(url: str) -> str:
    """'https://crates.io/crates/serde_json' -> 'serde_json'."""
    return name_in_url(url, "crates.io", "crates")


class CratesProvider(ApiProvider):
    name = "crates"
    label = "crates.io"
    service = "the crates.io API"
    source_kind = "registry"

    def _lookup(self, subject: Subject, call: Call) -> PrimaryResult:
        # Crate names are ASCII words joined by - or _, which crates.io treats as one.
        _, answer = first_answer(
            self.client, call, subject, name_from_url, lambda n: f"crates/{quote(n, safe='')}"
        )
        if answer is None:
            return self.result(subject, Outcome.NO_HIT, detail="no crate name to look for")
        if not answer.ok:
            return self.failed(subject, answer, f"crate named {subject.option!r}")
        data = require_dict(answer.data, "the crate")
        crate = obj(data, "crate")
        name = text(crate, "name") or text(crate, "id")
        if not name:
            return self.result(subject, Outcome.UNAVAILABLE, detail="crates.io named no crate")
        versions, gaps, urls = self._versions(name, data, call)
        return self._result(subject, answer, crate, versions, gaps, (answer.url, *urls))

    def _versions(
        self, name: str, data: dict, call: Call
    ) -> tuple[list[dict], list[Gap], tuple[str, ...]]:
        versions = [entry for entry in items(data, "versions") if isinstance(entry, dict)]
        if versions:
            return versions, [], ()
        path = f"crates/{quote(name, safe='')}/versions"
        params = {"per_page": VERSIONS_PER_PAGE, "sort": "date"}
        answer = self.client.get(path, params, call=call)
        if not answer.ok:
            return [], [gap("release_cadence", answer, "versions")], (answer.url,)
        found = [entry for entry in items(answer.data, "versions") if isinstance(entry, dict)]
        return found, [], (answer.url,)

    def _result(
        self,
        subject: Subject,
        answer: ApiAnswer,
        crate: dict,
        versions: list[dict],
        gaps: list[Gap],
        api_urls: tuple[str, ...],
    ) -> PrimaryResult:
        name = text(crate, "name") or text(crate, "id")
        url = f"https://crates.io/crates/{name}"
        record = self.writer(subject, answer, url=url, title=f"{name} on crates.io")
        if text(crate, "description"):
            record.line(f"Description: {text(crate, 'description')}")
        live = [entry for entry in versions if flag(entry, "yanked") is not True]
        by_number = {text(entry, "num"): entry for entry in live if text(entry, "num")}
        latest = text(crate, "max_stable_version") or text(crate, "newest_version")
        latest = latest or text(crate, "max_version")
        if latest:
            day = iso_day(text(by_number.get(latest, {}), "created_at"))
            write_latest(record, name, "crates.io", latest, day)
        else:
            gaps.append(Gap("latest_release", Outcome.NO_HIT, "crates.io names no version"))
        until = dt.datetime.fromtimestamp(answer.fetched_at or 0, dt.UTC).date()
        stable = {
            number: day
            for number, entry in by_number.items()
            if semver_stable(number) and (day := to_date(text(entry, "created_at")))
        }
        if live:
            gaps += write_releases(record, name, stable, until)
        licence = text(by_number.get(latest, {}), "license") or next(
            (text(entry, "license") for entry in live if text(entry, "license")), ""
        )
        if licence:
            write_licence(record, name, licence, "Cargo.toml")
        else:
            gaps.append(Gap("licence", Outcome.NO_HIT, "the crate states no licence"))
        links = {"registry": url}
        for key in ("repository", "homepage"):
            if text(crate, key).startswith(("http://", "https://")):
                links[key] = text(crate, key)
        built = record.build(
            published=iso_day(text(crate, "created_at")),
            # The crate's own `updated_at` moves with any change of its page; the record
            # is dated by its latest release.
            updated=iso_day(text(by_number.get(latest, {}), "created_at"))
            or iso_day(text(crate, "updated_at")),
            api_urls=api_urls,
        )
        return self.result(
            subject, Outcome.OK, records=[built], facts=record.facts, gaps=gaps, links=links
        )
