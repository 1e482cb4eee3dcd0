"""Selectors: a person sees only their own runs, and a run's stages read in plain words."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from research import selectors, services
from research.artifacts import Assessment, Decision, Question, RankedOption, Recommendation
from research.models import Run, StageRun
from research.names import DECISION, STAGE_LABELS
from research.store import store_for

pytestmark = pytest.mark.django_db


def make_run(owner, question: str = "Quillsync vs Loamdb?") -> Run:
    return services.create_run(Question(question=question, sources=["ddgs"]), owner=owner)


def test_a_person_sees_only_their_own_runs_newest_first(ada, bob):
    first, second = make_run(ada, "first"), make_run(ada, "second")
    make_run(bob, "bob's")
    assert list(selectors.runs_for(ada)) == [second, first]


def test_runs_are_searched_by_question_regardless_of_case(ada):
    make_run(ada, "Quillsync vs Loamdb for notes")
    tessera = make_run(ada, "Tessera or Loamdb for SYNC?")
    make_run(ada, "Which database?")
    assert list(selectors.runs_for(ada, "  loamdb for sync ")) == [tessera]
    assert list(selectors.runs_for(ada, "kafka")) == []
    assert list(selectors.runs_for(ada, "for SYNC")) == [tessera]
    assert selectors.runs_for(ada, "loamdb").count() == 2


def test_a_superuser_too_sees_only_their_own_runs(ada):
    boss = get_user_model().objects.create_superuser("boss", password="x" * 12)
    make_run(ada)
    own = make_run(boss)
    assert list(selectors.runs_for(boss)) == [own]


def test_someone_signed_out_sees_no_runs(ada):
    from django.contrib.auth.models import AnonymousUser

    make_run(ada)
    assert not selectors.runs_for(AnonymousUser()).exists()


def test_another_persons_run_does_not_exist_for_you(ada, bob):
    run = make_run(ada)
    assert selectors.run_for(ada, run.run_id) == run
    with pytest.raises(Run.DoesNotExist):
        selectors.run_for(bob, run.run_id)
    with pytest.raises(Run.DoesNotExist):
        selectors.run_for(ada, "feedc0ffee00")


def test_the_stages_come_in_pipeline_order_with_the_names_the_readme_uses(ada):
    views = selectors.run_stages(make_run(ada))
    assert [v.label for v in views] == [
        "retrieve",
        "filter",
        "deep-read",
        "cross-validate",
        "decide",
    ]
    assert [v.stage for v in views] == list(STAGE_LABELS)
    assert {(v.status, v.status_label, v.seconds, v.error) for v in views} == {
        ("pending", "Pending", None, "")
    }


def test_a_finished_stage_shows_its_counts_in_words_and_its_duration(ada):
    run = make_run(ada)
    started = timezone.now() - timedelta(seconds=90)
    StageRun.objects.filter(run=run, stage="retrieve").update(
        status="done",
        attempts=1,
        started=started,
        finished=started + timedelta(seconds=12.5),
        counts={"queries": 9, "candidates": 25},
        outcomes={"OK": 8, "TIMEOUT": 1},
    )
    StageRun.objects.filter(run=run, stage="filter").update(
        status="running", started=started, counts={"kept": 4, "dropped": 21, "replans": 0}
    )
    retrieve, filtering = selectors.run_stages(run)[:2]
    assert retrieve.counts == [("queries", 9), ("candidates found", 25)]
    assert retrieve.seconds == 12.5 and retrieve.attempts == 1
    assert retrieve.outcomes == {"OK": 8, "TIMEOUT": 1}
    assert filtering.counts == [("kept", 4), ("dropped", 21)], "no broader search happened"
    assert filtering.seconds is not None and filtering.seconds >= 90


def test_a_crashed_stage_explains_itself_without_the_exception_trace(ada):
    run = make_run(ada)
    StageRun.objects.filter(run=run, stage="deepread").update(
        status="failed", error="internal error during deepread (KeyError); see the server log"
    )
    StageRun.objects.filter(run=run, stage="decide").update(
        status="failed", error="the report failed its completeness check: no options section"
    )
    views = {v.stage: v for v in selectors.run_stages(run)}
    assert views["deepread"].error == (
        "Deep-read stopped on an unexpected error (KeyError). The server log has the details; "
        "once it is fixed, re-run from this stage."
    )
    assert views["decide"].error == (
        "The report failed its completeness check: no options section."
    )
    assert views["decide"].status_label == "Failed"


def test_a_run_without_stage_rows_reads_its_stages_from_its_manifest(ada):
    run = make_run(ada)
    run.stages.all().delete()
    store = store_for(run.run_id)
    store.update_index(
        lambda index: index["stages"]["retrieve"].update(
            status="done",
            attempts=2,
            started="2026-01-01T10:00:00.000+00:00",
            finished="2026-01-01T10:00:03.000+00:00",
            counts={"candidates": 7, "outcomes": {"OK": 3}},
        )
    )
    retrieve = selectors.run_stages(run)[0]
    assert (retrieve.status, retrieve.attempts, retrieve.seconds) == ("done", 2, 3.0)
    assert retrieve.counts == [("candidates found", 7)]
    assert retrieve.outcomes == {"OK": 3}


def decision(option: str | None, confidence: float, single_site: str | None = None) -> Decision:
    return Decision(
        matrix=[],
        totals={"Loamdb": 70.0, "Quillsync": None},
        ranking=[
            RankedOption(option="Quillsync", total=None, rank=2, cells_with_evidence=0),
            RankedOption(option="Loamdb", total=70.0, rank=1, cells_with_evidence=2),
        ],
        recommendation=Recommendation(
            option=option,
            reasons=["On cost it scores 71.0."],
            low_confidence=False,
            single_site=single_site,
        ),
        assessment=Assessment(
            coverage=1,
            consistency=1,
            timeliness=1,
            verifiability=1,
            confidence=confidence,
            method="",
        ),
        threshold=65,
        missing_information=[],
    )


def test_the_verdict_is_known_once_the_run_is_done(ada):
    run = make_run(ada)
    store_for(run.run_id).write_json(DECISION, decision("Loamdb", 71.5))
    assert selectors.run_verdict(run) is None
    Run.objects.filter(pk=run.pk).update(status=Run.Status.DONE)
    run.refresh_from_db()
    verdict = selectors.run_verdict(run)
    assert (verdict.option, verdict.confidence, verdict.threshold) == ("Loamdb", 71.5, 65)
    assert verdict.reasons == ["On cost it scores 71.0."] and not verdict.low
    store_for(run.run_id).write_json(DECISION, decision(None, 20.0, single_site="loamdb.io"))
    verdict = selectors.run_verdict(run)
    assert (verdict.option, verdict.single_site, verdict.leader) == (None, "loamdb.io", "Loamdb")
    assert verdict.low and verdict.percent == 20


def test_a_damaged_decision_has_no_verdict(ada):
    run = make_run(ada)
    store_for(run.run_id).write_json(DECISION, decision("Loamdb", 71.5))
    Run.objects.filter(pk=run.pk).update(status=Run.Status.DONE)
    run.refresh_from_db()
    store_for(run.run_id).path.joinpath(DECISION).write_text("{}", encoding="utf-8")
    assert selectors.run_verdict(run) is None
