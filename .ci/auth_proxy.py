"""CI only: a loopback proxy that adds `Authorization: Bearer $MCP_TOKEN` to every request.

The MCP conformance suite (`conformance server --url`) cannot send headers, and Verdict's
/mcp refuses requests without a token. Rather than give the product a token-less mode, CI
puts this in front: everything else (Host, Origin, method, body, streamed responses) passes
through untouched, so the suite still tests the server's own Host/Origin checks.

    MCP_TOKEN=... python .ci/auth_proxy.py http://127.0.0.1:8000 8001
"""

from __future__ import annotations

import os
import sys

import httpx
import uvicorn
from starlette.background import BackgroundTask
from starlette.requests import Request
from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

DROPPED_REQUEST = {b"authorization", b"content-length", b"transfer-encoding", b"connection"}
DROPPED_RESPONSE = {"transfer-encoding", "connection", "keep-alive"}


def build(upstream: str, token: str):
    client = httpx.AsyncClient(base_url=upstream, timeout=httpx.Timeout(30.0, read=None))

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return  # no lifespan work to do (uvicorn runs with --lifespan off)
        request = Request(scope, receive)
        headers = [(k, v) for k, v in request.headers.raw if k.lower() not in DROPPED_REQUEST]
        headers.append((b"authorization", f"Bearer {token}".encode()))
        outgoing = client.build_request(
            request.method,
            request.url.path + (f"?{request.url.query}" if request.url.query else ""),
            headers=headers,
            content=await request.body(),
        )
        response = await client.send(outgoing, stream=True)
        forwarded = {
            k: v for k, v in response.headers.multi_items() if k.lower() not in DROPPED_RESPONSE
        }
        await StreamingResponse(
            response.aiter_raw(),
            status_code=response.status_code,
            headers=forwarded,
            background=BackgroundTask(response.aclose),
        )(scope, receive, send)

    return app


if __name__ == "__main__":
    upstream_url, port = sys.argv[1], int(sys.argv[2])
    uvicorn.run(
        build(upstream_url, os.environ["MCP_TOKEN"]),
        host="127.0.0.1",
        port=port,
        lifespan="off",
        log_level="warning",
    )
