"""Who each clause of a sentence is about.

A sentence is cut into clauses at semicolons, colons, dashes and "but"; a comma-level piece
that names another option starts a clause of its own ("Svelte renders fastest, Vue
balances speed and reactivity, React needs care"), and a piece naming none continues the
clause. A clause is about the first option it names as more than a yardstick ("faster than
X"), an example ("such as X") or a part of another name ("the X protocol"), with any listed
along with it; a clause naming nobody is about the clause before it, and the first is about
the point's option when the point itself is (a pronoun, a table column, a list item under
its heading).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from research.reading.claims.mentions import mentions_of
from research.reading.claims.stances import neutral_masked

# How a key point came to be about its option (KeyPoint.about).
NAMED, PRONOUN, TABLE, HEADING, PARAGRAPH, PAGE = (
    "named",
    "pronoun",
    "table",
    "heading",
    "paragraph",
    "page",
)


@dataclass(frozen=True)
class Point:
    """A key point as the reader sees it."""

    quote: str
    option: str | None
    about: str | None = NAMED
    polarity: int | None = None  # the verdict of its table column or pros/cons list
    header: str | None = None
    before: str = ""  # the stored text just before and after the quote
    after: str = ""
    cell: str | None = None  # a table cell's own text, when the quote is its whole row


@dataclass
class Clause:
    text: str
    subjects: list[str] = field(default_factory=list)
    rivals: list[str] = field(default_factory=list)  # "an alternative to X": X
    contrast: bool = False  # opens with "but", "although", "但"
    aside: bool = False  # what the option suits ("Best for: ..."), which judges nothing


# --- clauses and who they are about -------------------------------------------------------

_CONTRAST_WORDS = r"(?:but|however|whereas|while|although|though|yet|except|nonetheless)"
_HARD_BREAK = re.compile(
    r"\s*[;；:：]\s*|\s+[—–]\s+|\s+-\s+|(?<=\S)[—–](?=\S)|"
    rf",?\s+(?={_CONTRAST_WORDS}\b)|"
    r"[，,]\s*(?=(?:但|但是|而|不过|然而|可是|却|虽然|尽管))|(?<=[。])",
    re.I,
)
_CONTRAST = re.compile(rf"^\s*(?:{_CONTRAST_WORDS}\b|但|但是|而|不过|然而|可是|却|虽然|尽管)", re.I)
_SOFT_BREAK = re.compile(r"[,，、]\s*")
# A pronoun that points back to one option; "they" and "它们" may mean several.
_PRONOUN = re.compile(
    r"^\s*(?:(?:but|however|and|yet|although|though|while|whereas)\s+)?"
    r"(?:it|its|it's|the (?:project|framework|library|tool|drug|"
    r"software|product|platform|service|broker|database|app))\b|"
    r"^\s*(?:但|而|不过)?(?:它(?!们)|其|该)",
    re.I,
)
# A list item that opens with another product's name ("ZooKeeper security lags ...") is
# about that product, not the option its heading names.
_OTHER_NAME_FIRST = re.compile(r"^\s*(?:[-*+•·▪◦‣]|\d{1,2}[.)、])?\s*[A-Z][a-z]+[A-Z]\w*")
# Where an option is named as a yardstick or an example, not as what is judged.
_REFERENCE = re.compile(
    r"(?:\bthan|\binstead of|\brather than|\bunlike|\bcompared (?:to|with)|"
    r"\brelative to|\bversus|\bvs\.?|\blike|\bsuch as|\bincluding|\bover|\bfrom|\bbeyond|"
    r",\s*not|\boutperform(?:s|ed|ing)?|\bbeats?|\bbeating|\bsurpass(?:es|ed)?|\bbehind|"
    r"\bahead of|\b(?:reduc|lower|cut|sav)\w*\s+(?:the\s+)?(?:costs?|prices?|bills?)\s+"
    r"(?:of|for|on)|"
    r"\d(?:\.\d+)?\s*(?:x|×|times)\s+(?:(?:more|less|the)\s+)*(?:[\w-]+\s+){0,2}of|"
    r"相比|比|像|如|例如|比如|包括)\s*(?:the\s+)?$",
    re.I,
)
_RIVAL = re.compile(
    r"(?:\balternatives? (?:to|for)|\breplacements? for|\bsubstitutes? for|替代)\s*(?:the\s+)?$",
    re.I,
)
# "the Kafka protocol", "a Redis-compatible store": a mention naming something else.
_MODIFIER = re.compile(
    r"^(?:-?compatible|[- ](?:protocol|api|apis|wire protocol|clones?|forks?|wrappers?|"
    r"compatible|client|clients|connectors?|plugins?|alternatives?|killer|cli|sdks?|"
    r"dashboard|console|operator|exporter|driver|drivers)\b)",
    re.I,
)
# "Best for: ...", "适用场景：...": what follows describes uses, not the option.
_USE_CASE_LEAD = re.compile(
    r"(?:\b(?:best|ideal|good|great|suitable|suited|perfect) for|\buse cases?|\bwhen to use|"
    r"适用场景|适用于|适合|使用场景|应用场景)\s*[:：]?\s*$",
    re.I,
)
_LIST_JOIN = re.compile(
    r"^\s*(?:,?\s*\band\b|,?\s*\bor\b|,|、|/|&|和|与|及)\s*(?:\bboth\b\s*)?$", re.I
)


def clauses_of(point: Point, options: Sequence[str], aliases: dict) -> list[Clause]:
    """The quote's clauses, each with the options it is about. A comma-level piece that
    names another option starts a clause of its own ("Svelte renders fastest, Vue balances
    speed and reactivity, React needs care"); a piece naming none continues the clause."""
    quote = point.quote
    spans: list[list] = []  # [start, end, subjects, rivals]
    pieces = _pieces(quote)
    roles = _roles(quote, mentions(quote, options, aliases, point.option), pieces)
    for start, end, opens in pieces:
        subjects, rivals = _subjects(quote, (start, end), roles)
        last = spans[-1] if spans else None
        if last is None or opens or (subjects and last[2] and subjects != last[2]):
            spans.append([start, end, subjects, rivals])
            continue
        last[1] = end
        last[2] = last[2] or subjects
        last[3] = last[3] + rivals
    clauses = [
        Clause(quote[s:e], subjects, rivals, bool(_CONTRAST.match(quote[s:e])))
        for s, e, subjects, rivals in spans
    ]
    for lead, clause in itertools.pairwise(clauses):
        clause.aside = bool(_USE_CASE_LEAD.search(lead.text))
    _inherit(clauses, _first_subject(point), aliases)
    return clauses


def _inherit(clauses: list[Clause], first: list[str], aliases: dict) -> None:
    """A clause that names nobody is about the one before it; the first is about the
    point's option when the point itself is (a pronoun, a heading over a list item). A
    concession names its subject after it: "Although small, the Vue ecosystem ..."."""
    for i, clause in enumerate(clauses):
        if clause.subjects:
            continue
        if i:
            clause.subjects = list(clauses[i - 1].subjects)
        elif first:
            clause.subjects = list(first)
        elif (
            len(clauses) > 1
            and not clause.rivals
            and (clauses[1].contrast or _only_names(clauses[1].text, clauses[1].subjects, aliases))
        ):
            clause.subjects = list(clauses[1].subjects)  # "Best lightweight fabric: NATS."


def _only_names(text: str, subjects: list[str], aliases: dict) -> bool:
    left = masked(text, subjects, aliases)
    return bool(subjects) and not re.search(r"\w", left)


def _first_subject(point: Point) -> list[str]:
    if point.option is None:
        return []
    if point.about in (PRONOUN, TABLE) and _PRONOUN.match(point.quote):
        return [point.option]
    if point.about == TABLE:
        return [point.option]
    if point.about in (HEADING, PARAGRAPH) and _is_bullet(point.quote):
        return [] if _OTHER_NAME_FIRST.match(point.quote) else [point.option]
    return []


def _is_bullet(quote: str) -> bool:
    return bool(re.match(r"^\s*(?:[-*+•·▪◦‣]|\d{1,2}[.)、])\s+", quote))


def _pieces(quote: str) -> list[tuple[int, int, bool]]:
    """(start, end, opens a clause) of the quote's comma-level pieces: a piece after a
    hard break (a semicolon, a colon, a dash, "but") opens a clause of its own."""
    out: list[tuple[int, int, bool]] = []
    hard_at = 0
    for hard in [*_HARD_BREAK.finditer(quote), None]:
        end = hard.start() if hard else len(quote)
        opens = True
        soft_at = hard_at
        for soft in [*_SOFT_BREAK.finditer(quote, hard_at, end), None]:
            piece_end = soft.end() if soft else end
            if quote[soft_at:piece_end].strip():
                out.append((soft_at, piece_end, opens))
                opens = False
            soft_at = piece_end
        hard_at = hard.end() if hard else len(quote)
    return out


Role = tuple[int, int, str, str]  # start, end, option, role


def _roles(quote: str, found: list[tuple[int, int, str]], pieces: list) -> list[Role]:
    """Each mention's role: "subject", "yardstick" (named to compare with, as an example,
    or one of a list named in passing: "X, Y and others"), "rival" ("an alternative to
    X") or "part" (of another name: "the X protocol")."""
    roles: list[Role] = []
    passing = _in_passing(quote, found)
    for start, end, option in found:
        piece_start = max((p for p, _, _ in pieces if p <= start), default=0)
        previous = roles[-1] if roles else None
        before = _unlisted(quote[max(0, start - 80) : start], quote[end:])
        listed = previous is not None and _listed(quote, previous[1], start, end, piece_start)
        if _RIVAL.search(before) or (listed and previous and previous[3] == "rival"):
            role = "rival"
        elif (
            _REFERENCE.search(before)
            or (listed and previous and previous[3] == "yardstick")
            or (start, end) in passing
        ):
            role = "yardstick"  # "such as Quillsync and Loamdb": both are examples
        elif _MODIFIER.match(quote[end:]):
            role = "part"
        else:
            role = "subject"
        roles.append((start, end, option, role))
    return roles


def _subjects(quote: str, piece: tuple[int, int], roles: list[Role]) -> tuple[list[str], list[str]]:
    """(the options a piece of the quote is about, the options it offers an alternative
    to). What it is about is the first option it names as more than a yardstick, an
    example, one of a list named in passing or part of another name, with any listed
    along with it ("Django and Flask both ...")."""
    inside = [r for r in roles if piece[0] <= r[0] and r[1] <= piece[1]]
    rivals = [o for _, _, o, role in inside if role == "rival"]
    named = [r for r in inside if r[3] == "subject"]
    if not named:
        return [], rivals
    chosen = [named[0]]
    for mention in named[1:]:
        if not _LIST_JOIN.match(_unbracketed(quote[chosen[-1][1] : mention[0]])):
            break
        chosen.append(mention)
    return list(dict.fromkeys(o for _, _, o, _ in chosen)), rivals


# One item of a list of names: "Peewee", "Apache Pulsar". (A run of Chinese has no
# spaces to tell a name from the words around it.)
_ITEM = r"(?:[A-Z0-9][A-Za-z0-9.+#-]*(?:\s+[A-Z0-9][A-Za-z0-9.+#-]*){0,2})"
_JOIN = r"(?:,?\s*\b(?:and|or)\b|,|，|、|/|&|和|与|及)"
# The names listed before a mention: "such as Peewee, Pony and " ends in a list.
_LIST_BEFORE = re.compile(rf"(?:{_ITEM}\s*(?:\([^()]*\)\s*)?{_JOIN}\s*)+$")
# A list that closes on "and others", "etc.", "等": its names are examples.
_OPEN_END = re.compile(
    r"^\s*(?:,\s*)?(?:(?:and|or)\s+(?:many\s+|several\s+|a few\s+)?"
    r"(?:others|more(?=\s*[.,;:!)]|\s*$)|the like|so on|similar\b)|etc\b|等(?![于待级同]))",
    re.I,
)


def _unlisted(before: str, after: str) -> str:
    """What stands before the list of names a mention is one of: for "alternatives such
    as Peewee, Pony and Quillsync" it is "alternatives such as ". A name after a comma is
    one of the list only when the list goes on after it ("such as Peewee, Quillsync and
    Pony"): in "Unlike Peewee, Quillsync is ..." the comma ends the yardstick."""
    listed = _LIST_BEFORE.search(before)
    if listed is None:
        return before
    last_join = re.search(rf"{_JOIN}\s*$", listed.group(0))
    bare_comma = last_join is not None and last_join.group(0).strip() in (",", "，")
    if bare_comma and not _LIST_AFTER.match(after):
        return before
    return before[: listed.start()]


_LIST_AFTER = re.compile(rf"^\s*{_JOIN}\s*(?:{_ITEM}|others|more)")


def _listed(quote: str, after: int, start: int, end: int, piece_start: int) -> bool:
    """Whether the mention at start..end goes on the list of the one ending at `after`: a
    name in the piece after a comma does only when the list goes on after it ("like
    NATS, RabbitMQ, and Kafka"), not in "Faster than Loamdb, Tessera handles ..."."""
    if not _LIST_JOIN.match(quote[after:start]):
        return False
    return after >= piece_start or bool(_LIST_AFTER.match(quote[end:]))


def _in_passing(text: str, found: list[tuple[int, int, str]]) -> set[tuple[int, int]]:
    """The mentions that belong to a list named in passing, one that closes on "and
    others", "etc." or "等" ("Celery, RQ and others offer retries")."""
    passing: set[tuple[int, int]] = set()
    run: list[tuple[int, int]] = []
    for i, (start, end, _) in enumerate(found):
        if run and not _LIST_JOIN.match(text[run[-1][1] : start]):
            run = []
        run.append((start, end))
        following = found[i + 1][0] if i + 1 < len(found) else len(text)
        tail = text[end:following]
        if _OPEN_END.match(tail) or _OPEN_END.match(_LIST_TAIL.sub("", tail, count=1)):
            passing.update(run)
    return passing


# The names a list goes on with after a mention: ", Peewee and Pony".
_LIST_TAIL = re.compile(rf"^(?:\s*{_JOIN}\s*{_ITEM})+")


def named_subjects(
    text: str, options: Sequence[str], aliases: dict, context: str | None = None
) -> tuple[list[str], list[str]]:
    """(the options the text's clauses are about, in order; those it names only in
    passing: as a yardstick, an example, one of a list, a rival or part of another name).
    `context` is the option the text stands under, named by its kind ("the ORM")."""
    pieces = _pieces(text)
    roles = _roles(text, mentions(text, options, aliases, context), pieces)
    subjects = [o for start, end, _ in pieces for o in _subjects(text, (start, end), roles)[0]]
    subjects = list(dict.fromkeys(subjects))
    return subjects, list(dict.fromkeys(o for _, _, o, _ in roles if o not in subjects))


def _unbracketed(text: str) -> str:
    """ "1Password (commercial SaaS) and " lists as "1Password and "."""
    return re.sub(r"\s*[(（][^()（）]*[)）]\s*", " ", text)


def mentions(
    text: str, options: Sequence[str], aliases: dict, context: str | None = None
) -> list[tuple[int, int, str]]:
    """Every mention of an option by name or alias, and of `context` (the option the text
    stands under) by its kind: "the ORM" on a page about the Django ORM."""
    return mentions_of(text, options, aliases, context)


# Words that name a thing without judging it: an indirect question ("how fast it is"),
# what the option suits ("suitable for complex apps"), what options differ in.
_NOT_JUDGED = re.compile(
    r"\bhow (?:fast|slow|efficient|efficiently|easy|easily|hard|good|well|reliable|secure|"
    r"much|many|big|small|scalable|mature|stable|popular|complex)\b|\bwhether\b[^,;]*|"
    r"\b(?:suitable|suited|ideal|great|best|good|perfect|designed|intended|meant) for\b.*|"
    r"\bwhen (?:building|you need|you want)\b.*|"
    # What a sentence sets aside: "regardless of the size and complexity of the setup".
    r"\b(?:regardless of|irrespective of|no matter (?:how|what))\b[^,;]*|"
    r"(?:无论|不管|不论)[^，,。；;]*|"
    # The work an option is put to, not the option: "for complex analytical queries",
    # "handles large, complicated workflows".
    r"\b(?:for|with|handles?|handling|supports?|supporting|build(?:s|ing)?|runs?|running|"
    r"of)\s+(?:(?:very|highly|more|most|really)\s+)?(?:complex|complicated|simple|large|"
    r"heavy|demanding|advanced|sophisticated)(?:,? (?:and |or )?(?:complex|complicated|"
    r"large|heavy|demanding|advanced))?(?:\s+(?!(?:to|and|or|but|than|for|is|are)\b)[a-z][\w-]*){1,3}"
    r"(?<=s)\b|"
    r"\bdiffer(?:s|ing)? (?:mainly |mostly |primarily |chiefly )?(?:in|on)\b.*|"
    r"\btrade-?offs? (?:between|in|of)\b.*|"
    r"\b(?:might|may|could) (?:have )?(?:contributed|contribute|explained|explain|"
    r"accounted|account|been due|be due)\b.*|"
    r"(?:适合|适用于?|适用场景|用于|面向)[^，,。；;]*|是否[^，,。；;]*|"
    r"\b(?:at|under|with) (?:very |relatively )?(?:low|lower|high|higher|moderate|heavy|light|"
    r"small|large|larger|smaller) (?:throughputs?|loads?|volumes?|scale|traffic|concurrency|"
    r"message rates?|sizes?)\b|\bfor more\b[^,;]*",
    re.I,
)


def masked(text: str, options: Sequence[str], aliases: dict) -> str:
    for start, end, _ in mentions(text, options, aliases):
        text = text[:start] + " " * (end - start) + text[end:]
    text = text.replace("\u2019", "'")
    text = _NOT_JUDGED.sub(lambda m: " " * len(m.group(0)), text)
    return neutral_masked(text)
