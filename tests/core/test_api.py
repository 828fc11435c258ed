"""The JSON boundary: plain dicts in and out, errors as data, battles from outside checked."""

from __future__ import annotations

import copy

from background_battle.api import handle


def started_battle() -> dict[str, object]:
    battle = handle({"op": "new_battle", "name": "api"})["battle"]
    for command in (
        {"type": "add_unit", "name": "Dwarves", "side": "allies", "fighters": 10, "strength": 30},
        {"type": "add_unit", "name": "Orcs", "side": "enemies", "fighters": 12, "strength": 26},
        {"type": "start"},
    ):
        battle = handle({"op": "apply", "battle": battle, "command": command})["battle"]
    return battle


def test_a_battle_sent_back_unchanged_gives_the_same_reply_as_a_fresh_one() -> None:
    battle = started_battle()
    command = {"type": "set_strength", "side": "allies", "strength": 18}
    straight_back = handle({"op": "apply", "battle": battle, "command": command})
    handle({"op": "new_battle", "name": "something else"})  # forgets the last battle
    from_outside = handle({"op": "apply", "battle": copy.deepcopy(battle), "command": command})
    assert straight_back == from_outside
    assert straight_back["view"]["units"][0]["casualties"]["killed"] == 2


def test_a_battle_changed_after_it_was_handed_out_is_checked_again() -> None:
    battle = started_battle()
    battle["log"][2]["events"][0]["initial"]["allies"] = 300  # type: ignore[index]
    reply = handle({"op": "view", "battle": battle})
    assert reply["ok"] is False
    assert (reply["error"]["code"], reply["error"]["field"]) == (
        "bad_battle",
        "battle.log[2].events",
    )


def test_rolling_needs_a_seed_and_the_same_seed_rolls_the_same() -> None:
    battle = started_battle()
    auto = {"type": "resolve_round", "mode": "auto"}
    missing = handle({"op": "apply", "battle": battle, "command": auto})
    assert (missing["ok"], missing["error"]["code"]) == (False, "required")
    first = handle({"op": "apply", "battle": battle, "command": auto, "seed": 5})
    second = handle({"op": "apply", "battle": battle, "command": auto, "seed": 5})
    assert first == second


def test_every_reply_says_ok_and_failures_carry_code_field_message_params() -> None:
    for request in ({}, {"op": 3}, [], "casualties", {"op": "odds"}, {"op": "view", "battle": 1}):
        reply = handle(request)
        assert reply["ok"] is False
        assert set(reply["error"]) == {"code", "field", "message", "params"}


def test_odds_from_a_views_log_equal_odds_from_the_battle() -> None:
    battle = started_battle()
    view = handle({"op": "view", "battle": battle})["view"]
    from_log = handle({"op": "odds", "log": view["log"], "name": "api", "runs": 200, "seed": 3})
    from_battle = handle({"op": "odds", "battle": battle, "runs": 200, "seed": 3})
    assert from_log == from_battle
    assert from_log["ok"] is True


def test_a_kept_battle_named_by_its_number_gives_what_changed_and_the_same_battle() -> None:
    battle = started_battle()
    command = {"type": "set_strength", "side": "allies", "strength": 18}
    whole = handle({"op": "apply", "battle": copy.deepcopy(battle), "command": command})
    kept = handle({"op": "view", "battle": battle, "keep": True})["kept"]
    changed = handle({"op": "apply", "kept": kept, "command": command})
    assert changed["ok"] is True and changed["kept"] != kept
    assert changed["entries"] == whole["battle"]["log"][len(battle["log"]) :]  # type: ignore[index]
    assert {**changed["view"], "log": whole["view"]["log"]} == whole["view"]
    assert changed["events"] == whole["events"]
    again = handle({"op": "view", "kept": changed["kept"]})["view"]
    assert again == whole["view"]


def test_a_number_not_kept_is_refused_and_changes_nothing_unless_the_battle_comes_too() -> None:
    battle = started_battle()
    kept = handle({"op": "view", "battle": battle, "keep": True})["kept"]
    handle({"op": "new_battle", "name": "another", "keep": True})  # keeps another
    command = {"type": "set_strength", "side": "allies", "strength": 18}
    refused = handle({"op": "apply", "kept": kept, "command": command})
    assert (refused["ok"], refused["error"]["field"]) == (False, "kept")
    with_battle = handle({"op": "apply", "kept": kept, "battle": battle, "command": command})
    assert with_battle["ok"] is True and "kept" not in with_battle
    assert with_battle["view"]["units"][0]["name"] == "Dwarves"
