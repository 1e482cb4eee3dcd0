"""Long alternations of words, written so that the regex engine tries only the words that
begin with the letter at hand.

Python's `re` tries every branch of `a|b|c|...` in turn at every position it searches, so
a list of 200 cue words costs 200 tries at each word of a sentence. `factored` writes the
same alternation as a tree of shared beginnings (`fast(?:er|est|)|slow(?:er|)|...`), which
matches exactly what the plain one does, in the same order of preference:

- branches that begin with different literal characters cannot both match at one place,
  so grouping them by that character changes nothing about which one matches;
- a shared beginning that can match only one way (a literal character, or `\\b`) can be
  written once in front of the branches that share it, as long as they stand next to each
  other in the list;
- a branch that does not begin with a literal (a group, a class, `\\s`) keeps its place,
  and nothing is moved across it.

Branches with capturing groups are left as they are (moving them would renumber groups).

`needs_cjk` tells the patterns no text without a Chinese character can match, so that
English sentences skip them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser  # type: ignore[attr-defined]
from typing import Any

from research.reading.text import has_cjk

_SPECIAL = set("()[]{}?*+|.^$\\")
_QUANTIFIERS = ("?", "*", "+", "{")


def longest_first(words: Sequence[str]) -> list[str]:
    """The branches in the order a plain alternation of them prefers: longest first."""
    return sorted(words, key=len, reverse=True)


def factored(branches: Sequence[str], ignore_case: bool = False) -> str:
    """`(?:b1|b2|...)`, matching what the plain alternation of `branches` (regex fragments,
    in order of preference) matches, with shared beginnings written once."""
    split = [part for branch in branches for part in top_level_branches(branch)]
    if any(_captures(b) for b in split):
        return _group(split)
    return _group(_factor(split, ignore_case))


def top_level_branches(fragment: str) -> list[str]:
    """A fragment split at its top-level `|`: "a|(?:b|c)" gives ["a", "(?:b|c)"]."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(fragment):
        char = fragment[i]
        if char == "\\":
            i += 2
            continue
        if char == "[":
            i = _class_end(fragment, i)
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            parts.append(fragment[start:i])
            start = i + 1
        i += 1
    parts.append(fragment[start:])
    return parts


def _class_end(fragment: str, at: int) -> int:
    """Where the character class opened at `at` closes (a first `]` or `^]` is a member)."""
    i = at + 1
    if fragment[i : i + 1] == "^":
        i += 1
    if fragment[i : i + 1] == "]":
        i += 1
    while i < len(fragment) and fragment[i] != "]":
        i += 2 if fragment[i] == "\\" else 1
    return i


def _factor(branches: list[str], ignore_case: bool) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(branches):
        head = _head(branches[i], ignore_case)
        if head is None:
            out.append(branches[i])
            i += 1
            continue
        # The run of branches that each begin with a literal (or all with the same `\b`).
        run_end = i + 1
        while run_end < len(branches):
            other = _head(branches[run_end], ignore_case)
            if other is None or (other[0] == "zw") != (head[0] == "zw"):
                break
            if head[0] == "zw" and other[1] != head[1]:
                break
            run_end += 1
        groups: dict[str, tuple[str, list[str]]] = {}
        for branch in branches[i:run_end]:
            _, key, atom = _head(branch, ignore_case)  # type: ignore[misc]
            groups.setdefault(key, (atom, []))[1].append(branch[len(atom) :])
        for atom, rests in groups.values():
            inner = _factor(rests, ignore_case)
            out.append(atom + (inner[0] if len(inner) == 1 else _group(inner)))
        i = run_end
    return out


def _head(branch: str, ignore_case: bool) -> tuple[str, str, str] | None:
    """("lit", key, atom) when the branch begins with one literal character, ("zw", key,
    atom) when with `\\b`; None when it begins otherwise (or is empty)."""
    if not branch:
        return None
    if branch[0] == "\\":
        atom = branch[:2]
        if len(atom) < 2:
            return None
        if atom == r"\b":
            kind, key = "zw", atom
        elif atom[1].isalnum():
            return None  # a class (\s, \w, \d) or another assertion
        else:
            kind, key = "lit", atom[1]
    elif branch[0] in _SPECIAL:
        return None
    else:
        kind, key, atom = "lit", branch[0], branch[0]
    if branch[len(atom) : len(atom) + 1] in _QUANTIFIERS and len(branch) > len(atom):
        return None
    if kind == "lit" and ignore_case:
        if not (key.isascii() or key.lower() == key.upper()):
            return None  # a letter whose other cases re.I may pair with ASCII ones
        key = key.lower()
    return kind, key, atom


def _captures(branch: str) -> bool:
    plain = branch.replace("\\\\", "")
    return re.search(r"(?<!\\)\((?:(?!\?)|\?P<)", plain) is not None


def _group(branches: list[str]) -> str:
    return "(?:" + "|".join(branches) + ")"


def needs_cjk(pattern: str) -> bool:
    """Whether every match of `pattern` holds a Chinese character: then a text without one
    cannot match, and need not be searched."""
    return _all_need(_parser.parse(pattern))


def _all_need(items: Any) -> bool:
    return any(_needs(op, arg) for op, arg in items)


def _needs(op: Any, arg: Any) -> bool:
    if op is sre.LITERAL:
        return has_cjk(chr(arg))
    if op is sre.IN:
        return bool(arg) and all(o is sre.LITERAL and has_cjk(chr(v)) for o, v in arg)
    if op is sre.BRANCH:
        return all(_all_need(branch) for branch in arg[1])
    if op is sre.SUBPATTERN:
        return _all_need(arg[-1])
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
        return arg[0] >= 1 and _all_need(arg[2])
    return False


def required_literals(
    pattern: str, ignore_case: bool = False, shortest: int = 3
) -> frozenset[str] | None:
    """Strings one of which every match of `pattern` holds (case-folded when
    `ignore_case`), or None when there are none of at least `shortest` characters. A text
    holding none of them cannot match (`may_match`), which a substring search tells far
    sooner than the pattern's own."""
    found = _required(_parser.parse(pattern), ignore_case)
    if not found or min(len(s) for s in found) < shortest:
        return None
    return frozenset(found)


def literals_of(pattern: re.Pattern[str], shortest: int = 3) -> frozenset[str] | None:
    """required_literals of a compiled pattern, with its own case rule."""
    return required_literals(pattern.pattern, bool(pattern.flags & re.I), shortest)


def may_match(literals: frozenset[str] | None, folded: str | None) -> bool:
    """Whether a text may match a pattern with these `literals`; `folded` is the text
    case-folded (`fold_for_literals`), or None when that cannot be trusted."""
    return literals is None or folded is None or any(s in folded for s in literals)


def fold_for_literals(text: str) -> str | None:
    """The text as `may_match` compares it: case-folded, or None where casefold() and re.I
    disagree (re.I pairs the Turkish dotted and dotless i with ASCII ones)."""
    return None if _TURKISH_I.search(text) else text.casefold()


_TURKISH_I = re.compile("[\u0130\u0131]")


def _required(items: Any, ignore_case: bool) -> set[str] | None:
    """What a sequence requires: the best of what any one of its parts requires (a run of
    literal characters is one part)."""
    options: list[set[str]] = []
    run: list[str] = []
    for op, arg in [*items, (None, None)]:
        if op is sre.LITERAL:
            run.append(chr(arg))
            continue
        if run:
            text = "".join(run)
            options.append({text.casefold() if ignore_case else text})
            run = []
        if op is None:
            break
        inner = _required_of(op, arg, ignore_case)
        if inner:
            options.append(inner)
    if not options:
        return None
    return max(options, key=lambda s: (min(len(x) for x in s), -len(s)))


def _required_of(op: Any, arg: Any, ignore_case: bool) -> set[str] | None:
    if op is sre.BRANCH:
        union: set[str] = set()
        for branch in arg[1]:
            found = _required(branch, ignore_case)
            if not found:
                return None
            union |= found
        return union
    if op is sre.SUBPATTERN:
        return _required(arg[-1], ignore_case)
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT) and arg[0] >= 1:
        return _required(arg[2], ignore_case)
    return None
