"""The perfect-reader stub: it reads sentences as the labels do, and a corpus run against it
shows the model path's ceiling (`manage.py quality --corpus ... --llm-stub perfect`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from tools.fakes.perfect_reader import PerfectReader

LABELS = [
    {
        "quote": "Fernwick restarts failed jobs on its own.",
        "option": "Fernwick",
        "dimension": "reliability",
        "polarity": 1,
    },
    {
        "quote": "Fernwick restarts failed jobs on its own.",
        "option": "Glasspoint",
        "dimension": "reliability",
        "polarity": -1,
    },
    {
        "quote": "Would Glasspoint scale for us?",
        "option": "Glasspoint",
        "dimension": None,
        "polarity": 0,
    },
]
MINI = Path(__file__).resolve().parents[1] / "fixtures" / "devcorpus_mini"
DEVCORPUS = Path(settings.BASE_DIR).parent / "shared" / "devcorpus"


def deep_read_request(*lines: str) -> dict:
    schema = {"type": "object", "properties": {"readings": {"type": "array"}}}
    return {
        "messages": [
            {"role": "system", "content": "Read."},
            {"role": "user", "content": "\n".join(["Page s01: Notes", *lines])},
        ],
        "response_format": {"type": "json_schema", "json_schema": {"schema": schema}},
    }


def test_the_perfect_reader_reads_labelled_sentences_and_judges_nothing_else():
    answer = json.loads(
        PerfectReader(LABELS)(
            deep_read_request(
                "1. Fernwick restarts failed jobs on its own, unlike Glasspoint.",
                "2. (Glasspoint) Would Glasspoint scale for us?",
                "3. Fernwick has a blue logo.",
            )
        )
    )
    assert answer == {
        "readings": [
            {
                "n": 1,
                "option": "Fernwick",
                "dimension": "reliability",
                "polarity": 1,
                "confidence": 0.95,
            },
            {
                "n": 1,
                "option": "Glasspoint",
                "dimension": "reliability",
                "polarity": -1,
                "confidence": 0.95,
            },
        ]
    }


def quality(corpus: Path, topic: str, out: Path) -> dict:
    call_command(
        "quality",
        corpus=str(corpus),
        topic=[topic],
        llm_stub="perfect",
        json=str(out),
        stdout=open(out.with_suffix(".txt"), "w", encoding="utf-8"),  # noqa: SIM115
    )
    return json.loads(out.read_text(encoding="utf-8"))


@pytest.mark.django_db
def test_a_corpus_run_against_the_perfect_reader_is_read_by_the_model(tmp_path):
    figures = quality(MINI, "ledger", tmp_path / "ledger.json")

    [topic] = figures["topics"]
    assert topic["mode"] == "llm" and 0 < topic["tokens"] <= 30_000
    assert topic["quotes_verified"] == topic["quotes_total"] > 0
    readers = figures["readers"]["ledger"]
    assert readers["rules_stances"] == 0 and readers["model"] > 0
    judged = topic["judgement"]
    assert judged["correct"] >= 0.95 * judged["judged"]


@pytest.mark.django_db
def test_the_perfect_reader_reaches_the_labels_on_a_devcorpus_topic(tmp_path):
    if not DEVCORPUS.is_dir():
        pytest.skip(f"no development corpus at {DEVCORPUS}")
    figures = quality(DEVCORPUS, "taskqueue", tmp_path / "taskqueue.json")

    [topic] = figures["topics"]
    judged = topic["judgement"]
    assert judged["correct"] >= 0.95 * judged["judged"] > 0
    assert judged["recalled"] >= 0.5 * judged["stances"]
    assert 0 < topic["tokens"] <= 30_000
    assert topic["quotes_verified"] == topic["quotes_total"]
