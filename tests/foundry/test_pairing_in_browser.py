"""A GM connects Foundry to the bridge by a code, in a real browser: the stand-in world at an
origin the bridge does not know (127.0.0.1 on a port of its own, not :30000), the real bridge
with the test's clock (no test waits two minutes), the module's own menu.

Every frame the page receives is recorded: no token reaches the page before the right code,
and none at all after three wrong codes or an expired one.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

import pytest
from bridge_thread import BridgeThread
from playwright.sync_api import Page, WebSocket, expect

from background_battle_bridge.guard import Tokens
from background_battle_bridge.origins import ORIGINS_FILE, Remembered

CODE = re.compile(r"Code: (\d{3} \d{3})")
GM_TOKEN = "gm-token-for-pairing-0123456789"
PLAYER_TOKEN = "player-token-for-pairing-0123456789"
MENU = "#background-battle-gm-menu"


class Clock:
    """The bridge's clock for codes: the test moves it."""

    def __init__(self) -> None:
        self.now = 10_000.0

    def __call__(self) -> float:
        return self.now


class PairingBridge(BridgeThread):
    """The real bridge (memory battles, remembered origins in `data`) in a thread of its own,
    allowing only its default origins, its codes on the test's clock."""

    def __init__(self, data: Path, clock: Clock, port: int = 0) -> None:
        super().__init__(data, Tokens(GM_TOKEN, PLAYER_TOKEN), clock=clock, port=port)

    def start(self) -> PairingBridge:
        super().start()
        return self

    def code(self) -> str:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            for line in reversed(self.said):
                found = CODE.search(line)
                if found:
                    return found.group(1)
            time.sleep(0.05)
        raise AssertionError(f"no code shown: {self.said}")


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def unknown_bridge(tmp_path: Path, clock: Clock) -> Iterator[PairingBridge]:
    """A bridge that allows only its defaults: the stand-in's origin is not among them."""
    running = PairingBridge(tmp_path / "data", clock).start()
    yield running
    running.stop()


class Frames:
    """Every WebSocket frame the page receives, by address, with a mark for `code_sent`."""

    def __init__(self, page: Page) -> None:
        self.received: list[tuple[str, str]] = []
        self.code_sent_at: int | None = None
        page.on("websocket", self._watch)

    def _watch(self, ws: WebSocket) -> None:
        url = ws.url
        ws.on("framereceived", lambda payload: self.received.append((url, str(payload))))

    def mark_code_sent(self) -> None:
        self.code_sent_at = len(self.received)

    def before_code(self) -> list[str]:
        return [p for _, p in self.received[: self.code_sent_at]]

    def all(self) -> list[str]:
        return [p for _, p in self.received]


def open_world(page: Page, site: str, bridge: PairingBridge) -> list[str]:
    """The stand-in world as the GM, no tokens set; the panel open. Returns the page's errors."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "console",
        lambda m: errors.append(m.text) if m.type == "error" and "stand-in:" in m.text else None,
    )
    query = urlencode({"user": "gm1", "active": "gm1", "url": bridge.url, "tokens": 2})
    page.goto(f"{site}/tests/foundry/standin/index.html?{query}")
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    page.click("button[data-tool='background-battle']")
    expect(page.locator("#background-battle-panel")).to_be_visible()
    return errors


def ask_for_a_code(page: Page, site: str) -> None:
    page.evaluate("StandIn.openMenu('background-battle.gmTokenMenu')")
    page.locator(f"{MENU} [data-action=pair]").click()
    expect(page.locator(f"{MENU} .bb-pair-said")).to_contain_text(f"a code for {site}")
    expect(page.locator(f"{MENU} [name=pairCode]")).to_be_visible()


def type_code(page: Page, frames: Frames, code: str) -> None:
    if frames.code_sent_at is None:
        frames.mark_code_sent()
    page.locator(f"{MENU} [name=pairCode]").fill(code)
    page.locator(f"{MENU} [data-action=sendCode]").click()


def no_token_in(frames: list[str]) -> bool:
    return not any(GM_TOKEN in f or PLAYER_TOKEN in f for f in frames)


def test_a_gm_connects_foundry_by_the_code_and_its_origin_is_remembered(
    page: Page, site: str, unknown_bridge: PairingBridge, clock: Clock, tmp_path: Path
) -> None:
    frames = Frames(page)
    errors = open_world(page, site, unknown_bridge)
    status = page.locator("#background-battle-panel .bb-status-text")
    expect(status).not_to_have_text("Connected (GM)")
    ask_for_a_code(page, site)
    # the bridge's terminal names the page asking and shows the code
    assert any(site in line and "asks to connect" in line for line in unknown_bridge.said)
    code = unknown_bridge.code()
    type_code(page, frames, code)
    expect(page.locator(f"{MENU} .bb-pair-said")).to_contain_text("Connected as GM")
    expect(status).to_have_text("Connected (GM)")
    assert no_token_in(frames.before_code())
    paired = [json.loads(f) for f in frames.all() if '"paired"' in f]
    assert paired == [
        {"type": "paired", "origin": site, "gm_token": GM_TOKEN, "player_token": PLAYER_TOKEN}
    ]
    assert page.evaluate(
        "[game.settings.get('background-battle', 'gmToken'),"
        " game.settings.get('background-battle', 'playerToken')]"
    ) == [GM_TOKEN, PLAYER_TOKEN]
    # remembered in the data folder: the bridge started again lets this Foundry in at once
    assert Remembered.load(tmp_path / "data").origins.keys() == {site}
    port = unknown_bridge.port
    unknown_bridge.stop()
    again = PairingBridge(tmp_path / "data", clock, port).start()
    try:
        page.reload()
        expect(page.locator("body")).to_have_attribute("data-ready", "1")
        page.click("button[data-tool='background-battle']")
        expect(status).to_have_text("Connected (GM)")
        assert again.said == []  # no code asked: the origin was remembered
    finally:
        again.stop()
    assert errors == []


def test_three_wrong_codes_end_the_attempt_and_give_nothing(
    page: Page, site: str, unknown_bridge: PairingBridge, tmp_path: Path
) -> None:
    frames = Frames(page)
    errors = open_world(page, site, unknown_bridge)
    ask_for_a_code(page, site)
    right = unknown_bridge.code()
    wrong = "000 000" if right != "000 000" else "111 111"
    said = page.locator(f"{MENU} .bb-pair-said")
    type_code(page, frames, wrong)
    expect(said).to_contain_text("tries left: 2")
    type_code(page, frames, wrong)
    expect(said).to_contain_text("tries left: 1")
    type_code(page, frames, wrong)
    expect(said).to_contain_text("Three wrong codes")
    expect(page.locator(f"{MENU} [name=pairCode]")).to_be_hidden()
    assert no_token_in(frames.all())
    assert not (tmp_path / "data" / ORIGINS_FILE).exists()
    assert page.evaluate("game.settings.get('background-battle', 'gmToken')") == ""
    expect(page.locator("#background-battle-panel .bb-status-text")).not_to_have_text(
        "Connected (GM)"
    )
    assert errors == []


def test_an_expired_code_is_refused_and_gives_nothing(
    page: Page, site: str, unknown_bridge: PairingBridge, clock: Clock, tmp_path: Path
) -> None:
    frames = Frames(page)
    errors = open_world(page, site, unknown_bridge)
    ask_for_a_code(page, site)
    code = unknown_bridge.code()
    clock.now += 121.0  # two minutes and a second later
    type_code(page, frames, code)
    expect(page.locator(f"{MENU} .bb-pair-said")).to_contain_text("The code expired")
    assert no_token_in(frames.all())
    assert not (tmp_path / "data" / ORIGINS_FILE).exists()
    assert errors == []


def test_the_menu_says_so_when_no_bridge_answers(page: Page, site: str, tmp_path: Path) -> None:
    gone = PairingBridge(tmp_path / "data", Clock()).start()
    gone.stop()  # its port now answers nothing
    errors = open_world(page, site, gone)
    page.evaluate("StandIn.openMenu('background-battle.gmTokenMenu')")
    page.locator(f"{MENU} [data-action=pair]").click()
    expect(page.locator(f"{MENU} .bb-pair-said")).to_contain_text("No bridge answers at")
    assert errors == [], errors
