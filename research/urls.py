from django.contrib import admin
from django.urls import include, path, re_path

from research.mcp.discovery import protected_resource
from research.oauth.views import not_found

urlpatterns = [
    path("admin/", admin.site.urls),
    path(".well-known/oauth-protected-resource", protected_resource),
    path(".well-known/oauth-protected-resource/mcp", protected_resource),
    # The authorization server MCP clients sign in with (RFC 8414 metadata, /oauth/...).
    path("", include("research.oauth.urls")),
    # A client looking for something this server does not publish gets JSON, not a page.
    re_path(r"^\.well-known/", not_found),
    path("accounts/", include("research.web.account_urls")),
    # The header's language switch: Django's set_language (POST, with the CSRF token).
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("research.web.urls")),
]
