"""OAuth protected resource metadata (RFC 9728) for /mcp.

An MCP client that meets a 401 looks here to learn how to authenticate. Verdict is its own
authorization server (research/oauth): the client finds it here, reads its metadata
(/.well-known/oauth-authorization-server), and signs the person in through the browser.
A personal token made on the account page works in the Authorization header too.
Served at /.well-known/oauth-protected-resource and at the form with the endpoint's path
appended (/.well-known/oauth-protected-resource/mcp), which clients try first.
"""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_safe

METADATA_PATH = "/.well-known/oauth-protected-resource"
ENDPOINT_PATH = "/mcp"
SCOPES = ["mcp"]  # research.oauth.tokens.SCOPE


def metadata_url(base: str) -> str:
    """The metadata's address for a server at `base` (scheme://host[:port])."""
    return f"{base.rstrip('/')}{METADATA_PATH}{ENDPOINT_PATH}"


def endpoint_url(base: str) -> str:
    """The endpoint's canonical URI, the `resource` its tokens are issued for (RFC 8707)."""
    return f"{base.rstrip('/')}{ENDPOINT_PATH}"


@require_safe
def protected_resource(request: HttpRequest) -> JsonResponse:
    base = request.build_absolute_uri("/").rstrip("/")
    response = JsonResponse(
        {
            "resource": endpoint_url(base),
            "authorization_servers": [base],
            "scopes_supported": SCOPES,
            "bearer_methods_supported": ["header"],
            "resource_name": "Verdict",
            "resource_documentation": f"{base}/accounts/",
        }
    )
    response["Access-Control-Allow-Origin"] = "*"  # public, and read by browser-based clients
    return response
