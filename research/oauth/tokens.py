"""OAuth access tokens as /mcp sees them, and the sign-ins a person sees on the account page.

The tokens themselves are django-oauth-toolkit's: issued, refreshed, rotated and revoked by
its views, and stored as a sha256 only. Here they are only looked up and listed, and a
person's sign-in from one client is ended.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Max, Min
from django.utils import timezone
from oauth2_provider.models import (
    get_access_token_model,
    get_application_model,
    get_grant_model,
    get_refresh_token_model,
)
from oauth2_provider.settings import oauth2_settings

from research.oauth.clients import ClientFacts, facts

SCOPE = "mcp"  # the one scope: use Verdict's MCP server as the person who approved


def find_access_token(secret: str, resource: str):
    """The live access token with this secret, for an active user, granting SCOPE and meant
    for `resource` (RFC 8707: a token asked for another server is refused); else None."""
    if not secret or len(secret) > 400:
        return None
    checksum = hashlib.sha256(secret.encode("utf-8")).hexdigest()
    token = (
        get_access_token_model()
        .objects.select_related("user", "application")
        .filter(token_checksum=checksum, user__is_active=True, application__isnull=False)
        .first()
    )
    if token is None or not token.is_valid([SCOPE]) or not _for(token, resource):
        return None
    return token


def _for(token, resource: str) -> bool:
    wanted = resource.rstrip("/").lower()
    return not token.resource or any(r.rstrip("/").lower() == wanted for r in token.resource)


@dataclass(frozen=True)
class SignIn:
    """One client a person has signed in from, with its live tokens taken together."""

    application_id: int
    client: ClientFacts
    signed_in: datetime
    last_refreshed: datetime
    access_until: datetime | None


def sign_ins(user) -> list[SignIn]:
    """The clients `user` is signed in from: those holding a refresh token not revoked, or
    an access token not expired. Newest first."""
    now = timezone.now()
    refresh = get_refresh_token_model().objects.filter(user=user, revoked__isnull=True)
    if oauth2_settings.REFRESH_TOKEN_EXPIRE_SECONDS:
        since = now - timedelta(seconds=oauth2_settings.REFRESH_TOKEN_EXPIRE_SECONDS)
        refresh = refresh.filter(created__gt=since)
    access = get_access_token_model().objects.filter(
        user=user, application__isnull=False, expires__gt=now
    )
    ids = set(refresh.values_list("application_id", flat=True)) | set(
        access.exclude(scope=oauth2_settings.DCR_REGISTRATION_SCOPE).values_list(
            "application_id", flat=True
        )
    )
    applications = get_application_model().objects.in_bulk(ids)
    found = []
    for app_id, application in applications.items():
        times = refresh.filter(application_id=app_id).aggregate(
            first=Min("created"), last=Max("created")
        )
        until = access.filter(application_id=app_id).aggregate(until=Max("expires"))["until"]
        first, last = times["first"] or until, times["last"] or until
        found.append(SignIn(app_id, facts(application), first, last, until))
    return sorted(found, key=lambda s: s.last_refreshed, reverse=True)


def sign_out(user, application_id: int) -> bool:
    """End `user`'s sign-in from one client: every access and refresh token and every
    unused code it holds for them. The client must sign in again. False if there was none."""
    with transaction.atomic():
        refresh = get_refresh_token_model().objects.filter(user=user, application_id=application_id)
        access = get_access_token_model().objects.filter(user=user, application_id=application_id)
        grants = get_grant_model().objects.filter(user=user, application_id=application_id)
        had = refresh.filter(revoked__isnull=True).exists() or access.exists()
        refresh.delete()
        access.delete()
        grants.delete()
    return had
