"""Every page says scripts come only from this site (Content-Security-Policy) and has no
inline script to need more; the sign-in throttle believes X-Forwarded-For only from the
proxies FORWARDED_ALLOW_IPS names, tested through uvicorn as `manage.py serve` runs it."""

from __future__ import annotations

import re
import uuid

import httpx
import pytest
import uvicorn
from django.core.cache import cache

from research.management.commands.serve import proxy_arguments, proxy_options
from tests.processes import wait_until

pytestmark = pytest.mark.django_db

# A script element without src runs inline, unless it only holds data (type application/json,
# as Django's json_script writes it): the browser never executes that.
INLINE_SCRIPT = re.compile(
    r"<script(?![^>]*\bsrc=)(?![^>]*\btype=\"application/json\")[^>]*>", re.IGNORECASE
)
HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.IGNORECASE)


def pages(run_id: str, source_id: str) -> list[str]:
    return [
        "/",
        "/runs/",
        f"/runs/{run_id}/",
        f"/runs/{run_id}/progress/",
        f"/runs/{run_id}/artifacts/",
        f"/runs/{run_id}/artifacts/view/round_0_plan.json",
        f"/runs/{run_id}/report/",
        f"/runs/{run_id}/evidence/{source_id}/",
        "/accounts/",
    ]


def test_every_page_forbids_scripts_from_anywhere_but_this_site_and_has_none_inline(
    ada_client, finished_run, client, admin_client
):
    from research.store import store_for

    notes = store_for(finished_run.run_id).read_json("round_3_notes.json")
    source_id = next(s["source_id"] for s in notes["sources"] if s.get("page"))
    responses = [ada_client.get(path) for path in pages(finished_run.run_id, source_id)]
    responses += [client.get("/accounts/login/"), admin_client.get("/admin/")]

    for response in responses:
        assert response.status_code == 200, response.request["PATH_INFO"]
        policy = response["Content-Security-Policy"]
        assert "script-src 'self';" in policy and "object-src 'none'" in policy
        assert "unsafe" not in policy.split("script-src")[1].split(";")[0]
        html = response.content.decode()
        assert not INLINE_SCRIPT.search(html), response.request["PATH_INFO"]
        assert not HANDLER.search(html), response.request["PATH_INFO"]


# --- forwarded headers ----------------------------------------------------------------------


class Server:
    """The ASGI app under uvicorn with serve's proxy options, in a thread on 127.0.0.1."""

    def __init__(self) -> None:
        import threading

        from research.asgi import application

        config = uvicorn.Config(
            application, host="127.0.0.1", port=0, lifespan="off", log_level="warning",
            **proxy_options(),
        )  # fmt: skip
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        wait_until(lambda: self.server.started, 20, "uvicorn to start")
        port = self.server.servers[0].sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(15)


def wrong_passwords(base: str, tries: int) -> list[str]:
    """Sign in with a wrong password `tries` times, each from a new X-Forwarded-For."""
    said = []
    # Each wrong password is checked against a fast hash (fast_passwords), and the client
    # waits as long as a busy machine needs: the throttle is tested here, not the speed.
    with httpx.Client(base_url=base, timeout=60) as browser:
        browser.get("/accounts/login/")
        for _ in range(tries):
            fake = f"203.0.113.{uuid.uuid4().int % 250 + 1}"
            response = browser.post(
                "/accounts/login/",
                data={
                    "username": "ada",
                    "password": "not it",
                    "csrfmiddlewaretoken": browser.cookies["csrftoken"],
                },
                headers={"X-Forwarded-For": fake, "Referer": f"{base}/accounts/login/"},
            )
            said.append(response.text)
    return said


@pytest.fixture
def throttle(settings, fast_passwords):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    settings.LOGIN_FAILURES_PER_USER = 3
    cache.clear()
    yield
    cache.clear()


@pytest.mark.django_db(transaction=True)
def test_rotating_x_forwarded_for_does_not_get_past_the_throttle_when_no_proxy_is_trusted(
    settings, throttle, django_user_model
):
    django_user_model.objects.create_user("ada", password="correct horse battery")
    settings.FORWARDED_ALLOW_IPS = []
    assert proxy_arguments() == ["--no-proxy-headers"]

    with Server() as base:
        said = wrong_passwords(base, 5)

    assert ["Too many sign-in attempts" in page for page in said] == [False] * 3 + [True] * 2


@pytest.mark.django_db(transaction=True)
def test_a_trusted_proxy_has_its_x_forwarded_for_believed(settings, throttle, django_user_model):
    django_user_model.objects.create_user("ada", password="correct horse battery")
    settings.FORWARDED_ALLOW_IPS = ["127.0.0.1"]
    assert proxy_arguments() == ["--proxy-headers", "--forwarded-allow-ips", "127.0.0.1"]

    with Server() as base:
        said = wrong_passwords(base, 5)

    # Each attempt came, by the proxy's word, from another address: none is throttled.
    assert not any("Too many sign-in attempts" in page for page in said)
