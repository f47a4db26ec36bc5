"""The laptop's current addresses and names, with the standard library only (no psutil): what the server
certificate names, and where the join cards and the /trust QR code point."""

from __future__ import annotations

import contextlib
import ipaddress
import socket

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

# The networks a club's wifi hands out, and loopback: the only addresses the authority may vouch for.
PRIVATE_NETWORKS = tuple(
    ipaddress.ip_network(n)
    for n in (
        "10.0.0.0/8",
        "172.16.0.0/12",
        "192.168.0.0/16",
        "169.254.0.0/16",
        "127.0.0.0/8",
        "fc00::/7",
        "fe80::/10",
        "::1/128",
    )
)
# Documentation addresses (RFC 5737, RFC 3849): connecting a UDP socket sends nothing, it only asks the
# kernel which local address its route to that network would leave from.
_PROBES = (("192.0.2.1", socket.AF_INET), ("2001:db8::1", socket.AF_INET6))


def is_private(address: IPAddress) -> bool:
    return any(address in net for net in PRIVATE_NETWORKS)


def _routed() -> set[str]:
    found: set[str] = set()
    for probe, family in _PROBES:
        with contextlib.suppress(OSError), socket.socket(family, socket.SOCK_DGRAM) as s:
            s.connect((probe, 9))
            found.add(s.getsockname()[0])
    return found


def _of_hostname() -> set[str]:
    with contextlib.suppress(OSError):
        return {str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None)}
    return set()


def current_addresses() -> list[IPAddress]:
    """Loopback and every private address this laptop has now (LAN first), without zone ids."""
    found: set[IPAddress] = {ipaddress.ip_address("127.0.0.1"), ipaddress.ip_address("::1")}
    for text in _routed() | _of_hostname():
        with contextlib.suppress(ValueError):
            found.add(ipaddress.ip_address(text.split("%", 1)[0]))
    return sorted((a for a in found if is_private(a)), key=lambda a: (a.is_loopback, a.version, int(a)))


def lan_addresses() -> list[IPAddress]:
    """The addresses a tablet on the club's wifi can reach: IPv4 (the club server listens on 0.0.0.0, which
    works alike on every system), not loopback, not link-local."""
    return [a for a in current_addresses() if a.version == 4 and not a.is_loopback and not a.is_link_local]


def current_names() -> list[str]:
    """`localhost` and the laptop's mDNS name (`<hostname>.local`), the DNS names the authority may vouch
    for; a bare hostname is left out (it is outside the authority's constraints)."""
    host = socket.gethostname().split(".", 1)[0].lower()
    names = ["localhost"]
    if host and host != "localhost" and all(c.isalnum() or c == "-" for c in host):
        names.append(f"{host}.local")
    return names


def url_host(address: IPAddress | str) -> str:
    """An address as the host part of a URL ([...] around IPv6)."""
    text = str(address)
    return f"[{text}]" if ":" in text else text
