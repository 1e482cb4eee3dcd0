"""Scores a finished run against a labelled corpus topic (the devcorpus format).

A topic folder holds `truth.json` (question, options, dimensions, facts, contradictions)
and `pages/`. A run over `local:<topic>/pages` is scored exactly as the corpus README
fixes it, so figures from different machines and versions compare:

- tokens of a quote: its `[a-z0-9][a-z0-9.+%-]*` words plus CJK character bigrams, after
  NFKC, removing Markdown marks, collapsing whitespace and lower-casing;
- overlap(a, b) = |tokens(a) & tokens(b)| / |tokens(a)|;
- a fact is surfaced when a key point or claim quote overlaps its quote by 0.6 or more,
  or its quote appears in report.md;
- a contradiction is flagged when one contradiction record overlaps both its sides' quotes
  by 0.6 or more, measured against the record's whole JSON text.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from research.names import CANDIDATES, CROSSCHECK, DECISION, FILTERED, NOTES
from tools.quality.pairs import report_quotes

SURFACED = 0.6
_MARKS = re.compile(r"[*_`>#\[\]]")
_WORD = re.compile(r"[a-z0-9][a-z0-9.+%-]*")
_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af]+")
FUNNEL = ("candidate", "kept", "read", "key_point", "claim")


def normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    return " ".join(_MARKS.sub("", text).split()).lower()


def tokens(text: str) -> set[str]:
    text = normalise(text)
    found = set(_WORD.findall(text))
    for run in _CJK_RUN.findall(text):
        found.update(run[i : i + 2] for i in range(len(run) - 1))
    return found


def overlap(a: str, b: str) -> float:
    wanted = tokens(a)
    return len(wanted & tokens(b)) / len(wanted) if wanted else 0.0


def same_url(a: str, b: str) -> bool:
    return _url_key(a) == _url_key(b)


def _url_key(url: str) -> str:
    url = re.sub(r"^https?://(www\.)?", "", url.strip().lower())
    return url.split("#")[0].rstrip("/")


@dataclass
class TopicScore:
    topic: str
    facts: int
    facts_surfaced: int
    contradictions: int
    contradictions_flagged: int
    funnel: dict[str, int]
    quotes_verified: int
    quotes_total: int
    confidence: float | None
    recommendation: str | None
    seconds: float = 0.0
    tokens: int = 0  # model tokens the run used (LLM mode)
    mode: str = "deterministic"
    model: str = ""
    missed_facts: list[str] = field(default_factory=list)
    missed_contradictions: list[str] = field(default_factory=list)
    # Claims and contradictions judged against labels (tools.quality.judgement), where the
    # topic has them.
    judgement: dict[str, Any] | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class RunArtifacts:
    """What scoring reads from one run folder."""

    candidates: list[str]
    kept: list[str]
    read_ok: list[str]
    key_point_quotes: list[str]
    claim_quotes: list[str]
    contradiction_texts: list[str]
    report: str
    quotes: list[tuple[str, str]]  # round 4 quotes with the stored text each cites
    report_quotes: tuple[int, int]  # (verified, total) in report.md
    confidence: float | None
    recommendation: str | None

    @classmethod
    def load(cls, folder: Path) -> RunArtifacts:
        def read(name: str) -> Any:
            path = folder / name
            return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}

        candidates = read(CANDIDATES).get("candidates", [])
        kept = read(FILTERED).get("kept", [])
        notes = read(NOTES).get("sources", [])
        check = read(CROSSCHECK)
        decision = read(DECISION)
        report_path = folder / "report.md"
        pages = _stored_pages(folder, notes)
        ok = [s for s in notes if s.get("status") == "OK"]
        return cls(
            candidates=[c["url"] for c in candidates],
            kept=[c["url"] for c in kept],
            read_ok=[s["url"] for s in ok],
            key_point_quotes=[kp["quote"] for s in ok for kp in s.get("key_points", [])],
            claim_quotes=[c["quote"] for c in check.get("claims", [])],
            contradiction_texts=[_json_text(x) for x in check.get("contradictions", [])],
            report=report_path.read_text(encoding="utf-8") if report_path.exists() else "",
            quotes=_cited_quotes(check, pages),
            report_quotes=report_quotes(folder) if report_path.exists() else (0, 0),
            confidence=(decision.get("assessment") or {}).get("confidence"),
            recommendation=(decision.get("recommendation") or {}).get("option"),
        )


def _json_text(record: dict[str, Any]) -> str:
    # JSON writes a line break in a quote as backslash-n, which would glue an "n" to the
    # next word ("nunder"), so whitespace inside strings is collapsed first.
    return json.dumps(_collapse_whitespace(record), ensure_ascii=False)


def _collapse_whitespace(value: Any) -> Any:
    if isinstance(value, str):
        return " ".join(value.split())
    if isinstance(value, dict):
        return {k: _collapse_whitespace(v) for k, v in value.items()}
    return [_collapse_whitespace(v) for v in value] if isinstance(value, list) else value


def _stored_pages(folder: Path, notes: list[dict[str, Any]]) -> dict[str, str]:
    pages = {}
    for source in notes:
        if source.get("page") and (folder / source["page"]).exists():
            pages[source["source_id"]] = (folder / source["page"]).read_text(encoding="utf-8")
    return pages


def _cited_quotes(check: dict[str, Any], pages: dict[str, str]) -> list[tuple[str, str]]:
    """Every quote of round 4, paired with the stored text it must be found in."""
    pairs = [(c["quote"], pages.get(c["source_id"], "")) for c in check.get("claims", [])]
    for record in check.get("contradictions", []):
        for side in (
            record["a"],
            record["b"],
            *record.get("a_also", []),
            *record.get("b_also", []),
        ):
            pairs.append((side["quote"], pages.get(side["source_id"], "")))
    return pairs


def score_run(topic: str, truth: dict[str, Any], run: RunArtifacts) -> TopicScore:
    funnel = dict.fromkeys(FUNNEL, 0)
    surfaced = 0
    missed_facts = []
    report = normalise(run.report)
    for fact in truth["facts"]:
        stages = _fact_funnel(fact, run)
        for name, reached in zip(FUNNEL, stages, strict=True):
            funnel[name] += reached
        if stages[3] or stages[4] or normalise(fact["quote"]) in report:
            surfaced += 1
        else:
            missed_facts.append(f"{fact['option']} / {fact['dimension']}: {fact['quote']}")
    flagged, missed_contradictions = 0, []
    for pair in truth["contradictions"]:
        if any(_flags(pair, record) for record in run.contradiction_texts):
            flagged += 1
        else:
            missed_contradictions.append(f"{pair['option']} / {pair['attribute']}")
    return TopicScore(
        topic=topic,
        facts=len(truth["facts"]),
        facts_surfaced=surfaced,
        contradictions=len(truth["contradictions"]),
        contradictions_flagged=flagged,
        funnel=funnel,
        quotes_verified=sum(1 for quote, page in run.quotes if quote and quote in page)
        + run.report_quotes[0],
        quotes_total=len(run.quotes) + run.report_quotes[1],
        confidence=run.confidence,
        recommendation=run.recommendation,
        missed_facts=missed_facts,
        missed_contradictions=missed_contradictions,
    )


def _fact_funnel(fact: dict[str, Any], run: RunArtifacts) -> tuple[bool, ...]:
    url = fact["url"]
    return (
        any(same_url(url, u) for u in run.candidates),
        any(same_url(url, u) for u in run.kept),
        any(same_url(url, u) for u in run.read_ok),
        any(overlap(fact["quote"], q) >= SURFACED for q in run.key_point_quotes),
        any(overlap(fact["quote"], q) >= SURFACED for q in run.claim_quotes),
    )


def _flags(pair: dict[str, Any], record: str) -> bool:
    return (
        overlap(pair["a"]["quote"], record) >= SURFACED
        and overlap(pair["b"]["quote"], record) >= SURFACED
    )


def topics(corpus: Path) -> list[Path]:
    """Topic folders of a corpus: those with a truth.json and a pages/ folder."""
    found = [
        p
        for p in sorted(corpus.iterdir())
        if (p / "truth.json").is_file() and (p / "pages").is_dir()
    ]
    return found


def load_truth(topic: Path) -> dict[str, Any]:
    return json.loads((topic / "truth.json").read_text(encoding="utf-8"))
