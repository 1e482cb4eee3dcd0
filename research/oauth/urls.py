"""The authorization server's addresses. django-oauth-toolkit finds its own views by name in
the `oauth2_provider` namespace (the metadata lists them), so that is this module's name."""

from django.urls import path, re_path
from oauth2_provider import views as oauth

from research.oauth.views import ConsentView, not_found

app_name = "oauth2_provider"

urlpatterns = [
    # RFC 8414: at the root, as the issuer is this site with no path.
    path(
        ".well-known/oauth-authorization-server",
        oauth.OAuthServerMetadataView.as_view(),
        name="oauth-server-metadata",
    ),
    path("oauth/authorize", ConsentView.as_view(), name="authorize"),
    path("oauth/token", oauth.TokenView.as_view(), name="token"),
    path("oauth/revoke", oauth.RevokeTokenView.as_view(), name="revoke-token"),
    path("oauth/register", oauth.DynamicClientRegistrationView.as_view(), name="dcr-register"),
    path(
        "oauth/register/<str:client_id>",
        oauth.DynamicClientRegistrationManagementView.as_view(),
        name="dcr-register-management",
    ),
    re_path(r"^oauth/", not_found),
]
