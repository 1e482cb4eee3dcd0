"""The numbers the report page's what-if weights recompute from (static/js/whatif.js): each
option's cell scores in the plan's dimension order (None for a cell without evidence), how
many cells have evidence and how many independent sites back it, and the rule's constants.
The JavaScript applies decisions.scoring's total(o) and ranking to them; tests hold the two
to the same numbers."""

from __future__ import annotations

from typing import Any

from decisions.scoring.totals import NEUTRAL
from decisions.withhold import HALF
from research.web.report.matrix import ROW, TOP, Chart
from research.web.report.run_files import RunFiles
from research.web.report.strings import WebStrings

MAX_WEIGHT = 100  # a slider's range; weights are relative, so this bounds nothing else
MIN_SITES = 2  # decisions.decide: a recommendation never rests on a single site

_WORDS = {
    "changed": "whatif_changed",
    "unchanged": "whatif_unchanged",
    "reordered": "whatif_reordered",
    "no_weight": "whatif_no_weight",
    "to_win": "whatif_to_win",
    "rec_changed": "whatif_rec_changed",
    "rec_single_site": "whatif_rec_single",
    "rec_thin": "whatif_rec_thin",
    "rec_unshared": "whatif_rec_unshared",
    "rec_none": "whatif_rec_none",
    "no_rec": "no_rec",
    "evidence": "evidence_share",
}


def model(files: RunFiles) -> dict[str, Any]:
    d, plan = files.decision, files.plan
    names = [dim.name for dim in plan.dimensions]
    scores = {(c.option, c.dimension): c for c in d.matrix}
    chart = Chart()
    t = WebStrings(plan.language)
    return {
        "neutral": NEUTRAL,
        "min_sites": MIN_SITES,
        "half": HALF,
        "max_weight": MAX_WEIGHT,
        "dimensions": [{"name": dim.name, "weight": dim.weight} for dim in plan.dimensions],
        "options": [
            {
                "option": r.option,
                "scores": [_score(scores.get((r.option, name))) for name in names],
                "evidence": r.cells_with_evidence,
                "sites": len(r.sites),
            }
            for r in sorted(d.ranking, key=lambda r: plan.options.index(r.option))
        ],
        "recommended": d.recommendation.option,
        "chart": {"top": TOP, "row": ROW, "left": chart.left, "span": chart.span},
        "words": {key: _template(t, label) for key, label in _WORDS.items()},
    }


def sliders(files: RunFiles) -> list[dict[str, Any]]:
    """One row per dimension: its name and its weight in percent, as the form shows it."""
    t = WebStrings(files.plan.language)
    return [
        {
            "name": dim.name,
            "percent": round(dim.weight * 100, 1),
            "label": t("whatif_weight", dimension=dim.name),
        }
        for dim in files.plan.dimensions
    ]


def _score(cell) -> float | None:
    if cell is None or cell.missing or cell.score is None:
        return None
    return cell.score


def _template(t: WebStrings, key: str) -> str:
    """A sentence with its placeholders left for the page to fill in."""
    fields = ("option", "over", "dimension", "from", "to", "covered", "dimensions", "share")
    return t(key, **{f: "{" + f + "}" for f in fields})
