"""The authorization server's pages: the consent page a person sees when an MCP client asks
to sign in, and the JSON answer for an address under /oauth/ or /.well-known/ that is not
there (a client reads it; an HTML 404 page would only confuse it)."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.cache import add_never_cache_headers
from django.views.decorators.csrf import csrf_exempt
from oauth2_provider.exceptions import FatalClientError, OAuthToolkitError
from oauth2_provider.oauth2_backends import _add_iss_to_redirect
from oauth2_provider.settings import oauth2_settings
from oauth2_provider.views import AuthorizationView
from oauthlib.oauth2.rfc6749.errors import CustomOAuth2Error, InvalidRequestError

from research.oauth.clients import facts
from research.web.security import DEFAULT_POLICY

LOOPBACK = ("127.0.0.1", "localhost", "::1")


class ConsentView(AuthorizationView):
    """Names the client, where it will return to and what it may do, and asks the person
    signed in to allow or deny it. django-oauth-toolkit checks the request (client, redirect
    URI, PKCE with S256) before this page is shown and issues the code after it."""

    template_name = "oauth/consent.html"

    def validate_authorization_request(self, request):
        """The library's checks, then PKCE with S256, before the person is asked anything
        (the library would refuse a plain challenge only after they had allowed it)."""
        scopes, credentials = super().validate_authorization_request(request)
        state = credentials.get("state")
        target = urlsplit(credentials["redirect_uri"])
        if target.scheme == "http" and target.hostname not in LOOPBACK:
            # RFC 9700 2.6: plain http only back to the person's own machine. Not sent
            # back there either: this page says why.
            description = "A client may return over plain http only to this machine's loopback."
            error = InvalidRequestError(description=description, state=state)
            raise FatalClientError(error=error)
        if not credentials.get("code_challenge") or (
            credentials.get("code_challenge_method") != "S256"
        ):
            description = "PKCE is required, with code_challenge_method S256."
            _refuse(InvalidRequestError(description=description, state=state), credentials)
        endpoint = request.build_absolute_uri("/mcp").lower()
        others = [r for r in request.GET.getlist("resource") if r.rstrip("/").lower() != endpoint]
        if others:
            # RFC 8707: this server issues tokens for its own /mcp and nothing else.
            description = f"This server issues tokens for {endpoint} only."
            error = CustomOAuth2Error("invalid_target", description=description, state=state)
            _refuse(error, credentials)
        return scopes, credentials

    def redirect(self, redirect_to, application):
        # RFC 9207: the issuer on every answer to the client, errors included.
        issuer = oauth2_settings.oauth2_authorization_server_issuer(self.request)
        return super().redirect(_add_iss_to_redirect(redirect_to, issuer), application)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        application = context.get("application")
        if application is not None:
            context["client"] = facts(application, context.get("redirect_uri", ""))
            context["endpoint"] = self.request.build_absolute_uri("/mcp")
        return context

    def render_to_response(self, context, **kwargs):
        response = super().render_to_response(context, **kwargs)
        add_never_cache_headers(response)
        target = _origin(context.get("redirect_uri") or "")
        if target:
            # Browsers apply form-action to where the form's answer redirects: the client.
            policy = DEFAULT_POLICY.replace("form-action 'self'", f"form-action 'self' {target}")
            response["Content-Security-Policy"] = policy
        return response


def _refuse(error, credentials: dict) -> None:
    """Send the client back with `error` (its redirect URI was checked by now)."""
    error.redirect_uri = credentials["redirect_uri"]
    raise OAuthToolkitError(error=error, redirect_uri=credentials["redirect_uri"])


def _origin(uri: str) -> str:
    """The CSP source for a redirect URI: its origin, or its scheme for an app's own."""
    parts = urlsplit(uri)
    if parts.scheme in ("http", "https") and parts.netloc:
        return f"{parts.scheme}://{parts.netloc}"
    if parts.scheme and parts.scheme.replace("-", "").replace(".", "").replace("+", "").isalnum():
        return f"{parts.scheme}:"
    return ""


@csrf_exempt
def not_found(request: HttpRequest, *args, **kwargs) -> HttpResponse:
    message = (
        f"There is nothing at {request.path}. This server's OAuth endpoints are listed in "
        "/.well-known/oauth-authorization-server."
    )
    return JsonResponse({"error": "not_found", "error_description": message}, status=404)
