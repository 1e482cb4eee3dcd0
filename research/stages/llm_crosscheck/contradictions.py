"""The model's verdicts on pairs of key points: the reader's contradictions confirmed or
disputed, and new ones joined to the list with their sides."""

from __future__ import annotations

from research.artifacts import Claim, Contradiction, ContradictionSide
from research.context import StageContext
from research.llm import StageLLM
from research.reading import ALSO, CHANGE, side_claim
from research.stages.llm_crosscheck.answers import PairVerdict
from research.stages.llm_crosscheck.sending import (
    EXTRA_PAIRS,
    NOTE_CHARS,
    POINT_CHARS,
    Batch,
    Pair,
    Point,
    cut,
    site_of,
)

CAUSES = ("time", "scope", "error")


class ContradictionReview:
    """The model's part in the contradictions: the verdicts on the pairs it was sent, each
    of the reader's contradictions confirmed or disputed, and those it found the reader did
    not. ModelReview asks the model; this reads what it said about the pairs."""

    llm: StageLLM
    ctx: StageContext
    options: dict[str, str]
    verdicts: list[tuple[Pair, PairVerdict]]

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
            elif site_of(a) == site_of(b):
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
            listed = listing(found, claims, pair)
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
            event, stage=self.llm.stage, id=listed.id, note=cut(verdict.note, NOTE_CHARS)
        )
        if not verdict.contradicts:
            why = cut(verdict.note, NOTE_CHARS) or "no reason given"
            listed.note += f" Read by the model, the two sentences do not disagree: {why}."

    def _add(
        self, found: list[Contradiction], claims: list[Claim], pair: Pair, verdict: PairVerdict
    ) -> None:
        point = cut(verdict.point, POINT_CHARS) or pair.a.kp.dimension or "statement"
        dimension = pair.a.kp.dimension or pair.b.kp.dimension
        a = side(pair.a, pair.option, dimension, point, claims)
        b = side(pair.b, pair.option, dimension, point, claims)
        if joined(found, pair, a, b):
            return
        cause = verdict.cause.strip().lower()
        cause = cause if cause in CAUSES else "error"
        changed = [c for c in (a, b) if CHANGE.search(c.quote)]
        sites = [site_of(p) for p in (pair.a, pair.b)]
        said = cut(verdict.note, NOTE_CHARS) or "they cannot both hold as written"
        found.append(
            Contradiction(
                id=f"x{len(found) + 1:02d}",
                option=pair.option,
                attribute=point,
                dimension=dimension,
                a=side_of(a),
                b=side_of(b),
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


def listing(found: list[Contradiction], claims: list[Claim], pair: Pair) -> Contradiction | None:
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


def side(
    point: Point, option: str, dimension: str | None, about: str, claims: list[Claim]
) -> Claim:
    return side_claim(
        point.source.source_id, point.kp.offset, option, dimension, point.kp.quote, about, claims
    )


def side_of(claim: Claim) -> ContradictionSide:
    return ContradictionSide(claim_id=claim.id, source_id=claim.source_id, quote=claim.quote)


def joined(found: list[Contradiction], pair: Pair, a: Claim, b: Claim) -> bool:
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
                joining.append(side_of(other))
            return True
    return False
