"""The Foundry module's real files in Firefox ESR (Debian's, over WebDriver BiDi), on the stand-in
page against the real bridge: the module loads and connects, a battle is set up from the panel,
two rounds are fought with typed rolls, and Apply marks the tokens as the casualties say.

The same path as test_module_in_browser.py's Chromium tests (a GM's Foundry is often Firefox);
the steps speak to a tab of tests/support/engines.py rather than to Playwright, which cannot
drive Debian's Firefox."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest
from bridge_process import BridgeProcess
from engines import Browser, Tab, launch, wait
from foundry_server import FoundryServer
from foundry_steps import GENERATIONS

pytestmark = pytest.mark.timeout(300)

PANEL = "#background-battle-panel"


@pytest.fixture(scope="module")
def firefox() -> Iterator[Browser]:
    browser = launch("firefox")
    yield browser
    browser.close()


def attribute(tab: Tab, selector: str, name: str) -> Any:
    return tab.evaluate(
        "(s, n) => document.querySelector(s)?.getAttribute(n) ?? null", selector, name
    )


def wait_attribute(tab: Tab, selector: str, name: str, value: str) -> None:
    wait(
        tab,
        "(s, n, v) => document.querySelector(s)?.getAttribute(n) === v",
        selector,
        name,
        value,
        what=f"{selector} {name}={value}",
    )


def choose(tab: Tab, selector: str, value: str) -> None:
    """A choice in a <select>, as a user's pick sends it (input and change)."""
    tab.evaluate(
        """(s, v) => {
          const select = document.querySelector(s);
          select.value = v;
          for (const kind of ["input", "change"])
            select.dispatchEvent(new Event(kind, { bubbles: true }));
        }""",
        selector,
        value,
    )


def new_unit(
    tab: Tab, tokens: list[str], name: str, side: str, strength: int, heads: int = 0
) -> None:
    """A unit made from the selected tokens (one token for ``heads`` fighters when given)."""
    tab.evaluate("(ids) => StandIn.select(ids)", tokens)
    tab.type(f"{PANEL} [name=unitName]", name)
    choose(tab, f"{PANEL} [name=unitSide]", side)
    tab.type(f"{PANEL} [name=unitStrength]", str(strength))
    if heads:
        tab.click(f"{PANEL} [name=oneForMany]")
        tab.type(f"{PANEL} [name=headCount]", str(heads))
    tab.click(f"{PANEL} [data-action=newUnit]")
    wait(
        tab,
        """(name, count) => [...document.querySelectorAll(".bb-unit")].some((row) =>
             row.textContent.includes(name) &&
             row.querySelector(".bb-unit-tokens")?.dataset.count === String(count))""",
        name,
        len(tokens),
        what=f"the unit {name} with its tokens",
    )
    # the bridge's token list can come before the action's own end, which clears the form
    wait(tab, "() => !game.modules.get('background-battle').api.app.pending")


UNIT_ROW = """(name) => [...document.querySelectorAll("#background-battle-panel .bb-unit")]
  .find((row) => row.textContent.includes(name))"""


@pytest.mark.parametrize("generation", GENERATIONS)
def test_the_module_loads_fights_a_round_and_applies_in_firefox(
    firefox: Browser,
    site: str,
    bridge: BridgeProcess,
    foundry_server: FoundryServer,
    generation: int,
) -> None:
    firefox.errors.clear()
    firefox.console.clear()
    tab = firefox.tab()
    try:
        query = {
            "user": "gm1",
            "url": f"ws://127.0.0.1:{bridge.port}/ws",
            "gmToken": bridge.gm_token,
            "playerToken": bridge.player_token,
            "tokens": 4,
            "generation": generation,
            "server": foundry_server.url,
        }
        tab.goto(f"{site}/tests/foundry/standin/index.html?{urlencode(query)}")
        wait_attribute(tab, "body", "data-ready", "1")
        tab.click("button[data-tool='background-battle']")
        wait_attribute(tab, f"{PANEL} .bb-status", "data-state", "open")

        tab.type(f"{PANEL} [name=newBattle]", "ambush")
        tab.click(f"{PANEL} [data-action=createBattle]")
        wait_attribute(tab, f"{PANEL} .bb-phase", "data-status", "setup")
        new_unit(tab, ["tok1", "tok2", "tok3"], "Dwarves", "allies", 30)
        new_unit(tab, ["tok4"], "Orcs", "enemies", 60, heads=10)
        tab.click(f"{PANEL} [data-action=start]")
        wait_attribute(tab, f"{PANEL} .bb-phase", "data-status", "fighting")

        for round_number in (1, 2):  # the allies fail, the enemies succeed
            tab.type(f"{PANEL} [name=rollAllies]", "95")
            tab.type(f"{PANEL} [name=rollEnemies]", "5")
            tab.click(f"{PANEL} [data-action=roundRolls]")
            wait_attribute(tab, f"{PANEL} .bb-phase", "data-round", str(round_number))
        tab.click(f"{PANEL} [data-action=endBattle]")
        wait_attribute(tab, f"{PANEL} .bb-phase", "data-status", "ended")

        unit = tab.evaluate(f"(name) => ({UNIT_ROW})(name).dataset.unit", "Dwarves")
        dwarves = f'{PANEL} .bb-unit[data-unit="{unit}"]'
        fates = {
            fate: int(attribute(tab, f"{dwarves} .bb-casualties", f"data-{fate}"))
            for fate in ("killed", "wounded", "fit")
        }
        assert sum(fates.values()) == 3 and fates["killed"] + fates["wounded"] > 0, fates
        tab.click(f"{dwarves} [data-action=applyUnit]")
        wait(tab, "(s) => document.querySelector(s) !== null", f"{dwarves} .bb-applied")
        soldiers = tab.evaluate("() => StandIn.tokens().slice(0, 3).map((t) => t.statuses)")
        assert sum("dead" in s for s in soldiers) == fates["killed"]
        assert sum("unconscious" in s for s in soldiers) == fates["wounded"]
        assert sum(not {"dead", "unconscious"} & set(s) for s in soldiers) == fates["fit"]

        tab.evaluate("() => null")  # every event sent before now is read
        stand_in = [
            text
            for level, text in firefox.console
            if text.startswith(("stand-in:", "stand-in deprecation:"))
            and level in ("error", "warn")
        ]
        assert (firefox.errors, stand_in) == ([], [])
    finally:
        tab.close()
