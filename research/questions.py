"""Checks a question form before it becomes a run: every surface's one set of rules.

A surface hands over what the person gave as a Submission; `clean_question` returns the
Question a run takes (research.artifacts), or raises QuestionInvalid with every problem
found, keyed by form field ("question", "options", "dimensions", "sources", "limits") and
written for the person who filled the form in.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.utils.translation import gettext, gettext_lazy

from research import bounds
from research import sources as configured
from research.artifacts import AskedDimension, Limits, Plan, Question
from research.providers.search import SourceSpecError, parse_source
from research.stages.plan import (
    DEFAULT_PRESET,
    MAX_DIMENSIONS,
    MAX_NAME_CHARS,
    MAX_OPTIONS,
    MAX_QUESTION_CHARS,
    MIN_OPTIONS,
    PRESETS,
    PlanError,
    build_plan,
    extract_options,
    read_dimensions,
)

FIELDS = ("question", "options", "dimensions", "sources", "limits")


@dataclass(frozen=True)
class LimitRule:
    label: str  # lazily translated
    minimum: int
    maximum: int


# What a form may change about the reading budget, and how far.
LIMIT_RULES: dict[str, LimitRule] = {
    "max_candidates": LimitRule(gettext_lazy("Candidates to find"), 1, 200),
    "max_kept": LimitRule(gettext_lazy("Sources to keep"), 1, 100),
    "min_kept": LimitRule(gettext_lazy("Fewest sources before a broader search"), 0, 100),
    "max_pages": LimitRule(gettext_lazy("Pages to read"), 1, 100),
    "max_page_chars": LimitRule(gettext_lazy("Characters read per page"), 500, 200_000),
}


class QuestionInvalid(ValueError):
    """The form cannot become a run. `errors` maps form fields to messages for people: a few
    short ones a field, however much was sent (research.bounds)."""

    def __init__(self, errors: dict[str, list[str]]) -> None:
        more = gettext("… and %(n)s more problems like these.")
        self.errors = {name: bounds.listed(list(m), more) for name, m in errors.items()}
        super().__init__(" ".join(m for messages in self.errors.values() for m in messages))


@dataclass(frozen=True)
class Submission:
    """A question form as a person filled it in, before any check: dimensions as (name,
    weight) pairs or {"name", "weight"} mappings, weights as numbers or text ("0.3", "30%"),
    blank rows and blank limits allowed. Without dimension rows, the dimensions the question
    names are read from it (research.stages.plan.read_dimensions)."""

    question: str
    options: Sequence[str] = ()
    dimensions: Sequence[tuple[str, Any] | Mapping[str, Any]] = ()
    preset: str = ""
    sources: Sequence[str] = ()
    limits: Mapping[str, Any] | None = None


@dataclass
class _Errors:
    by_field: dict[str, list[str]] = field(default_factory=dict)

    def add(self, name: str, message: str) -> None:
        self.by_field.setdefault(name, []).append(message)


def clean_question(form: Submission, trusted_sources: bool = False, owner=None) -> Question:
    """The question a run takes. `sources` are names of configured sources
    (research.sources); only the operator's CLI passes `trusted_sources=True` to allow raw
    specs such as `local:DIR`. A bad preset is reported under "dimensions"; blank dimension
    weights count as 1, and blank limits take the defaults. `owner` may also name their own
    documents (research.uploads)."""
    errors = _Errors()
    text = _question(form.question or "", errors)
    # A question is read only once its length is known to be fine: reading takes time, and
    # a surface must answer a too-long question at once. It is read as the plan reads it,
    # with its spaces and line breaks made single spaces.
    reading = "" if "question" in errors.by_field else " ".join(text.split())
    names = _bounded_names(form, errors)
    given = _options(names["options"], reading, errors)
    dims = _dimensions(names["dimensions"], errors)
    preset_name = _preset(form.preset or "", dims, errors)
    read = _with_question_dimensions(reading, given, dims, errors)
    if read and not dims:
        # The question's own dimensions won: only a preset the person chose is named as set
        # aside, never the default.
        preset_name = preset_name if (form.preset or "").strip() else ""
    dims = read
    specs = _sources(names["sources"], trusted_sources, errors, owner)
    cleaned_limits = _limits(dict(form.limits or {}), errors)
    if errors.by_field:
        raise QuestionInvalid(errors.by_field)
    question = Question(
        question=text,
        options=given,
        dimensions=dims,
        preset=preset_name,
        sources=specs,
        limits=cleaned_limits,
    )
    _check_plan(question)
    return question


# --- question and options -------------------------------------------------------------------


def _question(question: str, errors: _Errors) -> str:
    if len(question) > bounds.QUESTION_CHARS:
        # Too long even counted as typed: not even its spaces are looked at.
        errors.add("question", _too_long(len(question)))
        return ""
    text = question.strip()
    length = len(" ".join(text.split()))
    if not length:
        errors.add("question", gettext("The question is empty: say what you need to decide."))
    elif length > MAX_QUESTION_CHARS:
        errors.add("question", _too_long(length))
    return text


def _too_long(length: int) -> str:
    return gettext(
        "The question is %(length)s characters long; keep it to %(max)s or fewer and "
        "leave background to the sources."
    ) % {"length": f"{length:,}", "max": f"{MAX_QUESTION_CHARS:,}"}


_LISTS = {
    "options": gettext_lazy("options"),
    "dimensions": gettext_lazy("dimensions"),
    "sources": gettext_lazy("sources"),
}


def _bounded_names(form: Submission, errors: _Errors) -> dict[str, list[Any]]:
    """The options, dimension rows and sources, each list refused whole when it is longer
    than any question needs, and each name or weight over its bound refused unread."""
    lists: dict[str, list[Any]] = {}
    for field_name, rows in (
        ("options", form.options),
        ("dimensions", form.dimensions),
        ("sources", form.sources),
    ):
        rows = list(rows or ())
        if len(rows) > bounds.NAMES:
            errors.add(
                field_name,
                gettext("%(n)s %(what)s are far too many: give at most %(max)d.")
                % {"n": f"{len(rows):,}", "what": _LISTS[field_name], "max": bounds.NAMES},
            )
            rows = []
        lists[field_name] = [row for row in rows if _fits(field_name, row, errors)]
    return lists


def _fits(field_name: str, row: Any, errors: _Errors) -> bool:
    if isinstance(row, Mapping):
        values = [(row.get("name"), bounds.NAME_CHARS), (row.get("weight"), bounds.WEIGHT_CHARS)]
    elif field_name == "dimensions" and isinstance(row, tuple | list) and len(row) == 2:
        values = [(row[0], bounds.NAME_CHARS), (row[1], bounds.WEIGHT_CHARS)]
    else:
        values = [(row, bounds.NAME_CHARS)]
    for value, most in values:
        if value is not None and len(str(value)) > most:
            errors.add(
                field_name,
                gettext("%(value)s is %(n)s characters long; at most %(max)s are read.")
                % {"value": bounds.quoted(value), "n": f"{len(str(value)):,}", "max": most},
            )
            return False
    return True


def _options(given: list[str], question: str, errors: _Errors) -> list[str]:
    names = [" ".join(str(o).split()) for o in given if o and str(o).strip()]
    if not names:
        if question and not extract_options(question):
            errors.add(
                "options",
                gettext(
                    "No options found in the question: name at least two, as in "
                    "'A vs B' or 'choose between A, B and C', or list them as options."
                ),
            )
        return []
    if len(names) < MIN_OPTIONS:
        errors.add(
            "options",
            gettext("Name at least two options to compare; got only %s.") % bounds.quoted(names[0]),
        )
    elif len(names) > MAX_OPTIONS:
        errors.add(
            "options",
            gettext("%(n)d options are too many: compare at most %(max)d.")
            % {"n": len(names), "max": MAX_OPTIONS},
        )
    _names_checks("option", names, errors, "options")
    return names


_NAME_WORDS = {
    "option": {
        "long": gettext_lazy("The option %(name)s is longer than %(max)d characters."),
        "twice": gettext_lazy("The option %(name)s is listed twice."),
    },
    "dimension": {
        "long": gettext_lazy("The dimension %(name)s is longer than %(max)d characters."),
        "twice": gettext_lazy("The dimension %(name)s is listed twice."),
    },
}


def _names_checks(what: str, names: list[str], errors: _Errors, field_name: str) -> None:
    seen: set[str] = set()
    for name in names:
        if len(name) > MAX_NAME_CHARS:
            errors.add(
                field_name,
                _NAME_WORDS[what]["long"] % {"name": bounds.quoted(name), "max": MAX_NAME_CHARS},
            )
        if name.casefold() in seen:
            errors.add(field_name, _NAME_WORDS[what]["twice"] % {"name": bounds.quoted(name)})
        seen.add(name.casefold())


# --- dimensions and preset ------------------------------------------------------------------


def _dimensions(rows: list[Any], errors: _Errors) -> list[AskedDimension]:
    dims: list[AskedDimension] = []
    for row in rows:
        name, weight = (row.get("name"), row.get("weight")) if isinstance(row, Mapping) else row
        name = " ".join(str(name or "").split())
        blank_weight = weight is None or str(weight).strip() == ""
        if not name and blank_weight:
            continue  # an empty row of the form
        if not name:
            errors.add(
                "dimensions",
                gettext("A dimension with weight %s has no name.") % bounds.cut(weight),
            )
            continue
        value = 1.0 if blank_weight else _weight(weight, name, errors)
        if value is not None:
            dims.append(AskedDimension(name=name, weight=value))
    if len(dims) > MAX_DIMENSIONS:
        errors.add(
            "dimensions",
            gettext("%(n)d dimensions are too many: use at most %(max)d.")
            % {"n": len(dims), "max": MAX_DIMENSIONS},
        )
    _names_checks("dimension", [d.name for d in dims], errors, "dimensions")
    return dims


def _weight(raw: Any, name: str, errors: _Errors) -> float | None:
    """A positive, finite number: 0.3, "0.3" or "30%"."""
    try:
        if isinstance(raw, bool):
            raise ValueError
        text = str(raw).strip()
        value = float(text[:-1]) / 100 if text.endswith("%") else float(text)
    except ValueError:
        value = math.nan
    if math.isfinite(value) and value > 0:
        return value
    errors.add(
        "dimensions",
        gettext("The weight of %(name)s must be a number above 0, like 0.3 or 30%%; got %(raw)s.")
        % {"name": bounds.quoted(name), "raw": bounds.quoted(raw)},
    )
    return None


def _with_question_dimensions(
    text: str, options: list[str], dims: list[AskedDimension], errors: _Errors
) -> list[AskedDimension]:
    """The dimensions the question names, when the form gives none; a row the form gives
    that the question names is marked as read from it."""
    if not text or "dimensions" in errors.by_field:
        return dims
    read = read_dimensions(text, options or extract_options(text))
    if dims:
        named = {name.casefold() for name, _ in read.dimensions}
        return [
            d.model_copy(update={"origin": "question"}) if d.name.casefold() in named else d
            for d in dims
        ]
    if read.problem:
        errors.add("dimensions", read.problem)
    return [AskedDimension(name=n, weight=w, origin="question") for n, w in read.dimensions]


def _preset(preset: str, dims: list[AskedDimension], errors: _Errors) -> str:
    name = preset.strip().lower()
    if name and name not in PRESETS:
        *others, last = sorted(PRESETS)
        choices = (
            gettext("%(some)s or %(last)s") % {"some": ", ".join(others), "last": last}
            if others
            else last
        )
        errors.add(
            "dimensions",
            gettext("Unknown preset %(preset)s: choose %(choices)s.")
            % {"preset": bounds.quoted(preset), "choices": choices},
        )
        return ""
    if dims:
        return ""  # custom rows win; the preset played no part
    # Dimensions the question names win over it too; the run page says it was set aside.
    return name or DEFAULT_PRESET


# --- sources --------------------------------------------------------------------------------


def _sources(chosen: list[str], trusted: bool, errors: _Errors, owner=None) -> list[str]:
    names = [s.strip() for s in chosen if s and s.strip()]
    if trusted:
        specs = [_named_or_raw(n, owner) for n in names] or configured.default_specs()
    else:
        specs = _allowed(names, errors, owner)
        if specs is None:
            return []
    if not specs:
        errors.add("sources", _none_chosen())
        return []
    checked = []
    for spec in dict.fromkeys(specs):
        try:
            kind, argument = parse_source(configured.real_spec(spec, owner))
        except (SourceSpecError, configured.UnknownSource) as exc:
            errors.add("sources", _sentence(str(exc)) if trusted else _unavailable(spec))
            continue
        # A named local folder stays named: the run's files never hold the folder.
        if configured.referenced_name(spec) is not None:
            checked.append(spec)
        else:
            checked.append(f"{kind}:{argument}" if argument else kind)
    return checked


def _allowed(names: list[str], errors: _Errors, owner=None) -> list[str] | None:
    if not names:
        return configured.default_specs()
    try:
        return configured.resolve(names, owner)
    except configured.UnknownSource as exc:
        available = [c.name for c in configured.available_sources(owner)]
        choose = (
            gettext("choose from %s") % ", ".join(available)
            if available
            else gettext(
                "no sources are configured on this server; ask the operator to set SOURCES"
            )
        )
        for name in exc.names:
            errors.add(
                "sources",
                gettext("Unknown source %(name)s: %(choose)s.")
                % {"name": bounds.quoted(name), "choose": choose},
            )
        return None


def _named_or_raw(name: str, owner=None) -> str:
    """On the operator's CLI a configured name works too (and the --user's own documents);
    anything else is a raw spec."""
    try:
        return configured.resolve([name], owner)[0]
    except configured.UnknownSource:
        return name


def _none_chosen() -> str:
    if configured.configured_sources():
        return gettext("Choose at least one source.")
    return gettext(
        "Name at least one source: local:DIR, searxng:URL or ddgs, or set DEFAULT_SOURCES "
        "or SOURCES in the settings."
    )


def _unavailable(spec: str) -> str:
    name = next(
        (c.name for c in configured.configured_sources() if spec in (c.spec, c.reference)), "it"
    )
    return (
        gettext("The source %r is not available on this server right now; ask the operator.") % name
    )


# --- limits ---------------------------------------------------------------------------------


def _limits(given: dict[str, Any], errors: _Errors) -> dict[str, int]:
    cleaned: dict[str, int] = {}
    for key, raw in given.items():
        if raw is None or str(raw).strip() == "":
            continue  # left blank: the server's default applies
        rule = LIMIT_RULES.get(key)
        if rule is None:
            known = ", ".join(LIMIT_RULES)
            errors.add(
                "limits",
                gettext("%(key)s is not a limit that can be set; use %(known)s.")
                % {"key": bounds.quoted(key), "known": known},
            )
            continue
        value = _whole(raw)
        if value is None or not rule.minimum <= value <= rule.maximum:
            errors.add(
                "limits",
                gettext("%(label)s must be a whole number from %(min)s to %(max)s; got %(raw)s.")
                % {
                    "label": rule.label,
                    "min": f"{rule.minimum:,}",
                    "max": f"{rule.maximum:,}",
                    "raw": bounds.quoted(raw),
                },
            )
            continue
        cleaned[key] = value
    effective = {**default_limits().model_dump(), **cleaned}
    if "limits" not in errors.by_field and effective["min_kept"] > effective["max_kept"]:
        errors.add(
            "limits",
            gettext("%(low)s (%(min)d) cannot be more than %(high)s (%(max)d).")
            % {
                "low": LIMIT_RULES["min_kept"].label,
                "min": effective["min_kept"],
                "high": str(LIMIT_RULES["max_kept"].label).lower(),
                "max": effective["max_kept"],
            },
        )
    return cleaned


def _whole(raw: Any) -> int | None:
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw
    text = str(raw).strip().replace(",", "").replace("_", "")
    # No limit has more than a few digits; int() of thousands of them would refuse anyway.
    return int(text) if text.lstrip("-").isdigit() and len(text) <= 12 else None


def default_limits() -> Limits:
    """The server's reading budget, which a question's own limits override."""
    return Limits(
        max_candidates=settings.MAX_CANDIDATES,
        max_kept=settings.MAX_KEPT,
        min_kept=settings.MIN_KEPT,
        max_pages=settings.MAX_PAGES,
        max_page_chars=settings.MAX_PAGE_CHARS,
    )


# --- the plan, as the first stage will build it ---------------------------------------------


def plan_of(question: Question) -> Plan:
    """The plan the first stage will build from a checked question: the options (given or
    read from the question), the dimensions with their normalised weights, the sources."""
    return build_plan(question, default_limits())


def _check_plan(question: Question) -> None:
    """The first stage builds the plan from these values; refuse now what it would refuse."""
    try:
        build_plan(question, default_limits())
    except PlanError as exc:
        raise QuestionInvalid({"question": [_sentence(str(exc))]}) from exc


def _sentence(message: str) -> str:
    message = message.strip()
    message = message[:1].upper() + message[1:]
    return message if message.endswith((".", "?", "!")) else message + "."


# --- what a question says, as it is typed ---------------------------------------------------


def read_question(text: str) -> dict[str, Any]:
    """The options and dimensions a question names, by the rules clean_question applies,
    for the form to fill its rows from as the person types: dimensions with their share in
    percent, and a message for each part that is named but cannot be read."""
    # Only what a question may hold is read: the form refuses the rest when it is sent.
    text = " ".join(text[: bounds.QUESTION_CHARS].split())[:MAX_QUESTION_CHARS]
    options = extract_options(text) if text else []
    read = read_dimensions(text, options)
    total = sum(weight for _, weight in read.dimensions) or 1.0
    problems = {"dimensions": read.problem} if read.problem else {}
    return {
        "options": options,
        "dimensions": [
            {"name": name, "percent": round(weight / total * 100, 1)}
            for name, weight in read.dimensions
        ],
        "problems": problems,
    }
