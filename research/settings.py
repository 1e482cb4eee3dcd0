"""Django settings for Verdict. Every deployment value comes from the environment."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

import dj_database_url

from research.env import (
    env_bool,
    env_float,
    env_int,
    env_list,
    env_networks,
    env_pairs,
    env_str,
    load_env_file,
)

BASE_DIR = Path(__file__).resolve().parent.parent
load_env_file(BASE_DIR / ".env")
VAR_DIR = BASE_DIR / "var"  # local state that is not source: test database, Redis data
VAR_DIR.mkdir(exist_ok=True)

DEBUG = env_bool("DEBUG", False)
# Without SECRET_KEY a throwaway key is used: sessions do not survive a restart, which is
# the safe failure for a local install that never configured one.
SECRET_KEY = env_str("SECRET_KEY") or secrets.token_urlsafe(50)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "research",
    "decisions",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
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
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"), conn_max_age=0
    )
}
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
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "static"
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/accounts/login/"

# --- Verdict -----------------------------------------------------------------------------

RUNS_DIR = (BASE_DIR / env_str("RUNS_DIR", "runs")).resolve()
# The sources people may choose on the web and over MCP, by name: name=local:DIR,
# name=searxng:URL or name=ddgs, comma-separated. They never see or type the spec.
SOURCES = env_pairs("SOURCES")
# Used when a question names no source: names from SOURCES, or (as before) raw specs.
DEFAULT_SOURCES = env_list("DEFAULT_SOURCES")

# Pipeline limits (DESIGN section 1). DESIGN's seed limits (25 candidates, 12 kept, 8 read,
# 12,000 characters) cap what an LLM is sent. The deterministic reader costs milliseconds a
# page, so its budget is set by fetch time instead: 30 pages in 4 parallel waves of
# FETCH_CONCURRENCY, long enough to reach a documentation page's tables and caveats.
MAX_CANDIDATES = env_int("MAX_CANDIDATES", 50, minimum=1)
MAX_KEPT = env_int("MAX_KEPT", 30, minimum=1)
MIN_KEPT = env_int("MIN_KEPT", 3, minimum=0)
MAX_PAGES = env_int("MAX_PAGES", 30, minimum=1)
MAX_PAGE_CHARS = env_int("MAX_PAGE_CHARS", 30_000, minimum=500)
CONFIDENCE_THRESHOLD = env_int("CONFIDENCE_THRESHOLD", 65, minimum=0)

# Network behaviour (DESIGN sections 3 and 4).
FETCH_TIMEOUT = env_float("FETCH_TIMEOUT", 15.0, minimum=0.1)
FETCH_MAX_BYTES = env_int("FETCH_MAX_BYTES", 5_000_000, minimum=1024)
FETCH_USER_AGENT = env_str(
    "FETCH_USER_AGENT", "VerdictBot/0.1 (+https://github.com/verdict-research/verdict)"
)
FETCH_ALLOWED_NETWORKS = env_networks("FETCH_ALLOWED_NETWORKS")
FETCH_CONCURRENCY = env_int("FETCH_CONCURRENCY", 8, minimum=1)
SEARCH_TIMEOUT = env_float("SEARCH_TIMEOUT", 15.0, minimum=0.1)
# Searches in flight at once per provider: enough to hide latency, few enough that a
# SearXNG instance or a search API does not rate-limit the run.
SEARCH_CONCURRENCY = env_int("SEARCH_CONCURRENCY", 12, minimum=1)
RETRY_TRIES = env_int("RETRY_TRIES", 3, minimum=1)
RETRY_BASE_DELAY = env_float("RETRY_BASE_DELAY", 0.5, minimum=0.0)

# Celery and Redis. With REDIS_URL unset, `make run` starts an embedded redis-server.
REDIS_URL = env_str("REDIS_URL", "redis://127.0.0.1:6390/0")
CELERY_BROKER_URL = REDIS_URL
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
# Longer than the longest stage, so Redis does not redeliver a task that is still running.
STAGE_TIME_LIMIT = env_int("STAGE_TIME_LIMIT", 1800, minimum=10)
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": STAGE_TIME_LIMIT * 2}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    # One line per HTTP request drowns the pipeline's own messages.
    "loggers": {"httpx": {"level": "WARNING"}, "httpcore": {"level": "WARNING"}},
}
