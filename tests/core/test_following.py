"""following.py: a followed battle worked out entry by entry gives what the whole log gives."""

from __future__ import annotations

import contextlib
import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from background_battle import BattleError, apply, new_battle, to_json
from background_battle.following import extended, working_of

from .builders import dwarves_and_orcs

COMMANDS = st.one_of(
    st.builds(
        lambda a, e: {"type": "resolve_round", "mode": "lost", "lost": {"allies": a, "enemies": e}},
        st.integers(0, 6),
        st.integers(0, 6),
    ),
    st.builds(
        lambda side, sl: {"type": "leader_command", "side": side, "sl": sl},
        st.sampled_from(["allies", "enemies"]),
        st.integers(0, 6),
    ),
    st.builds(
        lambda side, s: {"type": "set_strength", "side": side, "strength": s},
        st.sampled_from(["allies", "enemies"]),
        st.integers(1, 40),
    ),
    st.just({"type": "undo"}),
    st.just({"type": "rename", "name": "ford"}),
)


def played(commands: list[dict[str, Any]]) -> Any:
    battle = dwarves_and_orcs()
    for command in commands:
        with contextlib.suppress(BattleError):  # refused in this phase: nothing changed
            battle, _ = apply(battle, command)
    return battle


@settings(max_examples=60, deadline=None)
@given(st.lists(COMMANDS, max_size=12), st.data())
def test_entry_by_entry_is_the_whole_logs_working(
    commands: list[dict[str, Any]], data: Any
) -> None:
    whole = played(commands)
    log = to_json(whole)["log"]
    cut = data.draw(st.integers(3, len(log)))  # the kept battle: the log's first entries
    held = new_battle("gate")
    points: list[dict[str, Any]] = []
    for chunk in (log[:3], log[3:cut], log[cut:]):
        if not chunk:
            continue
        held, working = extended(held, chunk)
        points = working["points"] if working["restart"] else points + working["points"]
    after = held
    expected = working_of(whole)
    assert after.version == whole.version
    assert (working["entry"], working["steps"], working["casualties"]) == (
        expected["entry"],
        expected["steps"],
        expected["casualties"],
    )
    assert points == expected["points"]


def test_a_tampered_entry_is_refused_naming_it() -> None:
    whole = played([{"type": "resolve_round", "mode": "lost", "lost": {"allies": 2, "enemies": 0}}])
    entries = copy.deepcopy(to_json(whole)["log"][3:])
    entries[0]["events"][0]["strength"]["allies"] = 99
    with pytest.raises(BattleError) as refused:
        extended(dwarves_and_orcs(), entries)
    assert (refused.value.code, refused.value.field) == ("bad_battle", "entries[0].events")


def test_an_undo_brings_the_whole_working_again() -> None:
    whole = played([{"type": "resolve_round", "mode": "lost", "lost": {"allies": 2, "enemies": 0}}])
    undone = played(
        [
            {"type": "resolve_round", "mode": "lost", "lost": {"allies": 2, "enemies": 0}},
            {"type": "undo"},
        ]
    )
    _, working = extended(whole, to_json(undone)["log"][4:])
    assert working["restart"] is True
    assert [(p["allies"], p["enemies"]) for p in working["points"]] == [(30, 26)]
