"""PostgreSQL for tests: a session's own cluster (tools/fakes/postgres.py).

Without PostgreSQL's server programs the tests that need it are skipped, saying why, unless
VERDICT_REQUIRE_POSTGRES=1 (CI sets it): then they fail, so a machine that lost its
PostgreSQL cannot pass by skipping.

VERDICT_TEST_DATABASE=postgres runs the selected tests against it instead of SQLite:
`make test` runs the database-heavy tests a second time that way.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tools.fakes.postgres import Cluster, Unavailable


def required() -> bool:
    return os.environ.get("VERDICT_REQUIRE_POSTGRES", "").lower() in ("1", "true", "yes")


def unavailable(reason: str) -> None:
    """Skip, or fail where PostgreSQL is required."""
    message = f"PostgreSQL tests cannot run: {reason}"
    if required():
        pytest.fail(message + " (VERDICT_REQUIRE_POSTGRES is set)", pytrace=False)
    pytest.skip(message)


def start_cluster() -> Cluster:
    try:
        cluster = Cluster()
    except Unavailable as exc:
        unavailable(str(exc))
    try:
        cluster.start()
    except Unavailable as exc:
        cluster.stop()
        unavailable(str(exc))
    return cluster


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    """A PostgreSQL cluster for the whole session."""
    cluster = start_cluster()
    yield cluster
    cluster.stop()


def on_postgres() -> bool:
    return os.environ.get("VERDICT_TEST_DATABASE", "").lower() in ("postgres", "postgresql")


@pytest.fixture(scope="session")
def django_db_modify_db_settings(
    request: pytest.FixtureRequest, django_db_modify_db_settings_parallel_suffix: None
) -> None:
    """With VERDICT_TEST_DATABASE=postgres, the test database is made on the session's
    cluster. The settings are changed in place, before any connection is opened, so every
    connection the tests open is PostgreSQL's."""
    if not on_postgres():
        return
    import dj_database_url
    from django.conf import settings
    from django.db import connections

    cluster = request.getfixturevalue("postgres")
    default = settings.DATABASES["default"]
    parsed = dj_database_url.parse(cluster.url)
    for key in ("ENGINE", "NAME", "USER", "PASSWORD", "HOST", "PORT"):
        default[key] = parsed[key]
    default["OPTIONS"] = {}
    default["TEST"]["NAME"] = None  # Django's own: test_<NAME>
    # A SQLite connection object may already exist (unopened): the next one is PostgreSQL's.
    connections["default"].close()
    del connections["default"]
