"""One local server on 127.0.0.1 that answers as GitHub, PyPI, npm, crates.io, Wikipedia,
Wikidata, arXiv, Europe PMC and ClinicalTrials.gov do, each under its own path prefix
(`/github`, `/pypi`, ...), with the response shapes of world.py and world_research.py.

A service can be switched into a failure mode: `hang` (never answers), `error` (HTTP 500),
`malformed` (a truncated body), `wrong-shape` (valid JSON or XML, not the documented
shape), `rate-limited` (GitHub's 403 with X-RateLimit-Remaining: 0, others' 429 with
Retry-After), `retry-after` (one 429 asking to wait 2 s, then answers), `flaky` (one 503,
then answers) and `fails-after-first` (answers once, then 503s). `path_modes` does the
same for one path of a service. Every request is recorded.
"""

from __future__ import annotations

import base64
import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, quote, unquote, urlsplit

from tests.research.providers.primary import world
from tests.research.providers.primary import world_research as research

SERVICES = (
    "github",
    "pypi",
    "npm",
    "crates",
    "wikipedia-en",
    "wikipedia-zh",
    "wikidata",
    "arxiv",
    "europepmc",
    "clinicaltrials",
)
Answer = tuple[int, str, bytes, dict[str, str]]
HANG: Answer = (0, "", b"", {})  # no answer at all: the client's deadline ends the wait
JSON = "application/json; charset=utf-8"
ATOM = "application/atom+xml; charset=utf-8"


@dataclass(frozen=True)
class Asked:
    service: str
    path: str  # below the service's prefix, percent-decoded
    query: dict[str, str]
    headers: dict[str, str]  # names lower-cased
    raw_path: str = ""  # as sent, percent-encoding and all


def _json(payload: object, status: int = 200, headers: dict[str, str] | None = None) -> Answer:
    return status, JSON, json.dumps(payload, ensure_ascii=False).encode("utf-8"), headers or {}


def _cursor(offset: int) -> str:
    return base64.b64encode(f"offset:{offset}".encode()).decode("ascii")


def _offset(cursor: str) -> int:
    if not cursor or cursor == "*":
        return 0
    return int(base64.b64decode(cursor).decode("ascii").split(":")[1])


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 64

    def handle_error(self, request: object, client_address: object) -> None:
        pass  # clients with deadlines hang up mid-answer on purpose


class FakeServices:
    def __init__(self, now: float = world.NOW_EPOCH) -> None:
        self.now = now
        self.modes: dict[str, str] = {}  # service -> failure mode
        self.path_modes: dict[tuple[str, str], str] = {}  # (service, path) -> failure mode
        self.requests: list[Asked] = []
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._server = _Server(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,))
        self._thread.daemon = True

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def urls(self) -> dict[str, str]:
        """PRIMARY_URLS pointing every service here."""
        return {service: f"{self.base}/{service}" for service in SERVICES}

    def asked(self, service: str) -> list[Asked]:
        with self._lock:
            return [request for request in self.requests if request.service == service]

    def start(self) -> FakeServices:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()

    # --- dispatch ------------------------------------------------------------------------

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        services = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                parts = urlsplit(self.path)
                service, _, rest = parts.path.lstrip("/").partition("/")
                asked = Asked(
                    service,
                    "/" + unquote(rest),
                    dict(parse_qsl(parts.query, keep_blank_values=True)),
                    {key.lower(): value for key, value in self.headers.items()},
                    parts.path,
                )
                answer = services._answer(asked)
                if answer is HANG:
                    services._stopping.wait(30)
                    self.close_connection = True
                    return
                status, content_type, body, headers = answer
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", content_type)
                    self.send_header("Content-Length", str(len(body)))
                    for key, value in headers.items():
                        self.send_header(key, value)
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        return Handler

    def _answer(self, asked: Asked) -> Answer:
        with self._lock:
            self.requests.append(asked)
            seen = sum(1 for request in self.requests if request.service == asked.service)
        handler = _HANDLERS.get(asked.service)
        if handler is None:
            return 404, "text/plain", b"no such service", {}
        mode = self.path_modes.get((asked.service, asked.path)) or self.modes.get(asked.service)
        failure = self._failure(asked, mode or "ok", seen)
        return failure if failure is not None else handler(self, asked)

    def _failure(self, asked: Asked, mode: str, seen: int) -> Answer | None:
        """The answer of the service's failure mode, or None to answer normally."""
        xml = asked.service == "arxiv"
        if mode == "hang":
            return HANG
        if mode == "error":
            return (
                500,
                "text/html",
                b"<html><body><h1>500 Internal Server Error</h1></body></html>",
                {},
            )
        if mode == "malformed":
            body = (
                b'<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><entry><title>Cut'
                if xml
                else b'{"results": [{"id": "cut'
            )
            return 200, ATOM if xml else JSON, body, {}
        if mode == "wrong-shape":
            if xml:
                return 200, ATOM, b'<?xml version="1.0"?><html><body>maintenance</body></html>', {}
            return _json(["this", "is", "not", "the", "documented", "object"])
        if mode == "rate-limited":
            return self._rate_limited(asked.service, wait=3600)
        if mode == "retry-after" and seen == 1:
            return self._rate_limited(asked.service, wait=2, secondary=True)
        if (mode == "flaky" and seen == 1) or (mode == "fails-after-first" and seen > 1):
            return 503, "text/plain", b"upstream connect error", {}
        return None

    def _rate_limited(self, service: str, wait: int, secondary: bool = False) -> Answer:
        if service == "github" and not secondary:
            headers = {
                "X-RateLimit-Limit": "60",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": str(int(self.now) + wait),
                "X-RateLimit-Used": "60",
                "X-RateLimit-Resource": "core",
            }
            message = {
                "message": "API rate limit exceeded for 127.0.0.1. (But here's the good news: "
                "Authenticated requests get a higher rate limit.)",
                "documentation_url": "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api",
            }
            return _json(message, 403, headers)
        return _json({"message": "Too Many Requests"}, 429, {"Retry-After": str(wait)})


# --- GitHub ------------------------------------------------------------------------------------


def _github(services: FakeServices, asked: Asked) -> Answer:
    headers = {
        "X-RateLimit-Limit": "60",
        "X-RateLimit-Remaining": "57",
        "X-GitHub-Media-Type": "github.v3",
    }
    if asked.headers.get("authorization") == "Bearer wrong-token":
        return _json({"message": "Bad credentials", "status": "401"}, 401, headers)
    not_found = _json(
        {
            "message": "Not Found",
            "documentation_url": "https://docs.github.com/rest",
            "status": "404",
        },
        404,
        headers,
    )
    if asked.path == "/search/repositories":
        term = asked.query.get("q", "").replace("in:name", "").strip().lower()
        found = [
            dict(repo, score=1.0)
            for repo in world.GITHUB_REPOS.values()
            if term and term in repo["name"].lower()
        ]
        found.sort(key=lambda repo: -repo["stargazers_count"])
        per_page = int(asked.query.get("per_page", "30"))
        return _json(
            {"total_count": len(found), "incomplete_results": False, "items": found[:per_page]},
            headers=headers,
        )
    match = re.fullmatch(r"/repos/([^/]+/[^/]+)(/.*)?", asked.path)
    if not match or match.group(1) not in world.GITHUB_REPOS:
        return not_found
    name, rest = match.group(1), match.group(2) or ""
    if rest == "":
        return _json(world.GITHUB_REPOS[name], headers=headers)
    if rest == "/releases/latest":
        release = world.GITHUB_RELEASES.get(name)
        return _json(release, headers=headers) if release else not_found
    if rest == "/tags":
        return _json(world.GITHUB_TAGS.get(name, []), headers=headers)
    commit = re.fullmatch(r"/commits/(\w+)", rest)
    if commit and commit.group(1) in world.GITHUB_COMMITS:
        return _json(world.github_commit(commit.group(1)), headers=headers)
    return not_found


# --- the package indexes -------------------------------------------------------------------------


def _pypi(services: FakeServices, asked: Asked) -> Answer:
    match = re.fullmatch(r"/pypi/([^/]+)/json", asked.path)
    package = world.PYPI.get(match.group(1).lower()) if match else None
    if package is None:
        return _json({"message": "Not Found"}, 404)
    return _json(package)


def _npm(services: FakeServices, asked: Asked) -> Answer:
    name, latest = asked.path.lstrip("/"), False
    if name.endswith("/latest"):
        name, latest = name.removesuffix("/latest"), True
    if name == world.NPM_HUGE_NAME:
        if latest:
            return _json(world.NPM_HUGE_LATEST)
        return _json({"name": name, "readme": "x" * 400_000, "versions": {}})
    package = world.NPM.get(name)
    if package is None:
        return _json({"error": "Not found"}, 404)
    if latest:
        return _json(package["versions"][package["dist-tags"]["latest"]])
    return _json(package)


def _crates(services: FakeServices, asked: Asked) -> Answer:
    match = re.fullmatch(r"/crates/([^/]+)(/versions)?", asked.path)
    name = match.group(1).replace("-", "_") if match else ""
    name = next((key for key in world.CRATES if key.replace("-", "_") == name), "")
    if not name:
        missing = match.group(1) if match else asked.path
        return _json({"errors": [{"detail": f"crate `{missing}` does not exist"}]}, 404)
    if match and match.group(2):
        versions = world.CRATE_VERSIONS.get(name) or world.CRATES[name].get("versions", [])
        return _json({"versions": versions, "meta": {"total": len(versions), "next_page": None}})
    return _json(world.CRATES[name])


# --- Wikipedia and Wikidata ------------------------------------------------------------------


def _wikipedia(lang: str) -> Callable[[FakeServices, Asked], Answer]:
    def answer(services: FakeServices, asked: Asked) -> Answer:
        prefix = "/api/rest_v1/page/summary/"
        title = asked.path.removeprefix(prefix).replace(" ", "_")
        target = research.WIKIPEDIA_REDIRECTS.get((lang, title))
        if asked.path.startswith(prefix) and target:
            return 302, JSON, b"", {"Location": quote(target)}
        page = research.WIKIPEDIA.get((lang, title)) if asked.path.startswith(prefix) else None
        if page is None:
            problem = {
                "type": "https://mediawiki.org/wiki/HyperSwitch/errors/not_found",
                "title": "Not found.",
                "method": "get",
                "detail": "Page or revision not found.",
                "uri": f"/{lang}.wikipedia.org/v1/page/summary/{title}",
            }
            return _json(problem, 404)
        return _json(page)

    return answer


def _wikidata_search(asked: Asked) -> Answer:
    """wbsearchentities: items whose label (in the language asked, or `mul`) starts with
    the words searched for, as Wikidata's prefix search finds them."""
    words, lang = asked.query.get("search", "").lower(), asked.query.get("language", "en")
    hits = []
    for qid, item in research.WIKIDATA.items():
        names = [item["labels"][code]["value"] for code in (lang, "mul") if code in item["labels"]]
        if words and any(name.lower().startswith(words) for name in names):
            description = item["descriptions"].get(lang, {}).get("value", "")
            hits.append(
                {
                    "id": qid,
                    "title": qid,
                    "repository": "wikidata",
                    "url": f"//www.wikidata.org/wiki/{qid}",
                    "concepturi": f"http://www.wikidata.org/entity/{qid}",
                    "label": names[0],
                    "description": description,
                    "match": {"type": "label", "language": lang, "text": names[0]},
                }
            )
    return _json({"searchinfo": {"search": words}, "search": hits, "success": 1})


def _wikidata(services: FakeServices, asked: Asked) -> Answer:
    if asked.path == "/w/api.php" and asked.query.get("action") == "wbsearchentities":
        return _wikidata_search(asked)
    if asked.path != "/w/api.php" or asked.query.get("action") != "wbgetentities":
        return _json({"error": {"code": "badvalue", "info": "Unrecognized value for action"}})
    ids = asked.query.get("ids", "").split("|")
    missing = [qid for qid in ids if qid not in research.WIKIDATA]
    if missing:
        error = {
            "code": "no-such-entity",
            "info": f'Could not find an entity with the ID "{missing[0]}".',
            "id": missing[0],
            "*": "See https://www.wikidata.org/w/api.php for API usage.",
        }
        return _json({"error": error, "servedby": "mw-api-ext.codfw.main"})
    props = set(asked.query.get("props", "").split("|"))
    languages = set(asked.query.get("languages", "").split("|"))
    entities = {qid: _entity_as_asked(research.WIKIDATA[qid], props, languages) for qid in ids}
    return _json({"entities": entities, "success": 1})


def _entity_as_asked(entity: dict, props: set[str], languages: set[str]) -> dict:
    """As wbgetentities answers: `modified` and the page's ids only with props=info, and
    labels and descriptions only in the languages asked for (`mul` only when asked)."""
    keep = {"type", "id"} | props
    if "info" in props:
        keep |= {"modified", "title", "pageid", "ns", "lastrevid"}
    shown = {key: value for key, value in entity.items() if key in keep}
    for key in ("labels", "descriptions"):
        if key in shown:
            shown[key] = {lang: v for lang, v in shown[key].items() if lang in languages}
    return shown


# --- arXiv, Europe PMC, ClinicalTrials.gov ----------------------------------------------------


def _words(text: str) -> list[str]:
    return [word.lower() for word in re.findall(r"[\w.+-]+", text)]


def _has(text: str, term: str) -> bool:
    return re.search(rf"\b{re.escape(term)}\b", " ".join(text.split()), re.IGNORECASE) is not None


def _arxiv(services: FakeServices, asked: Asked) -> Answer:
    if asked.path != "/query":
        return 404, "text/plain", b"not found", {}
    ids = asked.query.get("id_list", "")
    if ids:
        # arXiv checks the year and month an identifier starts with.
        if not re.fullmatch(r"\d{2}(0[1-9]|1[0-2])\.\d{4,5}(v\d+)?", ids):
            return 400, ATOM, research.arxiv_error(f"incorrect id format for {ids}").encode(), {}
        papers = [paper for paper in research.ARXIV_PAPERS if paper["id"].startswith(ids)]
    else:
        query = asked.query.get("search_query", "")
        terms = [phrase or word for phrase, word in re.findall(r'all:(?:"([^"]+)"|(\S+))', query)]
        papers = [
            paper
            for paper in research.ARXIV_PAPERS
            if terms and all(_has(paper["title"] + " " + paper["summary"], term) for term in terms)
        ]
    count = int(asked.query.get("max_results", "10"))
    entries = [research.arxiv_entry(paper) for paper in papers[:count]]
    return (
        200,
        ATOM,
        research.arxiv_feed(entries, asked.query.get("search_query", ids), len(papers)).encode(),
        {},
    )


def _europepmc(services: FakeServices, asked: Asked) -> Answer:
    if asked.path != "/search":
        return 404, "text/plain", b"not found", {}
    words = _words(asked.query.get("query", ""))
    found = [
        paper
        for paper in research.EUROPEPMC
        if words
        and all(word in _words(paper["title"] + " " + paper["abstractText"]) for word in words)
    ]
    cursor = asked.query.get("cursorMark", "*")
    offset, size = _offset(cursor), int(asked.query.get("pageSize", "25"))
    page = found[offset : offset + size]
    # On the last page Europe PMC hands back the cursor it was given.
    following = _cursor(offset + size) if offset + size < len(found) else cursor
    payload = {
        "version": "6.9",
        "hitCount": len(found),
        "nextCursorMark": following,
        "request": {
            "queryString": asked.query.get("query", ""),
            "resultType": asked.query.get("resultType", "lite"),
            "cursorMark": cursor,
            "pageSize": size,
            "sort": "",
            "synonym": False,
        },
        "resultList": {"result": page},
    }
    return _json(payload)


def _clinicaltrials(services: FakeServices, asked: Asked) -> Answer:
    single = re.fullmatch(r"/studies/(NCT\d{8})", asked.path)
    if single:
        found = [
            s
            for s in research.STUDIES
            if s["protocolSection"]["identificationModule"]["nctId"] == single.group(1)
        ]
        return _json(found[0]) if found else (404, "text/plain", b"Study not found", {})
    if asked.path != "/studies":
        return 404, "text/plain", b"not found", {}
    drug = asked.query.get("query.intr", "").lower()
    words = _words(asked.query.get("query.term", ""))

    def matches(study: dict) -> bool:
        protocol = study["protocolSection"]
        given = " ".join(
            i["name"] for i in protocol["armsInterventionsModule"]["interventions"]
        ).lower()
        about = " ".join(
            [
                protocol["identificationModule"]["briefTitle"],
                *protocol["conditionsModule"]["conditions"],
            ]
        )
        return (not drug or drug in given) and all(word in _words(about) for word in words)

    found = [study for study in research.STUDIES if matches(study)]
    offset, size = _offset(asked.query.get("pageToken", "")), int(asked.query.get("pageSize", "10"))
    payload: dict = {"studies": found[offset : offset + size]}
    if offset + size < len(found):
        payload["nextPageToken"] = _cursor(offset + size)
    return _json(payload)


_HANDLERS: dict[str, Callable[[FakeServices, Asked], Answer]] = {
    "github": _github,
    "pypi": _pypi,
    "npm": _npm,
    "crates": _crates,
    "wikipedia-en": _wikipedia("en"),
    "wikipedia-zh": _wikipedia("zh"),
    "wikidata": _wikidata,
    "arxiv": _arxiv,
    "europepmc": _europepmc,
    "clinicaltrials": _clinicaltrials,
}
