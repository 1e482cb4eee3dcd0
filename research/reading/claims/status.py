"""Maintenance status facts: actively maintained, or archived and abandoned."""

from __future__ import annotations

import re

from research.reading.claims.facts import Fact, clauses
from research.reading.claims.scope import about_a_part

# --- maintenance status -------------------------------------------------------------------

_INACTIVE = re.compile(
    r"\barchived\b|\bdeprecated\b|\bunmaintained\b|\babandoned\b|no longer (?:actively )?"
    r"(?:maintained|developed|supported)|not (?:actively )?maintained|\bread-only\b|"
    r"end[- ]of[- ]life|\bEOL\b|discontinued|\bdead\b|已归档|归档|停止维护|不再维护|弃用|废弃|"
    r"停更|无人维护|停止更新|不再更新|"
    r"(?:hasn't|has not|haven't|have not|no) (?:had |seen |shipped )?(?:a |any )?(?:new )?"
    r"releases? in (?:over |more than )?(?:a|one|two|\d+) (?:years?|months)",
    re.I,
)
_ACTIVE = re.compile(
    r"actively (?:maintained|developed)|active development|(?:still|well|is) maintained|"
    r"(?:regular|frequent|monthly|weekly) releases|releases? (?:every|each) (?:week|month|"
    r"two weeks|fortnight|few weeks)|ships? (?:a release )?every|积极维护|持续维护|持续更新|"
    r"每月发布|活跃维护|仍在维护|维护活跃|频繁发布|定期发布|"
    r"(?:ships?|cuts?|publish(?:es)?) a release (?:roughly |about |almost )?every",
    re.I,
)
_NEGATED_INACTIVE = re.compile(
    r"\bnot (?:been )?(?:archived|deprecated|abandoned)|并未归档|没有归档", re.I
)


def maintenance_fact(sentence: str) -> Fact | None:
    # "The legacy adapter is deprecated" and "it used to be maintained" say nothing about
    # the project today.
    sentence = " , ".join(c for c in clauses(sentence) if not about_a_part(c))
    if _NEGATED_INACTIVE.search(sentence):
        return Fact("maintenance", "fact", "active", 1)
    inactive = [m.start() for m in _INACTIVE.finditer(sentence)]
    active = [m.start() for m in _ACTIVE.finditer(sentence)]
    if not inactive and not active:
        return None
    # "was actively maintained until it was archived": the later statement is the news.
    if max(inactive, default=-1) > max(active, default=-1):
        return Fact("maintenance", "fact", "inactive", -1)
    return Fact("maintenance", "fact", "active", 1)
