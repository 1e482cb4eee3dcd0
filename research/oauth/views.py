"""The authorization server's pages: the consent page a person sees when an MCP client asks
to sign in, and the JSON answer for an address under /oauth/ or /.well-known/ that is not
there (a client reads it; an HTML 404 page would only confuse it)."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.cache import add_never_cache_headers
from django.views.decorators.csrf import csrf_exempt
from oauth2_provider.views import AuthorizationView

from research.oauth.clients import facts
from research.web.security import DEFAULT_POLICY


class ConsentView(AuthorizationView):
    """Names the client, where it will return to and what it may do, and asks the person
    signed in to allow or deny it. django-oauth-toolkit checks the request (client, redirect
    URI, PKCE with S256) before this page is shown and issues the code after it."""

    template_name = "oauth/consent.html"

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
