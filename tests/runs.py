"""Builders the tests that make and drive runs share: a run of a question, the CLI's way of
running it in-process, the decision log's events, a small served web for runs that workers
take, and the check that a run's files are intact."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from research import services
from research.artifacts import STAGES, Question
from research.models import Run
from research.runs import execute, flow, manifest
from research.store import RunStore, readers, store_for

FIXTURES = Path(__file__).resolve().parent / "fixtures"
CORPUS_EN = FIXTURES / "corpus" / "notes_en"
CORPUS_ZH = FIXTURES / "corpus" / "notes_zh"
QUESTION = "For our local-first notes app, choose between Quillsync, Loamdb and Tessera"
TOPICS = ("licence", "maintenance", "cost")


def new_run(
    question: str = QUESTION, *, sources: list[str] | None = None, owner=None, **fields: Any
) -> Run:
    """A new run of `question` over `sources` (the English notes corpus unless given);
    `fields` are the rest of the Question (options, dimensions, preset, limits)."""
    asked = Question(question=question, sources=sources or [f"local:{CORPUS_EN}"], **fields)
    return services.create_run(asked, owner=owner)


def drive(run_id: str) -> list[execute.StageResult]:
    """What the CLI does: each stage from the first unfinished one, and what follows it."""
    results = []
    stage = manifest.first_unfinished(run_id)
    if stage is None:
        manifest.finish_run(run_id, STAGES[-1])
    while stage is not None:
        results.append(execute.execute_stage(run_id, stage))
        stage = flow.hand_over(run_id, stage).next
    return results


def run_question(
    question: str,
    sources: list[str],
    options: list[str] | None = None,
    dimensions: list[tuple[str, float]] | None = None,
) -> tuple[Run, RunStore]:
    """A whole run of `question`, in-process, and its folder."""
    run = new_run(
        question,
        sources=sources,
        options=options or [],
        dimensions=[{"name": n, "weight": w} for n, w in dimensions or []],
    )
    drive(run.run_id)
    run.refresh_from_db()
    return run, store_for(run.run_id)


def events(store: RunStore, name: str) -> list[dict]:
    """The decision log's events called `name`, in order."""
    return [e for e in store.read_log() if e["event"] == name]


def serve_pages(testweb, delay: float) -> str:
    """Four pages on Alderstream and Brightwell, and a SearXNG that finds them; its address."""
    urls = []
    for n in range(4):
        option = ("Alderstream", "Brightwell")[n % 2]
        topic = TOPICS[n % 3]
        html = (
            f"<html><head><title>{option} {topic} notes {n}</title></head><body><article>"
            f"<h1>{option} {topic} notes {n}</h1><p>{option} is released under the MIT "
            f"License and its {topic} is well documented by the maintainers.</p>"
            f"<p>{option} shipped version 2.{n} in 2026 with about {20 + n} "
            f"contributors working on {topic}.</p></article></body></html>"
        )
        urls.append(testweb.add(f"/doc/{n}", html, delay=delay))

    def results(query: str) -> list[dict]:
        return [
            {
                "url": u,
                "title": f"{('Alderstream', 'Brightwell')[n % 2]} {TOPICS[n % 3]} notes {n}",
                "content": "release notes and licence",
            }
            for n, u in enumerate(urls)
        ]

    return testweb.add_searxng(results)


WORDS = "harbour lantern meadow copper violin saddle orchard thistle quarry ember falcon".split()


def serve_many_pages(testweb, count: int = 10, delay: float = 0.0) -> str:
    """`count` differing pages on Alderstream and Brightwell, one of them giving Alderstream
    another name in brackets, the last a copy of the first under a second address, and a
    SearXNG that finds them all; its address. Enough pages to split a deep-read in parts."""
    titles = [
        f"{('Alderstream', 'Brightwell')[n % 2]} {TOPICS[n % 3]}: the {WORDS[n % 11]} "
        f"{('review', 'field notes', 'diary', 'audit')[n % 4]}"
        for n in range(count)
    ]
    urls = []
    for n in range(count - 1):
        option = ("Alderstream", "Brightwell")[n % 2]
        topic = TOPICS[n % 3]
        named = "Alderstream (Aldra)" if n == count - 3 else option
        paragraphs = "".join(
            f"<p>{named if i == 0 else option} part {i} of report {n}: it is released under "
            f"the {('MIT', 'Apache-2.0', 'BSL-1.1')[(n + i) % 3]} licence, its {topic} was "
            f"judged {('excellent', 'poor', 'adequate')[(n + i) % 3]} by reviewer {n}, and "
            f"Aldra shipped version 3.{n}.{i} in 2026 with {20 + n + i} contributors. "
            f"In test {n}.{i} {option} was {('fast', 'slow')[(n + i) % 2]} on {i + 1} "
            f"thousand documents, and a seat costs ${5 + n + i} each month.</p>"
            for i in range(6)
        )
        html = (
            f"<html><head><title>{titles[n]}</title></head><body><article>"
            f"<h1>{titles[n]}</h1>{paragraphs}<p>Separately, Aldra's licence terms were "
            f"rated risky in audit {n}.</p></article></body></html>"
        )
        urls.append(testweb.add(f"/page/{n}", html, delay=delay))
    # The first page again under another address: one source, not two.
    urls.append(testweb.add("/mirror/0", testweb.routes["/page/0"].body, delay=delay))
    titles[-1] = "Alderstream in the weekly digest of open source tools"

    def results(query: str) -> list[dict]:
        return [
            {"url": u, "title": titles[n], "content": f"{WORDS[n % 11]} notes, page {n}"}
            for n, u in enumerate(urls)
        ]

    return testweb.add_searxng(results)


def served_run(base: str, question: str = "Choose between Alderstream and Brightwell") -> Run:
    """A run over the pages serve_pages serves at `base`."""
    return new_run(
        question,
        sources=[f"searxng:{base}"],
        dimensions=[{"name": "licence risk", "weight": 2}, {"name": "maintenance", "weight": 1}],
    )


def assert_artifacts_intact(store: RunStore) -> None:
    names = store.artifact_names()
    assert len(names) == len(set(names)), "an artifact is listed twice"
    for entry in store.index()["artifacts"]:
        data = store.read_bytes(entry["name"])
        assert hashlib.sha256(data).hexdigest() == entry["sha256"], entry["name"]
        assert len(data) == entry["bytes"]
    if store.location.startswith("/"):  # a bucket's PUTs leave nothing half-written
        leftovers = [p for p in store.path.rglob("*.tmp")]
        assert not leftovers, f"temporary files left behind: {leftovers}"


def a_claim_that_moves_its_cell(store: RunStore):
    """A claim of a scored cell backed by more than one claim, and that cell: where a cell's
    claims disagree, one on the less common side, so that taking it out moves the score."""
    decision = readers.decision(store)
    polarity = {c.id: c.polarity for c in readers.crosscheck(store).claims}
    cells = [c for c in decision.matrix if not c.missing and len(c.claim_ids) >= 2]

    def sides(cell) -> list[str | None]:
        return [polarity.get(i) for i in cell.claim_ids]

    mixed = [c for c in cells if len(set(sides(c))) > 1]
    if not mixed:
        return cells[0].claim_ids[0], cells[0]
    cell = mixed[0]
    rarest = min(set(sides(cell)), key=sides(cell).count)
    return next(i for i in cell.claim_ids if polarity.get(i) == rarest), cell
