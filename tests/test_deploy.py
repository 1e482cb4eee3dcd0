"""deploy/: the compose file, the systemd units and the environment file they share start
the project's own commands with settings the project reads."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
import yaml
from django.conf import settings

DEPLOY = Path(settings.BASE_DIR) / "deploy"
UNITS = {
    "verdict-web.service": "web",
    "verdict-worker@.service": "worker",
    "verdict-beat.service": "beat",
}
# Read by boto3 and by compose itself, not by research/settings.py.
OUTSIDE = {"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_DEFAULT_REGION", "POSTGRES_PASSWORD"}


def settings_read() -> set[str]:
    source = (Path(settings.BASE_DIR) / "research" / "settings.py").read_text(encoding="utf-8")
    return set(re.findall(r"env_\w+\(\s*\"([A-Z_0-9]+)\"", source))


def compose() -> dict:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text(encoding="utf-8"))


def exec_starts(unit: str) -> list[list[str]]:
    text = (DEPLOY / "systemd" / unit).read_text(encoding="utf-8").replace("\\\n", " ")
    found = re.findall(r"^ExecStart(?:Pre)?=(.+)$", text, re.MULTILINE)
    return [shlex.split(line) for line in found]


def project_command(argv: list[str]) -> str:
    """`manage.py NAME` or `celery -A research NAME`: the NAME, checked to exist."""
    if "manage.py" in argv:
        name = argv[argv.index("manage.py") + 1]
        module = Path(settings.BASE_DIR) / "research" / "management" / "commands" / f"{name}.py"
        django_own = {"migrate", "createsuperuser", "collectstatic"}
        assert module.exists() or name in django_own, f"no manage.py {name}"
        return name
    assert argv[argv.index("celery") + 1 : argv.index("celery") + 3] == ["-A", "research"]
    return argv[argv.index("celery") + 3]


def test_the_environment_file_sets_only_settings_verdict_reads():
    example = (DEPLOY / "verdict.env.example").read_text(encoding="utf-8")
    named = set(re.findall(r"^([A-Z_0-9]+)=", example, re.MULTILINE))
    assert {"DATABASE_URL", "REDIS_URL", "RUNS_STORE", "S3_ENDPOINT_URL", "SECRET_KEY"} <= named
    assert named - OUTSIDE <= settings_read(), sorted(named - OUTSIDE - settings_read())


def test_compose_runs_every_process_with_the_projects_commands_and_settings():
    services = compose()["services"]
    assert {"web", "worker", "beat", "redis", "postgres", "minio", "bucket", "migrate"} <= set(
        services
    )
    commands = {name: project_command(services[name]["command"]) for name in ("web", "worker")}
    commands["beat"] = project_command(services["beat"]["command"])
    commands["migrate"] = project_command(services["migrate"]["command"])
    assert commands == {"web": "web", "worker": "worker", "beat": "beat", "migrate": "migrate"}
    for name in ("web", "worker", "beat", "migrate"):
        assert set(services[name]["environment"]) <= settings_read(), name
        assert services[name]["env_file"] == ".env"
    # Workers scale (--scale worker=N): no fixed name, no published port.
    assert "container_name" not in services["worker"] and "ports" not in services["worker"]
    assert services["worker"]["environment"]["RUNS_STORE"].startswith("s3://")
    bucket = services["worker"]["environment"]["RUNS_STORE"].split("/")[2]
    assert f"verdict/{bucket}" in " ".join(services["bucket"]["command"])


@pytest.mark.parametrize("unit", list(UNITS))
def test_each_systemd_unit_starts_a_project_command_with_the_shared_environment(unit):
    text = (DEPLOY / "systemd" / unit).read_text(encoding="utf-8")
    assert "EnvironmentFile=/etc/verdict/verdict.env" in text
    assert re.search(r"^User=verdict$", text, re.MULTILINE)
    started = [project_command(argv) for argv in exec_starts(unit)]
    assert started[-1] == UNITS[unit]
