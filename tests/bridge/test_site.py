"""The web page over plain HTTP from the bridge's port: files, the fallback page, no escapes."""

from __future__ import annotations

import asyncio
import http.client
import json
from pathlib import Path

import pytest
from bridge_helpers import Running, StartBridge
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus


async def get(port: int, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    """A plain HTTP GET, in a thread: the server runs on this test's event loop."""
    return await asyncio.to_thread(blocking_get, port, path, headers)


def blocking_get(
    port: int, path: str, headers: dict[str, str]
) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


@pytest.fixture
def site(tmp_path: Path) -> Path:
    root = tmp_path / "dist"
    (root / "assets").mkdir(parents=True)
    (root / "index.html").write_text("<!doctype html><title>Background Battle</title>")
    (root / "main.js").write_text("export const live = true;\n")
    (root / "assets" / "core.wasm").write_bytes(b"\x00asm\x01\x00\x00\x00")
    (tmp_path / "secrets").write_text("do not serve me")
    return root


async def test_the_built_site_is_served(start_bridge: StartBridge, site: Path) -> None:
    running = await start_bridge(web_dir=site)
    status, headers, body = await get(running.port, "/")
    assert status == 200 and b"<title>Background Battle</title>" in body
    assert headers["Content-Type"].startswith("text/html")
    status, headers, body = await get(running.port, "/main.js?v=3")
    assert (status, body) == (200, b"export const live = true;\n")
    assert headers["Content-Type"].startswith("text/javascript")
    status, headers, body = await get(running.port, "/assets/core.wasm")
    assert (status, headers["Content-Type"]) == (200, "application/wasm")


async def test_an_unchanged_file_is_not_sent_again(start_bridge: StartBridge, site: Path) -> None:
    running = await start_bridge(web_dir=site)
    _, headers, _ = await get(running.port, "/main.js")
    status, _, body = await get(running.port, "/main.js", **{"If-None-Match": headers["ETag"]})
    assert (status, body) == (304, b"")


@pytest.mark.parametrize(
    "path", ["/missing.js", "/../secrets", "/%2e%2e/secrets", "/assets/../../secrets"]
)
async def test_nothing_outside_the_site_is_served(
    start_bridge: StartBridge, site: Path, path: str
) -> None:
    running = await start_bridge(web_dir=site)
    status, _, body = await get(running.port, path)
    assert status == 404 and b"do not serve me" not in body


async def test_without_a_built_site_a_clear_fallback_page(running: Running) -> None:
    status, headers, body = await get(running.port, "/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert b"has not been built" in body and b"make run" in body
    assert (await get(running.port, "/main.js"))[0] == 404


async def test_the_websocket_lives_only_at_ws(running: Running) -> None:
    with pytest.raises(InvalidStatus) as refused:
        async with connect(f"ws://127.0.0.1:{running.port}/socket"):
            pass
    assert refused.value.response.status_code == 404
    peer = await running.peer()
    assert (await peer.hello())["type"] == "welcome"


async def test_the_marker_tells_the_page_a_bridge_serves_it(start_bridge: StartBridge) -> None:
    running: Running = await start_bridge()
    status, headers, body = await get(running.port, "/bridge.json")
    assert status == 200
    assert headers["Cache-Control"] == "no-store"
    assert json.loads(body) == {"bridge": "background-battle", "protocol": 1, "ws": "/ws"}
