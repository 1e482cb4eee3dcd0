"""OAuth protected resource metadata (RFC 9728): what a client finds when it looks for how
to authenticate to /mcp."""

from __future__ import annotations

import httpx
import pytest

from tests.research.mcp.test_http import serve, url  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    "path", ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"]
)
def test_the_resource_metadata_names_the_endpoint_and_the_bearer_header(url, path):  # noqa: F811
    response = httpx.get(f"{url}{path}", timeout=15)
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    metadata = response.json()
    assert metadata["resource"] == f"{url}/mcp"
    assert metadata["bearer_methods_supported"] == ["header"]
    assert metadata["authorization_servers"] == [url]  # Verdict signs its own users in
    assert metadata["scopes_supported"] == ["mcp"]


def test_the_metadata_a_401_points_at_is_there(url):  # noqa: F811
    refused = httpx.post(f"{url}/mcp", json={}, headers={"Accept": "application/json"}, timeout=15)
    challenge = refused.headers["www-authenticate"]
    address = challenge.split('resource_metadata="', 1)[1].split('"', 1)[0]
    assert httpx.get(address, timeout=15).json()["resource"] == f"{url}/mcp"
