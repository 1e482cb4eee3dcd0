"""URL canonicalisation, so the same page reached two ways counts once."""

from __future__ import annotations

import hashlib
import re
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

_TRACKING_PREFIXES = ("utm_", "mc_", "pk_")
_TRACKING_KEYS = {"fbclid", "gclid", "ref", "ref_src", "spm", "from", "share"}


MAX_URL = 2_048  # characters: longer is no page address a person or a crawler uses


def web_address(url: Any) -> bool:
    """An http(s) URL with a host that the rest of the pipeline can parse and fetch. Search
    providers and remote servers are not trusted to send one, and a broken one (a bad IPv6
    host, a port out of range, credentials, spaces) would otherwise fail a stage later."""
    if not isinstance(url, str) or len(url) > MAX_URL or any(c.isspace() for c in url):
        return False
    if any(ord(c) < 32 or ord(c) == 127 for c in url):
        return False
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  (raises ValueError for a port out of range)
    except ValueError:
        return False
    return (
        parts.scheme.lower() in ("http", "https")
        and bool(parts.hostname)
        and parts.username is None
        and parts.password is None
    )


def canonical_url(url: str) -> str:
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower().removeprefix("www.")
    port = parts.port
    if port and not ((scheme == "http" and port == 80) or (scheme == "https" and port == 443)):
        host = f"{host}:{port}"
    query = sorted(
        (k, v)
        for k, v in parse_qsl(parts.query, keep_blank_values=True)
        if not k.lower().startswith(_TRACKING_PREFIXES) and k.lower() not in _TRACKING_KEYS
    )
    path = parts.path.rstrip("/") or ("" if scheme != "file" else "/")
    if scheme in ("http", "https"):
        scheme = "https"  # the same page over http and https is one source
    return urlunsplit((scheme, host, path, urlencode(query), ""))


def source_id(url: str) -> str:
    return "s" + hashlib.sha1(canonical_url(url).encode("utf-8")).hexdigest()[:10]


def site_of(url: str) -> str:
    host = (urlsplit(url).hostname or "").lower()
    return host.removeprefix("www.")


_IP_ADDRESS = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}")


def registrable_domain(url: str) -> str:
    """A rough eTLD+1: good enough to tell independent sites apart. An address is its own
    site ("127.0.0.1", not "0.1")."""
    host = site_of(url)
    if _IP_ADDRESS.fullmatch(host) or ":" in host:
        return host
    labels = host.split(".")
    if len(labels) >= 3 and len(labels[-2]) <= 3 and len(labels[-1]) == 2:
        return ".".join(labels[-3:])  # example.co.uk, example.com.cn
    return ".".join(labels[-2:]) if len(labels) >= 2 else host
