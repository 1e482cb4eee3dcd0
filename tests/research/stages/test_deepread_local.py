"""Deep-read of local corpus files: checked like fetched pages before anything is read."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from research.artifacts import Dimension, Filtered, KeptCandidate, Limits, Plan, SubQuery
from research.context import StageContext
from research.outcomes import Outcome
from research.providers.base import FetchResult
from research.stages.deepread import deep_read
from tests.research.providers.samples import minimal_pdf

TEXT = "Alderstream is released under the MIT License, which keeps the licence risk low."


class NoFetcher:
    """Local files are read from disk: the web is never asked."""

    def fetch(self, url: str) -> FetchResult:
        raise AssertionError(f"fetched {url}")


def read(folder: Path, *names: str) -> list:
    plan = Plan(
        question="Choose between Alderstream and Brightwell for our sync layer",
        options=["Alderstream", "Brightwell"],
        dimensions=[Dimension(name="licence risk", weight=1.0)],
        sources=[f"local:{folder}"],
        queries=[SubQuery(id="q01", text="Alderstream licence risk")],
        limits=Limits(max_pages=10, max_page_chars=5_000),
    )
    kept = [
        KeptCandidate(
            id=f"s{n:02d}",
            url=(folder / name).as_uri(),
            title=f"Alderstream licence {n}",
            provider=f"local:{folder}",
            query="Alderstream licence risk",
            rank=n,
            score=90 - n,
            reasons=["test"],
            local_path=str(folder / name),
        )
        for n, name in enumerate(names)
    ]
    result = deep_read(plan, Filtered(kept=kept, dropped=[]), NoFetcher(), StageContext())
    return result.notes.sources


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "licence.md").write_text(f"---\ntitle: Licence\n---\n{TEXT}\n", "utf-8")
    return folder


def test_a_corpus_file_is_read_without_its_front_matter(corpus: Path) -> None:
    [notes] = read(corpus, "licence.md")

    assert notes.status is Outcome.OK
    assert notes.key_points
    assert all("title:" not in point.quote for point in notes.key_points)


def test_a_symlink_out_of_the_corpus_is_refused(corpus: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.md"
    secret.write_text(TEXT, "utf-8")
    (corpus / "link.md").symlink_to(secret)

    [notes] = read(corpus, "link.md")

    assert notes.status is Outcome.BLOCKED
    assert "leads out of the corpus folder" in notes.detail
    assert notes.page is None


def test_a_file_over_the_size_cap_is_refused_without_being_read(corpus: Path, settings) -> None:
    settings.LOCAL_MAX_BYTES = 2048
    (corpus / "big.md").write_text(TEXT * 100, "utf-8")

    [notes] = read(corpus, "big.md")

    assert notes.status is Outcome.BLOCKED
    assert "over the 2,048-byte limit" in notes.detail


def test_binary_junk_named_as_text_is_refused(corpus: Path) -> None:
    (corpus / "junk.txt").write_bytes(random.Random(2).randbytes(6000))

    [notes] = read(corpus, "junk.txt")

    assert notes.status is Outcome.BLOCKED
    assert "binary data served as text/plain" in notes.detail


def test_a_pdf_named_as_markdown_is_read_as_a_pdf(corpus: Path) -> None:
    (corpus / "licence-pdf.md").write_bytes(minimal_pdf(TEXT, "Licence", "20250101"))

    [notes] = read(corpus, "licence-pdf.md")

    assert notes.status is Outcome.OK
    assert any("MIT License" in point.quote for point in notes.key_points)
    assert not any("obj" in point.quote for point in notes.key_points)
