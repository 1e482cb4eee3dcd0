"""The primary providers by name, built from the settings, so that they can be named like
sources: `primary:github`, `primary:clinicaltrials`.

Each name says what it answers (`ANSWERS`), which a planner can match against the
dimensions of a question. Search services (arXiv, Europe PMC, ClinicalTrials.gov) can
also stand behind the SearchProvider interface through PrimarySearch.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

from research.outcomes import Outcome
from research.providers.base import SearchHit, SearchResult
from research.providers.primary.arxiv import ArxivProvider
from research.providers.primary.base import PrimaryProvider
from research.providers.primary.cache import ResponseCache
from research.providers.primary.client import ApiClient
from research.providers.primary.clinicaltrials import ClinicalTrialsProvider
from research.providers.primary.config import PACE
from research.providers.primary.crates import CratesProvider
from research.providers.primary.europepmc import EuropePmcProvider
from research.providers.primary.github import GitHubProvider, api_headers
from research.providers.primary.npm import NpmProvider
from research.providers.primary.pypi import PyPIProvider
from research.providers.primary.records import PrimaryRecord, Subject
from research.providers.primary.wikipedia import WikipediaProvider

SPEC_KIND = "primary"
NAMES = (
    "github",
    "pypi",
    "npm",
    "crates",
    "wikipedia",
    "arxiv",
    "europepmc",
    "clinicaltrials",
)
LABELS = {
    "github": "repositories (GitHub)",
    "pypi": "Python packages (PyPI)",
    "npm": "JavaScript packages (npm)",
    "crates": "Rust crates (crates.io)",
    "wikipedia": "encyclopaedia (Wikipedia, Wikidata)",
    "arxiv": "preprints (arXiv)",
    "europepmc": "biomedical literature (Europe PMC)",
    "clinicaltrials": "clinical trials (ClinicalTrials.gov)",
}
# The fact attributes each provider can state: what a planner asks it for.
ANSWERS = {
    "github": ("licence", "archived", "stars", "last_push", "latest_release", "open_issues"),
    "pypi": ("latest_release", "release_cadence", "release_history", "licence"),
    "npm": ("latest_release", "release_cadence", "release_history", "licence", "deprecated"),
    "crates": ("latest_release", "release_cadence", "release_history", "licence"),
    "wikipedia": ("developer", "licence", "inception", "latest_release", "discontinued"),
    "arxiv": ("paper", "open_access_full_text"),
    "europepmc": ("paper", "open_access_full_text", "free_full_text"),
    "clinicaltrials": (
        "trial_status",
        "trial_sponsor",
        "trial_design",
        "trial_arm",
        "trial_interventions",
        "trial_primary_outcome",
        "trial_primary_result",
        "trial_effect",
        "trial_effect_interval",
        "trial_p_value",
    ),
}
SEARCHABLE = frozenset({"arxiv", "europepmc", "clinicaltrials"})


class UnknownPrimarySource(ValueError):
    pass


def parse_spec(spec: str) -> str:
    """'primary:github' (or just 'github') -> 'github'; UnknownPrimarySource otherwise."""
    kind, sep, name = spec.strip().partition(":")
    name = (name if sep else kind).strip().lower()
    if sep and kind.strip().lower() != SPEC_KIND:
        raise UnknownPrimarySource(f"{spec!r} is not a primary source; write primary:NAME")
    if name not in NAMES:
        raise UnknownPrimarySource(
            f"{spec!r}: no primary source named {name!r}; use one of {', '.join(NAMES)}"
        )
    return name


def build_primary(
    name: str,
    *,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.time,
    pace: float | None = None,
) -> PrimaryProvider:
    """The provider `name` (or `primary:name`) names, configured from the settings.
    `pace` replaces the service's own pace between requests (tests set it to 0)."""
    from django.conf import settings  # read at call time, so test overrides apply

    name = parse_spec(name)
    cache = ResponseCache(Path(settings.PRIMARY_CACHE_DIR), settings.PRIMARY_CACHE_TTL, clock)
    urls = settings.PRIMARY_URLS

    def client(service: str, label: str, **extra: object) -> ApiClient:
        return ApiClient(
            service,
            label,
            urls[service],
            user_agent=settings.FETCH_USER_AGENT,
            timeout=settings.PRIMARY_TIMEOUT,
            tries=settings.RETRY_TRIES,
            base_delay=settings.RETRY_BASE_DELAY,
            max_bytes=settings.PRIMARY_MAX_BYTES,
            cache=cache,
            min_interval=PACE.get(service, 0.0) if pace is None else pace,
            allowed_networks=settings.FETCH_ALLOWED_NETWORKS,
            sleep=sleep,
            clock=clock,
            **extra,  # type: ignore[arg-type]
        )

    deadline = settings.PRIMARY_DEADLINE
    if name == "github":
        token = settings.GITHUB_TOKEN
        github = client(
            "github",
            "GitHub",
            headers=api_headers(token),
            rate_limit_hint="" if token else "set GITHUB_TOKEN for a higher limit",
        )
        return GitHubProvider(github, deadline=deadline)
    if name == "wikipedia":
        wikis = {lang: client(f"wikipedia-{lang}", f"{lang} Wikipedia") for lang in ("en", "zh")}
        return WikipediaProvider(wikis, client("wikidata", "Wikidata"), deadline=deadline)
    simple = {
        "pypi": (PyPIProvider, "PyPI"),
        "npm": (NpmProvider, "npm"),
        "crates": (CratesProvider, "crates.io"),
        "arxiv": (ArxivProvider, "arXiv"),
        "europepmc": (EuropePmcProvider, "Europe PMC"),
        "clinicaltrials": (ClinicalTrialsProvider, "ClinicalTrials.gov"),
    }
    kind, label = simple[name]
    return kind(client(name, label), deadline=deadline)


class PrimarySearch:
    """A search service's lookups as a SearchProvider: the query's words are the search,
    each record a hit. The records are kept, so whoever reads a hit can take the stored
    record instead of fetching the page behind it."""

    def __init__(self, provider: PrimaryProvider) -> None:
        if provider.name not in SEARCHABLE:
            raise UnknownPrimarySource(f"{provider.name} is not a search service")
        self.provider = provider
        self.name = f"{SPEC_KIND}:{provider.name}"
        self._records: dict[str, PrimaryRecord] = {}
        self._lock = threading.Lock()

    def search(self, query: str, limit: int) -> SearchResult:
        found = self.provider.lookup(Subject(option="", query=query, limit=limit))
        if found.outcome is not Outcome.OK:
            return SearchResult(found.outcome, detail=found.detail)
        with self._lock:
            for record in found.records:
                self._records[record.url] = record
        hits = [_hit(record) for record in found.records[:limit]]
        return SearchResult(Outcome.OK, hits, detail=found.detail)

    def record_for(self, url: str) -> PrimaryRecord | None:
        with self._lock:
            return self._records.get(url)


def _hit(record: PrimaryRecord) -> SearchHit:
    paragraphs = [part for part in record.text.split("\n\n") if part.strip()]
    snippet = paragraphs[-1].strip() if len(paragraphs) > 2 else ""
    published = record.published if record.published and len(record.published) == 10 else None
    return SearchHit(
        url=record.url,
        title=record.title,
        snippet=snippet[:500],
        published=published,
    )
