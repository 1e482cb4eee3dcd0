"""Deployment settings, each read by a fresh process the way a server starts."""

from __future__ import annotations

import json
import os
import re
import secrets
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

# Variables a developer's shell might set that would change what these tests measure.
CLEARED = (
    "SECRET_KEY",
    "DEBUG",
    "ALLOWED_HOSTS",
    "SECURE_SSL_REDIRECT",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "SECURE_PROXY_SSL_HEADER",
    "DJANGO_ALLOW_ASYNC_UNSAFE",  # browser tests set it for their own process
)
SHOWN = [
    "DEBUG",
    "SECURE_SSL_REDIRECT",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "SECURE_HSTS_SECONDS",
]


def python(var_dir: Path, code: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in CLEARED}
    clean.update(VAR_DIR=str(var_dir), DJANGO_SETTINGS_MODULE="research.settings", **env)
    return subprocess.run(
        [sys.executable, "-c", f"import django; django.setup()\n{code}"],
        cwd=settings.BASE_DIR,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )


def shown(var_dir: Path, **env: str) -> dict[str, object]:
    names = ", ".join(f"{n!r}: settings.{n}" for n in SHOWN)
    code = f"import json; from django.conf import settings; print(json.dumps({{{names}}}))"
    proc = python(var_dir, code, **env)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_the_secret_key_is_made_on_first_start_and_kept_so_sessions_survive_a_restart(tmp_path):
    sign = "from django.core import signing; print(signing.dumps('ada'))"
    first = python(tmp_path, sign)
    assert first.returncode == 0, first.stderr
    key_file = tmp_path / "secret_key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    check = f"from django.core import signing; print(signing.loads({first.stdout.strip()!r}))"
    after_restart = python(tmp_path, check)
    assert after_restart.stdout.strip() == "ada", after_restart.stderr


def test_a_secret_key_from_the_environment_is_used_and_no_file_is_made(tmp_path):
    proc = python(tmp_path, "from django.conf import settings; print(settings.SECRET_KEY)",
                  SECRET_KEY="s" * 60)  # fmt: skip
    assert proc.stdout.strip() == "s" * 60
    assert not (tmp_path / "secret_key").exists()


@pytest.mark.parametrize(
    "production",
    [
        {"DEBUG": "false", "ALLOWED_HOSTS": "verdict.example.com"},
        {
            "DEBUG": "false",
            "ALLOWED_HOSTS": "verdict.example.com",
            "SECRET_KEY": secrets.token_urlsafe(50),
        },
    ],
    ids=["generated key", "key from the environment"],
)
def test_check_deploy_passes_with_the_documented_production_settings(tmp_path, production):
    env = {k: v for k, v in os.environ.items() if k not in CLEARED}
    env.update(VAR_DIR=str(tmp_path), **production)
    proc = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no issues" in proc.stdout


def test_https_is_required_in_production_by_default(tmp_path):
    assert shown(tmp_path, DEBUG="false", ALLOWED_HOSTS="verdict.example.com") == {
        "DEBUG": False,
        "SECURE_SSL_REDIRECT": True,
        "SESSION_COOKIE_SECURE": True,
        "CSRF_COOKIE_SECURE": True,
        "SECURE_HSTS_SECONDS": 31_536_000,
    }


def test_a_server_for_this_machine_only_works_over_plain_http(tmp_path):
    assert shown(tmp_path, DEBUG="false") == {
        "DEBUG": False,
        "SECURE_SSL_REDIRECT": False,
        "SESSION_COOKIE_SECURE": False,
        "CSRF_COOKIE_SECURE": False,
        "SECURE_HSTS_SECONDS": 0,
    }


def test_each_https_setting_can_be_set_from_the_environment(tmp_path):
    values = shown(
        tmp_path,
        ALLOWED_HOSTS="verdict.example.com",
        SECURE_SSL_REDIRECT="false",
        SECURE_HSTS_SECONDS="3600",
        CSRF_COOKIE_SECURE="no",
    )
    assert values["SECURE_SSL_REDIRECT"] is False
    assert values["SECURE_HSTS_SECONDS"] == 3600
    assert values["CSRF_COOKIE_SECURE"] is False
    assert values["SESSION_COOKIE_SECURE"] is True


def test_a_misspelt_https_setting_stops_the_start_up(tmp_path):
    proc = python(tmp_path, "pass", SECURE_SSL_REDIRECT="maybe")
    assert proc.returncode != 0
    assert "SECURE_SSL_REDIRECT must be a boolean (true/false), got 'maybe'" in proc.stderr


@pytest.mark.parametrize("value", ["ftp://bucket/runs", "s3://", "/srv/runs"])
def test_a_runs_store_that_is_neither_a_folder_nor_a_bucket_stops_the_start_up(tmp_path, value):
    proc = python(tmp_path, "pass", RUNS_STORE=value)
    assert proc.returncode != 0
    assert "RUNS_STORE must be unset, file: (run folders in RUNS_DIR) or s3://bucket/prefix" in (
        proc.stderr
    )


def test_env_example_lists_every_variable_the_settings_read():
    source = (Path(settings.BASE_DIR) / "research" / "settings.py").read_text(encoding="utf-8")
    read = set(re.findall(r"env_\w+\(\s*\"([A-Z_]+)\"", source))
    example = (Path(settings.BASE_DIR) / ".env.example").read_text(encoding="utf-8")
    listed = set(re.findall(r"^#? ?([A-Z_]+)=", example, re.MULTILINE))
    assert read and read <= listed, sorted(read - listed)


def test_relative_paths_are_read_against_the_project_wherever_it_starts(tmp_path):
    """An MCP client starts the server in `/`: a .env copied from .env.example must still
    name the project's database, runs folder and local sources."""
    code = (
        "import json; from django.conf import settings; print(json.dumps({"
        "'db': settings.DATABASES['default']['NAME'], 'runs': str(settings.RUNS_DIR), "
        "'var': str(settings.VAR_DIR), 'sources': settings.SOURCES, "
        "'defaults': settings.DEFAULT_SOURCES}))"
    )
    clean = {k: v for k, v in os.environ.items() if k not in CLEARED}
    clean.update(
        DJANGO_SETTINGS_MODULE="research.settings",
        PYTHONPATH=str(settings.BASE_DIR),
        DATABASE_URL="sqlite:///db.sqlite3",
        RUNS_DIR="./runs",
        VAR_DIR=str(tmp_path / "var"),
        SOURCES="notes=local:tests/fixtures/corpus/notes_en,web=ddgs",
        DEFAULT_SOURCES="notes,local:./docs",
    )
    proc = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup()\n{code}"],
        cwd="/",
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    found = json.loads(proc.stdout)
    base = Path(settings.BASE_DIR)
    assert found["db"] == str(base / "db.sqlite3")
    assert found["runs"] == str(base / "runs")
    assert found["sources"] == {
        "notes": f"local:{base / 'tests/fixtures/corpus/notes_en'}",
        "web": "ddgs",
    }
    assert found["defaults"] == ["notes", f"local:{base / 'docs'}"]


def test_env_example_and_readme_give_the_reading_limits_the_settings_use():
    root = Path(settings.BASE_DIR)
    example = (root / ".env.example").read_text(encoding="utf-8")
    readme = (root / "README.md").read_text(encoding="utf-8")
    source = (root / "research" / "settings.py").read_text(encoding="utf-8")
    for name in ("MAX_CANDIDATES", "MAX_KEPT", "MIN_KEPT", "MAX_PAGES", "MAX_PAGE_CHARS"):
        default = re.search(rf'env_int\("{name}", ([\d_]+)', source).group(1).replace("_", "")
        assert re.search(rf"^{name}={default}$", example, re.MULTILINE), name
    assert "up to 50 candidates, 30 kept, all 30 read, 30,000 characters each" in readme
    assert "50 candidates, 30 kept, all 30 read,\n# 30000 characters each" in example


def test_env_example_names_no_file_the_repository_lacks():
    root = Path(settings.BASE_DIR)
    example = (root / ".env.example").read_text(encoding="utf-8")
    assert "DESIGN" not in example
    for named in re.findall(r"\b[\w/-]+\.(?:md|txt|json|py)\b", example):
        assert (root / named).exists() or named.startswith(("var/", "/")), named


def test_env_example_shows_how_to_name_sources_for_make_run():
    example = (Path(settings.BASE_DIR) / ".env.example").read_text(encoding="utf-8")
    assert "make run" in example
    assert re.search(r"^#\s+SOURCES=notes=local:/srv/notes,ddg=ddgs$", example, re.MULTILINE)
    assert re.search(r"^#\s+DEFAULT_SOURCES=notes$", example, re.MULTILINE)
