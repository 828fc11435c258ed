"""Live mode with a long battle (docs/web.md, "Live mode"): the bridge's `state` carries only the
log's last page (`log_from` > 0); the page asks for the older pages (`log_page`) and shows the
battle once its log is whole, with an event that came meanwhile applied once, at the end.

The real bridge serves the built page; the GM page's WebSocket passes through Playwright's
`route_web_socket`, which holds the bridge's first `log_page` answer back until an event has
been sent, so that the event surely arrives while the older pages are still coming.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from bridge_gm import BridgeGM, started_battle
from live_pages import GM_TOKEN, PLAYER_TOKEN, Bridge, open_live, wait_version
from playwright.sync_api import BrowserContext, Page, WebSocketRoute, expect

LENGTH = 1100  # log entries: the state carries the last 500, the pages 1..500 and 501..600
# Started (players are told of a battle once it is), then renamed to "n4", "n5", … "n1100".
UNITS = {"dwarves": ("allies", 10, 30, []), "orcs": ("enemies", 12, 26, [])}
FIRST = ["add_unit", "add_unit", "start"]
RENAMES = [{"type": "rename", "name": f"n{n}"} for n in range(len(FIRST) + 1, LENGTH + 1)]


@pytest.fixture
def long_bridge(tmp_path: Path, site: Path) -> Iterator[Bridge]:
    """The bridge serving the page, holding "ambush" with LENGTH entries."""
    running = Bridge(tmp_path / "bridge-data", site, "--sync", "normal", "--burst", "5000")
    running.start()
    gm = BridgeGM(f"ws://127.0.0.1:{running.port}/ws", GM_TOKEN)
    started_battle(gm, "ambush", UNITS)
    gm.commands("ambush", RENAMES)
    gm.close()
    yield running
    running.stop()


class HeldPages:
    """The page's WebSocket through Playwright: log_page answers wait until `release()`."""

    def __init__(self) -> None:
        self.asked: list[tuple[int, int]] = []
        self.held: list[str | bytes] = []
        self.events = 0  # `event`s passed to the page
        self.released = False
        self.route: WebSocketRoute | None = None

    def __call__(self, route: WebSocketRoute) -> None:
        self.route = route
        server = route.connect_to_server()

        def to_bridge(message: str | bytes) -> None:
            frame: dict[str, Any] = json.loads(message)
            if frame["type"] == "log_page":
                self.asked.append((frame["since_version"], frame["until_version"]))
            server.send(message)

        def to_page(message: str | bytes) -> None:
            kind = json.loads(message)["type"]
            if not self.released and kind == "log_page":
                self.held.append(message)
                return
            self.events += kind == "event"
            route.send(message)

        route.on_message(to_bridge)
        server.on_message(to_page)

    def release(self) -> None:
        assert self.route is not None
        self.released = True
        for message in self.held:
            self.route.send(message)


def until(page: Page, done: Callable[[], object]) -> None:
    """Lets the page run (and the route's handlers with it) until `done()`, for at most 60 s."""
    for _ in range(1200):
        if done():
            return
        page.wait_for_timeout(50)
    raise AssertionError("waited 60 s")


def names(page: Page) -> list[str]:
    """The log's commands: the first ones' types, then the renames' names."""
    log: list[dict[str, Any]] = page.evaluate("window.backgroundBattle.live.view.log")
    first = [entry["command"]["type"] for entry in log[: len(FIRST)]]
    return first + [entry["command"]["name"] for entry in log[len(FIRST) :]]


WHOLE = [*FIRST, *(f"n{n}" for n in range(len(FIRST) + 1, LENGTH + 2))]


def test_a_long_battle_is_shown_with_its_whole_log_and_the_event_that_came_meanwhile(
    long_bridge: Bridge, contexts: list[BrowserContext]
) -> None:
    gm_ctx, player_ctx, _ = contexts
    pages = HeldPages()
    gm_ctx.route_web_socket(re.compile(r"/ws$"), pages)
    gm = open_live(gm_ctx, f"{long_bridge.url}#token={GM_TOKEN}")
    # The only battle is followed at once; its first older page is asked for and held back.
    until(gm, lambda: pages.held)
    assert pages.asked == [(0, LENGTH - 500)]
    ack = long_bridge.command("ambush", {"type": "rename", "name": f"n{LENGTH + 1}"})
    assert (ack["type"], ack["version"]) == ("ack", LENGTH + 1)
    until(gm, lambda: pages.events)  # the event is in the page, the battle not shown yet
    assert gm.evaluate("window.backgroundBattle.live.view") is None
    pages.release()
    wait_version(gm, LENGTH + 1)
    assert pages.asked == [(0, LENGTH - 500), (500, LENGTH - 500)]
    assert names(gm) == WHOLE
    expect(gm.locator("#log > li")).to_have_count(LENGTH + 1)
    assert gm.page_errors == []  # type: ignore[attr-defined]

    # A player's page (no route in between) gets the same log, as a player sees it.
    player = open_live(player_ctx, f"{long_bridge.url}#token={PLAYER_TOKEN}")
    wait_version(player, LENGTH + 1)
    assert names(player) == WHOLE
    assert player.page_errors == []  # type: ignore[attr-defined]
