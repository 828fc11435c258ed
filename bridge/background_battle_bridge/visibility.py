"""Who may see what: the one place the bridge decides what each role is told and may send.

The core decides what a player's view of a battle hides (``background_battle.view``: the
enemies' numbers by default, a hidden side's dice and everything they give away); this module
is the bridge's only door to it, and adds what only the bridge knows: which battles a role is
told of, which messages a role may send, what is for the GMs alone. Every path that sends to a
connection (the events and their budget, `state`, `events`, `log_page`, the lists of battles,
the Foundry module's part, the player token in a GM's `welcome`) asks here; docs/protocol.md
("What players are told of") says the same in words.

>>> told_of("player", "setup", archived=False), told_of("player", "fighting", archived=False)
(False, True)
>>> may_send("player", "command"), may_send("player", "subscribe")
(False, True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar

from background_battle import Battle, redact_entry, state_view, views_by_role
from background_battle.view import Role

T = TypeVar("T")

ROLES: Final[tuple[Role, ...]] = ("gm", "player")
# What only a GM may send: a change to a battle, and everything about Foundry's tokens (the
# Apply jobs, their claims, plans and the tokens moved into the PCs' fight), and which effects of
# an Influence roll are done in the PCs' fight (influence_marks.py).
GM_ONLY_TYPES: Final = frozenset(
    {
        "command",
        "tokens",
        "request_casualties",
        "applied",
        "unapplied",
        "claim",
        "unclaim",
        "plan",
        "cancel_apply",
        "detached",
        "mark_effects",
    }
)


def is_gm(role: Role) -> bool:
    """Whether the role is a GM's (who is told everything and may change everything)."""
    return role == "gm"


def may_send(role: Role, kind: str) -> bool:
    """Whether a connection of ``role`` may send a message of type ``kind``."""
    return is_gm(role) or kind not in GM_ONLY_TYPES


def told_of(role: Role, status: str, archived: bool) -> bool:
    """Whether a role is told of a battle: a GM of every one, a player only of a battle the GM
    has started and not archived (one in set-up is the GM's to prepare unseen)."""
    return is_gm(role) or (status != "setup" and not archived)


def reaches(role: Role, players: bool) -> bool:
    """Whether a message sent with ``players`` (false: for the GMs alone) goes to ``role``."""
    return players or is_gm(role)


def view(battle: Battle, role: Role, *, log: bool = True) -> dict[str, Any]:
    """The battle as ``role`` sees it (the core's ``state_view``)."""
    return state_view(battle, role, log=log)


def views(battle: Battle, *, log: bool = True) -> dict[Role, dict[str, Any]]:
    """The battle as each role sees it, made once for both (the core's ``views_by_role``)."""
    return views_by_role(battle, log=log)


def entry_seen(battle: Battle, entry: dict[str, Any], role: Role) -> dict[str, Any]:
    """A log entry as ``role`` sees it (the core's ``redact_entry``)."""
    return redact_entry(battle, entry, role)


def gms_only(role: Role, part: Callable[[], T]) -> T | None:
    """``part()`` for a GM, nothing for anyone else (the Foundry module's tokens and reports
    in `state`, which players are never sent)."""
    return part() if is_gm(role) else None
