"""The ASGI app: MCP over Streamable HTTP at /mcp, Django for everything else.

The MCP endpoint's session managers need the ASGI lifespan, so run it with lifespan on
(`manage.py serve` does: `uvicorn research.asgi:application --lifespan on`). Django itself
takes no part in the lifespan.
"""

import os

from django.core.asgi import get_asgi_application
from starlette.types import Receive, Scope, Send

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "research.settings")
django_app = get_asgi_application()

from research.mcp.http import McpEndpoint, is_mcp  # noqa: E402  (needs Django set up)

mcp_endpoint = McpEndpoint()


async def application(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] == "lifespan":
        await mcp_endpoint.lifespan(receive, send)
    elif is_mcp(scope):
        await mcp_endpoint(scope, receive, send)
    else:
        await django_app(scope, receive, send)
