"""The deterministic reader as the cross-check of what a model reads from a key point.

The model's claim stands unless the reader, reading the same quote, finds the opposite:
then the claim is shown with a flag that says, in plain words, what in the quote the reader
reads the other way. A typed value the model gives is put in the reader's own form (a
licence's SPDX name, a normalised version), so that the two can be compared at all.
"""

from __future__ import annotations

import re

from research.artifacts import KeyPoint
from research.reading.claims import (
    compare,
    licence_fact,
    licences,
    maintenance_fact,
    normalise_version,
    stance_polarity,
)
from research.reading.conflicts.sentences import option_segments


def reader_polarity(text: str, option: str, kp: KeyPoint, options: list[str]) -> int:
    """How the reader judges `option` in `text` (a key point's quote): a comparison's
    ranking, the verdict of the table column or list the point sits in, or the tone of the
    clause about the option. 0: no judgement, or a sentence about another option."""
    ranked = compare(text, options)
    if ranked:
        return ranked.get(option, 0)
    if kp.polarity and option == kp.option:
        return kp.polarity
    segments = option_segments(text, options)
    clause = segments.get(option) or (text if not segments and option == kp.option else "")
    return stance_polarity(clause, options) if clause else 0


def cue(kp: KeyPoint, option: str, options: list[str], polarity: int) -> str:
    """What in the key point the reader reads `polarity` from, in plain words."""
    if kp.header and kp.polarity == polarity and option == kp.option:
        return f"it is listed under “{kp.header}”"
    tone = "good" if polarity > 0 else "bad"
    words = cue_words(kp, option, options, polarity)
    if words:
        return f"{', '.join(f'“{w}”' for w in words)} reads as {tone} for {option}"
    return f"the reader reads it as {tone} for {option}"


_WORD = re.compile(r"[A-Za-z][\w'-]*|[\u4e00-\u9fff]{2}")


def cue_words(kp: KeyPoint, option: str, options: list[str], polarity: int) -> list[str]:
    """The words (Chinese: character pairs) whose removal stops the reader reading
    `polarity`: whatever rules read them, these are what the reading rests on."""
    quote, found = kp.quote, []
    if reader_polarity(quote, option, kp, options) != polarity:
        return found  # read from elsewhere (the reader's claim on a comparison, say)
    for match in _WORD.finditer(quote):
        blanked = quote[: match.start()] + " " * len(match.group(0)) + quote[match.end() :]
        word = match.group(0)
        if reader_polarity(blanked, option, kp, options) != polarity and word not in found:
            found.append(word)
    return found[:3]


_DATE = re.compile(r"\d{4}(?:-\d{2}(?:-\d{2})?)?")
_VERSION = re.compile(r"v?(\d+(?:\.\d+){0,3})")
_RELEASE = re.compile(r"release_date(?:\s+v?(\d+(?:\.\d+){0,3}))?")
STATES = {"active": 1, "inactive": -1}


def typed_value(attribute: str, value: str) -> tuple[str, str, int] | None:
    """(attribute, value, polarity) in the reader's own form ("MIT License" -> MIT,
    "archived" -> inactive, "v2.10.0" -> 2.10), or None when it is not a value the reader
    compares: a licence, a maintenance state, the latest version or a release date."""
    attribute, value = " ".join(attribute.split()).lower(), " ".join(value.split())
    if attribute == "licence":
        fact = licence_fact(value)
        return (attribute, fact.value, fact.polarity) if fact else None
    if attribute == "maintenance":
        if value.lower() in STATES:
            return attribute, value.lower(), STATES[value.lower()]
        fact = maintenance_fact(value)
        return (attribute, fact.value, fact.polarity) if fact else None
    if attribute == "latest_version":
        match = _VERSION.fullmatch(value)
        return (attribute, normalise_version(match.group(1)), 0) if match else None
    release = _RELEASE.fullmatch(attribute)
    if release and _DATE.fullmatch(value):
        name = f"release_date {release.group(1)}" if release.group(1) else attribute
        return name, value, 0
    return None


def named_in(attribute: str, value: str, quote: str) -> bool:
    """Whether the quote itself names the typed value (in the reader's form) the model read
    from it: a licence, version or year that is not in the sentence was not read there. A
    maintenance state has too many wordings to check, and stands."""
    if attribute == "licence":
        return set(value.split(" OR ")) <= {name for _, name in licences(quote)}
    if attribute == "latest_version":
        return value in {normalise_version(v) for v in _VERSION_IN_TEXT.findall(quote)}
    if attribute.startswith("release_date"):
        version = attribute.removeprefix("release_date").strip()
        versions = {normalise_version(v) for v in _VERSION_IN_TEXT.findall(quote)}
        return value[:4] in quote and (not version or normalise_version(version) in versions)
    return True


_VERSION_IN_TEXT = re.compile(r"(?<![\w.])v?(\d+\.\d+(?:\.\d+)*)")
