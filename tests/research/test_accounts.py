"""Accounts: signing in and out, the sign-in throttle, and what the admin shows to whom."""

from __future__ import annotations

import time

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import Permission
from django.core.cache import cache
from django.test import Client

from research import services
from research.web import accounts

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"
LOGIN = "/accounts/login/"


class CountingBackend(ModelBackend):
    """The real backend, counting how often a password is actually checked."""

    checks = 0

    def authenticate(self, request, username=None, password=None, **kwargs):
        CountingBackend.checks += 1
        return super().authenticate(request, username=username, password=password, **kwargs)


@pytest.fixture(autouse=True)
def counted(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    settings.AUTHENTICATION_BACKENDS = [f"{__name__}.CountingBackend"]
    # A fast hash: these tests check many passwords, and what they measure is how many.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()
    CountingBackend.checks = 0
    yield
    cache.clear()


@pytest.fixture
def ada():
    return get_user_model().objects.create_user("ada", password=PASSWORD)


@pytest.fixture
def clock(monkeypatch) -> list[float]:
    """The throttle's clock, moved by the test instead of by waiting."""
    now = [time.time()]
    monkeypatch.setattr(accounts.time, "time", lambda: now[0])
    return now


def sign_in(client: Client, password: str, username: str = "ada", address: str = "10.0.0.7"):
    return client.post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=address)


# --- signing in and out ---------------------------------------------------------------------


def test_the_sign_in_page_asks_for_a_username_and_password(client):
    response = client.get(LOGIN)
    assert response.status_code == 200
    page = response.content.decode()
    assert '<h1 id="signin-title">Sign in</h1>' in page
    assert 'name="username"' in page and 'type="password"' in page
    assert "csrfmiddlewaretoken" in page


def test_signing_in_without_the_csrf_token_is_refused(ada):
    strict = Client(enforce_csrf_checks=True)
    response = strict.post(LOGIN, {"username": "ada", "password": PASSWORD})
    assert response.status_code == 403
    assert "_auth_user_id" not in strict.session


def test_the_right_password_signs_in_and_goes_where_the_person_was_headed(client, ada):
    response = client.post(
        LOGIN, {"username": "ada", "password": PASSWORD, "next": "/runs/"}, follow=False
    )
    assert response.status_code == 302 and response["Location"] == "/runs/"
    assert client.session["_auth_user_id"] == str(ada.pk)


def test_a_next_address_on_another_site_is_not_followed(client, ada):
    response = client.post(
        LOGIN, {"username": "ada", "password": PASSWORD, "next": "https://evil.example/"}
    )
    assert response["Location"] == "/"


def test_a_wrong_password_is_answered_with_a_message_and_no_session(client, ada):
    response = sign_in(client, "wrong")
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_signing_out_ends_the_session_and_returns_to_the_sign_in_page(client, ada):
    client.force_login(ada)
    response = client.post("/accounts/logout/")
    assert response.status_code == 302 and response["Location"] == LOGIN
    assert "_auth_user_id" not in client.session


def test_a_signed_in_person_can_change_their_password(client, ada):
    client.force_login(ada)
    assert client.get("/accounts/password/").status_code == 200
    response = client.post(
        "/accounts/password/",
        {
            "old_password": PASSWORD,
            "new_password1": "a much longer passphrase",
            "new_password2": "a much longer passphrase",
        },
    )
    assert response.status_code == 302
    ada.refresh_from_db()
    assert ada.check_password("a much longer passphrase")


def test_there_is_no_e_mailed_password_reset(client):
    assert client.get("/accounts/password_reset/").status_code == 404


# --- throttling -----------------------------------------------------------------------------


def test_thirty_wrong_passwords_in_ten_seconds_are_not_all_checked(client, ada, clock):
    answers = []
    for attempt in range(30):
        clock[0] += 10 / 30
        answers.append(sign_in(client, f"guess-{attempt}"))
    assert CountingBackend.checks == 5
    assert [r.status_code for r in answers] == [200] * 5 + [429] * 25
    last = answers[-1]
    # The first failure was 9.7 s ago: it drops out of the 60 s window in 50.3 s.
    assert "Too many sign-in attempts. Try again in 51 s." in last.content.decode()
    assert last["Retry-After"] == "51"


def test_while_throttled_even_the_right_password_is_not_checked(client, ada, clock):
    for attempt in range(5):
        sign_in(client, f"guess-{attempt}")
    response = sign_in(client, PASSWORD)
    assert response.status_code == 429
    assert CountingBackend.checks == 5
    assert "_auth_user_id" not in client.session


def test_sign_in_works_again_once_the_window_has_passed(client, ada, clock):
    for attempt in range(5):
        sign_in(client, f"guess-{attempt}")
    clock[0] += 60
    response = sign_in(client, PASSWORD)
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(ada.pk)


def test_the_throttle_is_per_username_and_address(client, ada, clock):
    for attempt in range(5):
        sign_in(client, f"guess-{attempt}")
    assert sign_in(Client(), PASSWORD, address="10.0.0.8").status_code == 302
    get_user_model().objects.create_user("bob", password=PASSWORD)
    assert sign_in(Client(), PASSWORD, username="bob").status_code == 302


def test_one_address_trying_many_usernames_is_throttled_too(client, ada, clock):
    for n in range(20):
        sign_in(client, "guess", username=f"user{n}")
    assert CountingBackend.checks == 20
    response = sign_in(client, PASSWORD)
    assert response.status_code == 429
    assert CountingBackend.checks == 20


def test_a_successful_sign_in_clears_the_count_of_earlier_failures(client, ada, clock):
    for attempt in range(4):
        sign_in(client, f"guess-{attempt}")
    assert sign_in(client, PASSWORD).status_code == 302
    client.post("/accounts/logout/")
    for attempt in range(4):
        assert sign_in(client, f"again-{attempt}").status_code == 200
    assert CountingBackend.checks == 9


# --- the admin ------------------------------------------------------------------------------


def make_run(owner, question: str):
    return services.create_run(
        question=question,
        options=[],
        dimensions=[],
        preset="",
        sources=["ddgs"],
        limits={},
        owner=owner,
    )


@pytest.fixture
def staff_client(ada) -> Client:
    ada.is_staff = True
    ada.save()
    codenames = ["view_run", "change_run", "view_stagerun"]
    ada.user_permissions.set(Permission.objects.filter(codename__in=codenames))
    client = Client()
    client.force_login(ada)
    return client


def test_a_staff_member_sees_only_their_own_runs_in_the_admin(staff_client, ada):
    bob = get_user_model().objects.create_user("bob")
    own = make_run(ada, "Ada asks: Quillsync or Loamdb?")
    other = make_run(bob, "Bob asks: Tessera or Loamdb?")
    listing = staff_client.get("/admin/research/run/").content.decode()
    assert own.run_id in listing and other.run_id not in listing
    assert "Bob asks" not in listing
    response = staff_client.get(f"/admin/research/run/{other.pk}/change/", follow=True)
    assert "Bob asks" not in response.content.decode()
    stages = staff_client.get("/admin/research/stagerun/").content.decode()
    assert own.run_id in stages and other.run_id not in stages


def test_a_superuser_sees_every_run_in_the_admin(admin_client, ada):
    runs = [make_run(ada, "Ada asks"), make_run(None, "Nobody asks")]
    listing = admin_client.get("/admin/research/run/").content.decode()
    assert all(run.run_id in listing for run in runs)


def test_runs_are_not_added_by_hand_in_the_admin(admin_client):
    assert admin_client.get("/admin/research/run/add/").status_code == 403


def test_the_admin_is_styled_with_debug_off(client, settings):
    settings.DEBUG = False
    for path in ("/static/admin/css/base.css", "/static/css/app.css"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert response["Content-Type"].startswith("text/css")
