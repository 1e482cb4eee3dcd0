"""The plan of a question: its options (given, or read from the question), its weighted
dimensions (given, read from the question, or a preset), and the ordered, deduplicated
sub-queries retrieve runs; and the broader plan of a replan."""

from __future__ import annotations

import math

from research.artifacts import Dimension, Limits, Plan, Question, SubQuery
from research.stages.plan.dimensions import read_dimensions
from research.stages.plan.options import extract_options
from research.stages.plan.primary import primary_asks
from research.stages.plan.rules import (
    DEFAULT_PRESET,
    MAX_DIMENSIONS,
    MAX_NAME_CHARS,
    MAX_OPTIONS,
    MAX_QUESTION_CHARS,
    MIN_OPTIONS,
    OPTIONS_HINT,
    PRESET_SOURCES,
    PRESETS,
    ZH_DIMENSIONS,
    PlanError,
    question_language,
)


def build_plan(question: Question, defaults: Limits) -> Plan:
    """Validate the question and build the plan with its ordered, deduplicated sub-queries;
    its limits are `defaults` with the question's own limits over them."""
    text = _check_question(question.question)
    language = question_language(text)
    chosen, options_source = _choose_options(text, question.options)
    dims, preset_name = _choose_dimensions(question, chosen, language)
    plan_sources = _check_sources(question.sources)
    plan_sources += [s for s in PRESET_SOURCES.get(preset_name or "", ()) if s not in plan_sources]
    queries = _queries(chosen, dims, language)
    return Plan(
        question=text,
        language=language,
        options=chosen,
        options_source=options_source,
        dimensions=dims,
        preset=preset_name,
        sources=plan_sources,
        queries=queries,
        limits=defaults.model_copy(update=question.limits),
        primary=primary_asks(chosen, dims, plan_sources),
    )


def broaden(plan: Plan) -> Plan:
    """The replan when filtering kept too little: fewer, shorter queries without dimensions."""
    zh = plan.language == "zh"
    specs: list[tuple[str, str | None, str]] = [(o, o, "option") for o in plan.options]
    specs += [(f"{o} {'优缺点' if zh else 'pros and cons'}", o, "broad") for o in plan.options]
    joined = " 与 ".join(plan.options) + " 对比" if zh else " vs ".join(plan.options)
    specs.append((joined, None, "comparison"))
    queries = numbered([(text, option, None, kind) for text, option, kind in specs])
    return plan.model_copy(update={"queries": queries, "broadened": True})


def _check_question(question: str) -> str:
    text = " ".join(question.split())
    if not text:
        raise PlanError("the question is empty: say what you need to decide")
    if len(text) > MAX_QUESTION_CHARS:
        raise PlanError(
            f"the question is {len(text):,} characters long; keep it under "
            f"{MAX_QUESTION_CHARS:,} and put background in the sources instead"
        )
    return text


def _choose_options(question: str, given: list[str]) -> tuple[list[str], str]:
    cleaned = [" ".join(o.split()) for o in given if o and o.strip()]
    if cleaned:
        return check_options(cleaned), "given"
    return check_options(extract_options(question)), "question"


def check_options(options: list[str]) -> list[str]:
    if len(options) < MIN_OPTIONS:
        raise PlanError(OPTIONS_HINT)
    if len(options) > MAX_OPTIONS:
        raise PlanError(f"{len(options)} options is too many: compare at most {MAX_OPTIONS}")
    for option in options:
        if len(option) > MAX_NAME_CHARS:
            raise PlanError(f"option {option[:40]!r}... is longer than {MAX_NAME_CHARS} chars")
    reject_duplicates(options, "option")
    return options


def reject_duplicates(names: list[str], what: str) -> None:
    seen: set[str] = set()
    for name in names:
        key = name.casefold()
        if key in seen:
            raise PlanError(f"{what} {name!r} is listed twice")
        seen.add(key)


def _choose_dimensions(
    question: Question, options: list[str], language: str
) -> tuple[list[Dimension], str | None]:
    """The dimensions given, else those the question names (which no preset replaces), else
    the preset's."""
    if question.dimensions:
        pairs = _check_dimensions([(d.name, d.weight) for d in question.dimensions])
        return _normalised(pairs, [d.origin for d in question.dimensions]), None
    read = read_dimensions(question.question, options)
    if read.problem:
        raise PlanError(read.problem)
    if read.dimensions:
        return _normalised(_check_dimensions(read.dimensions), ["question"] * 99), None
    preset = question.preset or None
    name = (preset or DEFAULT_PRESET).strip().lower()
    if name not in PRESETS:
        known = ", ".join(sorted(PRESETS))
        raise PlanError(f"unknown preset {preset!r}: choose one of {known}")
    pairs = PRESETS[name]
    if language == "zh":
        pairs = [(ZH_DIMENSIONS.get(d, d), w) for d, w in pairs]
    return _normalised(pairs, ["preset"] * len(pairs)), name


def _check_dimensions(dimensions: list[tuple[str, float]]) -> list[tuple[str, float]]:
    if len(dimensions) > MAX_DIMENSIONS:
        raise PlanError(f"{len(dimensions)} dimensions is too many: use at most {MAX_DIMENSIONS}")
    pairs = [(" ".join(name.split()), weight) for name, weight in dimensions]
    for name, weight in pairs:
        if not name:
            raise PlanError("a dimension has no name")
        if len(name) > MAX_NAME_CHARS:
            raise PlanError(f"dimension {name[:40]!r}... is longer than {MAX_NAME_CHARS} chars")
        check_weight(weight, name)
    reject_duplicates([name for name, _ in pairs], "dimension")
    return pairs


def _normalised(pairs: list[tuple[str, float]], origins: list[str]) -> list[Dimension]:
    total = sum(weight for _, weight in pairs)
    return [
        Dimension(name=name, weight=weight / total, origin=origin)  # type: ignore[arg-type]
        for (name, weight), origin in zip(pairs, origins, strict=False)
    ]


def _check_sources(sources: list[str]) -> list[str]:
    unique = list(dict.fromkeys(s.strip() for s in sources if s and s.strip()))
    if not unique:
        raise PlanError("name at least one source, e.g. local:./corpus, searxng:URL or ddgs")
    return unique


def check_weight(weight: float, name: str) -> None:
    if not math.isfinite(weight) or weight <= 0:
        raise PlanError(f"the weight of {name!r} must be a number above 0, got {weight}")


def _queries(options: list[str], dims: list[Dimension], language: str) -> list[SubQuery]:
    """Option x dimension first, then comparisons, then each option alone."""
    zh = language == "zh"
    names = [(d.name, ZH_DIMENSIONS.get(d.name.lower(), d.name) if zh else d.name) for d in dims]
    specs = [(f"{o} {q}", o, d, "option_dimension") for o in options for d, q in names]
    first = names[0][1]
    if zh:
        listed = "、".join(options)
        specs.append((f"{listed} {first} 对比", None, names[0][0], "comparison"))
        specs.append((f"{listed} 对比", None, None, "comparison"))
    else:
        listed = " vs ".join(options)
        specs.append((f"{listed} {first}", None, names[0][0], "comparison"))
        specs.append((f"{listed} comparison", None, None, "comparison"))
    specs += [(o, o, None, "option") for o in options]
    return numbered(specs)


def numbered(specs: list[tuple[str, str | None, str | None, str]]) -> list[SubQuery]:
    """Drop repeated query texts (case-insensitively) and number the rest q01, q02, ..."""
    seen: set[str] = set()
    queries: list[SubQuery] = []
    for text, option, dimension, kind in specs:
        key = text.casefold()
        if key in seen:
            continue
        seen.add(key)
        queries.append(
            SubQuery(
                id=f"q{len(queries) + 1:02d}",
                text=text,
                option=option,
                dimension=dimension,
                kind=kind,  # type: ignore[arg-type]
            )
        )
    return queries
