"""`python manage.py research`: runs, resumes, queues, and refuses bad input clearly."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from research import services
from research.celery import app as celery_app
from research.models import Run

CORPUS = Path(__file__).resolve().parent.parent / "fixtures" / "corpus" / "notes_en"
LOCAL = f"local:{CORPUS}"
QUESTION = "For our local-first notes app, choose between Quillsync, Loamdb and Tessera"
STAGE_LABELS = ["retrieve", "filter", "deep-read", "cross-validate", "decide"]


def research(*args: str) -> str:
    out = io.StringIO()
    call_command("research", *args, stdout=out, no_color=True)
    return out.getvalue()


def run_id_of(output: str) -> str:
    match = re.search(r"^Run (\w+): ", output, re.MULTILINE)
    assert match, output
    return match.group(1)


def attempts(run_id: str) -> dict[str, int]:
    stages = services.store_for(run_id).index()["stages"]
    return {s: e["attempts"] for s, e in stages.items()}


def stage_lines(output: str) -> list[str]:
    return re.findall(r"^\[\d/5\] ([a-z-]+): (?!running)(\w+)", output, re.MULTILINE)


@pytest.fixture
def finished(runs_dir) -> str:
    return run_id_of(research(QUESTION, "--source", LOCAL))


# --- a full run ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_full_run_prints_its_folder_progress_and_verdict_and_writes_the_report(
    runs_dir, tmp_path
):
    out_file = tmp_path / "out" / "report.md"
    output = research(QUESTION, "--source", LOCAL, "--out", str(out_file))
    run_id = run_id_of(output)
    assert f"Run {run_id}: {runs_dir.resolve() / run_id}" in output
    for n, label in enumerate(STAGE_LABELS, 1):
        assert re.search(rf"^\[{n}/5\] {label}: running$", output, re.MULTILINE), label
        assert re.search(rf"^\[{n}/5\] {label}: done in \d", output, re.MULTILINE), label
    assert re.search(r"^(Provisional r|R)ecommendation: \w+", output, re.MULTILINE)
    assert re.search(r"^Confidence: \d+/100", output, re.MULTILINE)
    report = out_file.read_text(encoding="utf-8")
    assert report == services.store_for(run_id).read_text("report.md")
    # A low-confidence report opens with its warning, before the title.
    assert re.search(r"^# Decision report", report, re.MULTILINE)
    if "Provisional recommendation" in output or "No recommendation" in output:
        assert report.startswith("> **Low confidence")
    else:
        assert report.startswith("# Decision report")
    assert Run.objects.get(run_id=run_id).status == Run.Status.DONE


# --- bad input ----------------------------------------------------------------------------

BAD_INPUT = [
    pytest.param(["", "--source", LOCAL], "the question is empty", id="empty question"),
    pytest.param(
        ["What should we use to sync our notes?", "--source", LOCAL],
        "name at least two options",
        id="no options",
    ),
    pytest.param(
        [QUESTION, "--dimension", "cost:abc", "--source", LOCAL],
        "the weight of 'cost' must be a number",
        id="weight not a number",
    ),
    pytest.param(
        [QUESTION, "--dimension", "cost:-1", "--source", LOCAL],
        "the weight of 'cost' must be a number above 0",
        id="negative weight",
    ),
    pytest.param(
        [QUESTION, "--source", "local:/no/such/folder"], "does not exist", id="missing folder"
    ),
    pytest.param([QUESTION, "--source", "gopher:x"], "unknown kind 'gopher'", id="unknown kind"),
    pytest.param(
        [QUESTION, "--source", LOCAL, "--from-stage", "decide"],
        "--from-stage needs --resume",
        id="from-stage without resume",
    ),
    pytest.param(["--resume", "feedc0ffee00"], "no run folder", id="unknown run id"),
    pytest.param(["--resume", "../x"], "not a valid run id", id="path traversal run id"),
]


@pytest.mark.parametrize(("args", "message"), BAD_INPUT)
def test_bad_input_is_refused_with_a_one_line_message(args, message, runs_dir):
    with pytest.raises(CommandError) as caught:
        research(*args)
    text = str(caught.value)
    assert message in text
    assert "\n" not in text
    assert list(runs_dir.iterdir()) == [], "a refused command must not start a run"


def test_bad_input_on_the_command_line_exits_non_zero_without_a_traceback(tmp_path):
    env = {
        **os.environ,
        "RUNS_DIR": str(tmp_path / "runs"),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'cli.sqlite3'}",
    }
    args = [QUESTION, "--dimension", "cost:abc", "--source", LOCAL]
    proc = subprocess.run(
        [sys.executable, "manage.py", "research", *args],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines() == [
        "CommandError: the weight of 'cost' must be a number, like cost:0.3, got 'abc'"
    ]


# --- resume -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_resuming_a_finished_run_skips_every_stage(finished):
    output = research("--resume", finished)
    assert attempts(finished) == dict.fromkeys(attempts(finished), 1)
    assert all(status != "done" for _, status in stage_lines(output))
    assert re.search(r"^Confidence: \d+/100", output, re.MULTILINE)


@pytest.mark.django_db
def test_resuming_from_decide_reruns_only_decide(finished):
    output = research("--resume", finished, "--from-stage", "decide")
    assert stage_lines(output) == [("decide", "done")]
    assert attempts(finished) == {
        "retrieve": 1,
        "filter": 1,
        "deepread": 1,
        "crosscheck": 1,
        "decide": 2,
    }
    assert re.search(r"^Confidence: \d+/100", output, re.MULTILINE)


# --- queue --------------------------------------------------------------------------------


@pytest.fixture
def eager_celery(settings):
    # Read first: the first access loads the app's config from the Django settings, and
    # it must load them unchanged, or the worker tests that follow would run eagerly too.
    previous = celery_app.conf.task_always_eager
    settings.CELERY_TASK_ALWAYS_EAGER = True
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = previous


@pytest.mark.django_db
def test_a_queued_run_completes_through_the_stage_tasks(eager_celery):
    output = research(QUESTION, "--source", LOCAL, "--queue")
    run_id = run_id_of(output)
    assert "Queued for the workers" in output
    assert stage_lines(output) == [], "a queued run is not run in the command itself"
    run = Run.objects.get(run_id=run_id)
    assert run.status == Run.Status.DONE
    assert set(run.stages.values_list("status", flat=True)) == {"done"}
    assert attempts(run_id) == dict.fromkeys(attempts(run_id), 1)
    assert services.store_for(run_id).is_valid("report.md")
