from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from research import services
from research.artifacts import Question

pytestmark = pytest.mark.django_db


def test_the_home_page_leads_to_the_sign_in(client):
    response = client.get("/", follow=True)
    assert response.status_code == 200
    assert response.redirect_chain[-1][0].startswith("/accounts/login/")
    assert b"Sign in" in response.content


def test_ensure_admin_creates_one_admin_with_a_random_password_printed_once(capsys):
    call_command("ensure_admin")
    first = capsys.readouterr().out
    call_command("ensure_admin")
    second = capsys.readouterr().out
    users = get_user_model().objects.filter(is_superuser=True)
    assert users.count() == 1
    password = first.split("password: ")[1].split()[0]
    assert len(password) >= 12 and users.get().check_password(password)
    assert "Sign in at http://127.0.0.1:8000/accounts/login/ as" in first
    assert password not in second


def test_runs_and_their_stages_are_listed_in_the_admin(admin_client):
    run = services.create_run(Question(question="Quillsync or Loamdb?", sources=["ddgs"]))
    listing = admin_client.get("/admin/research/run/")
    assert run.run_id.encode() in listing.content
    detail = admin_client.get(f"/admin/research/run/{run.pk}/change/")
    assert detail.status_code == 200
    assert b"deepread" in detail.content
