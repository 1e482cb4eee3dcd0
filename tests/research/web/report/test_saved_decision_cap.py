"""A run keeps at most SAVED_DECISIONS_PER_RUN decisions saved with other weights: the
report page's what-if weights past the cap are refused in plain words, and nothing is saved."""

from __future__ import annotations

import pytest
from django.urls import reverse

from research.runs import redecide
from research.store import store_for

pytestmark = pytest.mark.django_db

WEIGHTS = {"licence risk": 10, "maintenance activity": 10, "customisation cost": 80}


def save(client, run_id: str):
    return client.post(
        reverse("web:reweigh", args=[run_id]),
        {"dimension": list(WEIGHTS), "weight": [str(w) for w in WEIGHTS.values()]},
    )


def test_past_the_cap_new_weights_are_refused_and_nothing_is_saved(install, ada_client, settings):
    settings.SAVED_DECISIONS_PER_RUN = 2
    run = install("en")
    assert [save(ada_client, run.run_id)["Location"] for _ in range(2)] == [
        reverse("web:saved", args=[run.run_id, n]) for n in (1, 2)
    ]

    refused = save(ada_client, run.run_id)

    assert refused["Location"] == reverse("web:report", args=[run.run_id]) + "#whatif"
    page = ada_client.get(refused["Location"]).text
    assert "This run already keeps 2 saved decisions, the most one run may keep" in page
    assert redecide.saved_count(store_for(run.run_id)) == 2
