"""The services' addresses and what the operator may change about them.

Kept free of network imports so that settings can check PRIMARY_URLS at start-up.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

# Where each service's API lives; PRIMARY_URLS replaces any of them (a mirror, a proxy,
# or the local test servers).
DEFAULT_URLS = {
    "github": "https://api.github.com",
    "pypi": "https://pypi.org",
    "npm": "https://registry.npmjs.org",
    "crates": "https://crates.io/api/v1",
    "wikipedia-en": "https://en.wikipedia.org",
    "wikipedia-zh": "https://zh.wikipedia.org",
    "wikidata": "https://www.wikidata.org",
    "arxiv": "https://export.arxiv.org/api",
    "europepmc": "https://www.ebi.ac.uk/europepmc/webservices/rest",
    "clinicaltrials": "https://clinicaltrials.gov/api/v2",
}

# Seconds between two requests to a service that asks crawlers for a pace: arXiv's terms
# (one request every three seconds) and crates.io's crawler policy (one a second).
PACE = {"arxiv": 3.0, "crates": 1.0}


def primary_urls(overrides: Mapping[str, str], variable: str = "PRIMARY_URLS") -> dict[str, str]:
    """DEFAULT_URLS with the operator's replacements, each checked."""
    urls = dict(DEFAULT_URLS)
    for key, url in overrides.items():
        if key not in DEFAULT_URLS:
            known = ", ".join(DEFAULT_URLS)
            raise ImproperlyConfigured(f"{variable}: {key!r} is not a service; use {known}")
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ImproperlyConfigured(f"{variable}: {key}={url!r} is not an http(s) URL")
        urls[key] = url.rstrip("/")
    return urls
