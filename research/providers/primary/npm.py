"""The npm registry: GET https://registry.npmjs.org/<name> (a scoped name as @scope%2Fname).

The package document gives the latest version (`dist-tags.latest`), every version's
publication time (`time`), the licence and any deprecation. Some documents run to tens of
megabytes; one larger than PRIMARY_MAX_BYTES is not read, and the small
/<name>/latest document still gives the version and licence, without dates.
"""

from __future__ import annotations

import datetime as dt
from urllib.parse import quote, urlsplit

from research.outcomes import Outcome
from research.providers.http import Call
from research.providers.primary.base import (
    ApiProvider,
    obj,
    require_dict,
    text,
)
from research.providers.primary.client import ApiAnswer
from research.providers.primary.dates import iso_day, to_date
from research.providers.primary.records import (
    Gap,
    PrimaryRecord,
    PrimaryResult,
    RecordWriter,
    Subject,
)
from research.providers.primary.releases import (
    first_answer,
    semver_stable,
    write_latest,
    write_licence,
    write_releases,
)

_TIME_KEYS = frozenset({"created", "modified", "unpublished"})


def name_from_url(url: str) -> str:
    """'https://www.npmjs.com/package/@types/node' -> '@types/node'."""
    parts = urlsplit(url.strip())
    segments = [segment for segment in parts.path.split("/") if segment]
    if not (parts.hostname or "").endswith("npmjs.com") or segments[:1] != ["package"]:
        return ""
    if len(segments) > 2 and segments[1].startswith("@"):
        return f"{segments[1]}/{segments[2]}"
    return segments[1] if len(segments) > 1 else ""


def _path(name: str) -> str:
    return quote(name, safe="@")  # '@scope/name' -> '@scope%2Fname', as the registry wants


class NpmProvider(ApiProvider):
    name = "npm"
    label = "npm"
    service = "the npm registry"
    source_kind = "registry"

    def _lookup(self, subject: Subject, call: Call) -> PrimaryResult:
        name, answer = first_answer(self.client, call, subject, name_from_url, _path)
        if answer is None:
            return self.result(subject, Outcome.NO_HIT, detail="no package name to look for")
        if answer.outcome is Outcome.BLOCKED and "more than" in answer.detail:
            return self._latest_only(subject, name, answer, call)
        if not answer.ok:
            return self.failed(subject, answer, f"package named {subject.option!r}")
        return self._result(subject, answer, require_dict(answer.data, "the package"))

    def _result(self, subject: Subject, answer: ApiAnswer, package: dict) -> PrimaryResult:
        name = text(package, "name")
        version = text(obj(package, "dist-tags"), "latest")
        if not name or not version:
            detail = "the npm registry's answer names no package and latest version"
            return self.result(subject, Outcome.UNAVAILABLE, detail=detail)
        record = self._writer(subject, answer, name)
        if text(package, "description"):
            record.line(f"Description: {text(package, 'description')}")
        times = obj(package, "time")
        published = {
            key: day
            for key, value in times.items()
            if key not in _TIME_KEYS and key in obj(package, "versions") and (day := iso_day(value))
        }
        latest = obj(package, "versions", version)
        write_latest(record, name, "npm", version, published.get(version))
        _deprecation(record, name, version, latest)
        until = dt.datetime.fromtimestamp(answer.fetched_at or 0, dt.UTC).date()
        gaps = write_releases(record, name, _stable(package, published), until)
        gaps += _licence(record, name, _licence_of(latest) or _licence_of(package))
        built = record.build(
            published=iso_day(times.get("created")),
            updated=published.get(version) or iso_day(times.get("modified")),
            api_urls=(answer.url,),
        )
        return self._done(subject, record, built, gaps, package)

    def _latest_only(
        self, subject: Subject, name: str, first: ApiAnswer, call: Call
    ) -> PrimaryResult:
        answer = self.client.get(f"{_path(name)}/latest", call=call)
        if not answer.ok:
            return self.failed(subject, answer, f"package named {subject.option!r}")
        manifest = require_dict(answer.data, "the latest version")
        name, version = text(manifest, "name") or name, text(manifest, "version")
        if not version:
            return self.result(subject, Outcome.UNAVAILABLE, detail="no version in /latest")
        record = self._writer(subject, answer, name)
        write_latest(record, name, "npm", version, None)
        _deprecation(record, name, version, manifest)
        gaps = [Gap("release_cadence", first.outcome, f"release history: {first.detail}")]
        gaps += _licence(record, name, _licence_of(manifest))
        built = record.build(api_urls=(first.url, answer.url))
        return self._done(subject, record, built, gaps, manifest)

    def _writer(self, subject: Subject, answer: ApiAnswer, name: str) -> RecordWriter:
        url = f"https://www.npmjs.com/package/{name}"
        return self.writer(subject, answer, url=url, title=f"{name} on npm")

    def _done(
        self,
        subject: Subject,
        record: RecordWriter,
        built: PrimaryRecord,
        gaps: list[Gap],
        package: dict,
    ) -> PrimaryResult:
        links = {"registry": record.url}
        repository = _repository_url(package.get("repository"))
        if repository:
            links["repository"] = repository
        if text(package, "homepage").startswith(("http://", "https://")):
            links["homepage"] = text(package, "homepage")
        return self.result(
            subject, Outcome.OK, records=[built], facts=record.facts, gaps=gaps, links=links
        )


def _stable(package: dict, published: dict[str, str]) -> dict[str, dt.date]:
    """Stable releases and their dates: not a semver pre-release, not a version that only a
    tag other than `latest` points at (`next`, `canary`: previews of what comes), and not
    deprecated, which is npm's way of withdrawing a release."""
    tags = obj(package, "dist-tags")
    previews = {v for tag, v in tags.items() if tag != "latest" and v != tags.get("latest")}
    return {
        version: day
        for version, when in published.items()
        if semver_stable(version)
        and version not in previews
        and not text(obj(package, "versions", version), "deprecated")
        and (day := to_date(when)) is not None
    }


def _deprecation(record: RecordWriter, name: str, version: str, manifest: dict) -> None:
    message = text(manifest, "deprecated")
    if message:
        record.fact("deprecated", "true", f"{name} {version} is deprecated on npm: {message}")


def _licence(record: RecordWriter, name: str, licence: str) -> list[Gap]:
    if not licence:
        return [Gap("licence", Outcome.NO_HIT, "the package states no licence")]
    write_licence(record, name, licence, "package.json")
    return []


def _licence_of(manifest: dict) -> str:
    """`license` is an SPDX expression; old packages wrote {"type": "MIT"}."""
    value = manifest.get("license")
    if isinstance(value, str):
        return value.strip()
    return text(value, "type") if isinstance(value, dict) else ""


def _repository_url(value: object) -> str:
    url = value if isinstance(value, str) else text(value, "url") if isinstance(value, dict) else ""
    url = url.removeprefix("git+")
    if url.startswith("git://"):
        url = "https://" + url.removeprefix("git://")
    url = url.removesuffix(".git")
    return url if url.startswith(("http://", "https://")) else ""
