"""`python manage.py research`: runs, resumes, queues, and refuses bad input clearly."""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from research.celery import app as celery_app
from research.management.commands.research import _split_dimension
from research.models import Run
from research.questions import QuestionInvalid, Submission, clean_question
from research.runs import tasks
from research.store import store_for
from tools.bench.question_reading import shaped

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
    stages = store_for(run_id).index()["stages"]
    return {s: e["attempts"] for s, e in stages.items()}


def stage_lines(output: str) -> list[str]:
    return re.findall(r"^\[\d/5\] ([a-z-]+): (?!running)(\w+)", output, re.MULTILINE)


@pytest.fixture
def admin_user(django_user_model):
    return django_user_model.objects.create_superuser("root", password="x" * 12)


@pytest.fixture
def finished(runs_dir, admin_user) -> str:
    return run_id_of(research(QUESTION, "--source", LOCAL))


# --- a full run ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_corpus_with_a_file_name_that_is_not_utf8_still_answers(runs_dir, tmp_path, admin_user):
    import shutil

    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    with open(os.path.join(os.fsencode(corpus), b"bad-\xff\xfe-name.md"), "wb") as handle:
        handle.write(b"# Quillsync\n\nQuillsync is abandoned.\n")

    output = research(QUESTION, "--source", f"local:{corpus}")

    assert stage_lines(output) == [(label, "done") for label in STAGE_LABELS]


@pytest.mark.django_db
def test_a_full_run_prints_its_folder_progress_and_verdict_and_writes_the_report(
    runs_dir, tmp_path, admin_user
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
    stored = store_for(run_id)
    # The copy's links to stored extracts work from anywhere on this machine.
    assert "](round_3_pages/" not in report
    for target in re.findall(r"\]\((file://[^)]+)\)", report):
        assert Path(target.removeprefix("file://")).is_file(), target
    assert report.count("\n") == stored.read_text("report.md").count("\n")
    # A low-confidence report opens with its warning, before the title.
    assert re.search(r"^# Decision report", report, re.MULTILINE)
    if "Provisional recommendation" in output or "No recommendation" in output:
        assert report.startswith("> **Low confidence")
    else:
        assert report.startswith("# Decision report")
    run = Run.objects.get(run_id=run_id)
    assert run.status == Run.Status.DONE
    assert run.owner == admin_user, "a run from the command line belongs to the first superuser"


@pytest.mark.django_db
def test_a_best_option_on_one_site_is_named_with_its_site_instead_of_a_recommendation(
    runs_dir, admin_user, settings
):
    settings.MAX_PAGES = 3  # with three pages read, the best option rests on its own site
    weights = ["licence risk:0.4", "maintenance activity:0.35", "customisation cost:0.25"]
    output = research(QUESTION, "--source", LOCAL, *(f"--dimension={w}" for w in weights))
    decision = store_for(run_id_of(output)).read_json("round_5_decision.json")
    site = decision["recommendation"]["single_site"]
    assert site and decision["recommendation"]["option"] is None
    best = decision["ranking"][0]["option"]
    assert (
        f"No recommendation: {best} scores best, but all of its evidence comes from one site "
        f"({site}); a recommendation needs two or more independent sites."
    ) in output
    assert "could not be found or reached" not in output


# --- owner ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_run_belongs_to_the_user_named_with_user(admin_user, django_user_model, monkeypatch):
    monkeypatch.setattr(tasks, "start", lambda run_id, stage: None)
    django_user_model.objects.create_user("ada", password="x" * 12)
    run_id = run_id_of(research(QUESTION, "--source", LOCAL, "--user", "ada", "--queue"))
    assert Run.objects.get(run_id=run_id).owner.username == "ada"


@pytest.mark.django_db
def test_a_run_without_any_account_to_own_it_is_refused_with_what_to_do(runs_dir):
    with pytest.raises(CommandError) as caught:
        research(QUESTION, "--source", LOCAL)
    assert "there is no account yet: create one with" in str(caught.value)
    assert "manage.py createsuperuser" in str(caught.value)
    assert list(runs_dir.iterdir()) == []


@pytest.mark.django_db
def test_an_unknown_user_is_refused(admin_user):
    with pytest.raises(CommandError, match="no user named 'nobody'"):
        research(QUESTION, "--source", LOCAL, "--user", "nobody")


# --- bad input ----------------------------------------------------------------------------

BAD_INPUT = [
    pytest.param(["", "--source", LOCAL], "The question is empty", id="empty question"),
    pytest.param(
        ["What should we use to sync our notes?", "--source", LOCAL],
        "No options found in the question: name at least two",
        id="no options",
    ),
    pytest.param(
        [QUESTION, "--dimension", "cost:abc", "--source", LOCAL],
        "The weight of 'cost' must be a number above 0, like 0.3 or 30%; got 'abc'.",
        id="weight not a number",
    ),
    pytest.param(
        [QUESTION, "--dimension", "cost:-1", "--source", LOCAL],
        "The weight of 'cost' must be a number above 0",
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
    pytest.param(
        ["--resume", "feedc0ffee00", "--from-stage", "verify"],
        "unknown stage 'verify': choose one of retrieve, filter, deep-read, cross-validate, decide",
        id="unknown stage",
    ),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("args", "message"), BAD_INPUT)
def test_bad_input_is_refused_with_a_one_line_message(args, message, runs_dir, admin_user):
    with pytest.raises(CommandError) as caught:
        research(*args)
    text = str(caught.value)
    assert message in text
    assert "\n" not in text
    assert list(runs_dir.iterdir()) == [], "a refused command must not start a run"


@pytest.mark.serial  # it times itself
@pytest.mark.django_db
def test_a_megabyte_question_is_refused_at_once_in_one_short_line(runs_dir, admin_user):
    question = shaped("one clause", 1_000_000)  # read from every character, it took minutes
    dimensions = [arg for i in range(1_000) for arg in ("--dimension", f"d{i}:1")]
    start = time.perf_counter()
    with pytest.raises(CommandError) as caught:
        research(question, *dimensions, "--source", LOCAL)
    assert time.perf_counter() - start < 1.0
    text = str(caught.value)
    assert text.startswith("The question is 1,000,000 characters long; keep it to 2,000")
    assert "1,000 dimensions are far too many: give at most 50." in text
    assert len(text) < 1_000
    assert list(runs_dir.iterdir()) == []


def manage(
    tmp_path: Path, *args: str, python: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    """`manage.py ARGS` in a process of its own, with its own database and runs folder."""
    env = {
        **os.environ,
        "RUNS_DIR": str(tmp_path / "runs"),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'cli.sqlite3'}",
        "DJANGO_SUPERUSER_PASSWORD": "not-a-shared-default-1",
    }
    return subprocess.run(
        [sys.executable, *python, "manage.py", *args],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_bad_input_on_the_command_line_exits_non_zero_without_a_traceback(tmp_path):
    assert manage(tmp_path, "migrate", "--noinput").returncode == 0
    assert manage(tmp_path, "ensure_admin").returncode == 0
    proc = manage(tmp_path, "research", QUESTION, "--dimension", "cost:abc", "--source", LOCAL)
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines() == [
        "CommandError: The weight of 'cost' must be a number above 0, like 0.3 or 30%; got 'abc'."
    ]


def test_the_first_run_on_a_new_database_sets_it_up_before_anything_else(tmp_path):
    proc = manage(tmp_path, "research", QUESTION, "--source", LOCAL)
    assert "Setting up a new database (manage.py migrate)..." in proc.stdout
    assert "Traceback" not in proc.stderr
    # Set up, but empty: the run needs an account to own it, and the message says so.
    assert proc.returncode != 0
    assert "there is no account yet" in proc.stderr
    assert manage(tmp_path, "migrate", "--check").returncode == 0


def test_a_database_that_needs_an_upgrade_is_left_alone_with_the_command_to_run(tmp_path):
    assert manage(tmp_path, "migrate", "--noinput").returncode == 0
    assert manage(tmp_path, "migrate", "research", "0001", "--noinput").returncode == 0
    later = sorted(p.name for p in (settings.BASE_DIR / "research" / "migrations").glob("0*.py"))[
        1:
    ]
    proc = manage(tmp_path, "research", QUESTION, "--source", LOCAL)
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    count = f"{len(later)} migration{'s' if len(later) > 1 else ''}"
    assert proc.stderr.strip().splitlines() == [
        f"CommandError: the database needs {count}: run `make migrate` "
        "(or `.venv/bin/python manage.py migrate`) first"
    ]


# --- resume -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_resuming_a_finished_run_skips_every_stage(finished):
    output = research("--resume", finished)
    assert attempts(finished) == dict.fromkeys(attempts(finished), 1)
    assert all(status != "done" for _, status in stage_lines(output))
    assert re.search(r"^Confidence: \d+/100", output, re.MULTILINE)


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["cross-validate", "crosscheck", "Cross-Validate"])
def test_from_stage_takes_the_stage_names_the_readme_uses_as_well_as_the_ids(finished, name):
    output = research("--resume", finished, "--from-stage", name)
    assert stage_lines(output) == [("cross-validate", "done"), ("decide", "done")]
    assert attempts(finished)["crosscheck"] == 2 and attempts(finished)["deepread"] == 1


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


def first_page(run_id: str) -> tuple[str, bytes]:
    store = store_for(run_id)
    notes = store.read_json("round_3_notes.json")
    page = next(s["page"] for s in notes["sources"] if s.get("page"))
    return page, store.artifact_path(page).read_bytes()


@pytest.mark.django_db
def test_resume_repairs_a_truncated_stored_page_from_deep_read_on(finished):
    store = store_for(finished)
    page, whole = first_page(finished)
    store.artifact_path(page).write_bytes(whole[:50])

    output = research("--resume", finished)

    assert f"{page} is damaged: its contents no longer match the checksum" in output
    assert "Running deep-read and every later stage again." in output
    assert stage_lines(output) == [
        ("deep-read", "done"),
        ("cross-validate", "done"),
        ("decide", "done"),
    ]
    assert attempts(finished)["filter"] == 1
    assert store.artifact_path(page).read_bytes() == whole
    assert all(store.is_valid(name) for name in store.artifact_names())
    assert [e["file"] for e in store.read_log() if e["event"] == "artifact_damaged"] == [page]


@pytest.mark.django_db
def test_resume_rebuilds_a_corrupt_manifest_and_reruns_from_the_first_unsound_stage(finished):
    store = store_for(finished)
    store.path.joinpath("index.json").write_text('{"run_id": "x", "stag', encoding="utf-8")
    store.artifact_path("round_4_crosscheck.json").write_text('{"claims": [', encoding="utf-8")

    output = research("--resume", finished)

    assert "index.json is damaged: it is not valid JSON" in output
    assert "rebuilt the manifest from the files that are sound, up to deep-read" in output
    assert stage_lines(output) == [("cross-validate", "done"), ("decide", "done")]
    assert store.path.joinpath("index.json.damaged").read_text() == '{"run_id": "x", "stag'
    assert all(store.is_valid(name) for name in store.artifact_names())
    assert store.index()["params"]["question"] == QUESTION
    assert re.search(r"^Confidence: \d+/100", output, re.MULTILINE)


def digests(store) -> dict[str, str]:
    """sha256 of every file in the run folder but the manifest, the log and the locks."""
    return {
        path.relative_to(store.path).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in store.path.rglob("*")
        if path.is_file() and not path.name.startswith((".", "index.json", "log.jsonl"))
    }


@pytest.mark.django_db
def test_resume_rebuilds_a_deleted_manifest_and_leaves_every_artifact_as_it_was(finished):
    store = store_for(finished)
    before, listed = digests(store), store.index()["artifacts"]
    store.path.joinpath("index.json").unlink()

    output = research("--resume", finished)

    assert "index.json is damaged: it is missing" in output
    assert "rebuilt the manifest; every stage's output is sound" in output
    assert "Every stage already has valid output; nothing to run." in output
    assert digests(store) == before
    assert store.index()["artifacts"] == listed
    assert attempts(finished) == dict.fromkeys(attempts(finished), 1)


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
def test_a_queued_run_completes_through_the_stage_tasks(eager_celery, admin_user):
    output = research(QUESTION, "--source", LOCAL, "--queue")
    run_id = run_id_of(output)
    assert "Queued for the workers" in output
    assert stage_lines(output) == [], "a queued run is not run in the command itself"
    run = Run.objects.get(run_id=run_id)
    assert run.status == Run.Status.DONE
    assert set(run.stages.values_list("status", flat=True)) == {"done"}
    assert attempts(run_id) == dict.fromkeys(attempts(run_id), 1)
    assert store_for(run_id).is_valid("report.md")


@pytest.mark.django_db
def test_a_queued_run_with_out_waits_for_the_workers_and_writes_the_report(
    eager_celery, admin_user, tmp_path
):
    out_file = tmp_path / "queued.md"
    output = research(QUESTION, "--source", LOCAL, "--queue", "--out", str(out_file))
    run_id = run_id_of(output)
    assert "waiting up to 1800s" in output
    assert f"Report written to {out_file}" in output
    copy = out_file.read_text(encoding="utf-8")
    assert "](round_3_pages/" not in copy
    assert copy.splitlines()[0] == store_for(run_id).read_text("report.md").splitlines()[0]


@pytest.mark.django_db
def test_a_queued_run_that_outlasts_the_wait_says_where_its_report_will_be(
    admin_user, tmp_path, monkeypatch
):
    monkeypatch.setattr(tasks, "start", lambda run_id, stage: None)  # no worker picks it up
    out_file = tmp_path / "late.md"
    with pytest.raises(CommandError) as caught:
        research(QUESTION, "--source", LOCAL, "--queue", "--out", str(out_file), "--wait", "0.3")
    run = Run.objects.get()
    report = store_for(run.run_id).artifact_path("report.md")
    assert str(caught.value) == (
        "the run is still going after 0s, so no report was written to the --out file; the "
        f"workers carry on, and the report will be at {report}"
    )
    assert not out_file.exists()


@pytest.mark.django_db
def test_a_queue_that_does_not_answer_fails_the_run_and_says_so(admin_user, monkeypatch):
    def broker_down(run_id: str, stage: str) -> None:
        raise ConnectionRefusedError(111, "Connection refused")

    monkeypatch.setattr(tasks, "start", broker_down)
    with pytest.raises(CommandError, match=r"the task queue \(Redis\) did not answer"):
        research(QUESTION, "--source", LOCAL, "--queue")
    assert Run.objects.get().status == Run.Status.FAILED


# --- unreachable sources --------------------------------------------------------------------


@pytest.mark.django_db
def test_a_run_whose_every_source_is_unreachable_writes_its_report_then_exits_non_zero(
    admin_user, tmp_path
):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        closed = sock.getsockname()[1]  # nothing listens here once the socket closes
    out_file = tmp_path / "nothing.md"
    out = io.StringIO()
    with pytest.raises(CommandError) as caught:
        call_command(
            "research",
            QUESTION,
            "--source",
            f"searxng:http://127.0.0.1:{closed}",
            "--out",
            str(out_file),
            stdout=out,
            no_color=True,
        )
    assert "no source could be reached (every search failed)" in str(caught.value)
    assert "No recommendation" in out.getvalue()
    run_id = run_id_of(out.getvalue())
    assert out_file.read_text(encoding="utf-8") == store_for(run_id).read_text("report.md")


@pytest.mark.django_db
def test_a_source_that_answers_with_nothing_found_is_not_unreachable(admin_user, tmp_path):
    empty = tmp_path / "empty-corpus"
    empty.mkdir()
    output = research(QUESTION, "--source", f"local:{empty}")
    assert "No recommendation" in output


@pytest.mark.parametrize(
    ("spec", "parsed"),
    [
        ("cost:0.5", ("cost", 0.5)),
        ("licence risk", ("licence risk", 1.0)),
        (" licence   risk : 2 ", ("licence risk", 2.0)),
        ("cost=3", ("cost", 3.0)),
        ("cost:40%", ("cost", 0.4)),
        ("成本：0.3", ("成本", 0.3)),
    ],
)
def test_a_dimension_is_read_from_its_cli_form(spec: str, parsed: tuple[str, float]) -> None:
    form = Submission(question=QUESTION, dimensions=[_split_dimension(spec)], sources=[LOCAL])
    [dimension] = clean_question(form, trusted_sources=True).dimensions
    assert (dimension.name, dimension.weight) == (parsed[0], pytest.approx(parsed[1]))


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("cost:high", "must be a number above 0, like 0.3 or 30%; got 'high'"),
        ("cost:0", "must be a number above 0"),
        ("cost:-0.2", "must be a number above 0"),
        ("cost:inf", "must be a number above 0"),
        (":0.5", "has no name"),
    ],
)
def test_a_bad_dimension_in_its_cli_form_says_what_is_wrong(spec: str, message: str) -> None:
    form = Submission(question=QUESTION, dimensions=[_split_dimension(spec)], sources=[LOCAL])
    with pytest.raises(QuestionInvalid, match=message):
        clean_question(form, trusted_sources=True)


# --- the process --------------------------------------------------------------------------


def imported(stderr: str) -> set[str]:
    """The modules `python -X importtime` reports a process imported."""
    return {line.rsplit("|", 1)[1].strip() for line in stderr.splitlines() if "| " in line}


def test_help_answers_without_loading_the_run_engine(tmp_path):
    proc = manage(tmp_path, "research", "--help", python=("-X", "importtime"))
    assert proc.returncode == 0
    assert "--from-stage STAGE" in proc.stdout
    modules = imported(proc.stderr)
    assert "research.names" in modules  # the stage names, for --from-stage
    assert not modules & {"research.services", "research.runs.execute", "research.web.views"}


def test_a_run_imports_no_client_it_does_not_use_and_exits_with_everything_written(tmp_path):
    assert manage(tmp_path, "migrate", "--noinput").returncode == 0
    assert manage(tmp_path, "ensure_admin").returncode == 0
    out = tmp_path / "report.md"
    proc = manage(
        tmp_path,
        "research",
        QUESTION,
        "--source",
        LOCAL,
        "--out",
        str(out),
        python=("-X", "importtime"),
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.splitlines()[-1].startswith("Confidence: ")
    assert "## Score matrix" in out.read_text(encoding="utf-8")
    # No MCP source, no PDF in the folder, no DuckDuckGo: none of their clients was loaded.
    top_level = {m.split(".")[0] for m in imported(proc.stderr)}
    assert not top_level & {"mcp", "mcp_types", "pypdf", "ddgs", "uvicorn"}
    # The process ended at once, but only after the database had the run's end.
    with sqlite3.connect(tmp_path / "cli.sqlite3") as db:
        assert db.execute("SELECT status FROM research_run").fetchall() == [("done",)]


@pytest.mark.django_db
def test_the_cli_scores_the_dimensions_the_question_names(runs_dir, admin_user) -> None:
    output = research(
        "For our notes app, choose between Quillsync, Loamdb and Tessera; licence risk "
        "matters most, then maintenance activity",
        "--source",
        LOCAL,
    )

    plan = json.loads((runs_dir / run_id_of(output) / "round_0_plan.json").read_text("utf-8"))
    assert [(d["name"], round(d["weight"], 3), d["origin"]) for d in plan["dimensions"]] == [
        ("licence risk", 0.667, "question"),
        ("maintenance activity", 0.333, "question"),
    ]


@pytest.mark.django_db
def test_the_cli_says_when_the_dimensions_cannot_be_read(runs_dir, admin_user) -> None:
    with pytest.raises(CommandError, match="no dimension could be read"):
        research(QUESTION + ", weighing everything that could matter to us", "--source", LOCAL)
