"""What the local services know, in the shapes the services document.

GitHub: docs.github.com/rest (repos, releases, tags, commits, search). PyPI: the JSON API
(docs.pypi.org/api/json). npm: the registry's package documents (github.com/npm/registry,
"Package metadata"). crates.io: /api/v1/crates/<name> and /versions. Wikipedia: the REST
page summary; Wikidata: wbgetentities. arXiv: the API user manual's Atom feed. Europe PMC:
the REST search with resultType=core. ClinicalTrials.gov: API v2 /studies.

The fields a provider does not read are here too, so a provider is tested against an
answer as full as the real one, not against the few keys it happens to want.
"""

from __future__ import annotations

import datetime as dt

NOW = dt.datetime(2026, 11, 20, 12, 0, tzinfo=dt.UTC)
NOW_EPOCH = NOW.timestamp()


def days_ago(days: int, hour: int = 10) -> str:
    moment = (NOW - dt.timedelta(days=days)).replace(hour=hour, minute=4, second=31)
    return moment.isoformat().replace("+00:00", "Z")


# --- GitHub ------------------------------------------------------------------------------


def github_repo(
    full_name: str,
    *,
    spdx: str | None,
    licence_name: str = "",
    archived: bool = False,
    stars: int = 0,
    pushed: str,
    created: str = "2010-04-06T11:11:59Z",
    open_issues: int = 0,
    fork: bool = False,
    homepage: str = "",
    description: str = "",
) -> dict:
    owner, name = full_name.split("/")
    licence = None
    if spdx is not None:
        key = spdx.lower() if spdx != "NOASSERTION" else "other"
        licence = {
            "key": key,
            "name": licence_name or spdx,
            "spdx_id": spdx,
            "url": None if spdx == "NOASSERTION" else f"https://api.github.com/licenses/{key}",
            "node_id": "MDc6TGljZW5zZTU=",
        }
    return {
        "id": abs(hash(full_name)) % 10**9,
        "node_id": "MDEwOlJlcG9zaXRvcnk1OTYzODky",
        "name": name,
        "full_name": full_name,
        "private": False,
        "owner": {"login": owner, "id": 7_000_000, "type": "Organization"},
        "html_url": f"https://github.com/{full_name}",
        "description": description,
        "fork": fork,
        "url": f"https://api.github.com/repos/{full_name}",
        "created_at": created,
        "updated_at": pushed,
        "pushed_at": pushed,
        "homepage": homepage,
        "size": 10_000,
        "stargazers_count": stars,
        "watchers_count": stars,
        "language": "Python",
        "has_issues": True,
        "forks_count": stars // 10,
        "archived": archived,
        "disabled": False,
        "open_issues_count": open_issues,
        "license": licence,
        "allow_forking": True,
        "is_template": False,
        "topics": ["python", "web"],
        "visibility": "public",
        "forks": stars // 10,
        "open_issues": open_issues,
        "watchers": stars,
        "default_branch": "main",
        "network_count": stars // 10,
        "subscribers_count": stars // 50,
    }


GITHUB_REPOS = {
    "pallets/flask": github_repo(
        "pallets/flask",
        spdx="BSD-3-Clause",
        licence_name='BSD 3-Clause "New" or "Revised" License',
        stars=70_123,
        pushed=days_ago(2),
        open_issues=7,
        homepage="https://flask.palletsprojects.com",
        description="The Python micro framework for building web applications.",
    ),
    "forker/flask": github_repo(
        "forker/flask", spdx="BSD-3-Clause", stars=90_000, pushed=days_ago(900), fork=True
    ),
    "someone/flask-tutorial": github_repo(
        "someone/flask-tutorial", spdx="MIT", stars=120_000, pushed=days_ago(30)
    ),
    "oldorg/inkpad": github_repo(
        "oldorg/inkpad",
        spdx=None,
        archived=True,
        stars=412,
        pushed="2021-03-02T08:00:00Z",
        created="2016-01-10T08:00:00Z",
        open_issues=58,
    ),
    "oddlicence/thing": github_repo(
        "oddlicence/thing",
        spdx="NOASSERTION",
        licence_name="Other",
        stars=9,
        pushed=days_ago(40),
    ),
}
GITHUB_RELEASES = {
    "pallets/flask": {
        "url": "https://api.github.com/repos/pallets/flask/releases/245087164",
        "html_url": "https://github.com/pallets/flask/releases/tag/3.1.2",
        "id": 245087164,
        "tag_name": "3.1.2",
        "target_commitish": "main",
        "name": "3.1.2",
        "draft": False,
        "prerelease": False,
        "created_at": "2026-08-19T20:10:11Z",
        "published_at": "2026-08-19T20:15:42Z",
        "author": {"login": "davidism"},
        "assets": [],
        "body": "This is the Flask 3.1.2 fix release.",
    },
    "oddlicence/thing": {
        "tag_name": "v0.4.0",
        "name": "v0.4.0",
        "draft": False,
        "prerelease": False,
        "created_at": "2026-10-01T00:00:00Z",
        "published_at": "2026-10-01T00:00:00Z",
    },
}
# Listed the way GitHub lists tags: by name, so "v2.0.0rc1" and "v1.9.0" come before "v1.10.0".
GITHUB_TAGS = {
    "oldorg/inkpad": [
        {"name": name, "commit": {"sha": sha, "url": f"https://api.github.com/commits/{sha}"}}
        for name, sha in (
            ("v2.0.0rc1", "c2rc1"),
            ("v1.9.0", "c190"),
            ("v1.10.0", "c1100"),
            ("nightly", "cnightly"),
        )
    ]
}
GITHUB_COMMITS = {
    "c1100": "2021-02-27T17:30:00Z",
    "c190": "2020-06-01T10:00:00Z",
    "c2rc1": "2021-03-01T10:00:00Z",
    "cnightly": "2021-03-02T08:00:00Z",
}


def github_commit(sha: str) -> dict:
    date = GITHUB_COMMITS[sha]
    person = {"name": "Maintainer", "email": "m@example.org", "date": date}
    return {
        "sha": sha,
        "commit": {"author": person, "committer": person, "message": "Release"},
        "html_url": f"https://github.com/oldorg/inkpad/commit/{sha}",
    }


# --- PyPI ----------------------------------------------------------------------------------


def pypi_file(version: str, uploaded: str, *, yanked: bool = False) -> dict:
    return {
        "comment_text": "",
        "digests": {"sha256": "0" * 64},
        "downloads": -1,
        "filename": f"pkg-{version}-py3-none-any.whl",
        "has_sig": False,
        "packagetype": "bdist_wheel",
        "python_version": "py3",
        "requires_python": ">=3.9",
        "size": 103_000,
        "upload_time": uploaded.removesuffix("Z").split(".")[0],
        "upload_time_iso_8601": uploaded,
        "url": f"https://files.pythonhosted.org/packages/pkg-{version}.whl",
        "yanked": yanked,
        "yanked_reason": "broken" if yanked else None,
    }


def pypi_package(
    name: str,
    version: str,
    releases: dict[str, list[dict]],
    *,
    summary: str = "",
    expression: str | None = None,
    licence: str | None = None,
    classifiers: tuple[str, ...] = (),
    project_urls: dict[str, str] | None = None,
) -> dict:
    return {
        "info": {
            "author": "",
            "author_email": "Maintainers <contact@example.org>",
            "classifiers": ["Programming Language :: Python :: 3", *classifiers],
            "description": "# A long README\n\nwith many lines",
            "description_content_type": "text/markdown",
            "home_page": None,
            "license": licence,
            "license_expression": expression,
            "license_files": ["LICENSE.txt"],
            "name": name,
            "package_url": f"https://pypi.org/project/{name}/",
            "project_url": f"https://pypi.org/project/{name}/",
            "project_urls": project_urls or {},
            "release_url": f"https://pypi.org/project/{name}/{version}/",
            "requires_dist": None,
            "requires_python": ">=3.9",
            "summary": summary,
            "version": version,
            "yanked": False,
            "yanked_reason": None,
        },
        "last_serial": 29_000_000,
        "releases": releases,
        "urls": releases.get(version, []),
        "vulnerabilities": [],
    }


PYPI = {
    "flask": pypi_package(
        "Flask",
        "3.1.2",
        {
            "0.1": [],  # registered long ago, never uploaded
            "3.0.3": [pypi_file("3.0.3", days_ago(500))],
            "3.1.0": [pypi_file("3.1.0", days_ago(300)), pypi_file("3.1.0", days_ago(299))],
            "3.1.1rc1": [pypi_file("3.1.1rc1", days_ago(200))],
            "3.1.1": [pypi_file("3.1.1", days_ago(180))],
            "3.1.1.post1": [pypi_file("3.1.1.post1", days_ago(170), yanked=True)],
            "3.1.2": [pypi_file("3.1.2", days_ago(93))],
        },
        summary="A simple framework for building complex web applications.",
        expression="BSD-3-Clause",
        classifiers=("License :: OSI Approved :: BSD License",),
        project_urls={
            "Changes": "https://flask.palletsprojects.com/page/changes/",
            "Documentation": "https://flask.palletsprojects.com/",
            "Source": "https://github.com/pallets/flask/",
        },
    ),
    "djangorestframework": pypi_package(
        "djangorestframework",
        "3.16.1",
        {
            "3.16.0": [pypi_file("3.16.0", days_ago(400))],
            "3.16.1": [pypi_file("3.16.1", days_ago(60))],
        },
        summary="Web APIs for Django, made easy.",
        licence="BSD",
        project_urls={"Source": "https://github.com/encode/django-rest-framework"},
    ),
    "oldlib": pypi_package(
        "oldlib",
        "1.2",
        {
            "1.0": [pypi_file("1.0", "2018-01-05T10:00:00Z")],
            "1.2": [pypi_file("1.2", "2019-05-01T10:00:00Z")],
        },
        licence="Copyright (c) 2018 Somebody\n\nPermission is hereby granted, free of charge...",
        classifiers=("License :: OSI Approved :: MIT License",),
    ),
}


# --- npm -------------------------------------------------------------------------------------


def npm_package(
    name: str,
    versions: dict[str, str],
    latest: str,
    *,
    licence: object = "MIT",
    deprecated: str = "",
    repository: object = None,
) -> dict:
    times = {"created": min(versions.values()), "modified": max(versions.values()), **versions}
    documents = {}
    for version in versions:
        document = {
            "name": name,
            "version": version,
            "license": licence,
            "main": "index.js",
            "dist": {"tarball": f"https://registry.npmjs.org/{name}/-/{version}.tgz"},
        }
        if deprecated and version == latest:
            document["deprecated"] = deprecated
        documents[version] = document
    return {
        "_id": name,
        "_rev": "512-0b0a7c",
        "name": name,
        "description": f"{name}, as its authors describe it",
        "dist-tags": {"latest": latest, "next": f"{latest}-canary"},
        "versions": documents,
        "time": times,
        "maintainers": [{"name": "someone", "email": "someone@example.org"}],
        "repository": repository,
        "homepage": f"https://{name.strip('@').replace('/', '-')}.example.org/",
        "license": licence,
        "readme": "",
        "readmeFilename": "",
    }


NPM = {
    "react": npm_package(
        "react",
        {
            "18.3.1": days_ago(400),
            "19.0.0": days_ago(330),
            "19.1.0": days_ago(210),
            "19.1.1": days_ago(150),
            "19.2.0": days_ago(40),
        },
        "19.2.0",
        repository={
            "type": "git",
            "url": "git+https://github.com/facebook/react.git",
            "directory": "packages/react",
        },
    ),
    "request": npm_package(
        "request",
        {"2.88.0": "2018-08-10T18:17:47.000Z", "2.88.2": "2020-02-11T16:36:35.000Z"},
        "2.88.2",
        licence={"type": "Apache-2.0", "url": "https://opensource.org/licenses/Apache-2.0"},
        deprecated="request has been deprecated, see https://github.com/request/request/issues/3142",
        repository="https://github.com/request/request",
    ),
    "@vue/reactivity": npm_package(
        "@vue/reactivity",
        {"3.5.12": days_ago(60), "3.5.13": days_ago(20)},
        "3.5.13",
        repository={"type": "git", "url": "git+https://github.com/vuejs/core.git"},
    ),
}
# A package whose document is far larger than a test's cap: only /latest is readable.
NPM_HUGE_NAME = "typescript"
NPM_HUGE_LATEST = {"name": "typescript", "version": "5.9.3", "license": "Apache-2.0"}


# --- crates.io -----------------------------------------------------------------------------


def crate_version(
    crate: str, num: str, created: str, *, licence: str, yanked: bool = False
) -> dict:
    return {
        "id": abs(hash((crate, num))) % 10**7,
        "crate": crate,
        "num": num,
        "dl_path": f"/api/v1/crates/{crate}/{num}/download",
        "readme_path": f"/api/v1/crates/{crate}/{num}/readme",
        "updated_at": created,
        "created_at": created,
        "downloads": 1_000_000,
        "features": {"default": ["std"], "std": []},
        "yanked": yanked,
        "yank_message": None,
        "license": licence,
        "links": {"dependencies": f"/api/v1/crates/{crate}/{num}/dependencies"},
        "crate_size": 78_000,
        "published_by": {"login": "dtolnay"},
        "rust_version": "1.61",
    }


def crate(name: str, versions: list[dict], *, stable: str, include_versions: bool = True) -> dict:
    answer: dict = {
        "crate": {
            "id": name,
            "name": name,
            "updated_at": max(v["created_at"] for v in versions),
            "versions": [v["id"] for v in versions] if include_versions else None,
            "keywords": ["serde", "serialization"],
            "categories": ["encoding"],
            "created_at": min(v["created_at"] for v in versions),
            "downloads": 500_000_000,
            "recent_downloads": 90_000_000,
            "max_version": max(versions, key=lambda v: v["created_at"])["num"],
            "newest_version": max(versions, key=lambda v: v["created_at"])["num"],
            "max_stable_version": stable,
            "description": f"{name}: a crate",
            "homepage": f"https://{name}.rs",
            "documentation": f"https://docs.rs/{name}",
            "repository": f"https://github.com/example/{name}",
            "exact_match": False,
        },
        "keywords": [{"id": "serde", "keyword": "serde", "crates_cnt": 2000}],
        "categories": [{"id": "encoding", "category": "Encoding", "slug": "encoding"}],
    }
    if include_versions:
        answer["versions"] = versions
    return answer


SERDE_VERSIONS = [
    crate_version("serde", "1.0.229-alpha.1", days_ago(5), licence="MIT OR Apache-2.0"),
    crate_version("serde", "1.0.228", days_ago(50), licence="MIT OR Apache-2.0"),
    crate_version("serde", "1.0.227", days_ago(80), licence="MIT OR Apache-2.0", yanked=True),
    crate_version("serde", "1.0.226", days_ago(110), licence="MIT OR Apache-2.0"),
    crate_version("serde", "1.0.219", days_ago(420), licence="MIT OR Apache-2.0"),
]
TOKIO_VERSIONS = [
    crate_version("tokio", "1.48.0", days_ago(30), licence="MIT"),
    crate_version("tokio", "1.47.0", days_ago(90), licence="MIT"),
]
CRATES = {
    "serde": crate("serde", SERDE_VERSIONS, stable="1.0.228"),
    # Newer answers may leave the versions out; they are then at /versions.
    "tokio": crate("tokio", TOKIO_VERSIONS, stable="1.48.0", include_versions=False),
}
CRATE_VERSIONS = {"tokio": TOKIO_VERSIONS}
