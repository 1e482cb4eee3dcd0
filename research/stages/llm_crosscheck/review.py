"""ModelReview, the Reviewer (research.stages.crosscheck) that asks the model: the claims it
reads from the key points, merged with the reader's, and its verdicts on the pairs
(research.stages.llm_crosscheck.contradictions)."""

from __future__ import annotations

from pydantic import BaseModel

from research.artifacts import Claim, KeyPoint, Plan, SourceNotes
from research.context import StageContext
from research.llm import Answer, StageLLM
from research.reading import (
    THRESHOLD,
    Conflict,
    Statement,
    dimension_for,
    named_in,
    near_conflicts,
    scope_of,
    typed_value,
)
from research.stages.crosscheck import not_the_projects
from research.stages.llm_crosscheck.answers import (
    ModelFact,
    ModelStance,
    PairVerdict,
    Reading,
    not_a_stance,
)
from research.stages.llm_crosscheck.contradictions import ContradictionReview
from research.stages.llm_crosscheck.sending import (
    CONFIRM,
    MAX_PAIRS,
    MAX_POINTS,
    POINTS_PER_PAGE,
    Batch,
    Pair,
    Point,
    answer_tokens,
    batches_of,
    chosen_points,
    message,
)


class ModelReview(ContradictionReview):
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
        # Sentences the model read in deep-read are sent only to judge a pair.
        unread = [p for p in every if p.kp.origin != "model"]
        chosen = chosen_points(claims, unread, pairs, limit)
        pairs = [p for p in pairs if p.a in chosen and p.b in chosen]
        batches = batches_of(chosen, pairs)
        if not batches:
            return claims
        answered = self.llm.ask_batches(
            batches,
            prompt="cross_validate",
            task="crosscheck",
            schema=Reading,
            user=message,
            max_tokens=answer_tokens,
            fallback="the reader's claims and contradictions for these key points",
            question=self.plan.question,
            options=self.plan.options,
            dimensions=[d.name for d in self.plan.dimensions],
        )
        claims = self._read_again(claims, answered)
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

    def _read_again(
        self, claims: list[Claim], answered: list[tuple[Batch, Answer[Reading]]]
    ) -> list[Claim]:
        """The reader's stances on the key points the model has now read are its no more:
        a sentence the model read is scored by the model alone."""
        read = {
            p.key
            for batch, answer in answered
            if answer.value is not None
            for p in batch.points
            if p.kp.origin != "model"
        }
        kept = [
            c
            for c in claims
            if c.kind != "stance" or c.origin == "model" or (c.source_id, c.offset) not in read
        ]
        if len(kept) < len(claims):
            self.ctx.record(
                "reader_stances_replaced",
                stage=self.llm.stage,
                claims=[c.id for c in claims if c not in kept],
                reason="the model read these sentences: its readings stand for them",
            )
        return kept

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
            if kp.origin == "model":
                continue  # read in deep-read: that reading stands
            refusal = not_a_stance(kp, option, self.plan.options)
            if refusal is None and s.confidence < THRESHOLD:
                refusal = f"the model is not sure enough ({s.confidence:.2f} < {THRESHOLD})"
            if refusal:
                self._dropped(s, refusal)
                continue
            tone = "positive" if s.polarity > 0 else "negative"
            claim = _claim(point, option, dimension, "stance", tone, s.polarity, None)
            made.append(claim.model_copy(update={"confidence": round(s.confidence, 2)}))
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
            mine = reader_claims(claims, point, option, attribute)
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


def reader_claims(claims: list[Claim], point: Point, option: str, attribute: str) -> list[Claim]:
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
