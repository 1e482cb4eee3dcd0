"""The clients that sign in: how a client's own web page is read, and how a client is named to
the person asked to approve it.

A client may name itself by an https URL (a client ID metadata document, which the MCP
specification prefers to registration). django-oauth-toolkit reads that URL on the sign-in
path; here it is read through Verdict's one guarded HTTP client (research.providers.http),
so the check against private addresses, the deadline and the size cap are the same as for
every other fetch, and tests patch the same seam.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from urllib.parse import urlsplit

import httpx
from django.conf import settings
from oauth2_provider.cimd import (
    CIMDError,
    SafeMetadataFetcher,
    _effective_max_age,
    _validate_client_id_url,
)
from oauth2_provider.settings import oauth2_settings

from research.providers.http import Call, guarded_client, read_capped
from research.providers.netguard import check_url


class GuardedMetadataFetcher(SafeMetadataFetcher):
    """Reads a client ID metadata document: https only, public addresses only, no redirects,
    within CIMD_FETCH_TIMEOUT_SECONDS, at most CIMD_MAX_DOCUMENT_SIZE bytes."""

    def fetch(self, client_id: str) -> tuple[dict, int]:
        _validate_client_id_url(client_id)
        call = Call.within_seconds(oauth2_settings.CIMD_FETCH_TIMEOUT_SECONDS)
        refusal = check_url(client_id, resolver=call.resolve)
        if refusal is not None:
            raise CIMDError(f"client_id URL refused: {refusal.reason}")
        headers = {
            "User-Agent": settings.FETCH_USER_AGENT,
            "Accept": "application/json, application/*+json",
        }
        timeout = oauth2_settings.CIMD_FETCH_TIMEOUT_SECONDS
        try:
            with (
                call.active(),
                guarded_client(timeout=timeout, headers=headers) as client,
                client.stream("GET", client_id) as response,
            ):
                return _document(response, call)
        except httpx.HTTPError as exc:
            raise CIMDError(f"could not fetch client_id document: {call.failure(exc)[1]}") from exc


def _document(response: httpx.Response, call: Call) -> tuple[dict, int]:
    if response.status_code != 200:
        raise CIMDError(f"client_id document returned HTTP {response.status_code}")
    media_type = response.headers.get("content-type", "").split(";")[0].strip().lower()
    if media_type != "application/json" and not (
        media_type.startswith("application/") and media_type.endswith("+json")
    ):
        raise CIMDError(f"client_id document is not JSON (Content-Type: {media_type!r})")
    body = read_capped(response, oauth2_settings.CIMD_MAX_DOCUMENT_SIZE, call.deadline)
    if body is None:
        raise CIMDError("client_id document exceeds the maximum allowed size")
    try:
        data = json.loads(body)
    except ValueError as exc:
        raise CIMDError("client_id document is not valid JSON") from exc
    if not isinstance(data, dict):
        raise CIMDError("client_id document must be a JSON object")
    return data, _effective_max_age(response.headers.get("cache-control"))


@dataclass(frozen=True)
class ClientFacts:
    """What the consent page and the account page say about a client."""

    name: str
    vouched_by: str  # the host that vouches for the name ("" when the client named itself)
    returns_to: str  # where the browser goes after approval: a host, or an app's scheme


def facts(application, redirect_uri: str = "") -> ClientFacts:
    """A client's name and the hosts behind it. A registered client chose its own name, so
    only its redirect target can be believed; a metadata-document client's name is vouched
    for by the host that serves the document."""
    client_id = application.client_id
    cimd = application.registration_source == application.RegistrationSource.CIMD
    vouched_by = (urlsplit(client_id).hostname or "") if cimd else ""
    target = urlsplit(redirect_uri or (application.redirect_uris.split() or [""])[0])
    returns_to = target.hostname or (f"{target.scheme}:" if target.scheme else "")
    name = (application.name or "").strip() or vouched_by or returns_to
    return ClientFacts(name=name[:120], vouched_by=vouched_by, returns_to=returns_to)
