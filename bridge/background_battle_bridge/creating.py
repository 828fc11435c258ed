"""`create_battle`: a new empty battle, stored before anyone hears of it (a battle in set-up is
the GM's alone, so only the GMs are told)."""

from __future__ import annotations

import asyncio
from typing import Any

from .battles import Battles
from .committer import Write
from .protocol import ProtocolError
from .receipts import ack, earlier
from .room import Room
from .stored import Record

MAX_BATTLES = 200


async def create(
    battles: Battles, command_id: str, name: str, expected: int | None, fingerprint: str
) -> list[dict[str, Any]]:
    """`create_battle`: a new empty battle, stored before anyone hears of it."""
    if name in battles.creating:  # the same name being created: wait for that first
        await asyncio.wait([battles.creating[name][1]])
    existing = battles.rooms.get(name)
    if existing is not None:
        receipt = earlier(existing, command_id, fingerprint)
        if receipt is not None and receipt[0] == 0 and existing.seq >= 1:
            return [ack(command_id, existing, 0, duplicate=True)]
        raise ProtocolError(
            "battle_exists",
            f"a battle named {name!r} already exists"
            + (" (archived)" if existing.archived else ""),
            field="battle",
        )
    if (
        sum(not room.archived for room in battles.rooms.values()) + len(battles.creating)
        >= MAX_BATTLES
    ):
        raise ProtocolError(
            "too_many",
            f"at most {MAX_BATTLES} battles may be open; archive one first",
            field="battle",
            params={"max": MAX_BATTLES},
        )
    if expected not in (None, 0):
        raise ProtocolError(
            "stale_version",
            "a new battle starts at version 0",
            field="expected_version",
            params={"version": 0},
            version=0,
        )
    record: Record = {"kind": "created", "id": command_id, "digest": fingerprint}
    room = Room.created(name, record)  # the core checks the name before anything is stored

    def created() -> int:
        battles.rooms[name] = room
        battles.announce_battles(players=False)  # a battle in set-up is the GM's alone
        return 0

    done = battles.committer.write(Write(name, 1, record, created, lambda _: None))
    battles.creating[name] = (room, done)
    try:
        await asyncio.shield(done)
    finally:
        battles.creating.pop(name, None)
    return [ack(command_id, room, 0)]
