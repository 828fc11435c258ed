"""The reproductions of issue 10: each one is now a clear refusal, the connection lives, and the
battle is unchanged and readable by GMs and players, also after a restart."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from bridge_helpers import ORCS, PLAYER, STARTING, Peer, Running, StartBridge, started

from background_battle_bridge.storage import SqliteStorage


def strict_json(frame: str) -> Any:
    """JSON as Node's `JSON.parse` reads it: no NaN, no Infinity."""

    def refuse(name: str) -> Any:
        raise ValueError(f"{name} is not JSON")

    return json.loads(frame, parse_constant=refuse)


async def raw(peer: Peer, frame: str) -> dict[str, Any]:
    """Send a frame exactly as written (escapes and all); the answer to it."""
    await peer.ws.send(frame)
    return await peer.recv()


async def readable(running: Running, version: int) -> None:
    """A GM and a player can still open the battle, and it is at `version`."""
    for peer in (await running.gm(client="web"), await running.player()):
        await peer.send({"type": "subscribe", "battle": "ambush"})
        state = strict_json(await peer.ws.recv())
        assert (state["type"], state["version"]) == ("state", version)
        json.dumps(state, ensure_ascii=False).encode()  # every text valid Unicode


async def alive(peer: Peer) -> None:
    assert (await peer.ask({"type": "ping", "data": "still here"}))["data"] == "still here"


POISON = [  # (frame, code, field): what broke a battle or a connection before
    (
        '{"type":"command","id":"p1","battle":"ambush","command":'
        '{"type":"add_unit","name":"Orc\\udc00","side":"enemies","fighters":3,"strength":9}}',
        "bad_text",
        "name",  # a field of a command's body: named as the core names it
    ),
    (
        '{"type":"command","id":"p2","battle":"ambush","command":'
        '{"type":"rename","name":"x","extra":NaN}}',
        "bad_json",
        None,
    ),
    (
        '{"type":"command","id":"p3","battle":"ambush","command":'
        '{"type":"rename","name":"x","extra":1}}',
        "unknown_field",
        "extra",
    ),
    (
        '{"type":"command","id":"p4","battle":"ambush","command":'
        '{"type":"rename","name":"x","extra":' + "[" * 900 + "]" * 900 + "}}",
        "too_deep",
        None,
    ),
    (
        '{"type":"command","id":"p5","battle":"ambush","command":'
        '{"type":"rename","name":"x","extra":' + "[" * 20 + "]" * 20 + "}}",
        None,
        None,
    ),
    ('{"type":"ping","id":"p6","data":"\\ud800"}', "bad_text", "data"),
    ('{"type":"subscribe","id":"p7","battle":"amb\\ud800"}', "bad_text", "battle"),
    (
        '{"type":"tokens","id":"p8","battle":"ambush","unit":"u1","token_ids":["t\\udfff"]}',
        "bad_text",
        "token_ids[0]",
    ),
]


@pytest.mark.parametrize(("frame", "code", "field"), POISON)
async def test_a_poisoned_frame_is_refused_and_the_battle_stays_readable(
    start_bridge: StartBridge, tmp_path: Path, frame: str, code: str | None, field: str | None
) -> None:
    path = tmp_path / "battles.sqlite3"
    first = await start_bridge(SqliteStorage(path))
    gm = await first.gm()
    await started(gm)
    player = await first.player(battle="ambush")
    await player.until("state")

    error = await raw(gm, frame)
    assert error["type"] == "error", error
    if code is not None:
        assert error["code"] == code, error
    else:  # deeper than the core allows, within the bridge's own bound
        assert error["code"] in ("too_deep", "unknown_field"), error
    if field is not None:
        assert error["field"] == field
    if error["code"] != "bad_json":  # a frame that is not JSON has no id to echo
        assert error["id"] == frame.split('"id":"', 1)[1].split('"', 1)[0]
    assert "internal" not in error["code"]
    await alive(gm)
    assert first.bridge.hub.rooms["ambush"].version == 3
    await readable(first, 3)
    # the player saw nothing happen
    await alive(player)
    await first.stack.aclose()

    second = await start_bridge(SqliteStorage(path))
    assert second.bridge.hub.rooms["ambush"].version == 3
    await readable(second, 3)
    gm = await second.gm()
    ack = await gm.command("ambush", {"type": "rename", "name": "Orc"})
    assert ack["version"] == 4


async def test_a_valid_pair_of_surrogate_escapes_is_a_character(running: Running) -> None:
    gm = await running.gm()
    await gm.create("ambush")
    frame = (
        '{"type":"command","id":"e1","battle":"ambush",'
        '"command":{"type":"rename","name":"Orc \\ud83d\\udc79"}}'
    )
    await gm.ws.send(frame)
    ack = await gm.until("ack")
    assert ack["version"] == 1
    assert running.bridge.hub.rooms["ambush"].battle.name == "Orc \U0001f479"


async def test_with_a_player_watching_a_refused_command_changes_nothing(running: Running) -> None:
    gm = await running.gm()
    await started(gm)
    player = await running.player(battle="ambush")
    await player.until("state")
    refused = await gm.command(
        "ambush", {"type": "rename", "name": "x", "deep": [[[[[[[[[]]]]]]]]]}
    )
    assert refused["type"] == "error" and refused["code"] != "internal"
    assert running.bridge.hub.rooms["ambush"].version == 3
    await gm.command("ambush", {"type": "rename", "name": "y"})
    event = await player.until("event")
    assert event["version"] == 4  # the next event is the next version: nothing in between


async def test_an_id_reused_for_another_request_is_refused_not_acknowledged(
    running: Running,
) -> None:
    gm = await running.gm()
    await gm.create("ambush")
    first = await gm.command("ambush", ORCS, id="same")
    other = await gm.command("ambush", {"type": "rename", "name": "x"}, id="same")
    assert (other["type"], other["code"], other["field"], other["id"]) == (
        "error",
        "id_reused",
        "id",
        "same",
    )
    assert other["params"] == {"version": first["version"]}
    assert running.bridge.hub.rooms["ambush"].version == 1
    # the same body again is the duplicate it always was, whatever expected_version says
    again = await gm.command("ambush", ORCS, id="same", expected_version=1)
    assert again == {**first, "duplicate": True}


async def test_a_long_battle_reaches_a_default_client_in_pages_under_the_limit(
    start_bridge: StartBridge,
) -> None:
    running = await start_bridge(rate=10_000.0, burst=10_000.0)
    gm = await running.gm()
    await gm.create("ambush")
    # big entries: 150 of about 10 kB each, 1.5 MB of log, more than a default client takes
    modifiers = [{"name": f"m{i:02d}" + "x" * 150, "percent": 1} for i in range(40)]
    for n in range(150):
        command = {"type": "set_modifiers", "side": "allies", "modifiers": modifiers[n % 2 :]}
        await gm.send({"type": "command", "id": f"m{n}", "battle": "ambush", "command": command})
    while (await gm.recv()).get("id") != "m149":
        pass
    shown = {"type": "set_hidden", "hidden": []}  # the player's log is then the GM's
    for command in (shown, *STARTING):  # started: a player is told of it
        await gm.command("ambush", command)
    reader = await running.peer()  # websockets' default max_size: 1 MiB
    welcome = await reader.hello(PLAYER, "web")
    limit = welcome["limits"]["max_message"]
    await reader.send({"type": "subscribe", "battle": "ambush"})
    frame = await reader.ws.recv()
    assert len(frame.encode()) <= limit
    state = json.loads(frame)
    assert state["version"] == 154 and 0 < state["log_from"] < 154
    log = state["view"]["log"]
    since, pages = 0, []
    while since < state["log_from"]:
        await reader.send({"type": "log_page", "battle": "ambush", "since_version": since})
        frame = await reader.ws.recv()
        assert len(frame.encode()) <= limit
        page = json.loads(frame)
        assert page["since_version"] == since and page["until_version"] > since
        pages += page["entries"][: state["log_from"] - since]
        since = page["until_version"]
    whole = pages + log
    room = running.bridge.hub.rooms["ambush"]
    assert [entry["command"] for entry in whole] == [entry.command for entry in room.battle.log]


async def test_every_bad_field_of_a_command_is_named_in_one_refusal(
    start_bridge: StartBridge,
) -> None:
    running = await start_bridge()
    gm = await running.gm()
    await gm.create("ambush")
    bad = {"type": "add_unit", "name": "", "side": "enemies", "fighters": 0, "strength": 9}
    error = await gm.command("ambush", bad)
    assert error["type"] == "error", error
    fields = [error["field"], *(other["field"] for other in error["others"])]
    assert fields == ["name", "fighters"], error
    assert all(set(other) == {"code", "field", "message", "params"} for other in error["others"])
    assert "1" in error["others"][0]["message"]  # the accepted range is named
    assert running.bridge.hub.rooms["ambush"].version == 0
    one = await gm.command("ambush", {**bad, "name": "Orcs"})
    assert "others" not in one and one["field"] == "fighters", one
