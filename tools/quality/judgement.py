"""Judges a run's readings against a careful reader's labels (the devcorpus format).

A topic may hold `stances.jsonl` (labelled sentences: `quote`, `option`, `dimension`,
`polarity`) and `contradictions.jsonl` (reported pairs judged `real` or not). A run is
judged exactly as the corpus README fixes it, so figures from different versions compare:

- two quotes match when |T(a) & T(b)| / |T(a)| >= 0.6, or |T(a) & T(b)| / |T(b)| >= 0.6
  with |T(b)| >= 4, T being the scoring tokens after turning backslashes and bars into
  spaces, a being the run's quote;
- scored claims are the round 4 claims with a dimension and a non-zero polarity. One is
  judged when its quote matches a labelled line, and correct when, among the matching
  lines, the one for its option has its dimension and polarity;
- stance recall is the share of labelled lines with a dimension and a non-zero polarity
  that some scored claim reads the same way from a matching quote;
- contradiction precision is real / judged over the round 4 contradictions whose sides
  match the two sides of a labelled pair, either way round.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from research.names import CROSSCHECK
from tools.quality.corpus import tokens

MATCH = 0.6
WRONG_KINDS = ("option", "dimension", "polarity")


def judge_tokens(text: str) -> set[str]:
    return tokens(text.replace("\\", " ").replace("|", " "))


def matches(run_quote: str, label_quote: str) -> bool:
    a, b = judge_tokens(run_quote), judge_tokens(label_quote)
    shared = len(a & b)
    return bool(a) and (shared / len(a) >= MATCH or (len(b) >= 4 and shared / len(b) >= MATCH))


@dataclass
class Judgement:
    """How a careful reader would judge one run's claims and contradictions."""

    topic: str = ""
    labelled: bool = False  # the topic has labels at all
    scored_claims: int = 0
    judged: int = 0
    correct: int = 0
    wrong: dict[str, int] = field(default_factory=lambda: dict.fromkeys(WRONG_KINDS, 0))
    stances: int = 0  # labelled lines with a dimension and a non-zero polarity
    recalled: int = 0
    contradictions: int = 0
    contradictions_judged: int = 0
    contradictions_real: int = 0
    wrong_claims: list[str] = field(default_factory=list)
    missed_stances: list[str] = field(default_factory=list)
    false_contradictions: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def add(self, other: Judgement) -> None:
        for name in (
            "scored_claims",
            "judged",
            "correct",
            "stances",
            "recalled",
            "contradictions",
            "contradictions_judged",
            "contradictions_real",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for kind in WRONG_KINDS:
            self.wrong[kind] += other.wrong[kind]
        self.labelled = self.labelled or other.labelled


def load_labels(topic: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]] | None:
    """(labelled sentences, judged contradictions), or None when the topic has neither."""
    files = [topic / "stances.jsonl", topic / "contradictions.jsonl"]
    if not any(f.is_file() for f in files):
        return None
    stances, contradictions = (_jsonl(f) for f in files)
    return stances, contradictions


def _jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def scored_claims(crosscheck: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        c
        for c in crosscheck.get("claims", [])
        if c.get("dimension") and c.get("polarity") and not c.get("flag")
    ]


def judge_run(topic: str, folder: Path, labels: tuple[list, list]) -> Judgement:
    path = folder / CROSSCHECK
    crosscheck = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    return judge(topic, crosscheck, *labels)


def judge(
    topic: str,
    crosscheck: dict[str, Any],
    stances: list[dict[str, Any]],
    pairs: list[dict[str, Any]],
) -> Judgement:
    result = Judgement(topic=topic, labelled=True)
    claims = scored_claims(crosscheck)
    result.scored_claims = len(claims)
    for claim in claims:
        verdict = _claim_verdict(claim, stances)
        if verdict is None:
            continue
        result.judged += 1
        if verdict == "correct":
            result.correct += 1
        else:
            result.wrong[verdict] += 1
            result.wrong_claims.append(_claim_line(claim, verdict))
    for line in stances:
        if not (line.get("dimension") and line.get("polarity")):
            continue
        result.stances += 1
        if any(_reads_as(claim, line) for claim in claims):
            result.recalled += 1
        else:
            result.missed_stances.append(_label_line(line))
    records = crosscheck.get("contradictions", [])
    result.contradictions = len(records)
    for record in records:
        real = _contradiction_verdict(record, pairs)
        if real is None:
            continue
        result.contradictions_judged += 1
        result.contradictions_real += real
        if not real:
            result.false_contradictions.append(
                f"{record.get('option')} / {record.get('attribute')}: "
                f"{_short(record['a']['quote'])} <> {_short(record['b']['quote'])}"
            )
    return result


def _claim_verdict(claim: dict[str, Any], stances: list[dict[str, Any]]) -> str | None:
    """ "correct", "option", "dimension" or "polarity" (what is wrong), or None: unjudged."""
    lines = [s for s in stances if matches(claim["quote"], s["quote"])]
    if not lines:
        return None
    mine = [s for s in lines if s.get("option") == claim["option"]]
    if not mine:
        return "option"
    same_dimension = [s for s in mine if s.get("dimension") == claim["dimension"]]
    if not same_dimension:
        return "dimension"
    if any(s.get("polarity") == claim["polarity"] for s in same_dimension):
        return "correct"
    return "polarity"


def _reads_as(claim: dict[str, Any], line: dict[str, Any]) -> bool:
    return (
        claim["option"] == line.get("option")
        and claim["dimension"] == line.get("dimension")
        and claim["polarity"] == line.get("polarity")
        and matches(claim["quote"], line["quote"])
    )


def _contradiction_verdict(record: dict[str, Any], pairs: list[dict[str, Any]]) -> bool | None:
    a, b = record["a"]["quote"], record["b"]["quote"]
    found = [
        p
        for p in pairs
        if (matches(a, p["a_quote"]) and matches(b, p["b_quote"]))
        or (matches(a, p["b_quote"]) and matches(b, p["a_quote"]))
    ]
    if not found:
        return None
    # The same two sentences may be labelled for more than one option.
    mine = [p for p in found if p.get("option") == record.get("option")] or found
    return any(bool(p.get("real")) for p in mine)


def _claim_line(claim: dict[str, Any], verdict: str) -> str:
    return (
        f"wrong {verdict}: {claim['option']} / {claim['dimension']} / "
        f"{claim['polarity']:+d}: {_short(claim['quote'])}"
    )


def _label_line(line: dict[str, Any]) -> str:
    return (
        f"{line['option']} / {line['dimension']} / {line['polarity']:+d}: {_short(line['quote'])}"
    )


def _short(text: str, limit: int = 140) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({part / whole:.0%})" if whole else "-"
