"""The question form: what it offers, every message it refuses with, and where it leads."""

from __future__ import annotations

import html
import re
import time

import pytest
from django.test import Client

from research.models import Run
from tests.research.web.conftest import QUESTION
from tools.bench.question_reading import shaped

pytestmark = pytest.mark.django_db


def errors_of(response, field: str) -> list[str]:
    """The messages shown next to one field of the form."""
    found = re.search(rf'<ul class="errors" id="{field}-errors">(.*?)</ul>', response.text, re.S)
    if found is None:
        return []
    return [html.unescape(m) for m in re.findall(r"<li>(.*?)</li>", found.group(1), re.S)]


def post(client: Client, **fields):
    data = {"question": QUESTION, "preset": "tech", "sources": ["notes"], **fields}
    return client.post("/new/", data)


def test_the_home_page_is_the_question_form(ada_client):
    response = ada_client.get("/")
    assert response.status_code == 200
    assert 'name="question"' in response.text
    assert 'maxlength="2000"' in response.text
    assert "/ 2,000 characters" in response.text


def test_the_form_offers_only_the_configured_sources_by_name_never_their_folders(
    ada_client, notes_corpus
):
    response = ada_client.get("/new/")
    assert 'value="notes" checked' in response.text  # the default source
    assert 'value="ddg"' in response.text
    assert str(notes_corpus) not in response.text


def test_the_form_offers_each_preset_with_its_dimensions_and_blank_custom_rows(ada_client):
    response = ada_client.get("/new/")
    assert 'value="tech" checked' in response.text
    assert 'value="procurement"' in response.text
    assert "learning curve" in response.text and "after-sales support" in response.text
    assert response.text.count('name="dimension_name"') == 5  # usable without JavaScript


def test_a_valid_question_redirects_to_its_run_page_and_is_queued(ada, ada_client, started):
    response = post(ada_client, options="Quillsync, Loamdb\nTessera")
    run = Run.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/runs/{run.run_id}/"
    assert run.owner == ada
    assert run.options == ["Quillsync", "Loamdb", "Tessera"]
    assert run.preset == "tech"


def test_custom_dimension_rows_and_limits_reach_the_run(ada_client, started):
    post(
        ada_client,
        preset="custom",
        dimension_name=["licence risk", "cost", ""],
        dimension_weight=["2", "25%", ""],
        max_pages="5",
        max_kept="",
    )
    run = Run.objects.get()
    assert run.dimensions == [
        {"name": "licence risk", "weight": 2.0, "origin": "form"},
        {"name": "cost", "weight": 0.25, "origin": "form"},
    ]
    assert run.preset == ""
    assert run.limits == {"max_pages": 5}


def test_an_empty_question_is_refused_with_a_message_next_to_it(ada_client, started):
    response = post(ada_client, question="   ")
    assert response.status_code == 200
    assert errors_of(response, "question") == [
        "The question is empty: say what you need to decide."
    ]
    assert "could not be started" in response.text
    assert not Run.objects.exists() and not started


def test_a_question_over_2000_characters_is_refused_and_kept_in_the_form(ada_client):
    long = "Quillsync or Loamdb? " + "x" * 2_000
    response = post(ada_client, question=long)
    [message] = errors_of(response, "question")
    assert "2,021 characters long" in message and "2,000 or fewer" in message
    assert long in response.text  # nothing typed is lost
    assert not Run.objects.exists()


@pytest.mark.parametrize("weight", ["abc", "0", "-1", "nan"])
def test_a_weight_that_is_not_a_positive_number_is_refused(ada_client, weight):
    response = post(ada_client, preset="custom", dimension_name=["cost"], dimension_weight=[weight])
    [message] = errors_of(response, "dimensions")
    assert message.startswith("The weight of 'cost' must be a number above 0")
    assert f'value="{weight}"' in response.text  # the row is shown again as typed
    assert not Run.objects.exists()


def test_own_dimensions_chosen_but_none_named_is_refused(ada_client):
    response = post(ada_client, preset="custom", dimension_name=[""], dimension_weight=[""])
    assert errors_of(response, "dimensions") == ["Add at least one dimension, or choose a preset."]


def test_an_unknown_source_is_refused_with_the_sources_there_are(ada_client):
    response = post(ada_client, sources=["intranet"])
    assert errors_of(response, "sources") == ["Unknown source 'intranet': choose from notes, ddg."]
    assert not Run.objects.exists()


@pytest.mark.parametrize("spec", ["local:/etc", "searxng:http://10.0.0.1:8888"])
def test_a_folder_or_a_url_cannot_be_given_as_a_source(ada_client, spec):
    response = post(ada_client, sources=[spec])
    [message] = errors_of(response, "sources")
    assert message.startswith("Unknown source")
    assert not Run.objects.exists()


def test_a_single_option_is_refused_next_to_the_options(ada_client):
    response = post(ada_client, options="Quillsync")
    assert errors_of(response, "options") == [
        "Name at least two options to compare; got only 'Quillsync'."
    ]


def test_a_limit_out_of_range_is_refused_and_the_advanced_section_opens(ada_client):
    response = post(ada_client, max_pages="lots")
    [message] = errors_of(response, "limits")
    assert message.startswith("Pages to read must be a whole number")
    assert '<details class="field advanced invalid" open>' in response.text


def test_every_problem_is_reported_at_once(ada_client):
    response = post(ada_client, question="", sources=["nowhere"], max_kept="0")
    assert errors_of(response, "question")
    assert errors_of(response, "sources")
    assert errors_of(response, "limits")
    assert "fix the 3 highlighted parts" in response.text


def test_the_form_refuses_a_post_without_its_csrf_token(ada):
    client = Client(enforce_csrf_checks=True)
    client.force_login(ada)
    response = client.post("/new/", {"question": QUESTION, "sources": ["notes"]})
    assert response.status_code == 403
    assert not Run.objects.exists()


def test_the_form_accepts_a_post_with_its_csrf_token(ada, started):
    client = Client(enforce_csrf_checks=True)
    client.force_login(ada)
    page = client.get("/new/")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
    response = client.post(
        "/new/", {"question": QUESTION, "sources": ["notes"], "csrfmiddlewaretoken": token}
    )
    assert response.status_code == 302


def test_the_form_needs_a_signed_in_person(client):
    response = client.get("/new/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    assert client.post("/new/", {"question": QUESTION}).status_code == 302
    assert not Run.objects.exists()


def test_the_form_lists_only_your_own_recent_runs(ada_client, bob):
    from tests.research.web.conftest import make_run

    make_run(bob, question="Bob's secret question: Alpha or Beta?")
    mine = make_run(None, question="Unowned: Gamma or Delta?")
    response = ada_client.get("/new/")
    assert "Bob's secret" not in html.unescape(response.text)
    assert mine.question not in response.text
    assert "Your runs will appear here." in response.text


BROKER = (
    "For an event-driven backend, choose between RabbitMQ, Apache Kafka and NATS, "
    "weighing delivery guarantees, operational complexity and throughput."
)


def test_the_form_reads_the_dimensions_of_a_question_as_it_is_typed(ada_client):
    response = ada_client.get(
        "/new/reading/", {"question": "飞书还是钉钉？考虑价格、安全性，价格占 60%"}
    )

    assert response.status_code == 200
    assert response.json() == {
        "options": ["飞书", "钉钉"],
        "dimensions": [{"name": "价格", "percent": 60.0}, {"name": "安全性", "percent": 40.0}],
        "problems": {},
    }


def test_the_reading_says_which_part_of_the_question_cannot_be_read(ada_client):
    response = ada_client.get("/new/reading/", {"question": "A vs B, weighing everything we know"})

    assert response.json()["dimensions"] == []
    assert "no dimension could be read" in response.json()["problems"]["dimensions"]


def test_the_reading_is_for_signed_in_people_only(client):
    response = client.get("/new/reading/", {"question": BROKER})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_question_that_names_its_dimensions_is_scored_on_them_not_the_preset(ada_client):
    response = post(ada_client, question=BROKER, preset="tech")

    run = Run.objects.get()
    assert [d["name"] for d in run.dimensions] == [
        "delivery guarantees",
        "operational complexity",
        "throughput",
    ]
    page = ada_client.get(response["Location"]).text
    assert page.count('data-origin="question"') == 3
    assert "from the question" in page
    assert "the tech preset was not used" in page


def test_the_run_page_says_a_preset_gave_the_dimensions(ada_client):
    response = post(ada_client)
    page = ada_client.get(response["Location"]).text
    assert page.count('data-origin="preset"') == 5 and "the tech preset" in page


def test_a_question_whose_dimensions_cannot_be_read_is_sent_back_saying_so(ada_client):
    response = post(
        ada_client,
        question=BROKER.replace(
            "delivery guarantees, operational complexity and throughput",
            "everything that matters to us",
        ),
    )

    assert response.status_code == 200
    assert "no dimension could be read" in " ".join(errors_of(response, "dimensions"))
    assert not Run.objects.exists()


def shown_key(response) -> str:
    return re.search(r'name="submission_key" value="([^"]+)"', response.text).group(1)


def test_a_form_sent_twice_makes_one_run_and_the_second_answer_leads_to_it(
    ada_client, started, django_capture_on_commit_callbacks
):
    key = shown_key(ada_client.get("/new/"))

    with django_capture_on_commit_callbacks(execute=True):
        first = post(ada_client, submission_key=key)
        again = ada_client.post(
            "/new/",
            {"question": QUESTION, "preset": "tech", "sources": ["notes"], "submission_key": key},
            follow=True,
        )

    run = Run.objects.get()
    assert first["Location"] == f"/runs/{run.run_id}/"
    assert again.redirect_chain == [(f"/runs/{run.run_id}/", 302)]
    assert "This form had already been sent, so this is the run it started then" in again.text
    assert started == [(run.run_id, "retrieve")], "queued once"


def test_each_form_shown_has_a_key_of_its_own_so_asking_twice_on_purpose_makes_two_runs(
    ada_client, started
):
    first, second = shown_key(ada_client.get("/new/")), shown_key(ada_client.get("/new/"))
    assert first != second

    post(ada_client, submission_key=first)
    post(ada_client, submission_key=second)

    assert Run.objects.count() == 2


def test_a_form_sent_back_with_another_question_is_a_new_run(ada_client, started):
    key = shown_key(ada_client.get("/new/"))

    post(ada_client, submission_key=key)
    post(ada_client, submission_key=key, question="Choose between Quillsync and Loamdb for sync")

    assert Run.objects.count() == 2


def test_two_people_sending_the_same_key_each_get_their_own_run(ada_client, bob_client, started):
    key = shown_key(ada_client.get("/new/"))

    post(ada_client, submission_key=key)
    post(bob_client, submission_key=key)

    assert sorted(r.owner.username for r in Run.objects.all()) == ["ada", "bob"]


MEGABYTE_QUESTION = shaped("one clause", 1_000_000)  # read from every character, it took minutes


@pytest.mark.serial  # it times itself
def test_a_megabyte_question_is_refused_at_once_saying_the_bound_without_sending_it_back(
    ada_client,
):
    start = time.perf_counter()
    response = post(
        ada_client,
        question=MEGABYTE_QUESTION,
        options="\n".join(f"option {i}" for i in range(100_000)),
    )
    assert time.perf_counter() - start < 1.0
    assert errors_of(response, "question") == [
        "The question is 1,000,000 characters long; keep it to 2,000 or fewer and leave "
        "background to the sources."
    ]
    assert errors_of(response, "options") == ["100,000 options are far too many: give at most 50."]
    assert len(response.content) < 100_000
    assert not Run.objects.exists()


@pytest.mark.serial  # it times itself
def test_the_reading_of_a_megabyte_question_answers_at_once_with_what_its_start_names(
    ada_client,
):
    question = "Quillsync vs Loamdb, weighing cost and risk. " + "x " * 500_000
    start = time.perf_counter()
    response = ada_client.get("/new/reading/", {"question": question})
    assert time.perf_counter() - start < 1.0
    assert response.json()["options"] == ["Quillsync", "Loamdb"]
    assert [d["name"] for d in response.json()["dimensions"]] == ["cost", "risk"]
