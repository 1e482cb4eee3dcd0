"""Where the sources disagree, side by side, and where independent sources agree."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.safestring import SafeString

from decisions.scoring.contradictions import current_side, weight
from reports import narrative
from research.artifacts import Claim, Consensus, Contradiction, ContradictionSide
from research.web.report.run_files import Quote, Quoter, RunFiles, rich
from research.web.report.strings import WebStrings


@dataclass
class MarkedQuote(Quote):
    mark: str = ""  # "read by the model", "flagged, left out of the scores: ..."


@dataclass
class Side:
    label: str
    pages: str  # "3 pages"
    state: str | None  # current | earlier | None
    quotes: list[MarkedQuote]  # its own first, then the pages siding with it


@dataclass
class ContradictionView:
    id: str
    option: str
    topic: str
    said: SafeString  # both sides in words
    cause: str | None  # time | scope | error | None
    cause_label: str
    cause_text: SafeString  # why they may differ
    effect: str  # what it does to the scores
    sides: list[Side]
    sentence: SafeString  # said and cause in one run of text
    judged_by_model: bool = False


@dataclass
class ConsensusView:
    id: str
    option: str
    topic: str
    value: str
    agree: str
    quotes: list[MarkedQuote]


def contradiction(
    x: Contradiction, files: RunFiles, quote: Quoter, t: WebStrings
) -> ContradictionView:
    said = narrative.describe(x, files.claims, files.numbers)
    why = narrative.cause(x, files.claims, files.numbers, files.strengths)
    said_text = t.say(said.key, said.params) + t("full_stop")
    why_text = t.say(why.key, why.params) if why else ""
    current = current_side(x)
    return ContradictionView(
        id=x.id,
        option=x.option,
        topic=topic(x.attribute, x.dimension, t),
        said=rich(said_text),
        cause=x.cause,
        cause_label=t(f"cause_label_{x.cause or 'error'}"),
        cause_text=rich(why_text),
        effect=_effect(weight(x), t),
        sides=[
            _side(x, "a", t("side_one"), current, files, quote, t),
            _side(x, "b", t("side_other"), current, files, quote, t),
        ],
        sentence=rich(said_text + (t("then_sentence", sentence=why_text) if why_text else "")),
        judged_by_model=x.judged_by == "model",
    )


def _effect(share: float, t: WebStrings) -> str:
    """What the contradiction does to consistency (decisions.scoring.contradictions.weight)."""
    if share <= 0:
        return t("effect_settled")
    if share < 1:
        return t("effect_partial", share=round(share * 100))
    return t("effect_full")


def _side(
    x: Contradiction,
    side: str,
    label: str,
    current: str | None,
    files: RunFiles,
    quote: Quoter,
    t: WebStrings,
) -> Side:
    main, also = (x.a, x.a_also) if side == "a" else (x.b, x.b_also)
    quotes = []
    for s in _unique(main, also):
        shown = quote(s.source_id, s.quote)
        if shown:
            mark = _mark(files.claims.get(s.claim_id), t)
            quotes.append(MarkedQuote(shown.n, shown.quote, shown.href, mark))
    pages = len({q.n for q in quotes})
    state = None if current is None else ("current" if current == side else "earlier")
    return Side(label, t("pages_count", count=pages), state, quotes)


def _mark(claim: Claim | None, t: WebStrings) -> str:
    """Who read a side's claim, and its flag, when either is worth saying."""
    if claim is None:
        return ""
    marks = [t("read_by_model")] if claim.origin == "model" else []
    if claim.flag:
        marks.append(t("flagged", flag=claim.flag))
    return " · ".join(marks)


def _unique(main: ContradictionSide, also: list[ContradictionSide]) -> list[ContradictionSide]:
    seen, out = set(), []
    for s in (main, *also):
        if (s.source_id, s.quote) not in seen:
            seen.add((s.source_id, s.quote))
            out.append(s)
    return out


def topic(attribute: str, dimension: str | None, t: WebStrings) -> str:
    if attribute == "stance":
        return t("topic_stance", dimension=dimension or t("overall_merit"))
    return t.attribute(attribute)


def consensus(k: Consensus, files: RunFiles, quote: Quoter, t: WebStrings) -> ConsensusView:
    """What independent sites agree on, in one quote from each."""
    quotes, seen = [], set()
    for claim_id in k.claim_ids:
        claim = files.claims.get(claim_id)
        shown = claim and claim.source_id not in seen and quote(claim.source_id, claim.quote)
        if shown:
            seen.add(claim.source_id)
            quotes.append(MarkedQuote(shown.n, shown.quote, shown.href, _mark(claim, t)))
    return ConsensusView(
        k.id,
        k.option,
        topic(k.attribute, k.dimension, t),
        t.value(k.value),
        t("agree", count=len(k.sites), sites=", ".join(k.sites)),
        quotes,
    )
