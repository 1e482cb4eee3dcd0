"""The stage tools: one step of a stage at a time, for a client that does the research itself.

Each tool runs the same code the pipeline stage runs (research.stages, research.providers,
decisions), writes nothing, and answers with a pydantic model whose `status` is an Outcome
(research.outcomes) or one of the statuses in research.mcp.common. "Looked and found
nothing" (NO_HIT) is an answer; "could not look" (TIMEOUT, UNAVAILABLE, BLOCKED ...),
NOT_READY, INVALID and a run that is not the user's are isError results that still carry
their status, so the two never blur for the client either.

Sources are the operator's (research.sources): a client names one, never a folder or a
search server's URL; pages are fetched only through the guarded fetcher.

The tools that take a while (searching, fetching, assessing) say how they are going as they
go, through a research.mcp.common.Reporter: a log line per step and, when the client sent a
progressToken, a progress notification.

One module per tool (search, filtering, pages, assess), their results (results) and their
registration on a server (register).
"""

from research.mcp.tools.register import register_stage_tools
from research.mcp.tools.results import ASSESS, FETCH, FILTER, KEY_POINTS, SEARCH

__all__ = ["ASSESS", "FETCH", "FILTER", "KEY_POINTS", "SEARCH", "register_stage_tools"]
