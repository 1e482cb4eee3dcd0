"""The database: SQLite on one machine, PostgreSQL past it (DATABASE_URL=postgres://...)."""

from __future__ import annotations

import json

import dj_database_url
import pytest
from django.db import connection

from research.env import database_url
from tests.postgres import on_postgres, start_cluster
from tests.research.test_settings import python
from tools.fakes import postgres as fake_postgres


@pytest.mark.django_db
def test_the_tests_run_on_the_database_they_were_asked_to():
    # VERDICT_TEST_DATABASE=postgres must never fall back to SQLite without a word.
    assert connection.vendor == ("postgresql" if on_postgres() else "sqlite")


def test_a_postgres_url_gives_a_checked_connection_that_gives_up_in_seconds(tmp_path):
    url = "postgres://verdict:s%40fe@db.internal:5433/verdict"
    shown = python(
        tmp_path,
        "from django.conf import settings; import json\n"
        "print(json.dumps(settings.DATABASES['default'], default=str))",
        DATABASE_URL=url,
        CONN_MAX_AGE="60",
    )
    assert shown.returncode == 0, shown.stderr
    database = json.loads(shown.stdout)
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert (database["HOST"], database["PORT"], database["PASSWORD"]) == (
        "db.internal",
        5433,
        "s@fe",
    )
    assert database["CONN_MAX_AGE"] == 60 and database["CONN_HEALTH_CHECKS"] is True
    assert database["OPTIONS"] == {"connect_timeout": 10}


def test_a_misspelt_connection_age_stops_the_start_up(tmp_path):
    shown = python(tmp_path, "", CONN_MAX_AGE="a minute")
    assert shown.returncode != 0
    assert "CONN_MAX_AGE must be an integer, got 'a minute'" in shown.stderr


@pytest.mark.parametrize(
    "url",
    [
        "postgres://verdict:p%40ss%2Fword@db.internal:5433/verdict",
        "postgres://verdict@127.0.0.1:5432/test_verdict",
        "sqlite:////srv/verdict/db.sqlite3",
    ],
)
def test_a_worker_started_by_a_test_is_handed_the_same_database(url):
    handed = database_url(dj_database_url.parse(url))
    assert dj_database_url.parse(handed) == dj_database_url.parse(url)


def test_without_postgresql_its_tests_skip_saying_why_and_fail_where_it_is_required(
    monkeypatch,
):
    monkeypatch.setattr(fake_postgres, "server_programs", lambda: None)
    monkeypatch.delenv("VERDICT_REQUIRE_POSTGRES", raising=False)
    with pytest.raises(pytest.skip.Exception, match="no initdb found"):
        start_cluster()
    monkeypatch.setenv("VERDICT_REQUIRE_POSTGRES", "1")
    with pytest.raises(pytest.fail.Exception, match="VERDICT_REQUIRE_POSTGRES is set"):
        start_cluster()
