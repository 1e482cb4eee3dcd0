"""Measures how well cross-validation tells agreement from contradiction, on a labelled set
of claim pairs written from realistic pages (tests/fixtures/claim_pairs.jsonl)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from research.artifacts import Claim
from research.reading.claims import extract
from research.reading.claims.reading import Point, read_stances
from research.reading.conflicts.contradictions import judges_dimension
from research.reading.conflicts.facts import SourceFacts, conflict
from research.reading.conflicts.sentences import _judge, _rarity, topic_words
from research.reading.conflicts.statements import Statement
from research.reading.keypoints import best_dimension
from research.reading.sourcekind import classify
from research.reading.text import sentence_spans

DIMENSIONS = {
    "en": [
        "licence risk",
        "maintenance activity",
        "customisation cost",
        "cost",
        "learning curve",
        "community activity",
        "extensibility",
        "risk",
    ],
    "zh": ["成本", "学习曲线", "社区活跃度", "可扩展性", "风险", "许可证风险", "维护活跃度"],
}


@dataclass
class PairScore:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0
    misses: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0


def claims_of(text: str, option: str, lang: str, source_id: str) -> list[Claim]:
    dims = DIMENSIONS[lang]
    claims = []
    for start, end in sentence_spans(text):
        sentence = text[start:end]
        for fact in extract(sentence, dims, best_dimension(sentence, dims)):
            claims.append(
                Claim(
                    id=f"{source_id}{len(claims)}",
                    option=option,
                    dimension=fact.dimension,
                    attribute=fact.attribute,
                    kind=fact.kind,
                    value=fact.value,  # type: ignore[arg-type]
                    polarity=fact.polarity,
                    source_id=source_id,
                    quote=sentence,
                )
            )
    return claims


def predicts_contradiction(pair: dict) -> bool:
    option, lang = pair["option"], pair["lang"]
    sides = []
    for key in ("a", "b"):
        kind = classify("https://" + pair[key]["site"] + "/", "", [option])
        facts = SourceFacts(
            pair[key]["site"], kind.kind, kind.strength, None, own=kind.owner is not None
        )
        sides.append((claims_of(pair[key]["text"], option, lang, key), facts))
    (claims_a, fa), (claims_b, fb) = sides
    return any(conflict(a, b, fa, fb) for a in claims_a for b in claims_b)


def evaluate(path: Path, lang: str | None = None, sentences: bool = False) -> PairScore:
    """Precision and recall on labelled pairs: of the typed-fact test (`conflict`), or with
    `sentences` of the sentence-level finder (research.reading.conflicts.sentences)."""
    score = PairScore()
    pairs = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    judge = _sentence_judge(pairs) if sentences else predicts_contradiction
    for pair in pairs:
        if lang and pair["lang"] != lang:
            continue
        predicted, actual = judge(pair), pair["label"] == "contradict"
        if predicted and actual:
            score.tp += 1
        elif predicted:
            score.fp += 1
            score.misses.append(f"false alarm {pair['id']}: {pair['why']}")
        elif actual:
            score.fn += 1
            score.misses.append(f"missed {pair['id']}: {pair['why']}")
        else:
            score.tn += 1
    return score


def _sentence_judge(pairs: list[dict]):
    """The sentence finder's test for one pair, with word rarity taken over every sentence
    of the set, as a run takes it over every key point."""
    statements = {(pair["id"], key): _statements(pair, key) for pair in pairs for key in ("a", "b")}
    rarity = _rarity([s for group in statements.values() for s in group])

    def judge(pair: dict) -> bool:
        return any(
            _judge(a, b, a.words & b.words, rarity) is not None
            for a in statements[(pair["id"], "a")]
            for b in statements[(pair["id"], "b")]
        )

    return judge


def _statements(pair: dict, key: str) -> list[Statement]:
    """Each sentence as a run's cross-validation sees it: with the dimension the careful
    reader takes a stance on (among the usual dimensions of the pair's language), that
    stance, and whether the sentence judges the dimension by its own words."""
    text, site, option = pair[key]["text"], pair[key]["site"], pair["option"]
    dims = DIMENSIONS.get(pair.get("lang", "en"), DIMENSIONS["en"])
    found = []
    for start, end in sentence_spans(text):
        quote = text[start:end]
        reading = read_stances(Point(quote, option), [option], dims)
        stance = next((s for s in reading.stances if s.option == option), None)
        dimension = stance.dimension if stance else best_dimension(quote, dims)
        found.append(
            Statement(
                key=f"{pair['id']}{key}{start}",
                option=option,
                dimension=dimension,
                source_id=f"{pair['id']}{key}",
                site=site,
                published=None,
                quote=quote,
                offset=start,
                words=topic_words(quote, [option]),
                on_dimension=judges_dimension(quote, dimension),
                stance=stance.polarity if stance else 0,
            )
        )
    return found


def report_quotes(run_folder: Path) -> tuple[int, int]:
    """(verified, total) quotes in a run's report.md, each looked up in the stored text of
    the source its citation number points to."""
    from reports.check import QUOTE, quoted_in

    report = (run_folder / "report.md").read_text(encoding="utf-8")
    pages = _cited_pages(run_folder, report)
    matches = QUOTE.findall(report)
    verified = sum(1 for n, quote in matches if quoted_in(quote, pages.get(int(n), "")))
    return verified, len(matches)


# A Sources line in any report language: "[n] [title](url) · ... [page](page)", ending in
# a link to the stored extract whose text is its own target.
_SOURCE_LINE = re.compile(r"^\[(\d+)\] .*\[([^\]]+)\]\(\2\)\s*$", re.M)


def _cited_pages(run_folder: Path, report: str) -> dict[int, str]:
    """Map citation numbers to stored text, from the report's own Sources list."""
    pages = {}
    for n, page in _SOURCE_LINE.findall(report):
        pages[int(n)] = (run_folder / page).read_text(encoding="utf-8")
    return pages
