"""Cross-validate with a model: it reads the key points the deterministic reader read, and
judges the sentence pairs the reader's contradiction finder could not settle.

The model never sees whole pages, and never retypes a quote. One message (a few, when the
notes are long) numbers the chosen key points, each cut to TEXT_CHARS around its option,
and lists up to MAX_PAIRS pairs of them by number; the model answers with numbers, and
every claim and every side of a contradiction it yields carries the key point's own stored
quote and offset.

Which key points, within MAX_POINTS: first those in the pairs, then those the reader drew
nothing from in the option and dimension it knows least about (where the model can fill a
gap), then those it read a stance from (where the model cross-checks it). Which pairs: the
strongest few the reader already calls contradictions (CONFIRM), then its near misses
(research.stages.conflicts.near_conflicts): the same option and point in other words,
brand names, loose dates.

The reader stays the cross-check: a stance the model reads from a quote that the reader
reads the other way, or a typed value it reads differently, is kept with a `flag` and is
neither counted nor weighed. Everything the model leaves out, and every call that fails,
leaves the reader's result as it was.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from pydantic import BaseModel

from research.artifacts import Claim, Contradiction, ContradictionSide, KeyPoint, Plan, SourceNotes
from research.llm import Answer, Ask, StageLLM, render_prompt
from research.stages.claims import (
    compare,
    dimension_for,
    licence_fact,
    maintenance_fact,
    normalise_version,
    scope_of,
    stance_polarity,
)
from research.stages.conflicts import ALSO, Conflict, Statement, near_conflicts, option_segments
from research.stages.context import StageContext
from research.stages.crosscheck import CHANGE, not_the_projects, side_claim, source_facts
from research.stages.text import first_mention

TEXT_CHARS = 150  # of each key point's quote, around its option
MAX_POINTS = 24  # key points sent in the whole stage
MAX_PAIRS = 12  # pairs judged in the whole stage
CONFIRM = 4  # of them, contradictions the reader found, for the model to confirm
POINTS_PER_CALL = 24  # a call's share; the system prompt is paid once per call
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
    pair: int
    contradicts: bool
    point: str
    cause: str
    note: str


class Reading(BaseModel):
    stances: list[ModelStance]
    facts: list[ModelFact]
    pairs: list[PairVerdict]


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
        chosen = _chosen_points(claims, every, pairs)
        pairs = [p for p in pairs if p.a in chosen and p.b in chosen]
        batches = _batches(chosen, pairs)
        if not batches:
            return claims
        answers = self.llm.ask_all([self._ask(b) for b in batches])
        model: list[Claim] = []
        answered: set[tuple[str, int]] = set()
        for batch, answer in zip(batches, answers, strict=True):
            if answer.value is None:
                continue
            answered.update(p.key for p in batch.points)
            model += self._stances(batch, answer.value.stances, claims)
            model += self._facts(batch, answer.value.facts, claims)
            self.verdicts += self._verdicts(batch, answer.value.pairs)
        self._summary(batches, answers, model)
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

    def _ask(self, batch: Batch) -> Ask[Reading]:
        return Ask(
            task="crosscheck",
            schema=Reading,
            system=render_prompt(
                "cross_validate",
                stage=self.llm.stage,
                run_id=self.llm.run_id,
                question=self.plan.question,
                options=self.plan.options,
                dimensions=[d.name for d in self.plan.dimensions],
            ),
            user=_message(batch),
            max_tokens=120 + 28 * len(batch.points) + 40 * len(batch.pairs),
            fallback="the reader's claims and contradictions for these key points",
        )

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
            mine = _reader_claims(claims, point, option, "stance")
            if any(c.polarity == s.polarity for c in mine):
                continue  # the reader reads it so too: its claim stands for both
            read = mine[0].polarity if mine else self._reader_polarity(point, option)
            flag = None
            if read == -s.polarity:
                flag = f"the stored text reads the other way: {self._cue(point, option, read)}"
                self.ctx.record(
                    "llm_claim_flagged",
                    stage=self.llm.stage,
                    source_id=point.source.source_id,
                    quote=point.kp.quote,
                    option=option,
                    model=s.polarity,
                    reader=read,
                    flag=flag,
                )
            made.append(
                _claim(
                    point, option, dimension, "stance", "stance", _tone(s.polarity), s.polarity
                ).model_copy(update={"flag": flag})
            )
        return made

    def _facts(self, batch: Batch, facts: list[ModelFact], claims: list[Claim]) -> list[Claim]:
        made: list[Claim] = []
        dims = [d.name for d in self.plan.dimensions]
        for f in facts:
            point, option, _ = self._named(batch, f.kp, f.option, None, f)
            if point is None or option is None:
                continue
            attribute = " ".join(f.attribute.split()).lower()
            typed = _typed(attribute, f.value)
            if typed is None:
                self._dropped(f, f"{f.attribute!r} = {f.value!r} is not a value Verdict compares")
                continue
            attribute, value, polarity = typed
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
                self.ctx.record(
                    "llm_claim_flagged",
                    stage=self.llm.stage,
                    source_id=point.source.source_id,
                    quote=point.kp.quote,
                    option=option,
                    model=value,
                    reader=mine[0].value,
                    flag=flag,
                )
            dimension = dimension_for(attribute, dims) or point.kp.dimension
            claim = _claim(point, option, dimension, attribute, "fact", value, polarity)
            made.append(claim.model_copy(update={"flag": flag}))
        return made

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

    def _reader_polarity(self, point: Point, option: str) -> int:
        return _read(point.kp.quote, option, point.kp, self.plan.options)

    def _cue(self, point: Point, option: str, polarity: int) -> str:
        """What in the quote the reader reads `polarity` from, in plain words."""
        kp = point.kp
        if kp.header and kp.polarity == polarity and option == kp.option:
            return f"it is listed under “{kp.header}”"
        words = _cue_words(kp.quote, option, kp, self.plan.options, polarity)
        tone = "good" if polarity > 0 else "bad"
        if words:
            said = ", ".join(f"“{w}”" for w in words)
            return f"{said} reads as {tone} for {option}"
        return f"the reader reads it as {tone} for {option}"

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
        judged: list[tuple[Pair, PairVerdict]] = []
        seen: set[int] = set()
        for v in verdicts:
            if not 1 <= v.pair <= len(batch.pairs) or v.pair in seen:
                self.ctx.record(
                    "llm_verdict_dropped",
                    stage=self.llm.stage,
                    verdict=v.model_dump(),
                    reason=f"pair {v.pair} was not in the message, or was judged twice",
                )
                continue
            seen.add(v.pair)
            judged.append((batch.pairs[v.pair - 1], v))
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
                self._settle(listed, pair, verdict)
            elif verdict.contradicts:
                self._add(found, claims, pair, verdict)
        return found

    def _settle(self, listed: Contradiction, pair: Pair, verdict: PairVerdict) -> None:
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
        sites = [source_facts(p.source, self.plan.options).site for p in (pair.a, pair.b)]
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


def _chosen_points(claims: list[Claim], points: list[Point], pairs: list[Pair]) -> list[Point]:
    """The pairs' key points, then the others: those the reader drew nothing from first, in
    the option and dimension it has fewest claims on, taking turns between pages."""
    chosen: list[Point] = []
    for pair in pairs:
        for p in (pair.a, pair.b):
            if p not in chosen and len(chosen) < MAX_POINTS:
                chosen.append(p)
    drawn = {(c.source_id, c.offset) for c in claims}
    cells = Counter((c.option, c.dimension) for c in claims if c.flag is None)
    turn: Counter[str] = Counter()
    ranked = []
    for n, p in enumerate(points):
        turn[p.source.source_id] += 1
        ranked.append(
            (p.key in drawn, cells[(p.kp.option, p.kp.dimension)], turn[p.source.source_id], n, p)
        )
    for *_, p in sorted(ranked, key=lambda r: r[:4]):
        if len(chosen) >= MAX_POINTS:
            break
        if p not in chosen:
            chosen.append(p)
    return chosen


def _batches(points: list[Point], pairs: list[Pair]) -> list[Batch]:
    """Key points POINTS_PER_CALL at a time; a pair goes with the batch that holds both its
    points (the pairs' points come first, so they share one)."""
    batches = [
        Batch(points[i : i + POINTS_PER_CALL]) for i in range(0, len(points), POINTS_PER_CALL)
    ]
    for pair in pairs:
        for batch in batches:
            if pair.a in batch.points and pair.b in batch.points:
                batch.pairs.append(pair)
                break
    return batches


def _message(batch: Batch) -> str:
    lines = ["Key points (n | option | dimension | page date | text):"]
    for n, p in enumerate(batch.points, 1):
        date = (p.source.published or "-")[:7]
        option = p.kp.option or "-"
        text = _excerpt(p.kp.quote, option)
        lines.append(f"{n} | {option} | {p.kp.dimension or '-'} | {date} | {text}")
    if batch.pairs:
        lines.append("Pairs (P: n ~ n):")
        number = {p: n for n, p in enumerate(batch.points, 1)}
        for n, pair in enumerate(batch.pairs, 1):
            listed = " listed" if pair.listed else ""
            lines.append(f"{n}: {number[pair.a]} ~ {number[pair.b]} ({pair.option}){listed}")
    return "\n".join(lines)


def _excerpt(quote: str, option: str) -> str:
    """The quote cut to TEXT_CHARS around the option's first mention, on one line."""
    text = " ".join(quote.split())
    if len(text) <= TEXT_CHARS:
        return text
    at = max(0, first_mention(text, option))
    start = max(0, min(at - TEXT_CHARS // 4, len(text) - TEXT_CHARS))
    end = start + TEXT_CHARS
    return ("…" if start else "") + text[start:end] + ("…" if end < len(text) else "")


# --- merging --------------------------------------------------------------------------------


def _reader_claims(claims: list[Claim], point: Point, option: str, attribute: str) -> list[Claim]:
    return [
        c
        for c in claims
        if (c.source_id, c.offset, c.option) == (*point.key, option)
        and c.flag is None
        and (c.attribute == attribute or c.attribute.startswith(f"{attribute} "))
    ]


def _read(text: str, option: str, kp: KeyPoint, options: list[str]) -> int:
    """How the deterministic reader judges `option` in `text`: a comparison's ranking, the
    verdict of the table column or list the point sits in, or the tone of the clause about
    the option (0: no judgement, or a sentence about another option)."""
    ranked = compare(text, options)
    if ranked:
        return ranked.get(option, 0)
    if kp.polarity and option == kp.option:
        return kp.polarity
    segments = option_segments(text, options)
    clause = segments.get(option) or (text if not segments and option == kp.option else "")
    return stance_polarity(clause, options) if clause else 0


_WORD = re.compile(r"[A-Za-z][\w'-]*|[\u4e00-\u9fff]{2}")


def _cue_words(
    quote: str, option: str, kp: KeyPoint, options: list[str], polarity: int
) -> list[str]:
    """The words whose removal stops the reader reading `polarity`: its cue."""
    found = []
    for match in _WORD.finditer(quote):
        blanked = quote[: match.start()] + " " * len(match.group(0)) + quote[match.end() :]
        if _read(blanked, option, kp, options) != polarity and match.group(0) not in found:
            found.append(match.group(0))
    return found[:3]


def _claim(
    point: Point,
    option: str,
    dimension: str | None,
    attribute: str,
    kind: str,
    value: str,
    polarity: int,
) -> Claim:
    return Claim(
        id="c000",  # numbered once merged with the reader's
        option=option,
        dimension=dimension,
        attribute=attribute,
        kind=kind,  # type: ignore[arg-type]
        value=value,
        polarity=polarity,
        source_id=point.source.source_id,
        quote=point.kp.quote,
        offset=point.kp.offset,
        origin="model",
    )


def _tone(polarity: int) -> str:
    return "positive" if polarity > 0 else "negative"


_DATE = re.compile(r"\d{4}(?:-\d{2}(?:-\d{2})?)?")
_VERSION = re.compile(r"v?(\d+(?:\.\d+){0,3})")
_RELEASE = re.compile(r"release_date(?:\s+v?(\d+(?:\.\d+){0,3}))?")


def _typed(attribute: str, value: str) -> tuple[str, str, int] | None:
    """The model's typed value in the reader's own form ("MIT License" -> MIT), or None
    when it is not one Verdict compares."""
    value = " ".join(value.split())
    if attribute == "licence":
        fact = licence_fact(value)
        return (attribute, fact.value, fact.polarity) if fact else None
    if attribute == "maintenance":
        fact = maintenance_fact(value) if value.lower() not in ("active", "inactive") else None
        state = fact.value if fact else value.lower()
        return (
            (attribute, state, 1 if state == "active" else -1)
            if state in ("active", "inactive")
            else None
        )
    if attribute == "latest_version":
        match = _VERSION.fullmatch(value)
        return (attribute, normalise_version(match.group(1)), 0) if match else None
    release = _RELEASE.fullmatch(attribute)
    if release and _DATE.fullmatch(value):
        name = f"release_date {release.group(1)}" if release.group(1) else "release_date"
        return name, value, 0
    return None


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
