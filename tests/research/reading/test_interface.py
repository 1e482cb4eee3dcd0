"""The reader's one interface: the names research.reading offers, each loaded on first use."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import research.reading as reading

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("name", reading.__all__)
def test_every_name_the_reader_offers_can_be_imported(name: str) -> None:
    assert getattr(reading, name) is not None


def test_a_name_the_reader_does_not_offer_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="read_everything"):
        reading.read_everything  # noqa: B018


def test_asking_for_the_lexicon_loads_neither_the_claims_nor_the_conflicts() -> None:
    """Retrieve's plan needs the lexicon at a run's start; the rest of the reader can wait."""
    script = (
        "import sys; from research.reading import concepts_for; "
        "print(sorted(m for m in sys.modules if m.startswith('research.reading.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "['research.reading.lexicon', 'research.reading.text']"
