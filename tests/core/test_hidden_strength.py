"""A hidden strength cannot be narrowed from the player view beyond what the GM chose to show.

Two battles that differ only in what players cannot know — the hidden side's strength and the
d100 that side rolls in each round — are played with the same commands. As long as everything
the GM shows agrees (the visible side's strength, who won each round, the status), the player
views and the player's events must be identical: nothing in them depends on the hidden numbers.
(Showing the hidden side's roll would fail this: with the loss it dealt it gives its SL, and
roll + SL give its strength to the ten.)
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from background_battle import Battle, BattleError, apply, new_battle, redact_entry, state_view
from background_battle.validate import SIDES, Side, other_side
from background_battle.view import REDACTED

from .builders import dwarves_and_orcs, run, unit


def battle_with(hidden_side: Side, strengths: list[int], shown: int, hidden: list[str]) -> Battle:
    commands = [unit("Shown", other_side(hidden_side), 10, shown)]
    commands += [unit(f"Hidden {i}", hidden_side, 40, s) for i, s in enumerate(strengths)]
    commands += [
        {"type": "set_modifiers", "side": hidden_side, "modifiers": [{"name": "m", "flat": 5}]},
        {"type": "set_hidden", "hidden": hidden},
        {"type": "start"},
    ]
    return run(new_battle("fog"), *commands, seed=None)


def shown_by_the_gm(battle: Battle, events: list[dict[str, Any]], visible: Side) -> Any:
    """What the GM chose to show, besides the set-up: the visible side and who won."""
    winners = [e.get("winner") for e in events if "winner" in e]
    return (battle.strength(visible), battle.status, battle.winner, battle.round, winners)


ROLL = st.integers(1, 100)
ROUND = st.tuples(st.just("round"), ROLL, ROLL, st.integers(-15, 15))
STEP = st.one_of(
    ROUND,
    ROUND,
    ROUND,
    st.tuples(st.just("leader"), st.sampled_from(SIDES), st.integers(0, 6)),
    st.tuples(st.just("leader_test"), st.sampled_from(SIDES), st.integers(1, 90), ROLL, ROLL),
    st.tuples(st.just("influence"), st.sampled_from(SIDES), ROLL, ROLL),
    st.tuples(st.just("shown_strength"), st.integers(0, 80)),
    st.tuples(st.just("pcs_won"), st.sampled_from(["0", "1/2", "1/3"])),
    st.tuples(st.just("end"), st.sampled_from(["allies", "enemies", None])),
    st.tuples(st.just("detach"), st.sampled_from(["u1", "u2"]), st.integers(1, 3)),
)


def command_for(step: tuple[Any, ...], visible: Side, other_world: bool) -> dict[str, Any]:
    """The step as a command; in the other world the hidden side's dice differ: its round roll,
    its leader's Leadership and roll (so success and SL too), its Influence roll."""
    kind = step[0]
    hidden_side = step[1] == other_side(visible) if kind in ("leader_test", "influence") else False
    if kind == "round":
        shown, hidden = step[1], step[2] + (step[3] if other_world else 0)
        rolls = {visible: shown, other_side(visible): min(100, max(1, hidden))}
        return {"type": "resolve_round", "mode": "rolls", "rolls": rolls}
    if kind == "leader":
        return {"type": "leader_command", "side": step[1], "sl": step[2]}
    if kind == "leader_test":
        leadership, roll = (step[2] + 10, step[4]) if other_world and hidden_side else step[2:4]
        return {"type": "leader_command", "side": step[1], "leadership": leadership, "roll": roll}
    if kind == "influence":
        roll = step[3] if other_world and hidden_side else step[2]
        return {"type": "roll_influence", "side": step[1], "roll": roll}
    if kind == "shown_strength":
        return {"type": "set_strength", "side": visible, "strength": step[1]}
    if kind == "pcs_won":
        return {"type": "pcs_won", "fleeing": step[1]}
    if kind == "end":
        return {"type": "end_battle", "winner": step[1]}
    return {"type": "detach_fighters", "unit": step[1], "fighters": step[2]}


@settings(max_examples=300, deadline=None)
@given(
    hidden_side=st.sampled_from(SIDES),
    strength=st.lists(st.integers(1, 60), min_size=1, max_size=2),
    other=st.data(),
    shown=st.integers(1, 60),
    fighters_hidden=st.booleans(),
    steps=st.lists(STEP, max_size=12),
)
def test_two_battles_differing_only_in_hidden_strength_look_the_same_to_players(
    hidden_side: Side,
    strength: list[int],
    other: st.DataObject,
    shown: int,
    fighters_hidden: bool,
    steps: list[tuple[Any, ...]],
) -> None:
    other_strength = [
        other.draw(st.integers(max(1, s - 6), s + 6), label=f"other {i}")
        for i, s in enumerate(strength)
    ]
    hidden = [f"{hidden_side}.strength"] + ([f"{hidden_side}.fighters"] if fighters_hidden else [])
    visible = other_side(hidden_side)
    a = battle_with(hidden_side, strength, shown, hidden)
    b = battle_with(hidden_side, other_strength, shown, hidden)
    assert state_view(a, "player") == state_view(b, "player")
    for step in steps:
        command = command_for(step, visible, other_world=False)
        try:
            a, events_a = apply(a, command)
            b, events_b = apply(b, command_for(step, visible, other_world=True))
        except BattleError:
            return  # "where both stay legal": a refusal ends the comparison
        if shown_by_the_gm(a, events_a, visible) != shown_by_the_gm(b, events_b, visible):
            return  # the GM showed something different: the views may differ from here on
        entry_a, entry_b = a.log[-1].to_dict(), b.log[-1].to_dict()
        assert redact_entry(a, entry_a) == redact_entry(b, entry_b), command
        assert state_view(a, "player") == state_view(b, "player"), command


def test_a_round_shows_players_neither_the_hidden_sides_roll_sl_nor_its_own_loss() -> None:
    battle = run(
        dwarves_and_orcs(),
        {"type": "set_strength", "side": "enemies", "strength": 95},
        {"type": "resolve_round", "mode": "rolls", "rolls": {"allies": 5, "enemies": 4}},
    )
    event = state_view(battle, "player")["log"][-1]["events"][0]
    assert event["rolls"] == {"allies": 5, "enemies": None}
    assert event["sl"] == {"allies": 3, "enemies": None}
    assert event["success"] == {"allies": True, "enemies": None}
    # the allies' loss is their strength before less after, both shown: never "?" beside them
    assert event["lost"] == {"allies": 6, "enemies": None}
    assert event["strength"]["allies"] == 30 - 6
    assert event["winner"] == "enemies"
    assert set(event[REDACTED]) >= {"rolls.enemies", "sl.enemies", "lost.enemies"}
    assert "lost.allies" not in event[REDACTED]
    command = state_view(battle, "player")["log"][-1]["command"]
    assert command["rolls"] == {"allies": 5, "enemies": None}


def test_an_influence_band_during_the_fight_is_hidden_with_either_strength() -> None:
    battle = run(dwarves_and_orcs(), {"type": "roll_influence", "side": "allies", "roll": 60})
    event = state_view(battle, "player")["log"][-1]["events"][0]
    assert (event["roll"], event["modifier"], event["total"], event["band"]) == (
        60,
        None,
        None,
        None,
    )
    assert event[REDACTED] == ["modifier", "total", "band"]


def test_casualties_of_a_hidden_strength_are_hidden_even_with_the_head_count_shown() -> None:
    battle = run(
        dwarves_and_orcs(),
        {"type": "set_hidden", "hidden": ["enemies.strength"]},
        {"type": "set_strength", "side": "enemies", "strength": 13},
    )
    orcs = state_view(battle, "player")["units"][1]
    assert (orcs["fighters"], orcs["casualties"]) == (12, None)
    assert orcs[REDACTED] == ["strength", "casualties"]


def test_a_hidden_sides_leader_test_shows_players_neither_leadership_roll_success_nor_sl() -> None:
    battle = run(
        dwarves_and_orcs(),
        {"type": "leader_command", "side": "enemies", "leadership": 47, "roll": 13},
    )
    entry = state_view(battle, "player")["log"][-1]
    event = entry["events"][0]
    for key in ("leadership", "roll", "success", "sl", "bonus", "strength_for_next_test"):
        assert event[key] is None and key in event[REDACTED], key
    assert (entry["command"]["leadership"], entry["command"]["roll"]) == (None, None)
    assert entry["command"][REDACTED] == ["leadership", "roll"]


def test_a_hidden_sides_typed_sl_and_success_are_hidden() -> None:
    battle = run(
        dwarves_and_orcs(), {"type": "leader_command", "side": "enemies", "sl": 0, "success": False}
    )
    entry = state_view(battle, "player")["log"][-1]
    assert (entry["command"]["sl"], entry["command"]["success"]) == (None, None)
    assert (entry["events"][0]["sl"], entry["events"][0]["success"]) == (None, None)


def test_a_hidden_sides_influence_roll_and_total_are_hidden() -> None:
    battle = run(dwarves_and_orcs(), {"type": "roll_influence", "side": "enemies", "roll": 60})
    entry = state_view(battle, "player")["log"][-1]
    event = entry["events"][0]
    assert (event["roll"], event["modifier"], event["total"], event["band"]) == (None,) * 4
    assert event[REDACTED] == ["roll", "modifier", "total", "band"]
    assert entry["command"]["roll"] is None


def test_the_shown_sides_leader_test_stays_shown() -> None:
    battle = run(
        dwarves_and_orcs(),
        {"type": "leader_command", "side": "allies", "leadership": 47, "roll": 13},
    )
    event = state_view(battle, "player")["log"][-1]["events"][0]
    assert (event["leadership"], event["roll"], event["success"], event["sl"]) == (47, 13, True, 3)
    assert REDACTED not in event


def test_every_hidden_value_is_named_in_its_objects_redacted_list() -> None:
    battle = run(
        dwarves_and_orcs(),
        {"type": "leader_command", "side": "enemies", "sl": 4},
        {"type": "resolve_round", "mode": "auto"},
        {"type": "roll_influence", "side": "enemies"},
    )
    player, gm = state_view(battle, "player"), state_view(battle, "gm")

    def holes(seen: Any, full: Any, path: str = "") -> list[str]:
        if isinstance(seen, dict):
            named = seen.get(REDACTED, [])
            found = []
            for key, value in seen.items():
                if key == REDACTED:
                    continue
                if value is None and full[key] is not None:
                    assert key in named, f"{path}{key} is hidden but not named"
                    found.append(key)
                elif isinstance(value, dict) and value and set(value) <= set(SIDES):
                    for s, v in value.items():
                        if v is None and full[key][s] is not None:
                            assert f"{key}.{s}" in named, f"{path}{key}.{s} is not named"
                            found.append(f"{key}.{s}")
                else:
                    found += holes(value, full[key], f"{path}{key}.")
            return found
        if isinstance(seen, list):
            return [h for s, f in zip(seen, full, strict=True) for h in holes(s, f, path)]
        return []

    assert len(holes(player, gm)) > 10
