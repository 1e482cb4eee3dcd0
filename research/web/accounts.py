"""Sign-in with a throttle: after a few wrong passwords the password is not even checked.

Failures are counted per username from one address (LOGIN_FAILURES_PER_USER) and per
address whatever the username (LOGIN_FAILURES_PER_ADDRESS), in the cache, over a sliding
window of LOGIN_FAILURE_WINDOW seconds. A successful sign-in clears its username's count.
"""

from __future__ import annotations

import hashlib
import math
import time

from django import forms
from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse


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
        "throttled": "Too many sign-in attempts. Try again in %(seconds)s s.",
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
