from django.contrib import admin
from django.urls import path
from django.views.generic import RedirectView

urlpatterns = [
    path("admin/", admin.site.urls),
    # Until the question form exists, runs are browsed in the admin.
    path("", RedirectView.as_view(url="/admin/", permanent=False)),
]
