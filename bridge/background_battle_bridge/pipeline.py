"""The command path: parse → the core decides → one transaction → one outcome → publish.

A change is decided on the room's head (what the room will be once the changes before it are
stored), with everything its outcome says: the record, the core's new battle and, for each
role, its view and log entry, measured against the budget. It goes to the group committer,
which only writes and reports. Once it is on disk, in the same step, it is taken into the room
and its event is queued for every watcher (`Change.tell`, made from what was decided: nothing
is worked out again); the handler returns the sender's ack, which the connection's answers
(`answers.py`) send after what was queued for it, so the sender has its event, then its ack.
If the disk refuses it, the head falls back to what is stored, the changes decided on top of
it are dropped with it, and each sender gets `error not_stored`: nothing was changed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from background_battle import Battle, apply

from . import protocol as p
from .audience import Client
from .battles import Battles
from .budget import views_within
from .committer import Write
from .creating import create
from .protocol import ProtocolError
from .receipts import ack, digest, repeated
from .room import Room
from .stored import Record
from .telling import publish_event


@dataclass
class Change:
    """A decided change: the record to store, and whom to tell once it is stored (`tell`,
    queued for the watchers' fan-out in the step that takes it into the room)."""

    record: Record
    battle: Battle | None = None  # the core's new battle, for an `entry`
    tell: Callable[[Room], None] | None = None
    views: dict[str, Any] | None = None  # the new battle's views, measured when decided


async def store(battles: Battles, room: Room, change: Change) -> int:
    """Store one change (shared transaction, see `committer.py`); the room's version after it.

    Raises:
        NotStored: the disk refused it; the room is as it was.
    """
    head = room.decided()
    head.seq = seq = head.seq + 1
    if change.battle is not None:
        head.battle = change.battle
    if change.record["kind"] == "archived":
        head.archived = True
    epoch = room.epoch
    request_id = change.record.get("id")

    def stored() -> int:
        """Take the stored change in; the room's version right after it (others may follow
        it at once)."""
        room.absorb(seq, change.record, change.battle, change.views)
        if room.head is not None:
            room.head.waiting.pop(request_id or "", None)
            if room.head.seq == seq:
                room.head = None
        return room.version

    def told() -> None:
        """Once the sender is woken: the watchers, and a snapshot when one is due."""
        if change.tell is not None:
            change.tell(room)
        battles.snapshots.after(room)

    def failed(_: BaseException) -> None:
        if room.epoch == epoch:
            room.epoch += 1
            room.head = None

    write = Write(room.name, seq, change.record, stored, failed, lambda: room.epoch == epoch, told)
    head.last = battles.committer.write(write)
    if request_id is not None:
        head.waiting[request_id] = (change.record["digest"], head.last)
    return await write.answer


async def settled(room: Room) -> None:
    """Wait until nothing is waiting for the disk (for requests decided on stored state)."""
    while room.head is not None and not room.head.last.done():
        await asyncio.wait([room.head.last])


async def command(
    battles: Battles, client: Client, message: dict[str, Any]
) -> list[dict[str, Any]]:
    """`command`: a core command on a battle, or the bridge's own create / archive."""
    command_id = p.field(message, "id")
    name = p.field(message, "battle")
    expected = p.field(message, "expected_version")
    body = p.field(message, "command")
    fingerprint = digest(message)
    await battles.audience.keep_up()
    if body.get("type") == "create_battle":
        return await create(battles, command_id, name, expected, fingerprint)
    room = battles.room(message, "gm")
    version = await repeated(room, command_id, fingerprint)
    if version is not None:
        return [ack(command_id, room, version, duplicate=True)]
    head = room.decided()
    if head.archived:
        raise ProtocolError(
            "archived", f"battle {name!r} is archived and takes no commands", field="battle"
        )
    if expected is not None and expected != head.battle.version:
        raise ProtocolError(
            "stale_version",
            f"expected_version {expected} is stale: battle {room.name!r} is at "
            f"version {head.battle.version}",
            field="expected_version",
            params={"version": head.battle.version, "expected_version": expected},
            version=head.battle.version,
        )
    record: Record = {"kind": "archived", "id": command_id, "digest": fingerprint}
    change = Change(
        record, tell=lambda room: battles.announce_battles(room.battle.status != "setup")
    )
    if body.get("type") != "archive_battle":  # any other is the core's to judge
        battle, _events = apply(head.battle, body, battles.rng)
        entry = battle.log[-1].to_dict()
        decided = views_within(head.battle, battle, entry)
        status_before = head.battle.status
        record = {"kind": "entry", "id": command_id, "digest": fingerprint, "entry": entry}
        change = Change(
            record,
            battle,
            lambda room: publish_event(battles, room, decided, status_before),
            decided.views,
        )
    return [ack(command_id, room, await store(battles, room, change))]
