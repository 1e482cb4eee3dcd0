"""Accounts: sign in (throttled), sign out, change password, and the account page with its API
tokens. Accounts are made by the operator (`make run` makes the first); there is no sign-up
and no e-mailed reset."""

from django.contrib.auth import views as auth_views
from django.urls import path

from research.web.accounts import SignInView, account, revoke_token, sign_out_client

urlpatterns = [
    path("", account, name="account"),
    path("tokens/<int:token_id>/revoke/", revoke_token, name="revoke_token"),
    path("clients/<int:application_id>/sign-out/", sign_out_client, name="sign_out_client"),
    path("login/", SignInView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "password/",
        auth_views.PasswordChangeView.as_view(success_url="/accounts/password/done/"),
        name="password_change",
    ),
    path(
        "password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
]
