"""Hypothesis properties: any input gives a result that keeps the invariants, or a BattleError."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from background_battle import (
    BattleError,
    apply,
    casualties,
    from_json,
    new_battle,
    rebuild,
    state_view,
    to_json,
    views_by_role,
)
from background_battle.api import handle

FIGHTERS = st.integers(min_value=0, max_value=100_000)
STRENGTH = st.integers(min_value=0, max_value=1_000_000)


@given(
    initial=st.integers(1, 1_000_000), remaining=STRENGTH, fighters=st.lists(FIGHTERS, max_size=20)
)
def test_every_fighter_is_killed_wounded_or_fit_and_none_negative(
    initial: int, remaining: int, fighters: list[int]
) -> None:
    for n, unit in zip(fighters, casualties(initial, remaining, fighters).units, strict=True):
        assert unit.killed + unit.wounded + unit.fit == n
        assert min(unit.killed, unit.wounded, unit.fit) >= 0
        assert unit.wounded <= 2 * unit.killed


@given(
    initial=st.integers(1, 10_000), a=st.integers(0, 10_000), b=st.integers(0, 10_000), n=FIGHTERS
)
def test_more_strength_lost_never_means_fewer_dead(initial: int, a: int, b: int, n: int) -> None:
    more_left, less_left = max(a, b), min(a, b)
    assert (
        casualties(initial, less_left, [n]).units[0].killed
        >= casualties(initial, more_left, [n]).units[0].killed
    )


ANY_VALUE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-10, 10**7),
    st.floats(allow_nan=True),
    st.text(max_size=5),
    st.sampled_from(
        ["allies", "enemies", "u1", "u2", "u3", "1/2", "auto", "rolls", "lost", "large"]
    ),
)
ROLLS = st.fixed_dictionaries({"allies": st.integers(-5, 105), "enemies": st.integers(-5, 105)})
COMMAND = st.one_of(
    st.fixed_dictionaries(
        {
            "type": st.just("add_unit"),
            "name": st.sampled_from(["Dwarves", "Orcs", ""]),
            "side": st.sampled_from(["allies", "enemies", "orcs"]),
            "fighters": st.integers(-2, 60),
            "strength": st.integers(-2, 200),
        }
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("set_modifiers"),
            "side": st.sampled_from(["allies", "enemies"]),
            "modifiers": st.lists(
                st.fixed_dictionaries(
                    {
                        "name": st.just("m"),
                        "percent": st.integers(-120, 200),
                        "flat": st.integers(-50, 50),
                    }
                ),
                max_size=2,
            ),
        }
    ),
    st.just({"type": "start"}),
    st.fixed_dictionaries({"type": st.just("resolve_round"), "mode": st.just("auto")}),
    st.fixed_dictionaries(
        {"type": st.just("resolve_round"), "mode": st.just("rolls"), "rolls": ROLLS}
    ),
    st.fixed_dictionaries(
        {"type": st.just("resolve_round"), "mode": st.just("lost"), "lost": ROLLS}
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("leader_command"),
            "side": st.sampled_from(["allies", "enemies"]),
            "sl": st.integers(-3, 12),
            "success": st.booleans(),
        }
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("leader_command"),
            "side": st.sampled_from(["allies", "enemies"]),
            "leadership": st.integers(0, 90),
        }
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("detach_fighters"),
            "unit": st.sampled_from(["u1", "u2", "u3", "u9"]),
            "fighters": st.integers(-1, 30),
        }
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("set_strength"),
            "side": st.sampled_from(["allies", "enemies"]),
            "strength": st.integers(-1, 150),
        }
    ),
    st.fixed_dictionaries(
        {"type": st.just("pcs_won"), "fleeing": st.sampled_from([0, 0.5, "1/3", 1, 2, "x"])}
    ),
    st.fixed_dictionaries({"type": st.just("end_battle")}),
    st.fixed_dictionaries(
        {"type": st.just("roll_influence"), "side": st.sampled_from(["allies", "enemies"])}
    ),
    st.just({"type": "undo"}),
    st.fixed_dictionaries(
        {
            "type": st.just("set_hidden"),
            "hidden": st.lists(
                st.sampled_from(["allies.strength", "enemies.fighters", "nope"]), max_size=2
            ),
        }
    ),
    st.dictionaries(
        st.sampled_from(["type", "side", "unit", "fighters", "strength", "mode"]),
        ANY_VALUE,
        max_size=4,
    ),
)


def check_invariants(battle: Any) -> None:
    view = state_view(battle)
    for unit in view["units"]:
        fates = unit["casualties"]
        if fates is not None:
            assert (
                fates["killed"] + fates["wounded"] + fates["fit"]
                == unit["fighters"] - unit["detached"]
            )
            assert min(fates.values()) >= 0
    for side in view["sides"].values():
        assert side["strength"] is None or side["strength"] >= 0
    assert (view["status"] == "ended") or view["winner"] is None
    json.dumps(view)  # always plain JSON
    for log in (True, False):  # each role's view made once is the one made for that role
        views = views_by_role(battle, log=log)
        assert views == {role: state_view(battle, role, log=log) for role in ("gm", "player")}


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(commands=st.lists(COMMAND, max_size=25), seed=st.integers(0, 2**32))
def test_any_commands_keep_the_invariants_and_replay_and_json_give_the_same_battle(
    commands: list[dict[str, Any]], seed: int
) -> None:
    battle, rng = new_battle("fuzz"), random.Random(seed)
    for command in commands:
        before = battle
        try:
            battle, _ = apply(battle, command, rng)
        except BattleError as error:
            assert battle is before
            assert error.code and error.message
            continue
        check_invariants(battle)
    assert rebuild(battle) == battle
    data = json.loads(json.dumps(to_json(battle)))
    assert from_json(data) == battle
    assert to_json(from_json(data)) == data


@settings(deadline=None)
@given(
    request=st.dictionaries(
        st.sampled_from(
            [
                "op",
                "battle",
                "command",
                "initial",
                "remaining",
                "units",
                "strength",
                "sl",
                "enemy_strength",
                "fleeing",
                "runs",
                "seed",
                "fighters",
                "rating",
                "size",
            ]
        ),
        ANY_VALUE | st.lists(ANY_VALUE, max_size=3),
        max_size=6,
    )
)
def test_the_json_boundary_never_raises(request: dict[str, Any]) -> None:
    reply = handle(request)
    assert isinstance(reply["ok"], bool)
    json.dumps(reply)
    if not reply["ok"]:
        assert set(reply["error"]) == {"code", "field", "message", "params"}
