"""HTTP on the bridge's port, spoken byte by byte: GET and HEAD only, a clear 4xx for a bad
request (never a 500 or a traceback), and a Host check that keeps DNS rebinding out."""

from __future__ import annotations

import asyncio
import base64
import logging
import os
import random
from pathlib import Path

import pytest
from bridge_helpers import WAIT, Peer, Running, StartBridge
from hypothesis import given, settings
from hypothesis import strategies as st
from websockets.datastructures import Headers
from websockets.http11 import Request

from background_battle_bridge.guard import Tokens
from background_battle_bridge.http_gate import HostList, Refusal, check
from background_battle_bridge.server import parse_config

Answer = tuple[int, dict[str, str], bytes]


async def raw(port: int, head: str) -> Answer:
    """Send `head` (request line and headers, no final blank line) and read until the close."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(head.encode("latin-1") + b"\r\n\r\n")
        await writer.drain()
        async with asyncio.timeout(WAIT):
            data = await read_answer(reader)
    finally:
        writer.close()
    top, _, body = data.partition(b"\r\n\r\n")
    status_line, *lines = top.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines)
    return int(status_line.split()[1]), headers, body


async def read_answer(reader: asyncio.StreamReader) -> bytes:
    """Everything up to the close, or just the headers of a 101 (the WebSocket stays open)."""
    data = b""
    while chunk := await reader.read(65536):
        data += chunk
        if data.startswith(b"HTTP/1.1 101") and b"\r\n\r\n" in data:
            break
    return data


def request(method: str, path: str, port: int, *extra: str, host: str | None = None) -> str:
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host or f'127.0.0.1:{port}'}", *extra]
    return "\r\n".join(lines)


def upgrade_headers() -> list[str]:
    key = base64.b64encode(os.urandom(16)).decode()
    return [
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {key}",
        "Sec-WebSocket-Version: 13",
    ]


@pytest.fixture
def site(tmp_path: Path) -> Path:
    root = tmp_path / "dist"
    root.mkdir()
    (root / "index.html").write_text("<!doctype html><title>Background Battle</title>")
    return root


@pytest.fixture
def no_traceback(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.INFO)
    return caplog


def assert_no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


@pytest.mark.parametrize("method", ["DELETE", "TRACE", "PROPFIND", "POST", "PUT", "OPTIONS"])
async def test_only_get_and_head_are_served(
    start_bridge: StartBridge, site: Path, method: str, no_traceback: pytest.LogCaptureFixture
) -> None:
    running = await start_bridge(web_dir=site)
    status, headers, body = await raw(running.port, request(method, "/index.html", running.port))
    assert (status, headers["Allow"]) == (405, "GET, HEAD")
    assert b"Background Battle" not in body and method.encode() in body
    assert_no_traceback(no_traceback)


async def test_head_has_the_headers_of_get_and_no_body(
    start_bridge: StartBridge, site: Path
) -> None:
    running = await start_bridge(web_dir=site)
    get = await raw(running.port, request("GET", "/", running.port))
    head = await raw(running.port, request("HEAD", "/", running.port))
    assert (head[0], head[2]) == (200, b"")
    assert head[1]["Content-Length"] == get[1]["Content-Length"] == str(len(get[2]))
    assert head[1]["ETag"] == get[1]["ETag"]
    marker = await raw(running.port, request("HEAD", "/bridge.json", running.port))
    assert (marker[0], marker[2]) == (200, b"")


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/%00", 400),
        ("/index.html%00.js", 400),
        ("/%0d%0aSet-Cookie:%20x", 400),
        ("/%ff%fe", 400),
        ("*", 400),
        ("http://127.0.0.1/", 400),
        ("/" + "a" * 4000, 404),
        ("/%2e%2e/%2e%2e/etc/passwd", 404),
    ],
)
async def test_a_bad_path_is_a_client_error(
    start_bridge: StartBridge,
    site: Path,
    path: str,
    status: int,
    no_traceback: pytest.LogCaptureFixture,
) -> None:
    running = await start_bridge(web_dir=site)
    assert (await raw(running.port, request("GET", path, running.port)))[0] == status
    assert_no_traceback(no_traceback)


@pytest.mark.parametrize(
    ("path", "extra"),
    [
        ("/ws", ["Origin: http://localhost:30000", "Origin: https://evil.example"]),
        ("/", ["Origin: http://localhost:30000", "Origin: http://localhost:30000"]),
        ("/", ["Host: evil.example"]),
        ("/ws", ["Sec-WebSocket-Key: AAAAAAAAAAAAAAAAAAAAAA=="]),
        ("/", ['If-None-Match: "a"', 'If-None-Match: "b"']),
    ],
)
async def test_a_repeated_header_is_a_client_error(
    running: Running, path: str, extra: list[str], no_traceback: pytest.LogCaptureFixture
) -> None:
    upgrade = upgrade_headers() if path == "/ws" else []
    status, _, body = await raw(running.port, request("GET", path, running.port, *upgrade, *extra))
    assert status == 400 and b"twice" in body
    assert_no_traceback(no_traceback)


async def test_a_request_without_host_is_a_client_error(running: Running) -> None:
    status, _, body = await raw(running.port, "GET / HTTP/1.0")
    assert status == 400 and b"Host" in body


async def test_a_websocket_opens_with_get_only(running: Running) -> None:
    status, headers, _ = await raw(
        running.port, request("HEAD", "/ws", running.port, *upgrade_headers())
    )
    assert (status, headers["Allow"]) == (405, "GET")


async def test_dns_rebinding_cannot_reach_a_bridge_without_tokens(
    start_bridge: StartBridge, no_traceback: pytest.LogCaptureFixture
) -> None:
    running = await start_bridge(tokens=Tokens(gm="", player="", open=True))
    port = running.port
    rebound = f"attacker.example:{port}"
    origin = f"Origin: http://{rebound}"
    for path, extra in (("/ws", [origin, *upgrade_headers()]), ("/", []), ("/bridge.json", [])):
        status, _, body = await raw(port, request("GET", path, port, *extra, host=rebound))
        assert status == 403 and b"attacker.example" in body and b"--allow-host" in body
    # the same handshake under the bridge's own name goes through, and hello makes a GM
    status, _, _ = await raw(port, request("GET", "/ws", port, *upgrade_headers()))
    assert status == 101
    welcome = await (await running.peer()).hello(token="")
    assert welcome["role"] == "gm"
    assert_no_traceback(no_traceback)


@pytest.mark.parametrize("host", ["localhost", "LOCALHOST", "127.0.0.1", "[::1]"])
async def test_loopback_names_are_answered(running: Running, host: str) -> None:
    status, _, _ = await raw(running.port, request("GET", "/", running.port, host=host))
    assert status == 200
    status, _, _ = await raw(
        running.port, request("GET", "/", running.port, host=f"{host}:{running.port}")
    )
    assert status == 200


async def test_the_gm_may_allow_another_name(start_bridge: StartBridge) -> None:
    running = await start_bridge(allowed_hosts=frozenset({"gm-laptop.local"}))
    name = f"gm-laptop.local:{running.port}"
    handshake = [f"Origin: http://{name}", *upgrade_headers()]
    status, _, _ = await raw(
        running.port, request("GET", "/ws", running.port, *handshake, host=name)
    )
    assert status == 101
    # and the names of allowed page origins are answered too (a proxy in front of Foundry)
    running = await start_bridge(origins=frozenset({"https://foundry.example.com"}))
    status, _, _ = await raw(
        running.port, request("GET", "/", running.port, host="foundry.example.com")
    )
    assert status == 200


def test_on_every_interface_any_address_is_answered_but_no_foreign_name() -> None:
    hosts = HostList.make("0.0.0.0", [], [])
    assert hosts.allows("192.168.1.5:8765") and hosts.allows("[fe80::1]:8765")
    assert not hosts.allows("attacker.example:8765")
    loopback = HostList.make("127.0.0.1", [], [])
    assert not loopback.allows("192.168.1.5:8765")
    own = HostList.make("192.168.1.5", [], [])
    assert own.allows("192.168.1.5") and not own.allows("rebind.example")


def test_allow_host_comes_from_flags_and_the_environment() -> None:
    config, _ = parse_config(["--allow-host", "a.local", "--allow-host", "b.local"], {})
    assert config.allowed_hosts == {"a.local", "b.local"}
    config, _ = parse_config([], {"BB_ALLOW_HOSTS": "a.local, c.local"})
    assert config.allowed_hosts == {"a.local", "c.local"}


async def test_the_websocket_still_works_after_every_refusal(running: Running) -> None:
    for head in ("DELETE / HTTP/1.1\r\nHost: x", request("GET", "/%00", running.port)):
        await raw(running.port, head)
    peer: Peer = await running.gm()
    assert (await peer.ask({"type": "ping"}))["type"] == "pong"


@settings(max_examples=300, deadline=None)
@given(
    path=st.lists(
        st.sampled_from([*"/%.?#aZ09-_~:@!$&'()*+,;=", "%00", "%ff", "%2F", "%C3%A9", "%e2%82"]),
        max_size=20,
    ).map("".join),
    method=st.sampled_from(["GET", "HEAD", "POST", "get", "M-SEARCH", "CONNECT"]),
    host=st.sampled_from(["127.0.0.1:8765", "localhost", "evil.example", "[::1]:1", "", "a:b:c"]),
)
def test_any_request_is_answered_or_refused_never_an_exception(
    path: str, method: str, host: str
) -> None:
    headers = Headers([("Host", host)] if host else [])
    request = Request(path or "/", headers, method)
    try:
        decoded = check(request, HostList.make("127.0.0.1", [], []))
    except Refusal as refusal:
        assert refusal.status in (400, 403, 405)
    else:
        assert decoded.startswith("/") and "\x00" not in decoded


async def test_garbage_requests_never_get_a_500(
    running: Running, no_traceback: pytest.LogCaptureFixture
) -> None:
    chooser = random.Random(10)
    methods = ["GET", "HEAD", "PUT", "OPTIONS", "G\x01T", ""]
    paths = ["/", "/ws", "/%00", "/%ff", "*", "/a/../../b", "//x", "/bridge.json?x=%0a", "x"]
    protocols = ["HTTP/1.1", "HTTP/1.1", "HTTP/1.0", "HTTP/9"]
    headers = ["Host: 127.0.0.1", "Host: evil", "Origin: null", "Upgrade: websocket", "X: \x7f"]
    answered = 0
    for _ in range(200):
        line = " ".join(chooser.choice(part) for part in (methods, paths, protocols))
        extra = chooser.sample(headers, chooser.randint(0, 3))
        try:
            status, _, _ = await raw(running.port, "\r\n".join([line, *extra]))
        except (ValueError, IndexError):
            continue  # no HTTP answer at all: the bridge closed a request it could not parse
        assert status != 500
        answered += 1
    assert answered >= 50  # most are HTTP enough to get an answer
    assert_no_traceback(no_traceback)
    gm = await running.gm()
    assert (await gm.ask({"type": "ping"}))["type"] == "pong"
