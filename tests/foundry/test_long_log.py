"""The module's bridge client (foundry-module/client/bridge-client.mjs) completes a long
battle's log against the real bridge: the `state` carries only the last page (`log_from` > 0),
the client asks for the older pages and offers the state once it is whole."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bridge_gm import BridgeGM, started_battle
from bridge_process import BridgeProcess

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "tests" / "foundry" / "long_log_client.mjs"
GM_TOKEN = "gm-token-for-long-log-0123456789"
PLAYER_TOKEN = "player-token-for-long-log-0123456789"
LENGTH = 1200  # entries: more than two pages of 500
# Started (players are told of a battle once it is), then renamed to "n4", "n5", … "n1200".
UNITS = {"dwarves": ("allies", 10, 30, []), "orcs": ("enemies", 12, 26, [])}
FIRST = ["add_unit", "add_unit", "start"]


@pytest.fixture(scope="module")
def long_battle(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Any]]]:
    """A bridge holding "ambush", LENGTH entries long; yields its address and the GM's state."""
    data = tmp_path_factory.mktemp("long-log") / "bridge-data"
    bridge = BridgeProcess(
        data, GM_TOKEN, PLAYER_TOKEN, "--sync", "normal", "--rate", "5000", "--burst", "5000"
    )
    bridge.start()
    try:
        gm = BridgeGM(f"ws://127.0.0.1:{bridge.port}/ws", GM_TOKEN)
        started_battle(gm, "ambush", UNITS)
        renames = [{"type": "rename", "name": f"n{n}"} for n in range(len(FIRST) + 1, LENGTH + 1)]
        gm.commands("ambush", renames)
        state = gm.state("ambush")
        gm.close()
        yield f"ws://127.0.0.1:{bridge.port}/ws", state
    finally:
        bridge.stop()


def whole_state(url: str, token: str) -> dict[str, Any]:
    done = subprocess.run(
        ["node", "--experimental-websocket", "--no-warnings", str(CLIENT), url, token, "ambush"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


@pytest.mark.parametrize("token", [GM_TOKEN, PLAYER_TOKEN], ids=["gm", "player"])
def test_the_module_client_completes_a_long_log_page_by_page(
    long_battle: tuple[str, dict[str, Any]], token: str
) -> None:
    url, bounded = long_battle
    assert bounded["version"] == LENGTH
    assert bounded["log_from"] == LENGTH - 500  # the bridge sent the last page only
    whole = whole_state(url, token)
    assert (whole["announced"], whole["version"]) == (0, LENGTH)
    assert whole["pages"] == [[0, 500], [500, LENGTH - 500]]
    log = whole["log"]
    assert [entry["command"]["type"] for entry in log[: len(FIRST)]] == FIRST
    renamed = [entry["command"]["name"] for entry in log[len(FIRST) :]]
    assert renamed == [f"n{n}" for n in range(len(FIRST) + 1, LENGTH + 1)]
    assert log[-500:] == bounded["view"]["log"]  # the GM's last page as the bridge sent it
