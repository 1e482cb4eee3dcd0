from django.contrib import admin
from django.urls import include, path

from research.mcp.discovery import protected_resource

urlpatterns = [
    path("admin/", admin.site.urls),
    path(".well-known/oauth-protected-resource", protected_resource),
    path(".well-known/oauth-protected-resource/mcp", protected_resource),
    path("accounts/", include("research.web.account_urls")),
    # The header's language switch: Django's set_language (POST, with the CSRF token).
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("research.web.urls")),
]
