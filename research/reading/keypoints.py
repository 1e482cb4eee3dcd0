"""Key points: the sentences of a page that say something about an option.

Each key point carries the exact quote and its offset in the stored text, so any reader
can check it with `stored[offset:offset + len(quote)] == quote`.

Which option a sentence is about, in order: the option it names first; for a sentence
opening with a pronoun ("It is Apache-2.0"), the option the paragraph last named; the
option named by the heading the sentence sits under; the one option the page is about.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from research.artifacts import KeyPoint
from research.reading.claims import stance_polarity, table_rows
from research.reading.claims.clauses import named_subjects
from research.reading.lexicon import keywords_for
from research.reading.text import count_terms, first_mention, has_cjk, sentence_spans

MAX_QUOTE = 400
_FACT_SIGNAL = re.compile(
    r"\d|licen[cs]e|archived|deprecated|unmaintained|maintained|end[- ]of[- ]life|"
    r"release|版本|许可|归档|维护|发布|停止",
    re.IGNORECASE,
)
_COMPARISON = re.compile(
    r"\b(?:than|versus|vs\.?|compared (?:to|with)|unlike|whereas|outperform\w*|beats?|"
    r"superior|inferior)\b|比|相比|优于|不如|胜过|超过",
    re.IGNORECASE,
)
_PRONOUN_START = re.compile(
    r"(?:It|Its|It's|This|They|Their|These|The (?:project|framework|library|tool|drug))\b"
    r"|(?:它|其|该)"
)
_MARKUP = re.compile(r"^\s*(?:[#>*+-]+|\d+\.)\s+|[*_`]{1,3}")
_HEADING = re.compile(r"^\s*#{1,6}\s+\S")
_CLAUSE_BREAK = re.compile(r"(?<=[;；,，:：])\s*|\s+(?:-|–|—)\s+")


@dataclass
class _Context:
    """What a reader remembers while going down a page."""

    paragraph_option: str | None = None
    heading_option: str | None = None
    last_option: str | None = None  # the option the last paragraph was about
    lead_option: str | None = None  # the option a list's lead-in ("Key findings:") is about
    previous_end: int = 0
    aliases: dict[str, tuple[str, ...]] = field(default_factory=dict)


def key_points(
    text: str,
    options: list[str],
    dimensions: list[str],
    page_option: str | None = None,
    base_offset: int = 0,
    limit: int = 24,
    aliases: dict[str, tuple[str, ...]] | None = None,
) -> list[KeyPoint]:
    """Pick up to `limit` sentences, the most informative first, returned in page order.
    `aliases` are other names of the options (brand names, abbreviations)."""
    scored = scored_points(text, options, dimensions, page_option, base_offset, aliases)
    return best_points(scored, limit)


MIN_SCORE = 3  # what a sentence must score to be a key point


@dataclass(frozen=True)
class Scored:
    """A sentence (or table row) the reader judged, with what it scored."""

    score: int
    at: int  # where it starts in the text scored (its offset less base_offset)
    point: KeyPoint
    table: bool = False  # a table row or pros/cons item, tied to its option by its place


def scored_points(
    text: str,
    options: list[str],
    dimensions: list[str],
    page_option: str | None = None,
    base_offset: int = 0,
    aliases: dict[str, tuple[str, ...]] | None = None,
    min_score: int = MIN_SCORE,
) -> list[Scored]:
    """Every sentence about an option that scores at least `min_score`, and every table
    row, in no particular order. A `min_score` below MIN_SCORE casts a wider net, for a
    reader (the model) that looks again at what the rules would leave out."""
    scored: list[Scored] = []
    ctx = _Context(aliases=aliases or {})
    for start, end in sentence_spans(text):
        subject, about, named = _subject(text, start, end, options, page_option, ctx)
        for s, e in _pieces(text, start, end):
            quote = text[s:e]
            if not _usable(quote):
                continue
            point, score = _judge(
                quote, s + base_offset, named, about, subject, dimensions, min_score
            )
            if point is not None:
                point.about = about  # type: ignore[assignment]
            if point is not None:
                scored.append(Scored(score, s, point))
    return _with_table_points(scored, text, options, dimensions, base_offset)


def best_points(scored: list[Scored], limit: int) -> list[KeyPoint]:
    """The `limit` best of those scoring MIN_SCORE or more, in page order. No one option
    and dimension takes more than half the places while others are waiting, so a page that
    says one thing twenty ways (a changelog, a repeated template) still gives its other
    points."""
    eligible = sorted((s for s in scored if s.score >= MIN_SCORE), key=lambda s: (-s.score, s.at))
    share = max(1, limit // 2)
    taken: dict[tuple[str | None, str | None], int] = {}
    best, waiting = [], []
    for s in eligible:
        cell = (s.point.option, s.point.dimension)
        if taken.get(cell, 0) < share:
            taken[cell] = taken.get(cell, 0) + 1
            best.append(s)
        else:
            waiting.append(s)
    best = (best + waiting)[:limit]
    return [s.point for s in sorted(best, key=lambda s: s.at)]


TABLE_SCORE = 5  # a row or list item that a table or list ties to an option is evidence


def _with_table_points(
    scored: list[Scored],
    text: str,
    options: list[str],
    dimensions: list[str],
    base_offset: int,
) -> list[Scored]:
    """Table rows and pros/cons items, which name their option by their column or the
    heading above them; they replace a sentence key point over the same text."""
    table = {}
    for fact in table_rows(text, options):
        quote = text[fact.start : fact.end]
        if not quote.strip() or (fact.start, fact.option) in table:
            continue
        dimension = best_dimension(f"{fact.header} {fact.cell}", dimensions) or best_dimension(
            quote, dimensions
        )
        table[(fact.start, fact.option)] = KeyPoint(
            text=clean(f"{fact.header}: {fact.cell}" if fact.header else fact.cell),
            quote=quote,
            offset=fact.start + base_offset,
            option=fact.option,
            dimension=dimension,
            polarity=fact.polarity or None,
            header=fact.header or None,
            about="table",
        )
    spans = [(p.offset, p.offset + len(p.quote)) for p in table.values()]
    kept = [
        s
        for s in scored
        if not any(
            s.point.offset < end and start < s.point.offset + len(s.point.quote)
            for start, end in spans
        )
    ]
    return kept + [Scored(TABLE_SCORE, p.offset - base_offset, p, True) for p in table.values()]


def _subject(
    text: str, start: int, end: int, options: list[str], page_option: str | None, ctx: _Context
) -> tuple[str | None, str | None, bool]:
    """(the option this sentence is about, how the reader knows: "named", "pronoun",
    "paragraph", "heading" or "page", whether the sentence names an option itself)."""
    if "\n\n" in text[ctx.previous_end : start]:
        ctx.paragraph_option = None  # a new paragraph may change the subject
    ctx.previous_end = end
    sentence = text[start:end]
    before = ctx.paragraph_option
    named, passing = _named(sentence, options, page_option, ctx)
    lead = _list_lead(sentence, named or passing, before or ctx.last_option, ctx)
    ctx.last_option = ctx.paragraph_option or ctx.last_option
    pronoun = bool(_PRONOUN_START.match(sentence))
    mentioned = bool(named or passing)
    if named and not (pronoun and before):
        return named[0], "named", True
    if lead:
        return lead, "paragraph", False
    if not pronoun and _OTHERS_FIRST.match(sentence):
        return None, None, mentioned  # "Alternatives such as X and Y are lighter"
    # "We are evaluating Quillsync. It is Apache-2.0 ... than Loamdb": "It" is the option
    # just named, not the one the sentence mentions in passing ("Unlike Loamdb, ...").
    if before:
        return before, "pronoun" if pronoun else "paragraph", mentioned
    if ctx.heading_option:
        return ctx.heading_option, "heading", mentioned
    if page_option:
        return page_option, "page", mentioned
    # Named only in passing, with nothing else it could be about: the reader will not
    # judge an option from a yardstick, but the sentence may still say something of it.
    return (passing[0], "named", True) if passing else (None, None, False)


def _named(
    sentence: str, options: list[str], page_option: str | None, ctx: _Context
) -> tuple[list[str], list[str]]:
    """(the options the sentence is about, those it names only in passing), noting what a
    heading or a paragraph is about. The option the text stands under is also named by its
    kind with a definite article ("the ORM")."""
    if _is_heading(sentence):
        named = _named_in_order(sentence, options, ctx.aliases)
        ctx.heading_option = named[0] if len(named) == 1 else None
        ctx.paragraph_option = None
        return named, []
    context = ctx.paragraph_option or ctx.heading_option or page_option
    named, passing = named_subjects(sentence, options, ctx.aliases, context)
    if named:
        ctx.paragraph_option = named[0]
    return named, passing


# A sentence whose subject is a list of other products named in passing: "Alternatives
# such as X and Y ...", "X, Y, Z and others ...", "像 X、Y 这样的替代品", "X、Y 等工具".
_OTHERS_FIRST = re.compile(
    r"^\s*(?:[-*+•·▪◦‣]\s*)?(?:(?:other|popular|similar|lighter|newer|older|many)\s+)?"
    r"(?:\w+\s+)?(?:alternatives?|competitors?|rivals?|options|tools|libraries|frameworks|"
    r"products|projects|solutions|services|engines|databases)\s+(?:such as|like|including)\b|"
    r"^\s*(?:[-*+•·▪◦‣]\s*)?[A-Z][\w.+-]*(?:\s*,\s*[A-Z][\w.+-]*)+,?\s+(?:and|or)\s+"
    r"(?:many\s+)?(?:others|more)\b|"
    r"^\s*(?:[-*+•·▪◦‣]\s*)?(?:其他|其它|类似的?)?(?:像|例如|比如|诸如|如(?![果何今此]))"
    r"[^，,。；]{1,40}?(?:这样|之类|等(?![于待级同]))|"
    r"^\s*(?:[-*+•·▪◦‣]\s*)?[A-Za-z][\w.+-]*(?:\s*、\s*[A-Za-z][\w.+-]*)+\s*等",
    re.I,
)


_BULLET_START = re.compile(r"^\s*(?:[-*+•·▪◦‣]|\d{1,2}[.)、])\s+")


def _list_lead(sentence: str, named: list[str], previous: str | None, ctx: _Context) -> str | None:
    """The option a list item is about when the line leading into the list names it, or
    follows a paragraph about it ("Semaglutide cut MACE. / Key findings include: / •
    Reduced risk of ..."). A line that is not a list item ends the list."""
    bullet = _BULLET_START.match(sentence)
    if sentence.rstrip().endswith((":", "：")):
        ctx.lead_option = named[0] if len(named) == 1 else (None if named else previous)
        return None
    if not bullet:
        ctx.lead_option = None
    return ctx.lead_option if bullet else None


def _named_in_order(
    sentence: str, options: list[str], aliases: dict[str, tuple[str, ...]]
) -> list[str]:
    at = [(first_mention(sentence, o, aliases.get(o, ())), o) for o in options]
    return [o for pos, o in sorted(at) if pos >= 0]


def _is_heading(sentence: str) -> bool:
    if _HEADING.match(sentence):
        return True
    # A short line with no closing stop, alone on its line, reads as a heading.
    stripped = sentence.strip()
    return 0 < len(stripped) <= 60 and not re.search(r"[.!?。！？:：;；,，)]$", stripped)


def _pieces(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """The sentence, or for an over-long run-on sentence its clauses of quotable length."""
    if end - start <= MAX_QUOTE:
        yield start, end
        return
    piece_start = start
    for match in _CLAUSE_BREAK.finditer(text, start, end):
        if match.start() - piece_start >= MAX_QUOTE // 2:
            yield from _trim(text, piece_start, match.start())
            piece_start = match.end()
    yield from _trim(text, piece_start, end)


def _trim(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if end - start <= MAX_QUOTE and end > start:
        yield start, end


# Calls to action and page furniture: "Compare performance ... to choose the best
# framework", "Read more", "Sign up for updates". They invite, they do not state.
_FURNITURE = re.compile(
    r"^(?:[-*•]\s*)?(?:compare|learn|discover|find out|read|click|explore|check out|sign up|"
    r"subscribe|download|get started|join|follow|share|watch|register|contact us)\b(?!-)",
    re.I,
)


def _usable(quote: str) -> bool:
    minimum = 8 if has_cjk(quote) else 20
    stripped = quote.lstrip()
    if _FURNITURE.match(stripped):
        return False
    if stripped.startswith("|"):
        # A table row is quotable when it has cells with words in them.
        return stripped.count("|") >= 3 and len(re.sub(r"[|\s:-]", "", stripped)) >= 6
    return (
        minimum <= len(quote) <= MAX_QUOTE
        and not stripped.startswith("#")
        and not stripped.endswith((":", "："))
    )


def _judge(
    quote: str,
    offset: int,
    named: bool,
    about: str | None,
    subject: str | None,
    dimensions: list[str],
    min_score: int,
) -> tuple[KeyPoint | None, int]:
    if subject is None:
        return None, 0
    dimension = best_dimension(quote, dimensions)
    # A sentence under a heading, or on a page, about one option is about it as surely
    # as one that names it in passing.
    refers = named or about == "pronoun"
    score = (
        (2 if refers else 1)
        + 2 * bool(dimension)
        + bool(_FACT_SIGNAL.search(quote))
        + bool(_COMPARISON.search(quote))
        + bool(stance_polarity(quote))
    )
    if refers or (about in ("paragraph", "heading") and score > 1):
        # What a page says of an option it names or points back to, or says with a fact,
        # a comparison or a verdict in a paragraph or section about it, is worth keeping
        # even without a dimension's words ("accepts one writer at a time"): a careful
        # reader counts it, and the reader decides whether it judges anything.
        score = max(score, MIN_SCORE)
    if score < min_score:
        return None, 0
    point = KeyPoint(
        text=clean(quote),
        quote=quote,
        offset=offset,
        option=subject,
        dimension=dimension,
    )
    return point, score


# "Separate from the licence question: customising X is expensive" is about customising.
_FRAMING = re.compile(
    r"^[^:：]*\b(?:separate from|apart from|aside from|besides|beyond|leaving aside|"
    r"regardless of|not counting)\b[^:：]*[:：,，]\s*|"
    r"^[^:：]*(?:除了|撇开|抛开|不谈)[^:：，,]*[:：，,]\s*",
    re.I,
)


def best_dimension(sentence: str, dimensions: list[str]) -> str | None:
    """The dimension whose words the sentence uses most, if any; a framing clause that
    sets a topic aside does not count for that topic."""
    sentence = _FRAMING.sub("", sentence, count=1)
    best, best_hits = None, 0
    for dimension in dimensions:
        hits = count_terms(sentence, keywords_for(dimension))
        if hits > best_hits:
            best, best_hits = dimension, hits
    return best


def clean(quote: str) -> str:
    return re.sub(r"\s+", " ", _MARKUP.sub("", quote)).strip()
