"""GitHub's REST API: an option's repository and the state of its maintenance.

The repository comes from the subject's identifier ("owner/name"), from a github.com URL,
or from the repository search, where only a repository whose name is the option's counts:
the most-starred result for "Flask" may be someone's tutorial. Its licence (SPDX id),
whether it is archived, stars, last push and open issues come from /repos/{owner}/{repo};
the latest release from /releases/latest, or, for projects that only tag, from the tag with
the highest version and the date of its commit.

GITHUB_TOKEN, when set, is sent as a bearer token: GitHub then allows 5,000 requests an
hour instead of 60. It is never written to the cache.
"""

from __future__ import annotations

import re
from urllib.parse import quote, urlsplit

from packaging.version import InvalidVersion, Version

from research.outcomes import Outcome
from research.providers.http import Call
from research.providers.primary.base import (
    ApiProvider,
    flag,
    gap,
    items,
    number,
    obj,
    require_dict,
    text,
)
from research.providers.primary.client import ApiAnswer
from research.providers.primary.dates import iso_day
from research.providers.primary.records import Gap, PrimaryResult, RecordWriter, Subject

API_VERSION = "2022-11-28"
SEARCH_RESULTS = 10
_FULL_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+$")
_GITHUB_HOSTS = frozenset({"github.com", "www.github.com"})


def api_headers(token: str = "") -> dict[str, str]:
    headers = {"X-GitHub-Api-Version": API_VERSION}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return headers


def repository_from_url(url: str) -> str | None:
    """'https://github.com/pallets/flask/releases' -> 'pallets/flask'."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    if (parts.hostname or "").lower() not in _GITHUB_HOSTS:
        return None
    segments = [segment for segment in parts.path.split("/") if segment]
    if len(segments) < 2:
        return None
    name = f"{segments[0]}/{segments[1].removesuffix('.git')}"
    return name if _FULL_NAME.match(name) else None


def _squashed(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


class GitHubProvider(ApiProvider):
    name = "github"
    label = "GitHub"
    service = "the GitHub REST API"
    source_kind = "registry"

    def _lookup(self, subject: Subject, call: Call) -> PrimaryResult:
        found = self._repository(subject, call)
        if isinstance(found, PrimaryResult):
            return found
        path = f"repos/{quote(found, safe='/')}"
        answer = self.client.get(path, call=call, accept="application/vnd.github+json")
        if not answer.ok:
            return self.failed(subject, answer, f"repository {found}")
        repo = require_dict(answer.data, "the repository")
        full_name = _full_name(repo) or found
        release, gaps = self._latest_release(full_name, call)
        return self._result(subject, answer, repo, full_name, release, gaps)

    # --- which repository --------------------------------------------------------------

    def _repository(self, subject: Subject, call: Call) -> str | PrimaryResult:
        if _FULL_NAME.match(subject.identifier.strip()):
            return subject.identifier.strip()
        from_url = repository_from_url(subject.url) if subject.url else None
        if from_url:
            return from_url
        return self._search(subject, call)

    def _search(self, subject: Subject, call: Call) -> str | PrimaryResult:
        option = subject.option.strip()
        if not _squashed(option):
            return self.result(subject, Outcome.NO_HIT, detail="no repository name to look for")
        params = {
            "q": f"{option} in:name",
            "sort": "stars",
            "order": "desc",
            "per_page": SEARCH_RESULTS,
        }
        answer = self.client.get(
            "search/repositories",
            params,
            call=call,
            accept="application/vnd.github+json",
            endpoint=True,
        )
        if not answer.ok:
            return self.failed(subject, answer, f"repository named {option}")
        found = items(require_dict(answer.data, "the search answer"), "items")
        named = [item for item in found if _squashed(text(item, "name")) == _squashed(option)]
        # Forks share the name of what they fork; the original is the one meant.
        named.sort(
            key=lambda item: (flag(item, "fork") is True, -(number(item, "stargazers_count") or 0))
        )
        if named and text(named[0], "full_name"):
            return text(named[0], "full_name")
        others = ", ".join(text(item, "full_name") for item in found[:5] if text(item, "full_name"))
        detail = f"GitHub has no repository named {option!r}"
        detail += f" (the search found {others})" if others else ""
        return self.result(subject, Outcome.NO_HIT, detail=detail)

    # --- the latest release --------------------------------------------------------------

    def _latest_release(
        self, full_name: str, call: Call
    ) -> tuple[tuple[str, str | None, str] | None, list[Gap]]:
        """(version, date, how it is known), or None, with the gaps on the way."""
        base = f"repos/{quote(full_name, safe='/')}"
        accept = "application/vnd.github+json"
        answer = self.client.get(f"{base}/releases/latest", call=call, accept=accept)
        if answer.ok and not isinstance(answer.data, dict):
            shape = Gap("latest_release", Outcome.UNAVAILABLE, "latest release: not an object")
            return None, [shape]
        if answer.ok:
            release = answer.data
            tag = text(release, "tag_name") or text(release, "name")
            date = iso_day(text(release, "published_at") or text(release, "created_at"))
            return (tag, date, "release"), []
        if answer.outcome is not Outcome.NO_HIT:
            return None, [gap("latest_release", answer, "latest release")]
        tags = self.client.get(f"{base}/tags", {"per_page": 100}, call=call, accept=accept)
        if not tags.ok:
            return None, [gap("latest_release", tags, "releases and tags")]
        tag = _highest_tag(tags.data if isinstance(tags.data, list) else [])
        if tag is None:
            return None, [Gap("latest_release", Outcome.NO_HIT, "no releases and no tags")]
        name, sha = tag
        commit = self.client.get(f"{base}/commits/{quote(sha)}", call=call, accept=accept)
        if not commit.ok:
            return (name, None, "tag"), [gap("latest_release", commit, "date of the latest tag")]
        dated = obj(commit.data, "commit", "committer") or obj(commit.data, "commit", "author")
        return (name, iso_day(text(dated, "date")), "tag"), []

    # --- the record ----------------------------------------------------------------------

    def _result(
        self,
        subject: Subject,
        answer: ApiAnswer,
        repo: dict,
        full_name: str,
        release: tuple[str, str | None, str] | None,
        gaps: list[Gap],
    ) -> PrimaryResult:
        url = text(repo, "html_url") or f"https://github.com/{full_name}"
        record = self.writer(subject, answer, url=url, title=f"{full_name} on GitHub")
        if text(repo, "description"):
            record.line(f"Description: {text(repo, 'description')}")
        gaps = gaps + _state_lines(record, repo, full_name)
        if release is not None:
            _release_line(record, full_name, *release)
        created = iso_day(text(repo, "created_at"))
        if created:
            record.line(f"Repository created: {created}")
        links = {"repository": url}
        if text(repo, "homepage").startswith(("http://", "https://")):
            links["homepage"] = text(repo, "homepage")
        built = record.build(
            published=created, updated=iso_day(text(repo, "pushed_at")), api_urls=(answer.url,)
        )
        return self.result(
            subject, Outcome.OK, records=[built], facts=record.facts, gaps=gaps, links=links
        )


def _full_name(repo: dict) -> str:
    """owner/name: `full_name`, which old answers lack, else the owner's login and the
    name, else the repository's address."""
    if text(repo, "full_name"):
        return text(repo, "full_name")
    login, name = text(obj(repo, "owner"), "login"), text(repo, "name")
    if login and name:
        return f"{login}/{name}"
    return repository_from_url(text(repo, "html_url")) or ""


def _state_lines(record: RecordWriter, repo: dict, name: str) -> list[Gap]:
    gaps: list[Gap] = []
    spdx = text(obj(repo, "license"), "spdx_id")
    if spdx and spdx != "NOASSERTION":
        record.fact("licence", spdx, f"{name} licence (SPDX): {spdx}")
    elif spdx == "NOASSERTION":
        other = text(obj(repo, "license"), "name") or "a licence GitHub does not recognise"
        record.line(f"{name} licence: {other} (GitHub gives no SPDX id)")
        gaps.append(Gap("licence", Outcome.NO_HIT, "GitHub does not recognise the licence"))
    else:
        record.line(f"{name} licence: none detected by GitHub")
        gaps.append(Gap("licence", Outcome.NO_HIT, "GitHub detected no licence file"))
    archived = flag(repo, "archived")
    if archived is not None:
        said = f"{name} is archived (read-only)" if archived else f"{name} is not archived"
        record.fact("archived", str(archived).lower(), said)
    stars = number(repo, "stargazers_count")
    if stars is not None:
        said = f"{name} has {stars:,} star{'' if stars == 1 else 's'}"
        record.fact("stars", stars, f"{said} as of {record.retrieved_at[:10]}")
    pushed = iso_day(text(repo, "pushed_at"))
    if pushed:
        record.fact("last_push", pushed, f"Last push to {name}: {pushed}", event_date=pushed)
    issues = number(repo, "open_issues_count")
    if issues is not None:
        # GitHub counts open pull requests among the open issues.
        said = (
            f"{name} has {issues:,} open issues and pull requests as of {record.retrieved_at[:10]}"
        )
        record.fact("open_issues", issues, said)
    return gaps


def _release_line(
    record: RecordWriter, name: str, version: str, date: str | None, how: str
) -> None:
    if how == "release":
        said = f"Latest release of {name}: {version}"
        said += f", published {date}" if date else ""
    else:
        said = f"Latest tag of {name}: {version}"
        said += f", committed {date}" if date else ""
        said += " (the project publishes no GitHub releases)"
    record.fact("latest_release", version, said, event_date=date)


def _highest_tag(tags: list) -> tuple[str, str] | None:
    """The tag with the highest version number (GitHub lists tags by name, not by age);
    with no tag that reads as a version, the first one listed."""
    named = [
        (text(tag, "name"), text(obj(tag, "commit"), "sha"))
        for tag in tags
        if text(tag, "name") and text(obj(tag, "commit"), "sha")
    ]
    versioned = []
    for name, sha in named:
        try:
            versioned.append((Version(name.lstrip("vV")), name, sha))
        except InvalidVersion:
            continue
    if versioned:
        # A final release outranks any pre-release, whatever their numbers.
        _, name, sha = max(versioned, key=lambda entry: (not entry[0].is_prerelease, entry[0]))
        return name, sha
    return named[0] if named else None
