"""Deep-read with a model: the model reads every sentence of every page read that names or
refers to an option (DESIGN section 2, "Reading").

The reader finds the sentences (with a model its net takes every sentence it can tie to an
option: WIDER_NET) and says which option each is about; the model is sent them all,
numbered, page by page, shared among calls that are all in flight at once (batches_of). It
answers by number with what each sentence judges: option, dimension, polarity and how sure
it is. A sentence it leaves out judges nothing. So its key points quote the stored text
exactly, by construction.

Per page the key points are then the model's readings (one per option and dimension a
sentence judges), and the reader's best other sentences up to the page's limit: the model
read those too, found no judgement in them, and they carry polarity 0 so that the rules
draw only their typed facts (licence, version, date, figure) in cross-validate, never a
stance. Sentences the model could not read (a failed call, or more than the run's token
budget pays for, after what later stages need) keep the reader's key points, origin
"reader", and the log says which (`llm_unread`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

from pydantic import BaseModel

from research.artifacts import KeyPoint, Plan, SourceNotes
from research.context import StageContext
from research.llm import StageLLM, render_prompt
from research.llm.budget import estimate_tokens
from research.reading import Scored, best_points, mentions

# The least a sentence scores when it names or refers to an option: all of them, with a model.
WIDER_NET = 1
SENTENCE_CHARS = 240  # of each sentence shown
TITLE_CHARS = 80
# Sentences to a call: the run's sentences shared among the calls in flight at once
# (LLM_CONCURRENCY), so they all go in one round trip, within these bounds: the system
# prompt is paid once a call, and a long answer is a slow one.
MIN_PER_CALL = 30
MAX_PER_CALL = 120
READINGS_PER_SENTENCE = 3  # option x dimension cells one sentence may judge
# The answer's cap: a reading is about 25 tokens, and most sentences judge nothing.
ANSWER_TOKENS = 60
ANSWER_TOKENS_PER_SENTENCE = 10
# Kept from the budget for the stages after deep-read (cross-validate's pairs, decide).
LATER_STAGES_TOKENS = 5_000
TASK = "deepread"  # names the calls in the log and picks the model (LLM_MODEL_DEEPREAD)


class SentenceReading(BaseModel):
    n: int
    option: str
    dimension: str | None
    polarity: int
    confidence: float = 1.0


class Readings(BaseModel):
    readings: list[SentenceReading] = []


@dataclass
class PageReading:
    """One stored page as the reader scored it."""

    notes: SourceNotes
    scored: list[Scored]  # every sentence and table row about an option
    aliases: dict[str, tuple[str, ...]]

    @cached_property
    def sentences(self) -> list[tuple[Scored, str]]:
        """Every sentence (and table row) about an option, each as shown, in page order."""
        return [(s, self._shown(s.point)) for s in sorted(self.scored, key=lambda s: s.at)]

    def _shown(self, point: KeyPoint) -> str:
        """The sentence on one line, with "(X)" before it when the reader took it to be
        about X though it does not name X itself ("It is Apache-2.0")."""
        option = point.option or ""
        named = option and mentions(point.text, option, self.aliases.get(option, ()))
        tag = "" if named or not option else f"({option}) "
        return tag + _cut(" ".join(point.text.split()), SENTENCE_CHARS)


@dataclass(frozen=True, eq=False)
class Sentence:
    page: PageReading
    scored: Scored
    line: str


@dataclass
class Batch:
    sentences: list[Sentence] = field(default_factory=list)


@dataclass
class Tally:
    """What the model read, for the stage's summary in the log."""

    sent: int = 0
    read: int = 0
    unread: int = 0
    readings: int = 0
    dropped: int = 0
    unread_pages: dict[str, str] = field(default_factory=dict)  # source id -> why


def model_key_points(
    plan: Plan, readings: list[PageReading], llm: StageLLM, ctx: StageContext, limit: int
) -> None:
    """The model reads every sentence about an option of every page it can pay for; each
    page's key points become its readings (see the module's docstring)."""
    every = [Sentence(r, s, line) for r in readings for s, line in r.sentences]
    if not every:
        return
    dimensions = [d.name for d in plan.dimensions]
    context = {"question": plan.question, "options": plan.options, "dimensions": dimensions}
    system = render_prompt("deep_read", stage=llm.stage, run_id=llm.run_id, **context)
    batches, left = affordable(batches_of(every, llm.config.concurrency), system, llm)
    tally = Tally(sent=sum(len(b.sentences) for b in batches))
    for s in left:
        tally.unread_pages.setdefault(
            s.page.notes.source_id, "more than the run's token budget (LLM_MAX_TOKENS_PER_RUN)"
        )
    answers = llm.ask_batches(
        batches,
        prompt="deep_read",
        task=TASK,
        schema=Readings,
        user=message,
        max_tokens=answer_tokens,
        fallback="the reader's key points for these sentences",
        **context,
    )
    read: dict[int, list[KeyPoint]] = {}  # id(Scored) -> the model's readings of it
    for batch, answer in answers:
        if answer.value is None:
            for s in batch.sentences:
                tally.unread_pages.setdefault(s.page.notes.source_id, answer.reason or "no answer")
            continue
        taken = _readings(plan, batch, answer.value, llm, ctx, tally)
        for s in batch.sentences:
            read[id(s.scored)] = taken.get(id(s), [])
    tally.read = len(read)
    tally.unread = len(every) - tally.read
    for reading in readings:
        reading.notes.key_points = _page_points(reading, read, limit)
    _summary(readings, read, llm, ctx, tally)


def batches_of(sentences: list[Sentence], in_flight: int) -> list[Batch]:
    size = min(MAX_PER_CALL, max(MIN_PER_CALL, math.ceil(len(sentences) / max(1, in_flight))))
    return [Batch(sentences[i : i + size]) for i in range(0, len(sentences), size)]


def affordable(
    batches: list[Batch], system: str, llm: StageLLM
) -> tuple[list[Batch], list[Sentence]]:
    """The batches the run's budget pays for, in page order (the filter's best pages
    first), leaving LATER_STAGES_TOKENS for the stages after this one; and the sentences
    of the others."""
    budget = llm.budget
    room = budget.limit - budget.spent - LATER_STAGES_TOKENS
    system_tokens = estimate_tokens(system)
    kept: list[Batch] = []
    left: list[Sentence] = []
    for batch in batches:
        # What a call may spend at most: its prompt and its answer's cap.
        cost = system_tokens + estimate_tokens(message(batch)) + answer_tokens(batch)
        if not left and cost <= room:
            kept.append(batch)
            room -= cost
        else:
            left += batch.sentences
    return kept, left


def answer_tokens(batch: Batch) -> int:
    return ANSWER_TOKENS + ANSWER_TOKENS_PER_SENTENCE * len(batch.sentences)


def message(batch: Batch) -> str:
    """The sentences, numbered across the batch, under the id and title of their page."""
    lines: list[str] = []
    page = None
    for n, s in enumerate(batch.sentences, start=1):
        if s.page is not page:
            page = s.page
            notes = page.notes
            title = " ".join((notes.title or notes.url).split())
            heading = f"Page {notes.source_id}: {_cut(title, TITLE_CHARS)}"
            lines += ["", heading] if lines else [heading]
        lines.append(f"{n}. {s.line}")
    return "\n".join(lines)


def _readings(
    plan: Plan,
    batch: Batch,
    answer: Readings,
    llm: StageLLM,
    ctx: StageContext,
    tally: Tally,
) -> dict[int, list[KeyPoint]]:
    """The model's usable readings, by id of the Sentence; the others dropped and logged."""
    options = {_name(o): o for o in plan.options}
    dimensions = {_name(d.name): d.name for d in plan.dimensions}
    taken: dict[int, list[KeyPoint]] = {}
    seen: set[tuple[int, str, str | None]] = set()
    for r in answer.readings:
        problem = _problem(r, len(batch.sentences), options, dimensions)
        sentence = batch.sentences[r.n - 1] if problem is None else None
        if sentence is not None:
            option = options[_name(r.option)]
            dimension = dimensions.get(_name(r.dimension or ""))
            mine = taken.setdefault(id(sentence), [])
            if (r.n, option, dimension) in seen:
                problem = f"sentence {r.n} was read twice for {option}"
            elif len(mine) >= READINGS_PER_SENTENCE:
                problem = f"more than {READINGS_PER_SENTENCE} readings of sentence {r.n}"
        if problem is not None:
            _dropped(ctx, llm, batch, r, problem)
            tally.dropped += 1
            continue
        seen.add((r.n, option, dimension))
        if not r.polarity or dimension is None:
            continue  # read, and judges nothing
        mine.append(
            sentence.scored.point.model_copy(
                update={
                    "option": option,
                    "dimension": dimension,
                    "polarity": r.polarity,
                    "confidence": round(min(1.0, max(0.0, r.confidence)), 2),
                    "origin": "model",
                }
            )
        )
        tally.readings += 1
    return taken


def _problem(
    r: SentenceReading, count: int, options: dict[str, str], dimensions: dict[str, str]
) -> str | None:
    if not 1 <= r.n <= count:
        return f"sentence {r.n} is not one of the {count} numbered sentences"
    if _name(r.option) not in options:
        return f"{r.option!r} is not one of the plan's options"
    if _name(r.dimension or "") and _name(r.dimension or "") not in dimensions:
        return f"{r.dimension!r} is not one of the plan's dimensions"
    if r.polarity not in (-1, 0, 1):
        return f"polarity {r.polarity} is not -1, 0 or 1"
    return None


def _page_points(
    reading: PageReading, read: dict[int, list[KeyPoint]], limit: int
) -> list[KeyPoint]:
    """The model's readings of the page, then its other best sentences up to `limit`: those
    the model read (and found no judgement in) marked as the model's with polarity 0, those
    it did not read left as the reader's."""
    judged = [kp for s in reading.scored for kp in read.get(id(s), [])]
    taken = {kp.offset for kp in judged}
    others = [s for s in reading.scored if s.point.offset not in taken]
    by_offset = {s.point.offset: s for s in others}
    rest = []
    for kp in best_points(others, max(0, limit - len(judged))):
        scored = by_offset[kp.offset]
        if id(scored) in read:
            kp = kp.model_copy(update={"polarity": 0, "origin": "model", "header": None})
        rest.append(kp)
    return sorted([*judged, *rest], key=lambda p: p.offset)


def _summary(
    readings: list[PageReading],
    read: dict[int, list[KeyPoint]],
    llm: StageLLM,
    ctx: StageContext,
    tally: Tally,
) -> None:
    if tally.unread_pages:
        unread = {
            r.notes.source_id: sum(id(s) not in read for s, _ in r.sentences)
            for r in readings
            if r.notes.source_id in tally.unread_pages
        }
        ctx.record(
            "llm_unread",
            stage=llm.stage,
            task=TASK,
            sentences=unread,
            reasons=tally.unread_pages,
            fallback="the reader's key points and readings for these sentences",
        )
        if llm.store is not None:
            llm.store.update_analysis(
                unread_by_model={"stage": llm.stage, "sentences": tally.unread, "pages": unread}
            )
    ctx.record(
        "key_points_by_model",
        sentences=tally.read + tally.unread,
        sentences_sent=tally.sent,
        sentences_read=tally.read,
        sentences_unread=tally.unread,
        readings=tally.readings,
        dropped=tally.dropped,
    )


def _dropped(ctx: StageContext, llm: StageLLM, batch: Batch, r: SentenceReading, why: str) -> None:
    inside = 1 <= r.n <= len(batch.sentences)
    source_id = batch.sentences[r.n - 1].page.notes.source_id if inside else None
    ctx.record(
        "llm_point_dropped",
        stage=llm.stage,
        task=TASK,
        source_id=source_id,
        i=r.n,
        reason=why,
    )


def _name(said: str) -> str:
    """An option or dimension as the model spelled it, in the form the plan's are looked up
    by: case and whitespace (a non-breaking or full-width space, a trailing newline) aside,
    as in the other stages."""
    return " ".join(said.split()).casefold()


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
