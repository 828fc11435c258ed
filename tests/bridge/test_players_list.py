"""Players are told only of the battles the GM has started: lists, broadcasts and names."""

from __future__ import annotations

from typing import Any

from bridge_helpers import DWARVES, GM, ORCS, PLAYER, Peer, Running, started

START = {"type": "start"}


async def next_for(peer: Peer) -> dict[str, Any]:
    """The next message a peer was sent: a ping's `pong` when nothing was sent before it (the
    bridge answers in order, so a broadcast sent earlier arrives first)."""
    await peer.send({"type": "ping", "id": "probe"})
    return await peer.recv()


def listed(message: dict[str, Any]) -> list[tuple[str, str]]:
    return [(battle["name"], battle["status"]) for battle in message["battles"]]


async def test_a_player_hears_of_a_battle_only_once_it_starts(running: Running) -> None:
    gm = await running.gm()
    player = await running.player()
    await gm.create("ambush")
    await gm.command("ambush", ORCS)
    await gm.command("ambush", DWARVES)
    assert await next_for(player) == {"type": "pong", "id": "probe"}
    await gm.command("ambush", START)
    opened = await player.recv()
    assert opened["type"] == "battles" and listed(opened) == [("ambush", "fighting")]
    await gm.command("ambush", {"type": "end_battle", "winner": "allies"})
    assert listed(await player.recv()) == [("ambush", "ended")]
    await gm.command("ambush", {"type": "archive_battle"})
    assert (await player.recv())["battles"] == []


async def test_a_battle_archived_in_set_up_is_never_told_to_players(running: Running) -> None:
    gm = await running.gm()
    other_gm = await running.gm(client="web")
    player = await running.player()
    await gm.create("prepared")
    await gm.command("prepared", {"type": "archive_battle"})
    assert await next_for(player) == {"type": "pong", "id": "probe"}
    assert listed(await other_gm.recv()) == [("prepared", "setup")]
    assert (await other_gm.recv())["battles"] == []


async def test_welcome_and_list_battles_show_players_the_started_ones(running: Running) -> None:
    gm = await running.gm()
    await gm.create("prepared")
    await started(gm, "ford")
    await started(gm, "bridge")
    await gm.command("bridge", {"type": "archive_battle"})
    player = await running.peer()
    welcome = await player.hello(PLAYER, "web")
    assert listed(welcome) == [("ford", "fighting")]
    for archived in (False, True):
        battles = await player.ask({"type": "list_battles", "archived": archived})
        assert listed(battles) == [("ford", "fighting")]
    # the GM keeps seeing every one
    other = await running.peer()
    assert listed(await other.hello(GM, "web")) == [("prepared", "setup"), ("ford", "fighting")]
    everything = await other.ask({"type": "list_battles", "archived": True})
    assert [name for name, _ in listed(everything)] == ["bridge", "ford", "prepared"]  # by name


async def test_a_battle_in_set_up_is_unknown_to_players(running: Running) -> None:
    gm = await running.gm()
    await gm.create("prepared")
    player = await running.player()

    async def refusal(message: dict[str, Any], name: str) -> dict[str, Any]:
        error = await player.ask({**message, "battle": name})
        assert error["type"] == "error", error
        return {key: str(value).replace(name, "NAME") for key, value in error.items()}

    for message in (
        {"type": "subscribe"},
        {"type": "log_page", "since_version": 0},
    ):
        prepared = await refusal(message, "prepared")
        assert prepared == await refusal(message, "nowhere")
        assert prepared["code"] == "unknown_battle"
    welcomed = await running.peer()
    await welcomed.hello(PLAYER, "web", battle="prepared")
    refused = await welcomed.recv()
    assert (refused["type"], refused["code"]) == ("error", "unknown_battle")
    # once started, the same player watches it
    await gm.command("prepared", ORCS)
    await gm.command("prepared", DWARVES)
    await gm.command("prepared", START)
    state = await player.ask({"type": "subscribe", "battle": "prepared"}, "state")
    assert state["view"]["status"] == "fighting"


async def test_gms_see_and_watch_battles_in_set_up(running: Running) -> None:
    gm = await running.gm()
    watcher = await running.gm(client="web")
    await gm.create("prepared")
    assert listed(await watcher.recv()) == [("prepared", "setup")]
    state = await watcher.ask({"type": "subscribe", "battle": "prepared"}, "state")
    assert state["view"]["status"] == "setup"


async def test_a_start_taken_back_hides_the_battle_from_players_again(running: Running) -> None:
    gm = await running.gm()
    await started(gm, "ambush")
    player = await running.player(battle="ambush")
    assert (await player.recv())["type"] == "state"
    assert (await gm.command("ambush", {"type": "undo"}))["type"] == "ack"
    assert running.bridge.hub.rooms["ambush"].battle.status == "setup"
    hidden = await player.recv()
    assert hidden == {"type": "battles", "battles": []}  # no event of the battle in set-up
    await gm.command("ambush", {"type": "rename", "name": "Ford"})
    assert await next_for(player) == {"type": "pong", "id": "probe"}


async def test_an_archived_battle_stays_the_gms_to_read_and_is_unknown_to_players(
    running: Running,
) -> None:
    """As docs/protocol.md says (`archive_battle`, "What players are told of")."""
    gm = await running.gm()
    await started(gm)
    await gm.command("ambush", {"type": "archive_battle"})
    state = await gm.ask({"type": "subscribe", "battle": "ambush"}, "state")
    assert state["archived"] is True and state["version"] == 3
    player = await running.player()
    for message in (
        {"type": "subscribe", "battle": "ambush"},
        {"type": "log_page", "battle": "ambush", "since_version": 0},
    ):
        refused = await player.ask(message)
        assert (refused["code"], refused["field"]) == ("unknown_battle", "battle")
