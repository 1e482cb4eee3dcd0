from __future__ import annotations

import gzip
import ipaddress
import random
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from research.outcomes import Outcome
from research.providers.extract import extract_page
from research.providers.fetch import HttpFetcher
from tests.research.providers.samples import minimal_pdf
from tests.testweb import TestWeb

LOOPBACK = [ipaddress.ip_network("127.0.0.1/32")]
PAGE = "<html><head><title>Hello</title></head><body><p>Hello, world.</p></body></html>"


def make_fetcher(**overrides: object) -> HttpFetcher:
    options: dict = {
        "timeout": 2.0,
        "max_bytes": 100_000,
        "user_agent": "VerdictTest/1.0",
        "allowed_networks": LOOPBACK,
        "tries": 3,
        "base_delay": 0,
    }
    options.update(overrides)
    return HttpFetcher(**options)


@pytest.fixture(scope="module")
def site() -> Iterator[TestWeb]:
    web = TestWeb()
    # Refusing a body means hanging up mid-response on purpose; the server's traceback
    # for each such reset is noise.
    web.server.handle_error = lambda request, client_address: None  # type: ignore[method-assign]
    web.server.socket.listen(64)  # eight threads connecting at once outgrow the default 5
    web.start()
    yield web
    web.stop()


@pytest.fixture
def testweb(site: TestWeb) -> TestWeb:
    """One server for the whole module, emptied before each test: stopping a server
    waits out its half-second poll, which adds up over forty tests."""
    site.routes.clear()
    site.requests.clear()
    return site


@pytest.fixture
def otherweb() -> Iterator[TestWeb]:
    """A second site on 127.0.0.2, outside the allowed 127.0.0.1/32."""
    web = TestWeb(host="127.0.0.2").start()
    yield web
    web.stop()


def test_it_fetches_a_page_on_an_allowed_network(testweb: TestWeb) -> None:
    url = testweb.add("/page", PAGE)
    result = make_fetcher().fetch(url)
    assert result.outcome is Outcome.OK
    assert result.body == PAGE.encode()
    assert result.status_code == 200
    assert result.content_type == "text/html; charset=utf-8"
    assert result.url == result.final_url == url


def test_it_obeys_robots_rules_written_for_its_own_agent(testweb: TestWeb) -> None:
    robots = "User-agent: OtherBot\nDisallow:\n\nUser-agent: VerdictTest\nDisallow: /\n"
    testweb.add("/robots.txt", robots, content_type="text/plain")
    url = testweb.add("/page", PAGE)
    result = make_fetcher().fetch(url)
    assert result.outcome is Outcome.BLOCKED
    assert testweb.requests == ["/robots.txt"]


def test_it_refuses_loopback_with_the_default_empty_allow_list(testweb: TestWeb) -> None:
    url = testweb.add("/page", PAGE)
    result = make_fetcher(allowed_networks=[]).fetch(url)
    assert result.outcome is Outcome.BLOCKED
    assert "loopback" in result.detail
    assert testweb.requests == []


@pytest.mark.parametrize(
    "host",
    [
        "127.0.0.1",
        "169.254.169.254",
        "10.0.0.1",
        "2130706433",
        "0x7f000001",
        "[::ffff:127.0.0.1]",
        "[::1]",
    ],
)
def test_it_refuses_private_addresses_without_connecting(testweb: TestWeb, host: str) -> None:
    testweb.add("/page", PAGE)
    result = make_fetcher(allowed_networks=[]).fetch(f"http://{host}:{testweb.port}/page")
    assert result.outcome is Outcome.BLOCKED
    assert testweb.requests == []


def test_it_refuses_a_redirect_to_a_private_address_before_connecting(
    testweb: TestWeb, otherweb: TestWeb
) -> None:
    target = otherweb.add("/secret", "internal")
    url = testweb.add("/go", status=302, headers={"Location": target})
    result = make_fetcher().fetch(url)
    assert result.outcome is Outcome.BLOCKED
    assert result.final_url == target
    assert "127.0.0.2" in result.detail
    assert otherweb.requests == []


def test_it_reads_the_allow_list_from_settings(testweb: TestWeb, allow_loopback: None) -> None:
    url = testweb.add("/page", PAGE)
    assert HttpFetcher.from_settings().fetch(url).outcome is Outcome.OK


def test_it_refuses_loopback_when_settings_allow_nothing(testweb: TestWeb, settings) -> None:
    settings.FETCH_ALLOWED_NETWORKS = []
    url = testweb.add("/page", PAGE)
    assert HttpFetcher.from_settings().fetch(url).outcome is Outcome.BLOCKED
    assert testweb.requests == []


def test_it_follows_a_redirect_chain_to_the_final_url(testweb: TestWeb) -> None:
    final = testweb.add("/c", PAGE)
    testweb.add("/b", status=301, headers={"Location": "/c"})  # relative, as sites do
    url = testweb.add("/a", status=302, headers={"Location": testweb.url("/b")})
    result = make_fetcher().fetch(url)
    assert result.outcome is Outcome.OK
    assert result.url == url
    assert result.final_url == final
    assert result.body == PAGE.encode()


def test_it_gives_up_after_five_redirects(testweb: TestWeb) -> None:
    url = testweb.add("/loop", status=302, headers={"Location": "/loop"})
    result = make_fetcher().fetch(url)
    assert result.outcome is Outcome.BLOCKED
    assert result.detail == "more than 5 redirects"
    assert testweb.requests.count("/loop") == 6


def test_it_times_out_on_a_slow_page(testweb: TestWeb) -> None:
    url = testweb.add("/slow", PAGE, delay=2.0)
    result = make_fetcher(timeout=0.3).fetch(url)
    assert result.outcome is Outcome.TIMEOUT
    assert testweb.requests.count("/slow") == 3


def test_it_reports_a_dropped_connection_as_unavailable_after_three_tries(
    testweb: TestWeb,
) -> None:
    url = testweb.add("/broken", PAGE, drop_connection=True)
    result = make_fetcher().fetch(url)
    assert result.outcome is Outcome.UNAVAILABLE
    assert result.detail.endswith("(after 3 tries)")
    assert testweb.requests.count("/broken") == 3


@pytest.mark.parametrize(
    ("status", "outcome", "requests"),
    [
        (500, Outcome.UNAVAILABLE, 3),
        (503, Outcome.UNAVAILABLE, 3),
        (429, Outcome.RATE_LIMITED, 3),
        (404, Outcome.NO_HIT, 1),
        (410, Outcome.NO_HIT, 1),
        (401, Outcome.UNAUTHORIZED, 1),
        (403, Outcome.UNAUTHORIZED, 1),
    ],
)
def test_it_maps_status_codes_and_retries_only_what_may_recover(
    testweb: TestWeb, status: int, outcome: Outcome, requests: int
) -> None:
    url = testweb.add("/page", "nope", status=status)
    result = make_fetcher().fetch(url)
    assert result.outcome is outcome
    assert result.status_code == status
    assert testweb.requests.count("/page") == requests


def test_it_refuses_a_body_whose_declared_length_is_over_the_cap(testweb: TestWeb) -> None:
    url = testweb.add("/big", "x" * 5000, content_type="text/plain")
    result = make_fetcher(max_bytes=1024).fetch(url)
    assert result.outcome is Outcome.BLOCKED
    assert result.detail == "larger than 1024 bytes"
    assert result.body == b""


def test_it_stops_reading_a_body_that_grows_past_the_cap(testweb: TestWeb) -> None:
    # Compressed, the body is small enough to pass the Content-Length check: only the
    # streamed, decoded size shows it is too large.
    packed = gzip.compress(b"a" * 200_000)
    url = testweb.add(
        "/bomb", packed, content_type="text/plain", headers={"Content-Encoding": "gzip"}
    )
    result = make_fetcher(max_bytes=10_000).fetch(url)
    assert len(packed) < 10_000
    assert result.outcome is Outcome.BLOCKED
    assert result.detail == "larger than 10000 bytes"


@pytest.mark.parametrize("content_type", ["image/png", "application/octet-stream"])
def test_it_refuses_content_types_it_cannot_read(testweb: TestWeb, content_type: str) -> None:
    url = testweb.add("/file", b"\x89PNG\r\n", content_type=content_type)
    result = make_fetcher().fetch(url)
    assert result.outcome is Outcome.BLOCKED
    assert result.detail == f"content type {content_type} refused"
    assert testweb.requests.count("/file") == 1


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("text/plain", b"content"),
        ("text/markdown; charset=utf-8", b"# content"),
        ("application/pdf", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"),
        ("application/xhtml+xml", b"<html><p>content</p></html>"),
    ],
)
def test_it_accepts_text_markdown_pdf_and_xhtml(
    testweb: TestWeb, content_type: str, body: bytes
) -> None:
    url = testweb.add("/doc", body, content_type=content_type)
    assert make_fetcher().fetch(url).outcome is Outcome.OK


def test_it_recognises_html_sent_without_a_content_type(testweb: TestWeb) -> None:
    url = testweb.add("/bare", "<!DOCTYPE html><html><p>hi</p></html>", content_type="")
    result = make_fetcher().fetch(url)
    assert result.outcome is Outcome.OK
    assert result.content_type == "text/html; charset=utf-8"


def test_it_obeys_robots_txt_and_never_requests_the_disallowed_page(testweb: TestWeb) -> None:
    testweb.add("/robots.txt", "User-agent: *\nDisallow: /private/\n", content_type="text/plain")
    url = testweb.add("/private/page", PAGE)
    result = make_fetcher().fetch(url)
    assert result.outcome is Outcome.BLOCKED
    assert result.detail == "robots.txt disallows this URL"
    assert "/private/page" not in testweb.requests


def test_it_reads_robots_txt_once_per_site(testweb: TestWeb) -> None:
    testweb.add("/robots.txt", "User-agent: *\nDisallow: /private/\n", content_type="text/plain")
    fetcher = make_fetcher()
    for path in ("/one", "/two", "/three"):
        assert fetcher.fetch(testweb.add(path, PAGE)).outcome is Outcome.OK
    assert testweb.requests.count("/robots.txt") == 1


def test_it_treats_a_missing_robots_txt_as_allowing_everything(testweb: TestWeb) -> None:
    url = testweb.add("/page", PAGE)
    assert make_fetcher().fetch(url).outcome is Outcome.OK
    assert testweb.requests == ["/robots.txt", "/page"]


def test_it_does_not_fetch_a_page_while_robots_txt_is_unreachable(testweb: TestWeb) -> None:
    testweb.add("/robots.txt", "down", status=503, content_type="text/plain")
    url = testweb.add("/page", PAGE)
    result = make_fetcher().fetch(url)
    assert result.outcome is Outcome.UNAVAILABLE
    assert result.detail.startswith("robots.txt: HTTP 503")
    assert "/page" not in testweb.requests


def test_it_skips_robots_txt_when_told_to(testweb: TestWeb) -> None:
    testweb.add("/robots.txt", "User-agent: *\nDisallow: /\n", content_type="text/plain")
    url = testweb.add("/page", PAGE)
    assert make_fetcher(respect_robots=False).fetch(url).outcome is Outcome.OK
    assert testweb.requests == ["/page"]


def test_it_can_be_shared_by_eight_threads(testweb: TestWeb) -> None:
    urls = [testweb.add(f"/page{i}", f"<html><p>page {i}</p></html>") for i in range(24)]
    fetcher = make_fetcher()
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(fetcher.fetch, urls))
    assert [result.outcome for result in results] == [Outcome.OK] * 24
    assert [result.body for result in results] == [
        f"<html><p>page {i}</p></html>".encode() for i in range(24)
    ]


def test_it_refuses_urls_it_cannot_parse_without_raising() -> None:
    result = make_fetcher().fetch("not a url")
    assert result.outcome is Outcome.BLOCKED


# --- content checked, not trusted ---------------------------------------------------------


def test_a_pdf_served_as_html_is_read_as_a_pdf(testweb: TestWeb) -> None:
    pdf = minimal_pdf("Quillnote is licensed under the MIT licence")
    url = testweb.add("/licence", pdf, content_type="text/html; charset=utf-8")

    result = make_fetcher().fetch(url)
    page = extract_page(result.body, result.content_type, url, 10_000)

    assert result.outcome is Outcome.OK
    assert result.content_type == "application/pdf"
    assert result.detail == "served as text/html, read as the PDF it is"
    assert page.text == "Quillnote is licensed under the MIT licence"


def test_random_bytes_served_as_html_are_refused(testweb: TestWeb) -> None:
    url = testweb.add("/junk", random.Random(3).randbytes(20_000), content_type="text/html")

    result = make_fetcher().fetch(url)

    assert result.outcome is Outcome.BLOCKED
    assert result.detail.startswith("binary data served as text/html")
    assert result.body == b""


def test_an_image_served_as_html_is_refused_by_what_it_is(testweb: TestWeb) -> None:
    url = testweb.add("/logo", b"\x89PNG\r\n\x1a\n" + bytes(500), content_type="text/html")

    result = make_fetcher().fetch(url)

    assert (result.outcome, result.detail) == (
        Outcome.BLOCKED,
        "the body is a PNG image, served as text/html",
    )
