"""The report page's what-if script against the decide stage on every run of the
development corpus (../shared/devcorpus, when it is there): at the run's own weights and at
others, its totals agree to the second decimal and its ranking is the same."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command

from decisions.scoring.totals import total
from research.models import Run
from research.runs import redecide
from research.store import readers, store_for
from research.web.report import whatif
from research.web.report.run_files import load
from tests.research.web.report.whatif_node import node_rank
from tools.quality.corpus_runner import MEASURING_ACCOUNT

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

DEVCORPUS = Path(settings.BASE_DIR).parent / "shared" / "devcorpus"


def other_weights(count: int) -> list[list[float]]:
    """Each dimension leaning hard, then a lopsided mix, in the page's 0-100 units."""
    leaning = [[90.0 if d == n else 5.0 for d in range(count)] for n in range(count)]
    return [*leaning, [float(7 + 31 * d % 53) for d in range(count)]]


@pytest.fixture(scope="module")
def corpus_runs(tmp_path_factory, django_db_setup, django_db_blocker) -> Path:
    if not DEVCORPUS.is_dir():
        pytest.skip(f"no development corpus at {DEVCORPUS}")
    folder = tmp_path_factory.mktemp("devcorpus-runs")
    with django_db_blocker.unblock():
        call_command("quality", corpus=str(DEVCORPUS), runs_dir=str(folder), stdout=_Quiet())
        # The folders are all the test reads: no row may outlive it into other tests.
        Run.objects.all().delete()
        get_user_model().objects.filter(username=MEASURING_ACCOUNT).delete()
    return folder


class _Quiet:
    def write(self, *_args) -> None:
        pass

    def flush(self) -> None:
        pass


def test_the_script_agrees_with_the_decide_stage_on_every_devcorpus_run(corpus_runs, settings):
    settings.RUNS_DIR = corpus_runs
    runs = sorted(p.name for p in corpus_runs.iterdir() if (p / "round_5_decision.json").is_file())
    assert len(runs) >= 5
    for run_id in runs:
        store = store_for(run_id)
        model = whatif.model(load(store))
        decision = readers.decision(store)
        own = [d["weight"] for d in model["dimensions"]]
        ranked = node_rank(model, own)
        assert [r["option"] for r in ranked] == [r.option for r in decision.ranking], run_id
        for r in ranked:
            assert r["total"] == decision.totals[r["option"]], run_id
        for weights in other_weights(len(own)):
            by_name = {d["name"]: w for d, w in zip(model["dimensions"], weights, strict=True)}
            saved = redecide.save_with_weights(store, by_name, "verdict-quality")
            again = store.read_model(
                f"decisions/{saved.number}-round_5_decision.json", type(decision)
            )
            ranked = node_rank(model, weights)
            assert [r["option"] for r in ranked] == [r.option for r in again.ranking], run_id
            for r in ranked:
                server = again.totals[r["option"]]
                if server is None:
                    assert r["raw"] is None
                else:
                    assert r["total"] == server, run_id
                    used = {d.name: d.weight for d in saved.weights}
                    assert abs(r["raw"] - _unrounded(again, r["option"], used)) < 0.005, run_id


def _unrounded(decision, option: str, weights: dict[str, float]) -> float:
    return total([c for c in decision.matrix if c.option == option], weights)
