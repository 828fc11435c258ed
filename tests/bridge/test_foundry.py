"""The Foundry module's messages: tokens per unit, casualties sent once, reports kept."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from bridge_helpers import DWARVES, ORCS, Peer, Running, StartBridge

from background_battle_bridge.storage import Storage

ENDED = [
    ORCS,
    DWARVES,
    {"type": "start"},
    {"type": "set_strength", "side": "allies", "strength": 18},
    {"type": "end_battle", "winner": "allies"},
]


async def ended_battle(gm: Peer, name: str = "ambush") -> None:
    await gm.create(name)
    for command in ENDED:
        reply = await gm.command(name, command)
        assert reply["type"] == "ack", reply


async def test_tokens_are_stored_and_shown_to_gms_only(running: Running) -> None:
    gm = await running.gm()
    foundry = await running.gm(client="foundry")
    player = await running.player()
    await gm.create("ambush")
    for command in (ORCS, DWARVES, {"type": "start"}):  # started: the player may watch it
        await gm.command("ambush", command)
    await gm.ask({"type": "subscribe", "battle": "ambush"}, "state")
    await player.ask({"type": "subscribe", "battle": "ambush"}, "state")
    ack = await foundry.ask(
        {"type": "tokens", "id": "t1", "battle": "ambush", "unit": "u1", "token_ids": ["a", "b"]},
        "ack",
    )
    assert ack == {"type": "ack", "id": "t1", "battle": "ambush", "version": 3}
    told = await gm.until("tokens")
    assert told == {
        "type": "tokens",
        "battle": "ambush",
        "unit": "u1",
        "token_ids": ["a", "b"],
        "fighters": {},
    }
    state = await gm.ask({"type": "subscribe", "battle": "ambush"}, "state")
    assert state["foundry"]["tokens"] == {"u1": ["a", "b"]}
    # the player heard nothing of it: its next message is its own pong
    assert (await player.ask({"type": "ping"}))["type"] == "pong"
    # an empty list forgets the unit's tokens
    await foundry.ask({"type": "tokens", "battle": "ambush", "unit": "u1", "token_ids": []})
    state = await gm.ask({"type": "subscribe", "battle": "ambush"}, "state")
    assert state["foundry"]["tokens"] == {}


async def test_bad_tokens_messages_are_named(running: Running) -> None:
    foundry = await running.gm(client="foundry")
    await foundry.create("ambush")
    await foundry.command("ambush", ORCS)
    base = {"type": "tokens", "battle": "ambush", "unit": "u1"}
    cases = [
        ({**base, "unit": "u9", "token_ids": []}, "unknown_unit", "unit"),
        (base, "required", "token_ids"),
        ({**base, "token_ids": "a"}, "not_list", "token_ids"),
        ({**base, "token_ids": [1]}, "not_text", "token_ids"),
        ({**base, "token_ids": [""]}, "out_of_range", "token_ids"),
        ({**base, "token_ids": ["t"] * 1001}, "out_of_range", "token_ids"),
    ]
    for message, code, field in cases:
        error = await foundry.ask(message)
        assert (error["code"], error["field"]) == (code, field), message
    assert running.bridge.hub.rooms["ambush"].tokens == {}


async def test_head_counts_of_tokens_are_kept_for_the_gms_only(running: Running) -> None:
    gm = await running.gm()
    foundry = await running.gm(client="foundry")
    player = await running.player()
    await gm.create("ambush")
    for command in (ORCS, DWARVES, {"type": "start"}):
        await gm.command("ambush", command)
    await gm.ask({"type": "subscribe", "battle": "ambush"}, "state")
    await player.ask({"type": "subscribe", "battle": "ambush"}, "state")
    mob = {"type": "tokens", "battle": "ambush", "unit": "u1", "token_ids": ["mob", "boss"]}
    ack = await foundry.ask({**mob, "id": "t1", "fighters": {"mob": 4321}}, "ack")
    assert ack["id"] == "t1"
    told = await gm.until("tokens")
    assert told["fighters"] == {"mob": 4321}
    state = await gm.ask({"type": "subscribe", "battle": "ambush"}, "state")
    assert state["foundry"]["fighters"] == {"u1": {"mob": 4321}}
    # the player heard nothing of it, and its state carries no Foundry data
    assert (await player.ask({"type": "ping"}))["type"] == "pong"
    seen = await player.ask({"type": "subscribe", "battle": "ambush"}, "state")
    assert "foundry" not in seen and "4321" not in json.dumps(seen)
    # sent again with its id: the first ack, nothing stored twice
    again = await foundry.ask({**mob, "id": "t1", "fighters": {"mob": 4321}}, "ack")
    assert again.get("duplicate") is True
    # a new list replaces the head counts whole; without `fighters` every token is one fighter
    await foundry.ask({**mob, "token_ids": ["mob"]}, "ack")
    state = await gm.ask({"type": "subscribe", "battle": "ambush"}, "state")
    assert state["foundry"]["fighters"] == {}
    assert state["foundry"]["tokens"] == {"u1": ["mob"]}


async def test_bad_head_counts_are_named_and_change_nothing(running: Running) -> None:
    foundry = await running.gm(client="foundry")
    await foundry.create("ambush")
    await foundry.command("ambush", ORCS)
    base = {"type": "tokens", "battle": "ambush", "unit": "u1", "token_ids": ["mob", "boss"]}
    await foundry.ask({**base, "fighters": {"mob": 12}}, "ack")
    cases = [
        ({**base, "fighters": ["mob", 12]}, "not_object"),
        ({**base, "fighters": {"ghost": 12}}, "unknown_token"),
        ({**base, "fighters": {"mob": "12"}}, "not_integer"),
        ({**base, "fighters": {"mob": 12.5}}, "not_integer"),
        ({**base, "fighters": {"mob": True}}, "not_integer"),
        ({**base, "fighters": {"mob": 1}}, "out_of_range"),
        ({**base, "fighters": {"mob": 100_001}}, "out_of_range"),
    ]
    for message, code in cases:
        error = await foundry.ask(message)
        assert (error["code"], error["field"]) == (code, "fighters"), message
    ranged = await foundry.ask({**base, "fighters": {"mob": 0}})
    assert ranged["params"] == {"min": 2, "max": 100_000}
    assert "mob" in ranged["message"] and "2 to 100000" in ranged["message"]
    room = running.bridge.hub.rooms["ambush"]
    assert (room.tokens, room.fighters) == ({"u1": ["mob", "boss"]}, {"u1": {"mob": 12}})


async def test_casualties_are_sent_to_foundry_after_the_end(running: Running) -> None:
    gm = await running.gm(client="web")
    foundry = await running.gm(client="foundry")
    await gm.create("ambush")
    await gm.command("ambush", ORCS)
    await gm.command("ambush", DWARVES)
    await foundry.ask({"type": "tokens", "battle": "ambush", "unit": "u2", "token_ids": ["d1"]})
    early = await gm.ask({"type": "request_casualties", "battle": "ambush"})
    assert (early["code"], early["field"]) == ("not_ended", "battle")
    for command in ENDED[2:]:
        await gm.command("ambush", command)

    ack = await gm.ask({"type": "request_casualties", "id": "r1", "battle": "ambush"}, "ack")
    assert ack["sent"] == ["u1", "u2"]
    orders = [await foundry.until("apply_casualties") for _ in range(2)]
    view = running.bridge.hub.rooms["ambush"].view("gm")
    by_unit = {unit["id"]: unit for unit in view["units"]}
    for order in orders:
        unit = by_unit[order["unit"]]
        assert {k: order[k] for k in unit["casualties"]} == unit["casualties"]
        assert order["name"] == unit["name"] and order["version"] == 5
    dwarves = next(order for order in orders if order["unit"] == "u2")
    # the seed's dwarves: 10 fighters, strength 30 down to 18 -> 2 killed, 4 wounded, 4 fit
    assert (dwarves["fighters"], dwarves["killed"], dwarves["wounded"], dwarves["fit"]) == (
        10,
        2,
        4,
        4,
    )
    assert dwarves["token_ids"] == ["d1"]


async def test_casualties_need_a_connected_foundry(running: Running) -> None:
    gm = await running.gm(client="web")
    await ended_battle(gm)
    error = await gm.ask({"type": "request_casualties", "battle": "ambush"})
    assert error["code"] == "no_foundry"
    error = await gm.ask({"type": "request_casualties", "battle": "ambush", "unit": "u7"})
    assert (error["code"], error["field"]) == ("unknown_unit", "unit")


async def test_a_result_is_applied_once(running: Running) -> None:
    gm = await running.gm(client="web")
    foundry = await running.gm(client="foundry")
    second_gm_browser = await running.gm(client="foundry")
    await ended_battle(gm)
    await gm.ask({"type": "subscribe", "battle": "ambush"}, "state")
    await gm.ask({"type": "request_casualties", "id": "r", "battle": "ambush", "unit": "u2"}, "ack")
    order = await foundry.until("apply_casualties")
    assert (await second_gm_browser.until("apply_casualties")) == order
    report = {
        "type": "applied",
        "id": "done",
        "battle": "ambush",
        "unit": "u2",
        "version": order["version"],
        "killed": 2,
        "wounded": 4,
        "fit": 4,
        "token_ids": {"killed": ["d1", "d2"], "wounded": ["d3"]},
        "note": "tokens marked dead and wounded",
    }
    ack = await foundry.ask(report)
    assert (ack["type"], ack["id"]) == ("ack", "done")
    told = await gm.until("applied")
    assert told["unit"] == "u2" and told["report"]["killed"] == 2
    assert told["report"]["token_ids"] == {"killed": ["d1", "d2"], "wounded": ["d3"]}

    twice = await second_gm_browser.ask({**report, "id": "again"})
    assert (twice["code"], twice["field"]) == ("already_applied", "unit")
    assert twice["params"]["report"] == told["report"]
    again = await gm.ask({"type": "request_casualties", "battle": "ambush", "unit": "u2"})
    assert again["code"] == "already_applied"
    rest = await gm.ask({"type": "request_casualties", "id": "r2", "battle": "ambush"}, "ack")
    assert rest["sent"] == ["u1"]
    state = await gm.ask({"type": "subscribe", "battle": "ambush"}, "state")
    assert state["foundry"]["applied"]["u2"]["fit"] == 4


async def test_bad_applied_reports_are_named(running: Running) -> None:
    foundry = await running.gm(client="foundry")
    await ended_battle(foundry)
    base = {"type": "applied", "battle": "ambush", "unit": "u1", "version": 5, "killed": 1}
    cases = [
        ({**base, "wounded": 1}, "required", "fit"),
        ({**base, "wounded": 1, "fit": -1}, "out_of_range", "fit"),
        ({**base, "wounded": 1.5, "fit": 0}, "not_integer", "wounded"),
        ({**base, "version": 6, "wounded": 1, "fit": 1}, "out_of_range", "version"),
        ({**base, "wounded": 1, "fit": 1, "token_ids": []}, "not_object", "token_ids"),
        (
            {**base, "wounded": 1, "fit": 1, "token_ids": {"killed": [3]}},
            "not_text",
            "token_ids.killed",
        ),
        ({**base, "wounded": 1, "fit": 1, "note": "n" * 501}, "out_of_range", "note"),
    ]
    for message, code, field in cases:
        error = await foundry.ask(message)
        assert (error["code"], error["field"]) == (code, field), message
    assert running.bridge.hub.rooms["ambush"].applied == {}


async def test_tokens_and_reports_survive_a_restart(
    start_bridge: StartBridge, storage_factory: Callable[[], Storage]
) -> None:
    first = await start_bridge(storage_factory())
    foundry = await first.gm(client="foundry")
    await ended_battle(foundry)
    await foundry.ask(
        {
            "type": "tokens",
            "id": "t",
            "battle": "ambush",
            "unit": "u1",
            "token_ids": ["o"],
            "fighters": {"o": 12},
        }
    )
    await foundry.ask(
        {
            "type": "applied",
            "id": "a",
            "battle": "ambush",
            "unit": "u1",
            "version": 5,
            "killed": 0,
            "wounded": 0,
            "fit": 12,
        }
    )
    await first.stack.aclose()

    second = await start_bridge(storage_factory())
    gm = await second.gm(client="foundry")
    state = await gm.ask({"type": "subscribe", "battle": "ambush"}, "state")
    assert state["foundry"]["tokens"] == {"u1": ["o"]}
    assert state["foundry"]["fighters"] == {"u1": {"o": 12}}
    assert state["foundry"]["applied"]["u1"]["fit"] == 12
    error = await gm.ask({"type": "request_casualties", "battle": "ambush", "unit": "u1"})
    assert error["code"] == "already_applied"


async def test_after_the_battle_changed_a_forced_request_replaces_the_report(
    running: Running,
) -> None:
    gm = await running.gm(client="web")
    foundry = await running.gm(client="foundry")
    await ended_battle(gm)
    await gm.ask({"type": "request_casualties", "battle": "ambush", "unit": "u2"}, "ack")
    first = await foundry.until("apply_casualties")
    report = {"type": "applied", "battle": "ambush", "unit": "u2", "fit": 4}
    await foundry.ask({**report, "version": first["version"], "killed": 2, "wounded": 4}, "ack")
    # the GM undoes the end, changes the strength and ends again
    await gm.command("ambush", {"type": "undo"})
    await gm.command("ambush", {"type": "set_strength", "side": "allies", "strength": 30})
    await gm.command("ambush", {"type": "end_battle", "winner": "allies"})
    plain = await gm.ask({"type": "request_casualties", "battle": "ambush", "unit": "u2"})
    assert plain["code"] == "already_applied"
    bad = await gm.ask({"type": "request_casualties", "battle": "ambush", "force": "yes"})
    assert (bad["code"], bad["field"]) == ("not_bool", "force")
    forced = await gm.ask(
        {"type": "request_casualties", "battle": "ambush", "unit": "u2", "force": True}, "ack"
    )
    assert forced["sent"] == ["u2"]
    second = await foundry.until("apply_casualties")
    assert second["version"] == 8 > first["version"]
    assert (second["killed"], second["wounded"], second["fit"]) == (0, 0, 10)
    stale = await foundry.ask({**report, "version": first["version"], "killed": 2, "wounded": 4})
    assert stale["code"] == "already_applied"
    newer = {**report, "version": second["version"], "killed": 0, "wounded": 0, "fit": 10}
    assert (await foundry.ask(newer, "ack"))["type"] == "ack"
    assert running.bridge.hub.rooms["ambush"].applied["u2"]["version"] == 8
    assert (await foundry.ask(newer))["code"] == "already_applied"


async def apply_unit(gm: Peer, foundry: Peer, unit: str = "u2") -> dict[str, Any]:
    """The GM asks for a unit of the ended battle, the module applies it; returns the order."""
    await gm.ask({"type": "request_casualties", "battle": "ambush", "unit": unit}, "ack")
    order = await foundry.until("apply_casualties")
    report = {k: order[k] for k in ("battle", "unit", "version", "killed", "wounded", "fit")}
    await foundry.ask({"type": "applied", **report}, "ack")
    return order


async def test_undo_apply_takes_the_report_back_and_every_gm_hears_of_it(
    running: Running,
) -> None:
    gm = await running.gm(client="web")
    foundry = await running.gm(client="foundry")
    player = await running.player()
    await ended_battle(gm)
    order = await apply_unit(gm, foundry)
    await gm.ask({"type": "subscribe", "battle": "ambush"}, "state")
    await player.ask({"type": "subscribe", "battle": "ambush"}, "state")
    ack = await foundry.ask(
        {"type": "unapplied", "id": "un", "battle": "ambush", "unit": "u2", "version": 5}, "ack"
    )
    assert ack == {"type": "ack", "id": "un", "battle": "ambush", "version": order["version"]}
    assert await gm.until("unapplied") == {"type": "unapplied", "battle": "ambush", "unit": "u2"}
    assert running.bridge.hub.rooms["ambush"].applied == {}
    state = await gm.ask({"type": "subscribe", "battle": "ambush"}, "state")
    assert state["foundry"]["applied"] == {}
    # the player heard nothing of it: its next message is its own pong
    assert (await player.ask({"type": "ping"}))["type"] == "pong"

    # the unit is sent again without `force`, and its new report is taken
    again = await gm.ask({"type": "request_casualties", "id": "r", "battle": "ambush"}, "ack")
    assert again["sent"] == ["u1", "u2"]
    orders = [await foundry.until("apply_casualties") for _ in range(2)]
    resent = next(o for o in orders if o["unit"] == "u2")
    assert resent == order
    report = {k: order[k] for k in ("battle", "unit", "version", "killed", "wounded", "fit")}
    assert (await foundry.ask({"type": "applied", **report}, "ack"))["type"] == "ack"
    assert running.bridge.hub.rooms["ambush"].applied["u2"]["fit"] == order["fit"]


async def test_only_a_stored_report_of_that_version_is_taken_back(running: Running) -> None:
    gm = await running.gm(client="web")
    foundry = await running.gm(client="foundry")
    await ended_battle(gm)
    await apply_unit(gm, foundry)
    base = {"type": "unapplied", "id": "x", "battle": "ambush", "unit": "u2", "version": 5}
    cases = [
        ({**base, "battle": "siege"}, "unknown_battle", "battle"),
        ({**base, "unit": "u9"}, "unknown_unit", "unit"),
        ({**base, "unit": None}, "not_null", "unit"),
        ({k: v for k, v in base.items() if k != "version"}, "required", "version"),
        ({**base, "version": "5"}, "not_integer", "version"),
        ({**base, "version": 6}, "out_of_range", "version"),
        ({**base, "version": 4}, "not_applied", "version"),
        ({**base, "unit": "u1"}, "not_applied", "unit"),
    ]
    for message, code, field in cases:
        error = await foundry.ask(message)
        assert (error["type"], error["code"], error["field"]) == ("error", code, field), message
        assert error["id"] == "x"
    stored = running.bridge.hub.rooms["ambush"].applied
    assert list(stored) == ["u2"]
    older = await foundry.ask({**base, "version": 4})
    assert older["params"]["report"] == stored["u2"]
    # taken back once; the same request again is answered as before (idempotent by id) ...
    first = await foundry.ask(base, "ack")
    assert (await foundry.ask(base)) == {**first, "duplicate": True}
    # ... and a new request finds nothing left to take back
    twice = await foundry.ask({**base, "id": "y"})
    assert (twice["code"], twice["field"], twice["id"]) == ("not_applied", "unit", "y")


async def test_a_player_may_not_take_a_report_back(running: Running) -> None:
    gm = await running.gm(client="web")
    foundry = await running.gm(client="foundry")
    await ended_battle(gm)
    await apply_unit(gm, foundry)
    player = await running.player()
    message = {"type": "unapplied", "battle": "ambush", "unit": "u2", "version": 5}
    error = await player.ask(message)
    assert (error["code"], error["field"]) == ("forbidden", "type")
    assert list(running.bridge.hub.rooms["ambush"].applied) == ["u2"]


async def test_a_report_taken_back_stays_taken_back_after_a_restart(
    start_bridge: StartBridge, storage_factory: Callable[[], Storage]
) -> None:
    first = await start_bridge(storage_factory())
    gm = await first.gm(client="web")
    foundry = await first.gm(client="foundry")
    await ended_battle(gm)
    await apply_unit(gm, foundry, unit="u1")
    await apply_unit(gm, foundry, unit="u2")
    await foundry.ask({"type": "unapplied", "battle": "ambush", "unit": "u1", "version": 5}, "ack")
    await first.stack.aclose()

    second = await start_bridge(storage_factory())
    gm = await second.gm(client="web")
    await second.gm(client="foundry")
    state = await gm.ask({"type": "subscribe", "battle": "ambush"}, "state")
    assert list(state["foundry"]["applied"]) == ["u2"]
    sent = await gm.ask({"type": "request_casualties", "battle": "ambush"}, "ack")
    assert sent["sent"] == ["u1"]


async def test_a_snapshot_keeps_a_report_taken_back(
    start_bridge: StartBridge, storage_factory: Callable[[], Storage]
) -> None:
    first = await start_bridge(storage_factory(), snapshot_every=1)
    gm = await first.gm(client="web")
    foundry = await first.gm(client="foundry")
    await ended_battle(gm)
    await apply_unit(gm, foundry)
    await foundry.ask({"type": "unapplied", "battle": "ambush", "unit": "u2", "version": 5}, "ack")
    await first.stack.aclose()
    stored = storage_factory().load()["ambush"]
    assert stored.snapshot is not None and stored.snapshot["applied"] == {}
    assert stored.records == []  # a snapshot after every record: the last one after `unapplied`

    second = await start_bridge(storage_factory(), snapshot_every=1)
    assert second.bridge.hub.rooms["ambush"].applied == {}


async def test_a_snapshot_keeps_the_head_counts(
    start_bridge: StartBridge, storage_factory: Callable[[], Storage]
) -> None:
    first = await start_bridge(storage_factory(), snapshot_every=1)
    foundry = await first.gm(client="foundry")
    await ended_battle(foundry)
    told = {"type": "tokens", "battle": "ambush", "unit": "u1", "token_ids": ["o", "p"]}
    await foundry.ask({**told, "fighters": {"p": 7}}, "ack")
    await first.stack.aclose()
    stored = storage_factory().load()["ambush"]
    assert stored.snapshot is not None and stored.snapshot["fighters"] == {"u1": {"p": 7}}

    second = await start_bridge(storage_factory(), snapshot_every=1)
    assert second.bridge.hub.rooms["ambush"].fighters == {"u1": {"p": 7}}


async def test_a_refused_command_does_not_hold_up_the_modules_requests(running: Running) -> None:
    gm = await running.gm(client="web")
    foundry = await running.gm(client="foundry")
    await ended_battle(gm)
    refused = await gm.command("ambush", {"type": "start"})
    assert refused["code"] == "wrong_phase"
    told = {"type": "tokens", "id": "t1", "battle": "ambush", "unit": "u1", "token_ids": ["a"]}
    assert (await foundry.ask(told, "ack"))["id"] == "t1"
