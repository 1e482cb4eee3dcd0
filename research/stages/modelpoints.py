"""Deep-read key points with a model: which of the reader's sentences matter, and what each
is about.

The model never sees a whole page (8 pages of 12,000 characters would be ~24k tokens), nor
every page read: at most MODEL_PAGES of them, PAGES_PER_CALL to a call, however many the
limits let the reader read (pages_for_model picks them). The deterministic reader scores
every sentence of a page anyway; its best ones (a wider net than its own cut, table rows
aside), trimmed, up to PAGE_CHARS a page, go to the model numbered. The model answers by
number with the option, dimension and polarity of the sentences worth keeping, so its key
points quote the stored text exactly, by construction.

Per page the result is the model's points plus the reader's points the model did not take
that the reader is sure of: table rows and pros/cons items, and sentences with a typed fact
(licence, version, date, figure), so a typed fact is never lost to the model's choice. A page
the model gave no usable answer for, or was not sent, keeps the reader's key points.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from pydantic import BaseModel

from research.artifacts import KeyPoint, Plan, SourceNotes
from research.context import StageContext
from research.llm import StageLLM
from research.reading import MIN_SCORE, Scored, best_points, extract, mentions

WIDER_NET = MIN_SCORE - 1  # also show the model sentences the rules fall just short on
CANDIDATES = 10  # the most sentences of a page shown to the model
SENTENCE_CHARS = 160  # of each sentence shown
PAGE_CHARS = 1_000  # of all a page's sentences shown: long sentences make fewer of them
TITLE_CHARS = 80
PAGES_PER_CALL = 4
MODEL_PAGES = 2 * PAGES_PER_CALL  # the most pages the model labels in a run
MODEL_POINTS = 6  # the most key points the model picks on one page
# The answer's cap per page in a call: room for pretty-printed JSON, which local models write.
ANSWER_TOKENS_PER_PAGE = 16 + 32 * MODEL_POINTS
TASK = "deepread"  # names the calls in the log and picks the model (LLM_MODEL_DEEPREAD)


class PickedPoint(BaseModel):
    i: int
    option: str
    dimension: str | None
    polarity: int


class PagePicks(BaseModel):
    id: str
    points: list[PickedPoint]


class Picks(BaseModel):
    pages: list[PagePicks]


@dataclass
class PageReading:
    """One stored page as the reader scored it."""

    notes: SourceNotes
    scored: list[Scored]  # every sentence and table row scoring WIDER_NET or more
    aliases: dict[str, tuple[str, ...]]

    @cached_property
    def candidates(self) -> list[tuple[Scored, str]]:
        """The sentences shown to the model, each as shown, in page order: the best-scored
        ones that fit in PAGE_CHARS. Table rows are left out: their column already says
        what they are about."""
        shown: list[tuple[Scored, str]] = []
        room = PAGE_CHARS
        for scored in sorted(self.scored, key=lambda s: (-s.score, s.at)):
            line = "" if scored.table else self._shown(scored.point)
            if line and len(line) <= room:
                shown.append((scored, line))
                room -= len(line)
            if len(shown) == CANDIDATES:
                break
        return sorted(shown, key=lambda c: c[0].at)

    @cached_property
    def cells(self) -> set[tuple[str, str]]:
        """The option x dimension pairs the reader takes the shown sentences to be about."""
        return {
            (s.point.option, s.point.dimension)
            for s, _ in self.candidates
            if s.point.option and s.point.dimension
        }

    def _shown(self, point: KeyPoint) -> str:
        """The sentence trimmed, with "(X)" before it when the reader took it to be about X
        though it does not name X itself ("It is Apache-2.0")."""
        option = point.option or ""
        named = option and mentions(point.text, option, self.aliases.get(option, ()))
        tag = "" if named or not option else f"({option}) "
        return tag + _cut(point.text, SENTENCE_CHARS)


@dataclass
class Tally:
    """What the model changed, for the stage's summary in the log."""

    model_points: int = 0
    reader_points: int = 0
    dropped: int = 0
    pages_by_model: int = 0
    pages_by_reader: int = 0


def model_key_points(
    plan: Plan, readings: list[PageReading], llm: StageLLM, ctx: StageContext, limit: int
) -> None:
    """Replace the key points of the pages_for_model with the model's choice where it gave a
    usable one; every other page keeps the reader's."""
    asked = pages_for_model(readings)
    if not asked:
        return
    batches = [asked[i : i + PAGES_PER_CALL] for i in range(0, len(asked), PAGES_PER_CALL)]
    dimensions = [d.name for d in plan.dimensions]
    answers = llm.ask_batches(
        batches,
        prompt="deep_read",
        task=TASK,
        schema=Picks,
        user=pages_message,
        max_tokens=lambda batch: 16 + ANSWER_TOKENS_PER_PAGE * len(batch),
        fallback="the reader's key points for these pages",
        question=plan.question,
        options=plan.options,
        dimensions=dimensions,
        per_page=MODEL_POINTS,
    )
    tally = Tally(pages_by_reader=len(readings) - len(asked))
    unjudged: list[str] = []
    for batch, answer in answers:
        picks = _picks_by_page(batch, answer.value, llm, ctx) if answer.value is not None else {}
        for reading in batch:
            chosen = picks.get(reading.notes.source_id)
            points = None
            if chosen is not None:
                points = _page_points(plan, reading, chosen, limit, llm, ctx, tally)
            if points is None:
                tally.pages_by_reader += 1
                unjudged.append(reading.notes.source_id)
                continue
            reading.notes.key_points = points
            tally.pages_by_model += 1
    if unjudged:
        ctx.record(
            "llm_unjudged",
            stage=llm.stage,
            task=TASK,
            ids=unjudged,
            fallback="the reader's key points",
        )
    ctx.record(
        "key_points_by_model",
        pages_sent=len(asked),
        pages_by_model=tally.pages_by_model,
        pages_by_reader=tally.pages_by_reader,
        model_points=tally.model_points,
        reader_points=tally.reader_points,
        dropped=tally.dropped,
    )


def pages_for_model(readings: list[PageReading]) -> list[PageReading]:
    """The MODEL_PAGES pages whose sentences cover the most option x dimension pairs of the
    plan between them, in page order: each in turn the page that adds the most pairs not yet
    covered, the better-filtered page first on a tie (`readings` are in the filter's order)
    and once every pair is covered. So the model's labels reach every cell the reader found
    evidence for, rather than the one option or dimension the best-scored pages dwell on,
    which cross-validate and decide then compare across sites. A page with no sentence to
    show is never sent."""
    left = [r for r in readings if r.candidates]
    chosen: list[PageReading] = []
    covered: set[tuple[str, str]] = set()
    while left and len(chosen) < MODEL_PAGES:
        best = max(left, key=lambda r: (len(r.cells - covered), -left.index(r)))
        chosen.append(best)
        covered |= best.cells
        left.remove(best)
    taken = {id(r) for r in chosen}
    return [r for r in readings if id(r) in taken]


def pages_message(batch: list[PageReading]) -> str:
    """The pages as the model reads them: id and title, then the numbered sentences."""
    blocks = []
    for reading in batch:
        notes = reading.notes
        title = " ".join((notes.title or notes.url).split())
        lines = [f"Page {notes.source_id}: {_cut(title, TITLE_CHARS)}"]
        lines += [f"{n}. {line}" for n, (_, line) in enumerate(reading.candidates, start=1)]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def _picks_by_page(
    batch: list[PageReading], picks: Picks, llm: StageLLM, ctx: StageContext
) -> dict[str, PagePicks]:
    ids = {r.notes.source_id for r in batch}
    by_page: dict[str, PagePicks] = {}
    for page in picks.pages:
        if page.id in ids and page.id not in by_page:
            by_page[page.id] = page
        elif page.id not in ids:
            _dropped(ctx, llm, page.id, None, "no page with this id was in the message")
    return by_page


def _page_points(
    plan: Plan,
    reading: PageReading,
    chosen: PagePicks,
    limit: int,
    llm: StageLLM,
    ctx: StageContext,
    tally: Tally,
) -> list[KeyPoint] | None:
    """The page's key points from the model's picks, or None when every pick was unusable
    (the page then keeps the reader's)."""
    source_id = reading.notes.source_id
    candidates = reading.candidates
    options = {o.casefold(): o for o in plan.options}
    dimensions = {d.name.casefold(): d.name for d in plan.dimensions}
    picked: dict[int, KeyPoint] = {}
    for pick in chosen.points:
        problem = _problem(pick, len(candidates), options, dimensions, picked)
        if problem is None and len(picked) >= MODEL_POINTS:
            problem = f"more than {MODEL_POINTS} points for one page"
        if problem is not None:
            _dropped(ctx, llm, source_id, pick.i, problem)
            tally.dropped += 1
            continue
        point = candidates[pick.i - 1][0].point
        dimension = _name(pick.dimension or "")
        picked[pick.i] = point.model_copy(
            update={
                "option": options[_name(pick.option)],
                "dimension": dimensions[dimension] if dimension else None,
                "polarity": pick.polarity,
                "origin": "model",
            }
        )
    if chosen.points and not picked:
        return None
    taken = {p.offset for p in picked.values()}
    dims = list(dimensions.values())
    sure = [
        s
        for s in reading.scored
        if s.point.offset not in taken and (s.table or _has_typed_fact(s.point, dims, plan))
    ]
    reader = best_points(sure, max(0, limit - len(picked)))
    tally.model_points += len(picked)
    tally.reader_points += len(reader)
    return sorted([*picked.values(), *reader], key=lambda p: p.offset)


def _problem(
    pick: PickedPoint,
    count: int,
    options: dict[str, str],
    dimensions: dict[str, str],
    picked: dict[int, KeyPoint],
) -> str | None:
    if not 1 <= pick.i <= count:
        return f"sentence {pick.i} is not one of the {count} numbered sentences"
    if pick.i in picked:
        return f"sentence {pick.i} was picked twice"
    if _name(pick.option) not in options:
        return f"{pick.option!r} is not one of the plan's options"
    if _name(pick.dimension or "") and _name(pick.dimension or "") not in dimensions:
        return f"{pick.dimension!r} is not one of the plan's dimensions"
    if pick.polarity not in (-1, 0, 1):
        return f"polarity {pick.polarity} is not -1, 0 or 1"
    return None


def _name(said: str) -> str:
    """An option or dimension as the model spelled it, in the form the plan's are looked up
    by: case and whitespace (a non-breaking or full-width space, a trailing newline) aside,
    as in the other stages."""
    return " ".join(said.split()).casefold()


def _has_typed_fact(point: KeyPoint, dimensions: list[str], plan: Plan) -> bool:
    facts = extract(point.quote, dimensions, point.dimension, options=plan.options)
    return any(f.kind == "fact" for f in facts)


def _dropped(ctx: StageContext, llm: StageLLM, source_id: str, i: int | None, reason: str) -> None:
    ctx.record(
        "llm_point_dropped", stage=llm.stage, task=TASK, source_id=source_id, i=i, reason=reason
    )


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
