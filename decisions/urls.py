"""Report pages of one run, under /runs/<run_id>/."""

app_name = "decisions"

urlpatterns: list = []
