"""The command path: parse → the core decides → one transaction → ack → publish.

A change is decided on the room's head (what the room will be once the changes before it are
stored), goes to the group committer, and only once it is on disk is it taken into the room,
published to the watchers and acknowledged. If the disk refuses it, the head falls back to
what is stored, the changes decided on top of it are dropped with it, and each sender gets
`error not_stored`: nothing was changed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from background_battle import Battle, apply, redact_entry, state_view
from background_battle.view import Role

from . import protocol as p
from .audience import Client, Later
from .battles import Battles
from .budget import views_within
from .committer import Write
from .protocol import ProtocolError
from .receipts import digest, earlier, reused
from .room import Room
from .stored import Record

log = logging.getLogger("background_battle_bridge")

MAX_BATTLES = 200
MAX_VERSION = 2**31


@dataclass
class Change:
    """A decided change: the record to store, and what to tell once it is stored: the
    watchers (`tell`, queued for the fan-out), then the sender (`answer`, its ack at once)."""

    record: Record
    battle: Battle | None = None  # the core's new battle, for an `entry`
    tell: Callable[[Room], None] | None = None
    answer: Callable[[Room], None] | None = None
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
        version = room.version
        if room.head is not None:
            room.head.waiting.pop(request_id or "", None)
            if room.head.seq == seq:
                room.head = None
        try:
            if change.tell is not None:
                change.tell(room)
            if change.answer is not None:
                change.answer(room)
            battles.snapshots.after(room)
        except Exception:  # a bug in a follow-up: the change is stored, its ack says so
            log.exception("a follow-up of a stored change failed")
        return version

    def failed(_: BaseException) -> None:
        if room.epoch == epoch:
            room.epoch += 1
            room.head = None

    write = Write(room.name, seq, change.record, stored, failed, lambda: room.epoch == epoch)
    done = battles.committer.write(write)
    head.last = done
    if request_id is not None:
        head.waiting[request_id] = (change.record["digest"], done)
    return await asyncio.shield(done)


async def settled(room: Room) -> None:
    """Wait until nothing is waiting for the disk (for requests decided on stored state)."""
    while room.head is not None and not room.head.last.done():
        await asyncio.wait([room.head.last])


async def repeated(room: Room, request_id: str, fingerprint: str) -> int | None:
    """The version this very request was acknowledged at (waiting for it if it is still
    being stored); None for a new id.

    Raises:
        ProtocolError: `id_reused`; NotStored: the first attempt could not be stored.
    """
    receipt = earlier(room, request_id, fingerprint)
    if receipt is not None:
        return receipt[0]
    waiting = room.head.waiting.get(request_id) if room.head is not None else None
    if waiting is None:
        return None
    if waiting[0] != fingerprint:
        raise reused(room, request_id, room.head.seq if room.head else room.seq)
    await asyncio.shield(waiting[1])
    return room.ids[request_id][0]


async def command(
    battles: Battles, client: Client, message: dict[str, Any]
) -> list[dict[str, Any]]:
    """`command`: a core command on a battle, or the bridge's own create / archive."""
    command_id = p.text(message, "id", max_len=p.MAX_ID)
    name = p.text(message, "battle", max_len=p.MAX_NAME)
    expected = p.integer(message, "expected_version", low=0, high=MAX_VERSION, optional=True)
    body = p.obj(message, "command")
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
        views = views_within(head.battle, battle, entry)
        status_before = head.battle.status
        record = {"kind": "entry", "id": command_id, "digest": fingerprint, "entry": entry}
        change = Change(
            record, battle, lambda room: publish_event(battles, room, entry, status_before)
        )
        change.views = views
    change.answer = answer_now(client, command_id)
    return [ack(command_id, room, await store(battles, room, change))]


def answer_now(client: Client, command_id: str) -> Callable[[Room], None]:
    """Once the change is stored: the sender's ack at once, before the fan-out to the others
    is written (when its earlier requests are answered; otherwise in its turn)."""
    task = asyncio.current_task()

    def answer(room: Room) -> None:
        if client.answers is not None:
            client.answers.now(task, [ack(command_id, room, room.version)])

    return answer


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


def publish_event(battles: Battles, room: Room, entry: dict[str, Any], status_before: str) -> None:
    """Tell every watcher the stored change, each role its own view of it (made when first
    written: after the sender's ack, from the battle as this change left it)."""
    battle, version = room.battle, room.version

    def event(role: Role) -> dict[str, Any]:
        seen = redact_entry(battle, entry, role)
        if room.version == version:
            view = room.view_without_log(role)  # cached per version
        else:  # the room has gone on since: this change's own view
            view = state_view(battle, role, log=False)
        return {
            "type": "event",
            "battle": room.name,
            "version": version,
            "command": seen.get("command"),
            "events": seen.get("events"),
            "view": view,
        }

    battles.audience.publish(room.name, Later(event), players=room.open_to("player"))
    if room.battle.status != status_before:
        battles.announce_battles()


def ack(
    request_id: str | None, room: Room, version: int, duplicate: bool = False
) -> dict[str, Any]:
    """The `ack` of a request: its id (when it had one), the battle and the version."""
    reply: dict[str, Any] = {"type": "ack", "battle": room.name, "version": version}
    if request_id is not None:
        reply = {"type": "ack", "id": request_id, "battle": room.name, "version": version}
    if duplicate:
        reply["duplicate"] = True
    return reply
