"""In LLM mode, the model's base judgement of each cell that has evidence (DESIGN section 2).

The model gets, for every option x dimension cell with claims, the claims the cell's base
counts (decisions.scoring.judgement.counted: read, not flagged, not superseded), each as its
id, what it says, its polarity, its source's site and its quote trimmed to QUOTE_TOKENS
(about 160 Latin characters, 40 Chinese ones), at most CLAIMS_PER_CELL of them, and answers
with a lean 0-100 per cell and the ids of the claims it relied on. Up to CELLS_PER_CALL
cells go in one call, so a usual matrix (three options, five dimensions) takes one; more are
split evenly. What it costs depends on the matrix, not on how many pages were read: 30 pages
send no more than 8 do (about 2,000 tokens for fifteen cells).

A judgement is used only when it cites at least one claim, every claim it cites is one
that was sent for that cell, and its lean does not go against them: a lean well below 50
citing only claims in favour (or well above citing only claims against) is what a misread,
hostile or injected answer looks like, as with a misread claim. Otherwise it is dropped and
logged (`llm_judgement_dropped`),
and the cell keeps the rules' lean with a note saying why; a cell the model left out, or
whose call failed, keeps it too (`llm_unjudged`). decisions.scoring.cell.score_cell then shrinks
the lean toward 50 by the weight of the cited sites, so the formula stays the one the report
prints.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from pydantic import BaseModel, Field

from decisions.scoring.judgement import ModelLean
from decisions.scoring.sources import SourceInfo, standing
from research.artifacts import Claim, Plan
from research.context import StageContext
from research.llm import StageLLM
from research.llm.budget import estimate_tokens

CLAIMS_PER_CELL = 3
QUOTE_TOKENS = 40
CELLS_PER_CALL = 16
ANSWER_TOKENS_PER_CELL = 30  # {"cell":"c1","base":72,"claim_ids":["k01","k02"]} and room
ANSWER_TOKENS_BASE = 40
# How far from 50 a lean must be to take a side: within it, a lean is about even and
# agrees with any claims.
SIDE_MARGIN = 10

Key = tuple[str, str]  # (option, dimension)


class CellJudgement(BaseModel):
    cell: str
    base: int = Field(ge=0, le=100)
    claim_ids: list[str]


class CellJudgements(BaseModel):
    cells: list[CellJudgement]


@dataclass
class Leans:
    used: dict[Key, ModelLean] = field(default_factory=dict)
    dropped: dict[Key, str] = field(default_factory=dict)  # why the model's lean was not used


@dataclass(frozen=True)
class _Cell:
    id: str  # "c1": short, so the answer spends few tokens naming cells
    key: Key
    claims: list[Claim]  # what was sent, strongest sites first


def model_leans(
    plan: Plan,
    cells: dict[Key, list[Claim]],
    sources: dict[str, SourceInfo],
    flagged: dict[Key, list[Claim]],
    llm: StageLLM,
    ctx: StageContext,
) -> Leans:
    """`cells`: each cell's counted claims; `flagged`: each cell's flagged claims, so a
    judgement citing one says so when it is dropped."""
    sent = [
        _Cell(f"c{n}", key, _chosen(claims, sources))
        for n, (key, claims) in enumerate(((k, v) for k, v in cells.items() if v), start=1)
    ]
    if not sent:
        return Leans()
    calls = -(-len(sent) // CELLS_PER_CALL)
    size = -(-len(sent) // calls)
    batches = [sent[i : i + size] for i in range(0, len(sent), size)]
    answers = llm.ask_batches(
        batches,
        prompt="decide",
        task="decide",
        schema=CellJudgements,
        user=lambda batch: _message(batch, sources),
        max_tokens=lambda batch: ANSWER_TOKENS_BASE + ANSWER_TOKENS_PER_CELL * len(batch),
        fallback="the rules' lean for these cells",
        question=plan.question,
        language=plan.language,
        dimensions=[d.name for d in plan.dimensions],
        claims_per_cell=CLAIMS_PER_CELL,
    )
    leans = Leans()
    for batch, answer in answers:
        if answer.value is not None:
            _check(answer.value.cells, batch, flagged, leans, llm, ctx)
    unjudged = [c for c in sent if c.key not in leans.used and c.key not in leans.dropped]
    if unjudged:
        ctx.record(
            "llm_unjudged",
            stage=llm.stage,
            task="decide",
            cells=[f"{o} / {d}" for o, d in (c.key for c in unjudged)],
            fallback="the rules' lean",
        )
    return leans


def _chosen(claims: list[Claim], sources: dict[str, SourceInfo]) -> list[Claim]:
    """At most CLAIMS_PER_CELL claims, as many sites as possible: each site's strongest
    claim first (claims that take a side before neutral ones), strongest sites first."""
    ranked = sorted(
        claims,
        key=lambda c: (-standing(c, sources[c.source_id]).strength, c.polarity == 0, c.id),
    )
    firsts, rest, seen = [], [], set()
    for claim in ranked:
        site = sources[claim.source_id].site
        (rest if site in seen else firsts).append(claim)
        seen.add(site)
    return (firsts + rest)[:CLAIMS_PER_CELL]


def _message(batch: list[_Cell], sources: dict[str, SourceInfo]) -> str:
    cells = [
        {
            "cell": cell.id,
            "option": cell.key[0],
            "dimension": cell.key[1],
            "claims": [_claim(c, sources) for c in cell.claims],
        }
        for cell in batch
    ]
    return json.dumps({"cells": cells}, ensure_ascii=False, separators=(",", ":"))


def _claim(claim: Claim, sources: dict[str, SourceInfo]) -> dict[str, object]:
    says = claim.value if claim.kind == "stance" else f"{claim.attribute}: {claim.value}"
    return {
        "id": claim.id,
        "says": says if claim.kind != "statement" else claim.attribute,
        "polarity": claim.polarity,
        "site": sources[claim.source_id].site,
        "quote": trimmed(claim.quote),
    }


def trimmed(quote: str, limit: int = QUOTE_TOKENS) -> str:
    """The quote on one line, cut (at a word, in Latin text) to about `limit` tokens."""
    text = " ".join(quote.split())
    if estimate_tokens(text) <= limit:
        return text
    end = len(text)
    while end > 1 and estimate_tokens(text[:end]) >= limit:
        end -= 1
    cut = text[:end]
    space = cut.rfind(" ")
    return (cut[:space] if space > end // 2 else cut) + "…"


def _check(
    judgements: list[CellJudgement],
    batch: list[_Cell],
    flagged: dict[Key, list[Claim]],
    leans: Leans,
    llm: StageLLM,
    ctx: StageContext,
) -> None:
    by_id = {c.id: c for c in batch}
    for judged in judgements:
        cell = by_id.get(judged.cell)
        if cell is None or cell.key in leans.used or cell.key in leans.dropped:
            continue  # not a cell of this call, or judged twice: the first one stands
        problem = _problem(judged, cell, flagged.get(cell.key, []))
        if problem is None:
            ids = tuple(dict.fromkeys(judged.claim_ids))
            leans.used[cell.key] = ModelLean(float(judged.base), ids)
            continue
        leans.dropped[cell.key] = problem
        ctx.record(
            "llm_judgement_dropped",
            stage=llm.stage,
            task="decide",
            option=cell.key[0],
            dimension=cell.key[1],
            base=judged.base,
            claim_ids=judged.claim_ids,
            reason=problem,
            fallback="the rules' lean",
        )


def _problem(judged: CellJudgement, cell: _Cell, flagged: list[Claim]) -> str | None:
    """Why the judgement cannot be used, or None."""
    if not judged.claim_ids:
        return "it cited no claim"
    sent = {c.id for c in cell.claims}
    flags = {c.id: c.flag for c in flagged}
    for claim_id in judged.claim_ids:
        if claim_id in sent:
            continue
        if claim_id in flags:
            return f"it cited {claim_id}, a flagged claim: {flags[claim_id]}"
        return f"it cited {claim_id}, which is not one of the claims sent for this cell"
    return _against_its_claims(judged, [c for c in cell.claims if c.id in judged.claim_ids])


def _against_its_claims(judged: CellJudgement, cited: list[Claim]) -> str | None:
    """Why the lean goes against every claim it cites that takes a side, or None: claims
    on both sides, or none taking a side, allow any lean."""
    sides = {c.polarity for c in cited if c.polarity}
    if len(sides) != 1:
        return None
    ids = " and ".join(c.id for c in cited if c.polarity)
    base = judged.base
    if sides == {1} and base < 50 - SIDE_MARGIN:
        return f"its lean, {base}, is against the option, but what it cites ({ids}) is for it"
    if sides == {-1} and base > 50 + SIDE_MARGIN:
        return f"its lean, {base}, is for the option, but what it cites ({ids}) is against it"
    return None
