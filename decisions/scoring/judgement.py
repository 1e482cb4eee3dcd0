"""The base judgement of a cell: each independent site votes once with its lean, and the
result is shrunk toward 50 by the weight of the evidence; in LLM mode the model's lean
takes the rules' place when it cites only claims the cell counts."""

from __future__ import annotations

from dataclasses import dataclass

from decisions.scoring.contradictions import superseded
from decisions.scoring.sources import (
    SourceInfo,
    clamp,
    mean,
    site_weights,
    standing,
    vote_weight,
)
from research.artifacts import Claim, Contradiction
from research.i18n import words

PRIOR_WEIGHT = 1.0  # K: the neutral 50 counts as much as one fully trusted site


@dataclass(frozen=True)
class Judgement:
    raw: float | None  # the weighted lean before shrinking; None when no site took a side
    weight: float  # n_eff
    sites: int
    cited: tuple[str, ...] = ()  # the model's judgement: the claims it cited

    @property
    def base(self) -> float:
        if self.raw is None:
            return 50.0
        return clamp(50 + (self.raw - 50) * self.weight / (self.weight + PRIOR_WEIGHT))

    def explain(self, text: dict[str, str]) -> str:
        if self.raw is None:
            return text["no_side"]
        word = text["site"] if self.sites == 1 else text["sites"]
        return text["model_lean" if self.cited else "shrunk"].format(
            claims=", ".join(self.cited),
            raw=self.raw,
            n=self.weight,
            k=PRIOR_WEIGHT,
            base=self.base,
            sites=self.sites,
            site_word=word,
        )


def judgement(claims: list[Claim], sources: dict[str, SourceInfo]) -> Judgement:
    votes = _votes(claims, sources)
    weight = sum(w for _, w in votes.values())
    if not weight:  # no side taken, or only zero-strength sources took one
        return Judgement(None, 0.0, 0)
    lean = sum(lean * w for lean, w in votes.values()) / weight
    return Judgement(clamp(50 + 50 * lean), weight, len(votes))


@dataclass(frozen=True)
class ModelLean:
    """The model's raw judgement of a cell, 0-100, and the claims it cited."""

    base: float
    claim_ids: tuple[str, ...]


def counted(
    claims: list[Claim], sources: dict[str, SourceInfo], contradictions: list[Contradiction]
) -> list[Claim]:
    """The claims a cell's base counts: read, not flagged, not superseded. The model sees
    these and may cite only these."""
    old = superseded(contradictions)
    return [c for c in claims if c.source_id in sources and not c.flag and c.id not in old]


def model_judgement(
    lean: ModelLean, current: list[Claim], sources: dict[str, SourceInfo]
) -> Judgement | None:
    """The model's lean as the judgement base shrinks, weighted by the sites behind the
    claims it cited; None when it cites nothing, or a claim the cell does not count."""
    by_id = {c.id: c for c in current}
    if not lean.claim_ids or any(i not in by_id for i in lean.claim_ids):
        return None
    weights = site_weights([by_id[i] for i in lean.claim_ids], sources)
    return Judgement(clamp(lean.base), sum(weights.values()), len(weights), lean.claim_ids)


def model_dropped_note(reason: str, language: str = "en") -> str:
    return words(language).SCORING["model_dropped"].format(reason=reason)


def lean_notes(rules: Judgement, model: Judgement | None, text: dict[str, str]) -> list[str]:
    if model is None:
        return [rules.explain(text)]
    return [model.explain(text), text["rules_lean"].format(rules=rules.explain(text))]


def _votes(claims: list[Claim], sources: dict[str, SourceInfo]) -> dict[str, tuple[float, float]]:
    """site -> (mean polarity, weight): one site saying it five times is still one voice."""
    by_site: dict[str, list[tuple[int, float]]] = {}
    for claim in claims:
        if claim.polarity:
            info = sources[claim.source_id]
            vote = (_sign(claim.polarity), vote_weight(claim, info))
            by_site.setdefault(info.site, []).append(vote)
    return {
        site: (mean(sign for sign, _ in votes), max(w for _, w in votes))
        for site, votes in by_site.items()
    }


def standing_notes(
    claims: list[Claim], sources: dict[str, SourceInfo], text: dict[str, str]
) -> list[str]:
    """Name every source counted below its page's strength: interested parties, and
    projects judging themselves."""
    notes: dict[str, str] = {}
    for claim in claims:
        info = sources[claim.source_id]
        held = standing(claim, info)
        if held.strength < info.strength or held.kind == "interested":
            line = text["standing"].format(source=info.site, strength=held.strength, why=held.why)
            notes.setdefault(f"{info.source_id}:{held.why}", line)
    return list(notes.values())


def _sign(polarity: int) -> int:
    return (polarity > 0) - (polarity < 0)
