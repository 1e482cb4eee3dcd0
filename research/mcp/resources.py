"""The resources a user's MCP session can read: the user's runs (research://runs) and every
artifact of each, one template per artifact name, each with its MIME type.

resources/list names, besides research://runs, each run's manifest and decision log and,
once a run is done, every artifact it wrote, in pages of LIST_PAGE."""

from __future__ import annotations

import json

from asgiref.sync import sync_to_async
from mcp.server import ServerRequestContext
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, ListResourcesResult, PaginatedRequestParams, Resource

from research import selectors
from research.mcp.common import (
    ARTIFACTS,
    PAGE_TEMPLATE,
    RUNS_URI,
    artifact_uri,
    owned_run,
    readable,
    valid_source_id,
)
from research.models import Run
from research.names import (
    CORRECTIONS,
    PAGES_DIR,
    REPORT,
)
from research.store import INDEX, LOG, ArtifactDamaged, RunStore, StoreError, readers, store_for

LIST_PAGE = 500  # resources per resources/list answer


def mime_type(name: str) -> str:
    if name.endswith(".json"):
        return "application/json"
    if name.endswith(".jsonl"):
        return "application/jsonl"
    if name.endswith(".md"):
        return "text/markdown"
    return "text/plain"


def read_artifact(user, run_id: str, name: str) -> str:
    """An artifact's text, for resources: every refusal is a ResourceNotFoundError
    (-32602, invalid params), so a foreign run and a bad name look alike."""
    try:
        owned_run(user, run_id)
        store = store_for(run_id)
        if name == CORRECTIONS and CORRECTIONS not in store.artifact_names():
            # Nobody has corrected the reader yet: that is an empty list, not a missing file.
            return readers.corrections(store).model_dump_json(indent=2)
        return store.read_text(name)
    except LookupError as exc:
        raise ResourceNotFoundError(str(exc)) from None
    except ArtifactDamaged as exc:
        raise ResourceError(str(exc)) from None  # -32603: there, but not sound
    except StoreError as exc:
        raise ResourceNotFoundError(f"invalid artifact: {exc}") from None
    except FileNotFoundError:
        raise ResourceNotFoundError(f"run {run_id} has no {name} yet") from None


def list_runs(user) -> str:
    rows = [
        {
            "run_id": run.run_id,
            "question": run.question,
            "status": run.status,
            "current_stage": run.current_stage,
            "created": run.created.isoformat(),
            "uri": artifact_uri(run.run_id, INDEX),
            "report": artifact_uri(run.run_id, REPORT),
        }
        for run in selectors.runs_for(user)
    ]
    return json.dumps({"runs": rows}, ensure_ascii=False, indent=2)


def run_resources(user) -> list[Resource]:
    """Each of the user's runs' manifest and log and, once it is done, its artifacts; newest
    run first. Synchronous: reads the runs' manifests."""
    listed: list[Resource] = []
    for run in selectors.runs_for(user):
        store = store_for(run.run_id)
        names = [INDEX] + ([LOG] if store.has(LOG) else [])
        if run.status == Run.Status.DONE:
            names += [n for n in _artifact_names(store) if n not in names and readable(n)]
        about = " ".join(run.question.split())[:80]
        listed += [
            Resource(
                uri=artifact_uri(run.run_id, name),
                name=f"{run.run_id}/{name}",
                title=f"{name} of “{about}”",
                mime_type=mime_type(name),
            )
            for name in names
        ]
    return listed


def _artifact_names(store: RunStore) -> list[str]:
    """The artifacts the run's manifest lists; none while it cannot be read (reading the
    manifest itself says why, and mends it when the files are sound)."""
    try:
        return store.artifact_names()
    except (OSError, StoreError):
        return []


def register_resources(server: MCPServer, user) -> None:
    """Add the runs resource and the artifact templates to `server`, acting for `user`."""

    @server.resource(
        RUNS_URI,
        name="runs",
        title="Your runs",
        description="Your research runs, newest first, with each run's status and URIs.",
        mime_type="application/json",
    )
    async def runs() -> str:
        return await sync_to_async(list_runs)(user)

    def add_artifact_template(name: str) -> None:
        async def read(run_id: str) -> str:
            return await sync_to_async(read_artifact)(user, run_id, name)

        server.resource(
            artifact_uri("{run_id}", name),
            name=name,
            title=f"Run artifact {name}",
            description=f"The {name} artifact of one of your runs.",
            mime_type=mime_type(name),
        )(read)

    for artifact in (*ARTIFACTS, LOG):
        add_artifact_template(artifact)

    async def list_resources(
        ctx: ServerRequestContext, params: PaginatedRequestParams
    ) -> ListResourcesResult:
        start = _offset(params.cursor)
        every = [*await server.list_resources(), *await sync_to_async(run_resources)(user)]
        end = start + LIST_PAGE
        more = str(end) if end < len(every) else None
        return ListResourcesResult(resources=every[start:end], next_cursor=more)

    # MCPServer lists only fixed resources; a run's files are known only at request time.
    server._lowlevel_server.add_request_handler(
        "resources/list", PaginatedRequestParams, list_resources
    )

    @server.resource(
        PAGE_TEMPLATE,
        name="round_3_page",
        title="A page deep-read stored",
        description="The main text of one source that deep-read fetched, as Markdown.",
        mime_type="text/markdown",
    )
    async def page(run_id: str, source_id: str) -> str:
        if not valid_source_id(source_id):
            raise ResourceNotFoundError(f"not a valid source id: {source_id!r}")
        return await sync_to_async(read_artifact)(user, run_id, f"{PAGES_DIR}/{source_id}.md")


def _offset(cursor: str | None) -> int:
    if cursor is None:
        return 0
    if not cursor.isdigit():
        raise MCPError(INVALID_PARAMS, f"not a cursor this server gave: {cursor[:40]!r}")
    return int(cursor)
