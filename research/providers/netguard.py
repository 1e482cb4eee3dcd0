"""The SSRF guard: decide, before any connection, whether a URL may be fetched.

A URL is refused unless it is plain http(s) without userinfo and every address its host
resolves to is public, or inside one of the explicitly allowed networks (intranets).
Private, loopback, link-local, multicast, reserved, unspecified and shared (100.64/10)
addresses are refused, and so are IPv6 forms that wrap them (IPv4-mapped, 6to4, NAT64).
research.providers.http then connects to exactly the addresses checked here.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import httpx

from research.outcomes import Outcome

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
Resolver = Callable[[str], list[str]]

ALLOWED_SCHEMES = frozenset({"http", "https"})
_SHARED = ipaddress.ip_network("100.64.0.0/10")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")


@dataclass(frozen=True)
class Refusal:
    """Why a URL is not fetched. `unresolvable` separates "could not look" from "refused"."""

    reason: str
    unresolvable: bool = False

    @property
    def outcome(self) -> Outcome:
        return Outcome.UNAVAILABLE if self.unresolvable else Outcome.BLOCKED


def resolve(host: str) -> list[str]:
    """Every address the system resolver gives for `host` (raises socket.gaierror)."""
    infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


def check_url(
    url: str, allowed_networks: Iterable[IPNetwork] = (), resolver: Resolver = resolve
) -> Refusal | None:
    """Return a Refusal when `url` must not be fetched, else None."""
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError, ValueError):
        return Refusal(f"malformed URL {url!r}")
    refusal = _check_shape(parsed)
    if refusal is not None:
        return refusal
    host = parsed.raw_host.decode("ascii")
    addresses = addresses_for(host, resolver)
    if isinstance(addresses, Refusal):
        return addresses
    return check_addresses(host, addresses, allowed_networks)


def blocked_reason(url: str, allowed_networks: Iterable[IPNetwork] = ()) -> str | None:
    """The reason `url` must not be fetched (refused or unresolvable), else None."""
    refusal = check_url(url, allowed_networks)
    return refusal.reason if refusal else None


def _check_shape(url: httpx.URL) -> Refusal | None:
    if url.scheme not in ALLOWED_SCHEMES:
        return Refusal(f"scheme {url.scheme or '(none)'!r} is not http or https")
    # "http://trusted.example@10.0.0.1/" reads like one host and connects to another.
    if url.userinfo:
        return Refusal("URLs with a user name or password are refused")
    if not url.raw_host:
        return Refusal("URL has no host")
    return None


def addresses_for(host: str, resolver: Resolver = resolve) -> list[IPAddress] | Refusal:
    """The literal address `host` spells, or all the addresses it resolves to."""
    literal = parse_ip_literal(host)
    if literal is not None:
        return [literal]
    try:
        found = [ipaddress.ip_address(address) for address in resolver(host)]
    except (OSError, UnicodeError, ValueError) as exc:
        return Refusal(f"host {host!r} does not resolve ({exc})", unresolvable=True)
    if not found:
        return Refusal(f"host {host!r} has no addresses", unresolvable=True)
    return found


def parse_ip_literal(host: str) -> IPAddress | None:
    """Parse `host` as an IP literal in every form inet_aton accepts, or return None.

    Resolvers turn "2130706433", "0x7f000001", "0177.0.0.1" and "127.1" into 127.0.0.1, so
    the guard reads them the same way instead of trusting they look like names.
    """
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        pass
    parts = host.split(".")
    if not 1 <= len(parts) <= 4:
        return None
    numbers = [_parse_ipv4_part(part) for part in parts]
    if any(number is None for number in numbers):
        return None
    return _pack_ipv4([n for n in numbers if n is not None])


def _parse_ipv4_part(part: str) -> int | None:
    lowered = part.lower()
    try:
        if lowered.startswith("0x"):
            return int(lowered[2:] or "0", 16)
        if len(lowered) > 1 and lowered.startswith("0"):
            return int(lowered[1:], 8)
        return int(lowered, 10) if lowered.isdigit() else None
    except ValueError:
        return None


def _pack_ipv4(numbers: list[int]) -> ipaddress.IPv4Address | None:
    """inet_aton semantics: leading parts are bytes, the last part fills the rest."""
    *head, last = numbers
    if any(n > 0xFF for n in head) or last >= 256 ** (4 - len(head)):
        return None
    value = last
    for index, byte in enumerate(head):
        value |= byte << (8 * (3 - index))
    return ipaddress.IPv4Address(value)


def check_addresses(
    host: str, addresses: list[IPAddress], allowed_networks: Iterable[IPNetwork] = ()
) -> Refusal | None:
    """A Refusal when any of `host`'s addresses is not public and not allowed."""
    allowed = list(allowed_networks)
    # One bad address is enough: the connection may pick any of them.
    for address in addresses:
        reason = address_refusal(address, allowed)
        if reason is not None:
            return Refusal(_describe(host, address, reason))
    return None


def _describe(host: str, address: IPAddress, reason: str) -> str:
    if parse_ip_literal(host) is None:
        return f"{host} resolves to {address}, {reason}"
    if address.version == 6 or host == str(address):
        return f"{host} is {reason}"
    return f"{host} means {address}, {reason}"  # decimal, hex, octal or short IPv4 forms


def address_refusal(address: IPAddress, allowed: Iterable[IPNetwork] = ()) -> str | None:
    """Why connecting to `address` is refused ("a loopback address"), or None when it is
    public or inside an allowed network."""
    embedded = embedded_ipv4(address)
    if _is_allowed(address, allowed) or (embedded and _is_allowed(embedded, allowed)):
        return None
    if embedded is None:
        return _category(address)
    # Traffic to these forms ends at the embedded IPv4 address, so that is what counts.
    reason = _category(embedded)
    return f"an IPv6 form of {embedded}, {reason}" if reason else None


def embedded_ipv4(address: IPAddress) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address carries (IPv4-mapped, 6to4 or NAT64), if any."""
    if isinstance(address, ipaddress.IPv4Address):
        return None
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address in _NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def _is_allowed(address: IPAddress, allowed: Iterable[IPNetwork]) -> bool:
    return any(address.version == network.version and address in network for network in allowed)


def _category(address: IPAddress) -> str | None:
    """The first reason that makes `address` non-public, in the order people recognise."""
    checks = [
        ("an unspecified address", address.is_unspecified),
        ("a loopback address", address.is_loopback),
        ("a link-local address", address.is_link_local),
        ("a multicast address", address.is_multicast),
        ("a shared (carrier-grade NAT) address", address in _SHARED),
        ("a private address", address.is_private),
        ("a reserved address", address.is_reserved),
        ("a site-local address", getattr(address, "is_site_local", False)),
        ("a non-public address", not address.is_global),
    ]
    return next((name for name, hit in checks if hit), None)
