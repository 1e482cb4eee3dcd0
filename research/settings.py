"""Django settings for Verdict. Every deployment value comes from the environment."""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from research.env import (
    env_bool,
    env_choice,
    env_float,
    env_int,
    env_list,
    env_networks,
    env_pairs,
    env_per_stage,
    env_str,
    env_url,
    in_project,
    load_env_file,
    local_in_project,
    stored_secret,
)
from research.providers.mcp_sources import load as load_mcp_sources
from research.providers.primary.config import primary_urls
from research.store.backends import parse_runs_store

BASE_DIR = Path(__file__).resolve().parent.parent
load_env_file(BASE_DIR / ".env")
# Local state that is not source: the generated secret key, caches, Redis data, test databases.
VAR_DIR = (BASE_DIR / env_str("VAR_DIR", "var")).resolve()
VAR_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = env_bool("DEBUG", False)
# Without SECRET_KEY, one is generated on first start into a file only the owner can read,
# so sessions survive restarts and no key is ever committed.
SECRET_KEY = env_str("SECRET_KEY") or stored_secret(VAR_DIR / "secret_key")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

# HTTPS: secure cookies, HSTS and the redirect to https. On by default in production, that
# is with DEBUG off and ALLOWED_HOSTS naming a host other than this machine. With the
# default hosts (127.0.0.1, localhost) browsers reach `make run` over plain http, so they
# are off. Each can be set on its own from the environment.
LOCAL_ONLY = all(h in ("127.0.0.1", "localhost", "::1", "[::1]") for h in ALLOWED_HOSTS)
PRODUCTION = not DEBUG and not LOCAL_ONLY
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", PRODUCTION)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", PRODUCTION)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", PRODUCTION)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000 if PRODUCTION else 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", PRODUCTION)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", PRODUCTION)
# Behind a proxy that ends TLS: trust its X-Forwarded-Proto header, or every request
# looks like plain http and is redirected forever.
if env_bool("SECURE_PROXY_SSL_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_AGE = env_int("SESSION_COOKIE_AGE", 14 * 24 * 3600, minimum=60)
X_FRAME_OPTIONS = "DENY"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    # The OAuth authorization server that MCP clients sign in with (research/oauth).
    "oauth2_provider",
    "research",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Scripts only from this site's own files, on every page (research/web/security.py).
    "research.web.security.ContentSecurityPolicy",
    # Static files, the admin's included, served by the app itself with DEBUG off.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language: the one chosen with the header's switch, else the browser's.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A run's own pages in its question's language (research/web/language.py).
    "research.web.language.RunLanguage",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "research.urls"
ASGI_APPLICATION = "research.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# SQLite (the default, one machine) or PostgreSQL (postgres://USER:PASSWORD@HOST:PORT/NAME),
# which every process of a deployment past one machine shares.
# Seconds a process keeps its database connection open between requests and tasks; 0 opens
# one for each. A kept connection is checked before it is used again, so a restarted
# database costs one reconnection, not an error page.
CONN_MAX_AGE = env_int("CONN_MAX_AGE", 0, minimum=0)
DATABASES = {
    "default": in_project(
        dj_database_url.parse(
            env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
            conn_max_age=CONN_MAX_AGE,
            conn_health_checks=True,
        ),
        BASE_DIR,
    )
}
if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # A database host that does not answer fails the request in seconds, saying so, instead
    # of hanging it for the system's TCP timeout.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("connect_timeout", 10)
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # The web process and the worker share one SQLite file; wait for locks instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
    # Tests that start real Celery workers need a database file those processes can open.
    # One per test process, so two test runs on one machine never share it.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-db-{os.getpid()}.sqlite3")}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LANGUAGE_CODE = "en"
# English is written in the code; Chinese is in locale/zh_Hans (compiled by `make`,
# research.i18n.build). A run's own pages use its question's language instead.
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "static"  # `manage.py collectstatic` puts files here; optional
STATIC_ROOT.mkdir(exist_ok=True)
# Serve straight from the app folders, so there is no collectstatic step to forget.
WHITENOISE_USE_FINDERS = True
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/accounts/login/"

# A file cache under VAR_DIR: shared by every web process on the machine, nothing to set up.
# It holds the sign-in throttle's counters.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": str(VAR_DIR / "cache"),
    }
}
# Failed sign-ins allowed per window, for one username from one address, and for one
# address whatever the username; past that, sign-in waits out the window.
LOGIN_FAILURES_PER_USER = env_int("LOGIN_FAILURES_PER_USER", 5, minimum=1)
LOGIN_FAILURES_PER_ADDRESS = env_int("LOGIN_FAILURES_PER_ADDRESS", 20, minimum=1)
LOGIN_FAILURE_WINDOW = env_int("LOGIN_FAILURE_WINDOW", 60, minimum=1)

# --- Verdict -----------------------------------------------------------------------------

# The addresses of reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed
# (comma-separated IPs or CIDRs, or * for any): uvicorn then takes the client's address from
# the header. Empty by default: the header is ignored and the address is the peer's own, so
# nobody can pass for many addresses and slip past the sign-in throttle by rotating it.
FORWARDED_ALLOW_IPS = env_list("FORWARDED_ALLOW_IPS")
# `manage.py serve` listens here. Loopback by default: nothing off this machine reaches the
# web pages or /mcp. To serve a network, set it to 0.0.0.0 (or an address), name the host
# in ALLOWED_HOSTS and put a TLS proxy in front.
WEB_HOST = env_str("WEB_HOST", "127.0.0.1")
# MCP over Streamable HTTP (/mcp). Browser pages may call it only from this site's own origin
# and from these (e.g. https://inspector.example.com), comma-separated.
MCP_ALLOWED_ORIGINS = env_list("MCP_ALLOWED_ORIGINS")
# Tool calls allowed per API token in any 60 seconds; past that, 429 with RATE_LIMITED.
MCP_RATE_LIMIT = env_int("MCP_RATE_LIMIT", 60, minimum=1)
# Heavy tool calls (reading, extracting, filtering, assessing, re-weighing) one user may have
# running at once; one more is refused with BUSY, so one user cannot take the server's CPU.
MCP_USER_CONCURRENCY = env_int("MCP_USER_CONCURRENCY", 2, minimum=1)
# Processes of the web server's own for CPU-heavy text work (research.offload), started on
# first use, so a long reading never slows another user's pages; 0 runs it in threads.
HEAVY_PROCESSES = env_int("HEAVY_PROCESSES", max(1, min(2, (os.cpu_count() or 1) - 1)), minimum=0)
# What one user may store: decisions saved with other weights and corrections, per run; and
# their own documents (My documents), by count and by bytes in all.
SAVED_DECISIONS_PER_RUN = env_int("SAVED_DECISIONS_PER_RUN", 50, minimum=1)
CORRECTIONS_PER_RUN = env_int("CORRECTIONS_PER_RUN", 200, minimum=1)
UPLOADS_PER_USER = env_int("UPLOADS_PER_USER", 200, minimum=1)
UPLOAD_BYTES_PER_USER = env_int("UPLOAD_BYTES_PER_USER", 200_000_000, minimum=1024)

# Signing in from an MCP client (research/oauth): Verdict is the OAuth authorization server
# for its own /mcp, with django-oauth-toolkit. Authorization code with PKCE (S256) only,
# refresh tokens that rotate (a reused one ends the whole sign-in), tokens stored hashed.
OAUTH_ACCESS_TOKEN_SECONDS = env_int("OAUTH_ACCESS_TOKEN_SECONDS", 3600, minimum=60)
# How long a client stays signed in without being used; each refresh starts it again.
OAUTH_REFRESH_TOKEN_SECONDS = env_int("OAUTH_REFRESH_TOKEN_SECONDS", 30 * 24 * 3600, minimum=60)
# Redirect URI schemes clients may register besides https and http (http only to this
# machine's loopback is what clients use): desktop apps such as Cursor and VS Code come back
# through their own scheme.
OAUTH_REDIRECT_SCHEMES = env_list(
    "OAUTH_REDIRECT_SCHEMES", "cursor,vscode,vscode-insiders,windsurf,zed"
)
# Clients that name themselves by an https URL (a client ID metadata document, which the
# MCP specification prefers) are looked up there, through the guarded HTTP client.
OAUTH_CLIENT_METADATA_DOCUMENTS = env_bool("OAUTH_CLIENT_METADATA_DOCUMENTS", True)
OAUTH2_PROVIDER = {
    "SCOPES": {"mcp": "Use Verdict over MCP as you"},
    "DEFAULT_SCOPES": ["mcp"],
    "PKCE_REQUIRED": True,
    "ACCESS_TOKEN_EXPIRE_SECONDS": OAUTH_ACCESS_TOKEN_SECONDS,
    "REFRESH_TOKEN_EXPIRE_SECONDS": OAUTH_REFRESH_TOKEN_SECONDS,
    "AUTHORIZATION_CODE_EXPIRE_SECONDS": 120,
    "ROTATE_REFRESH_TOKEN": True,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    "REQUEST_APPROVAL_PROMPT": "force",  # every sign-in asks the person
    "ALLOWED_REDIRECT_URI_SCHEMES": ["https", "http", *OAUTH_REDIRECT_SCHEMES],
    "ALLOW_LOCALHOST_LOOPBACK": True,  # RFC 8252: a native client's loopback port may vary
    "OAUTH2_RESPONSE_TYPES_SUPPORTED": ["code"],
    "OAUTH2_GRANT_TYPES_SUPPORTED": ["authorization_code", "refresh_token"],
    "OAUTH2_TOKEN_ENDPOINT_AUTH_METHODS_SUPPORTED": [
        "none",
        "client_secret_basic",
        "client_secret_post",
    ],
    # RFC 9700: no implicit or password grant, S256 only, no tokens in URLs, `iss` in the
    # authorization response (RFC 9207), and only a hash of each token kept.
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,
    "COMPLIANT_BCP_RFC9700_TOKEN_STORAGE": True,
    # MCP clients register themselves, anonymously (RFC 7591); a person still approves each.
    "DCR_ENABLED": True,
    "DCR_REGISTRATION_PERMISSION_CLASSES": ("oauth2_provider.dcr.AllowAllDCRPermission",),
    "CIMD_ENABLED": OAUTH_CLIENT_METADATA_DOCUMENTS,
    "CIMD_METADATA_FETCHER": "research.oauth.clients.GuardedMetadataFetcher",
}
# "http" stays among the redirect schemes for native clients' loopback callbacks (RFC 8252);
# the consent view refuses http to anywhere else (research/oauth/views.py), which the
# library's deploy check cannot see.
SILENCED_SYSTEM_CHECKS = ["oauth2_provider.W008"]

RUNS_DIR = (BASE_DIR / env_str("RUNS_DIR", "runs")).resolve()
# Where runs are kept: unset or file: for a folder per run in RUNS_DIR; s3://bucket/prefix for
# objects in any S3-compatible service (S3_ENDPOINT_URL, credentials from AWS_ACCESS_KEY_ID,
# AWS_SECRET_ACCESS_KEY, AWS_DEFAULT_REGION), each run's lock a lease in the broker's Redis.
RUNS_STORE = env_str("RUNS_STORE", "").strip()
parse_runs_store(RUNS_STORE)  # a mistyped value stops the start with what is accepted
S3_ENDPOINT_URL = env_str("S3_ENDPOINT_URL", "")
# The sources people may choose on the web and over MCP, by name: name=local:DIR,
# name=searxng:URL or name=ddgs, comma-separated. They never see or type the spec.
# A relative local:DIR is a folder of the project, wherever the process was started from.
SOURCES = {name: local_in_project(spec, BASE_DIR) for name, spec in env_pairs("SOURCES").items()}
# Used when a question names no source: names from SOURCES, or (as before) raw specs.
DEFAULT_SOURCES = [local_in_project(s, BASE_DIR) for s in env_list("DEFAULT_SOURCES", "ddgs")]

# The model (DESIGN section 4): optional. Any OpenAI-compatible chat-completions endpoint,
# named up to its /v1 (OpenAI, DeepSeek, Ollama, vLLM, llama.cpp server). The operator
# configures it, so a localhost or intranet address is allowed. Without LLM_BASE_URL every
# stage runs its deterministic method and nothing below applies.
LLM_BASE_URL = env_url("LLM_BASE_URL", "http://127.0.0.1:11434/v1")
LLM_API_KEY = env_str("LLM_API_KEY")
LLM_MODEL = env_str("LLM_MODEL").strip()
if LLM_BASE_URL and not LLM_MODEL:
    raise ImproperlyConfigured(
        "LLM_BASE_URL is set but LLM_MODEL is not: name the model to ask, e.g. LLM_MODEL=qwen3:8b"
    )
# A model per task, where it differs from LLM_MODEL: LLM_STAGE_MODELS=filter=qwen3:8b,... or
# LLM_MODEL_PLAN, LLM_MODEL_FILTER, LLM_MODEL_DEEPREAD, LLM_MODEL_CROSSCHECK, LLM_MODEL_DECIDE.
LLM_STAGE_MODELS = env_per_stage(
    "LLM_STAGE_MODELS",
    "LLM_MODEL_",
    {
        "plan": "plan",
        "filter": "filter",
        "deepread": "deepread",
        "deep-read": "deepread",
        "deep_read": "deepread",
        "crosscheck": "crosscheck",
        "cross-validate": "crosscheck",
        "cross_validate": "crosscheck",
        "decide": "decide",
    },
)
# Prompt plus answer tokens one run may spend; a call that would go past it is not made and
# the run finishes with the deterministic methods, saying so.
LLM_MAX_TOKENS_PER_RUN = env_int("LLM_MAX_TOKENS_PER_RUN", 30_000, minimum=1)
LLM_CONCURRENCY = env_int("LLM_CONCURRENCY", 4, minimum=1)  # calls in flight per stage
LLM_TIMEOUT = env_float("LLM_TIMEOUT", 60.0, minimum=1.0)  # total seconds for one request
# Seconds a stage may spend waiting on the model, every request, retry and Retry-After wait
# included: a stage's model budget in time, like LLM_MAX_TOKENS_PER_RUN in tokens. Past it
# the stage asks nothing more and the deterministic reader does the rest; a stage that got
# no usable answer in that time stops the rest of the run asking.
LLM_STAGE_SECONDS = env_float("LLM_STAGE_SECONDS", 60.0, minimum=1.0)
# Bytes of one model answer read at most, counted as it streams: a larger answer is refused
# (BLOCKED) without being read whole, and counts its answer cap against the token budget.
LLM_MAX_ANSWER_BYTES = env_int("LLM_MAX_ANSWER_BYTES", 1_000_000, minimum=4096)
# How the answer's JSON Schema is sent: json_schema (structured outputs), json_object (JSON
# mode, the schema in the prompt), or auto: json_schema until the endpoint refuses it.
LLM_RESPONSE_FORMAT = env_choice(
    "LLM_RESPONSE_FORMAT", ("auto", "json_schema", "json_object"), "auto"
)

# Pipeline limits (DESIGN section 1), the same with a model or without. Reading a page costs
# the deterministic reader milliseconds and no tokens, so the budget is set by fetch time: 30
# pages, all in flight at once (FETCH_CONCURRENCY), long enough to reach a documentation
# page's tables and caveats. A model only adds to what the reader finds: each model step
# works on a bounded selection of the reader's material (research/stages/filter.py,
# modelpoints.py, llm_crosscheck/; decisions/model_leans.py), so a run's tokens do not
# grow with these limits, and a configured model never makes a run read less.
MAX_CANDIDATES = env_int("MAX_CANDIDATES", 50, minimum=1)
MAX_KEPT = env_int("MAX_KEPT", 30, minimum=1)
MIN_KEPT = env_int("MIN_KEPT", 3, minimum=0)
MAX_PAGES = env_int("MAX_PAGES", 30, minimum=1)
MAX_PAGE_CHARS = env_int("MAX_PAGE_CHARS", 30_000, minimum=500)
# A run that reads more pages than DEEPREAD_SPLIT_PAGES has its deep-read spread over the
# workers: parts of DEEPREAD_PART_PAGES pages, each fetched and read by whichever worker is
# free, then merged (research.runs.chord). Reading a 30,000-character page costs about a
# quarter of a CPU second, so a run at the default MAX_PAGES stays one task; past 40 pages
# the parts' reading outweighs the cost of handing them out.
DEEPREAD_SPLIT_PAGES = env_int("DEEPREAD_SPLIT_PAGES", 40, minimum=1)
# Pages are turned into text in this many processes of their own while the run's process
# reads the texts already made (research.providers.extract_pool): the cores it leaves idle,
# up to 4. 0 extracts in the run's process.
EXTRACT_PROCESSES = env_int(
    "EXTRACT_PROCESSES", max(0, min(4, (os.cpu_count() or 1) - 1)), minimum=0
)
DEEPREAD_PART_PAGES = env_int("DEEPREAD_PART_PAGES", 20, minimum=1)
CONFIDENCE_THRESHOLD = env_int("CONFIDENCE_THRESHOLD", 65, minimum=0)

# Network behaviour (DESIGN sections 3 and 4).
FETCH_TIMEOUT = env_float("FETCH_TIMEOUT", 15.0, minimum=0.1)
FETCH_MAX_BYTES = env_int("FETCH_MAX_BYTES", 5_000_000, minimum=1024)
FETCH_USER_AGENT = env_str(
    "FETCH_USER_AGENT", "VerdictBot/0.1 (+https://github.com/verdict-research/verdict)"
)
FETCH_ALLOWED_NETWORKS = env_networks("FETCH_ALLOWED_NETWORKS")
# Pages read at once (every page of a run at the default MAX_PAGES), at most
# FETCH_PER_HOST of them from one host, as a browser keeps to a few connections a site.
FETCH_CONCURRENCY = env_int("FETCH_CONCURRENCY", 32, minimum=1)
FETCH_PER_HOST = env_int("FETCH_PER_HOST", 6, minimum=1)
# Total seconds for one fetch or one search: DNS, connect, every read, redirect and retry.
# FETCH_TIMEOUT and SEARCH_TIMEOUT bound one wait; a server that drip-feeds its answer a
# byte at a time never trips them, the deadline ends it. At the defaults a run whose
# providers all hang ends in about a minute at worst: a wave of searches, another for the
# replan (a provider that times out three times in a row is not asked again in that stage),
# and the pages, all at once unless one host serves more than FETCH_PER_HOST of them.
FETCH_DEADLINE = env_float("FETCH_DEADLINE", 15.0, minimum=0.1)
SEARCH_DEADLINE = env_float("SEARCH_DEADLINE", 15.0, minimum=0.1)
SEARCH_TIMEOUT = env_float("SEARCH_TIMEOUT", 15.0, minimum=0.1)
# Bytes of one search answer read at most (SearXNG's JSON, a remote MCP tool's result),
# counted as it streams: a larger answer is refused (BLOCKED) without being read whole.
SEARCH_MAX_BYTES = env_int("SEARCH_MAX_BYTES", 2_000_000, minimum=1024)
# Searches in flight at once per provider. 0 (the default): every sub-query of the plan at
# once, so retrieve takes one search's time; set a number where a SearXNG instance or a
# search API rate-limits bursts (DuckDuckGo keeps its own lower bound).
SEARCH_CONCURRENCY = env_int("SEARCH_CONCURRENCY", 0, minimum=0)
RETRY_TRIES = env_int("RETRY_TRIES", 3, minimum=1)
RETRY_BASE_DELAY = env_float("RETRY_BASE_DELAY", 0.5, minimum=0.0)
# Local corpus files larger than this are skipped (and the reason logged), never read whole.
LOCAL_MAX_BYTES = env_int("LOCAL_MAX_BYTES", 5_000_000, minimum=1024)
# The local corpus indexes live here, one per folder; nothing is written into a corpus.
LOCAL_INDEX_DIR = (BASE_DIR / env_str("LOCAL_INDEX_DIR", str(VAR_DIR / "index"))).resolve()
# Remote MCP servers whose allowlisted tools can be sources (mcp:NAMESPACE.TOOL): a JSON
# file, described in research/providers/mcp_sources.py and the README. No file, no servers.
# Read here once so that a malformed file stops start-up with the file and the problem.
MCP_SOURCES_FILE = (
    BASE_DIR / env_str("MCP_SOURCES_FILE", str(VAR_DIR / "mcp_sources.json"))
).resolve()
load_mcp_sources(MCP_SOURCES_FILE)

# Primary sources (research/providers/primary): package indexes, GitHub, Wikipedia and
# Wikidata, arXiv, Europe PMC, ClinicalTrials.gov. PRIMARY_URLS replaces a service's
# address (service=URL, comma-separated; the services are listed in .env.example).
PRIMARY_URLS = primary_urls(env_pairs("PRIMARY_URLS"))
# Sent to GitHub as a bearer token when set: 5,000 requests an hour instead of 60. Any
# token works, with no scopes; it is never written to disk.
GITHUB_TOKEN = env_str("GITHUB_TOKEN").strip()
PRIMARY_TIMEOUT = env_float("PRIMARY_TIMEOUT", 10.0, minimum=0.1)  # each connect and read
# Total seconds for one lookup: every request it makes (GitHub: up to four), every retry
# and every wait a service asks for.
PRIMARY_DEADLINE = env_float("PRIMARY_DEADLINE", 20.0, minimum=0.1)
# Bytes of one answer read at most (some npm documents run to tens of megabytes).
PRIMARY_MAX_BYTES = env_int("PRIMARY_MAX_BYTES", 20_000_000, minimum=4096)
# Answers are kept on disk this many seconds (0: not kept), so a question asked again
# the same day asks each service nothing new.
PRIMARY_CACHE_TTL = env_int("PRIMARY_CACHE_TTL", 6 * 3600, minimum=0)
PRIMARY_CACHE_DIR = (
    BASE_DIR / env_str("PRIMARY_CACHE_DIR", str(VAR_DIR / "primary-cache"))
).resolve()

# Celery and Redis. With REDIS_URL unset, `make run` starts an embedded redis-server.
REDIS_URL = env_str("REDIS_URL", "redis://127.0.0.1:6390/0")
CELERY_BROKER_URL = REDIS_URL
# Results are kept only where a chord needs them: it counts a split deep-read's parts by
# their results (research.runs.chord); every other task's result is ignored.
CELERY_RESULT_BACKEND = REDIS_URL
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
# What a worker loads at start: the stage tasks, and its own signals (resuming orphaned runs,
# the recovery loop).
CELERY_IMPORTS = ("research.runs.tasks", "research.runs.worker", "research.schedule")
# Celery beat (run inside the worker by `manage.py serve`): every hour, ask again the
# questions their owners scheduled (weekly or monthly) that are due.
REASK_EVERY = env_int("REASK_EVERY", 3600, minimum=60)
CELERY_BEAT_SCHEDULE = {
    "reask-due-questions": {"task": "research.schedule.reask_due", "schedule": REASK_EVERY},
}
# Longer than the longest stage, so Redis does not redeliver a task that is still running.
STAGE_TIME_LIMIT = env_int("STAGE_TIME_LIMIT", 1800, minimum=10)
# Seconds past STAGE_TIME_LIMIT before a stage that did not stop at its soft limit is killed.
STAGE_TIME_GRACE = env_int("STAGE_TIME_GRACE", 60, minimum=1)
# Seconds a stage may go without progress (a running stage's heartbeat, written every
# STAGE_LEASE / 3 s, or the moment it was queued) before a worker's recovery loop re-queues it.
STAGE_LEASE = env_float("STAGE_LEASE", 30.0, minimum=1.0)
# First come, first served: a run's next stage goes ahead of the stages of runs that have
# not got as far (research.runs.tasks.STAGE_PRIORITY), so queued runs finish one after another
# instead of advancing in lockstep. kombu's Redis transport keeps one list per priority step
# and takes from the lowest step first; a step for every priority keeps stages apart. The
# default steps (0, 3, 6, 9) are among these, so messages queued before stay readable.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": STAGE_TIME_LIMIT * 2,
    "priority_steps": list(range(10)),
    "queue_order_strategy": "priority",
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    # One line per HTTP request (or per bucket client made) drowns the pipeline's own messages.
    "loggers": {name: {"level": "WARNING"} for name in ("httpx", "httpcore", "botocore", "boto3")},
}
