"""rescore_run: decide a finished run again with other weights, as the report page's what-if
weights save it, and say what it came to; compare_runs: what changed between two runs."""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated

from asgiref.sync import sync_to_async
from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult, ToolAnnotations
from pydantic import BaseModel, BeforeValidator, Field
from pydantic_core import PydanticCustomError

from decisions.compare import Comparison
from research import bounds, selectors, services
from research.mcp.arguments import Name, RunId
from research.mcp.common import (
    DAMAGED,
    INVALID,
    NO_RECOMMENDATION_REASON,
    NOT_FINISHED,
    READ_ONLY,
    WITHHELD,
    artifact_uri,
    failed,
    owned_run,
)
from research.models import Run
from research.names import DECISION, REPORT, saved_artifact
from research.outcomes import Outcome
from research.store import ArtifactDamaged, StoreError, readers, store_for


def _not_true_or_false(value: object) -> object:
    # JSON true would otherwise be read as the weight 1.
    if isinstance(value, bool):
        raise PydanticCustomError("float_type", "Input should be a valid number")
    return value


Weight = Annotated[float, BeforeValidator(_not_true_or_false)]
Weights = Annotated[
    dict[Name, Weight],
    Field(
        max_length=bounds.NAMES,
        description="The new weight of each dimension, by the dimension's name as the run has "
        "it, e.g. {'licence risk': 3, 'cost': 1}; weights are relative and must be above 0. "
        "Give one for every dimension of the run.",
    ),
]


class RankedTotal(BaseModel):
    option: str
    rank: int
    total: float | None
    evidence_share: float | None = None


class Rescored(BaseModel):
    status: str = Field(
        description="OK, NO_HIT (no such run among yours), INVALID (the weights; the message "
        "says what to fix) or DAMAGED"
    )
    run_id: str
    number: int | None = Field(None, description="the saved decision's number in the run")
    weights: dict[str, float] = Field(default_factory=dict, description="normalised to 1")
    ranking: list[RankedTotal] = Field(default_factory=list)
    recommendation: str | None = None
    withheld: str | None = Field(None, description=WITHHELD)
    no_recommendation_reason: str = Field("", description=NO_RECOMMENDATION_REASON)
    ranking_changed: bool = False
    confidence: float | None = None
    uri: str | None = Field(None, description="the saved decision's report")
    markdown: str | None = None
    message: str = ""


def rescore(user, run_id: str, weights: dict[str, float]) -> Rescored | CallToolResult:
    try:
        run = owned_run(user, run_id)
        saved = services.save_weights(run, weights, user.get_username())
    except LookupError as exc:
        return failed(Rescored(status=Outcome.NO_HIT, run_id=run_id, message=str(exc)), str(exc))
    except services.WeightsInvalid as exc:
        return failed(Rescored(status=INVALID, run_id=run_id, message=str(exc)), str(exc))
    except (ArtifactDamaged, StoreError) as exc:
        return failed(Rescored(status=DAMAGED, run_id=run_id, message=str(exc)), str(exc))
    store = store_for(run_id)
    decision = store.read_model(
        saved_artifact(saved.number, DECISION), type(readers.decision(store))
    )
    before = [r.option for r in readers.decision(store).ranking]
    report = saved_artifact(saved.number, REPORT)
    return Rescored(
        status=Outcome.OK,
        run_id=run_id,
        number=saved.number,
        weights={d.name: d.weight for d in saved.weights},
        ranking=[
            RankedTotal(
                option=r.option, rank=r.rank, total=r.total, evidence_share=r.evidence_share
            )
            for r in decision.ranking
        ],
        recommendation=decision.recommendation.option,
        withheld=decision.recommendation.withheld,
        no_recommendation_reason=decision.recommendation.no_recommendation_reason,
        ranking_changed=[r.option for r in decision.ranking] != before,
        confidence=decision.assessment.confidence,
        uri=artifact_uri(run_id, report),
        markdown=store.read_text(report),
        message=f"Saved as decision {saved.number} of run {run_id}; "
        f"{len(selectors.saved_decisions(run))} saved in all.",
    )


def register_rescore_tool(server: MCPServer, user) -> None:
    @server.tool(
        name="rescore_run",
        title="Re-weigh a finished run",
        description=(
            "Call this when the user asks how a finished run would come out with other "
            "weights. Give a weight above 0 for every dimension of the run (any scale; they "
            "are normalised). It decides again from the evidence already read, without "
            "searching or reading, saves that as a new decision of the same run, and returns "
            "its totals, ranking, recommendation and report."
        ),
        annotations=ToolAnnotations(
            read_only_hint=False, destructive_hint=False, idempotent_hint=False
        ),
    )
    async def rescore_run(run_id: RunId, weights: Weights) -> Rescored:
        return await sync_to_async(rescore)(user, run_id, weights)


OtherRunId = Annotated[
    str,
    Field(
        max_length=bounds.RUN_ID_CHARS,
        description="The id of the later run to compare with run_id, e.g. one started by "
        "asking the same question again.",
    ),
]


class OptionTotal(BaseModel):
    option: str
    before: float | None = Field(description="its weighted total in run_id; null: no evidence")
    after: float | None = Field(description="its weighted total in other_run_id")


class CellMoved(BaseModel):
    option: str
    dimension: str
    before: float | None = Field(description="the cell's score in run_id; null: no evidence")
    after: float | None = Field(description="the cell's score in other_run_id")
    why: list[str] = Field(description="claims found or no longer found, contradictions")


class RunComparison(BaseModel):
    """What changed from run_id (before) to other_run_id (after), field by field."""

    same_question: bool = Field(
        description="false when the two runs asked different questions: then `warning` says "
        "so, and the changes below are not how the evidence on one question moved"
    )
    warning: str = ""
    question_before: str
    question_after: str
    recommendation_before: str | None = Field(description="null: no recommendation")
    recommendation_after: str | None
    recommendation_changed: bool
    confidence_before: float
    confidence_after: float
    totals: list[OptionTotal]
    cells_moved: list[CellMoved] = Field(
        description="cells whose score moved by more than five points, and why"
    )
    sources_added: list[str] = Field(description="addresses (or document titles) read only after")
    sources_gone: list[str]
    contradictions_new: list[str] = Field(description="contradiction ids found only after")
    contradictions_settled: list[str]


class Compared(BaseModel):
    status: str = Field(description="OK, NO_HIT (either run is not among yours) or NOT_FINISHED")
    run_id: str
    other_run_id: str
    comparison: RunComparison | None = None
    message: str = ""


def compared(user, run_id: str, other_run_id: str) -> Compared | CallToolResult:
    try:
        before, after = owned_run(user, run_id), owned_run(user, other_run_id)
    except LookupError as exc:
        result = Compared(
            status=Outcome.NO_HIT, run_id=run_id, other_run_id=other_run_id, message=str(exc)
        )
        return failed(result, str(exc))
    try:
        found = selectors.comparison(before, after)
    except (OSError, StoreError, ValueError):
        message = "Both runs must have finished (their decisions written) to be compared."
        result = Compared(
            status=NOT_FINISHED, run_id=run_id, other_run_id=other_run_id, message=message
        )
        return failed(result, message)
    return Compared(
        status=Outcome.OK,
        run_id=run_id,
        other_run_id=other_run_id,
        comparison=_shaped(found, before, after),
        message=found.warning,
    )


def _shaped(found: Comparison, before: Run, after: Run) -> RunComparison:
    return RunComparison(
        same_question=found.same_question,
        warning=found.warning,
        question_before=found.questions[0],
        question_after=found.questions[1],
        recommendation_before=found.recommendation[0],
        recommendation_after=found.recommendation[1],
        recommendation_changed=found.recommendation_changed,
        confidence_before=found.confidence[0],
        confidence_after=found.confidence[1],
        totals=[OptionTotal(option=o, before=b, after=a) for o, b, a in found.totals],
        cells_moved=[CellMoved(**asdict(c)) for c in found.cells],
        # A document kept on the server by its title, never by its path there.
        sources_added=selectors.shown_sources(found.sources_added, after),
        sources_gone=selectors.shown_sources(found.sources_gone, before),
        contradictions_new=found.contradictions_new,
        contradictions_settled=found.contradictions_settled,
    )


def register_compare_tool(server: MCPServer, user) -> None:
    @server.tool(
        name="compare_runs",
        title="What changed between two runs",
        description=(
            "Call this to see what changed between two finished runs of the same question "
            "(an earlier run_id, then the later other_run_id). Returns `comparison` with "
            "named fields: same_question and warning (two different questions are compared "
            "only with that warning), question_before/after, recommendation_before/after and "
            "recommendation_changed, confidence_before/after, totals [{option, before, "
            "after}], cells_moved [{option, dimension, before, after, why}] (moved by more "
            "than five points), sources_added/gone and contradictions_new/settled."
        ),
        annotations=READ_ONLY,
    )
    async def compare_runs(run_id: RunId, other_run_id: OtherRunId) -> Compared:
        return await sync_to_async(compared)(user, run_id, other_run_id)
