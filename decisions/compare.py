"""What changed between two runs of the same question: the recommendation and confidence,
each option's total, the cells that moved and why (claims found or no longer found, and the
sites they came from; contradictions that appeared or were settled), and the sources added
or gone. Plain data in, plain data out."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from django.utils.translation import gettext, ngettext

from research.artifacts import Crosscheck, Decision, Notes

MOVED = 5.0  # points a cell's score must move by to be reported


@dataclass(frozen=True)
class RunView:
    """One run as the comparison reads it."""

    run_id: str
    decision: Decision
    crosscheck: Crosscheck
    notes: Notes
    question: str = ""


@dataclass
class CellChange:
    option: str
    dimension: str
    before: float | None
    after: float | None
    why: list[str] = field(default_factory=list)


@dataclass
class Comparison:
    before: str  # run ids
    after: str
    recommendation: tuple[str | None, str | None]
    confidence: tuple[float, float]
    totals: list[tuple[str, float | None, float | None]]
    cells: list[CellChange]
    sources_added: list[str]
    sources_gone: list[str]
    contradictions_new: list[str]
    contradictions_settled: list[str]
    questions: tuple[str, str] = ("", "")

    @property
    def recommendation_changed(self) -> bool:
        return self.recommendation[0] != self.recommendation[1]

    @property
    def same_question(self) -> bool:
        """Whether both runs asked one question (spacing and case aside): only then does
        what changed say how the evidence moved."""
        return same_question_key(self.questions[0]) == same_question_key(self.questions[1])

    @property
    def warning(self) -> str:
        if self.same_question:
            return ""
        return gettext(
            "These two runs asked different questions, so what changed between them is not how "
            "the evidence on one question moved."
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            **asdict(self),
            "recommendation_changed": self.recommendation_changed,
            "same_question": self.same_question,
        }


def same_question_key(question: str) -> str:
    return " ".join(question.split()).casefold()


def compare(before: RunView, after: RunView, moved: float = MOVED) -> Comparison:
    a, b = before.decision, after.decision
    urls_a, urls_b = _urls(before.notes), _urls(after.notes)
    x_a, x_b = _contradictions(before.crosscheck), _contradictions(after.crosscheck)
    return Comparison(
        before=before.run_id,
        after=after.run_id,
        recommendation=(a.recommendation.option, b.recommendation.option),
        confidence=(a.assessment.confidence, b.assessment.confidence),
        totals=[(o, a.totals.get(o), b.totals.get(o)) for o in _options(a, b)],
        cells=_cells(before, after, moved, x_a, x_b),
        sources_added=sorted(urls_b - urls_a),
        sources_gone=sorted(urls_a - urls_b),
        contradictions_new=sorted(x_b - x_a),
        contradictions_settled=sorted(x_a - x_b),
        questions=(before.question, after.question),
    )


def _options(a: Decision, b: Decision) -> list[str]:
    return list(dict.fromkeys([*a.totals, *b.totals]))


def _urls(notes: Notes) -> set[str]:
    return {s.url for s in notes.ok_sources()}


def _contradictions(check: Crosscheck) -> set[str]:
    return {f"{x.option} · {x.attribute}" for x in check.contradictions}


def _cells(
    before: RunView, after: RunView, moved: float, x_a: set[str], x_b: set[str]
) -> list[CellChange]:
    old = {(c.option, c.dimension): c for c in before.decision.matrix}
    changes = []
    for cell in after.decision.matrix:
        key = (cell.option, cell.dimension)
        was = old.get(key)
        s_a = None if was is None or was.missing else was.score
        s_b = None if cell.missing else cell.score
        if (s_a is None) == (s_b is None) and (s_a is None or abs(s_b - s_a) <= moved):  # type: ignore[operator]
            continue
        why = _why(key, before, after)
        mine = f"{key[0]} ·"
        now, gone = gettext("contradiction now: %(x)s"), gettext("contradiction gone: %(x)s")
        why += [now % {"x": x} for x in sorted(x_b - x_a) if x.startswith(mine)]
        why += [gone % {"x": x} for x in sorted(x_a - x_b) if x.startswith(mine)]
        changes.append(CellChange(key[0], key[1], s_a, s_b, why))
    return changes


def _why(key: tuple[str, str], before: RunView, after: RunView) -> list[str]:
    sites_a, sites_b = _site_of(before.notes), _site_of(after.notes)
    quotes_a = {c.quote: c for c in _cell_claims(key, before)}
    quotes_b = {c.quote: c for c in _cell_claims(key, after)}
    new = [quotes_b[q] for q in quotes_b.keys() - quotes_a.keys()]
    lost = [quotes_a[q] for q in quotes_a.keys() - quotes_b.keys()]
    why = []
    if new:
        sites = sorted({sites_b.get(c.source_id, c.source_id) for c in new})
        why.append(
            ngettext(
                "%(count)d new claim, from %(sites)s",
                "%(count)d new claims, from %(sites)s",
                len(new),
            )
            % {"count": len(new), "sites": ", ".join(sites)}
        )
    if lost:
        sites = sorted({sites_a.get(c.source_id, c.source_id) for c in lost})
        why.append(
            ngettext(
                "%(count)d claim no longer found, from %(sites)s",
                "%(count)d claims no longer found, from %(sites)s",
                len(lost),
            )
            % {"count": len(lost), "sites": ", ".join(sites)}
        )
    return why or [
        gettext("the same claims, scored otherwise (source standing, dates or agreement)")
    ]


def _cell_claims(key: tuple[str, str], run: RunView):
    ids = {i for c in run.decision.matrix if (c.option, c.dimension) == key for i in c.claim_ids}
    return [c for c in run.crosscheck.claims if c.id in ids]


def _site_of(notes: Notes) -> dict[str, str]:
    """Each source by its site; a document kept on the server by its title, since its
    address is a path there (the server's folders, the owner's id)."""
    return {
        s.source_id: s.site
        or (s.title if s.url.startswith(("file:", "local:")) and s.title else s.url)
        for s in notes.sources
    }
