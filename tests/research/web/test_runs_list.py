"""The runs list: your runs newest first, with their outcome, paginated and searchable."""

from __future__ import annotations

import re

import pytest

from research.store import store_for
from tests.research.web.conftest import make_run

pytestmark = pytest.mark.django_db


def questions(response) -> list[str]:
    return re.findall(
        r'<td class="q" data-label="Question"><a href="[^"]+">(.*?)</a>', response.text
    )


def test_an_empty_list_invites_the_first_question(ada_client):
    response = ada_client.get("/runs/")
    assert response.status_code == 200
    assert "No runs yet" in response.text
    assert 'href="/new/"' in response.text


def test_runs_are_listed_newest_first_twenty_to_a_page(ada, ada_client):
    for number in range(25):
        make_run(ada, question=f"Question {number:02d}: Alpha or Beta?")
    first = ada_client.get("/runs/")
    assert questions(first) == [f"Question {n:02d}: Alpha or Beta?" for n in range(24, 4, -1)]
    assert "Page 1 of 2" in first.text
    second = ada_client.get("/runs/?page=2")
    assert questions(second) == [f"Question {n:02d}: Alpha or Beta?" for n in range(4, -1, -1)]
    assert 'rel="prev" href="?page=1"' in second.text


def test_a_page_past_the_end_shows_the_last_page(ada, ada_client):
    make_run(ada, question="Only: Alpha or Beta?")
    response = ada_client.get("/runs/?page=99")
    assert questions(response) == ["Only: Alpha or Beta?"]


def test_search_finds_runs_by_their_question_and_keeps_the_search_across_pages(ada, ada_client):
    for number in range(22):
        make_run(ada, question=f"Broker {number:02d}: RabbitMQ or Kafka?")
    make_run(ada, question="Database: Postgres or MySQL?")
    response = ada_client.get("/runs/?q=rabbitmq")
    assert len(questions(response)) == 20
    assert "22 runs matching “rabbitmq”" in response.text
    assert 'href="?q=rabbitmq&amp;page=2"' in response.text
    assert questions(ada_client.get("/runs/?q=postgres")) == ["Database: Postgres or MySQL?"]


def test_a_search_with_no_match_says_so(ada, ada_client):
    make_run(ada)
    response = ada_client.get("/runs/?q=nothing-like-this")
    assert "No runs match “nothing-like-this”" in response.text


def test_only_your_own_runs_are_listed(ada_client, bob):
    make_run(bob, question="Bob's plan: Alpha or Beta?")
    response = ada_client.get("/runs/")
    assert questions(response) == []
    assert "Bob" not in response.text


def test_a_finished_run_shows_its_recommendation_and_confidence(ada_client, finished_run):
    decision = store_for(finished_run.run_id).read_json("round_5_decision.json")
    response = ada_client.get("/runs/")
    option = decision["recommendation"]["option"]
    assert (f"<strong>{option}</strong>" if option else "No recommendation") in response.text
    assert f"Confidence {round(decision['assessment']['confidence'])} out of 100" in response.text
    assert "pill st-done" in response.text


def test_the_list_needs_a_signed_in_person(client):
    response = client.get("/runs/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
