"""A number a player is shown in one place is never "?" in another, nor "?" where the numbers
shown give it away: over the player's whole view (state, every command and event of the log),
for any battle and any commands. (That no hidden number leaks is test_hidden_strength's.)
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shown_numbers import Timeline, contradictions, facts, played

from background_battle import Battle, BattleError, from_json, state_view, to_json
from background_battle.battle import HIDEABLE
from background_battle.validate import SIDES
from background_battle.view import REDACTED

from .test_properties import COMMAND

ROLL = st.integers(1, 100)
SIDE = st.sampled_from(SIDES)
UNITS = st.lists(st.tuples(SIDE, st.integers(1, 30), st.integers(1, 60)), min_size=1, max_size=4)
HIDDEN = st.lists(st.sampled_from(HIDEABLE), unique=True, max_size=4)
STEP = st.one_of(
    st.fixed_dictionaries(
        {
            "type": st.just("resolve_round"),
            "mode": st.just("rolls"),
            "rolls": st.fixed_dictionaries({s: ROLL for s in SIDES}),
        }
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("resolve_round"),
            "mode": st.just("lost"),
            "lost": st.fixed_dictionaries({s: st.integers(0, 40) for s in SIDES}),
        }
    ),
    st.just({"type": "resolve_round", "mode": "auto"}),
    st.fixed_dictionaries(
        {
            "type": st.just("leader_command"),
            "side": SIDE,
            "leadership": st.integers(1, 90),
            "roll": ROLL,
        }
    ),
    st.fixed_dictionaries(
        {"type": st.just("leader_command"), "side": SIDE, "sl": st.integers(0, 6)}
    ),
    st.fixed_dictionaries({"type": st.just("roll_influence"), "side": SIDE, "roll": ROLL}),
    st.fixed_dictionaries(
        {"type": st.just("set_strength"), "side": SIDE, "strength": st.integers(0, 80)}
    ),
    st.fixed_dictionaries(
        {"type": st.just("pcs_won"), "fleeing": st.sampled_from(["0", "1/2", "1/3", "1"])}
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("detach_fighters"),
            "unit": st.sampled_from(["u1", "u2", "u3", "u4"]),
            "fighters": st.integers(1, 5),
        }
    ),
    st.fixed_dictionaries({"type": st.just("set_hidden"), "hidden": HIDDEN}),
    st.just({"type": "end_battle"}),
    st.just({"type": "undo"}),
    COMMAND,
)


def problems_of(battle: Battle, timeline: Timeline) -> list[str]:
    return contradictions(facts(state_view(battle, "player"), timeline), timeline)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(units=UNITS, hidden=HIDDEN, steps=st.lists(STEP, max_size=14), seed=st.integers(0, 99))
def test_a_number_shown_to_a_player_is_never_hidden_elsewhere_in_the_view(
    units: list[tuple[str, int, int]], hidden: list[str], steps: list[dict[str, Any]], seed: int
) -> None:
    battle, timeline = played(units, hidden, steps, seed)
    assert problems_of(battle, timeline) == []


def test_the_gms_view_hides_nothing_so_nothing_contradicts() -> None:
    """The check itself: in the GM's view every number named is shown."""
    battle, timeline = played(
        [("allies", 10, 30), ("enemies", 12, 26)],
        ["enemies.strength"],
        [
            {"type": "resolve_round", "mode": "rolls", "rolls": {"allies": 5, "enemies": 90}},
            {"type": "leader_command", "side": "enemies", "sl": 2},
            {"type": "pcs_won", "fleeing": "1/2"},
        ],
        1,
    )
    named = facts(state_view(battle, "gm"), timeline)
    assert len(named) > 30 and all(fact.value is not None for fact in named)
    assert contradictions(named, timeline) == []


def test_a_loss_typed_into_a_round_is_shown_where_its_event_shows_it() -> None:
    battle, timeline = played(
        [("allies", 10, 30), ("enemies", 12, 26)],
        ["allies.strength"],
        [{"type": "resolve_round", "mode": "lost", "lost": {"allies": 4, "enemies": 6}}],
        1,
    )
    entry = state_view(battle, "player")["log"][-1]
    assert entry["events"][0]["lost"] == {"allies": None, "enemies": 6}
    assert entry["command"]["lost"] == {"allies": None, "enemies": 6}
    assert entry["command"][REDACTED] == ["lost.allies"]
    assert problems_of(battle, timeline) == []


def test_the_pcs_win_shows_the_damage_the_allies_strength_already_shows() -> None:
    """Allies 30 → 23 shown: the damage (7) is no secret, the orcs' fighting strength is."""
    battle, timeline = played(
        [("allies", 10, 30), ("enemies", 12, 26)],
        ["enemies.strength"],
        [{"type": "pcs_won", "fleeing": "1/2"}],
        1,
    )
    event = state_view(battle, "player")["log"][-1]["events"][0]
    assert (event["enemy_strength"], event["fighting_strength"]) == (None, None)
    assert (event["damage"], event["allies_strength"]) == (7, 23)
    assert event[REDACTED] == ["enemy_strength", "fighting_strength"]
    assert problems_of(battle, timeline) == []


def test_the_damage_of_a_pcs_win_that_leaves_the_allies_at_0_stays_hidden() -> None:
    battle, _ = played(
        [("allies", 10, 30), ("enemies", 12, 60)],
        ["enemies.strength"],
        [{"type": "set_strength", "side": "allies", "strength": 2}, {"type": "pcs_won"}],
        1,
    )
    event = state_view(battle, "player")["log"][-1]["events"][0]
    assert (event["damage"], event["allies_strength"]) == (None, 0)


def test_a_round_says_each_sides_strength_before_it_hidden_with_that_strength() -> None:
    """Allies at 3 driven to 0: their loss stays hidden (the orcs may have dealt more than 3),
    their strength before the round is the 3 players saw set, never after + lost."""
    battle, timeline = played(
        [("allies", 10, 30), ("enemies", 12, 26)],
        ["enemies.strength"],
        [
            {"type": "set_strength", "side": "allies", "strength": 3},
            {"type": "resolve_round", "mode": "rolls", "rolls": {"allies": 95, "enemies": 5}},
        ],
        1,
    )
    gm = state_view(battle, "gm")["log"][-1]["events"][0]
    assert gm["strength_before"] == {"allies": 3, "enemies": 31}
    assert gm["lost"]["allies"] > 3
    event = state_view(battle, "player")["log"][-1]["events"][0]
    assert event["strength_before"] == {"allies": 3, "enemies": None}
    assert (event["lost"]["allies"], event["strength"]["allies"]) == (None, 0)
    assert "strength_before.enemies" in event[REDACTED]
    assert problems_of(battle, timeline) == []


def test_a_battle_saved_before_rounds_said_their_strength_before_loads_and_says_it() -> None:
    battle, _ = played(
        [("allies", 10, 30), ("enemies", 12, 26)],
        [],
        [{"type": "resolve_round", "mode": "rolls", "rolls": {"allies": 30, "enemies": 35}}],
        1,
    )
    saved = to_json(battle)
    for entry in saved["log"]:
        for event in entry["events"]:
            event.pop("strength_before", None)
    loaded = from_json(saved)
    assert loaded.log[-1].events[0]["strength_before"] == {"allies": 30, "enemies": 31}
    tampered = to_json(battle)
    tampered["log"][-1]["events"][0]["strength_before"] = {"allies": 29, "enemies": 31}
    with pytest.raises(BattleError) as caught:
        from_json(tampered)
    assert caught.value.code == "bad_battle"
