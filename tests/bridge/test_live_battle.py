"""Commands, events and views: everyone in step, retries applied once, reconnects catch up."""

from __future__ import annotations

import pytest
from bridge_helpers import DWARVES, GM, ORCS, Running


async def test_two_clients_see_each_others_changes(running: Running) -> None:
    first = await running.gm()
    second = await running.gm(client="web")
    await first.create("ambush")
    await first.ask({"type": "subscribe", "battle": "ambush"}, "state")
    await second.ask({"type": "subscribe", "battle": "ambush"}, "state")

    ack = await first.command("ambush", ORCS)
    assert (ack["type"], ack["version"]) == ("ack", 1)
    seen = await second.until("event")
    assert (seen["battle"], seen["version"]) == ("ambush", 1)
    assert seen["events"][0]["type"] == "unit_added"
    assert seen["view"]["units"][0]["fighters"] == 12
    assert "log" not in seen["view"]

    ack = await second.command("ambush", DWARVES)
    assert ack["version"] == 2
    seen = await first.until("event")
    assert seen["version"] == 2 and seen["command"]["name"] == "Dwarves"


async def test_the_sender_gets_the_event_before_its_ack(running: Running) -> None:
    gm = await running.gm()
    await gm.create("ambush")
    await gm.ask({"type": "subscribe", "battle": "ambush"}, "state")
    await gm.send({"type": "command", "id": "a1", "battle": "ambush", "command": ORCS})
    assert [(await gm.recv())["type"], (await gm.recv())["type"]] == ["event", "ack"]


async def test_player_view_hides_enemy_strength_and_head_count(running: Running) -> None:
    gm = await running.gm()
    await gm.create("ambush")
    for command in (ORCS, DWARVES, {"type": "start"}):
        await gm.command("ambush", command)
    player = await running.player()
    state = await player.ask({"type": "subscribe", "battle": "ambush"}, "state")
    orcs, dwarves = state["view"]["units"]
    assert (orcs["fighters"], orcs["strength"]) == (None, None)
    assert (dwarves["fighters"], dwarves["strength"]) == (10, 30)
    added = state["view"]["log"][0]
    assert added["command"]["fighters"] is None and added["command"]["strength"] is None
    assert added["events"][0]["unit"]["fighters"] is None
    assert state["view"]["sides"]["enemies"]["units_strength"] is None
    assert "foundry" not in state
    # the GM lifts the veil: the players see the numbers from then on
    await gm.command("ambush", {"type": "set_hidden", "hidden": []})
    shown = await player.until("event")
    assert shown["view"]["units"][0]["fighters"] == 12


async def test_a_retried_id_is_applied_once(running: Running) -> None:
    gm = await running.gm()
    await gm.create("ambush")
    first = await gm.command("ambush", ORCS, id="same")
    again = await gm.command("ambush", ORCS, id="same")
    assert first == {"type": "ack", "id": "same", "battle": "ambush", "version": 1}
    assert again == {**first, "duplicate": True}
    assert running.bridge.hub.rooms["ambush"].version == 1
    # a refused command is not remembered: its id may be used again
    refused = await gm.command("ambush", {**DWARVES, "fighters": -1}, id="fix-me")
    assert refused["code"] == "out_of_range"
    fixed = await gm.command("ambush", DWARVES, id="fix-me")
    assert (fixed["type"], fixed["version"]) == ("ack", 2)


async def test_a_retried_create_is_applied_once(running: Running) -> None:
    gm = await running.gm()
    assert (await gm.command("ambush", {"type": "create_battle"}, id="c1"))["type"] == "ack"
    again = await gm.command("ambush", {"type": "create_battle"}, id="c1")
    assert again.get("duplicate") is True
    other = await gm.command("ambush", {"type": "create_battle"}, id="another")
    assert (other["code"], other["field"]) == ("battle_exists", "battle")


async def test_stale_expected_version_is_refused_with_the_current_one(running: Running) -> None:
    gm = await running.gm()
    await gm.create("ambush")
    assert (await gm.command("ambush", ORCS, expected_version=0))["version"] == 1
    stale = await gm.command("ambush", DWARVES, expected_version=0)
    assert (stale["code"], stale["field"], stale["version"]) == (
        "stale_version",
        "expected_version",
        1,
    )
    assert stale["params"] == {"version": 1, "expected_version": 0}
    assert running.bridge.hub.rooms["ambush"].version == 1
    assert (await gm.command("ambush", DWARVES, expected_version=1))["version"] == 2
    created = await gm.command("new", {"type": "create_battle"}, expected_version=3)
    assert created["code"] == "stale_version"


async def test_reconnect_with_since_version_gets_only_what_was_missed(running: Running) -> None:
    gm = await running.gm()
    await gm.create("ambush")
    await gm.command("ambush", ORCS)
    await gm.command("ambush", DWARVES)
    await gm.command("ambush", {"type": "rename", "name": "Ambush at the ford"})
    back = await running.peer()
    await back.hello(GM, "web", battle="ambush", since_version=1)
    caught_up = await back.recv()
    assert caught_up["type"] == "events"
    assert (caught_up["since_version"], caught_up["version"]) == (1, 3)
    assert [e["command"]["type"] for e in caught_up["entries"]] == ["add_unit", "rename"]
    assert caught_up["view"]["name"] == "Ambush at the ford"
    up_to_date = await back.ask({"type": "subscribe", "battle": "ambush", "since_version": 3})
    assert (up_to_date["type"], up_to_date["entries"]) == ("events", [])
    await gm.command("ambush", {"type": "rename", "name": "Ford"})
    assert (await back.until("event"))["version"] == 4


async def test_catch_up_hides_for_players_too(running: Running) -> None:
    gm = await running.gm()
    await gm.create("ambush")
    for command in (ORCS, DWARVES, {"type": "start"}):
        await gm.command("ambush", command)
    player = await running.player(battle="ambush", since_version=0)
    caught_up = await player.recv()
    assert caught_up["entries"][0]["command"]["fighters"] is None


async def test_since_version_from_the_future_is_refused(running: Running) -> None:
    gm = await running.gm()
    await gm.create("ambush")
    error = await gm.ask({"type": "subscribe", "battle": "ambush", "since_version": 5})
    assert (error["code"], error["field"], error["version"]) == (
        "out_of_range",
        "since_version",
        0,
    )


async def test_a_long_gap_gets_the_whole_state(
    running: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("background_battle_bridge.protocol.LOG_PAGE", 2)
    gm = await running.gm()
    await gm.create("ambush")
    for name in "abc":
        await gm.command("ambush", {"type": "rename", "name": name})
    reply = await gm.ask({"type": "subscribe", "battle": "ambush", "since_version": 0})
    assert (reply["type"], reply["version"]) == ("state", 3)
    # the state carries the last page of the log; the pages before it are asked for
    assert reply["log_from"] == 1
    assert [e["command"]["name"] for e in reply["view"]["log"]] == ["b", "c"]
    page = await gm.ask({"type": "log_page", "id": "p1", "battle": "ambush", "since_version": 0})
    assert (page["type"], page["id"], page["since_version"], page["until_version"]) == (
        "log_page",
        "p1",
        0,
        2,
    )
    assert [e["command"]["name"] for e in page["entries"]] == ["a", "b"]


async def test_rolls_happen_once_in_the_core_and_reach_everyone(running: Running) -> None:
    gm = await running.gm()
    watcher = await running.gm(client="web")
    await gm.create("ambush")
    await watcher.ask({"type": "subscribe", "battle": "ambush"}, "state")
    for command in (ORCS, DWARVES, {"type": "start"}):
        await gm.command("ambush", command)
    ack = await gm.command("ambush", {"type": "resolve_round", "mode": "auto"})
    assert ack["version"] == 4
    events = [await watcher.until("event") for _ in range(4)]
    round_event = events[-1]["events"][0]
    assert round_event["type"] == "round_resolved"
    room = running.bridge.hub.rooms["ambush"]
    assert room.battle.log[-1].to_dict()["events"][0] == round_event


async def test_create_and_archive_are_announced_to_every_gm(running: Running) -> None:
    gm = await running.gm()
    bystander = await running.gm(client="web")
    await gm.create("ambush")
    listed = await bystander.recv()
    assert listed == {
        "type": "battles",
        "battles": [{"name": "ambush", "version": 0, "status": "setup", "archived": False}],
    }
    await gm.command("ambush", {"type": "archive_battle"})
    assert (await bystander.recv())["battles"] == []


async def test_an_archived_battle_is_readable_but_takes_no_commands(running: Running) -> None:
    gm = await running.gm()
    await gm.create("ambush")
    await gm.command("ambush", ORCS)
    archived = await gm.command("ambush", {"type": "archive_battle"}, id="arch")
    assert (archived["type"], archived["version"]) == ("ack", 1)
    refused = await gm.command("ambush", DWARVES)
    assert (refused["code"], refused["field"]) == ("archived", "battle")
    again = await gm.command("ambush", {"type": "archive_battle"}, id="arch")
    assert again.get("duplicate") is True
    state = await gm.ask({"type": "subscribe", "battle": "ambush"}, "state")
    assert state["archived"] is True and state["version"] == 1
    reused = await gm.create("ambush")
    assert reused["code"] == "battle_exists" and "archived" in reused["message"]


async def test_battle_status_changes_are_announced(running: Running) -> None:
    gm = await running.gm()
    await gm.create("ambush")
    await gm.command("ambush", ORCS)
    await gm.command("ambush", DWARVES)
    await gm.send({"type": "command", "id": "go", "battle": "ambush", "command": {"type": "start"}})
    listed = await gm.until("battles")
    assert listed["battles"][0]["status"] == "fighting"


async def test_a_battle_created_and_commanded_without_waiting(running: Running) -> None:
    gm = await running.gm()
    await gm.send(
        {"type": "command", "id": "c", "battle": "x", "command": {"type": "create_battle"}}
    )
    for n, command in enumerate(
        [ORCS, DWARVES, {"type": "start"}, {"type": "end_battle", "winner": "allies"}]
    ):
        await gm.send({"type": "command", "id": f"s{n}", "battle": "x", "command": command})
    await gm.send({"type": "subscribe", "id": "w", "battle": "x"})
    replies = [await gm.until("ack") for _ in range(5)]
    assert [reply["version"] for reply in replies] == [0, 1, 2, 3, 4]
    state = await gm.until("state")
    assert state["id"] == "w" and state["version"] == 4
