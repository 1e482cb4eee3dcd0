from __future__ import annotations

import ipaddress

import pytest

from research.outcomes import Outcome
from research.providers.netguard import (
    address_refusal,
    blocked_reason,
    check_url,
    parse_ip_literal,
)

LOOPBACK_ONLY = [ipaddress.ip_network("127.0.0.1/32")]


def resolves_to(*addresses: str):
    """A resolver that answers from a fixed table: no DNS in tests."""
    return lambda host: list(addresses)


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/",
        "http://169.254.169.254/latest/meta-data/",
        "http://10.0.0.1/",
        "http://192.168.1.1/",
        "http://172.16.0.1/",
        "http://100.64.0.1/",
        "http://0.0.0.0/",
        "http://224.0.0.1/",
        "http://240.0.0.1/",
        "http://2130706433/",
        "http://0x7f000001/",
        "http://127.1/",
        "http://0/",
        "http://[::1]/",
        "http://[::]/",
        "http://[::ffff:127.0.0.1]/",
        "http://[::ffff:a9fe:a9fe]/",
        "http://[2002:7f00:1::]/",
        "http://[64:ff9b::a00:1]/",
        "http://[fe80::1]/",
        "http://[fc00::1]/",
        "http://localhost/",
    ],
)
def test_it_refuses_non_public_addresses_in_every_spelling(url: str) -> None:
    refusal = check_url(url, [])
    assert refusal is not None
    assert refusal.outcome is Outcome.BLOCKED


def test_it_explains_which_address_a_disguised_ip_means() -> None:
    decimal = blocked_reason("http://2130706433/", [])
    hexadecimal = blocked_reason("http://0x7f000001/", [])
    assert decimal == "2130706433 means 127.0.0.1, a loopback address"
    assert hexadecimal == "0x7f000001 means 127.0.0.1, a loopback address"
    assert "link-local" in (blocked_reason("http://169.254.169.254/", []) or "")


def test_it_names_the_ipv4_address_inside_an_ipv4_mapped_ipv6_address() -> None:
    reason = blocked_reason("http://[::ffff:127.0.0.1]/", [])
    assert reason == "::ffff:127.0.0.1 is an IPv6 form of 127.0.0.1, a loopback address"


def test_it_refuses_octal_ipv4_forms() -> None:
    assert parse_ip_literal("0177.0.0.1") == ipaddress.ip_address("127.0.0.1")
    assert check_url("http://0177.0.0.1/", []) is not None


@pytest.mark.parametrize(
    ("host", "address"),
    [
        ("2130706433", "127.0.0.1"),
        ("0x7f000001", "127.0.0.1"),
        ("0x7f.1", "127.0.0.1"),
        ("0177.0.0.01", "127.0.0.1"),
        ("127.1", "127.0.0.1"),
        ("10.1.1", "10.1.0.1"),
        ("[::1]", "::1"),
    ],
)
def test_it_reads_ip_literals_the_way_resolvers_do(host: str, address: str) -> None:
    assert parse_ip_literal(host) == ipaddress.ip_address(address)


@pytest.mark.parametrize("host", ["example.com", "1.2.3.4.5", "256.1.1.1", "08.1.1.1", "0xg"])
def test_it_leaves_names_and_impossible_numbers_to_the_resolver(host: str) -> None:
    assert parse_ip_literal(host) is None


def test_it_lets_public_addresses_through() -> None:
    assert check_url("http://93.184.215.14/", []) is None
    assert check_url("https://[2606:4700:4700::1111]/", []) is None
    assert check_url("http://[::ffff:8.8.8.8]/", []) is None


def test_it_resolves_names_and_refuses_when_any_address_is_private() -> None:
    resolver = resolves_to("93.184.215.14", "10.0.0.7")
    refusal = check_url("https://mixed.example/", [], resolver=resolver)
    assert refusal is not None
    assert refusal.reason == "mixed.example resolves to 10.0.0.7, a private address"


def test_it_accepts_a_name_whose_addresses_are_all_public() -> None:
    resolver = resolves_to("93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c")
    assert check_url("https://public.example/", [], resolver=resolver) is None


def test_it_lets_allowed_networks_through() -> None:
    assert check_url("http://127.0.0.1:8000/page", LOOPBACK_ONLY) is None
    assert check_url("http://[::ffff:127.0.0.1]/", LOOPBACK_ONLY) is None
    assert check_url("http://127.0.0.2/", LOOPBACK_ONLY) is not None


def test_it_keeps_intranet_names_working_when_their_network_is_allowed() -> None:
    intranet = [ipaddress.ip_network("10.20.0.0/16")]
    resolver = resolves_to("10.20.3.4")
    assert check_url("http://wiki.corp/", intranet, resolver=resolver) is None


@pytest.mark.parametrize(
    "url", ["ftp://93.184.215.14/", "file:///etc/passwd", "gopher://x/", "javascript:alert(1)"]
)
def test_it_refuses_schemes_other_than_http_and_https(url: str) -> None:
    refusal = check_url(url, [])
    assert refusal is not None
    assert refusal.outcome is Outcome.BLOCKED


@pytest.mark.parametrize(
    "url",
    [
        "http://93.184.215.14@127.0.0.1/",
        "http://user:pass@93.184.215.14/",
        "http://evil.example\\@127.0.0.1/",
    ],
)
def test_it_refuses_urls_with_userinfo(url: str) -> None:
    assert blocked_reason(url, []) is not None


def test_it_refuses_urls_without_a_host() -> None:
    assert blocked_reason("http:///path", []) == "URL has no host"


def test_it_reports_an_unresolvable_host_as_unavailable_not_blocked() -> None:
    def fail(host: str) -> list[str]:
        raise OSError("Name or service not known")

    refusal = check_url("https://nowhere.invalid/", [], resolver=fail)
    assert refusal is not None
    assert refusal.unresolvable
    assert refusal.outcome is Outcome.UNAVAILABLE


def test_it_checks_the_embedded_address_of_6to4_and_nat64_forms() -> None:
    assert address_refusal(ipaddress.ip_address("2002:a9fe:a9fe::1")) == (
        "an IPv6 form of 169.254.169.254, a link-local address"
    )
    assert address_refusal(ipaddress.ip_address("64:ff9b::808:808")) is None
