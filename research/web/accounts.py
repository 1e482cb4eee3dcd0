"""Accounts: sign-in with a throttle, and the account page where people make and revoke their
API tokens for MCP over HTTP and sign out the MCP clients that signed in with OAuth.

After a few wrong passwords the password is not even checked. Failures are counted per
username from one address (LOGIN_FAILURES_PER_USER) and per address whatever the username
(LOGIN_FAILURES_PER_ADDRESS), in the cache, over a sliding window of LOGIN_FAILURE_WINDOW
seconds. A successful sign-in clears its username's count.
"""

from __future__ import annotations

import hashlib
import math
import time

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_POST

from research.mcp.client_configs import http_configs
from research.models import ApiToken
from research.oauth.tokens import sign_ins, sign_out


def _key(kind: str, *parts: str) -> str:
    digest = hashlib.sha256("\x00".join(parts).encode("utf-8")).hexdigest()[:32]
    return f"login-failures:{kind}:{digest}"


def _address(request: HttpRequest | None) -> str:
    return (request.META.get("REMOTE_ADDR") or "unknown") if request else "unknown"


def _keys(request: HttpRequest | None, username: str) -> list[tuple[str, int]]:
    address = _address(request)
    return [
        (_key("user", username.casefold(), address), settings.LOGIN_FAILURES_PER_USER),
        (_key("address", address), settings.LOGIN_FAILURES_PER_ADDRESS),
    ]


def _recent(key: str, now: float) -> list[float]:
    return [t for t in cache.get(key, []) if now - t < settings.LOGIN_FAILURE_WINDOW]


def seconds_to_wait(request: HttpRequest | None, username: str) -> int:
    """0 when a sign-in may be tried now; else the seconds until the oldest failure expires."""
    now = time.time()
    wait = 0.0
    for key, allowed in _keys(request, username):
        recent = _recent(key, now)
        if len(recent) >= allowed:
            oldest_that_counts = sorted(recent)[-allowed]
            wait = max(wait, oldest_that_counts + settings.LOGIN_FAILURE_WINDOW - now)
    return math.ceil(wait) if wait > 0 else 0


def record_failure(request: HttpRequest | None, username: str) -> None:
    now = time.time()
    for key, _ in _keys(request, username):
        cache.set(key, [*_recent(key, now), now], timeout=settings.LOGIN_FAILURE_WINDOW)


def clear_failures(request: HttpRequest | None, username: str) -> None:
    cache.delete(_keys(request, username)[0][0])


class ThrottledAuthenticationForm(AuthenticationForm):
    retry_after = 0  # seconds, when this attempt was refused unchecked
    error_messages = {
        **AuthenticationForm.error_messages,
        "throttled": gettext_lazy("Too many sign-in attempts. Try again in %(seconds)s s."),
    }

    def clean(self):
        username = self.cleaned_data.get("username") or ""
        if username and self.cleaned_data.get("password"):
            wait = seconds_to_wait(self.request, username)
            if wait:
                self.retry_after = wait
                raise forms.ValidationError(
                    self.error_messages["throttled"], code="throttled", params={"seconds": wait}
                )
        try:
            return super().clean()
        except forms.ValidationError as error:
            if getattr(error, "code", None) == "invalid_login":
                record_failure(self.request, username)
            raise


class SignInView(auth_views.LoginView):
    authentication_form = ThrottledAuthenticationForm
    redirect_authenticated_user = True

    def form_valid(self, form: ThrottledAuthenticationForm) -> HttpResponse:
        clear_failures(self.request, form.get_user().get_username())
        return super().form_valid(form)

    def form_invalid(self, form: ThrottledAuthenticationForm) -> HttpResponse:
        response = super().form_invalid(form)
        retry_after = getattr(form, "retry_after", 0)
        if retry_after:
            response.status_code = 429
            response["Retry-After"] = str(retry_after)
        return response


# --- the account page: API tokens for MCP over HTTP ------------------------------------------


class ApiTokenForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Label"),
        max_length=ApiToken._meta.get_field("name").max_length,
        help_text=gettext_lazy("What the token is for, e.g. “laptop Claude Desktop”."),
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if ApiToken.objects.filter(user=self.user, name=name).exists():
            raise forms.ValidationError(
                gettext("You already have a token labelled “%(name)s”.") % {"name": name}
            )
        return name


NEW_TOKEN = "account:new-token"  # the session key that carries a new secret to one page


@login_required
def account(request: HttpRequest) -> HttpResponse:
    """The account page. A made token is answered with a redirect, so that refreshing the page
    sends nothing again; its secret rides in the session to the one page after it and is
    taken out as that page is shown. It is not stored anywhere else, and the page may not be
    cached, so it cannot be shown again."""
    form = ApiTokenForm(user=request.user)
    if request.method == "POST":
        form = ApiTokenForm(request.POST, user=request.user)
        if form.is_valid():
            try:
                with transaction.atomic():
                    token, secret = ApiToken.issue(request.user, form.cleaned_data["name"])
            except IntegrityError:  # the same label, made at the same moment elsewhere
                form.add_error("name", gettext("You already have a token with this label."))
            else:
                request.session[NEW_TOKEN] = {"id": token.pk, "secret": secret}
                return redirect("account")
    new_token, secret = _made_just_now(request)
    endpoint = request.build_absolute_uri("/mcp")
    context = {
        "form": form,
        "tokens": ApiToken.objects.filter(user=request.user),
        "sign_ins": sign_ins(request.user),
        "new_token": new_token,
        "secret": secret,
        "endpoint": endpoint,
        "configs": http_configs(endpoint, secret),
        "rate_limit": settings.MCP_RATE_LIMIT,
    }
    response = render(request, "web/account.html", context, status=400 if form.errors else 200)
    add_never_cache_headers(response)
    return response


def _made_just_now(request: HttpRequest) -> tuple[ApiToken | None, str]:
    """The token made by the POST before this page, once; (None, "") on every other page."""
    made = request.session.pop(NEW_TOKEN, None) if request.method == "GET" else None
    if not isinstance(made, dict):
        return None, ""
    token = ApiToken.objects.filter(user=request.user, pk=made.get("id")).first()
    return (token, str(made.get("secret", ""))) if token else (None, "")


@login_required
@require_POST
def revoke_token(request: HttpRequest, token_id: int) -> HttpResponse:
    token = get_object_or_404(ApiToken, pk=token_id, user=request.user)
    token.delete()
    messages.success(
        request, gettext("Revoked “%(name)s”: it no longer works.") % {"name": token.name}
    )
    return redirect("account")


@login_required
@require_POST
def sign_out_client(request: HttpRequest, application_id: int) -> HttpResponse:
    """End the sign-in of one MCP client: its tokens stop working at once."""
    if sign_out(request.user, application_id):
        messages.success(request, gettext("Signed out: that application must sign in again."))
    return redirect("account")
