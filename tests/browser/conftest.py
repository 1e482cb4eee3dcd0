"""Browser tests: Playwright drives Debian's chromium against the live test server.

Screenshots of every page a test visits are saved under test-output/screenshots/ so a
person can look at what the test saw.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings

SCREENSHOTS = Path(settings.BASE_DIR) / "test-output" / "screenshots"


def chromium_path() -> str | None:
    return shutil.which("chromium") or (
        "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
    )


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    path = chromium_path()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed: .ci/run installs it with apt-get")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop running in this thread while it is open,
    # and Django refuses ORM calls from a thread with a running loop unless told it is
    # safe (the fixtures that create users run here). Only for as long as the browser runs.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=path, args=["--no-sandbox"])
            yield chromium
            chromium.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


DESKTOP = {"viewport": {"width": 1280, "height": 900}}
# A phone held upright (an iPhone 12 to 15): a touch screen 390 CSS pixels wide.
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 3,
    "is_mobile": True,
    "has_touch": True,
}


def _open_page(browser, request, options: dict) -> Iterator[object]:
    context = browser.new_context(accept_downloads=True, **options)
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    name = re.sub(r"[^\w.-]+", "_", request.node.name)
    shot(page, f"{name}-last")
    context.close()


@pytest.fixture
def page(browser, request) -> Iterator[object]:
    yield from _open_page(browser, request, DESKTOP)


@pytest.fixture
def phone(browser, request) -> Iterator[object]:
    """A page in a phone's browser: 390 x 844, three device pixels to a CSS pixel, touch."""
    yield from _open_page(browser, request, PHONE)


def shot(page, name: str, full_page: bool = True) -> None:
    """Save a screenshot of the page as it is now (the whole page, or the first screen)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    # One image pixel per CSS pixel: a phone's three would make a long page's image huge.
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full_page, scale="css")


def sign_in(page, base_url: str, username: str, password: str) -> None:
    page.goto(f"{base_url}/accounts/login/")
    page.get_by_label(re.compile("username", re.I)).fill(username)
    page.get_by_label(re.compile("password", re.I)).fill(password)
    page.get_by_role("button", name=re.compile("sign in", re.I)).click()
