"""The deterministic score matrix (DESIGN section 2).

Every part is on a 0-100 scale and rounded to one decimal:

    score(o, d) = 0.4 * base + 0.3 * strength + 0.2 * consistency + 0.1 * timeliness

A claim counts with its source's standing toward the claim's option
(research.stages.sourcekind): an option's own page is primary (90) for its facts and a
review (60) when it judges itself; a vendor on a rival, or comparing itself with rivals, is
an interested party (30); otherwise primary 90, comparison 60, community 30.

- base: every independent site whose claims take a side (stances, and facts with a
  polarity such as "archived") votes with its mean polarity, lean in [-1, 1], weighted by
  w = its best standing / 100. The raw judgement raw = 50 + 50 * sum(w * lean) / sum(w)
  is shrunk toward 50 by the weight of that evidence, n_eff = sum(w):

      base = 50 + (raw - 50) * n_eff / (n_eff + K),  K = 1

  so one review that calls an option fast gives 50 + 50 * 0.6 / 1.6 = 68.8, not 100.
  base is 50 when no site takes a side.
- the model's lean (LLM mode, decisions.model_leans): the model reads the cell's claims
  and gives its own raw judgement, 0-100, citing the claims it relied on. When every cited
  claim is one the cell counts, it takes the place of raw, and n_eff is the weight of the
  sites behind the cited claims (each site once, at its best standing / 100), so the same
  shrinking applies: a lean of 90 resting on one forum post (n_eff 0.3) gives 59.2. The
  rules' raw is still recorded (raw_base) and named in the cell's notes for comparison;
  the status cap, strength, consistency and timeliness are as below either way.
- flagged claims (a model's claim the deterministic reader reads the other way) count in
  no part of any score.
- status: a statement that the option is archived, deprecated, unmaintained or at end of
  life caps base at 15 and the score at 20, unless a later-dated source says it is active
  again. Strong, recent, consistent evidence that a project is dead must not make it score
  well on maintenance.
- strength = mean over the distinct sources behind the cell of each one's best standing.
- consistency = 100 when two or more independent sites back the cell, 70 when only one
  does, minus 35 for each contradiction that involves one of the cell's claims (on either
  side, or among the other pages siding with one), weighted by what explains it: 1 when
  nothing does ("error", or no cause given), 0.5 when the sources describe other versions or
  setups ("scope") or a change over time whose current side is unknown; 0-100.
- superseded: a contradiction put down to a change over time whose current claim is known
  is settled by the later source. The claims on the other side (its main claim and the
  pages siding with it) describe an earlier state: they count neither in base (nor in the
  status cap) nor against consistency, and the cell lists them as superseded.
- timeliness = mean over the distinct sources of: published within 1 year 100, 2 years 80,
  3 years 60, 5 years 40, older 20, date unknown 50.

A cell with no claims is marked missing and gets no numbers at all.

total(o) = sum(w_d * s(o, d)) / sum(w_d) over ALL the plan's dimensions d, using the user's
weights w_d, where s(o, d) = score(o, d) when the cell has evidence and NEUTRAL = 50 when it
is missing. The 50 is a flat neutral value, not a score: it carries no source strength,
consistency or timeliness, and the cell stays missing. So an option with evidence on one
strong dimension cannot outrank one with solid evidence on all of them by leaving its gaps
out of the mean. total(o) is None when o has no evidence at all.

evidence_share(o) = 100 * sum(w_d over the dimensions where o has evidence) / sum(w_d): how
much of the user's weight rests on evidence; RankedOption.evidence_share, and the report
gives it next to every total ("evidence on 2 of 3 dimensions, 65% of the weight").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from research.artifacts import (
    Claim,
    Contradiction,
    Notes,
    RankedOption,
    ScoreCell,
    SourceNotes,
)
from research.i18n import words
from research.providers.urls import registrable_domain
from research.stages.sourcekind import SourceKind, Standing, classify

WEIGHTS = {"base": 0.4, "strength": 0.3, "consistency": 0.2, "timeliness": 0.1}
# (maximum age in years, timeliness), checked in order.
AGE_STEPS: tuple[tuple[int, float], ...] = ((1, 100.0), (2, 80.0), (3, 60.0), (5, 40.0))
OLDEST = 20.0
UNDATED = 50.0
CORROBORATED = 100.0
SINGLE_SITE = 70.0
CONTRADICTION_PENALTY = 35.0
# How much a contradiction weighs on consistency, by what explains it; a change over time
# whose current side is known weighs nothing (see settled()).
CAUSE_WEIGHT = {"error": 1.0, "scope": 0.5, "time": 0.5}
PRIOR_WEIGHT = 1.0  # K: the neutral 50 counts as much as one fully trusted site
STATUS_BASE_CAP = 15.0
STATUS_SCORE_CAP = 20.0


def text_for(language: str) -> dict[str, str]:
    return words(language).SCORING


@dataclass(frozen=True)
class SourceInfo:
    source_id: str
    strength: float  # 0-100, the page as a whole
    published: date | None
    kind: str  # primary | comparison | community
    site: str  # registrable domain: two pages of one owner are one site
    graded: SourceKind | None = None  # who wrote it, which decides its standing per option


def source_infos(notes: Notes, options: list[str], language: str = "en") -> dict[str, SourceInfo]:
    """Only sources that were read (OK) can back a score."""
    return {src.source_id: _source_info(src, options, language) for src in notes.ok_sources()}


def _source_info(src: SourceNotes, options: list[str], language: str) -> SourceInfo:
    url = src.final_url or src.url  # a redirect decides whose site the page is on
    kind = classify(url, src.title, options, language)
    # SourceNotes.site may be a display name ("GitHub"), so independence uses the domain.
    return SourceInfo(
        source_id=src.source_id,
        strength=kind.strength,
        published=parse_published(src.published),
        kind=kind.kind,
        site=registrable_domain(url),
        graded=kind,
    )


def standing(claim: Claim, info: SourceInfo) -> Standing:
    """How much `info` counts for this claim: a vendor is weak on its rivals."""
    if info.graded is None:
        return Standing(info.kind, info.strength, "")
    return info.graded.toward(claim.option, judgement=claim.kind == "stance")


def parse_published(value: str | None) -> date | None:
    """Read YYYY-MM-DD, YYYY-MM or YYYY; anything else counts as unknown, not as old."""
    text = (value or "").strip()[:10]
    for pad in ("", "-01", "-01-01"):
        try:
            return date.fromisoformat(text + pad)
        except ValueError:
            continue
    return None


def timeliness_of(published: date | None, today: date) -> float:
    if published is None:
        return UNDATED
    for years, points in AGE_STEPS:
        if published >= years_before(today, years):
            return points
    return OLDEST


def years_before(today: date, years: int) -> date:
    try:
        return today.replace(year=today.year - years)
    except ValueError:  # 29 February in a year without one
        return today.replace(year=today.year - years, day=28)


# --- one cell -----------------------------------------------------------------------------


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
    text = text_for(language)
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
            *_lean_notes(rules, model, text),
            *_superseded_notes(claims, old, sources, text),
            *_standing_notes(claims, sources, text),
            *_status_notes(status, sources, text),
            *_consistency_notes(claims, sources, contradictions, parts["consistency"], text),
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
        "strength": _mean(backing.values()),
        "consistency": _consistency(claims, list(backing), sources, contradictions),
        "timeliness": _mean(timeliness_of(sources[s].published, today) for s in backing),
    }
    return {name: round(value, 1) for name, value in parts.items()}


def _score(parts: dict[str, float], status: Status) -> float:
    score = round(sum(WEIGHTS[name] * value for name, value in parts.items()), 1)
    return min(score, STATUS_SCORE_CAP) if status.capping else score


def source_standings(claims: list[Claim], sources: dict[str, SourceInfo]) -> dict[str, float]:
    """Each distinct source behind the claims, with its best standing among them."""
    best: dict[str, float] = {}
    for claim in claims:
        value = standing(claim, sources[claim.source_id]).strength
        best[claim.source_id] = max(value, best.get(claim.source_id, 0.0))
    return best


def site_weights(claims: list[Claim], sources: dict[str, SourceInfo]) -> dict[str, float]:
    """Each independent site behind the claims, with its best standing as a 0-1 weight."""
    weights: dict[str, float] = {}
    for source_id, strength in source_standings(claims, sources).items():
        site = sources[source_id].site
        weights[site] = max(strength / 100, weights.get(site, 0.0))
    return weights


# --- base judgement -----------------------------------------------------------------------


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
        return _clamp(50 + (self.raw - 50) * self.weight / (self.weight + PRIOR_WEIGHT))

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
    return Judgement(_clamp(50 + 50 * lean), weight, len(votes))


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
    return Judgement(_clamp(lean.base), sum(weights.values()), len(weights), lean.claim_ids)


def model_dropped_note(reason: str, language: str = "en") -> str:
    return text_for(language)["model_dropped"].format(reason=reason)


def _lean_notes(rules: Judgement, model: Judgement | None, text: dict[str, str]) -> list[str]:
    if model is None:
        return [rules.explain(text)]
    return [model.explain(text), text["rules_lean"].format(rules=rules.explain(text))]


def _votes(claims: list[Claim], sources: dict[str, SourceInfo]) -> dict[str, tuple[float, float]]:
    """site -> (mean polarity, weight): one site saying it five times is still one voice."""
    by_site: dict[str, list[tuple[int, float]]] = {}
    for claim in claims:
        if claim.polarity:
            info = sources[claim.source_id]
            vote = (_sign(claim.polarity), standing(claim, info).strength / 100)
            by_site.setdefault(info.site, []).append(vote)
    return {
        site: (_mean(sign for sign, _ in votes), max(w for _, w in votes))
        for site, votes in by_site.items()
    }


def _standing_notes(
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


# --- status -------------------------------------------------------------------------------

STATUS_ATTRIBUTE = "maintenance"
INACTIVE = "inactive"


@dataclass(frozen=True)
class Status:
    inactive: Claim | None  # the newest statement that the option is archived or unmaintained
    revival: Claim | None  # a source dated after it that says the option is active

    @property
    def capping(self) -> Claim | None:
        """The statement that caps the cell: not overtaken by a later one."""
        return self.inactive if self.revival is None else None


def status_of(claims: list[Claim], sources: dict[str, SourceInfo]) -> Status:
    status = [c for c in claims if c.attribute == STATUS_ATTRIBUTE]
    inactive = [c for c in status if c.value == INACTIVE]
    if not inactive:
        return Status(None, None)
    newest = max(inactive, key=lambda c: _dated(c, sources))
    when = sources[newest.source_id].published
    # An undated "archived" cannot be shown to be old news.
    later = [c for c in status if c.value != INACTIVE and when and _dated(c, sources) > when]
    return Status(newest, max(later, key=lambda c: _dated(c, sources)) if later else None)


def _dated(claim: Claim, sources: dict[str, SourceInfo]) -> date:
    return sources[claim.source_id].published or date.min


def _status_notes(
    status: Status, sources: dict[str, SourceInfo], text: dict[str, str]
) -> list[str]:
    if status.inactive is None:
        return []
    said = status.inactive
    if status.revival is None:
        line = text["capped"].format(
            site=sources[said.source_id].site,
            option=said.option,
            quote=whole(said.quote),
            base=STATUS_BASE_CAP,
            score=STATUS_SCORE_CAP,
        )
        return [line]
    info = sources[status.revival.source_id]
    newer = info.published.isoformat() if info.published else ""
    return [
        text["revived"].format(
            site=info.site, newer=newer, option=said.option, quote=whole(said.quote)
        )
    ]


def whole(quote: str) -> str:
    """The quote as the source has it, so a report can print it; cut only when it spans
    lines, which a Markdown list item cannot hold."""
    return quote if "\n" not in quote.strip() else short(quote)


def short(quote: str, limit: int = 80) -> str:
    quote = " ".join(quote.split())
    return quote if len(quote) <= limit else quote[: limit - 3].rstrip() + "..."


# --- consistency --------------------------------------------------------------------------


def _consistency(
    claims: list[Claim],
    backing: list[str],
    sources: dict[str, SourceInfo],
    contradictions: list[Contradiction],
) -> float:
    penalty = sum(CONTRADICTION_PENALTY * weight(x) for x in touching(claims, contradictions))
    return _clamp(_agreed(backing, sources) - penalty)


def _agreed(backing: list[str], sources: dict[str, SourceInfo]) -> float:
    sites = {sources[s].site for s in backing}
    return CORROBORATED if len(sites) >= 2 else SINGLE_SITE


def touching(claims: list[Claim], contradictions: list[Contradiction]) -> list[Contradiction]:
    """The contradictions that involve one of these claims, on either side."""
    ids = {c.id for c in claims}
    return [x for x in contradictions if ids & (side_claims(x, "a") | side_claims(x, "b"))]


def side_claims(x: Contradiction, side: str) -> set[str]:
    """The claim ids on one side: its main claim and the other pages siding with it."""
    main, also = (x.a, x.a_also) if side == "a" else (x.b, x.b_also)
    return {main.claim_id, *(s.claim_id for s in also)}


def current_side(x: Contradiction) -> str | None:
    """ "a" or "b" when the difference is a change over time and the side holding the claim
    that describes today is known."""
    if x.cause != "time" or x.current is None:
        return None
    return next((side for side in ("a", "b") if x.current in side_claims(x, side)), None)


def settled(x: Contradiction) -> bool:
    return current_side(x) is not None


def weight(x: Contradiction) -> float:
    """How much a contradiction counts against consistency: nothing once a later source
    settles it, half when time or scope may explain it, in full otherwise."""
    if settled(x):
        return 0.0
    return CAUSE_WEIGHT.get(x.cause or "error", 1.0)


def superseded(contradictions: list[Contradiction]) -> dict[str, Contradiction]:
    """Claim id -> the contradiction whose later source supersedes it."""
    old: dict[str, Contradiction] = {}
    for x in contradictions:
        side = current_side(x)
        if side is not None:
            for claim_id in side_claims(x, "b" if side == "a" else "a"):
                old.setdefault(claim_id, x)
    return old


def _superseded_notes(
    claims: list[Claim],
    old: dict[str, Contradiction],
    sources: dict[str, SourceInfo],
    text: dict[str, str],
) -> list[str]:
    by_contradiction: dict[str, list[Claim]] = {}
    for claim in claims:
        if claim.id in old:
            by_contradiction.setdefault(old[claim.id].id, []).append(claim)
    notes = []
    for x_id, gone in by_contradiction.items():
        x = old[gone[0].id]
        current = x.a if current_side(x) == "a" else x.b
        if x.current not in (x.a.claim_id, x.b.claim_id):
            current = next(s for s in (*x.a_also, *x.b_also) if s.claim_id == x.current)
        key = "superseded_one" if len(gone) == 1 else "superseded"
        notes.append(
            text[key].format(
                claims=", ".join(c.id for c in gone),
                sites=", ".join(dict.fromkeys(_site(c.source_id, sources) for c in gone)),
                contradiction=x_id,
                current=current.claim_id,
                current_site=_site(current.source_id, sources),
            )
        )
    return notes


def _site(source_id: str, sources: dict[str, SourceInfo]) -> str:
    info = sources.get(source_id)
    return info.site if info else source_id


def _consistency_notes(
    claims: list[Claim],
    sources: dict[str, SourceInfo],
    contradictions: list[Contradiction],
    value: float,
    text: dict[str, str],
) -> list[str]:
    """Only when a contradiction touches the cell: what each one took off, and why."""
    found = touching(claims, contradictions)
    if not found:
        return []
    backing = list(source_standings(claims, sources))
    agreed = _agreed(backing, sources)
    terms = " ".join(
        text["penalty"].format(
            points=round(CONTRADICTION_PENALTY * weight(x), 1), id=x.id, why=_why(x, text)
        )
        for x in found
    )
    label = text["corroborated" if agreed == CORROBORATED else "single"]
    return [text["consistency"].format(agreed=agreed, backing=label, terms=terms, value=value)]


def _why(x: Contradiction, text: dict[str, str]) -> str:
    if settled(x):
        return text["why_settled"]
    return text.get(f"why_{x.cause}", text["why_error"])


# --- totals and ranking -------------------------------------------------------------------


NEUTRAL = 50.0  # a missing cell's place in the total: neither for nor against


def total(cells_for_option: list[ScoreCell], weights: dict[str, float]) -> float | None:
    """The weighted mean over every dimension in `weights` (the plan's), a dimension
    without evidence counting as NEUTRAL; None when the option has no evidence at all.
    Unrounded, so scaling every weight leaves it unchanged; rank() rounds for display."""
    scores = _scored(cells_for_option, weights)
    whole = sum(weights.values())
    if not scores or not whole:
        return None
    return sum(w * scores.get(d, NEUTRAL) for d, w in weights.items()) / whole


def evidence_share(cells_for_option: list[ScoreCell], weights: dict[str, float]) -> float:
    """How much of the user's weight, 0-100, lies on dimensions where the option has
    evidence; unrounded."""
    whole = sum(weights.values())
    if not whole:
        return 0.0
    return 100 * sum(weights[d] for d in _scored(cells_for_option, weights)) / whole


def percent(share: float) -> str:
    """A 0-100 share as a whole number that says 100 only when it is all of it and 0 only
    when it is none of it."""
    value = round(share)
    if share < 100 and value >= 100:
        return "99"
    if share > 0 and value <= 0:
        return "1"
    return str(value)


def _scored(cells_for_option: list[ScoreCell], weights: dict[str, float]) -> dict[str, float]:
    """Dimension -> score of the cells with evidence; a dimension without a weight is an
    error, never silently dropped."""
    scores = {}
    for cell in cells_for_option:
        _weight(weights, cell.dimension)
        if not cell.missing and cell.score is not None:
            scores[cell.dimension] = cell.score
    return scores


def backing_sites(
    cells_for_option: list[ScoreCell], claims: list[Claim], sources: dict[str, SourceInfo]
) -> list[str]:
    """The independent sites behind an option's scored cells, counted as each cell's
    `sites` counts them (every unflagged claim read, superseded ones included)."""
    ids = {i for cell in cells_for_option if not cell.missing for i in cell.claim_ids}
    backing = [c for c in claims if c.id in ids and c.source_id in sources]
    return sorted(site_weights(backing, sources))


def _weight(weights: dict[str, float], dimension: str) -> float:
    if dimension not in weights:
        raise ValueError(f"no weight for dimension {dimension!r}")
    return weights[dimension]


def rank(
    totals: dict[str, float | None],
    cells: list[ScoreCell],
    weights: dict[str, float],
    sites: dict[str, list[str]] | None = None,
) -> list[RankedOption]:
    """Highest total first, options without a total last; ties go to more evidence, then
    name. Each option carries how much of the weight rests on evidence, and (`sites`) the
    independent sites behind it."""
    own = {o: [c for c in cells if c.option == o] for o in totals}
    evidence = {o: sum(1 for c in own[o] if not c.missing) for o in totals}
    shown = {o: None if t is None else round(t, 1) for o, t in totals.items()}

    def key(option: str) -> tuple[bool, float, int, str]:
        value = shown[option]
        return (value is None, -(value or 0.0), -evidence[option], option)

    ordered = sorted(totals, key=key)
    return [
        RankedOption(
            option=o,
            total=shown[o],
            rank=i,
            cells_with_evidence=evidence[o],
            evidence_share=round(evidence_share(own[o], weights), 1),
            sites=list((sites or {}).get(o, [])),
        )
        for i, o in enumerate(ordered, start=1)
    ]


def _mean(values: Iterable[float]) -> float:
    items = list(values)
    return sum(items) / len(items) if items else 0.0


def _sign(polarity: int) -> int:
    return (polarity > 0) - (polarity < 0)


def _clamp(value: float) -> float:
    return max(0.0, min(100.0, value))
