"""The authorization server's answers to what clients get wrong, the consent page, clients
that name themselves by a URL, and signing a client out from the account page."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from oauth2_provider.cimd import CIMDError, SafeMetadataFetcher
from oauth2_provider.models import get_access_token_model, get_application_model

from research.oauth.clients import GuardedMetadataFetcher
from research.oauth.tokens import find_access_token, sign_ins
from tests.research.oauth.test_flow import REDIRECT, pkce

pytestmark = pytest.mark.django_db

DOCUMENT_URL = "https://quill.example/oauth/client.json"
DOCUMENTS: dict[str, dict] = {}


class DocumentsFetcher(SafeMetadataFetcher):
    """Serves the documents a test put in DOCUMENTS, as if read from their URLs."""

    def fetch(self, client_id):
        if client_id not in DOCUMENTS:
            raise CIMDError("no such document")
        return DOCUMENTS[client_id], 300


@pytest.fixture
def documents(settings):
    settings.OAUTH2_PROVIDER = {
        **settings.OAUTH2_PROVIDER,
        "CIMD_METADATA_FETCHER": f"{__name__}.DocumentsFetcher",
    }
    DOCUMENTS.clear()
    yield DOCUMENTS
    DOCUMENTS.clear()


def register(client: Client, **document) -> dict:
    body = {"client_name": "Quill Desktop", "redirect_uris": [REDIRECT], **document}
    body.setdefault("token_endpoint_auth_method", "none")
    response = client.post("/oauth/register", json.dumps(body), content_type="application/json")
    assert response.status_code == 201, response.content
    return response.json()


def consent(client: Client, client_id: str, **params: str):
    _, challenge = pkce()
    query = {
        "response_type": "code",
        "client_id": client_id,
        "redirect_uri": REDIRECT,
        "code_challenge": challenge,
        "code_challenge_method": "S256",
        "state": "s1",
        "scope": "mcp",
        **params,
    }
    return client.get("/oauth/authorize", query)


# --- errors a client reads are JSON ---------------------------------------------------------


def test_a_malformed_registration_is_answered_in_json(client):
    response = client.post("/oauth/register", "{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"] == "invalid_client_metadata"
    no_redirect = client.post(
        "/oauth/register",
        json.dumps({"client_name": "x", "grant_types": ["authorization_code"]}),
        content_type="application/json",
    )
    assert no_redirect.status_code == 400
    assert "redirect_uris" in no_redirect.json()["error_description"]


@pytest.mark.parametrize(
    "path",
    ["/oauth/nothing", "/oauth/register/", "/.well-known/openid-configuration", "/oauth/token/"],
)
def test_an_address_the_server_does_not_have_is_a_json_404(client, path):
    response = client.post(path, {})
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"] == "not_found"


def test_a_bad_code_or_verifier_is_refused_in_json(client, ada):
    registered = register(client)
    response = client.post(
        "/oauth/token",
        {
            "grant_type": "authorization_code",
            "code": "made-up",
            "redirect_uri": REDIRECT,
            "client_id": registered["client_id"],
            "code_verifier": "x" * 50,
        },
    )
    assert response.status_code == 400
    assert response.json()["error"] == "invalid_grant"
    unknown = client.post("/oauth/token", {"grant_type": "refresh_token", "refresh_token": "x"})
    assert unknown.status_code in (400, 401)
    assert unknown.json()["error"] in ("invalid_client", "invalid_request")


# --- the consent page -----------------------------------------------------------------------


def test_the_consent_page_asks_a_signed_in_person_and_only_then(client, ada):
    registered = register(client)
    anonymous = consent(client, registered["client_id"])
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith("/accounts/login/?next=/oauth/authorize")

    client.force_login(ada)
    page = consent(client, registered["client_id"])
    text = page.content.decode()
    assert page.status_code == 200
    assert "Allow Quill Desktop to use Verdict as you?" in text
    assert "the name it gave itself" in text
    assert "no-store" in page["Cache-Control"]


def test_denying_sends_the_client_back_with_access_denied_and_no_code(client, ada):
    registered = register(client)
    client.force_login(ada)
    page = consent(client, registered["client_id"])
    fields = {k: v for k, v in page.context["form"].initial.items() if v is not None}
    answer = client.post("/oauth/authorize", fields)
    assert answer.status_code == 302
    query = parse_qs(urlsplit(answer["Location"]).query)
    assert query["error"] == ["access_denied"] and "code" not in query
    assert not get_access_token_model().objects.filter(user=ada).exists()


@pytest.mark.parametrize("params", [{"code_challenge_method": "plain"}, {"code_challenge": ""}])
def test_a_sign_in_without_s256_pkce_is_refused_before_anyone_is_asked(client, ada, params):
    registered = register(client)
    client.force_login(ada)
    response = consent(client, registered["client_id"], **params)
    assert response.status_code == 302
    query = parse_qs(urlsplit(response["Location"]).query)
    assert query["error"] == ["invalid_request"] and "S256" in query["error_description"][0]
    assert query["state"] == ["s1"] and query["iss"] == ["http://testserver"]
    assert "code" not in query


def test_a_sign_in_for_another_server_is_refused(client, ada):
    registered = register(client)
    client.force_login(ada)
    response = consent(client, registered["client_id"], resource="https://other.example/mcp")
    query = parse_qs(urlsplit(response["Location"]).query)
    assert query["error"] == ["invalid_target"] and "code" not in query
    mine = consent(client, registered["client_id"], resource="http://testserver/mcp")
    assert mine.status_code == 200


def test_a_client_returning_over_plain_http_elsewhere_than_loopback_is_refused(client, ada):
    registered = register(client, redirect_uris=["http://quill.example/callback"])
    client.force_login(ada)
    response = consent(
        client, registered["client_id"], redirect_uri="http://quill.example/callback"
    )
    assert response.status_code == 400
    assert "Sign-in refused" in response.content.decode()
    assert "loopback" in response.content.decode()


def test_an_unknown_client_gets_a_page_that_says_so_and_no_redirect(client, ada):
    client.force_login(ada)
    response = consent(client, "no-such-client")
    assert response.status_code == 400
    assert "Sign-in refused" in response.content.decode()


# --- clients named by a URL (client ID metadata documents) ------------------------------------


def test_a_client_named_by_its_document_url_is_shown_with_the_host_that_vouches(
    client, ada, documents
):
    documents[DOCUMENT_URL] = {
        "client_id": DOCUMENT_URL,
        "client_name": "Quill",
        "redirect_uris": [REDIRECT],
        "grant_types": ["authorization_code"],
        "token_endpoint_auth_method": "none",
    }
    client.force_login(ada)
    page = consent(client, DOCUMENT_URL)
    assert page.status_code == 200, page.content
    text = page.content.decode()
    assert "Allow Quill to use Verdict as you?" in text
    assert "as described by quill.example" in text


def test_a_document_that_names_another_client_is_refused(client, ada, documents):
    documents[DOCUMENT_URL] = {
        "client_id": "https://elsewhere.example/client.json",
        "client_name": "Quill",
        "redirect_uris": [REDIRECT],
    }
    client.force_login(ada)
    response = consent(client, DOCUMENT_URL)
    assert response.status_code == 400
    assert not get_application_model().objects.filter(client_id=DOCUMENT_URL).exists()


def test_a_document_on_a_private_address_is_never_fetched():
    with pytest.raises(CIMDError, match="refused"):
        GuardedMetadataFetcher().fetch("https://127.0.0.1/client.json")
    with pytest.raises(CIMDError, match="https"):
        GuardedMetadataFetcher().fetch("http://quill.example/client.json")


# --- tokens and the account page --------------------------------------------------------------


def issue(user, application, resource: list[str] | None = None) -> str:
    from datetime import timedelta

    from django.utils import timezone
    from oauth2_provider.models import set_token_value

    token = get_access_token_model()(
        user=user,
        application=application,
        scope="mcp",
        expires=timezone.now() + timedelta(hours=1),
        resource=resource or [],
    )
    set_token_value(token, secret := f"secret-{application.pk}-{user.pk}")
    token.save()
    return secret


def test_a_token_meant_for_another_server_is_not_taken(client, ada):
    application = get_application_model().objects.get(client_id=register(client)["client_id"])
    mine = issue(ada, application, ["http://testserver/mcp"])
    assert find_access_token(mine, "http://testserver/mcp") is not None
    other = application.__class__.objects.get(pk=application.pk)
    get_access_token_model().objects.all().delete()
    theirs = issue(ada, other, ["https://other.example/mcp"])
    assert find_access_token(theirs, "http://testserver/mcp") is None
    assert find_access_token("", "http://testserver/mcp") is None


def test_signing_a_client_out_ends_its_tokens_and_only_the_owner_can(client, ada, bob):
    application = get_application_model().objects.get(client_id=register(client)["client_id"])
    secret = issue(ada, application)
    assert [s.client.name for s in sign_ins(ada)] == ["Quill Desktop"]
    assert sign_ins(bob) == []

    client.force_login(bob)
    client.post(f"/accounts/clients/{application.pk}/sign-out/")
    assert find_access_token(secret, "http://testserver/mcp") is not None

    client.force_login(ada)
    page = client.get("/accounts/").content.decode()
    assert "Applications signed in" in page and "Quill Desktop" in page
    answer = client.post(f"/accounts/clients/{application.pk}/sign-out/", follow=True)
    assert "Signed out: that application must sign in again." in answer.content.decode()
    assert find_access_token(secret, "http://testserver/mcp") is None
    assert "No application has signed in yet." in client.get("/accounts/").content.decode()


def test_the_consent_and_account_pages_speak_chinese(client, ada):
    registered = register(client)
    client.force_login(ada)
    client.cookies["django_language"] = "zh-hans"
    page = consent(client, registered["client_id"]).content.decode()
    assert "允许 Quill Desktop 以你的身份使用 Verdict 吗？" in page
    assert "If you allow it" not in page
    account = client.get("/accounts/").content.decode()
    assert "已登录的应用" in account and "还没有应用登录。" in account
    assert "Most clients sign in" not in account and "opens your browser" not in account
