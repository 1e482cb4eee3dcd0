from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("research.web.account_urls")),
    path("runs/<str:run_id>/", include("decisions.urls")),
    path("", include("research.web.urls")),
]
