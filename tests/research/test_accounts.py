"""Accounts: signing in and out, the sign-in throttle, what the admin shows to whom, and API
tokens for MCP (the account page, the admin and manage.py mcp_token)."""

from __future__ import annotations

import hashlib
import html
import io
import json
import re
import time

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import Permission
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.test import Client

from research import services
from research.artifacts import Question
from research.models import ApiToken
from research.web import accounts
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


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
    return services.create_run(Question(question=question, sources=["ddgs"]), owner=owner)


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


# --- API tokens for MCP: the account page, the admin and manage.py mcp_token ----------------

ACCOUNT = "/accounts/"
SECRET = re.compile(r"vdt_[A-Za-z0-9_-]{43}")


def stored_values(token: ApiToken) -> list[str]:
    return [str(v) for v in ApiToken.objects.filter(pk=token.pk).values().get().values()]


def test_the_account_page_makes_a_token_and_shows_it_only_once(client, ada):
    client.force_login(ada)
    assert "You have no API tokens yet" in client.get(ACCOUNT).content.decode()

    made = client.post(ACCOUNT, {"name": "laptop"})
    assert made.status_code == 302 and made["Location"] == ACCOUNT
    response = client.get(ACCOUNT)
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    page = html.unescape(response.content.decode())
    secret = SECRET.search(page).group(0)
    assert "shown only this once" in page
    assert '"url": "http://testserver/mcp"' in page
    assert f'"Authorization": "Bearer {secret}"' in page

    token = ApiToken.objects.get(user=ada)
    assert token.name == "laptop"
    assert token.digest == hashlib.sha256(secret.encode()).hexdigest()
    assert all(secret not in value for value in stored_values(token))
    assert ApiToken.find(secret) == token

    again = client.get(ACCOUNT).content.decode()
    assert secret not in again and not SECRET.search(again)
    assert "laptop" in again and f"{token.prefix}…" in again


def test_the_account_page_gives_each_client_its_own_settings(client, ada):
    client.force_login(ada)
    made = client.post(ACCOUNT, {"name": "laptop"}, follow=True)
    page = html.unescape(made.content.decode())
    secret = SECRET.search(page).group(0)
    shown = r'class="client-config" aria-label="([^"]+)">.*?<pre>(.*?)</pre>'
    blocks = dict(re.findall(shown, page, re.S))
    assert set(blocks) == {"Claude Desktop", "Claude Code", "Cursor", "VS Code"}
    # Claude Desktop's config file takes stdio servers only: it gets the mcp-remote bridge.
    desktop = json.loads(blocks["Claude Desktop"])["mcpServers"]["verdict"]
    assert desktop["command"] == "npx" and "mcp-remote" in desktop["args"]
    assert desktop["env"]["AUTH_HEADER"] == f"Bearer {secret}"
    vscode = json.loads(blocks["VS Code"])["servers"]["verdict"]
    assert vscode == {
        "type": "http",
        "url": "http://testserver/mcp",
        "headers": {"Authorization": f"Bearer {secret}"},
    }
    assert blocks["Claude Code"].startswith("claude mcp add --scope user --transport http verdict")
    assert "for Claude Desktop" not in page
    # Without a new token, blocks with no token at all: the client signs in by itself.
    later = html.unescape(client.get(ACCOUNT).content.decode())
    assert not SECRET.search(later) and "Bearer" not in later
    blocks = dict(re.findall(shown, later, re.S))
    assert json.loads(blocks["VS Code"])["servers"]["verdict"] == {
        "type": "http",
        "url": "http://testserver/mcp",
    }
    desktop = json.loads(blocks["Claude Desktop"])["mcpServers"]["verdict"]
    assert desktop["args"][:3] == ["-y", "mcp-remote", "http://testserver/mcp"]
    assert "env" not in desktop
    assert "opens your browser here to sign you in" in later


def test_refreshing_the_page_after_making_a_token_makes_nothing_again(client, ada):
    client.force_login(ada)
    made = client.post(ACCOUNT, {"name": "laptop"}, follow=True)
    assert made.redirect_chain == [(ACCOUNT, 302)]  # the browser's refresh repeats this GET
    assert SECRET.search(made.content.decode())
    refreshed = client.get(ACCOUNT)
    assert refreshed.status_code == 200
    page = refreshed.content.decode()
    assert not SECRET.search(page) and "shown only this once" not in page
    assert "already have a token" not in page
    assert ApiToken.objects.filter(user=ada).count() == 1


def test_a_new_secret_is_shown_only_to_its_own_account(client, ada):
    bob = get_user_model().objects.create_user("bob", password=PASSWORD)
    client.force_login(ada)
    client.post(ACCOUNT, {"name": "laptop"})  # made, and not yet shown
    ApiToken.objects.filter(user=ada).update(user=bob)
    assert not SECRET.search(client.get(ACCOUNT).content.decode())


def test_a_second_token_with_the_same_label_is_refused(client, ada):
    client.force_login(ada)
    client.post(ACCOUNT, {"name": "laptop"})
    response = client.post(ACCOUNT, {"name": "laptop"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "You already have a token labelled “laptop”" in page
    assert not SECRET.search(page)
    assert ApiToken.objects.filter(user=ada).count() == 1
    assert client.post(ACCOUNT, {"name": "  "}).status_code == 400


def test_revoking_a_token_deletes_it_and_only_its_owner_can(client, ada):
    bob = get_user_model().objects.create_user("bob", password=PASSWORD)
    mine, _ = ApiToken.issue(ada, "laptop")
    theirs, _ = ApiToken.issue(bob, "desktop")
    client.force_login(ada)
    assert client.get(f"{ACCOUNT}tokens/{mine.pk}/revoke/").status_code == 405
    assert client.post(f"{ACCOUNT}tokens/{theirs.pk}/revoke/").status_code == 404
    assert ApiToken.objects.filter(pk=theirs.pk).exists()

    response = client.post(f"{ACCOUNT}tokens/{mine.pk}/revoke/", follow=True)
    assert "Revoked “laptop”: it no longer works." in response.content.decode()
    assert not ApiToken.objects.filter(pk=mine.pk).exists()
    assert "bob" not in client.get(ACCOUNT).content.decode()


def test_the_account_page_needs_a_sign_in_and_is_linked_from_every_page(client, ada):
    response = client.get(ACCOUNT)
    assert response.status_code == 302 and response["Location"].startswith(LOGIN)
    assert client.post(ACCOUNT, {"name": "x"}).status_code == 302
    assert not ApiToken.objects.exists()
    client.force_login(ada)
    assert f'href="{ACCOUNT}"' in client.get("/runs/").content.decode()


def test_the_admin_makes_a_token_and_shows_its_secret_once(admin_client, ada):
    response = admin_client.post(
        "/admin/research/apitoken/add/", {"user": ada.pk, "name": "ci"}, follow=True
    )
    assert response.status_code == 200
    shown = [str(m) for m in response.context["messages"]]
    secret = next(SECRET.search(m).group(0) for m in shown if SECRET.search(m))
    token = ApiToken.objects.get(user=ada, name="ci")
    assert ApiToken.find(secret) == token
    assert all(secret not in value for value in stored_values(token))
    change = admin_client.get(f"/admin/research/apitoken/{token.pk}/change/").content.decode()
    assert secret not in change and token.prefix in change
    admin_client.post(f"/admin/research/apitoken/{token.pk}/delete/", {"post": "yes"})
    assert ApiToken.find(secret) is None


def test_a_staff_member_sees_and_makes_only_their_own_tokens_in_the_admin(ada):
    ada.is_staff = True
    ada.save()
    codenames = ["view_apitoken", "add_apitoken", "delete_apitoken"]
    ada.user_permissions.set(Permission.objects.filter(codename__in=codenames))
    bob = get_user_model().objects.create_user("bob")
    ApiToken.issue(bob, "bob's laptop")
    staff = Client()
    staff.force_login(ada)
    assert "bob&#x27;s laptop" not in staff.get("/admin/research/apitoken/").content.decode()
    refused = staff.post("/admin/research/apitoken/add/", {"user": bob.pk, "name": "sneaky"})
    assert refused.status_code == 200  # the form again, with the error
    assert not ApiToken.objects.filter(name="sneaky").exists()
    staff.post("/admin/research/apitoken/add/", {"user": ada.pk, "name": "mine"})
    assert ApiToken.objects.filter(user=ada, name="mine").exists()


def test_mcp_token_creates_lists_and_revokes_tokens_from_the_terminal(ada):
    out, err = io.StringIO(), io.StringIO()
    call_command("mcp_token", "--user", "ada", "--create", "ci", stdout=out, stderr=err)
    secret = out.getvalue().strip()
    assert SECRET.fullmatch(secret)  # stdout is the secret alone, for scripts
    assert "shown only now" in err.getvalue()
    assert ApiToken.find(secret).user == ada

    listing = io.StringIO()
    call_command("mcp_token", "--user", "ada", "--list", stdout=listing)
    assert "ci\t" in listing.getvalue() and secret not in listing.getvalue()
    with pytest.raises(CommandError, match="already has a token named 'ci'"):
        call_command("mcp_token", "--user", "ada", "--create", "ci", stdout=io.StringIO())
    with pytest.raises(CommandError, match="no active user 'nobody'"):
        call_command("mcp_token", "--user", "nobody", "--list")

    call_command("mcp_token", "--user", "ada", "--revoke", "ci", stdout=io.StringIO())
    assert ApiToken.find(secret) is None
    with pytest.raises(CommandError, match="has no token named 'ci'"):
        call_command("mcp_token", "--user", "ada", "--revoke", "ci")
