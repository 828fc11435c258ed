"""Every computed number can say why: the working of each rule, from the log (explain.py)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from background_battle import BattleError, from_json, new_battle
from background_battle.api import handle
from background_battle.explain import casualty_working, explain_entry
from background_battle.serialize import to_json
from background_battle.series import strength_series
from background_battle.working import casualty_steps

from .builders import dwarves_and_orcs, run, two_unit_allies, unit


def texts(steps: list[dict[str, str]]) -> list[tuple[str, str]]:
    return [(s["rule"], s["text"]) for s in steps]


def test_the_leaders_bonus_is_one_plus_the_tens_plus_half_the_sl() -> None:
    battle = run(
        new_battle("x"),
        unit("Knights", "allies", 9, 45),
        unit("Orcs", "enemies", 12, 26),
        {"type": "start"},
        {"type": "leader_command", "side": "allies", "sl": 7},
    )

    assert texts(explain_entry(battle)) == [
        ("leader_bonus", "1 + floor(45/10) + floor(7/2) = 1 + 4 + 3 = 8"),
        ("strength_for_next_test", "45 + 8 = 53"),
    ]


def test_the_start_shows_how_each_sides_s0_came_from_its_units_and_modifiers() -> None:
    battle = two_unit_allies()  # 20 + 60 and a flat +20: S0 100

    assert texts(explain_entry(battle)) == [
        ("initial_strength", "20 + 60 + 20 = 100"),
        ("initial_strength", "90 = 90"),
    ]


def test_a_rolled_leadership_test_shows_how_its_sl_came() -> None:
    battle = run(
        dwarves_and_orcs(),
        {"type": "leader_command", "side": "allies", "leadership": 50, "roll": 23},
    )

    assert texts(explain_entry(battle))[0] == ("sl", "floor(50/10) - floor(23/10) = 5 - 2 = 3")


def test_half_the_lost_share_is_killed_and_an_exact_half_goes_down() -> None:
    assert texts(casualty_steps(50, Fraction(21, 40))) == [
        ("killed", "50 × 21/40 / 2 = 13.125 → 13"),
        ("wounded", "min(2 × 13, 50 - 13) = 26"),
        ("fit", "50 - 13 - 26 = 11"),
    ]
    assert texts(casualty_steps(13, Fraction(1)))[0] == ("killed", "13 × 1 / 2 = 6.5 → 6")


def test_a_round_of_typed_rolls_shows_both_sls_the_loss_and_the_new_strength() -> None:
    battle = run(
        dwarves_and_orcs(),
        {"type": "leader_command", "side": "enemies", "sl": 7},
        {"type": "resolve_round", "mode": "rolls", "rolls": {"allies": 12, "enemies": 97}},
    )

    assert texts(explain_entry(battle)) == [
        ("target", "26 + 6 = 32"),
        ("sl", "floor(30/10) - floor(12/10) = 3 - 1 = 2"),
        ("sl", "floor(32/10) - floor(97/10) = 3 - 9 = -6"),
        ("won_by_sl", "+2 > -6"),
        ("opposed_loss", "max(1, 2 - (-6)) = 8"),
        ("strength_after", "26 - 8 = 18"),
    ]


def test_a_tie_on_sl_0_is_won_by_the_success_and_the_working_says_so() -> None:
    """Issue 27: 30 vs 35 at strength 30: both SL 0, the allies passed (+0), the enemies failed
    (-0): the allies win, and "why?" says a success beats a failure."""
    battle = run(
        dwarves_and_orcs(),
        {"type": "set_strength", "side": "enemies", "strength": 30},
        {"type": "resolve_round", "mode": "rolls", "rolls": {"allies": 30, "enemies": 35}},
    )
    event = battle.log[-1].events[0]
    assert (event["winner"], event["decided_by"]) == ("allies", "success")
    assert event["sl"] == {"allies": 0, "enemies": 0}
    assert event["success"] == {"allies": True, "enemies": False}
    steps = texts(explain_entry(battle))
    assert ("won_by_success", "+0 > -0") in steps
    assert steps[steps.index(("won_by_success", "+0 > -0")) + 1] == (
        "opposed_loss",
        "max(1, 0 - 0) = 1",
    )


def test_a_97_fails_with_sl_0_and_loses_to_a_success() -> None:
    battle = run(
        dwarves_and_orcs(),
        {"type": "set_strength", "side": "enemies", "strength": 100},
        {"type": "resolve_round", "mode": "rolls", "rolls": {"allies": 30, "enemies": 97}},
    )
    event = battle.log[-1].events[0]
    assert (event["sl"]["enemies"], event["success"]["enemies"]) == (0, False)
    assert (event["winner"], event["decided_by"]) == ("allies", "success")
    assert ("won_by_success", "+0 > -0") in texts(explain_entry(battle))


def test_equal_sl_and_result_go_to_the_higher_target_and_all_equal_is_a_draw() -> None:
    battle = run(
        dwarves_and_orcs(),
        {"type": "resolve_round", "mode": "rolls", "rolls": {"allies": 21, "enemies": 12}},
    )
    event = battle.log[-1].events[0]
    assert (event["winner"], event["decided_by"]) == ("allies", "target")
    assert ("won_by_target", "+1 = +1; 30 > 26") in texts(explain_entry(battle))
    battle = run(
        dwarves_and_orcs(),
        {"type": "set_strength", "side": "enemies", "strength": 30},
        {"type": "resolve_round", "mode": "rolls", "rolls": {"allies": 40, "enemies": 40}},
    )
    event = battle.log[-1].events[0]
    assert (event["winner"], event["decided_by"]) == (None, "draw")
    assert ("tie", "-1 = -1; 30 = 30") in texts(explain_entry(battle))


def test_a_battle_saved_before_rounds_said_why_loads_and_says_it() -> None:
    battle = run(
        dwarves_and_orcs(),
        {"type": "resolve_round", "mode": "rolls", "rolls": {"allies": 30, "enemies": 35}},
    )
    saved = to_json(battle)
    for entry in saved["log"]:
        for event in entry["events"]:
            event.pop("decided_by", None)
    loaded = from_json(saved)
    assert loaded.log[-1].events[0]["decided_by"] == "sl"
    tampered = to_json(battle)
    tampered["log"][-1]["events"][0]["decided_by"] = "target"
    with pytest.raises(BattleError) as caught:
        from_json(tampered)
    assert caught.value.code == "bad_battle"


def test_the_influence_modifier_during_the_battle_is_the_difference_of_strengths() -> None:
    battle = run(
        dwarves_and_orcs(),
        {"type": "set_strength", "side": "allies", "strength": 20},
        {"type": "set_strength", "side": "enemies", "strength": 25},
        {"type": "roll_influence", "side": "allies", "roll": 40},
    )

    assert texts(explain_entry(battle)) == [
        ("influence_modifier", "20 - 25 = -5"),
        ("influence_total", "40 - 5 = 35"),
    ]


def test_the_pcs_win_shows_who_still_fights_and_their_last_blow() -> None:
    battle = run(
        dwarves_and_orcs(),
        {"type": "set_strength", "side": "allies", "strength": 24},
        {"type": "pcs_won", "fleeing": "1/2"},
    )

    assert texts(explain_entry(battle))[:3] == [
        ("still_fighting", "26 × (1 - 1/2) = 13"),
        ("last_blow", "13 / 2 = 6.5 → 6"),
        ("strength_after", "24 - 6 = 18"),
    ]


def test_each_units_casualties_are_worked_out_from_the_share_lost() -> None:
    battle = run(dwarves_and_orcs(), {"type": "set_strength", "side": "allies", "strength": 18})

    assert texts(casualty_working(battle)["u1"]) == [
        ("lost_share", "(30 - 18) / 30 = 2/5"),
        ("killed", "10 × 2/5 / 2 = 2"),
        ("wounded", "min(2 × 2, 10 - 2) = 4"),
        ("fit", "10 - 2 - 4 = 4"),
    ]


def test_an_earlier_entry_is_explained_from_the_state_before_it() -> None:
    battle = run(
        dwarves_and_orcs(),
        {"type": "resolve_round", "mode": "lost", "lost": {"allies": 4, "enemies": 0}},
        {"type": "resolve_round", "mode": "lost", "lost": {"allies": 4, "enemies": 0}},
    )

    assert texts(explain_entry(battle, 3)) == [("strength_after", "30 - 4 = 26")]
    assert texts(explain_entry(battle, 4)) == [("strength_after", "26 - 4 = 22")]


def test_the_explain_request_answers_from_a_battle_or_a_log_and_refuses_a_missing_entry() -> None:
    battle = run(dwarves_and_orcs(), {"type": "leader_command", "side": "enemies", "sl": 7})
    data = to_json(battle)

    by_battle = handle({"op": "explain", "battle": data})
    by_log = handle({"op": "explain", "log": data["log"], "entry": 3})

    assert by_battle["entry"] == 3 and by_battle["steps"] == by_log["steps"]
    refused = handle({"op": "explain", "battle": data, "entry": 9})
    assert refused["ok"] is False and refused["error"]["field"] == "entry"


def test_the_series_has_a_point_per_entry_of_the_fight_and_leaves_out_undone_ones() -> None:
    battle = run(
        dwarves_and_orcs(),
        {"type": "resolve_round", "mode": "lost", "lost": {"allies": 4, "enemies": 2}},
        {"type": "resolve_round", "mode": "lost", "lost": {"allies": 30, "enemies": 0}},
        {"type": "undo"},
        {"type": "set_strength", "side": "enemies", "strength": 0},
    )

    points = strength_series(battle)

    assert [(p["round"], p["allies"], p["enemies"]) for p in points] == [
        (0, 30, 26),
        (1, 26, 24),
        (1, 26, 0),
    ]
    assert points[-1]["ended"] == {"winner": "allies"}
    assert handle({"op": "series", "battle": to_json(battle)})["points"] == points


def test_strength_at_the_end_compares_only_where_the_comparison_chose_the_winner() -> None:
    # The PCs' victory: the allies win whatever the strengths, which are listed, not compared.
    pcs = run(
        dwarves_and_orcs(),
        {"type": "resolve_round", "mode": "lost", "lost": {"allies": 21, "enemies": 0}},
        {"type": "pcs_won", "fleeing": "1/2"},
    )
    assert texts(explain_entry(pcs))[-1] == ("strengths_at_end", "3 · 13")  # not "3 < 13"
    declared = run(
        dwarves_and_orcs(),
        {"type": "resolve_round", "mode": "lost", "lost": {"allies": 21, "enemies": 7}},
        {"type": "end_battle", "winner": "allies"},
    )
    assert texts(explain_entry(declared)) == [("strengths_at_end", "9 · 19")]
    stronger = run(dwarves_and_orcs(), {"type": "end_battle"})
    assert texts(explain_entry(stronger)) == [("strengths_at_end", "30 > 26")]


def test_s0_is_asked_of_the_core_in_set_up_and_is_the_one_start_fixes() -> None:
    battle = run(
        dwarves_and_orcs(start=False),
        {"type": "set_modifiers", "side": "allies", "modifiers": [{"name": "Walls", "percent": 9}]},
    )
    planned = handle({"op": "initial_strength", "battle": to_json(battle)})["initial"]
    assert planned == {"allies": 33, "enemies": 26}  # 30 × 1.09 = 32.7
    started = run(battle, {"type": "start"})
    assert handle({"op": "initial_strength", "battle": to_json(started)})["initial"] == planned
    empty = handle({"op": "initial_strength", "battle": to_json(new_battle("x"))})["initial"]
    assert empty == {"allies": None, "enemies": None}
