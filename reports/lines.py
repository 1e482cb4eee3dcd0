"""Lines of the report that the report pages print too: which method produced it, what the
model did, the recommendation, and how much of an option's weight rests on evidence."""

from __future__ import annotations

from decisions.scoring.totals import percent
from decisions.withhold import GAPS
from reports import narrative
from reports.markdown import Md
from reports.strings import Strings
from research.artifacts import (
    Claim,
    Contradiction,
    Decision,
    Plan,
    RankedOption,
)
from research.names import stage_label


def mode_line(d: Decision, t: Strings) -> str:
    """Which method produced the decision: "LLM-assisted" only where the model's answers
    were used, naming the model and the stages, and where it stopped being asked."""
    if d.mode != "llm":
        if d.model and d.model_stages == []:
            return Md(t("mode_model_unused", model=d.model) + why_not(d, t))
        return t("mode_deterministic")
    line = t("mode_llm_named", model=d.model) if d.model else t("mode_llm")
    if d.model_stages:
        line += t("mode_llm_in", stages=", ".join(stage_label(s) for s in d.model_stages))
    lost, timed_out = d.model_unreachable_at, d.model_time_out_at
    if lost and lost == timed_out:  # nothing usable came in the stage's time
        line += t("mode_time_lost", stage=stage_label(lost))
    elif lost:
        line += t("mode_model_lost", stage=stage_label(lost))
    elif d.budget_exhausted_at:
        line += t("mode_budget_out", stage=stage_label(d.budget_exhausted_at))
    elif timed_out:
        line += t("mode_time_out", stage=stage_label(timed_out))
    return Md(line)


def why_not(d: Decision, t: Strings) -> str:
    """Why a configured model gave no usable answer, when the run knows."""
    if d.model_time_out_at and d.model_time_out_at == d.model_unreachable_at:
        return t("why_unused_time", stage=stage_label(d.model_time_out_at))
    if d.model_unreachable_at:
        return t("why_unused_lost", stage=stage_label(d.model_unreachable_at))
    if d.budget_exhausted_at:
        return t("why_unused_budget", stage=stage_label(d.budget_exhausted_at))
    if d.model_time_out_at:
        return t("why_unused_time", stage=stage_label(d.model_time_out_at))
    return ""


def model_leans_line(d: Decision, t: Strings) -> str:
    """In LLM mode, how many cells' lean the model gave; nothing otherwise."""
    if d.mode != "llm":
        return ""
    cells = sum(1 for c in d.matrix if not c.missing)
    count = sum(1 for c in d.matrix if c.model_base is not None)
    return t("model_leans", count=count, cells=cells) if count else t("model_leans_none")


def flag_text(flag: str) -> str:
    """A flag on one line and without curly quotes, so the quote after it stays the only
    one on its report line."""
    return " ".join(flag.replace("“", '"').replace("”", '"').split())


def scored(contradictions: list[Contradiction], claims: dict[str, Claim]) -> list[Contradiction]:
    """The contradictions the scores count: none whose main claims are flagged."""
    return [
        x
        for x in contradictions
        if not any(
            claims.get(s.claim_id) is not None and claims[s.claim_id].flag for s in (x.a, x.b)
        )
    ]


def evidence_line(r: RankedOption, d: Decision, plan: Plan, t: Strings) -> str:
    """How much of an option's weight rests on evidence: "evidence on 2 of 3 dimensions,
    65% of the weight"."""
    share = percent(narrative.share_of(r, d, plan))
    return t(
        "evidence_share",
        covered=r.cells_with_evidence,
        dimensions=len(plan.dimensions),
        share=share,
    )


def rec_line(d: Decision, low: bool, t: Strings) -> str:
    if d.recommendation.option is None:
        return t("no_recommendation")
    return t("provisional" if low else "recommendation", option=d.recommendation.option)


def no_rec_why(d: Decision, t: Strings) -> str:
    """What follows "No recommendation." in a heading line: why, in a few words."""
    rec = d.recommendation
    if rec.option is not None:
        return ""
    if rec.single_site:
        return t("no_recommendation_single_site")
    if rec.withheld in GAPS:
        return t(f"no_recommendation_{rec.withheld}")
    return t("no_recommendation_why")


def number(value: float | None, t: Strings) -> str:
    return t("not_recorded") if value is None else f"{value:.1f}"
