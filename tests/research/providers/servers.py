"""Servers on 127.0.0.x that misbehave on purpose: drip-feeding, and TLS for one name.

tools.fakes.localweb answers each request in one piece. These write raw bytes to the socket,
so a response can arrive a byte at a time, headers included, the way a hostile or broken
server sends it.
"""

from __future__ import annotations

import datetime as dt
import socket
import socketserver
import ssl
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


@dataclass(frozen=True)
class Request:
    path: str
    headers: dict[str, str]  # names lower-cased


Answer = Callable[[Request], bytes]  # a whole raw response, status line included


def response(body: bytes | str, status: str = "200 OK", content_type: str = "text/html") -> bytes:
    data = body.encode("utf-8") if isinstance(body, str) else body
    head = (
        f"HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\n"
        f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n"
    )
    return head.encode("ascii") + data


def drip_body(length: int = 100_000, content_type: str = "text/html; charset=utf-8") -> bytes:
    """A response whose headers say `length` bytes follow; they come a byte at a time."""
    head = f"HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nContent-Length: {length}\r\n\r\n"
    return head.encode("ascii")


@dataclass
class DripServer:
    """Answers every path a byte at a time, `interval` seconds apart, unless `answers`
    names it (answered at once). With `headers_too`, even the status line drips;
    otherwise the headers arrive and the body never finishes."""

    host: str = "127.0.0.1"
    port: int = 0  # 0: any free port
    interval: float = 0.05
    headers_too: bool = True
    answers: dict[str, Answer] = field(default_factory=dict)
    tls: ssl.SSLContext | None = None
    requests: list[Request] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._stopping = threading.Event()
        self._server = _Server((self.host, self.port), self._handler())
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,))
        self._thread.daemon = True

    @property
    def base(self) -> str:
        return f"{'https' if self.tls else 'http'}://{self.host}:{self.port}"

    def url(self, path: str) -> str:
        return self.base + path

    def start(self) -> DripServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()

    def _handler(self) -> type[socketserver.BaseRequestHandler]:
        server = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                sock: socket.socket = self.request
                try:
                    if server.tls is not None:
                        sock = server.tls.wrap_socket(sock, server_side=True)
                    request = _read_request(sock)
                    if request is not None:
                        server._answer(sock, request)
                except (OSError, ssl.SSLError):
                    pass  # the client hung up, as clients with deadlines do

        return Handler

    def _answer(self, sock: socket.socket, request: Request) -> None:
        self.requests.append(request)
        answer = self.answers.get(request.path)
        if answer is not None:
            sock.sendall(answer(request))
            return
        raw = response("<html>" + "x" * 100_000) if self.headers_too else drip_body()
        if not self.headers_too:
            sock.sendall(raw)
            raw = b"<html><body><p>" + b"slow " * 20_000
        for byte in _bytes(raw):
            if self._stopping.wait(self.interval):
                return
            sock.sendall(byte)


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 64


def _bytes(data: bytes) -> Iterator[bytes]:
    return (data[i : i + 1] for i in range(len(data)))


def _read_request(sock: socket.socket) -> Request | None:
    sock.settimeout(5)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            return None
        data += chunk
    lines = data.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    path = lines[0].split(" ")[1] if len(lines[0].split(" ")) > 1 else "/"
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return Request(path.split("?", 1)[0], headers)


# --- TLS --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Certificates:
    """A throwaway CA and a certificate it signed for `hostname`."""

    hostname: str
    ca_pem: bytes
    cert_file: Path
    key_file: Path

    def server_context(self, seen_names: list[str | None]) -> ssl.SSLContext:
        """A server context that records the SNI name each client sends."""
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(self.cert_file, self.key_file)
        context.sni_callback = lambda _sock, name, _ctx: seen_names.append(name)
        return context

    def client_context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cadata=self.ca_pem.decode("ascii"))


def make_certificates(hostname: str, folder: Path) -> Certificates:
    now = dt.datetime.now(dt.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Verdict test CA")])
    ca = (
        _builder(ca_name, ca_name, ca_key.public_key(), now)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(
            x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False
        )
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, hostname)])
    cert = (
        _builder(subject, ca_name, key.public_key(), now)
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(hostname)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()),
            critical=False,
        )
        .sign(ca_key, hashes.SHA256())
    )
    cert_file, key_file = folder / f"{hostname}.pem", folder / f"{hostname}.key"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return Certificates(hostname, ca.public_bytes(serialization.Encoding.PEM), cert_file, key_file)


def _builder(
    subject: x509.Name, issuer: x509.Name, public_key: ec.EllipticCurvePublicKey, now: dt.datetime
) -> x509.CertificateBuilder:
    return (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer)
        .public_key(public_key)
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=1))
    )


@dataclass
class EndlessServer:
    """Answers every request with a body that never ends (chunked, as fast as the client
    reads), counting the bytes it managed to send: a client that caps what it reads hangs
    up after about its cap, one that reads whole never stops."""

    content_type: str = "application/json"
    prefix: bytes = b'{"results": ['
    sent: int = 0

    def __post_init__(self) -> None:
        self._server = _Server(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,))
        self._thread.daemon = True

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def start(self) -> EndlessServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _handler(self) -> type[socketserver.BaseRequestHandler]:
        server = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                sock: socket.socket = self.request
                try:
                    if _read_request(sock) is None:
                        return
                    head = (
                        f"HTTP/1.1 200 OK\r\nContent-Type: {server.content_type}\r\n"
                        "Transfer-Encoding: chunked\r\n\r\n"
                    )
                    sock.sendall(head.encode("ascii") + _chunk(server.prefix))
                    filler = _chunk(b'{"url": "https://example.org/x", "title": "x"},' * 1300)
                    while True:
                        sock.sendall(filler)
                        server.sent += len(filler)
                except OSError:
                    pass  # the client hung up: that is the point

        return Handler


def _chunk(data: bytes) -> bytes:
    return f"{len(data):x}\r\n".encode("ascii") + data + b"\r\n"
