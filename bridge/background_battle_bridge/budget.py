"""What a battle may hold, so that every frame the bridge sends fits `max_message`.

A frame is made of three parts at most, each bounded here when a change is decided, before it
is stored (a refusal changes nothing):

- the battle's **view** (the core's `state_view` without its log, for each role): `VIEW_MAX`,
  and a change that makes the battle larger (a unit, modifiers, a name, a table, an undo) must
  leave room for the numbers the fight fills in (`ROOM_PER_UNIT`, `ROOM_FOR_SIDES`);
- one **log entry** (a command as the core normalised it and its events, for each role):
  `ENTRY_MAX`;
- the battle's **Foundry data** (tokens per unit, head counts, Apply reports; GMs only):
  `FOUNDRY_MAX`.

An `event` is one entry and the view; a `state` is the view, the Foundry data and as much of
the log as the rest holds (at least the last entry); `events` and `log_page` hold as many
entries as fit. So no frame is larger than `MAX_MESSAGE`, whatever was accepted before.
A change that would pass a bound is refused with `error too_large`, naming the field that
made the battle grow; a battle already over a bound (a file from before the bounds) may still
take changes that do not make it larger.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from background_battle import Battle
from background_battle.view import Role

from . import protocol as p
from . import visibility
from .protocol import ProtocolError
from .room import Room
from .stored import Record

VIEW_MAX = 192 * 1024
ENTRY_MAX = 160 * 1024
FOUNDRY_MAX = 128 * 1024
SLACK = 4 * 1024  # a message's own fields around its parts (names, versions, `id`)
# room a battle keeps, while it grows, for the numbers the fight fills in (each unit's
# casualties, the sides' strengths, a player's `redacted` lists), so that a battle set up
# within its bound can always be started, fought and ended
ROOM_PER_UNIT = 128
ROOM_FOR_SIDES = 1024
assert VIEW_MAX + ENTRY_MAX + FOUNDRY_MAX + 2 * SLACK <= p.MAX_MESSAGE

# the field of each core command that makes a battle's view grow, named as the core names it
# (the others name the message's `command` as a whole)
_GROWS = {
    "add_unit": "name",
    "update_unit": "name",
    "rename": "name",
    "set_modifiers": "modifiers",
    "set_influence_table": "table",
}


def size(value: Any) -> int:
    """Bytes of a value as the bridge encodes it."""
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())


class _TableSize:
    """The encoded size of a battle's Influence table, kept while it is the same (immutable)
    object: the largest part of a view, and the same from one command to the next."""

    def __init__(self) -> None:
        self.table: object = self
        self.bytes = 0

    def of(self, battle: Battle, view: dict[str, Any]) -> int:
        if battle.influence_table is not self.table:
            self.table, self.bytes = battle.influence_table, size(view["influence_table"])
        return self.bytes


_TABLE = _TableSize()
_TABLE_KEY = len(',"influence_table":')


def view_size(battle: Battle, view: dict[str, Any]) -> int:
    """`size(view)`, with the Influence table's part measured once per table.

    >>> from background_battle import new_battle
    >>> battle = new_battle("x")
    >>> view = visibility.view(battle, "gm", log=False)
    >>> view_size(battle, view) == size(view)
    True
    """
    if "influence_table" not in view:
        return size(view)
    rest = {key: value for key, value in view.items() if key != "influence_table"}
    return size(rest) + _TABLE_KEY + _TABLE.of(battle, view)


@dataclass(frozen=True)
class Decided:
    """What a core command's event tells each role, measured within its bounds: the new
    battle's views (`{role + "-nolog": view}`, the room's cache) and the new log entry as each
    role may see it (`{role: entry}`)."""

    views: dict[str, Any]
    entries: dict[Role, dict[str, Any]]


def views_within(before: Battle, after: Battle, entry: dict[str, Any]) -> Decided:
    """The views of `after` and its new log `entry` for each role, once they are within
    their bounds.

    Raises:
        ProtocolError: `too_large`, naming the command's field that made the battle grow.
    """
    kind = str(entry.get("command", {}).get("type", ""))
    field = _GROWS.get(kind, "command")
    limit = VIEW_MAX
    if kind in _GROWS or kind == "undo":
        limit -= ROOM_PER_UNIT * len(after.units) + ROOM_FOR_SIDES
    views = visibility.views(after, log=False)
    decided = Decided({role + "-nolog": view for role, view in views.items()}, {})
    for role in visibility.ROLES:
        seen = decided.entries[role] = visibility.entry_seen(after, entry, role)
        entry_size = size(seen)
        if entry_size > ENTRY_MAX:
            raise _too_large(field, f"this {kind} makes a log entry", entry_size, ENTRY_MAX)
        grown = view_size(after, views[role])
        if grown > limit and grown > size(visibility.view(before, role, log=False)):
            units = len(after.units)
            raise _too_large(
                field,
                f"this {kind} would make the {role}'s view of the battle ({units} units)",
                grown,
                limit,
                "; shorten names or take units or modifiers out",
            )
    return decided


def foundry_within(room: Room, record: Record, field: str = "token_ids") -> None:
    """Refuse a `tokens`, `applied` or `mark_effects` record that would make the battle's
    Foundry data pass `FOUNDRY_MAX` (a record that shrinks it is always taken).

    Raises:
        ProtocolError: `too_large`, naming `field` (`token_ids`, `marks`).
    """
    trial = Room(
        room.name,
        room.battle,
        tokens=dict(room.tokens),
        fighters=dict(room.fighters),
        applied=dict(room.applied),
        jobs=dict(room.jobs),
        detached={unit: list(moves) for unit, moves in room.detached.items()},
        marks=dict(room.marks),
    )
    trial.absorb(room.seq + 1, record, room.battle)
    grown = size(trial.foundry())
    if grown > FOUNDRY_MAX and grown > size(room.foundry()):
        raise _too_large(
            field,
            f"battle {room.name!r}'s Foundry data (token ids of every unit, marks of"
            " Influence effects) would be",
            grown,
            FOUNDRY_MAX,
            "; give fewer tokens per unit" if field == "token_ids" else "; shorten the results",
        )


def _too_large(field: str, what: str, got: int, most: int, hint: str = "") -> ProtocolError:
    return ProtocolError(
        "too_large",
        f"{what} {got:,} bytes, over the {most:,} a battle may hold so that every message "
        f"fits max_message ({p.MAX_MESSAGE:,} bytes){hint}",
        field=field,
        params={"max": most, "size": got},
    )
