"""What players see: the player view hides what the GM marks hidden."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from background_battle import redact_entry, state_view

from .builders import dwarves_and_orcs, run


def numbers_in(data: object) -> str:
    return json.dumps(data)


def test_by_default_players_see_neither_the_enemies_strength_nor_head_count() -> None:
    battle = run(
        dwarves_and_orcs(),
        {"type": "leader_command", "side": "enemies", "sl": 7},
        {"type": "resolve_round", "mode": "rolls", "rolls": {"allies": 40, "enemies": 20}},
    )
    view = state_view(battle, "player")
    orcs = next(u for u in view["units"] if u["side"] == "enemies")
    assert orcs["fighters"] is None and orcs["strength"] is None and orcs["casualties"] is None
    assert view["sides"]["enemies"]["strength"] is None
    assert view["sides"]["allies"]["strength"] == battle.strength("allies")
    round_event = view["log"][-1]["events"][0]
    assert round_event["strength"]["enemies"] is None
    assert round_event["targets"]["enemies"] is None
    assert round_event["strength"]["allies"] == battle.strength("allies")
    assert view["log"][-2]["events"][0]["bonus"] is None
    assert '"fighters": 12' not in numbers_in(view)


def test_the_gm_sees_everything() -> None:
    battle = dwarves_and_orcs()
    view = state_view(battle, "gm")
    assert [u["fighters"] for u in view["units"]] == [10, 12]
    entry = battle.log[-1].to_dict()
    assert redact_entry(battle, entry, "gm") == entry


def test_the_gm_can_hide_the_allies_too_or_nothing() -> None:
    battle = run(dwarves_and_orcs(), {"type": "set_hidden", "hidden": ["allies.fighters"]})
    view = state_view(battle, "player")
    assert [u["fighters"] for u in view["units"]] == [None, 12]
    assert view["sides"]["enemies"]["strength"] == 26


def test_a_hidden_strength_is_hidden_in_commands_too() -> None:
    battle = run(dwarves_and_orcs(), {"type": "set_strength", "side": "enemies", "strength": 11})
    entry = state_view(battle, "player")["log"][-1]
    assert entry["command"]["strength"] is None
    assert entry["events"][0]["strength"] is None


def test_influence_modifier_after_the_battle_stays_visible_for_a_visible_winner() -> None:
    battle = run(
        dwarves_and_orcs(),
        {"type": "end_battle", "winner": "allies"},
        {"type": "roll_influence", "side": "allies", "roll": 50},
    )
    event = state_view(battle, "player")["log"][-1]["events"][0]
    assert (event["modifier"], event["total"]) == (80, 130)


def test_a_view_without_the_log_is_the_view_less_its_log() -> None:
    battle = run(
        dwarves_and_orcs(),
        {"type": "resolve_round", "mode": "lost", "lost": {"allies": 1, "enemies": 2}},
    )
    for role in ("gm", "player"):
        full = state_view(battle, role)
        del full["log"]
        assert state_view(battle, role, log=False) == full


@settings(max_examples=150, deadline=None)
@given(
    rounds=st.lists(st.tuples(st.integers(1, 100), st.integers(1, 100)), min_size=1, max_size=10)
)
def test_a_shown_sides_loss_is_never_hidden_beside_its_strength_before_and_after(
    rounds: list[tuple[int, int]],
) -> None:
    """What players are shown in one place is never "?" in another: a round that leaves the
    allies (shown) above 0 shows their loss, which is their strength before less after."""
    battle = dwarves_and_orcs()  # the enemies' strength hidden, the house default
    for allies_roll, enemies_roll in rounds:
        if battle.status != "fighting":
            break
        before = state_view(battle, "player")["sides"]["allies"]["strength"]
        rolls = {"allies": allies_roll, "enemies": enemies_roll}
        battle = run(battle, {"type": "resolve_round", "mode": "rolls", "rolls": rolls})
        event = state_view(battle, "player")["log"][-1]["events"][0]
        after = event["strength"]["allies"]
        assert after == state_view(battle, "player")["sides"]["allies"]["strength"]
        if after > 0:
            assert event["lost"]["allies"] == before - after
        assert event["lost"]["enemies"] is None  # the enemies' own loss: hidden with their strength
