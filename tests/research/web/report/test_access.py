"""Only the owner of a run sees its report pages; everyone else gets a 404."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from research.artifacts import Notes
from research.store import store_for

pytestmark = pytest.mark.django_db


def urls(run_id: str, source_id: str) -> list[str]:
    return [
        reverse("web:report", args=[run_id]),
        reverse("web:evidence", args=[run_id, source_id]),
        reverse("web:export", args=[run_id]),
    ]


def first_source(run_id: str) -> str:
    return store_for(run_id).read_model("round_3_notes.json", Notes).ok_sources()[0].source_id


def test_the_owner_sees_all_three(install, ada_client):
    run = install("en")
    for url in urls(run.run_id, first_source(run.run_id)):
        assert ada_client.get(url).status_code == 200, url


def test_another_user_gets_a_404_on_all_three(install, bob_client):
    run = install("en")
    for url in urls(run.run_id, first_source(run.run_id)):
        assert bob_client.get(url).status_code == 404, url


def test_a_run_without_an_owner_is_nobodys(install, ada_client):
    run = install("en")
    run.owner = None
    run.save()
    for url in urls(run.run_id, first_source(run.run_id)):
        assert ada_client.get(url).status_code == 404, url


def test_signed_out_visitors_are_sent_to_sign_in(install):
    run = install("en")
    for url in urls(run.run_id, first_source(run.run_id)):
        response = Client().get(url)
        assert response.status_code == 302 and response.url.startswith("/accounts/login/"), url


def test_an_unknown_or_malformed_run_is_a_404(ada_client):
    assert ada_client.get("/runs/nosuchrun/report/").status_code == 404
    assert ada_client.get("/runs/..%2F..%2Fetc/report/").status_code == 404
