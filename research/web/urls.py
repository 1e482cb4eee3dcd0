from django.urls import path

from research.web import views

app_name = "web"

urlpatterns = [
    path("", views.home, name="home"),
]
