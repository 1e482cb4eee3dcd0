"""generate_assessment: the decide stage's result, stored or computed from a run's
artifacts."""

from __future__ import annotations

from functools import partial

from mcp_types import CallToolResult

from research.artifacts import (
    Decision,
)
from research.context import StageContext
from research.mcp.common import (
    NOT_READY,
    Reporter,
    current_stage,
    failed,
    owned_run,
)
from research.mcp.tools.results import (
    ASSESS_STEPS,
    AssessmentResult,
    ScoreOut,
)
from research.names import (
    CROSSCHECK,
    DECISION,
    FINISHED,
    stage_label,
)
from research.outcomes import Outcome
from research.runs.runners.decide import decide_from_files
from research.selectors import run_stages
from research.store import readers, store_for


def assess(user, run_id: str, reporter: Reporter) -> AssessmentResult | CallToolResult:
    try:
        run = owned_run(user, run_id)
    except LookupError as exc:
        return failed(
            AssessmentResult(status=Outcome.NO_HIT, run_id=run_id, message=str(exc)), str(exc)
        )
    statuses = {view.stage: view.status for view in run_stages(run)}
    current = current_stage(run)
    store = store_for(run_id)
    if statuses.get("crosscheck") not in FINISHED or not readers.sound(store, CROSSCHECK):
        message = (
            f"Run {run_id} is not cross-validated yet (it is at the {stage_label(current)} "
            "stage): an assessment needs the cross-validate stage's claims and contradictions."
        )
        return failed(
            AssessmentResult(status=NOT_READY, run_id=run_id, stage=current, message=message),
            message,
        )
    if statuses.get("decide") in FINISHED and readers.sound(store, DECISION):
        decision, source = readers.decision(store), "stored"
        reporter.step(f"read the decide stage's result for run {run_id}", total=1)
    else:
        decision, source = _decision(store, reporter), "computed"
    return AssessmentResult(
        status=Outcome.OK,
        run_id=run_id,
        stage=current,
        source=source,
        recommendation=decision.recommendation.option,
        reasons=decision.recommendation.reasons,
        single_site=decision.recommendation.single_site,
        withheld=decision.recommendation.withheld,
        no_recommendation_reason=decision.recommendation.no_recommendation_reason,
        would_settle=decision.recommendation.would_settle,
        settling_cells=decision.recommendation.settling_cells,
        confidence=decision.assessment.confidence,
        threshold=decision.threshold,
        low_confidence=decision.recommendation.low_confidence,
        assessment=decision.assessment,
        ranking=decision.ranking,
        scores=[
            ScoreOut(option=c.option, dimension=c.dimension, score=c.score, missing=c.missing)
            for c in decision.matrix
        ],
        missing_information=decision.missing_information,
    )


def _decision(store, reporter: Reporter) -> Decision:
    """What the decide stage would conclude from the run's artifacts, written nowhere."""
    say = partial(reporter.step, total=ASSESS_STEPS)
    return decide_from_files(store, StageContext(), say=say).decision
