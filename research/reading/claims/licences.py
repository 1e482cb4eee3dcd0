"""Licence facts: which licence a sentence says an option is under today."""

from __future__ import annotations

import re

from research.reading.claims.facts import CLAUSE_BREAK, Fact

PERMISSIVE = {"MIT", "Apache-2.0", "BSD", "ISC", "Unlicense"}
RESTRICTIVE = {"GPL-2.0", "GPL-3.0", "AGPL-3.0", "SSPL", "BSL", "proprietary"}
# Open source (OSI-approved), copyleft included; BSL, SSPL and proprietary licences are not.
OPEN = PERMISSIVE | {"GPL-2.0", "GPL-3.0", "AGPL-3.0", "LGPL", "MPL-2.0"}

# --- licences -----------------------------------------------------------------------------

LICENCE_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("AGPL-3.0", re.compile(r"\bAGPL(?:[- ]?v?3(?:\.0)?)?\b|Affero", re.I)),
    ("LGPL", re.compile(r"\bLGPL(?:[- ]?v?[23](?:\.\d)?)?\b|Lesser General Public", re.I)),
    ("GPL-2.0", re.compile(r"\bGPL[- ]?v?2(?:\.0)?\b", re.I)),
    ("GPL-3.0", re.compile(r"(?<![AL])\bGPL(?:[- ]?v?3(?:\.0)?)?\b|GNU General Public", re.I)),
    (
        "Apache-2.0",
        re.compile(r"\bApache(?:[- ]License)?(?:[,\s-]*(?:Version|v)?\s*2(?:\.0)?)?\b", re.I),
    ),
    ("MIT", re.compile(r"\bMIT(?=[\s-]*(?:licen[cs]|许可|协议|授权|$|[\s,.;)，。]))")),
    ("BSD", re.compile(r"\bBSD(?:[- ][0-9]-Clause)?\b", re.I)),
    ("MPL-2.0", re.compile(r"\bMPL(?:[- ]?2(?:\.0)?)?\b|Mozilla Public", re.I)),
    ("BSL", re.compile(r"Business Source|\bBUSL(?:-1\.1)?\b|\bBSL\b(?:[- ]1\.[01])?", re.I)),
    ("SSPL", re.compile(r"\bSSPL\b|Server Side Public", re.I)),
    (
        "proprietary",
        re.compile(
            r"proprietary licen[cs]e|closed[- ]source licen[cs]e|"
            r"(?:went|became|is now|turned) (?:closed[- ]source|proprietary)"
            r"|转为闭源|改为闭源",
            re.I,
        ),
    ),
]
_LICENCE_CONTEXT = re.compile(r"licen[cs]|许可|协议|授权|开源|relicens|terms", re.I)
_TRANSITION = re.compile(
    r"(?:switch(?:ed|es|ing)?|mov(?:ed|es|ing)|chang(?:ed|es|ing)|relicens(?:ed|es|ing)|"
    r"went|converted|migrated)\b[^.;]*?\b(?:to|under)\b|改为|改用|切换到|切换为|转为|变更为|换成",
    re.I,
)


def _hypothetical(clause: str) -> bool:
    """ "after which it converts to Apache-2.0" is not today's licence; "will remain MIT"
    is."""
    if _STAYS.search(clause):
        return False
    return bool(_HYPOTHETICAL.search(clause)) and not _TRANSITION.search(clause)


_STAYS = re.compile(r"\bwill (?:remain|stay|continue to be|keep)\b|将(?:继续|保持)", re.I)


def licences(sentence: str) -> list[tuple[int, str]]:
    found: dict[str, int] = {}
    for name, pattern in LICENCE_PATTERNS:
        for match in pattern.finditer(sentence):
            if not _overlaps_known(found, match.start(), sentence):
                found.setdefault(name, match.start())
    return sorted((pos, name) for name, pos in found.items())


def _overlaps_known(found: dict[str, int], start: int, sentence: str) -> bool:
    # "AGPL" also matches the GPL pattern one letter in; the first, longer match wins.
    return any(abs(start - pos) <= 1 for pos in found.values())


_HYPOTHETICAL = re.compile(
    r"\b(?:will|would|could|might|if|converts? to|after which|unless)\b|"
    r"将会|如果|若",
    re.I,
)


def licence_fact(sentence: str) -> Fact | None:
    sentence = " , ".join(c for c in CLAUSE_BREAK.split(sentence) if not _hypothetical(c))
    named = licences(sentence)
    if not named or not (_LICENCE_CONTEXT.search(sentence) or len(named) == 1):
        return None
    transition = _TRANSITION.search(sentence)
    if transition:
        after = [name for pos, name in named if pos >= transition.start()]
        if after:
            return _licence(after[-1])
    names = sorted({name for _, name in named})
    if len(names) == 1:
        return _licence(names[0])
    if re.search(r"dual|either|双许可|双重许可", sentence, re.I):
        return Fact("licence", "fact", " OR ".join(names), 1)
    return None  # several licences without a clear current one: not a claim


def licence_polarity(name: str, as_risk: bool) -> int:
    """What a licence says on a dimension: as a risk to a team building on the option
    (`as_risk`), a permissive grant is good and copyleft or a closed licence bad; as
    openness (a plain "licence" dimension), any open-source licence is good and a closed
    or source-available one bad. "A OR B" (dual licensing) is as good as its best."""
    names = name.split(" OR ")
    if as_risk:
        return 1 if any(n in PERMISSIVE for n in names) else -1 if names[0] in RESTRICTIVE else 0
    return 1 if any(n in OPEN for n in names) else -1 if names[0] in RESTRICTIVE else 0


def _licence(name: str) -> Fact:
    polarity = 1 if name in PERMISSIVE else -1 if name in RESTRICTIVE else 0
    return Fact("licence", "fact", name, polarity)
