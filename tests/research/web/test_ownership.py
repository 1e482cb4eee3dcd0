"""Every pipeline page of a run answers only its owner: anyone else gets a 404, never a 403."""

from __future__ import annotations

import pytest

from research.models import Run
from tests.research.web.conftest import make_run

pytestmark = pytest.mark.django_db

PAGES = [
    "/runs/{id}/",
    "/runs/{id}/progress/",
    "/runs/{id}/artifacts/",
    "/runs/{id}/artifacts/view/index.json",
    "/runs/{id}/artifacts/download/index.json",
    "/runs/{id}/artifacts/view/log.jsonl",
]


@pytest.mark.parametrize("page", PAGES)
def test_another_persons_run_is_not_found(ada, bob_client, page):
    run = make_run(ada)
    assert bob_client.get(page.format(id=run.run_id)).status_code == 404


@pytest.mark.parametrize("page", PAGES)
def test_the_owner_sees_their_run(ada, ada_client, page):
    run = make_run(ada)
    assert ada_client.get(page.format(id=run.run_id)).status_code == 200


def test_another_persons_run_cannot_be_cancelled_or_rerun(ada, bob_client, started):
    run = make_run(ada)
    assert bob_client.post(f"/runs/{run.run_id}/cancel/").status_code == 404
    assert bob_client.post(f"/runs/{run.run_id}/rerun/", {"stage": "filter"}).status_code == 404
    run.refresh_from_db()
    assert run.status == Run.Status.QUEUED and not started


def test_a_run_with_no_owner_is_nobodys_on_the_web(ada_client):
    run = make_run(None)
    assert ada_client.get(f"/runs/{run.run_id}/").status_code == 404


def test_a_run_that_does_not_exist_is_not_found(ada_client):
    assert ada_client.get("/runs/000000000000/").status_code == 404
    assert ada_client.get("/runs/000000000000/progress/").status_code == 404


@pytest.mark.parametrize("page", PAGES)
def test_signed_out_visitors_are_sent_to_sign_in(ada, client, page):
    run = make_run(ada)
    response = client.get(page.format(id=run.run_id))
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
