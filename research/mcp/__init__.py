"""Verdict over the Model Context Protocol: run artifacts as resources, tools and prompts.

`build_server(user)` makes one MCPServer that acts for one Django user; every transport
(today stdio, `python manage.py mcp`) serves what it returns.
"""

from research.mcp.server import build_server

__all__ = ["build_server"]
