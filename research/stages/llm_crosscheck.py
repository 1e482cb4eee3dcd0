"""Cross-validate with a model: it reads the key points the deterministic reader read, and
judges the sentence pairs the reader's contradiction finder could not settle.

The model never sees whole pages and never retypes a quote. One message numbers
POINTS_PER_PAGE key points for each page read, at most MAX_POINTS however many pages the
limits let the reader read, each cut to TEXT_TOKENS around its option and grouped by option
and dimension, and lists up to MAX_PAIRS pairs of them by number. The model answers with
those numbers: a claim or a side of a contradiction it yields carries its key point's own
stored quote and offset.

Which pairs: the strongest few the reader already calls contradictions (CONFIRM), then the
reader's near misses (research.stages.conflicts.near_conflicts). Which key points: the
pairs', then, one option and dimension at a time (fewest claims first), one page at a time,
those of pages the model labelled in deep-read first (its option, dimension and stance are
on them already), then those with the most substance. The model may also name other pairs
among them that contradict (EXTRA_PAIRS): the point said in other words, an option's brand
name, a loose date against an exact one are what word overlap cannot see.

The reader stays the cross-check (research.stages.reader_check): a stance the model reads
from a quote that the reader reads the other way, or a typed value it reads differently,
is kept with a `flag` and neither counted nor weighed. What the model leaves out, and every
call that fails, leaves the reader's result as it was.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from pydantic import BaseModel

from research.artifacts import Claim, Contradiction, ContradictionSide, KeyPoint, Plan, SourceNotes
from research.context import StageContext
from research.llm import Answer, StageLLM
from research.llm.budget import estimate_tokens
from research.providers.urls import registrable_domain
from research.stages.claims import dimension_for, scope_of
from research.stages.claims.gate import not_a_statement
from research.stages.claims.reading import Point as ReaderPoint
from research.stages.claims.reading import options_spoken_of
from research.stages.conflicts import ALSO, Conflict, Statement, near_conflicts
from research.stages.crosscheck import not_the_projects
from research.stages.fact_conflicts import CHANGE
from research.stages.reader_check import cue, named_in, reader_polarity, typed_value
from research.stages.sentence_conflicts import side_claim
from research.stages.text import first_mention, has_cjk

TEXT_TOKENS = 34  # a key point's text, cut around its option: ~135 Latin characters
POINTS_PER_PAGE = 3.5  # key points sent for each page read: 28 for 8 pages
MAX_POINTS = 28  # ... and at most, whatever the limits: one call
MAX_PAIRS = 8  # pairs judged in the whole stage
CONFIRM = 3  # of them, contradictions the reader found, for the model to confirm
EXTRA_PAIRS = 4  # contradictions a call may find between key points beyond the pairs sent
POINTS_PER_CALL = MAX_POINTS  # a call's share; the system prompt is paid once per call
POINT_CHARS = 60  # a contradiction's point, as the model names it
NOTE_CHARS = 200  # the model's note on a contradiction
CAUSES = ("time", "scope", "error")


# --- what the model answers -----------------------------------------------------------------


class ModelStance(BaseModel):
    kp: int
    option: str
    dimension: str
    polarity: int


class ModelFact(BaseModel):
    kp: int
    option: str
    attribute: str
    value: str


class PairVerdict(BaseModel):
    a: int
    b: int
    option: str
    contradicts: bool
    point: str
    cause: str
    note: str


class Reading(BaseModel):
    # Each required in the schema sent; a list left out (local models in JSON mode drop
    # those they have nothing for) reads as empty rather than costing the call a repair.
    stances: list[ModelStance] = []
    facts: list[ModelFact] = []
    pairs: list[PairVerdict] = []


def _not_a_stance(kp: KeyPoint, option: str, options: list[str]) -> str | None:
    """Why a model's stance cannot stand, whatever the model says: the sentence states
    nothing (a heading, a question, a study's design) or is not about the option."""
    reason = not_a_statement(kp.quote)
    if reason:
        return f"the sentence is {reason}, which judges nothing"
    point = ReaderPoint(kp.quote, kp.option, about=kp.about or "named", polarity=kp.polarity)
    if option not in options_spoken_of(point, options):
        return f"the sentence is not about {option}"
    return None


# --- what it is sent ------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Point:
    """A key point as the model sees it (one object per key point: compared by identity)."""

    source: SourceNotes
    kp: KeyPoint

    @property
    def key(self) -> tuple[str, int]:
        return self.source.source_id, self.kp.offset


@dataclass(frozen=True, eq=False)
class Pair:
    a: Point
    b: Point
    option: str
    listed: bool  # the reader's finder already calls it a contradiction


@dataclass
class Batch:
    points: list[Point]
    pairs: list[Pair] = field(default_factory=list)


class ModelReview:
    """The Reviewer (research.stages.crosscheck) that asks the model."""

    def __init__(self, llm: StageLLM, plan: Plan, ctx: StageContext) -> None:
        self.llm = llm
        self.plan = plan
        self.ctx = ctx
        self.options = {o.casefold(): o for o in plan.options}
        self.dimensions = {d.name.casefold(): d.name for d in plan.dimensions}
        self.verdicts: list[tuple[Pair, PairVerdict]] = []

    # --- claims -----------------------------------------------------------------------------

    def review_claims(
        self,
        claims: list[Claim],
        points: list[tuple[SourceNotes, KeyPoint]],
        statements: list[Statement],
        conflicts: list[Conflict],
    ) -> list[Claim]:
        every = [Point(s, kp) for s, kp in points]
        pairs = self._pairs(conflicts, statements, {p.key: p for p in every})
        pages = len({p.source.source_id for p in every})
        limit = min(MAX_POINTS, round(POINTS_PER_PAGE * pages))
        chosen = _chosen_points(claims, every, pairs, limit)
        pairs = [p for p in pairs if p.a in chosen and p.b in chosen]
        batches = _batches(chosen, pairs)
        if not batches:
            return claims
        answered = self.llm.ask_batches(
            batches,
            prompt="cross_validate",
            task="crosscheck",
            schema=Reading,
            user=_message,
            max_tokens=_answer_tokens,
            fallback="the reader's claims and contradictions for these key points",
            question=self.plan.question,
            options=self.plan.options,
            dimensions=[d.name for d in self.plan.dimensions],
        )
        model: list[Claim] = []
        for batch, answer in answered:
            if answer.value is None:
                continue
            model += self._stances(batch, answer.value.stances, claims)
            model += self._facts(batch, answer.value.facts, claims)
            self.verdicts += self._verdicts(batch, answer.value.pairs)
        self._summary(batches, [answer for _, answer in answered], model)
        if not model:
            return claims
        order = {(s.source_id, kp.offset): n for n, (s, kp) in enumerate(points)}
        merged = sorted(
            [*claims, *model], key=lambda c: (order[(c.source_id, c.offset)], c.origin == "model")
        )
        return [c.model_copy(update={"id": f"c{n:03d}"}) for n, c in enumerate(merged, 1)]

    def _pairs(
        self,
        conflicts: list[Conflict],
        statements: list[Statement],
        at: dict[tuple[str, int], Point],
    ) -> list[Pair]:
        proposed = [(c.a, c.b, True) for c in conflicts[:CONFIRM]]
        near = near_conflicts(statements, MAX_PAIRS - len(proposed))
        proposed += [(a, b, False) for a, b in near]
        pairs = []
        for a, b, listed in proposed:
            # Only key points whose quote stands in the stored text are here.
            pa, pb = at.get((a.source_id, a.offset)), at.get((b.source_id, b.offset))
            if pa is not None and pb is not None:
                pairs.append(Pair(pa, pb, a.option, listed))
        return pairs

    def _stances(
        self, batch: Batch, stances: list[ModelStance], claims: list[Claim]
    ) -> list[Claim]:
        made: list[Claim] = []
        seen: set[tuple[int, str, str]] = set()
        for s in stances:
            point, option, dimension = self._named(batch, s.kp, s.option, s.dimension, s)
            if point is None or option is None or dimension is None:
                continue
            if s.polarity not in (1, -1) or (s.kp, option, dimension) in seen:
                continue  # no judgement, or said twice
            seen.add((s.kp, option, dimension))
            kp = point.kp
            refusal = _not_a_stance(kp, option, self.plan.options)
            if refusal:
                self._dropped(s, refusal)
                continue
            mine = _reader_claims(claims, point, option, "stance")
            if any(c.polarity == s.polarity for c in mine):
                continue  # the reader reads it so too: its claim stands for both
            options = self.plan.options
            read = mine[0].polarity if mine else reader_polarity(kp.quote, option, kp, options)
            flag = None
            if read == -s.polarity:
                flag = f"the stored text reads the other way: {cue(kp, option, options, read)}"
                self._flagged(point, option, s.polarity, read, flag)
            tone = "positive" if s.polarity > 0 else "negative"
            made.append(_claim(point, option, dimension, "stance", tone, s.polarity, flag))
        return made

    def _facts(self, batch: Batch, facts: list[ModelFact], claims: list[Claim]) -> list[Claim]:
        made: list[Claim] = []
        dims = [d.name for d in self.plan.dimensions]
        for f in facts:
            point, option, _ = self._named(batch, f.kp, f.option, None, f)
            if point is None or option is None:
                continue
            typed = typed_value(f.attribute, f.value)
            if typed is None:
                self._dropped(f, f"{f.attribute!r} = {f.value!r} is not a value Verdict compares")
                continue
            attribute, value, polarity = typed
            if not named_in(attribute, value, point.kp.quote):
                self._dropped(f, "the key point does not name it")
                continue
            if not_the_projects(attribute, scope_of(point.kp.quote), point.kp.quote):
                self._dropped(f, "said of a component, an old version or the past")
                continue
            mine = _reader_claims(claims, point, option, attribute)
            if any(c.value == value for c in mine) or any(
                (c.option, c.attribute, c.value) == (option, attribute, value) for c in made
            ):
                continue
            flag = f"the stored text reads otherwise: {mine[0].value}" if mine else None
            if flag:
                self._flagged(point, option, value, mine[0].value, flag)
            dimension = dimension_for(attribute, dims) or point.kp.dimension
            made.append(_claim(point, option, dimension, attribute, value, polarity, flag))
        return made

    def _flagged(self, point: Point, option: str, model: object, reader: object, flag: str) -> None:
        """Log a model claim the reader reads otherwise on the same quote."""
        self.ctx.record(
            "llm_claim_flagged",
            stage=self.llm.stage,
            source_id=point.source.source_id,
            quote=point.kp.quote,
            option=option,
            model=model,
            reader=reader,
            flag=flag,
        )

    def _named(
        self,
        batch: Batch,
        kp: int,
        option: str,
        dimension: str | None,
        said: BaseModel,
    ) -> tuple[Point | None, str | None, str | None]:
        """The key point, option and dimension the model names, each checked against what
        it was sent and the plan; any other is dropped and logged."""
        point = batch.points[kp - 1] if 1 <= kp <= len(batch.points) else None
        known = self.options.get(" ".join(option.split()).casefold())
        dim = self.dimensions.get(" ".join((dimension or "").split()).casefold())
        if point is None:
            self._dropped(said, f"key point {kp} was not in the message")
        elif known is None:
            self._dropped(said, f"{option!r} is not one of the plan's options")
        elif dimension is not None and dim is None:
            self._dropped(said, f"{dimension!r} is not one of the plan's dimensions")
        else:
            return point, known, dim
        return None, None, None

    def _dropped(self, said: BaseModel, reason: str) -> None:
        self.ctx.record(
            "llm_claim_dropped", stage=self.llm.stage, claim=said.model_dump(), reason=reason
        )

    def _summary(
        self, batches: list[Batch], answers: list[Answer[Reading]], model: list[Claim]
    ) -> None:
        unanswered = [
            f"{p.source.source_id}@{p.kp.offset}"
            for batch, answer in zip(batches, answers, strict=True)
            if answer.value is None
            for p in batch.points
        ]
        self.ctx.record(
            "llm_claims",
            stage=self.llm.stage,
            sent=sum(len(b.points) for b in batches),
            pairs=sum(len(b.pairs) for b in batches),
            added=sum(c.flag is None for c in model),
            flagged=sum(c.flag is not None for c in model),
            unanswered=unanswered,
            fallback="the reader's claims" if unanswered else None,
        )

    # --- contradictions ---------------------------------------------------------------------

    def _verdicts(
        self, batch: Batch, verdicts: list[PairVerdict]
    ) -> list[tuple[Pair, PairVerdict]]:
        """Each verdict with its pair: one of those sent, or (when it contradicts) two other
        key points of the message the model found at odds, up to EXTRA_PAIRS a call."""
        sent = {(frozenset((p.a, p.b)), p.option): p for p in batch.pairs}
        judged: list[tuple[Pair, PairVerdict]] = []
        seen: set[tuple[frozenset[Point], str]] = set()
        extra = 0
        for v in verdicts:
            a, b = (
                batch.points[n - 1] if 1 <= n <= len(batch.points) else None for n in (v.a, v.b)
            )
            option = self.options.get(" ".join(v.option.split()).casefold())
            problem = None
            if a is None or b is None or a is b or option is None:
                problem = "its key points or option were not in the message"
            elif (key := (frozenset((a, b)), option)) in seen:
                problem = "the pair was judged twice"
            elif key in sent:
                seen.add(key)
                judged.append((sent[key], v))
                continue
            elif not v.contradicts:
                continue  # a pair nobody asked about, found to agree: nothing to do
            elif _site(a) == _site(b):
                problem = "both key points come from one site"
            elif extra >= EXTRA_PAIRS:
                problem = f"more than {EXTRA_PAIRS} pairs found beyond those sent"
            else:
                seen.add(key)
                extra += 1
                judged.append((Pair(a, b, option, False), v))
                continue
            self.ctx.record(
                "llm_verdict_dropped", stage=self.llm.stage, verdict=v.model_dump(), reason=problem
            )
        return judged

    def review_contradictions(
        self, contradictions: list[Contradiction], claims: list[Claim]
    ) -> list[Contradiction]:
        """The reader's contradictions, each confirmed or disputed by the model, then those
        the model found that the reader did not."""
        found = list(contradictions)
        for pair, verdict in self.verdicts:
            listed = _listing(found, claims, pair)
            if listed is not None:
                self._settle(listed, verdict)
            elif verdict.contradicts:
                self._add(found, claims, pair, verdict)
        return found

    def _settle(self, listed: Contradiction, verdict: PairVerdict) -> None:
        """A contradiction the reader found and the model disputes stays listed: its two
        quotes are on record and the report shows both, so a reader of the report can judge
        them, while the model saw each sentence cut short and cannot check what it says
        against the page. Dropping it would resolve the disagreement silently, which the
        stage's method forbids. It gets the model's view in its note instead."""
        event = (
            "llm_contradiction_confirmed" if verdict.contradicts else "llm_contradiction_disputed"
        )
        self.ctx.record(
            event, stage=self.llm.stage, id=listed.id, note=_cut(verdict.note, NOTE_CHARS)
        )
        if not verdict.contradicts:
            why = _cut(verdict.note, NOTE_CHARS) or "no reason given"
            listed.note += f" Read by the model, the two sentences do not disagree: {why}."

    def _add(
        self, found: list[Contradiction], claims: list[Claim], pair: Pair, verdict: PairVerdict
    ) -> None:
        point = _cut(verdict.point, POINT_CHARS) or pair.a.kp.dimension or "statement"
        dimension = pair.a.kp.dimension or pair.b.kp.dimension
        a = _side(pair.a, pair.option, dimension, point, claims)
        b = _side(pair.b, pair.option, dimension, point, claims)
        if _joined(found, pair, a, b):
            return
        cause = verdict.cause.strip().lower()
        cause = cause if cause in CAUSES else "error"
        changed = [c for c in (a, b) if CHANGE.search(c.quote)]
        sites = [_site(p) for p in (pair.a, pair.b)]
        said = _cut(verdict.note, NOTE_CHARS) or "they cannot both hold as written"
        found.append(
            Contradiction(
                id=f"x{len(found) + 1:02d}",
                option=pair.option,
                attribute=point,
                dimension=dimension,
                a=_side_of(a),
                b=_side_of(b),
                note=f"On “{point}”, {sites[0]} and {sites[1]} disagree: {said}.",
                cause=cause,  # type: ignore[arg-type]
                # As for the reader's: the side describing today only when one sentence
                # itself reports the change.
                current=changed[0].id if cause == "time" and len(changed) == 1 else None,
                judged_by="model",
            )
        )
        self.ctx.record(
            "llm_contradiction_found",
            stage=self.llm.stage,
            id=found[-1].id,
            option=pair.option,
            point=point,
            sides=[a.id, b.id],
        )


# --- choosing and sending -------------------------------------------------------------------


def _chosen_points(
    claims: list[Claim], points: list[Point], pairs: list[Pair], limit: int
) -> list[Point]:
    """The pairs' key points, then the others, one option and dimension at a time (those
    with fewest claims first, so the model can fill a gap), taking from each one page at a
    time, so that what two pages say of one thing can be compared: key points of pages the
    model labelled in deep-read first, then those with the most substance."""
    chosen: list[Point] = []
    for pair in pairs:
        for p in (pair.a, pair.b):
            if p not in chosen and len(chosen) < limit:
                chosen.append(p)
    drawn = Counter((c.source_id, c.offset) for c in claims)
    labelled = {p.source.source_id for p in points if p.kp.origin == "model"}
    claimed = Counter((c.option, c.dimension or "") for c in claims if c.flag is None)
    queues: dict[tuple[str, str], list[Point]] = {}
    for p in points:
        if p not in chosen:
            queues.setdefault(_cell(p), []).append(p)
    for cell, queue in queues.items():
        turn: Counter[str] = Counter()
        ranked = []
        for n, p in enumerate(queue):
            turn[p.source.source_id] += 1
            by_reader = p.source.source_id not in labelled
            ranked.append((turn[p.source.source_id], by_reader, -_substance(p, drawn), n))
        queues[cell] = [queue[r[-1]] for r in sorted(ranked)]
    order = sorted(queues, key=lambda cell: (claimed[cell], cell))
    while len(chosen) < limit and any(queues.values()):
        for cell in order:
            if queues[cell] and len(chosen) < limit:
                chosen.append(queues[cell].pop(0))
    return chosen


_SUBSTANCE = re.compile(r"\d|\b(?:not|no|never|without|only)\b|不|没有|无", re.I)


def _substance(point: Point, drawn: Counter[tuple[str, int]]) -> int:
    """How much a key point asserts: the reader's claims on it, and any figure, date or
    negation in it."""
    return drawn[point.key] + bool(_SUBSTANCE.search(point.kp.quote))


def _batches(points: list[Point], pairs: list[Pair]) -> list[Batch]:
    """Key points POINTS_PER_CALL at a time, grouped by option and dimension so that those
    that may disagree stand together; a pair goes with the batch that holds both its points
    (the pairs' points come first, so they share one)."""
    batches = [
        Batch(sorted(points[i : i + POINTS_PER_CALL], key=_cell))
        for i in range(0, len(points), POINTS_PER_CALL)
    ]
    for pair in pairs:
        for batch in batches:
            if pair.a in batch.points and pair.b in batch.points:
                batch.pairs.append(pair)
                break
    return batches


def _site(point: Point) -> str:
    return registrable_domain(point.source.url)


def _cell(point: Point) -> tuple[str, str]:
    return point.kp.option or "", point.kp.dimension or ""


def _answer_tokens(batch: Batch) -> int:
    return 100 + 22 * len(batch.points) + 32 * (len(batch.pairs) + EXTRA_PAIRS)


def _message(batch: Batch) -> str:
    """The key points, numbered, then the pairs by those numbers."""
    lines = ["Key points (n | option | dimension | page date | text):"]
    for n, p in enumerate(batch.points, 1):
        date = (p.source.published or "-")[:7]
        option = p.kp.option or "-"
        text = _excerpt(p.kp.quote, option)
        lines.append(f"{n} | {option} | {p.kp.dimension or '-'} | {date} | {text}")
    if batch.pairs:
        lines.append("Pairs (n ~ n):")
        number = {p: n for n, p in enumerate(batch.points, 1)}
        for pair in batch.pairs:
            listed = " listed" if pair.listed else ""
            lines.append(f"{number[pair.a]} ~ {number[pair.b]} ({pair.option}){listed}")
    return "\n".join(lines)


def _excerpt(quote: str, option: str) -> str:
    """The quote on one line, cut to about TEXT_TOKENS around the option's first mention: a
    Chinese character costs about what four Latin ones do, and says about as much."""
    text = " ".join(quote.split())
    if estimate_tokens(text) <= TEXT_TOKENS:
        return text
    start = end = max(0, first_mention(text, option))
    spent = 0.0
    while start > 0 and spent + _cost(text[start - 1]) <= TEXT_TOKENS / 4:
        start -= 1
        spent += _cost(text[start])
    while end < len(text) and spent + _cost(text[end]) <= TEXT_TOKENS:
        spent += _cost(text[end])
        end += 1
    while start > 0 and spent + _cost(text[start - 1]) <= TEXT_TOKENS:
        start -= 1
        spent += _cost(text[start])
    return ("…" if start else "") + text[start:end] + ("…" if end < len(text) else "")


def _cost(char: str) -> float:
    return 1.0 if has_cjk(char) else 0.25


# --- merging --------------------------------------------------------------------------------


def _reader_claims(claims: list[Claim], point: Point, option: str, attribute: str) -> list[Claim]:
    return [
        c
        for c in claims
        if (c.source_id, c.offset, c.option) == (*point.key, option)
        and c.flag is None
        and (c.attribute == attribute or c.attribute.startswith(f"{attribute} "))
    ]


def _claim(
    point: Point,
    option: str,
    dimension: str | None,
    attribute: str,
    value: str,
    polarity: int,
    flag: str | None,
) -> Claim:
    return Claim(
        id="c000",  # numbered once merged with the reader's
        option=option,
        dimension=dimension,
        attribute=attribute,
        kind="stance" if attribute == "stance" else "fact",
        value=value,
        polarity=polarity,
        source_id=point.source.source_id,
        quote=point.kp.quote,
        offset=point.kp.offset,
        origin="model",
        flag=flag,
    )


# --- contradiction sides --------------------------------------------------------------------


def _listing(found: list[Contradiction], claims: list[Claim], pair: Pair) -> Contradiction | None:
    """The contradiction already listed with both of the pair's key points among its sides."""
    by_id = {c.id: c for c in claims}
    wanted = {pair.a.key, pair.b.key}
    for c in found:
        if c.option != pair.option:
            continue
        sides = [c.a, c.b, *c.a_also, *c.b_also]
        keys = {(s.source_id, by_id[s.claim_id].offset) for s in sides if s.claim_id in by_id}
        if wanted <= keys:
            return c
    return None


def _side(
    point: Point, option: str, dimension: str | None, about: str, claims: list[Claim]
) -> Claim:
    return side_claim(
        point.source.source_id, point.kp.offset, option, dimension, point.kp.quote, about, claims
    )


def _side_of(claim: Claim) -> ContradictionSide:
    return ContradictionSide(claim_id=claim.id, source_id=claim.source_id, quote=claim.quote)


def _joined(found: list[Contradiction], pair: Pair, a: Claim, b: Claim) -> bool:
    """A model-found disagreement sharing a side with one already found by the model joins
    it: one page against three is one contradiction with three on a side."""
    for c in found:
        if c.judged_by != "model" or c.option != pair.option:
            continue
        for mine, other in ((a, b), (b, a)):
            ids = {c.a.claim_id: "a", c.b.claim_id: "b"}
            if mine.id not in ids:
                continue
            against = "b" if ids[mine.id] == "a" else "a"
            joining = c.b_also if against == "b" else c.a_also
            present = [getattr(c, against), *joining]
            if all(s.source_id != other.source_id for s in present) and len(joining) < ALSO:
                joining.append(_side_of(other))
            return True
    return False


def _cut(text: str, limit: int) -> str:
    text = " ".join(text.split()).rstrip(".")
    return text if len(text) <= limit else text[: limit - 1] + "…"
