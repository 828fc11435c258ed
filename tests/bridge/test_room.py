"""A room's views are the core's: the event view is exactly `state_view` without its log."""

from __future__ import annotations

import json
import random

from bridge_helpers import DWARVES, ORCS

from background_battle import apply, new_battle, state_view, to_json
from background_battle_bridge.room import Room
from background_battle_bridge.snapshots import snapshot_text

SCRIPT = [
    ORCS,
    DWARVES,
    {"type": "set_modifiers", "side": "allies", "modifiers": [{"name": "Hill", "percent": 25}]},
    {"type": "undo"},
    {"type": "start"},
    {"type": "leader_command", "side": "allies", "sl": 3},
    {"type": "resolve_round", "mode": "auto"},
    {"type": "set_hidden", "hidden": ["allies.fighters"]},
    {"type": "resolve_round", "mode": "lost", "lost": {"allies": 2, "enemies": 5}},
    {"type": "undo"},
    {"type": "detach_fighters", "unit": "u2", "fighters": 2},
    {"type": "roll_influence", "side": "allies"},
    {"type": "end_battle", "winner": "allies"},
    {"type": "roll_influence", "side": "allies", "roll": 40},
    {"type": "rename", "name": "After"},
]


def test_the_event_view_is_the_state_view_without_its_log() -> None:
    rng = random.Random(7)
    room = Room.created("x", {"kind": "created", "id": "c"})
    for n, command in enumerate(SCRIPT, start=2):
        battle, _ = apply(room.battle, command, rng)
        room.absorb(n, {"kind": "entry", "id": str(n), "entry": battle.log[-1].to_dict()}, battle)
        for role in ("gm", "player"):
            whole = state_view(room.battle, role)  # type: ignore[arg-type]
            del whole["log"]
            assert room.view_without_log(role) == whole, (command, role)


def test_a_snapshot_gives_the_same_battle_back() -> None:
    battle = new_battle("x")
    rng = random.Random(3)
    for command in SCRIPT:
        battle, _ = apply(battle, command, rng)
    room = Room(name="x", battle=battle, seq=len(SCRIPT) + 1, ids={"a": (1, "d1")})
    again = Room.from_snapshot("x", room.seq, room.snapshot_data())
    assert again.battle == battle and battle.undone
    assert to_json(again.battle) == to_json(battle)
    assert (again.seq, again.ids) == (room.seq, {"a": (1, "d1")})


def test_the_snapshot_thread_writes_what_snapshot_data_says() -> None:
    battle = new_battle("x")
    rng = random.Random(5)
    for command in SCRIPT:
        battle, _ = apply(battle, command, rng)
    for n in range(600):  # longer than one chunk between pauses
        battle, _ = apply(battle, {"type": "rename", "name": f"n{n}"}, rng)
    room = Room(
        name="x",
        battle=battle,
        seq=9,
        ids={"a": (1, "d1")},
        tokens={"u1": ["t"]},
        fighters={"u1": {"t": 12}},
        marks={"5": {"0": {"by": "foundry", "result": "11 Damage"}}},
    )
    more = {"jobs": room.jobs, "detached": room.detached, "marks": room.marks}
    parts = (room.battle, room.archived, room.ids, room.tokens, room.applied, room.fighters, more)
    written = json.loads(snapshot_text(*parts))
    assert written == json.loads(json.dumps(room.snapshot_data()))


def test_a_snapshot_from_before_request_digests_is_read() -> None:
    data = {"battle": to_json(new_battle("x")), "archived": False, "ids": {"a": 0}}
    room = Room.from_snapshot("x", 1, {**data, "tokens": {}, "applied": {}})
    assert room.ids == {"a": (0, "")}
    assert room.fighters == {}  # a snapshot from before head counts were kept by the bridge


def test_a_snapshot_in_an_older_schema_is_upgraded_by_the_core() -> None:
    unit = {k: v for k, v in ORCS.items() if k != "type"}
    old = {"schema": 0, "name": "x", "units": [unit]}
    data = {"battle": old, "archived": False, "ids": {}, "tokens": {}, "applied": {}}
    room = Room.from_snapshot("x", 4, data)
    assert [u.name for u in room.battle.units] == ["Orcs"]
