"""Pydantic models of the artifacts every stage reads and writes (DESIGN section 1).

Key names here are a public contract: MCP clients and other programs read these files.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field

from research.names import STAGES as STAGES  # the stages, with the artifacts they write
from research.outcomes import Outcome


class Artifact(BaseModel):
    model_config = ConfigDict(extra="ignore")


# --- the question a run answers -----------------------------------------------------------


# Where a dimension came from: read from the question's words, set on the form (or the
# CLI's --dimension, MCP's dimensions), or taken from a preset.
DimensionOrigin = Literal["question", "form", "preset"]


class AskedDimension(Artifact):
    """A dimension as the question names it; the plan checks and normalises its weight."""

    name: str
    weight: float = 1.0
    origin: DimensionOrigin = "form"


class Question(Artifact):
    """A decision question as a run takes it, once research.questions.clean_question has
    checked it: kept on the run's row and in index.json `params` (with the owner), and
    planned by the first stage (research.stages.plan.build_plan). `limits` holds only the
    limits the asker changed; the server's defaults fill in the rest."""

    question: str
    options: list[str] = Field(default_factory=list)
    dimensions: list[AskedDimension] = Field(default_factory=list)
    preset: str = ""
    sources: list[str] = Field(default_factory=list)
    limits: dict[str, int] = Field(default_factory=dict)


# --- round 0: plan ------------------------------------------------------------------------


class Dimension(Artifact):
    name: str
    weight: float = Field(gt=0)
    origin: DimensionOrigin | None = None


class SubQuery(Artifact):
    id: str
    text: str
    option: str | None = None
    dimension: str | None = None
    kind: Literal["option_dimension", "comparison", "option", "broad"] = "option_dimension"


class Limits(Artifact):
    max_candidates: int = 25
    max_kept: int = 12
    min_kept: int = 3
    max_pages: int = 8
    max_page_chars: int = 12_000


class PrimaryAsk(Artifact):
    """One question to a primary source (a registry, a database of papers or trials) about
    one option: what it was asked and, once retrieve has asked, what it answered."""

    id: str  # p01, p02, ...
    provider: str  # github, pypi, clinicaltrials, ...
    option: str
    dimensions: list[str]  # the dimensions that called for it
    asks: list[str]  # the facts it can state: licence, latest_release, trial_primary_result ...
    outcome: Outcome | None = None  # None until asked
    detail: str = ""
    records: int = 0
    facts: int = 0

    @property
    def answer(self) -> Literal["found", "found nothing", "could not look", "not asked"]:
        if self.outcome is None:
            return "not asked"
        if self.outcome is Outcome.OK:
            return "found"
        return "found nothing" if self.outcome is Outcome.NO_HIT else "could not look"


class Plan(Artifact):
    question: str
    language: Literal["en", "zh"] = "en"
    options: list[str]
    options_source: Literal["given", "question"] = "given"
    dimensions: list[Dimension]
    preset: str | None = None
    sources: list[str]
    queries: list[SubQuery]
    limits: Limits = Field(default_factory=Limits)
    broadened: bool = False
    primary: list[PrimaryAsk] = Field(default_factory=list)


# --- round 1: candidates ------------------------------------------------------------------


class ProviderCall(Artifact):
    provider: str
    query: str
    outcome: Outcome
    hits: int = 0
    detail: str = ""
    elapsed_ms: int = 0


class Candidate(Artifact):
    id: str
    url: str
    title: str
    snippet: str = ""
    provider: str
    query: str
    rank: int
    published: str | None = None
    option: str | None = None
    dimension: str | None = None
    # Set by the local corpus: deep-read reads this file instead of fetching the URL. Its
    # place inside the folder of the source `provider` names (an absolute path in runs
    # made before sources were recorded by name).
    local_path: str | None = None


class RecordFact(Artifact):
    """A typed fact a primary source stated: `quote` is a whole line of its record."""

    option: str
    attribute: str
    value: str
    as_of: str  # the day the statement holds at (the day it was retrieved)
    event_date: str | None = None  # the day the fact is about: a release, a push, a result
    quote: str
    offset: int = 0  # where the quote stands in the stored page (set by deep-read)
    provider: str = ""


class PrimaryRecordDoc(Artifact):
    """A primary source's answer as stored: its text is the page deep-read keeps."""

    ask_id: str
    provider: str
    source_kind: Literal["registry", "primary"]
    url: str
    title: str
    text: str
    retrieved_at: str
    published: str | None = None
    updated: str | None = None
    facts: list[RecordFact] = Field(default_factory=list)


class Candidates(Artifact):
    candidates: list[Candidate]
    provider_calls: list[ProviderCall] = Field(default_factory=list)
    duplicates_merged: int = 0
    replans: int = 0
    # What the primary sources answered; deep-read stores each record as a page.
    records: list[PrimaryRecordDoc] = Field(default_factory=list)


# --- round 2: filter ----------------------------------------------------------------------


class KeptCandidate(Candidate):
    score: float
    reasons: list[str]


class DroppedCandidate(Artifact):
    id: str
    url: str
    title: str
    reason: str
    score: float | None = None


class Filtered(Artifact):
    kept: list[KeptCandidate]
    dropped: list[DroppedCandidate]


# --- round 3: deep-read -------------------------------------------------------------------


class KeyPoint(Artifact):
    text: str
    quote: str
    offset: int
    option: str | None = None
    dimension: str | None = None
    # From a table cell or a pros/cons list: the verdict its column or list gives
    # (+1 under "Pros", -1 under "Cons" or a "no" cell), and that column's header.
    polarity: int | None = None
    header: str | None = None
    # Who read the point off the page: the deterministic reader, or the model (LLM mode;
    # its quote was verified against the stored text before it was kept).
    origin: Literal["reader", "model"] = "reader"
    # How the reader knows which option the point is about: the sentence names it, opens
    # with a pronoun after one that does, sits under a heading naming it, on a page about
    # it, after a sentence naming it, or in its table column or pros/cons list.
    about: Literal["named", "pronoun", "heading", "page", "paragraph", "table"] | None = None
    # How sure the model was of its reading (0-1); set only on the model's readings.
    confidence: float | None = None


class SourceNotes(Artifact):
    source_id: str
    url: str
    final_url: str | None = None
    title: str = ""
    published: str | None = None
    site: str = ""
    status: Outcome
    detail: str = ""
    chars: int = 0
    truncated: bool = False
    page: str | None = None  # artifact name of the stored text, e.g. round_3_pages/<id>.md
    duplicate_of: str | None = None  # same text as an earlier source: read, but not counted
    key_points: list[KeyPoint] = Field(default_factory=list)
    # When the page was last updated, if it says, and where its dates were read
    # ("front matter 'date'", "HTML metadata", "Last-Modified header", "the record").
    updated: str | None = None
    date_source: str | None = None
    # Set for a primary source's record: "registry" or "primary", and its typed facts.
    kind: Literal["registry", "primary"] | None = None
    facts: list[RecordFact] = Field(default_factory=list)

    @property
    def latest(self) -> str | None:
        """The most recent date the page carries: what timeliness counts from."""
        days = [d for d in (self.published, self.updated) if d]
        return max(days) if days else None


class Notes(Artifact):
    sources: list[SourceNotes]
    # Other names the pages give an option ("Ozempic" for semaglutide), read with it.
    aliases: dict[str, list[str]] = Field(default_factory=dict)

    def ok_sources(self) -> list[SourceNotes]:
        """Sources that were read and count as evidence (syndicated copies do not)."""
        return [s for s in self.sources if s.status is Outcome.OK and s.duplicate_of is None]


class ScoredPoint(Artifact):
    """A sentence or table row the reader judged, with its score (a part's reading)."""

    score: int
    at: int  # where it starts in the page's body
    point: KeyPoint
    table: bool = False


class PartPage(Artifact):
    """One page a part of deep-read fetched and read: its notes before key points were
    chosen, its stored text, and its scored sentences (None when it gave no text)."""

    notes: SourceNotes
    stored: str | None = None
    scored: list[ScoredPoint] | None = None


class DeepReadPart(Artifact):
    """What one part of a deep-read spread over workers read (round_3_parts/<n>.json):
    its pages in the run's reading order, and the option names and score floor they were
    read with, so the merge can tell whether the reading stands for the whole run."""

    part: int
    source_ids: list[str]
    aliases: dict[str, list[str]] = Field(default_factory=dict)
    min_score: int
    pages: list[PartPage]


# --- round 4: cross-validate --------------------------------------------------------------


class Claim(Artifact):
    id: str
    option: str
    dimension: str | None = None
    # A typed fact names its attribute (licence, version, release_date, last_commit,
    # maintenance, or a measured quantity); a stance has attribute "stance". A statement
    # is a sentence on a point two sources disagree about (attribute: that point); it
    # carries no judgement of its own (polarity 0).
    attribute: str
    kind: Literal["fact", "stance", "statement"]
    value: str
    polarity: int = 0  # +1 positive, -1 negative, 0 neutral (facts)
    source_id: str
    quote: str
    offset: int = 0
    origin: Literal["reader", "model"] = "reader"
    # Set when the deterministic reader, reading the same quote, finds the opposite of what
    # the model said: the claim is shown with this warning and left out of the scores.
    flag: str | None = None
    # A primary source's fact: "registry" or "primary", and the day it holds at or is about.
    source_kind: Literal["registry", "primary"] | None = None
    date: str | None = None
    # How sure the reader of a stance was (0-1); only stances at or above its threshold
    # are claims that score.
    confidence: float | None = None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def read_by(self) -> Literal["rules", "model"]:
        """Which reader read the claim from its quote: the model or the rules."""
        return "model" if self.origin == "model" else "rules"


class ContradictionSide(Artifact):
    claim_id: str
    source_id: str
    quote: str


class Contradiction(Artifact):
    id: str
    option: str
    attribute: str
    dimension: str | None = None
    a: ContradictionSide
    b: ContradictionSide
    note: str
    # Other pages that say what a says, or what b says: how many stand on each side.
    a_also: list[ContradictionSide] = Field(default_factory=list)
    b_also: list[ContradictionSide] = Field(default_factory=list)
    # Why the sources may differ: "time" (one describes an earlier state), "scope" (other
    # versions, setups or data sets) or "error" (nothing explains it: one may be wrong or
    # out of date).
    cause: Literal["time", "scope", "error"] | None = None
    # With cause "time": the claim that describes the current state.
    current: str | None = None
    # Who judged the two sides to disagree: the deterministic finder or the model.
    judged_by: Literal["reader", "model"] = "reader"


class Consensus(Artifact):
    id: str
    option: str
    attribute: str
    dimension: str | None = None
    value: str
    claim_ids: list[str]
    source_ids: list[str]
    sites: list[str]


class Gap(Artifact):
    option: str
    dimension: str
    note: str


class Crosscheck(Artifact):
    claims: list[Claim]
    consensus: list[Consensus]
    contradictions: list[Contradiction]
    gaps: list[Gap]


# --- round 5: decide ----------------------------------------------------------------------


class ScoreCell(Artifact):
    option: str
    dimension: str
    base: float | None = None
    strength: float | None = None
    consistency: float | None = None
    timeliness: float | None = None
    score: float | None = None
    claim_ids: list[str] = Field(default_factory=list)
    missing: bool = False
    # How base was reached, so a reader can redo it (decisions/scoring/):
    # base = 50 + (lean - 50) * evidence_weight / (evidence_weight + prior_weight), where the
    # lean is model_base when the model's judgement was used (LLM mode), else raw_base,
    # then capped when a status fact (archived, deprecated) dominates the cell.
    raw_base: float | None = None
    evidence_weight: float | None = None
    prior_weight: float | None = None
    sites: int = 0  # independent sites behind the cell's claims
    capped_by: str | None = None  # the status claim that capped the cell
    # Claims a later source supersedes (a contradiction put down to a change over time):
    # listed as evidence, left out of base and consistency.
    superseded: list[str] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)  # why, in the plan's language
    # LLM mode: the model's own base judgement of the cell (0-100) and the claims it cited;
    # `base` uses it only when every cited claim is one of the cell's unflagged claims.
    model_base: float | None = None
    model_claim_ids: list[str] = Field(default_factory=list)


class Assessment(Artifact):
    coverage: float
    consistency: float
    timeliness: float
    verifiability: float
    confidence: float
    method: str
    # Share of scored cells backed by two or more independent, not merely weak, sites.
    corroboration: float | None = None


class RankedOption(Artifact):
    option: str
    # The weighted mean over every dimension, a cell without evidence counting as neutral
    # (50); None when the option has no evidence at all (decisions/scoring/).
    total: float | None
    rank: int
    cells_with_evidence: int
    # How much of the user's weight rests on evidence, 0-100: the weights of the dimensions
    # with a scored cell over all the weights. None in decisions written before it was kept.
    evidence_share: float | None = None
    # The independent sites (registrable domains) behind the option's scored cells.
    sites: list[str] = Field(default_factory=list)


class CellRef(Artifact):
    option: str
    dimension: str


class Recommendation(Artifact):
    option: str | None
    reasons: list[str]
    low_confidence: bool
    # Set when the best-scoring option was not recommended because all of its scored
    # evidence comes from this one site: a recommendation needs two or more.
    single_site: str | None = None
    # Set whenever nothing is recommended: why, as a code ("no_evidence", "single_site",
    # "thin_evidence": the leader's evidence covers less than half of the weight,
    # "unshared_lead": it leads only where the runner-up has no evidence), and in one
    # sentence of the plan's language. None and "" in decisions written before it was kept.
    withheld: str | None = None
    no_recommendation_reason: str = ""
    # What would settle it: the missing cells carrying the most weight, and the sentence
    # naming them.
    would_settle: str = ""
    settling_cells: list[CellRef] = Field(default_factory=list)


class Decision(Artifact):
    mode: Literal["deterministic", "llm"] = "deterministic"
    model: str | None = None  # the model, in LLM mode
    # LLM mode: the stage from which the model was no longer asked, because its endpoint
    # could not be reached or the run's token budget ran out (index.json `analysis`).
    model_unreachable_at: str | None = None
    budget_exhausted_at: str | None = None
    # The first stage whose time with the model (LLM_STAGE_SECONDS) ran out.
    model_time_out_at: str | None = None
    # The stages where some model answer was used; None in decisions written before this
    # was recorded. A run whose model gave no usable answer is deterministic, naming the
    # model it had configured.
    model_stages: list[str] | None = None
    matrix: list[ScoreCell]
    totals: dict[str, float | None]
    ranking: list[RankedOption]
    recommendation: Recommendation
    assessment: Assessment
    threshold: int
    missing_information: list[str]
    unreachable: list[str] = Field(default_factory=list)
    # When no search at all could be made, the one sentence that says so and why.
    offline: str = ""
    # Kept pages the reading budget left unread: "title (url)".
    not_read: list[str] = Field(default_factory=list)


# --- decisions saved beside the run's own ---------------------------------------------------


class SavedDecision(Artifact):
    """What a saved decision is (decisions/<n>-about.json): the weights it was decided with,
    who saved it and when, and what it came to."""

    number: int
    weights: list[Dimension]
    by: str
    saved: str
    recommendation: str | None = None
    confidence: float = 0.0


# --- corrections a run's owner made to its reading -------------------------------------------

CorrectionKind = Literal[
    "wrong_option", "wrong_dimension", "wrong_polarity", "not_a_claim", "not_real"
]


class Correction(Artifact):
    """A person's correction of the reader (corrections.json): a claim misread, or a
    contradiction that is not real. `value` is what it should have been, when they said
    (the right option, dimension, or polarity "1", "-1" or "0"; "" for no dimension). The
    stored pages are never changed; the decision is made again with the correction."""

    id: str
    target: Literal["claim", "contradiction"]
    target_id: str
    kind: CorrectionKind
    value: str | None = None
    note: str = ""
    by: str
    at: str
    undone_by: str | None = None
    undone_at: str | None = None

    @property
    def active(self) -> bool:
        return self.undone_at is None


class Corrections(Artifact):
    corrections: list[Correction] = Field(default_factory=list)

    def active(self) -> list[Correction]:
        return [c for c in self.corrections if c.active]
