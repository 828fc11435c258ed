"""visibility.py: who may see what is decided in one bridge module, and every path asks it.

Read from the bridge's source: no other module imports the core's views or redaction, none
compares a role with "gm" or "player" itself, and the messages only a GM may send are listed
there alone. Then the rules themselves, case by case.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import background_battle_bridge
from background_battle_bridge import visibility

BRIDGE = Path(background_battle_bridge.__file__).parent
CORE_VIEWS = {"state_view", "redact_entry", "views_by_role", "redact_view"}
ROLE_NAMES = {"gm", "player"}


def modules() -> list[tuple[str, ast.Module]]:
    return [
        (path.name, ast.parse(path.read_text(encoding="utf-8")))
        for path in sorted(BRIDGE.glob("*.py"))
        if path.name != "visibility.py"
    ]


def test_only_visibility_imports_the_cores_views() -> None:
    found = [
        f"{name}: {alias.name}"
        for name, tree in modules()
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("background_battle")
        for alias in node.names
        if alias.name in CORE_VIEWS
    ]
    assert found == [], "ask visibility.py instead"


def _is_role(node: ast.expr) -> bool:
    return (isinstance(node, ast.Name) and node.id == "role") or (
        isinstance(node, ast.Attribute) and node.attr == "role"
    )


def test_no_module_compares_a_role_itself() -> None:
    found = []
    for name, tree in modules():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Compare):
                continue
            sides = [node.left, *node.comparators]
            names = {s.value for s in sides if isinstance(s, ast.Constant)}
            if names & ROLE_NAMES and any(_is_role(s) for s in sides):
                found.append(f"{name}:{node.lineno}")
    assert found == [], "ask visibility.py (is_gm, told_of, reaches, may_send) instead"


def _names_gm_only(node: ast.expr) -> bool:
    return (isinstance(node, ast.Name) and node.id == "GM_ONLY_TYPES") or (
        isinstance(node, ast.Attribute) and node.attr == "GM_ONLY_TYPES"
    )


def test_the_gm_only_messages_are_listed_and_judged_in_visibility_alone() -> None:
    """Another module may read the list (protocol.py's known types include it), never define
    it again nor decide with it (`kind in GM_ONLY_TYPES`: ask `may_send`)."""
    found = []
    for name, tree in modules():
        for node in ast.walk(tree):
            targets = node.targets if isinstance(node, ast.Assign) else []
            if isinstance(node, ast.AnnAssign):
                targets = [node.target]
            judged = isinstance(node, ast.Compare) and any(
                _names_gm_only(c) for c in node.comparators
            )
            if judged or any(_names_gm_only(t) for t in targets):
                found.append(f"{name}:{node.lineno}")
    assert found == []


@pytest.mark.parametrize(
    ("role", "status", "archived", "told"),
    [
        ("gm", "setup", False, True),
        ("gm", "ended", True, True),
        ("player", "setup", False, False),
        ("player", "fighting", False, True),
        ("player", "ended", False, True),
        ("player", "fighting", True, False),
    ],
)
def test_a_player_is_told_only_of_started_battles_not_archived(
    role: str, status: str, archived: bool, told: bool
) -> None:
    assert visibility.told_of(role, status, archived) is told  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", sorted(visibility.GM_ONLY_TYPES))
def test_only_a_gm_may_change_a_battle_or_the_tokens(kind: str) -> None:
    assert visibility.may_send("gm", kind)
    assert not visibility.may_send("player", kind)


def test_a_message_for_the_gms_alone_never_reaches_a_player() -> None:
    assert visibility.reaches("gm", players=False)
    assert not visibility.reaches("player", players=False)
    assert visibility.reaches("player", players=True)
    assert visibility.gms_only("player", lambda: {"tokens": {}}) is None
    assert visibility.gms_only("gm", lambda: {"tokens": {}}) == {"tokens": {}}
