"""Stage 0: turn a question form into a plan (DESIGN section 1, round_0_plan.json).

Pure functions, no Django: the options (given, or read from the question), the weighted
dimensions (given, a preset, or the default preset) and the sub-queries retrieve runs.
With a model, `decompose` asks it for sharper sub-queries and checks them against the plan.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable

from pydantic import BaseModel, Field

from research.artifacts import Dimension, Limits, Plan, Question, SubQuery
from research.context import StageContext
from research.llm import StageLLM


class PlanError(ValueError):
    """The question form cannot become a plan; the message tells the user what to fix."""


PRESETS: dict[str, list[tuple[str, float]]] = {
    "tech": [
        ("cost", 0.2),
        ("learning curve", 0.2),
        ("community activity", 0.2),
        ("extensibility", 0.2),
        ("risk", 0.2),
    ],
    "procurement": [
        ("price", 0.2),
        ("delivery time", 0.2),
        ("after-sales support", 0.2),
        ("compliance", 0.2),
        ("replaceability", 0.2),
    ],
}
DEFAULT_PRESET = "tech"

# Chinese names for the preset dimensions, so a Chinese question gets Chinese queries.
ZH_DIMENSIONS: dict[str, str] = {
    "cost": "成本",
    "learning curve": "学习曲线",
    "community activity": "社区活跃度",
    "extensibility": "可扩展性",
    "risk": "风险",
    "price": "价格",
    "delivery time": "交付时间",
    "after-sales support": "售后支持",
    "compliance": "合规",
    "replaceability": "可替代性",
}

MAX_QUESTION_CHARS = 2_000
MIN_OPTIONS = 2
MAX_OPTIONS = 8
MAX_DIMENSIONS = 12
MAX_NAME_CHARS = 100
# An extracted "option" longer than this is a misread sentence, not a product name.
_MAX_EXTRACTED_WORDS = 6

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_OPTIONS_HINT = "name at least two options, e.g. --option A --option B, or ask 'A vs B'"


# --- public API -------------------------------------------------------------------------


def build_plan(question: Question, defaults: Limits) -> Plan:
    """Validate the question and build the plan with its ordered, deduplicated sub-queries;
    its limits are `defaults` with the question's own limits over them."""
    text = _check_question(question.question)
    language = "zh" if _CJK.search(text) else "en"
    chosen, options_source = _choose_options(text, question.options)
    dimensions = [(d.name, d.weight) for d in question.dimensions]
    dims, preset_name = _choose_dimensions(dimensions or None, question.preset or None, language)
    plan_sources = _check_sources(question.sources)
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
    )


def broaden(plan: Plan) -> Plan:
    """The replan when filtering kept too little: fewer, shorter queries without dimensions."""
    zh = plan.language == "zh"
    specs: list[tuple[str, str | None, str]] = [(o, o, "option") for o in plan.options]
    specs += [(f"{o} {'优缺点' if zh else 'pros and cons'}", o, "broad") for o in plan.options]
    joined = " 与 ".join(plan.options) + " 对比" if zh else " vs ".join(plan.options)
    specs.append((joined, None, "comparison"))
    queries = _numbered([(text, option, None, kind) for text, option, kind in specs])
    return plan.model_copy(update={"queries": queries, "broadened": True})


# --- sub-queries from the model ----------------------------------------------------------

MAX_QUERY_CHARS = 200
PER_PAIR = 3  # most model queries kept for one option and dimension
PER_OPTION = 2  # ... for one option alone
COMPARISONS = 4  # ... across the options


class ModelQuery(BaseModel):
    option: str | None = Field(description="one of the options exactly as given; null if none")
    dimension: str | None = Field(description="one of the dimensions exactly as given, or null")
    text: str = Field(description="the search query")


class ModelQueries(BaseModel):
    queries: list[ModelQuery]


def _plan_message(plan: Plan) -> str:
    return json.dumps(
        {
            "question": plan.question,
            "options": plan.options,
            "dimensions": [d.name for d in plan.dimensions],
        },
        ensure_ascii=False,
    )


def decompose(plan: Plan, llm: StageLLM | None, ctx: StageContext) -> Plan:
    """The plan with the model's sub-queries for every option x dimension, plus comparisons.

    Each query must name the plan's own options and dimensions; one that does not is
    dropped and logged. A pair the model left without a query keeps its deterministic ones,
    and without any usable answer the plan stays as it was.
    """
    if llm is None:
        return plan
    pairs = len(plan.options) * len(plan.dimensions)
    [(_, answer)] = llm.ask_batches(
        [plan],
        prompt="plan",
        task="plan",
        schema=ModelQueries,
        user=_plan_message,
        max_tokens=lambda _: min(4_000, 200 + 60 * pairs + 40 * COMPARISONS),
        fallback="the deterministic sub-queries",
        question=plan.question,
        language=plan.language,
        comparisons=COMPARISONS,
    )
    if answer.value is None:
        return plan
    queries = _merged_queries(plan, answer.value.queries, ctx)
    if queries is None:
        ctx.record(
            "llm_fallback",
            stage=llm.stage,
            task="plan",
            outcome=answer.outcome.value,
            reason="none of the model's sub-queries named the plan's options and dimensions",
            fallback="the deterministic sub-queries",
        )
        return plan
    return plan.model_copy(update={"queries": queries})


def _merged_queries(
    plan: Plan, proposed: list[ModelQuery], ctx: StageContext
) -> list[SubQuery] | None:
    """The model's usable queries in the deterministic order (option x dimension, then
    comparisons, then each option), the deterministic ones filling what it left out."""
    options = {o.casefold(): o for o in plan.options}
    dims = {d.name.casefold(): d.name for d in plan.dimensions}
    by_pair: dict[tuple[str | None, str | None], list[str]] = {}
    comparisons: list[tuple[str, str | None]] = []
    used = 0
    for query in proposed:
        text = " ".join(query.text.split())
        option = options.get(" ".join((query.option or "").split()).casefold())
        dimension = dims.get(" ".join((query.dimension or "").split()).casefold())
        problem = _query_problem(text, query, option, dimension)
        if problem is not None:
            ctx.record("llm_query_dropped", text=query.text[:MAX_QUERY_CHARS], reason=problem)
            continue
        if option is None:
            if len(comparisons) < COMPARISONS:
                comparisons.append((text, dimension))
                used += 1
            continue
        kept = by_pair.setdefault((option, dimension), [])
        if len(kept) < (PER_PAIR if dimension else PER_OPTION):
            kept.append(text)
            used += 1
    if not used:
        return None
    specs: list[tuple[str, str | None, str | None, str]] = []
    filled: list[str] = []
    for option in plan.options:
        for dim in plan.dimensions:
            texts = by_pair.get((option, dim.name))
            if texts:
                specs += [(t, option, dim.name, "option_dimension") for t in texts]
                continue
            filled.append(f"{option} / {dim.name}")
            specs += [
                (q.text, q.option, q.dimension, q.kind)
                for q in plan.queries
                if q.kind == "option_dimension" and (q.option, q.dimension) == (option, dim.name)
            ]
    if comparisons:
        specs += [(t, None, d, "comparison") for t, d in comparisons]
    else:
        specs += [
            (q.text, None, q.dimension, q.kind) for q in plan.queries if q.kind == "comparison"
        ]
    for option in plan.options:
        specs += [
            (q.text, option, None, "option")
            for q in plan.queries
            if q.kind == "option" and q.option == option
        ]
        specs += [(t, option, None, "option") for t in by_pair.get((option, None), [])]
    queries = _numbered(specs)
    ctx.record("plan_queries", source="llm", from_model=used, filled_in=filled)
    return queries


def _query_problem(
    text: str, query: ModelQuery, option: str | None, dimension: str | None
) -> str | None:
    if not text:
        return "the query is empty"
    if len(text) > MAX_QUERY_CHARS:
        return f"the query is longer than {MAX_QUERY_CHARS} characters"
    if query.option and option is None:
        return f"{query.option!r} is not one of the plan's options"
    if query.dimension and dimension is None:
        return f"{query.dimension!r} is not one of the plan's dimensions"
    return None


def parse_dimension(spec: str) -> tuple[str, float]:
    """Read a CLI dimension: "cost:0.5", "cost=50%" or "licence risk" (weight 1)."""
    name, weight_text = _split_dimension(spec)
    if not name:
        raise PlanError(f"dimension {spec!r} has no name; write it as NAME or NAME:WEIGHT")
    if weight_text is None:
        return name, 1.0
    return name, _parse_weight(weight_text, name)


# --- question, options, dimensions, sources ---------------------------------------------


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
        return _check_options(cleaned), "given"
    return _check_options(extract_options(question)), "question"


def _check_options(options: list[str]) -> list[str]:
    if len(options) < MIN_OPTIONS:
        raise PlanError(_OPTIONS_HINT)
    if len(options) > MAX_OPTIONS:
        raise PlanError(f"{len(options)} options is too many: compare at most {MAX_OPTIONS}")
    for option in options:
        if len(option) > MAX_NAME_CHARS:
            raise PlanError(f"option {option[:40]!r}... is longer than {MAX_NAME_CHARS} chars")
    _reject_duplicates(options, "option")
    return options


def _reject_duplicates(names: list[str], what: str) -> None:
    seen: set[str] = set()
    for name in names:
        key = name.casefold()
        if key in seen:
            raise PlanError(f"{what} {name!r} is listed twice")
        seen.add(key)


def _choose_dimensions(
    dimensions: list[tuple[str, float]] | None, preset: str | None, language: str
) -> tuple[list[Dimension], str | None]:
    if dimensions:
        return _normalised(_check_dimensions(dimensions)), None
    name = (preset or DEFAULT_PRESET).strip().lower()
    if name not in PRESETS:
        known = ", ".join(sorted(PRESETS))
        raise PlanError(f"unknown preset {preset!r}: choose one of {known}")
    pairs = PRESETS[name]
    if language == "zh":
        pairs = [(ZH_DIMENSIONS.get(d, d), w) for d, w in pairs]
    return _normalised(pairs), name


def _check_dimensions(dimensions: list[tuple[str, float]]) -> list[tuple[str, float]]:
    if len(dimensions) > MAX_DIMENSIONS:
        raise PlanError(f"{len(dimensions)} dimensions is too many: use at most {MAX_DIMENSIONS}")
    pairs = [(" ".join(name.split()), weight) for name, weight in dimensions]
    for name, weight in pairs:
        if not name:
            raise PlanError("a dimension has no name")
        if len(name) > MAX_NAME_CHARS:
            raise PlanError(f"dimension {name[:40]!r}... is longer than {MAX_NAME_CHARS} chars")
        _check_weight(weight, name)
    _reject_duplicates([name for name, _ in pairs], "dimension")
    return pairs


def _normalised(pairs: list[tuple[str, float]]) -> list[Dimension]:
    total = sum(weight for _, weight in pairs)
    return [Dimension(name=name, weight=weight / total) for name, weight in pairs]


def _check_sources(sources: list[str]) -> list[str]:
    unique = list(dict.fromkeys(s.strip() for s in sources if s and s.strip()))
    if not unique:
        raise PlanError("name at least one source, e.g. local:./corpus, searxng:URL or ddgs")
    return unique


def _split_dimension(spec: str) -> tuple[str, str | None]:
    text = " ".join(spec.replace("：", ":").split())
    for separator in (":", "="):
        name, found, weight = text.rpartition(separator)
        if found:
            return name.strip(), weight.strip()
    return text, None


def _parse_weight(text: str, name: str) -> float:
    percent = text.endswith("%")
    try:
        weight = float(text.rstrip("%").strip())
    except ValueError:
        raise PlanError(
            f"the weight of {name!r} must be a number, like {name}:0.3, got {text!r}"
        ) from None
    weight = weight / 100 if percent else weight
    _check_weight(weight, name)
    return weight


def _check_weight(weight: float, name: str) -> None:
    if not math.isfinite(weight) or weight <= 0:
        raise PlanError(f"the weight of {name!r} must be a number above 0, got {weight}")


# --- sub-queries --------------------------------------------------------------------------


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
    return _numbered(specs)


def _numbered(specs: list[tuple[str, str | None, str | None, str]]) -> list[SubQuery]:
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


# --- option extraction --------------------------------------------------------------------

_LIST_SEP = re.compile(
    r"\s*(?:,\s*(?:and|or)\s+|,|;|/|&|、|，|\band\b|\bor\b|\bvs\.?(?=\s|$)|\bversus\b)\s*",
    re.IGNORECASE,
)
_ZH_LIST_SEP = re.compile(
    r"\s*(?:、|，|,|/|以及|或者|还是|和|与|跟|及|或|\bvs\.?(?=\s|$)|\bversus\b|\band\b|\bor\b)\s*",
    re.IGNORECASE,
)
# A clause ends at sentence punctuation; "vs." and "Node.js" keep their dots.
_CLAUSE_END = re.compile(r"[?!;:？！；：。]|(?<![vV][sS])\.(?:\s|$)|\s[—–-]\s")
_ZH_CLAUSE_END = re.compile(r"[?!;:？！；：。]|(?<![vV][sS])\.(?:\s|$)")


def _wordset(text: str) -> frozenset[str]:
    return frozenset(text.split())


_LEAD_FILLER = _wordset(
    """should we i you they use using pick picking choose choosing select go with adopt buy
    is are which one better the a an our my do does compare comparing between for team
    it to decide deciding on consider considering evaluate evaluating what how good"""
)
_TAIL_FILLER = _wordset(
    """for in on at when with weighing weighted considering regarding based given better
    best overall now today to as which that if since because from by who what is are
    would will should under over"""
)
_FILLER = _LEAD_FILLER | _TAIL_FILLER
# Longest first, so "选择" goes before "选" can leave "择" behind.
_ZH_LEAD_FILLER = sorted(
    _wordset("请问 我们 我 团队 公司 到底 究竟 应该 应当 该 要 是 选择 选 使用 采用 用 购买 买 在"),
    key=len,
    reverse=True,
)
_ZH_TAIL_FILLER = re.compile(r"(?:哪个|哪一个|更好|更合适|比较好|好|合适|呢|吗|吧|呀)+$")
_QUOTES = "\"'“”‘’「」『』《》`()（）[]【】"
_TRAILING_PUNCT = ".,;:!?。，；：！？…"


def extract_options(question: str) -> list[str]:
    """Read the options from the question's phrasing; [] when no phrasing matches."""
    finders: list[Callable[[str], list[str]]] = [_between, _choose, _versus, _either]
    if _CJK.search(question):
        finders = [_zh_between, _zh_pick_one, _zh_or, _zh_compare, *finders]
    for finder in finders:
        found = finder(question)
        if len(found) >= MIN_OPTIONS:
            return found
    return []


def _between(question: str) -> list[str]:
    match = re.search(r"\bbetween\s+(.+)", question, re.IGNORECASE)
    return _english_list(_clause(match.group(1))) if match else []


def _choose(question: str) -> list[str]:
    pattern = r"\b(?:choose|pick|select)\b\s*(?:from|among|between)?\s*:?\s*(.+)"
    match = re.search(pattern, question, re.IGNORECASE)
    return _english_list(_clause(match.group(1))) if match else []


def _versus(question: str) -> list[str]:
    for clause in _CLAUSE_END.split(question):
        parts = re.split(r"\s+(?:vs\.?|versus)\s+", clause, flags=re.IGNORECASE)
        if len(parts) >= 2:
            head = re.split(r"[,;]", parts[0])[-1]
            return _english_list(" vs ".join([head, *parts[1:]]))
    return []


def _either(question: str) -> list[str]:
    """'A or B?' only as a question, so 'A or better' in a statement is not an option list."""
    if not question.rstrip().endswith(("?", "？")):
        return []
    for clause in _CLAUSE_END.split(question):
        if re.search(r"\bor\b", clause, re.IGNORECASE):
            return _english_list(clause)
    return []


def _english_list(span: str) -> list[str]:
    items = [_clean(i) for i in _LIST_SEP.split(_cut_tail(span))]
    items = [i for i in items if i]
    # "Which is better, A or B?": a leading item of filler words only is not an option.
    while len(items) > MIN_OPTIONS and all(w.lower() in _FILLER for w in items[0].split()):
        items.pop(0)
    if not items:
        return []
    items[0] = _strip_lead(items[0])
    return items if all(_plausible(i) for i in items) else []


def _clause(text: str) -> str:
    return _CLAUSE_END.split(text, maxsplit=1)[0]


def _cut_tail(span: str) -> str:
    """Cut "A and B for analytics" at the first filler word after the first separator.

    Words before the first separator belong to the lead ("Should we use A or B"), which
    _strip_lead handles, so they are not searched for a tail.
    """
    first = _LIST_SEP.search(span)
    start = first.end() if first else 0
    words = span[start:].split()
    for index, word in enumerate(words[1:], start=1):
        if word.lower().strip(_TRAILING_PUNCT) in _TAIL_FILLER:
            return span[:start] + " ".join(words[:index])
    return span


def _strip_lead(item: str) -> str:
    """Drop "should we use" from "should we use Quillnote", always keeping the last word."""
    words = item.split()
    while len(words) > 1 and words[0].lower() in _LEAD_FILLER:
        words.pop(0)
    if len(words) > 3:
        words = _trailing_names(words)
    return " ".join(words)


def _trailing_names(words: list[str]) -> list[str]:
    """In "we want a notes tool Quillnote", the name is the trailing capitalised run."""
    run: list[str] = []
    for word in reversed(words):
        if not (word[:1].isupper() or word[:1].isdigit()):
            break
        run.insert(0, word)
    return run or words[-1:]


def _clean(item: str) -> str:
    return item.strip().strip(_QUOTES).strip().rstrip(_TRAILING_PUNCT).strip().strip(_QUOTES)


def _plausible(item: str) -> bool:
    return 0 < len(item) <= MAX_NAME_CHARS and len(item.split()) <= _MAX_EXTRACTED_WORDS


# Chinese phrasings: "在A和B之间", "A、B、C 三选一", "A还是B", "A 与 B 对比", "A和B哪个好".


def _zh_between(question: str) -> list[str]:
    match = re.search(r"在(.+?)之间", question)
    return _chinese_list(match.group(1)) if match else []


def _zh_pick_one(question: str) -> list[str]:
    match = re.search(r"(.+?)\s*[二两三四五六七八]选一", question)
    return _chinese_list(_last_clause(match.group(1))) if match else []


def _zh_or(question: str) -> list[str]:
    for clause in _ZH_CLAUSE_END.split(question):
        if "还是" in clause:
            return _chinese_list(clause)
    return []


def _zh_compare(question: str) -> list[str]:
    match = re.search(r"(.+?)\s*(?:对比|比较|相比|哪个|哪一个|谁更)", question)
    return _chinese_list(_last_clause(match.group(1))) if match else []


def _last_clause(text: str) -> str:
    """The clause just before the marker. With "、" as the list separator, a comma ends the
    preamble ("笔记工具，A、B、C 三选一"); without it, commas may separate the options."""
    clause = _ZH_CLAUSE_END.split(text.rstrip(_TRAILING_PUNCT + " "))[-1]
    return re.split(r"[，,]", clause)[-1] if "、" in clause else clause


def _chinese_list(span: str) -> list[str]:
    items = [_clean(i) for i in _ZH_LIST_SEP.split(span)]
    items = [i for i in items if i]
    if not items:
        return []
    items[0] = _strip_zh_lead(_strip_lead(items[0]))
    items[-1] = _clean(_ZH_TAIL_FILLER.sub("", items[-1]))
    return items if all(_plausible(i) for i in items) else []


def _strip_zh_lead(item: str) -> str:
    """Drop "我们应该用" from "我们应该用飞书". At least two characters stay, so a name that
    starts like a filler word ("用友") keeps its first character."""
    changed = True
    while changed:
        changed = False
        for filler in _ZH_LEAD_FILLER:
            if item.startswith(filler) and len(item) - len(filler) >= 2:
                item, changed = item[len(filler) :].strip(), True
    return item
