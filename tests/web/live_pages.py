"""The real bridge serving the built page, and the pages that follow it (the live-mode tests)."""

from __future__ import annotations

import json
from pathlib import Path

from bridge_process import BridgeProcess
from playwright.sync_api import Browser, BrowserContext, Page
from websockets.sync.client import connect

GM_TOKEN = "gm-token-for-live-tests-0123"
PLAYER_TOKEN = "player-token-for-live-tests-0123"
LIVE_TIMEOUT_MS = 60_000


class Bridge(BridgeProcess):
    """The real bridge serving web/dist; `stop()` then `start()` keeps its port and its data."""

    def __init__(self, data: Path, web: Path, *extra: str) -> None:
        super().__init__(data, GM_TOKEN, PLAYER_TOKEN, "--web", str(web), *extra)
        self.sent = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def command(self, battle: str, command: dict[str, object]) -> dict[str, object]:
        """One GM command from a script client (not a browser); returns its ack or error."""
        with connect(f"ws://127.0.0.1:{self.port}/ws", open_timeout=30) as ws:
            ws.send(json.dumps({"type": "hello", "token": GM_TOKEN, "client": "cli"}))
            json.loads(ws.recv(timeout=30))  # welcome
            self.sent += 1
            request: dict[str, object] = {"type": "command", "id": f"script-{self.sent}"}
            request["battle"] = battle
            request["command"] = command
            ws.send(json.dumps(request))
            while True:
                reply = json.loads(ws.recv(timeout=30))
                if reply["type"] in ("ack", "error"):
                    return reply  # type: ignore[no-any-return]


def one_battle_fighting(bridge: Bridge) -> None:
    """The only battle on the bridge: dwarves against orcs, started, made by a script."""
    assert bridge.command("ambush", {"type": "create_battle"})["type"] == "ack"
    for command in (
        {"type": "add_unit", "side": "allies", "name": "Dwarves", "fighters": 10, "strength": 30},
        {"type": "add_unit", "side": "enemies", "name": "Orcs", "fighters": 12, "strength": 26},
        {"type": "start"},
    ):
        assert bridge.command("ambush", command)["type"] == "ack"


def new_context(browser: Browser) -> BrowserContext:
    ctx = browser.new_context(locale="en-US", viewport={"width": 412, "height": 900})
    ctx.set_default_timeout(LIVE_TIMEOUT_MS)
    return ctx


def open_live(ctx: BrowserContext, url: str) -> Page:
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.page_errors = errors  # type: ignore[attr-defined]
    page.goto(url)
    return page


def wait_live(page: Page) -> None:
    page.wait_for_selector('html[data-live="live"]')


def wait_version(page: Page, wanted: int) -> None:
    page.wait_for_function(
        "v => Number(document.documentElement.dataset.version) === v"
        " && document.documentElement.dataset.liveBattle !== undefined",
        arg=wanted,
    )
