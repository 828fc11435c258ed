"""HTTP before anything else: which requests the bridge answers at all.

Only GET and HEAD; each of the headers the bridge reads sent once; a path that decodes to clean
text; and a `Host` the bridge answers to, so that a page from another name that resolves to this
machine (DNS rebinding) cannot reach it. A refusal is a short plain-text answer (400, 403, 405),
never a 500 and never a traceback: it is the client's mistake, not the bridge's.

>>> hosts = HostList.make("127.0.0.1", ["http://foundry.lan:30000"], [])
>>> [hosts.allows(h) for h in ("127.0.0.1:8765", "localhost", "foundry.lan", "evil.example")]
[True, True, True, False]
>>> checked_path(Request("/a%20b.js?v=1", Headers()))
'/a b.js'
"""

from __future__ import annotations

import dataclasses
import http
import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from websockets.datastructures import Headers, MultipleValuesError
from websockets.http11 import Request, Response

METHODS = ("GET", "HEAD")
# Headers the bridge reads: two different values would leave it guessing which one counts.
SINGLE_HEADERS = ("Host", "Origin", "Upgrade", "If-None-Match", "Sec-WebSocket-Key")
LOCAL_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
WILDCARDS = frozenset({"", "0.0.0.0", "::"})


class Refusal(Exception):
    """A request the bridge will not serve: an HTTP status, a one-line reason, extra headers."""

    def __init__(self, status: http.HTTPStatus, reason: str, **headers: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason
        self.headers = headers

    def response(self) -> Response:
        body = f"{self.reason}\n".encode()
        headers = Headers(
            [
                ("Connection", "close"),
                ("Content-Type", "text/plain; charset=utf-8"),
                ("Content-Length", str(len(body))),
                *self.headers.items(),
            ]
        )
        return Response(self.status.value, self.status.phrase, headers, body)


@dataclass(frozen=True)
class HostList:
    """The names in `Host` the bridge answers to.

    Loopback names and addresses, the address it listens on, the hosts of the allowed page
    origins and any name given with `--allow-host`. When it listens on every interface
    (`0.0.0.0`), any IP address too: phones reach it by the machine's address, and an address
    typed as such cannot be rebound to another machine by DNS.
    """

    names: frozenset[str]
    any_address: bool

    @classmethod
    def make(cls, listen: str, origins: Iterable[str], extra: Iterable[str]) -> HostList:
        names = set(LOCAL_NAMES)
        names.update(_hostname(name) for name in [*extra, listen] if name not in WILDCARDS)
        names.update(_hostname(urlsplit(origin).netloc) for origin in origins)
        any_address = listen in WILDCARDS or not _is_loopback_address(listen)
        return cls(frozenset(name for name in names if name), any_address)

    def allows(self, host_header: str) -> bool:
        name = _hostname(host_header)
        if name in self.names:
            return True
        return self.any_address and _is_address(name)


def single_header(headers: Headers, name: str) -> str | None:
    """The one value of a header, None when absent.

    Raises:
        Refusal: 400 when the header was sent more than once.
    """
    try:
        return headers.get(name)
    except MultipleValuesError:
        raise Refusal(http.HTTPStatus.BAD_REQUEST, f"The {name} header was sent twice.") from None


def check(request: Request, hosts: HostList) -> str:
    """The decoded path of a request the bridge may answer.

    Raises:
        Refusal: 405 for a method other than GET or HEAD, 400 for a repeated header, a missing
            Host or a bad path, 403 for a Host the bridge does not answer to.
    """
    if request.method not in METHODS:
        raise Refusal(
            http.HTTPStatus.METHOD_NOT_ALLOWED,
            f"Method {request.method[:20]} is not allowed: only GET and HEAD.",
            Allow=", ".join(METHODS),
        )
    for name in SINGLE_HEADERS:
        single_header(request.headers, name)
    host = request.headers.get("Host")
    if not host:
        raise Refusal(http.HTTPStatus.BAD_REQUEST, "The Host header is missing.")
    if not hosts.allows(host):
        raise Refusal(
            http.HTTPStatus.FORBIDDEN,
            f"Host {host[:100]!r} is not one this bridge answers to "
            "(start it with --allow-host NAME to add one).",
        )
    return checked_path(request)


def checked_path(request: Request) -> str:
    """The request's path, percent-decoded, without query or fragment.

    Raises:
        Refusal: 400 when it does not start with `/`, is not UTF-8 once decoded, or holds a
            control character.
    """
    raw = request.path.split("?", 1)[0].split("#", 1)[0]
    if not raw.startswith("/"):
        raise Refusal(http.HTTPStatus.BAD_REQUEST, "The path must start with /.")
    try:
        path = unquote(raw, errors="strict")
    except UnicodeDecodeError:
        raise Refusal(http.HTTPStatus.BAD_REQUEST, "The path is not valid UTF-8.") from None
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in path):
        raise Refusal(http.HTTPStatus.BAD_REQUEST, "The path holds a control character.")
    return path


def for_method(request: Request, response: Response) -> Response:
    """HEAD gets the headers of the GET answer (its Content-Length included) and no body."""
    if request.method == "HEAD":
        return dataclasses.replace(response, body=b"")
    return response


def _hostname(host: str) -> str:
    """The name part of a `Host` value or an address, lower case, without port or brackets."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    if host.count(":") == 1:
        return host.split(":", 1)[0]
    return host  # a bare name, or an IPv6 address without brackets (a --host value)


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _is_loopback_address(name: str) -> bool:
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(_hostname(name)).is_loopback
    except ValueError:
        return False  # a name other than localhost: its addresses may be anywhere
