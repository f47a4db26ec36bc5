"""`firestep serve --club` for real (issue 28, "Done when" 1): started as a user starts it, on loopback with a
fresh data folder and free ports. A TLS client that trusts only the authority /trust hands out verifies the
server for 127.0.0.1 and localhost; the authority is name-constrained; its key is 0600 and in no answer; the
plain port serves /trust (at / too) and its downloads and redirects everything else to HTTPS; the slowloris guard
closes a silent connection on both ports."""

from __future__ import annotations

import base64
import http.client
import shutil
import socket
import ssl
import stat
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import zxingcpp
from cryptography import x509
from cryptography.hazmat.primitives import serialization
from cryptography.x509.verification import PolicyBuilder, Store, VerificationError
from PIL import Image

from app import doctor
from app.club import authority
from tests.app.club.served import Club, serve_club, trusting_only

REQUEST_TIMEOUT = 2  # seconds a connection may take to send its request (the slowloris guard)


@pytest.fixture(scope="module")
def club(sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Club]:
    with serve_club(sqlite_template, tmp_path_factory.mktemp("club"), REQUEST_TIMEOUT) as c:
        yield c


def _authority_from_trust(club: Club) -> tuple[bytes, x509.Certificate]:
    """The authority as a tablet gets it: from the plain port's /trust, PEM and DER alike."""
    page = club.plain("/trust").read().decode()
    assert "/trust/firestep-club.pem" in page and "/trust/firestep-club.crt" in page
    pem = club.plain("/trust/firestep-club.pem").read()
    der = club.plain("/trust/firestep-club.crt").read()
    cert = x509.load_pem_x509_certificate(pem)
    assert x509.load_der_x509_certificate(der) == cert
    return pem, cert


def _https_get(club: Club, context: ssl.SSLContext, host: str, path: str = "/") -> http.client.HTTPResponse:
    conn = http.client.HTTPSConnection(host, club.https_port, context=context, timeout=30)
    conn.request("GET", path)
    return conn.getresponse()


def test_a_client_trusting_only_the_served_authority_verifies_the_server(club: Club) -> None:
    pem, _ = _authority_from_trust(club)
    context = trusting_only(pem)
    for host in ("127.0.0.1", "localhost"):
        r = _https_get(club, context, host)
        assert r.status == 200, host
        assert "strict-transport-security" not in {k.lower() for k in r.headers}
    # The same client refuses the server for a name the certificate does not carry.
    with pytest.raises(ssl.SSLCertVerificationError):
        http.client.HTTPSConnection(
            "127.0.0.1", club.https_port, context=_named(pem, "firestep.example")
        ).connect()
    # And a client trusting only the system's roots (or another authority) refuses it.
    with pytest.raises(ssl.SSLCertVerificationError):
        _https_get(club, ssl.create_default_context(), "localhost")


def _named(pem: bytes, name: str) -> ssl.SSLContext:
    """A context that checks the server against `name` whatever host it dials."""
    context = trusting_only(pem)
    wrap = context.wrap_socket

    def wrap_as(sock: socket.socket, *args: object, **kwargs: object) -> ssl.SSLSocket:
        kwargs["server_hostname"] = name
        return wrap(sock, *args, **kwargs)  # type: ignore[arg-type]

    context.wrap_socket = wrap_as  # type: ignore[method-assign]
    return context


def test_the_served_authority_is_constrained_to_private_names(club: Club, tmp_path: Path) -> None:
    _, ca = _authority_from_trust(club)
    constraints = ca.extensions.get_extension_for_class(x509.NameConstraints)
    assert constraints.critical and constraints.value.permitted_subtrees
    # A certificate for a public name signed with this very authority's key (a copy of the laptop's folder)
    # is refused by a verifier that trusts the authority.
    files = authority.ClubFiles(tmp_path / "copy")
    shutil.copytree(club.var / "club", files.folder)
    forged = authority.issue_server_cert(files, [], ["example.com"])
    verifier = PolicyBuilder().store(Store([ca])).build_server_verifier(x509.DNSName("example.com"))
    with pytest.raises(VerificationError, match="name constraint"):
        verifier.verify(forged, [])


def _key_markers(path: Path) -> list[bytes]:
    """What would give a key away in an answer: its PEM body, each of its base64 lines, its DER bytes."""
    pem = path.read_bytes()
    key = serialization.load_pem_private_key(pem, password=None)
    der = key.private_bytes(
        serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    lines = [line for line in pem.splitlines() if line and not line.startswith(b"-----")]
    return [pem, der, base64.b64encode(der), *lines]


def test_keys_are_owner_only_and_in_no_answer(club: Club) -> None:
    files = authority.ClubFiles.of(club.var)
    for key in (files.authority_key, files.server_key):
        assert stat.S_IMODE(key.stat().st_mode) == 0o600, key
    assert stat.S_IMODE(files.folder.stat().st_mode) == 0o700
    markers = [m for key in (files.authority_key, files.server_key) for m in _key_markers(key)]
    pem, _ = _authority_from_trust(club)
    context = trusting_only(pem)
    paths = [
        "/",
        "/trust",
        "/trust/firestep-club.crt",
        "/trust/firestep-club.pem",
        "/trust/firestep-club.mobileconfig",
        "/trust/authority.key",
        "/trust/../club/authority.key",
        "/static/../club/authority.key",
        "/static/..%2f..%2fclub%2fauthority.key",
        "/club/authority.key",
        "/var/club/server.key",
        "/healthz",
        "/openapi.json",
        "/lookup",
    ]
    answers = 0
    for path in paths:
        bodies = [club.plain(path).read(), _https_get(club, context, "localhost", path).read()]
        for body in bodies:
            answers += 1
            assert not [m for m in markers if m in body], path
    assert answers == 2 * len(paths)


def test_plain_http_serves_trust_and_redirects_the_rest(club: Club) -> None:
    for path in (
        "/trust",
        "/trust/firestep-club.crt",
        "/trust/firestep-club.pem",
        "/trust/firestep-club.mobileconfig",
    ):
        r = club.plain(path)
        assert r.status == 200, path
        assert "strict-transport-security" not in {k.lower() for k in r.headers}
    assert club.plain("/trust/firestep-club.mobileconfig").getheader("content-type") == (
        "application/x-apple-aspen-config"
    )
    https = f"https://127.0.0.1:{club.https_port}"
    # The plain port's / is the trust page (a tablet that types the address), whose script may reach the
    # HTTPS address (the server's own, whatever the Host header says) to move there once it answers.
    for host, origin in (
        ("127.0.0.1", https),
        ("evil.example", https),
        ("localhost", f"https://localhost:{club.https_port}"),
    ):
        r = club.plain("/", host=host)
        assert r.status == 200 and "Trust this laptop" in r.read().decode()
        policy = r.getheader("content-security-policy") or ""
        assert f"connect-src 'self' {origin}" in policy and "script-src 'self'" in policy
    for path, method in (
        ("/", "POST"),
        ("/games/1/referee?x=1&y=2", "GET"),
        ("/join", "POST"),
        ("/trusted", "GET"),
    ):
        r = club.plain(path, method)
        assert r.status == 307, path
        assert r.getheader("location") == https + path
    # A made-up Host is no address of the server's: the redirect goes to the server's own.
    for host in ("evil.example", "localhost.evil.example", "[::2]"):
        assert club.plain("/join", "POST", host).getheader("location") == f"{https}/join"
    assert (
        club.plain("/join", "POST", "localhost").getheader("location")
        == f"https://localhost:{club.https_port}/join"
    )
    # The redirect lands where it says, on a client that trusts the authority.
    pem, _ = _authority_from_trust(club)
    assert _https_get(club, trusting_only(pem), "127.0.0.1", "/lookup").status == 200


def _closed_within(sock: socket.socket, seconds: float) -> bool:
    sock.settimeout(seconds)
    try:
        return sock.recv(1) == b""
    except (TimeoutError, ssl.SSLError, ConnectionError):
        return False


def test_a_connection_that_never_finishes_its_request_is_closed_on_both_ports(club: Club) -> None:
    """Both ports at once, each watched in its own thread: one wait of REQUEST_TIMEOUT, not one a port."""
    pem, _ = _authority_from_trust(club)
    raws = {
        port: socket.create_connection(("127.0.0.1", port), timeout=30)
        for port in (club.https_port, club.http_port)
    }
    raws[club.https_port] = trusting_only(pem).wrap_socket(  # the handshake completes
        raws[club.https_port], server_hostname="localhost"
    )
    closed: dict[int, tuple[bool, float]] = {}

    def watch(port: int, raw: socket.socket) -> None:
        start = time.monotonic()
        raw.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and the request never ends
        with raw:
            closed[port] = (_closed_within(raw, REQUEST_TIMEOUT + 5), time.monotonic() - start)

    watchers = [threading.Thread(target=watch, args=item) for item in raws.items()]
    for watcher in watchers:
        watcher.start()
    for watcher in watchers:
        watcher.join(REQUEST_TIMEOUT + 10)
    for port in raws:
        was_closed, after = closed[port]
        assert was_closed and after >= REQUEST_TIMEOUT - 0.5, (port, closed[port])


def terminal_qr_text(terminal: str) -> str:
    """Decode the QR code the server drew in the terminal: each character is two modules stacked (a full
    block light on both, a space dark on both, half blocks one of each), read back by zxing-cpp."""
    halves = {"█": (255, 255), " ": (0, 0), "▀": (255, 0), "▄": (0, 255)}
    lines = [line for line in terminal.splitlines() if line and set(line) <= set(halves)]
    image = Image.new("L", (max(map(len, lines)), 2 * len(lines)), 255)
    for y, line in enumerate(lines):
        for x, char in enumerate(line):
            image.putpixel((x, 2 * y), halves[char][0])
            image.putpixel((x, 2 * y + 1), halves[char][1])
    found = zxingcpp.read_barcodes(
        image.resize((image.width * 8, image.height * 8), Image.Resampling.NEAREST)
    )
    assert len(found) == 1, found
    return str(found[0].text)


def test_the_terminal_shows_the_trust_qr_and_the_fingerprint(club: Club) -> None:
    printed = club.log.read_text()
    assert terminal_qr_text(printed) == f"http://127.0.0.1:{club.http_port}/trust"
    assert f"Club server: https://127.0.0.1:{club.https_port}/ " in printed  # the address and ports served
    assert "Only this laptop reaches 127.0.0.1: leave out --host" in printed  # and who reaches it
    _, ca = _authority_from_trust(club)
    assert authority.fingerprint(ca) in printed
    assert authority.fingerprint(ca) in club.plain("/trust").read().decode()


def test_doctor_names_the_running_club_servers_own_ports_as_firestep(club: Club) -> None:
    """Issue 68: with a club server running, doctor called its HTTPS port "another program" (it asked the port
    for /healthz in plain HTTP only); both of its ports are now named as a firestep server's."""
    for port, option in ((club.https_port, "--port N"), (club.http_port, "--http-port N")):
        line = doctor.port_line(port, "serve --club", f"serve on another: firestep serve --club {option}")
        assert line.status == "FAIL" and line.said.startswith("a firestep server already serves on it: "), (
            line
        )
        assert "another program" not in line.said
