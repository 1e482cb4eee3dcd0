"""submit_question: the one way a question becomes a run, and every message it refuses with."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from research.models import Run
from research.questions import Submission
from research.runs import tasks
from research.services import QuestionInvalid, submit_question
from research.store import store_for

pytestmark = pytest.mark.django_db

CORPUS = Path(__file__).resolve().parent.parent / "fixtures" / "corpus" / "notes_en"
QUESTION = "For our local-first notes app, choose between Quillsync, Loamdb and Tessera"


@pytest.fixture(autouse=True)
def configured(settings):
    settings.SOURCES = {
        "notes": f"local:{CORPUS}",
        "web": "searxng:http://127.0.0.1:8888",
        "ddg": "ddgs",
    }
    settings.DEFAULT_SOURCES = ["notes"]


@pytest.fixture
def owner():
    return get_user_model().objects.create_user("ada", password="x" * 12)


@pytest.fixture
def started(monkeypatch) -> list[tuple[str, str]]:
    """Stage starts handed to the task queue, recorded instead of sent to a broker."""
    calls: list[tuple[str, str]] = []
    monkeypatch.setattr(tasks, "start", lambda run_id, stage: calls.append((run_id, stage)))
    return calls


def refused(trusted_sources: bool = False, **form) -> dict[str, list[str]]:
    form.setdefault("question", QUESTION)
    with pytest.raises(QuestionInvalid) as caught:
        submit_question(None, Submission(**form), trusted_sources=trusted_sources)
    assert isinstance(caught.value, ValueError)
    return caught.value.errors


# --- a valid question -----------------------------------------------------------------------


def test_a_valid_question_becomes_a_run_with_its_folder_owned_by_the_submitter(owner, started):
    run = submit_question(
        owner,
        Submission(
            question=f"  {QUESTION}  ",
            dimensions=[("licence risk", 0.4), {"name": "cost", "weight": "60%"}],
            sources=["notes", "ddg"],
            limits={"max_pages": "5", "max_kept": ""},
        ),
    )
    run.refresh_from_db()
    assert run.owner == owner
    assert run.question == QUESTION
    assert run.options == []  # read from the question by the first stage
    assert run.dimensions == [
        {"name": "licence risk", "weight": 0.4, "origin": "form"},
        {"name": "cost", "weight": 0.6, "origin": "form"},
    ]
    assert run.sources == ["local://notes", "ddgs"]  # a folder by its name, never its path
    assert run.limits == {"max_pages": 5}
    assert run.status == Run.Status.QUEUED
    assert store_for(run.run_id).index()["params"]["owner"] == "ada"


def test_the_first_stage_is_queued_only_once_the_transaction_commits(
    owner, started, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        run = submit_question(owner, Submission(question=QUESTION))
        assert started == [], "nothing may be queued before the run is committed"
    assert len(callbacks) == 1
    assert started == [(run.run_id, "retrieve")]


def test_no_stage_is_queued_when_the_caller_runs_it_itself(
    owner, started, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        submit_question(owner, Submission(question=QUESTION), enqueue=False)
    assert callbacks == [] and started == []


def test_a_task_queue_that_does_not_answer_fails_the_run_in_plain_words(
    owner, monkeypatch, django_capture_on_commit_callbacks
):
    def broker_down(run_id: str, stage: str) -> None:
        raise ConnectionRefusedError(111, "Connection refused")

    monkeypatch.setattr(tasks, "start", broker_down)
    with django_capture_on_commit_callbacks(execute=True):
        run = submit_question(owner, Submission(question=QUESTION))
    run.refresh_from_db()
    assert run.status == Run.Status.FAILED
    assert "task queue (Redis) did not answer" in run.error
    store = store_for(run.run_id)
    first = store.index()["stages"]["retrieve"]
    assert first["status"] == "failed"
    assert "task queue (Redis) did not answer" in first["error"]
    assert [e["stage"] for e in store.read_log() if e["event"] == "stage_failed"] == ["retrieve"]


def test_given_options_are_kept_and_a_preset_is_recorded_when_no_dimensions_are_given(
    owner, started
):
    run = submit_question(
        owner,
        Submission(
            question="Which sync engine should we adopt?",
            options=["Quillsync", " Loamdb ", ""],
            preset="Procurement",
        ),
    )
    assert run.options == ["Quillsync", "Loamdb"]
    assert run.preset == "procurement"
    assert run.dimensions == []


def test_no_source_chosen_uses_the_default_sources(owner, started):
    run = submit_question(owner, Submission(question=QUESTION))
    assert run.sources == ["local://notes"]


# --- every message --------------------------------------------------------------------------


def test_an_empty_question_is_refused():
    assert refused(question="   \n ") == {
        "question": ["The question is empty: say what you need to decide."]
    }


def test_a_question_over_2000_characters_is_refused():
    errors = refused(question="Quillsync vs Loamdb " + "x" * 2000)
    assert errors["question"] == [
        "The question is 2,020 characters long; keep it to 2,000 or fewer and leave "
        "background to the sources."
    ]


def test_a_question_of_exactly_2000_characters_is_accepted(owner, started):
    question = "Quillsync vs Loamdb? " + "x" * 1979
    assert len(question) == 2000
    assert submit_question(owner, Submission(question=question)).question == question


def test_a_question_naming_no_options_needs_them_given():
    errors = refused(question="What should we use to sync our notes?")
    assert errors == {
        "options": [
            "No options found in the question: name at least two, as in 'A vs B' or "
            "'choose between A, B and C', or list them as options."
        ]
    }


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["Quillsync"], "Name at least two options to compare; got only 'Quillsync'."),
        ([f"Tool {n}" for n in range(9)], "9 options are too many: compare at most 8."),
        (["Quillsync", "quillsync"], "The option 'quillsync' is listed twice."),
        (["Quillsync", "Q" * 101], f"The option '{'Q' * 40}'… is longer than 100 characters."),
    ],
    ids=["one option", "too many options", "duplicate option", "option too long"],
)
def test_options_that_cannot_be_compared_are_refused(options, message):
    assert refused(options=options) == {"options": [message]}


@pytest.mark.parametrize(
    ("weight", "shown"),
    [
        ("abc", "'abc'"),
        ("-1", "'-1'"),
        (0, "0"),
        ("nan", "'nan'"),
        ("inf", "'inf'"),
        (True, "True"),
    ],
)
def test_a_weight_that_is_not_a_positive_number_is_refused(weight, shown):
    errors = refused(dimensions=[{"name": "cost", "weight": weight}])
    assert errors == {
        "dimensions": [
            f"The weight of 'cost' must be a number above 0, like 0.3 or 30%; got {shown}."
        ]
    }


@pytest.mark.parametrize(
    ("dimensions", "message"),
    [
        ([("", "0.3")], "A dimension with weight 0.3 has no name."),
        ([("cost", 1), ("Cost", 2)], "The dimension 'Cost' is listed twice."),
        ([(f"d{n}", 1) for n in range(13)], "13 dimensions are too many: use at most 12."),
    ],
    ids=["no name", "duplicate", "too many"],
)
def test_dimensions_that_cannot_be_weighed_are_refused(dimensions, message):
    assert refused(dimensions=dimensions) == {"dimensions": [message]}


def test_empty_dimension_rows_are_ignored_and_a_blank_weight_counts_as_one(owner, started):
    rows = [{"name": "cost", "weight": ""}, {"name": "", "weight": ""}, ("risk", None)]
    run = submit_question(owner, Submission(question=QUESTION, dimensions=rows))
    assert run.dimensions == [
        {"name": "cost", "weight": 1.0, "origin": "form"},
        {"name": "risk", "weight": 1.0, "origin": "form"},
    ]


def test_an_unknown_preset_is_refused_under_dimensions():
    assert refused(preset="gardening") == {
        "dimensions": ["Unknown preset 'gardening': choose clinical, procurement or tech."]
    }


def test_an_unknown_source_is_refused_with_the_names_there_are():
    assert refused(sources=["notes", "intranet"]) == {
        "sources": ["Unknown source 'intranet': choose from notes, web, ddg."]
    }


@pytest.mark.parametrize(
    "spec", ["local:/etc", "/etc", "searxng:http://169.254.169.254", "ddgs", "local:."]
)
def test_a_web_user_cannot_name_a_folder_or_a_url_as_a_source(spec):
    errors = refused(sources=[spec])
    assert errors["sources"][0].startswith(f"Unknown source {spec.lower()!r}: choose from")


def test_a_configured_source_that_is_missing_on_the_server_is_refused_without_its_path(
    settings, tmp_path
):
    settings.SOURCES = {"notes": f"local:{tmp_path / 'gone'}"}
    errors = refused(sources=["notes"])
    assert errors == {
        "sources": [
            "The source 'notes' is not available on this server right now; ask the operator."
        ]
    }
    assert str(tmp_path) not in str(errors)


def test_no_source_chosen_and_no_default_asks_for_one(settings):
    settings.DEFAULT_SOURCES = []
    assert refused() == {"sources": ["Choose at least one source."]}


def test_without_any_configured_source_the_message_says_the_operator_must_set_one(settings):
    settings.SOURCES = {}
    settings.DEFAULT_SOURCES = []
    assert refused(sources=["notes"]) == {
        "sources": [
            "Unknown source 'notes': no sources are configured on this server; ask the "
            "operator to set SOURCES."
        ]
    }


def test_the_operator_may_name_raw_specs_and_configured_names_when_trusted(owner, started):
    run = submit_question(
        owner,
        Submission(question=QUESTION, sources=[f"local:{CORPUS}", "web", "ddgs"]),
        trusted_sources=True,
    )
    assert run.sources == [f"local:{CORPUS}", "searxng:http://127.0.0.1:8888", "ddgs"]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            "local:/no/such/folder",
            "Source 'local:/no/such/folder': folder /no/such/folder does not exist.",
        ),
        (
            "gopher:x",
            "Source 'gopher:x': unknown kind 'gopher'; use local:DIR, searxng:URL, ddgs, "
            "mcp:NAMESPACE.TOOL or primary:NAME.",
        ),
        (
            "primary:gopher",
            "Source 'primary:gopher': no primary source named 'gopher'; use one of github, "
            "pypi, npm, crates, wikipedia, arxiv, europepmc, clinicaltrials.",
        ),
    ],
)
def test_a_bad_raw_spec_from_the_operator_says_what_is_wrong(spec, message):
    assert refused(sources=[spec], trusted_sources=True) == {"sources": [message]}


@pytest.mark.parametrize(
    ("limits", "message"),
    [
        ({"max_pages": 0}, "Pages to read must be a whole number from 1 to 100; got 0."),
        ({"max_pages": "2.5"}, "Pages to read must be a whole number from 1 to 100; got '2.5'."),
        (
            {"max_candidates": 500},
            "Candidates to find must be a whole number from 1 to 200; got 500.",
        ),
        (
            {"max_page_chars": "10"},
            "Characters read per page must be a whole number from 500 to 200,000; got '10'.",
        ),
        (
            {"max_kept": 2, "min_kept": 5},
            "Fewest sources before a broader search (5) cannot be more than sources to keep (2).",
        ),
        (
            {"tokens": 5},
            "'tokens' is not a limit that can be set; use max_candidates, max_kept, min_kept, "
            "max_pages, max_page_chars.",
        ),
    ],
    ids=[
        "zero",
        "fraction",
        "too many candidates",
        "too few characters",
        "min over max",
        "unknown",
    ],
)
def test_limits_out_of_range_are_refused(limits, message):
    assert refused(limits=limits) == {"limits": [message]}


def test_every_problem_is_reported_at_once_under_its_field():
    with pytest.raises(QuestionInvalid) as caught:
        submit_question(
            None,
            Submission(
                question="",
                dimensions=[("cost", "free")],
                sources=["nowhere"],
                limits={"max_pages": -1},
            ),
        )
    assert sorted(caught.value.errors) == ["dimensions", "limits", "question", "sources"]
    assert str(caught.value).startswith("The question is empty")


def test_a_refused_question_leaves_no_run_behind(runs_dir):
    refused(question="")
    assert not Run.objects.exists()
    assert list(runs_dir.iterdir()) == []


BROKER = (
    "For an event-driven backend, choose between RabbitMQ, Apache Kafka and NATS, "
    "weighing delivery guarantees, operational complexity and throughput."
)


def test_dimensions_the_question_names_win_over_the_preset_and_say_so(started) -> None:
    run = submit_question(None, Submission(question=BROKER, preset="tech"))

    run.refresh_from_db()
    assert [(d["name"], d["origin"]) for d in run.dimensions] == [
        ("delivery guarantees", "question"),
        ("operational complexity", "question"),
        ("throughput", "question"),
    ]
    assert run.preset == "tech"  # chosen, and set aside: the run page says so


def test_weights_written_in_the_question_reach_the_run(started) -> None:
    run = submit_question(
        None, Submission(question="飞书还是钉钉？考虑价格、安全性和易用性，价格占 40%")
    )

    run.refresh_from_db()
    assert {d["name"]: d["weight"] for d in run.dimensions} == {
        "价格": 40.0,
        "安全性": 30.0,
        "易用性": 30.0,
    }


def test_rows_the_form_gives_are_kept_and_those_the_question_names_are_marked(started) -> None:
    run = submit_question(
        None, Submission(question=BROKER, dimensions=[("throughput", "50%"), ("cost", "50%")])
    )

    run.refresh_from_db()
    assert [(d["name"], d["origin"]) for d in run.dimensions] == [
        ("throughput", "question"),
        ("cost", "form"),
    ]


def test_dimensions_that_cannot_be_read_are_named_as_the_problem() -> None:
    errors = refused(question="Vue vs React, weighing everything that could matter to us")

    assert list(errors) == ["dimensions"]
    assert "no dimension could be read" in errors["dimensions"][0]
    assert not Run.objects.exists()


def test_without_a_chosen_preset_none_is_named_as_set_aside(started) -> None:
    run = submit_question(None, Submission(question=BROKER))

    run.refresh_from_db()
    assert run.preset == "" and len(run.dimensions) == 3
