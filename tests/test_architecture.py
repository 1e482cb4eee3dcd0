"""The layers hold: read from the code's own imports (docs/architecture.md says why)."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("research", "decisions", "reports")
# Below the run engine: they know nothing of it, of services or of a surface.
GROUND = (
    "research.stages",
    "research.reading",
    "research.providers",
    "research.llm",
    "research.store",
    "research.i18n",
    "decisions",
    "reports",
)
ABOVE_THE_GROUND = (
    "research.runs",
    "research.services",
    "research.selectors",
    "research.web",
    "research.mcp",
    "research.management",
    "research.schedule",
)
READER = "research.reading"
SURFACES = ("research.web", "research.mcp", "research.management", "research.schedule")


@cache
def modules() -> dict[str, Path]:
    found = {}
    for package in PRODUCT:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def _target(name: str) -> str | None:
    """The product module an imported name is, or lies in; None outside the product."""
    known = modules()
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


@cache
def imports(module: str, top_level_only: bool = True) -> frozenset[str]:
    """The product modules `module` imports: at module level (where an import runs when the
    module is loaded), or anywhere."""
    tree = ast.parse(modules()[module].read_text(encoding="utf-8"))
    nodes = ast.walk(tree) if not top_level_only else _module_level(tree.body)
    found = set()
    for node in nodes:
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [f"{node.module}.{alias.name}" for alias in node.names]
        found |= {t for n in names if (t := _target(n)) is not None and t != module}
    return frozenset(found)


def _module_level(body: list[ast.stmt]):
    for node in body:
        yield node
        if isinstance(node, ast.If | ast.Try):  # `if TYPE_CHECKING:`, guarded imports
            for inner in (node.body, node.orelse, *getattr(node, "handlers", [])):
                yield from _module_level(inner if isinstance(inner, list) else inner.body)


def _in(module: str, places: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in places)


def test_the_ground_never_imports_the_engine_services_or_a_surface():
    wrong = [
        (m, t)
        for m in modules()
        if _in(m, GROUND)
        for t in imports(m, top_level_only=False)
        if _in(t, ABOVE_THE_GROUND)
    ]
    assert wrong == []


def test_nothing_below_services_imports_them():
    wrong = [
        m
        for m in modules()
        if not _in(m, SURFACES) and "research.services" in imports(m, top_level_only=False)
    ]
    assert wrong == []


@pytest.mark.parametrize(
    "package", ["research.runs", "research.stages", "research.reading", "decisions", "reports"]
)
def test_the_engine_and_the_stages_import_no_surface(package: str):
    wrong = [
        (m, t)
        for m in modules()
        if _in(m, (package,))
        for t in imports(m, top_level_only=False)
        if _in(t, SURFACES)
    ]
    assert wrong == []


def test_the_reader_knows_nothing_of_the_stages():
    """The stages use the reader; the reader is handed what it needs, never reaches back."""
    wrong = [
        (m, t)
        for m in modules()
        if _in(m, (READER,))
        for t in imports(m, top_level_only=False)
        if _in(t, ("research.stages",))
    ]
    assert wrong == []


def test_the_product_uses_the_reader_only_through_its_entry_point():
    """research.reading is one part with one interface (DESIGN section 2, "Reading"): the
    rest of the product imports research.reading, never a module inside it."""
    wrong = [
        (m, t)
        for m in modules()
        if not _in(m, (READER,))
        for t in imports(m, top_level_only=False)
        if _in(t, (READER,)) and t != READER
    ]
    assert wrong == []


def test_the_product_loads_no_tool_and_no_test():
    """tools/ and tests/ are outside the product: a command may import a tool when it runs,
    never when it is loaded."""
    loaded = [
        (m, node.module or node.names[0].name)
        for m, path in modules().items()
        for node in _module_level(ast.parse(path.read_text(encoding="utf-8")).body)
        if isinstance(node, ast.Import | ast.ImportFrom)
        and (getattr(node, "module", None) or node.names[0].name).split(".")[0]
        in ("tools", "tests")
    ]
    assert loaded == []


def test_no_modules_import_each_other_in_a_circle():
    graph = {m: imports(m) for m in modules()}
    circles = [c for c in _strongly_connected(graph) if len(c) > 1]
    assert circles == []


def _strongly_connected(graph: dict[str, frozenset[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iteratively: the groups of modules that reach each other."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    groups: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    groups.append(sorted(group))
    return groups
