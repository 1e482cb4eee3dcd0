"""Builders the decide stage's tests share: claims, contradictions and sources as plain data,
the score matrix built from them, a small world of two options (the assessment's), and
strategies that draw evidence at random."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from hypothesis import strategies as st

from decisions.decide import decide, verify_quotes
from decisions.scoring.cell import score_cell
from decisions.scoring.sources import SourceInfo
from research.artifacts import (
    Candidates,
    Claim,
    Contradiction,
    ContradictionSide,
    Crosscheck,
    Decision,
    Dimension,
    Filtered,
    KeptCandidate,
    Notes,
    Plan,
    ProviderCall,
    ScoreCell,
    SourceNotes,
)
from research.context import StageContext
from research.outcomes import Outcome

TODAY = date(2025, 6, 1)


def source(source_id: str, kind: str, published: date | None, site: str) -> SourceInfo:
    strength = {"primary": 90.0, "comparison": 60.0, "community": 30.0}[kind]
    return SourceInfo(
        source_id=source_id, strength=strength, published=published, kind=kind, site=site
    )


def stance(
    claim_id: str,
    option: str,
    dimension: str | None,
    source_id: str,
    polarity: int,
    quote: str = "",
) -> Claim:
    return Claim(
        id=claim_id,
        option=option,
        dimension=dimension,
        attribute="stance",
        kind="stance",
        value="",
        polarity=polarity,
        source_id=source_id,
        quote=quote or f"quote {claim_id}",
    )


def fact(
    claim_id: str, option: str, dimension: str | None, source_id: str, attribute: str, value: str
) -> Claim:
    return Claim(
        id=claim_id,
        option=option,
        dimension=dimension,
        attribute=attribute,
        kind="fact",
        value=value,
        source_id=source_id,
        quote=f"{attribute} is {value}",
    )


def side(claim: Claim) -> ContradictionSide:
    return ContradictionSide(claim_id=claim.id, source_id=claim.source_id, quote=claim.quote)


def contradiction(
    a: Claim,
    b: Claim,
    cause: str | None = None,
    current: Claim | None = None,
    a_also: tuple[Claim, ...] = (),
    b_also: tuple[Claim, ...] = (),
) -> Contradiction:
    return Contradiction(
        id=f"x-{a.id}-{b.id}",
        option=a.option,
        attribute=a.attribute,
        dimension=a.dimension,
        a=side(a),
        b=side(b),
        a_also=[side(c) for c in a_also],
        b_also=[side(c) for c in b_also],
        note="the sources disagree",
        cause=cause,
        current=current.id if current else None,
    )


def matrix(
    options: list[str],
    dimensions: list[str],
    claims: list[Claim],
    sources: dict[str, SourceInfo],
    contradictions: list[Contradiction],
    today: date = TODAY,
) -> list[ScoreCell]:
    """Every option x dimension cell, option-major, as the decide stage builds it."""
    return [
        score_cell(
            o,
            d,
            [c for c in claims if c.option == o and c.dimension == d],
            sources,
            contradictions,
            today,
        )
        for o in options
        for d in dimensions
    ]


def scored(option: str, dimension: str, score: float | None) -> ScoreCell:
    if score is None:
        return ScoreCell(option=option, dimension=dimension, missing=True)
    return ScoreCell(option=option, dimension=dimension, score=score, claim_ids=["c"])


# --- a run as plain artifacts -------------------------------------------------------------

RECENT = "2025-04-02"


@dataclass
class Page:
    source_id: str
    url: str
    title: str
    published: str | None = RECENT
    status: Outcome = Outcome.OK


@dataclass
class Run:
    """A run's artifacts as plain data; every claim's quote is written into its page."""

    options: list[str]
    dimensions: list[str]
    language: str = "en"
    pages: list[Page] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)
    unread: list[KeptCandidate] = field(default_factory=list)
    contradictions: list[Contradiction] = field(default_factory=list)
    max_pages: int = 8
    ctx: StageContext = field(default_factory=StageContext)

    def page(self, sid: str, url: str, title: str, **kw) -> Run:
        self.pages.append(Page(sid, url, title, **kw))
        return self

    def says(
        self,
        sid: str,
        option: str,
        dimension: str,
        quote: str,
        polarity: int = 0,
        attribute: str = "stance",
        value: str = "",
    ) -> Run:
        kind = "stance" if attribute == "stance" else "fact"
        value = value or ("positive" if polarity > 0 else "negative")
        self.claims.append(
            Claim(
                id=f"c{len(self.claims) + 1:03d}",
                option=option,
                dimension=dimension,
                attribute=attribute,
                kind=kind,
                value=value,
                polarity=polarity,
                source_id=sid,
                quote=quote,
            )
        )
        return self

    def decide(self) -> Decision:
        plan = Plan(
            question=f"Choose between {' and '.join(self.options)}",
            language=self.language,
            options=self.options,
            dimensions=[Dimension(name=d, weight=1.0) for d in self.dimensions],
            sources=["local:/corpus"],
            queries=[],
        )
        plan.limits.max_pages = self.max_pages
        texts = {
            p.source_id: " ".join(c.quote for c in self.claims if c.source_id == p.source_id)
            for p in self.pages
        }
        check = Crosscheck(
            claims=self.claims, consensus=[], contradictions=self.contradictions, gaps=[]
        )
        verified = verify_quotes(check, texts, self.ctx)
        return decide(
            plan, self.notes(), self.candidates(), verified, 65, self.ctx, TODAY, self.filtered()
        )

    def notes(self) -> Notes:
        return Notes(
            sources=[
                SourceNotes(
                    source_id=p.source_id,
                    url=p.url,
                    title=p.title,
                    published=p.published,
                    status=p.status,
                )
                for p in self.pages
            ]
        )

    def filtered(self) -> Filtered:
        read = [kept(p.source_id, p.title, p.url) for p in self.pages]
        return Filtered(kept=read + self.unread, dropped=[])

    def candidates(self) -> Candidates:
        calls = [ProviderCall(provider="local", query="q", outcome=Outcome.OK, hits=3)]
        return Candidates(candidates=[], provider_calls=calls)


def kept(cid: str, title: str, url: str, option: str | None = None) -> KeptCandidate:
    return KeptCandidate(
        id=cid,
        url=url,
        title=title,
        provider="local",
        query="q",
        rank=1,
        option=option,
        score=50.0,
        reasons=[],
    )


# --- a world of two options ---------------------------------------------------------------

OPTIONS = ["Loamdb", "Tessera"]

# primary, timeliness 100
OFFICIAL = source("s1", "primary", date(2025, 1, 10), "loamdb.io")
# comparison, timeliness 60
REVIEW = source("s2", "comparison", date(2023, 3, 1), "dbreview.com")
# community, undated, timeliness 50
FORUM = source("s3", "community", None, "reddit.com")
# comparison, over 5 years old, timeliness 20
OLD_REVIEW = source("s4", "comparison", date(2019, 1, 1), "olddb.net")
SOURCES = {s.source_id: s for s in (OFFICIAL, REVIEW, FORUM, OLD_REVIEW)}

MIT = fact("c1", "Loamdb", "cost", "s1", "licence", "MIT")
BSL = fact("c2", "Loamdb", "cost", "s2", "licence", "BSL")
CLAIMS = [
    MIT,
    BSL,
    stance("c3", "Loamdb", "perf", "s2", +1),
    stance("c4", "Tessera", "perf", "s3", -1),
    # Tessera's version, agreed by two sites but not tied to a dimension
    fact("c5", "Tessera", None, "s3", "version", "2.1"),
    fact("c6", "Tessera", None, "s4", "version", "2.1"),
]
CROSSCHECK = Crosscheck(
    claims=CLAIMS, consensus=[], contradictions=[contradiction(MIT, BSL)], gaps=[]
)
CELLS = matrix(OPTIONS, ["perf", "cost"], CLAIMS, SOURCES, CROSSCHECK.contradictions)


# --- evidence drawn at random -------------------------------------------------------------

DRAWN_OPTIONS = ["A", "B", "C"]
DRAWN_DIMENSIONS = ["perf", "cost", "docs"]
dates = st.one_of(st.none(), st.dates(min_value=date(2000, 1, 1), max_value=date(2030, 1, 1)))
source_strategy = st.builds(
    SourceInfo,
    source_id=st.just(""),
    strength=st.floats(0, 100),
    published=dates,
    kind=st.sampled_from(["primary", "comparison", "community"]),
    site=st.sampled_from(["a.org", "b.org", "c.org"]),
)
claim_strategy = st.tuples(
    st.sampled_from(DRAWN_OPTIONS),
    st.sampled_from(DRAWN_DIMENSIONS),
    st.integers(0, 5),
    st.sampled_from([-1, 0, 1]),
)
weights_strategy = st.fixed_dictionaries({d: st.floats(0.01, 100) for d in DRAWN_DIMENSIONS})


@st.composite
def evidence(draw: st.DrawFn) -> tuple[list[Claim], dict[str, SourceInfo], list[Contradiction]]:
    infos = draw(st.lists(source_strategy, min_size=6, max_size=6))
    sources = {
        f"s{i}": SourceInfo(f"s{i}", s.strength, s.published, s.kind, s.site)
        for i, s in enumerate(infos)
    }
    rows = draw(st.lists(claim_strategy, max_size=30))
    claims = [stance(f"c{i}", o, d, f"s{s}", p) for i, (o, d, s, p) in enumerate(rows)]
    pairs = (
        draw(st.lists(st.tuples(st.sampled_from(claims), st.sampled_from(claims)), max_size=5))
        if claims
        else []
    )
    return claims, sources, [contradiction(a, b) for a, b in pairs]


def saas_run(language: str = "en") -> Run:
    """A multi-tenant SaaS question: SQLite's evidence is on cost alone, a third of the weight,
    from three reviews praising it; Postgres has evidence on cost, where it does worse, and on
    licence risk. SQLite still has the highest weighted total."""
    sqlite, postgres = ("SQLite", "Postgres")
    dims = ["cost", "licence risk", "maintenance"]
    if language == "zh":
        dims = ["成本", "许可风险", "维护活跃度"]
    cost, licence = dims[0], dims[1]
    return (
        Run([sqlite, postgres], dims, language=language)
        .page("a", "https://bench.example.com/db", "Database benchmarks")
        .page("b", "https://notes.example.org/db", "Notes on databases")
        .page("c", "https://digest.example.net/db", "The database digest")
        .says("a", sqlite, cost, "SQLite is remarkably cheap to run.", +1)
        .says("b", sqlite, cost, "SQLite costs nothing to operate.", +1)
        .says("c", sqlite, cost, "SQLite is the cheapest store we tried.", +1)
        .says("a", postgres, cost, "Postgres is expensive to host at scale.", -1)
        .says("b", postgres, cost, "Postgres needs costly managed hosting.", -1)
        .says("c", postgres, licence, "Postgres has a permissive, low-risk licence.", +1)
    )
