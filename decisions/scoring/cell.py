"""One cell of the score matrix: its four parts, its score, and the notes that explain them."""

from __future__ import annotations

from datetime import date

from decisions.scoring.contradictions import (
    consistency,
    consistency_notes,
    superseded,
    superseded_notes,
)
from decisions.scoring.judgement import (
    PRIOR_WEIGHT,
    Judgement,
    ModelLean,
    judgement,
    lean_notes,
    model_judgement,
    standing_notes,
)
from decisions.scoring.sources import (
    SourceInfo,
    mean,
    site_weights,
    source_standings,
    timeliness_of,
)
from decisions.scoring.status import (
    STATUS_BASE_CAP,
    STATUS_SCORE_CAP,
    Status,
    status_notes,
    status_of,
)
from research.artifacts import Claim, Contradiction, ScoreCell
from research.i18n import words

WEIGHTS = {"base": 0.4, "strength": 0.3, "consistency": 0.2, "timeliness": 0.1}


def score_cell(
    option: str,
    dimension: str,
    claims: list[Claim],
    sources: dict[str, SourceInfo],
    contradictions: list[Contradiction],
    today: date,
    language: str = "en",
    lean: ModelLean | None = None,
) -> ScoreCell:
    """`lean` is the model's judgement of the cell (LLM mode); it is used only when every
    claim it cites is one this cell counts in base (`counted`), and is otherwise ignored."""
    # A claim from a source that was not read is not evidence (DESIGN section 3); a flagged
    # claim is shown, never counted.
    claims = [c for c in claims if c.source_id in sources and not c.flag]
    if not claims:
        return ScoreCell(option=option, dimension=dimension, missing=True)
    text = words(language).SCORING
    old = superseded(contradictions)
    current = [c for c in claims if c.id not in old]  # what the cell says about today
    rules, status = judgement(current, sources), status_of(current, sources)
    model = model_judgement(lean, current, sources) if lean else None
    judged = model or rules
    parts = _parts(claims, sources, contradictions, today, judged, status)
    return ScoreCell(
        option=option,
        dimension=dimension,
        score=_score(parts, status),
        claim_ids=[c.id for c in claims],
        raw_base=None if rules.raw is None else round(rules.raw, 1),
        evidence_weight=round(judged.weight, 2),
        prior_weight=PRIOR_WEIGHT,
        sites=len(site_weights(claims, sources)),
        capped_by=status.capping.id if status.capping else None,
        superseded=[c.id for c in claims if c.id in old],
        model_base=lean.base if model else None,
        model_claim_ids=list(lean.claim_ids) if model and lean else [],
        notes=[
            *lean_notes(rules, model, text),
            *superseded_notes(claims, old, sources, text),
            *standing_notes(claims, sources, text),
            *status_notes(status, sources, text),
            *consistency_notes(claims, sources, contradictions, parts["consistency"], text),
        ],
        **parts,
    )


def _parts(
    claims: list[Claim],
    sources: dict[str, SourceInfo],
    contradictions: list[Contradiction],
    today: date,
    judged: Judgement,
    status: Status,
) -> dict[str, float]:
    backing = source_standings(claims, sources)
    base = min(judged.base, STATUS_BASE_CAP) if status.capping else judged.base
    parts = {
        "base": base,
        "strength": mean(backing.values()),
        "consistency": consistency(claims, list(backing), sources, contradictions),
        "timeliness": mean(timeliness_of(sources[s].published, today) for s in backing),
    }
    return {name: round(value, 1) for name, value in parts.items()}


def _score(parts: dict[str, float], status: Status) -> float:
    score = round(sum(WEIGHTS[name] * value for name, value in parts.items()), 1)
    return min(score, STATUS_SCORE_CAP) if status.capping else score
