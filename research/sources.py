"""The sources the operator configured, by name (settings SOURCES and DEFAULT_SOURCES).

People on the web and over MCP choose among these names; they never name a server folder
or a URL. Only the operator's CLI may pass raw specs such as `local:DIR`. A run records a
local source it names by its reference, `local://<name>` (`local://mine` for a person's own
documents), never by its folder: the run's files are served to people and MCP clients
elsewhere, so the folder is looked up (real_spec) only when the run searches or reads. A remote MCP
tool is named by its namespace and tool (`kb=mcp:kb.search`); the server behind it is in
MCP_SOURCES_FILE, which people never see either.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext, gettext_lazy

from research.providers.mcp_sources import McpSourceError, tool_spec
from research.providers.primary.registry import LABELS, UnknownPrimarySource, parse_spec

# What kind of source each is, in the words of the page (or report) that names it.
KIND_LABELS = {
    "local": gettext_lazy("local documents"),
    "searxng": gettext_lazy("web search (SearXNG)"),
    "ddgs": gettext_lazy("web search (DuckDuckGo)"),
    "mcp": gettext_lazy("knowledge base (MCP)"),
    "primary": gettext_lazy("primary source"),
}


@dataclass(frozen=True)
class SourceChoice:
    name: str
    spec: str
    label: str
    default: bool = False  # used when a question names no source

    @property
    def reference(self) -> str:
        """What a run records: a local folder by its name, any other source by its spec."""
        return reference_for(self.name) if kind_of(self.spec) == "local" else self.spec


class UnknownSource(ValueError):
    def __init__(self, names: list[str]) -> None:
        self.names = names
        super().__init__(f"unknown source{'s' if len(names) > 1 else ''}: {', '.join(names)}")


LOCAL_REFERENCE = "local://"


def kind_of(spec: str) -> str:
    return spec.strip().partition(":")[0].strip().lower()


def reference_for(name: str) -> str:
    return f"{LOCAL_REFERENCE}{name}"


def referenced_name(spec: str) -> str | None:
    """The source name of a `local://<name>` reference; None for any other spec."""
    text = spec.strip()
    if not text.lower().startswith(LOCAL_REFERENCE):
        return None
    return text[len(LOCAL_REFERENCE) :].strip("/").lower() or None


def real_spec(spec: str, owner=None) -> str:
    """The spec a run's source is searched with: a `local://<name>` reference becomes the
    folder it names now (the owner's own for `mine`); any other spec is itself.
    UnknownSource when no source has that name any more."""
    from research import uploads

    name = referenced_name(spec)
    if name is None:
        return spec
    if name == uploads.SOURCE_NAME and getattr(owner, "pk", None) is not None:
        return f"local:{uploads.folder_for(owner)}"
    for choice in configured_sources():
        if choice.name == name and kind_of(choice.spec) == "local":
            return choice.spec
    raise UnknownSource([name])


def corpus_name(spec: str) -> str:
    """The name a local source's documents are addressed by (`local://<name>/<file>`): its
    reference's name; for a folder the operator named on the CLI, the folder's own name."""
    from pathlib import Path

    return referenced_name(spec) or Path(spec.partition(":")[2].strip()).name or "local"


def configured_sources() -> list[SourceChoice]:
    """SOURCES in order; without it, DEFAULT_SOURCES' specs named after their kind."""
    pairs = dict(settings.SOURCES) or _named_by_kind(settings.DEFAULT_SOURCES)
    defaults = set(settings.DEFAULT_SOURCES)
    choices = []
    for name, spec in pairs.items():
        kind = kind_of(spec)
        if kind not in KIND_LABELS:
            raise ImproperlyConfigured(
                f"SOURCES: {name}={spec} has unknown kind {kind!r}; use local:DIR, "
                "searxng:URL, ddgs, mcp:NAMESPACE.TOOL or primary:NAME"
            )
        if kind == "mcp":
            _check_remote_tool(name, spec)
        label = f"{name} · {_kind_label(kind, spec, name)}"
        choices.append(SourceChoice(name, spec, label, name in defaults or spec in defaults))
    return choices


def _kind_label(kind: str, spec: str, name: str) -> str:
    if kind != "primary":
        return KIND_LABELS[kind]
    try:
        return LABELS[parse_spec(spec)]
    except UnknownPrimarySource as exc:
        raise ImproperlyConfigured(f"SOURCES: {name}={spec}: {exc}") from None


def _check_remote_tool(name: str, spec: str) -> None:
    """A remote tool in SOURCES must be allowlisted in MCP_SOURCES_FILE: checked from the
    file alone, so listing the sources never waits on a server."""
    try:
        tool_spec(spec.partition(":")[2])
    except McpSourceError as exc:
        raise ImproperlyConfigured(f"SOURCES: {name}={spec}: {exc}") from None


def available_sources(owner=None) -> list[SourceChoice]:
    """The operator's sources, then the owner's own documents (research.uploads) when they
    have any: nobody else sees, or can name, that last one."""
    from research import uploads

    choices = configured_sources()
    own = uploads.spec_for(owner)
    if own is not None and all(c.name != uploads.SOURCE_NAME for c in choices):
        label = f"{uploads.SOURCE_NAME} · {gettext('my documents')}"
        choices.append(SourceChoice(uploads.SOURCE_NAME, own, label))
    return choices


def resolve(names: list[str], owner=None) -> list[str]:
    """What a run records for the sources `owner` may name `names` (their references);
    UnknownSource lists any others."""
    by_name = {c.name: c.reference for c in available_sources(owner)}
    wanted = list(dict.fromkeys(n.strip().lower() for n in names if n and n.strip()))
    unknown = [n for n in wanted if n not in by_name]
    if unknown:
        raise UnknownSource(unknown)
    return [by_name[n] for n in wanted]


def default_specs() -> list[str]:
    """DEFAULT_SOURCES as a run records them: each entry a configured name or, as before,
    a spec (a local folder among them by its reference)."""
    choices = configured_sources()
    known = {c.name: c.reference for c in choices} | {c.spec: c.reference for c in choices}
    return [known.get(entry.lower(), known.get(entry, entry)) for entry in settings.DEFAULT_SOURCES]


def label_for(spec: str) -> str:
    """What a page shows for a run's source: its configured label, never a server path."""
    from research import uploads

    for choice in configured_sources():
        if spec in (choice.spec, choice.reference):
            return choice.label
    if _is_uploads(spec) or referenced_name(spec) == uploads.SOURCE_NAME:
        return gettext("my documents")
    if kind_of(spec) == "primary":
        return LABELS.get(spec.partition(":")[2].strip().lower(), str(KIND_LABELS["primary"]))
    return str(KIND_LABELS.get(kind_of(spec), gettext("source")))


def _named_by_kind(specs: list[str]) -> dict[str, str]:
    named: dict[str, str] = {}
    for spec in specs:
        name = kind_of(spec) or "source"
        number = 2
        while name in named:
            name = f"{kind_of(spec)}-{number}"
            number += 1
        named[name] = spec
    return named


def _is_uploads(spec: str) -> bool:
    from pathlib import Path

    if kind_of(spec) != "local":
        return False
    folder = Path(spec.partition(":")[2].strip())
    return folder.parent == Path(settings.VAR_DIR) / "uploads"
