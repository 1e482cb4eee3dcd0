"""Statements that judge nothing, though they state something.

A careful reader does not score what the writer only passes on, supposes or makes depend
on a condition, nor an offer made to sell it:
- hearsay: "some users report that X costs more", "据说";
- a hedge: "X seemingly scales", "X is arguably the fastest", "似乎";
- a condition: "X's reliability hinges on configuring it correctly", "only if tuned",
  "取决于 ...";
- a promotion: "new users get three months free", "限时优惠".
These words are general English and Chinese, not any one page's: each pattern names a way
of speaking, and the reason it gives is logged with the sentence.
"""

from __future__ import annotations

import re

_HEARSAY = re.compile(
    r"\b(?:some|many|a few|several|other|certain) (?:\w+ )?(?:users|people|customers|"
    r"developers|reviewers|commenters|redditors|folks|teams|admins)\s+(?:have\s+)?(?:report(?:ed)?|"
    r"say|said|claim(?:ed)?|complain(?:ed)?|mention(?:ed)?|feel|felt|find|found|think|thought|"
    r"argue[ds]?|suggest(?:ed)?|swear)\b|"
    r"\b(?:reportedly|allegedly|supposedly|rumou?red(?:ly)?|it is said|it's said|"
    r"word is|i(?:'ve| have) heard|people say)\b|"
    r"据说|据称|听说|有人说|有人认为|网传|传闻|有(?:些|的)?(?:用户|网友|开发者)(?:反映|反馈|表示|称|说)",
    re.I,
)
_HEDGE = re.compile(
    r"\b(?:perhaps|possibly|arguably|presumably|seemingly|apparently|conceivably|"
    r"in theory|theoretically)\b|\b(?:seems?|appears?) to\b|"
    r"似乎|好像|也许|或许|大概|理论上",
    re.I,
)
# What the judgement is made to depend on: not a verdict on the option as it comes.
_CONDITION = re.compile(
    r"\b(?:hinges|conditional|contingent) (?:up)?on\b|"
    r"\b(?:only|as long as|provided(?: that)?|so long as) (?:if|when) (?:you|it is|it's|"
    r"properly|correctly|carefully|configured|tuned)\b|"
    r"取决于|前提是",
    re.I,
)
_PROMOTION = re.compile(
    r"\b(?:for new (?:users|customers|accounts)|new (?:users|customers) (?:get|can|"
    r"receive)|\d+\s?% off|coupons?|promo(?:tion(?:al)?)? codes?|limited[- ]time|"
    r"special offer|sign up (?:now|today)|act now|black friday|cyber monday)\b|"
    r"新用户|限时|优惠券|代金券|促销|特价|活动期间|免费领取|首单|首年\d*折",
    re.I,
)

_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("hearsay, not the writer's own judgement", _HEARSAY),
    ("a condition, not a judgement", _CONDITION),
    ("a promotion", _PROMOTION),
    ("hedged", _HEDGE),
)


def no_judgement(sentence: str) -> str | None:
    """Why the sentence, though it states something, judges nothing; None when it may."""
    for reason, pattern in _KINDS:
        if pattern.search(sentence):
            return reason
    return None
