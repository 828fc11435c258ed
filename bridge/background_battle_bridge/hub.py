"""The one dispatcher: every message after `hello` goes through `Hub.handle`.

The hub holds the rooms (battles) and the parts that serve them: the audience (who watches
what), the group committer, the snapshots. Each request type has its handler in its own
module: `reading.py` (nothing changes), `pipeline.py` (commands), `foundry.py` (the module's
bookkeeping). The hub computes no rule: core commands go to the core's `apply`.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any

from background_battle import BattleError
from background_battle.view import Role

from . import foundry, influence_marks, jobs, pcs_fight, pipeline, reading, visibility
from . import protocol as p
from .audience import Audience, Client
from .committer import Committer, NotStored
from .eviction import SLOW_READER_BYTES, Eviction
from .messages import outgoing
from .protocol import ProtocolError
from .replay import Damaged, rebuild
from .room import Room
from .snapshots import SNAPSHOT_EVERY, Snapshots
from .stored import Storage

log = logging.getLogger("background_battle_bridge")

Replies = list[dict[str, Any]]
Handler = Callable[["Hub", Client, dict[str, Any]], Awaitable[Replies]]

__all__ = ["SNAPSHOT_EVERY", "Client", "Hub"]


def _gm(handler: Callable[[Hub, dict[str, Any]], Awaitable[Replies]]) -> Handler:
    async def handle(hub: Hub, client: Client, message: dict[str, Any]) -> Replies:
        return await handler(hub, message)

    return handle


HANDLERS: dict[str, Handler] = {
    "subscribe": reading.subscribe,
    "unsubscribe": reading.unsubscribe,
    "list_battles": reading.list_battles,
    "log_page": reading.log_page,
    "ping": reading.ping,
    "command": pipeline.command,
    "tokens": _gm(foundry.tokens),
    "request_casualties": _gm(jobs.request_casualties),
    "applied": _gm(foundry.applied),
    "unapplied": _gm(foundry.unapplied),
    "claim": jobs.claim,
    "unclaim": jobs.unclaim,
    "plan": jobs.plan,
    "cancel_apply": jobs.cancel,
    "detached": _gm(pcs_fight.detached),
    "mark_effects": influence_marks.mark_effects,
}


class Hub:
    """The battles, their watchers, and the dispatcher for client messages."""

    def __init__(
        self,
        storage: Storage,
        *,
        rng: random.Random | None = None,
        snapshot_every: int = SNAPSHOT_EVERY,
        slow_reader_bytes: int = SLOW_READER_BYTES,
    ) -> None:
        self.storage = storage
        self.rng = rng or random.Random()
        self.rooms: dict[str, Room] = {}
        self.quarantined: dict[str, str] = {}  # battle -> why, found damaged at start-up
        self.creating: dict[str, tuple[Room, Any]] = {}
        self.audience = Audience(Eviction(slow_reader_bytes))
        self.committer = Committer(storage)
        self.snapshots = Snapshots(storage, snapshot_every)
        self.handlers = dict(HANDLERS)

    def restore(self) -> int:
        """Rebuild every room from storage; returns the number of records replayed.

        A damaged battle is moved to quarantine (kept, not served, named in the log and in
        `quarantined`); the others are served.
        """
        replayed = 0
        for name, stored in self.storage.load().items():
            for note in stored.notes:
                log.warning("battle %r: %s; replayed from its first record", name, note)
            try:
                room = rebuild(name, stored)
            except Damaged as exc:
                log.error(
                    "battle %r is damaged: %s. It was moved to quarantine and is not served; "
                    "`background-battle-bridge check --repair` brings back its good part",
                    name,
                    exc.reason,
                )
                self.storage.quarantine(name, exc.reason)
                self.quarantined[name] = exc.reason
                continue
            replayed += len(stored.records)
            self.rooms[name] = room
        return replayed

    def start(self) -> None:
        """Once serving: snapshot the battles whose start-up replay was long."""
        for room in self.rooms.values():
            self.snapshots.after(room)

    async def close(self) -> None:
        """Finish the writes under way (every acknowledged change is stored already)."""
        await self.committer.drain()
        await self.audience.drain()
        await self.snapshots.drain()
        self.snapshots.close()

    # -- connections ------------------------------------------------------------------------

    async def join(
        self, client: Client, hello: dict[str, Any], player_token: str | None = None
    ) -> Replies:
        """Register a client after a good `hello`: `welcome` (for a GM with the player token,
        when given), then the battle it asked for."""
        self.audience.join(client)
        replies: Replies = [
            outgoing(
                "welcome",
                role=client.role,
                client=client.kind,
                protocol=p.PROTOCOL_VERSION,
                battles=self.summaries(client.role, archived=False),
                limits={
                    "max_frame": p.MAX_FRAME,
                    "max_message": p.MAX_MESSAGE,
                    "log_page": p.LOG_PAGE,
                    "battles_page": p.BATTLES_PAGE,
                    "rate": _number(client.bucket.rate),
                    "burst": _number(client.bucket.burst),
                },
                player_token=player_token,
            )
        ]
        if hello.get("battle") is not None:
            try:
                replies += await reading.subscribe(self, client, hello)
            except ProtocolError as exc:
                replies.append(p.error(exc, hello))
        return replies

    def leave(self, client: Client) -> None:
        self.audience.leave(client)
        jobs.release(self, list(self.rooms.values()), client)

    async def handle(self, client: Client, message: dict[str, Any]) -> Replies:
        """Answer one checked message; a refusal is an `error` reply and changes nothing."""
        kind = message["type"]
        try:
            if kind == "hello":
                raise ProtocolError("already_welcomed", "hello was already sent", field="type")
            if not visibility.may_send(client.role, kind):
                raise ProtocolError(
                    "forbidden", f"the player token may not send {kind}", field="type"
                )
            await self._created(message.get("battle"))
            return await self.handlers[kind](self, client, message)
        except ProtocolError as exc:
            return [p.error(exc, message)]
        except BattleError as exc:
            return [_core_error(exc, message)]
        except NotStored as exc:
            return [p.error(not_stored(exc), message)]

    # -- shared by the handlers -------------------------------------------------------------

    async def _created(self, name: Any) -> None:
        """A request about a battle whose creation is being stored waits for it (a client may
        send `create_battle` and its first commands without waiting)."""
        creating = self.creating.get(name) if isinstance(name, str) else None
        if creating is not None:
            await asyncio.wait([creating[1]])

    def room(self, message: dict[str, Any], role: Role) -> Room:
        """The stored battle a message names, if the role is told of it (a player asking for a
        battle still in set-up hears the same as for a name that does not exist).

        Raises:
            ProtocolError: `unknown_battle`.
        """
        name = p.field(message, "battle")
        room = self.rooms.get(name)
        if room is None or not room.open_to(role):
            raise ProtocolError(
                "unknown_battle", f"there is no battle named {name!r}", field="battle"
            )
        return room

    def summaries(self, role: Role, archived: bool) -> list[dict[str, Any]]:
        """The battles a role is told of; the archived ones only when asked (and to a GM)."""
        return [
            room.summary()
            for room in self.rooms.values()
            if (archived or not room.archived) and room.open_to(role)
        ]

    def announce_battles(self, players: bool = True) -> None:
        """Tell every client its role's list of battles; `players=False` when the change is
        one players are not told of (a battle created, or archived unseen, in set-up)."""
        self.audience.tell_everyone(
            lambda role: outgoing("battles", battles=self.summaries(role, archived=False)),
            players,
        )


def not_stored(exc: NotStored) -> ProtocolError:
    return ProtocolError(
        "not_stored",
        f"the change could not be written to disk ({exc}); nothing was changed, try again later",
    )


def _number(value: float) -> int | float:
    """A whole number as JSON's `30`, not `30.0`."""
    return int(value) if float(value).is_integer() else value


def _core_error(exc: BattleError, message: dict[str, Any]) -> dict[str, Any]:
    """A refused core command, passed on with its code and its field as the core names it; the
    other fields the core found at fault in the same check in `others` (a form shows them all)."""
    others = [{key: p.error(_refusal(other))[key] for key in _ERROR_KEYS} for other in exc.others]
    return p.error(_refusal(exc), message, others=others or None)


_ERROR_KEYS = ("code", "field", "message", "params")


def _refusal(exc: BattleError) -> ProtocolError:
    return ProtocolError(exc.code, exc.message, field=exc.field, params=dict(exc.params or {}))
