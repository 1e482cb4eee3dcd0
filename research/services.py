"""Writes: what the surfaces (web pages, CLI, MCP) ask of a run. Submitting a question,
cancelling a run, re-running it from a stage, repairing it, resuming it.

`submit_question` is the one way in for every surface: validate, create the run, and queue
it once the transaction commits. The run engine (research.runs) does the rest; nothing in
it imports this module.
"""

from __future__ import annotations

import logging
import math
import re
import secrets
from calendar import monthrange
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from research import diskspace
from research.artifacts import STAGES, Correction, Question, SavedDecision
from research.models import Reask, Run
from research.names import stage_label
from research.questions import QuestionInvalid, Submission, clean_question
from research.runs import manifest, redecide, repair, rows
from research.runs.registry import active_stages
from research.store import ManifestDamaged, RunStore, StoreError, now_iso, readers, store_for

__all__ = [
    "CorrectionInvalid",
    "Question",
    "QuestionInvalid",
    "Submission",
    "WeightsInvalid",
    "correct",
    "create_run",
    "save_weights",
    "submit_question",
    "undo_correction",
]

logger = logging.getLogger(__name__)

NOT_QUEUED = (
    "The run could not be handed to the workers: the task queue (Redis) did not answer. "
    "Start Verdict with `make run`, then re-run this question."
)
UNFINISHED = ("queued", "running")


# --- a new run ------------------------------------------------------------------------------


def submit_question(
    owner, form: Submission, *, trusted_sources: bool = False, enqueue: bool = True
) -> Run:
    """Validate a question form, create its run and queue it once the transaction commits.

    Raises QuestionInvalid, whose `errors` map form fields to messages
    (research.questions.clean_question, which says what `trusted_sources` allows).
    """
    run = create_run(
        clean_question(form, trusted_sources=trusted_sources, owner=owner), owner=owner
    )
    if enqueue:
        transaction.on_commit(partial(_enqueue, run.run_id))
    return run


# --- a form sent twice -------------------------------------------------------------------

# The key a web form that starts a run carries (new_submission_key, made when the form is
# shown); anything else sent in its place is not a key, and the form starts a run as before.
SUBMISSION_KEY = re.compile(r"[A-Za-z0-9_-]{16,64}")


@dataclass(frozen=True)
class Started:
    run: Run
    repeated: bool  # the form had been sent before: `run` is the one it started then


def new_submission_key() -> str:
    return secrets.token_urlsafe(18)


def submit_form(owner, form: Submission, key: str) -> Started:
    """submit_question for a web form with its submission key: the same form sent again
    with the same question finds the run it started, instead of starting another."""
    question = clean_question(form, owner=owner)
    return _once(owner, key, question.question, lambda k: _submit(question, owner, k))


def ask_again_once(run: Run, key: str) -> Started:
    """ask_again for the run page's form, with its submission key (submit_form)."""
    return _once(run.owner, key, run.question, lambda k: ask_again(run, key=k))


def _once(owner, key: str, question: str, start: Callable[[str], Run]) -> Started:
    key = key if owner is not None and SUBMISSION_KEY.fullmatch(key or "") else ""
    if key:
        earlier = Run.objects.filter(owner=owner, submission_key=key).first()
        if earlier is not None and earlier.question == question:
            return Started(earlier, repeated=True)
        if earlier is not None:
            key = ""  # the form was sent back with another question: that is a new run
    try:
        return Started(start(key), repeated=False)
    except IntegrityError:  # the same form sent twice at once: the other one made the run
        return Started(Run.objects.get(owner=owner, submission_key=key), repeated=True)


def _submit(question: Question, owner, key: str) -> Run:
    run = create_run(question, owner=owner, key=key)
    transaction.on_commit(partial(_enqueue, run.run_id))
    return run


def _enqueue(run_id: str) -> None:
    """Queue the first stage; a broker that is down fails the run visibly, not the request."""
    try:
        queue_run(run_id, STAGES[0])
    except Exception:
        logger.exception("could not queue run %s", run_id)


def create_run(question: Question, owner=None, key: str = "") -> Run:
    """Make the Run row, its stage rows and its folder with a fresh manifest. IntegrityError
    when the owner already has a run of submission `key`."""
    with transaction.atomic():
        run = Run.objects.create(owner=owner, submission_key=key, **rows.row_fields(question))
        rows.add_stage_rows(run)
    try:
        store_for(run.run_id).create(rows.run_params(run), STAGES)
    except OSError as exc:
        # No folder, no run: the row goes too, and the person is told why, in the form.
        run.delete()
        why = (
            "no space left on the disk that holds the run folders"
            if diskspace.full(exc)
            else exc.strerror or str(exc)
        )
        logger.error("could not create the folder of a new run: %s", exc)
        raise QuestionInvalid(
            {"question": [f"The server could not store this run ({why}). Try again later."]}
        ) from exc
    return run


# --- handing a run to the workers -----------------------------------------------------------


def queue_run(run_id: str, stage: str) -> None:
    """Hand the run to the workers at `stage`. When the broker does not answer, the run
    fails with NOT_QUEUED and the error goes up."""
    from research.runs import tasks  # the Celery tasks: only runs handed over need them

    try:
        tasks.start(run_id, stage)
    except Exception:
        not_queued(run_id, stage)
        raise


def not_queued(run_id: str, stage: str) -> None:
    """Fail the run at `stage` for a task queue that did not answer, in its files as in the
    database: the manifest and the log say it, so that nobody reads the run as waiting."""
    try:
        manifest.fail_stage(store_for(run_id), stage, NOT_QUEUED)
    except (StoreError, OSError) as exc:
        logger.warning("run %s failed in the database only: %s", run_id, exc)
    rows.mark_run(run_id, Run.Status.FAILED, stage, NOT_QUEUED)


def resume_run(run_id: str, stage: str) -> str:
    """Hand an unfinished run back to the workers from where it stopped, whatever state it
    was left in, and say what was done (research.runs.recovery.resume). When the broker
    does not answer, the run fails at `stage` with NOT_QUEUED and the error goes up."""
    from research.runs import recovery

    try:
        return recovery.resume(run_id)
    except Exception:
        not_queued(run_id, stage)
        raise


def prepare_resume(store: RunStore, from_stage: str | None = None) -> list[str]:
    """Make a run folder ready to go on: a damaged manifest rebuilt, its database row
    there, and `from_stage` (or the first stage with damaged output) and every later stage
    set to run again. Says what was repaired; StoreError when the manifest cannot be."""
    said = []
    damage = repair.manifest_damage(store)
    if damage is not None:
        rebuilt = repair.rebuild_manifest(store, damage)
        said.append(f"index.json is damaged: {damage.problem}. Verdict {rebuilt}.")
    rows.ensure_run_row(store)
    if from_stage:
        manifest.reset_from(store.run_id, from_stage)
    elif (found := repair.from_damage(store)) is not None:
        stage, damaged = found
        said.append(
            f"{damaged.name} is damaged: {damaged.problem}. "
            f"Running {stage_label(stage)} and every later stage again."
        )
    return said


def mend_manifest(run: Run) -> ManifestDamaged | None:
    """Rebuild a run's missing or unreadable manifest from its files, when the run is not
    going and every stage's files are sound, so that nothing else changes; the damage
    mended, or None. Pages and tools call it before they read a run."""
    try:
        return repair.mend(store_for(run.run_id))
    except (StoreError, OSError):  # gone, or out of reach: the page says so in its own way
        return None


# --- the buttons of the run page ------------------------------------------------------------


def cancel_run(run: Run, by: str = "") -> None:
    """Mark the queued or running stage cancelled and the run stopped, in the manifest and
    the database, and log it; later stages stay pending and earlier results stay on disk.
    A worker mid-stage finishes that stage (its output stays valid) but queues nothing
    after it, and a stage message still waiting is skipped when it arrives; a re-run
    clears the mark."""
    store = store_for(run.run_id)
    try:
        manifest.cancel(store, by)
        stages = store.index()["stages"]
        for stage, entry in stages.items():
            if entry["status"] in UNFINISHED:
                manifest.mark_stage(store, stage, status="cancelled", finished=now_iso(), error="")
        store.log("run_cancelled", by=by, stage=run.current_stage)
    except (StoreError, OSError) as exc:
        # Its files cannot take the mark (damaged, gone, a full disk): the database says
        # it, and nothing queues a stage of a failed run.
        logger.warning("run %s cancelled in the database only: %s", run.run_id, exc)
    rows.mark_run(run.run_id, Run.Status.FAILED, run.current_stage, rows.CANCELLED)


def rerun_from(run: Run, stage: str) -> None:
    """Run `stage` and every later one again; earlier stages keep their output. A damaged
    manifest is rebuilt first, from the files still sound."""
    store = store_for(run.run_id)
    damage = repair.manifest_damage(store)
    if damage is not None:
        repair.rebuild_manifest(store, damage)
    manifest.reset_from(run.run_id, stage)
    rows.mark_run(run.run_id, Run.Status.QUEUED, stage)
    from research.runs import tasks

    tasks.start(run.run_id, stage)


def repair_run(run: Run) -> str:
    """Rebuild a damaged manifest, then carry on from the first stage whose output is not
    sound; says what was done."""
    store = store_for(run.run_id)
    damage = repair.manifest_damage(store)
    said = repair.rebuild_manifest(store, damage) if damage is not None else "the manifest is sound"
    stage = manifest.first_unfinished(run.run_id)
    if stage is None:
        manifest.finish_run(run.run_id, active_stages()[-1])
        return f"Verdict {said}."
    rerun_from(run, stage)
    return f"Verdict {said}; the run goes on from {stage_label(stage)}."


# --- deciding a finished run again ----------------------------------------------------------


class WeightsInvalid(ValueError):
    """New weights that cannot be decided with; the message says what to fix."""


def save_weights(run: Run, weights: Mapping[str, Any], by: str) -> SavedDecision:
    """Decide a finished run again with other weights, one for each of its dimensions (a
    number above 0, in any scale), and save it as a decision of its own beside the run's.
    Nothing is searched or read again. Raises WeightsInvalid."""
    if run.status != Run.Status.DONE:
        raise WeightsInvalid("The run has not finished: it can be re-weighted once it has.")
    store = store_for(run.run_id)
    names = [d.name for d in readers.plan(store).dimensions]
    checked = checked_weights(weights, names)
    most = settings.SAVED_DECISIONS_PER_RUN
    if redecide.saved_count(store) >= most:
        raise WeightsInvalid(
            gettext(
                "This run already keeps %(most)s saved decisions, the most one run may keep: "
                "nothing was saved. Compare the ones saved, or ask the question again."
            )
            % {"most": f"{most:,}"}
        )
    return redecide.save_with_weights(store, checked, by)


def checked_weights(weights: Mapping[str, Any], names: list[str]) -> dict[str, float]:
    unknown = [n for n in weights if n not in names]
    if unknown:
        raise WeightsInvalid(
            f"{', '.join(map(repr, unknown))} is not a dimension of this run; "
            f"its dimensions are {', '.join(map(repr, names))}."
        )
    missing = [n for n in names if n not in weights]
    if missing:
        raise WeightsInvalid(f"Give a weight for {', '.join(map(repr, missing))} too.")
    checked = {}
    for name in names:
        value = _number(weights[name])
        if value is None or value <= 0:
            raise WeightsInvalid(
                f"The weight of {name!r} must be a number above 0; got {weights[name]!r}."
            )
        checked[name] = value
    return checked


def _number(raw: Any) -> float | None:
    if isinstance(raw, bool):
        return None
    try:
        value = float(str(raw).strip().rstrip("%"))
    except ValueError:
        return None
    return value if math.isfinite(value) else None


# --- correcting the reader ----------------------------------------------------------------

CLAIM_KINDS = ("wrong_option", "wrong_dimension", "wrong_polarity", "not_a_claim")
POLARITIES = ("1", "-1", "0")
MAX_NOTE = 500


class CorrectionInvalid(ValueError):
    """A correction that cannot be made; the message says why."""


def correct(
    run: Run, target: str, target_id: str, kind: str, by: str, value: str = "", note: str = ""
) -> Correction:
    """Mark a claim of the run misread, or a contradiction not real, and decide the run again
    with it; the stored pages are never changed. Raises CorrectionInvalid."""
    if run.status != Run.Status.DONE:
        raise CorrectionInvalid(
            "The run has not finished: its reading can be corrected once it has."
        )
    store = store_for(run.run_id)
    plan, check = readers.plan(store), readers.crosscheck(store)
    _check_target(target, target_id, kind, check)
    if any(c.target_id == target_id for c in readers.corrections(store).active()):
        raise CorrectionInvalid(f"{target_id} is corrected already: undo that correction first.")
    most = settings.CORRECTIONS_PER_RUN
    if len(readers.corrections(store).corrections) >= most:
        raise CorrectionInvalid(
            gettext(
                "This run already has %(most)s corrections, the most one run may keep: "
                "nothing was changed."
            )
            % {"most": f"{most:,}"}
        )
    correction = Correction(
        id=redecide.next_correction_id(store),
        target=target,  # type: ignore[arg-type]
        target_id=target_id,
        kind=kind,  # type: ignore[arg-type]
        value=_checked_value(kind, value.strip(), plan),
        note=" ".join(note.split())[:MAX_NOTE],
        by=by,
        at=now_iso(),
    )
    redecide.record_correction(store, correction)
    return correction


def undo_correction(run: Run, correction_id: str, by: str) -> Correction:
    """Take a correction back and decide the run again without it."""
    store = store_for(run.run_id)
    found = next((c for c in readers.corrections(store).active() if c.id == correction_id), None)
    if found is None:
        raise CorrectionInvalid(f"There is no correction {correction_id!r} standing to undo.")
    undone = found.model_copy(update={"undone_by": by, "undone_at": now_iso()})
    redecide.record_correction(store, undone)
    return undone


def _check_target(target: str, target_id: str, kind: str, check) -> None:
    if target == "claim":
        if kind not in CLAIM_KINDS:
            raise CorrectionInvalid(
                f"A claim can be marked {', '.join(CLAIM_KINDS)}; not {kind!r}."
            )
        if not any(c.id == target_id for c in check.claims):
            raise CorrectionInvalid(f"This run has no claim {target_id!r}.")
    elif target == "contradiction":
        if kind != "not_real":
            raise CorrectionInvalid("A contradiction can only be marked not real.")
        if not any(x.id == target_id for x in check.contradictions):
            raise CorrectionInvalid(f"This run has no contradiction {target_id!r}.")
    else:
        raise CorrectionInvalid("Correct a claim or a contradiction.")


def _checked_value(kind: str, value: str, plan) -> str | None:
    """What the claim should have been, when the person said; None when they did not."""
    if kind == "wrong_dimension" and value == "-":
        return ""  # about none of the dimensions
    if not value or kind in ("not_a_claim", "not_real"):
        return None
    allowed = {
        "wrong_option": plan.options,
        "wrong_dimension": [d.name for d in plan.dimensions],
        "wrong_polarity": list(POLARITIES),
    }[kind]
    if value not in allowed:
        raise CorrectionInvalid(f"{value!r} is not one of {', '.join(map(repr, allowed))}.")
    return value


# --- asking a question again ----------------------------------------------------------------

AGAIN_OF = "again_of"  # index.json params: the run this one asks again


AGAIN_ON_SCHEDULE = "again_on_schedule"  # index.json params: "weekly"/"monthly", if so


def ask_again(run: Run, *, enqueue: bool = True, schedule: str = "", key: str = "") -> Run:
    """A new run of the same question, options, dimensions, weights and sources, owned by
    the same person and linked to `run` in its manifest; queued once the transaction
    commits. `schedule` names the interval when the clock asked, not the person."""
    question = Question(
        question=run.question,
        options=run.options,
        dimensions=run.dimensions,
        preset=run.preset,
        sources=run.sources,
        limits=run.limits,
    )
    again = create_run(question, owner=run.owner, key=key)
    store = store_for(again.run_id)

    def link(index: dict) -> None:
        index["params"][AGAIN_OF] = run.run_id
        if schedule:
            index["params"][AGAIN_ON_SCHEDULE] = schedule

    store.update_index(link)
    store.log("asked_again", of=run.run_id, **({"schedule": schedule} if schedule else {}))
    if enqueue:
        transaction.on_commit(partial(_enqueue, again.run_id))
    return again


# --- asking a question again on a schedule -----------------------------------------------


def add_interval(when, interval: str, day: int | None = None):
    """`when` a week or a calendar month later; a month later falls on `day` (when's own
    day unless given), or the month's last day when it has fewer."""
    if interval == Reask.Interval.WEEKLY:
        return when + timedelta(days=7)
    year, month = when.year + when.month // 12, when.month % 12 + 1
    last = monthrange(year, month)[1]
    return when.replace(year=year, month=month, day=min(day or when.day, last))


class ScheduleInvalid(ValueError):
    """A schedule that cannot be set: its message says why."""


def set_reask(run: Run, interval: str, *, now=None) -> Reask | None:
    """Ask `run`'s question again every `interval` ("weekly" or "monthly"), the first time
    one interval from now; an empty interval stops it. Returns the schedule, or None."""
    if not interval:
        Reask.objects.filter(run=run).delete()
        return None
    if interval not in Reask.Interval.values:
        raise ScheduleInvalid(f"{interval!r} is not one of weekly, monthly.")
    if run.status not in (Run.Status.DONE, Run.Status.FAILED):
        raise ScheduleInvalid("The run is still going: schedule it once it has finished.")
    now = now or timezone.now()
    reask, _ = Reask.objects.update_or_create(
        run=run,
        defaults={
            "owner": run.owner,
            "interval": interval,
            "next_due": add_interval(now, interval),
            "day": now.day,
        },
    )
    return reask


def start_due_reasks(now) -> list[Run]:
    """Ask again every scheduled question due by `now` whose owner may still sign in, once
    each: its next due date moves on past `now` before the run is made, and only if no
    other clock moved it first. Returns the runs started."""
    started = []
    due = Reask.objects.filter(next_due__lte=now, owner__is_active=True).select_related("run")
    for reask in due:
        following = reask.next_due
        while following <= now:  # a clock that was stopped for weeks starts one run, not many
            following = add_interval(following, reask.interval, reask.day)
        with transaction.atomic():
            claimed = Reask.objects.filter(pk=reask.pk, next_due=reask.next_due).update(
                next_due=following
            )
            if not claimed or reask.run.owner_id != reask.owner_id:
                continue
            try:
                with transaction.atomic():
                    again = ask_again(reask.run, schedule=reask.interval)
            except (QuestionInvalid, StoreError, OSError) as exc:
                logger.warning("could not ask run %s again: %s", reask.run.run_id, exc)
                continue
            Reask.objects.filter(pk=reask.pk).update(last_started=again)
            started.append(again)
    return started
