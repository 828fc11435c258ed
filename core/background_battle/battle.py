"""The battle as a frozen value: sides, units, status and the log it was built from."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal

from .influence import InfluenceTable, default_table
from .modifiers import Modifier
from .units import Unit
from .validate import Side, text

Status = Literal["setup", "fighting", "ended"]
HIDEABLE: Final = ("allies.strength", "allies.fighters", "enemies.strength", "enemies.fighters")
DEFAULT_HIDDEN: Final = frozenset({"enemies.strength", "enemies.fighters"})


@dataclass(frozen=True)
class SideState:
    """One side: its modifiers, S0 and current strength once started, a pending leader's bonus."""

    modifiers: tuple[Modifier, ...] = ()
    initial: int | None = None
    strength: int | None = None
    pending_bonus: int = 0


@dataclass(frozen=True)
class Entry:
    """One accepted command and the events it produced (rolls included)."""

    command: dict[str, Any]
    events: tuple[dict[str, Any], ...]

    def to_dict(self) -> dict[str, Any]:
        """The JSON-friendly form."""
        return {"command": self.command, "events": list(self.events)}


@dataclass(frozen=True)
class Battle:
    """A background battle. Change it only through commands (``apply``); it is a value."""

    name: str
    created_as: str = ""
    units: tuple[Unit, ...] = ()
    allies: SideState = field(default_factory=SideState)
    enemies: SideState = field(default_factory=SideState)
    status: Status = "setup"
    round: int = 0
    winner: Side | None = None
    end_reason: str | None = None
    hidden: frozenset[str] = DEFAULT_HIDDEN
    influence_table: InfluenceTable | None = None
    next_unit: int = 1
    log: Sequence[Entry] = ()
    undone: frozenset[int] = frozenset()

    @property
    def version(self) -> int:
        """How many entries the log holds (undo entries included)."""
        return len(self.log)

    def side(self, side: Side) -> SideState:
        """The state of one side."""
        return self.allies if side == "allies" else self.enemies

    def with_side(self, side: Side, **changes: Any) -> Battle:
        """A copy with one side changed."""
        changed = replace(self.side(side), **changes)
        return replace(self, allies=changed) if side == "allies" else replace(self, enemies=changed)

    def units_of(self, side: Side) -> tuple[Unit, ...]:
        """The units of one side, in the order they were added."""
        return tuple(unit for unit in self.units if unit.side == side)

    def unit(self, unit_id: str) -> Unit | None:
        """The unit with this id, if any."""
        return next((unit for unit in self.units if unit.id == unit_id), None)

    def strength(self, side: Side) -> int:
        """A side's current strength (0 before the start)."""
        return self.side(side).strength or 0

    def table(self) -> InfluenceTable:
        """The Influence table in use: the GM's own or the house default."""
        return self.influence_table or default_table()

    def can_undo(self) -> bool:
        """True when some entry counts (what ``undo`` would take back); looks from the end,
        so its cost does not grow with the log.

        >>> new_battle("x").can_undo()
        False
        """
        for i in range(len(self.log) - 1, -1, -1):
            if i not in self.undone and self.log[i].command.get("type") != "undo":
                return True
        return False

    def active_entries(self) -> list[int]:
        """Indexes of entries that count: neither undone nor an undo themselves."""
        return [
            i
            for i, entry in enumerate(self.log)
            if i not in self.undone and entry.command.get("type") != "undo"
        ]


def new_battle(name: str = "battle") -> Battle:
    """An empty battle in set-up, with the house defaults.

    >>> new_battle("ambush").status, new_battle("ambush").version
    ('setup', 0)
    """
    name = text(name, "name")
    return Battle(name=name, created_as=name)
