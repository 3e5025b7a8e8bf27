"""The names and addresses of this machine, so that phones on the local network reach a debug server."""
from __future__ import annotations

import socket
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from django.http import HttpRequest


def local_hosts() -> list[str]:
    """This machine's host name (and its .local name) and IP addresses, best effort, never raising."""
    hosts: set[str] = set()
    try:
        name = socket.gethostname()
        hosts.update({name, f"{name}.local"})
        hosts.update(str(info[4][0]) for info in socket.getaddrinfo(name, None))
    except OSError:
        pass
    for family, probe in ((socket.AF_INET, "10.255.255.255"), (socket.AF_INET6, "fd00::1")):
        # Connecting a UDP socket sends nothing; it only picks the interface that routes off this machine.
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as udp:
                udp.connect((probe, 1))
                hosts.add(str(udp.getsockname()[0]))
        except OSError:
            pass
    hosts.update(_interface_addresses())
    return sorted(f"[{h}]" if ":" in h else h for h in hosts if h)


def lan_address() -> str | None:
    """The IPv4 address phones on the local network reach this machine by (the interface of the default route)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            udp.connect(("10.255.255.255", 1))
            address = str(udp.getsockname()[0])
    except OSError:
        return None
    return None if address.startswith("127.") else address


def listening(address: str, port: int) -> bool:
    """Whether something on this machine accepts connections at this address and port (a server bound there)."""
    try:
        with socket.create_connection((address, port), timeout=0.2):
            return True
    except OSError:
        return False


def is_loopback(host: str) -> bool:
    """Whether a Host header (with or without port) names this machine only: localhost, 127.x, [::1]."""
    name = host.rsplit(":", 1)[0] if host.count(":") == 1 or host.startswith("[") else host
    name = name.strip("[]").lower()
    return name in ("localhost", "::1") or name.startswith("127.")


def _interface_addresses() -> set[str]:
    """IPv4 address of every network interface (Linux; empty elsewhere)."""
    try:
        import fcntl
        import struct
    except ImportError:
        return set()
    found = set()
    for _index, name in socket.if_nameindex():
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
                packed = fcntl.ioctl(probe.fileno(), 0x8915, struct.pack("256s", name[:15].encode()))  # SIOCGIFADDR
            found.add(socket.inet_ntoa(packed[20:24]))
        except OSError:
            pass
    return found


def public_url(request: "HttpRequest", path: str) -> str:
    """The absolute URL phones open for `path` (invite links, QR codes): a debug server viewed on its own machine
    gives its LAN address, not localhost, when it is served on the LAN too (0.0.0.0)."""
    from django.conf import settings
    url = request.build_absolute_uri(path)
    host = request.get_host()
    if settings.DEBUG and is_loopback(host):
        port = host.rsplit(":", 1)[1] if ":" in host.split("]")[-1] else "80"
        address = lan_address()
        if address and port.isdigit() and listening(address, int(port)):
            url = url.replace(f"//{host}/", f"//{address}:{port}/", 1)
    return url
