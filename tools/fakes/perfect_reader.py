"""A perfect reader behind the OpenAI-compatible stub (tools.fakes.llm_stub): it answers the
model's reading of sentences, in deep-read and cross-validate, with a careful reader's
labels (the devcorpus `stances.jsonl` format), so a run against it shows the ceiling of the
model path, what a model that reads every sentence as the labels do would reach.

A sentence sent is matched to the labelled lines by quote, with the rule the labels are
judged by (tools.quality.judgement.matches). For each option, the best-matching line is
the reading: its dimension and polarity when it judges something, nothing when it does not
(a heading, a hedge, a neutral line), and an unlabelled sentence judges nothing. A pair of
key points is a contradiction when it matches a pair labelled real (`contradictions.jsonl`).
Every other request (plan, filter, decide) gets the generic schema-valid answer.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tools.fakes.llm_stub import LLMStub, Reply
from tools.fakes.schema_answers import Body, request_schema, schema_answer
from tools.quality.judgement import judge_tokens, load_labels, matches

CONFIDENCE = 0.95
_NUMBERED = re.compile(r"^(\d+)\. (?:\([^)]*\) )?(.*)$")
_KEY_POINT = re.compile(r"^(\d+) \| [^|]* \| [^|]* \| [^|]* \| (.*)$")
_PAIR = re.compile(r"^(\d+) ~ (\d+) \((.*?)\)")


@dataclass(frozen=True)
class Label:
    quote: str
    option: str | None
    dimension: str | None
    polarity: int


class PerfectReader:
    """Answers a request's content from the labels; callable as a stub Reply's content."""

    def __init__(self, stances: Iterable[dict[str, Any]], pairs: Iterable[dict[str, Any]] = ()):
        self.labels = [
            Label(s["quote"], s.get("option"), s.get("dimension"), int(s.get("polarity") or 0))
            for s in stances
        ]
        self.pairs = list(pairs)

    @classmethod
    def from_topic(cls, topic: Path) -> PerfectReader:
        labels = load_labels(topic)
        return cls(*labels) if labels else cls([])

    def __call__(self, body: Body) -> str:
        properties = ((request_schema(body) or {}).get("properties")) or {}
        user = next((m.get("content") or "" for m in body["messages"] if m["role"] == "user"), "")
        if "readings" in properties:
            return json.dumps({"readings": self.sentences(user)}, ensure_ascii=False)
        if "stances" in properties:
            return json.dumps(self.key_points(user), ensure_ascii=False)
        return schema_answer(body)

    def readings(self, text: str) -> list[tuple[str, str, int]]:
        """(option, dimension, polarity) for each option the sentence judges."""
        best: dict[str | None, tuple[float, str]] = {}
        for label in self.labels:
            if matches(text, label.quote):
                score = _overlap(text, label.quote)
                if score > best.get(label.option, (-1.0, ""))[0]:
                    best[label.option] = (score, label.quote)
        found = []
        for option, (_, quote) in best.items():
            for label in self.labels:
                same = label.option == option and label.quote == quote and option
                if same and label.dimension and label.polarity:
                    found.append((option, label.dimension, label.polarity))
        return list(dict.fromkeys(found))

    def sentences(self, user: str) -> list[dict[str, Any]]:
        """Deep-read: the numbered sentences' readings."""
        answer = []
        for line in user.splitlines():
            numbered = _NUMBERED.match(line)
            if numbered is None:
                continue
            n, text = int(numbered.group(1)), numbered.group(2)
            for option, dimension, polarity in self.readings(text):
                answer.append(
                    {
                        "n": n,
                        "option": option,
                        "dimension": dimension,
                        "polarity": polarity,
                        "confidence": CONFIDENCE,
                    }
                )
        return answer

    def key_points(self, user: str) -> dict[str, Any]:
        """Cross-validate: the key points' stances and the pairs' verdicts; no typed facts
        (the rules keep those)."""
        texts: dict[int, str] = {}
        stances, verdicts = [], []
        for line in user.splitlines():
            point = _KEY_POINT.match(line)
            if point is not None:
                kp, text = int(point.group(1)), point.group(2)
                texts[kp] = text
                for option, dimension, polarity in self.readings(text):
                    stances.append(
                        {
                            "kp": kp,
                            "option": option,
                            "dimension": dimension,
                            "polarity": polarity,
                            "confidence": CONFIDENCE,
                        }
                    )
                continue
            pair = _PAIR.match(line)
            if pair is not None:
                a, b, option = int(pair.group(1)), int(pair.group(2)), pair.group(3)
                verdicts.append(self._verdict(a, b, option, texts))
        return {"stances": stances, "facts": [], "pairs": verdicts}

    def _verdict(self, a: int, b: int, option: str, texts: dict[int, str]) -> dict[str, Any]:
        ta, tb = texts.get(a, ""), texts.get(b, "")
        real = any(
            p.get("real")
            and p.get("option") in (None, option)
            and (
                (matches(ta, p["a_quote"]) and matches(tb, p["b_quote"]))
                or (matches(ta, p["b_quote"]) and matches(tb, p["a_quote"]))
            )
            for p in self.pairs
        )
        note = "they cannot both hold" if real else ""
        return {
            "a": a,
            "b": b,
            "option": option,
            "contradicts": real,
            "point": "statement" if real else "",
            "cause": "error" if real else "",
            "note": note,
        }


def _overlap(a: str, b: str) -> float:
    ta, tb = judge_tokens(a), judge_tokens(b)
    shared = len(ta & tb)
    return max(shared / len(ta) if ta else 0.0, shared / len(tb) if tb else 0.0)


def perfect_stub(topic: Path, delay: float = 0.0) -> LLMStub:
    """A started stub answering as the topic's labels read."""
    stub = LLMStub()
    stub.default = Reply(content=PerfectReader.from_topic(topic), delay=delay)
    return stub.start()


def round_trips(stub: LLMStub, delay: float) -> float:
    """How many calls' worth of time the run waited on the model: the time covered by at
    least one call in flight, over one call's time (calls sent together count once)."""
    if delay <= 0 or not stub.requests:
        return 0.0
    spans = sorted((r.at, r.at + delay) for r in stub.requests)
    covered, (start, end) = 0.0, spans[0]
    for s, e in spans[1:]:
        if s > end:
            covered += end - start
            start, end = s, e
        else:
            end = max(end, e)
    covered += end - start
    return covered / delay
