"""Issues 26 and 27: a share as a GM types it reaches the core through the bridge and is read
there (`0,5`, `50 %` are one half, kept as "1/2"); a number no share can be is refused by field
at once, whatever its length (it took 58 s for "1e30000000", and "1e-5000" was `internal`)."""

from __future__ import annotations

import pytest
from bridge_helpers import STARTING, Running


@pytest.mark.parametrize("typed", ["0,5", "50 %", "50%", "1/2", "0.5"])
async def test_a_half_however_typed_is_kept_as_one_half(running: Running, typed: str) -> None:
    gm = await running.gm()
    await gm.create("ambush")
    for command in STARTING:
        await gm.command("ambush", command)
    watcher = await running.player(battle="ambush")
    assert (await watcher.recv())["type"] == "state"
    ack = await gm.command("ambush", {"type": "pcs_won", "fleeing": typed})
    assert ack["type"] == "ack", ack
    event = await watcher.until("event")
    assert event["command"]["fleeing"] == "1/2"
    assert event["events"][0]["fleeing"] == "1/2"


async def test_numbers_no_share_can_be_are_refused_by_field_and_the_bridge_stays_quick(
    running: Running,
) -> None:
    gm = await running.gm()
    await gm.create("ambush")
    for command in STARTING:
        await gm.command("ambush", command)
    for typed in ("1e30000000", "1e-5000", "0.5e-4299", "9" * 50_000, "0." + "0" * 5000 + "1"):
        refused = await gm.command("ambush", {"type": "pcs_won", "fleeing": typed})
        assert (refused["type"], refused["code"]) == ("error", "not_number"), refused
        assert refused["field"].endswith("fleeing")
    player = await running.player(battle="ambush")
    assert (await player.recv())["type"] == "state"
    assert running.bridge.hub.rooms["ambush"].version == len(STARTING)
