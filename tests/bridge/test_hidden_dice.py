"""Issue 26, 3: a hidden side's dice are hidden in every message a player gets.

With the enemies' strength hidden, their leader's test (Leadership, roll, success, SL, bonus)
and their Influence roll and total are `null` (named in `redacted`) in `event`, `events`,
`log_page` and `state`: each would give the strength away (Leadership and roll give the SL, the
SL the bonus; the roll gives the total, and the total the strengths). The allies' stay shown.
"""

from __future__ import annotations

from typing import Any

from bridge_helpers import STARTING, Peer, Running

LEADER = {"type": "leader_command", "side": "enemies", "leadership": 47, "roll": 73}
TYPED_SL = {"type": "leader_command", "side": "enemies", "sl": 2, "success": True}
INFLUENCE = {"type": "roll_influence", "side": "enemies", "roll": 40}
SHOWN_LEADER = {"type": "leader_command", "side": "allies", "leadership": 47, "roll": 93}
COMMANDS = (LEADER, INFLUENCE, TYPED_SL, SHOWN_LEADER)

# The hidden side's fields, in the command and in its event, as the player must get them.
HIDDEN = {
    "leader_command": (
        {"leadership", "roll"},
        {"leadership", "roll", "success", "sl", "bonus", "strength_for_next_test"},
    ),
    "roll_influence": ({"roll"}, {"roll", "modifier", "total", "band"}),
}
HIDDEN_TYPED_SL = ({"sl", "success"}, {"success", "sl", "bonus", "strength_for_next_test"})


def assert_hidden(entry: dict[str, Any]) -> None:
    """An entry of the enemies' is blank in every field that gives their dice away; the allies'
    is whole."""
    command, event = entry["command"], entry["events"][0]
    if command["side"] == "allies":
        assert (command["leadership"], command["roll"]) == (47, 93)
        assert (event["roll"], event["success"], event["sl"]) == (93, False, -5)
        assert "redacted" not in event
        return
    in_command, in_event = HIDDEN_TYPED_SL if "sl" in command else HIDDEN[command["type"]]
    for data, fields in ((command, in_command), (event, in_event)):
        assert {key: data[key] for key in fields} == dict.fromkeys(fields), data
        assert set(data["redacted"]) == fields, data


async def battle_with_hidden_dice(running: Running) -> Peer:
    gm = await running.gm()
    await gm.create("ambush")
    for command in STARTING:
        await gm.command("ambush", command)
    return gm


async def test_a_player_live_gets_no_hidden_die_in_event_nor_in_state(running: Running) -> None:
    gm = await battle_with_hidden_dice(running)
    player = await running.player(battle="ambush")
    await player.until("state")
    for command in COMMANDS:
        assert (await gm.command("ambush", command))["type"] == "ack"
        seen = await player.until("event")
        assert_hidden({"command": seen["command"], "events": seen["events"]})
    state = await player.ask({"type": "subscribe", "battle": "ambush"}, "state")
    entries = state["view"]["log"][-len(COMMANDS) :]
    assert [e["command"]["type"] for e in entries] == [c["type"] for c in COMMANDS]
    for entry in entries:
        assert_hidden(entry)


async def test_a_player_catching_up_gets_no_hidden_die_in_events_nor_log_page(
    running: Running,
) -> None:
    gm = await battle_with_hidden_dice(running)
    for command in COMMANDS:
        assert (await gm.command("ambush", command))["type"] == "ack"
    since = 3  # after the set-up: the four commands are missed
    player = await running.player(battle="ambush", since_version=since)
    caught_up = await player.recv()
    assert caught_up["type"] == "events"
    assert len(caught_up["entries"]) == len(COMMANDS)
    for entry in caught_up["entries"]:
        assert_hidden(entry)
    page = await player.ask(
        {"type": "log_page", "id": "p1", "battle": "ambush", "since_version": since}, "log_page"
    )
    assert len(page["entries"]) == len(COMMANDS)
    for entry in page["entries"]:
        assert_hidden(entry)
    # the GM sees every die
    gm_page = await gm.ask(
        {"type": "log_page", "id": "p2", "battle": "ambush", "since_version": since}, "log_page"
    )
    assert gm_page["entries"][0]["events"][0]["roll"] == 73
    assert gm_page["entries"][1]["events"][0]["total"] is not None
