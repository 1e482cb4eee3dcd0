"""Signing in from an MCP client, driven as a client drives it, against the real ASGI app
under uvicorn on 127.0.0.1: discover, register, approve in the browser, exchange the code
with the PKCE verifier, use /mcp, refresh, revoke."""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
from html import unescape
from urllib.parse import parse_qs, urlsplit

import anyio
import httpx
import pytest
from django.test import Client as DjangoClient
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from tests.research.mcp.test_http import INITIALIZE, post, serve, url  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db(transaction=True)

REDIRECT = "http://127.0.0.1:33418/oauth/callback"


def pkce() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(48)
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def browser(base: str, user) -> httpx.Client:
    """A browser signed in as `user` (the session cookie of a real sign-in)."""
    django = DjangoClient()
    django.force_login(user)
    cookies = {"sessionid": django.cookies["sessionid"].value}
    return httpx.Client(base_url=base, cookies=cookies, timeout=15, follow_redirects=False)


def form_fields(html: str) -> dict[str, str]:
    fields = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', html)
    return {name: unescape(value) for name, value in fields}


def discover(base: str) -> dict:
    """What a client learns from a 401: the resource metadata, then the server's metadata."""
    refused = post(base, INITIALIZE)
    assert refused.status_code == 401
    challenge = refused.headers["www-authenticate"]
    resource_metadata = re.search(r'resource_metadata="([^"]+)"', challenge).group(1)
    resource = httpx.get(resource_metadata, timeout=15).json()
    assert resource["resource"] == f"{base}/mcp"
    issuer = resource["authorization_servers"][0]
    metadata = httpx.get(f"{issuer}/.well-known/oauth-authorization-server", timeout=15)
    assert metadata.status_code == 200
    assert metadata.json()["issuer"] == issuer
    return metadata.json()


def register(metadata: dict, **extra) -> dict:
    document = {
        "client_name": "Quill Desktop",
        "redirect_uris": [REDIRECT],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
        **extra,
    }
    response = httpx.post(metadata["registration_endpoint"], json=document, timeout=15)
    assert response.status_code == 201, response.text
    return response.json()


def authorize(metadata: dict, client_id: str, challenge: str, **extra: str) -> dict[str, str]:
    return {
        "response_type": "code",
        "client_id": client_id,
        "redirect_uri": REDIRECT,
        "code_challenge": challenge,
        "code_challenge_method": "S256",
        "state": "st-123",
        "scope": "mcp",
        **extra,
    }


def approve(web: httpx.Client, metadata: dict, params: dict[str, str], allow: bool = True):
    page = web.get(metadata["authorization_endpoint"], params=params)
    assert page.status_code == 200, page.text
    fields = form_fields(page.text)
    if allow:
        fields["allow"] = "on"
    answer = web.post(
        metadata["authorization_endpoint"],
        data=fields,
        headers={"Referer": str(page.url), "X-CSRFToken": web.cookies.get("csrftoken", "")},
    )
    assert answer.status_code == 302, answer.text
    return page, answer.headers["location"]


def exchange(metadata: dict, **data: str) -> httpx.Response:
    return httpx.post(metadata["token_endpoint"], data=data, timeout=15)


def list_tools(base: str, access_token: str) -> set[str]:
    async def main():
        http = create_mcp_http_client(headers={"Authorization": f"Bearer {access_token}"})
        transport = streamable_http_client(f"{base}/mcp", http_client=http)
        async with Client(transport, mode="legacy") as session:
            return {t.name for t in (await session.list_tools()).tools}

    return anyio.run(main)


def signed_in(base: str, user) -> tuple[str, str, dict, dict]:
    """Discover, register, approve and exchange: an access and a refresh token."""
    metadata = discover(base)
    client = register(metadata)
    verifier, challenge = pkce()
    params = authorize(metadata, client["client_id"], challenge, resource=f"{base}/mcp")
    _, location = approve(browser(base, user), metadata, params)
    code = parse_qs(urlsplit(location).query)["code"][0]
    tokens = exchange(
        metadata,
        grant_type="authorization_code",
        code=code,
        redirect_uri=REDIRECT,
        client_id=client["client_id"],
        code_verifier=verifier,
        resource=f"{base}/mcp",
    )
    assert tokens.status_code == 200, tokens.text
    return tokens.json()["access_token"], tokens.json()["refresh_token"], metadata, client


# --- the whole way, as a client goes ------------------------------------------------------


def test_a_client_signs_in_uses_mcp_refreshes_and_is_revoked(url, ada):  # noqa: F811
    metadata = discover(url)
    assert metadata["code_challenge_methods_supported"] == ["S256"]
    assert metadata["response_types_supported"] == ["code"]
    assert metadata["client_id_metadata_document_supported"] is True
    assert metadata["authorization_response_iss_parameter_supported"] is True
    assert {"authorization_code", "refresh_token"} == set(metadata["grant_types_supported"])

    client = register(metadata)
    assert client["token_endpoint_auth_method"] == "none"
    assert "client_secret" not in client

    verifier, challenge = pkce()
    params = authorize(metadata, client["client_id"], challenge, resource=f"{url}/mcp")
    web = browser(url, ada)
    page, location = approve(web, metadata, params)
    assert "Quill Desktop" in page.text
    assert "start new research runs as you" in page.text
    assert "127.0.0.1" in page.text  # where the browser goes next
    assert "form-action 'self' http://127.0.0.1:33418" in page.headers["content-security-policy"]

    assert location.startswith(REDIRECT)
    answer = parse_qs(urlsplit(location).query)
    assert answer["state"] == ["st-123"]
    assert answer["iss"] == [metadata["issuer"]]  # RFC 9207

    tokens = exchange(
        metadata,
        grant_type="authorization_code",
        code=answer["code"][0],
        redirect_uri=REDIRECT,
        client_id=client["client_id"],
        code_verifier=verifier,
        resource=f"{url}/mcp",
    )
    assert tokens.status_code == 200, tokens.text
    first = tokens.json()
    assert first["token_type"] == "Bearer" and first["scope"] == "mcp"
    assert {"start_research", "get_report"} <= list_tools(url, first["access_token"])

    account = web.get("/accounts/")
    assert "Quill Desktop" in account.text

    refreshed = exchange(
        metadata,
        grant_type="refresh_token",
        refresh_token=first["refresh_token"],
        client_id=client["client_id"],
    )
    assert refreshed.status_code == 200, refreshed.text
    second = refreshed.json()
    assert second["refresh_token"] != first["refresh_token"]  # rotated
    assert "start_research" in list_tools(url, second["access_token"])

    revoked = httpx.post(
        metadata["revocation_endpoint"],
        data={
            "token": second["refresh_token"],
            "token_type_hint": "refresh_token",
            "client_id": client["client_id"],
        },
        timeout=15,
    )
    assert revoked.status_code == 200
    refused = post(url, INITIALIZE, secret=second["access_token"])
    assert refused.status_code == 401
    assert 'error="invalid_token"' in refused.headers["www-authenticate"]
    assert "resource_metadata=" in refused.headers["www-authenticate"]
    assert "Sign in again" in refused.json()["error"]["message"]
    again = exchange(
        metadata,
        grant_type="refresh_token",
        refresh_token=second["refresh_token"],
        client_id=client["client_id"],
    )
    assert again.status_code == 400 and again.json()["error"] == "invalid_grant"
