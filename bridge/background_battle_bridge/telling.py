"""What the watchers are told of a stored core command: its event, each role its own view of
it, as it was decided (`budget.Decided`): nothing is worked out again when it is written."""

from __future__ import annotations

from typing import Any

from background_battle.view import Role

from .audience import Later
from .battles import Battles
from .budget import Decided
from .messages import outgoing
from .room import Room


def publish_event(battles: Battles, room: Room, decided: Decided, status_before: str) -> None:
    """Tell every watcher the stored change, each role its own view of it, as it was decided
    (encoded when first written, after the sender's ack)."""
    version = room.version

    def event(role: Role) -> dict[str, Any]:
        seen = decided.entries[role]
        return outgoing(
            "event",
            battle=room.name,
            version=version,
            command=seen.get("command"),
            events=seen.get("events"),
            view=decided.views[role + "-nolog"],
        )

    battles.audience.publish(room.name, Later(event), players=room.open_to("player"))
    if room.battle.status != status_before:
        battles.announce_battles()
