"""Fixtures for the Foundry module's browser tests: the stand-in page and the real bridge.

The stand-in page (tests/foundry/standin/) is served from the repository root by a small
HTTP server on 127.0.0.1 (a free port), so the module's real files load as Foundry would load
them. The bridge is the real `background-battle-bridge`, started as a subprocess on 127.0.0.1
with a free port, fresh data and fixed tokens.
"""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from bridge_gm import BridgeGM
from bridge_process import BridgeProcess
from chromium import launch_args
from foundry_server import FoundryServer

ROOT = Path(__file__).resolve().parents[2]
GM_TOKEN = "gm-token-for-tests-0123456789"
PLAYER_TOKEN = "player-token-for-tests-0123456789"


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="session")
def site() -> Iterator[str]:
    """The repository served over HTTP on 127.0.0.1; yields its origin."""
    handler = functools.partial(_QuietHandler, directory=str(ROOT))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


class Bridge(BridgeProcess):
    """The real bridge, allowing the stand-in page's origin; `url` is its WebSocket."""

    def __init__(self, data: Path, origin: str) -> None:
        super().__init__(data, GM_TOKEN, PLAYER_TOKEN, "--origin", origin)

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"


@pytest.fixture
def bridge(tmp_path: Path, site: str) -> Iterator[Bridge]:
    running = Bridge(tmp_path / "bridge-data", site)
    running.start()
    yield running
    running.stop()


@pytest.fixture
def gm(bridge: Bridge) -> Iterator[BridgeGM]:
    """A GM client of the bridge, for making and ending battles without a panel."""
    client = BridgeGM(bridge.url, bridge.gm_token)
    yield client
    client.close()


@pytest.fixture
def foundry_server() -> Iterator[FoundryServer]:
    """The world's server (support/foundry_server.py): every page of a test is its client. Writes
    commit at once and `ready` comes at once unless a test sets `latency` / `ready_delay`."""
    running = FoundryServer()
    running.start()
    yield running
    running.stop()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return launch_args(browser_type_launch_args)


@pytest.fixture
def generation() -> int:
    """The Foundry generation the stand-in plays (standin/generations.js): 13 here; a test that
    must hold on both parametrises it, `@pytest.mark.parametrize("generation", GENERATIONS)`
    (support/foundry_steps.py)."""
    return 13


def standin_url(site: str, **params: Any) -> str:
    """The stand-in page's address with its query (user, gm, active, system, url, tokens...)."""
    clean = {k: v for k, v in params.items() if v is not None}
    return f"{site}/tests/foundry/standin/index.html?{urlencode(clean)}"


@pytest.fixture
def open_foundry(
    site: str, bridge: Bridge, generation: int, foundry_server: FoundryServer
) -> Iterator[Callable[..., Any]]:
    """Opens the stand-in world in a page as a user, and the panel from the token controls.

    Every page is a client of the test's world server (`foundry_server`), so pages share the
    world and a reload keeps what was written. Keywords: user (gm1, the Game Master; gm2, an
    assistant GM; player1, player2), active (a GM logged in from
    another computer beforehand, when not this page's user), system (e.g. wfrp4e),
    gm_token / player_token (None: not set), url (default: the bridge's), battle (preselected),
    panel (False: do not open it), any other stand-in query parameter (docs in
    standin/foundry-standin.js). The test fails on an error in a page: an uncaught exception, a
    panel that failed to render, a call a real Foundry refuses (the stand-in's `stand-in:` lines),
    or a deprecation warning that Foundry of the page's generation would log (`stand-in
    deprecation:`). Every page of a test plays the test's `generation`.
    """
    from playwright.sync_api import ConsoleMessage, Page, expect

    errors: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error" and message.text.startswith("stand-in:"):
            errors.append(message.text)
        if message.type == "warning" and message.text.startswith("stand-in deprecation:"):
            errors.append(message.text)

    def open_page(
        page: Page,
        *,
        user: str = "gm1",
        active: str | None = None,
        system: str | None = None,
        gm_token: str | None = GM_TOKEN,
        player_token: str | None = PLAYER_TOKEN,
        url: str | None = None,
        battle: str | None = None,
        tokens: int = 4,
        panel: bool = True,
        **extra: Any,
    ) -> Any:
        if active is not None and active != user and active not in foundry_server.world()["users"]:
            foundry_server.log_in(active)
        extra.setdefault("server", foundry_server.url)
        page.on("console", on_console)
        page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
        page.goto(
            standin_url(
                site,
                user=user,
                system=system,
                url=bridge.url if url is None else url,
                gmToken=gm_token,
                playerToken=player_token,
                battle=battle,
                tokens=tokens,
                generation=generation,
                **extra,
            )
        )
        delay = int(extra.get("readyDelay") or foundry_server.ready_delay * 1000)
        expect(page.locator("body")).to_have_attribute("data-ready", "1", timeout=5000 + delay)
        shown = page.locator("#background-battle-panel")
        if panel:
            page.click("button[data-tool='background-battle']")
            expect(shown).to_be_visible()
        return shown

    # a test that causes an error on purpose reads and clears `open_foundry.errors`
    setattr(open_page, "errors", errors)  # noqa: B010
    yield open_page
    assert errors == [], errors
