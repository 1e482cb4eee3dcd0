"""OAuth protected resource metadata (RFC 9728) for /mcp.

An MCP client that meets a 401 looks here to learn how to authenticate. Verdict has no
authorization server: it takes a bearer token, made on the account page, in the
Authorization header, and this says so in JSON instead of leaving the client an HTML 404.
Served at /.well-known/oauth-protected-resource and at the form with the endpoint's path
appended (/.well-known/oauth-protected-resource/mcp), which clients try first.
"""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_safe

METADATA_PATH = "/.well-known/oauth-protected-resource"
ENDPOINT_PATH = "/mcp"


def metadata_url(base: str) -> str:
    """The metadata's address for a server at `base` (scheme://host[:port])."""
    return f"{base.rstrip('/')}{METADATA_PATH}{ENDPOINT_PATH}"


@require_safe
def protected_resource(request: HttpRequest) -> JsonResponse:
    base = request.build_absolute_uri("/").rstrip("/")
    response = JsonResponse(
        {
            "resource": f"{base}{ENDPOINT_PATH}",
            "bearer_methods_supported": ["header"],
            "resource_name": "Verdict",
            "resource_documentation": f"{base}/accounts/",
        }
    )
    response["Access-Control-Allow-Origin"] = "*"  # public, and read by browser-based clients
    return response
