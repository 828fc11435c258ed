"""What the request handlers act on: the battles, their watchers, the disk's queue.

`reading.py`, `pipeline.py` and `foundry.py` take a `Battles`, never the hub: the hub
(`hub.py`) is one, and wires the handlers above them. This module imports none of them, so the
handlers and the hub do not import each other.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from background_battle.view import Role

from .audience import Audience
from .committer import Committer
from .room import Room
from .snapshots import Snapshots


class Battles(Protocol):
    """The stored battles (`rooms`, and the ones being created), who watches them, where their
    changes are written."""

    rooms: dict[str, Room]
    creating: dict[str, tuple[Room, Any]]
    audience: Audience
    committer: Committer
    snapshots: Snapshots
    rng: random.Random

    def room(self, message: dict[str, Any], role: Role) -> Room:
        """The battle a message names, if the role is told of it (else `unknown_battle`)."""
        ...

    def summaries(self, role: Role, archived: bool) -> list[dict[str, Any]]:
        """The battles a role is told of."""
        ...

    def announce_battles(self, players: bool = True) -> None:
        """Tell every client its role's list of battles."""
        ...
