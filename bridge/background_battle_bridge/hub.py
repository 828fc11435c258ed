"""The one dispatcher: every message after `hello` goes through `Hub.handle`.

The hub holds the rooms (battles), writes each change to storage before anyone hears of it,
and fans changes out to the watchers with `websockets`' `broadcast`. It computes no rule: core
commands go to the core's `apply`; casualties are read from the core's `state_view`.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.server import ServerConnection, broadcast

from background_battle import BattleError, apply, redact_entry

from . import protocol as p
from .guard import RateLimit
from .protocol import ProtocolError
from .replay import Damaged, rebuild
from .room import Room
from .storage import Record, Storage

log = logging.getLogger("background_battle_bridge")

MAX_BATTLES = 200
MAX_WATCHED = 32
MAX_CATCH_UP = 500
MAX_TOKEN_IDS = 1000
MAX_VERSION = 2**31
SLOW_READER_BYTES = 1024 * 1024
SNAPSHOT_EVERY = 1000
BRIDGE_COMMANDS = ("create_battle", "archive_battle")


@dataclass(eq=False)
class Client:
    """One connection after its `hello`."""

    ws: ServerConnection
    role: str
    kind: str
    bucket: RateLimit
    watching: set[str] = field(default_factory=set)
    dropped: int = 0
    last_rate_error: float = float("-inf")


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
        self.snapshot_every = snapshot_every
        self.slow_reader_bytes = slow_reader_bytes
        self.rooms: dict[str, Room] = {}
        self.clients: set[Client] = set()
        self.watchers: dict[str, set[Client]] = {}
        self.quarantined: dict[str, str] = {}  # battle -> why, found damaged at start-up
        self._closing: set[asyncio.Task[None]] = set()
        self._handlers: dict[str, Callable[[Client, dict[str, Any]], list[dict[str, Any]]]] = {
            "subscribe": self._subscribe,
            "unsubscribe": self._unsubscribe,
            "list_battles": self._list_battles,
            "command": self._command,
            "tokens": self._tokens,
            "request_casualties": self._request_casualties,
            "applied": self._applied,
            "unapplied": self._unapplied,
            "ping": self._ping,
        }

    # -- start-up ---------------------------------------------------------------------------

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
            self.watchers[name] = set()
            if room.since_snapshot >= self.snapshot_every:
                self._snapshot(room)
        return replayed

    # -- connections ------------------------------------------------------------------------

    def join(self, client: Client, hello: dict[str, Any]) -> list[dict[str, Any]]:
        """Register a client after a good `hello`: `welcome`, then the battle it asked for."""
        self.clients.add(client)
        replies: list[dict[str, Any]] = [
            {
                "type": "welcome",
                "role": client.role,
                "client": client.kind,
                "protocol": p.PROTOCOL_VERSION,
                "battles": self._summaries(archived=False),
                "limits": {
                    "max_frame": p.MAX_FRAME,
                    "rate": client.bucket.rate,
                    "burst": client.bucket.burst,
                },
            }
        ]
        if hello.get("battle") is not None:
            try:
                replies += self._subscribe(client, hello)
            except ProtocolError as exc:
                replies.append(p.error(exc, hello))
        return replies

    def leave(self, client: Client) -> None:
        self.clients.discard(client)
        for name in client.watching:
            self.watchers.get(name, set()).discard(client)
        client.watching.clear()

    def handle(self, client: Client, message: dict[str, Any]) -> list[dict[str, Any]]:
        """Answer one checked message; a refusal is an `error` reply and changes nothing."""
        kind = message["type"]
        try:
            if kind == "hello":
                raise ProtocolError("already_welcomed", "hello was already sent", field="type")
            if kind in p.GM_ONLY_TYPES and client.role != "gm":
                raise ProtocolError(
                    "forbidden", f"the player token may not send {kind}", field="type"
                )
            return self._handlers[kind](client, message)
        except ProtocolError as exc:
            return [p.error(exc, message)]
        except BattleError as exc:
            return [_core_error(exc, message)]

    # -- reading ----------------------------------------------------------------------------

    def _summaries(self, archived: bool) -> list[dict[str, Any]]:
        return [room.summary() for room in self.rooms.values() if archived or not room.archived]

    def _list_battles(self, client: Client, message: dict[str, Any]) -> list[dict[str, Any]]:
        archived = p.boolean(message, "archived", default=False)
        return [{"type": "battles", "battles": self._summaries(archived)}]

    def _room(self, message: dict[str, Any]) -> Room:
        name = p.text(message, "battle", max_len=p.MAX_NAME)
        room = self.rooms.get(name)
        if room is None:
            raise ProtocolError(
                "unknown_battle", f"there is no battle named {name!r}", field="battle"
            )
        return room

    def _subscribe(self, client: Client, message: dict[str, Any]) -> list[dict[str, Any]]:
        room = self._room(message)
        since = p.integer(message, "since_version", low=0, high=MAX_VERSION, optional=True)
        if since is not None and since > room.version:
            raise ProtocolError(
                "out_of_range",
                f"since_version must be from 0 to {room.version}, the current version",
                field="since_version",
                params={"min": 0, "max": room.version},
                version=room.version,
            )
        if room.name not in client.watching and len(client.watching) >= MAX_WATCHED:
            raise ProtocolError(
                "too_many",
                f"a connection may watch at most {MAX_WATCHED} battles",
                field="battle",
                params={"max": MAX_WATCHED},
            )
        client.watching.add(room.name)
        self.watchers[room.name].add(client)
        if since is not None and room.version - since <= MAX_CATCH_UP:
            return [self._catch_up(room, client.role, since)]
        return [self._state(room, client.role)]

    def _unsubscribe(self, client: Client, message: dict[str, Any]) -> list[dict[str, Any]]:
        name = p.text(message, "battle", max_len=p.MAX_NAME)
        client.watching.discard(name)
        self.watchers.get(name, set()).discard(client)
        return [{"type": "unsubscribed", "battle": name}]

    def _state(self, room: Room, role: str) -> dict[str, Any]:
        message: dict[str, Any] = {
            "type": "state",
            "battle": room.name,
            "version": room.version,
            "archived": room.archived,
            "view": room.view(role),
        }
        if role == "gm":
            message["foundry"] = {"tokens": room.tokens, "applied": room.applied}
        return message

    def _catch_up(self, room: Room, role: str, since: int) -> dict[str, Any]:
        entries = [
            redact_entry(room.battle, room.battle.log[i].to_dict(), role)
            for i in range(since, room.version)
        ]
        return {
            "type": "events",
            "battle": room.name,
            "since_version": since,
            "version": room.version,
            "entries": entries,
            "view": room.view_without_log(role),
        }

    def _ping(self, client: Client, message: dict[str, Any]) -> list[dict[str, Any]]:
        reply: dict[str, Any] = {"type": "pong"}
        if "data" in message:
            reply["data"] = message["data"]
        return [reply]

    # -- changing ---------------------------------------------------------------------------

    def _command(self, client: Client, message: dict[str, Any]) -> list[dict[str, Any]]:
        command_id = p.text(message, "id", max_len=p.MAX_ID)
        name = p.text(message, "battle", max_len=p.MAX_NAME)
        expected = p.integer(message, "expected_version", low=0, high=MAX_VERSION, optional=True)
        command = p.obj(message, "command")
        kind = command.get("type")  # any other than the bridge's two is the core's to judge
        if kind == "create_battle":
            return self._create(command_id, name, expected)
        room = self._room(message)
        if command_id in room.ids:
            return [_ack(command_id, room, room.ids[command_id], duplicate=True)]
        if room.archived:
            raise ProtocolError(
                "archived", f"battle {name!r} is archived and takes no commands", field="battle"
            )
        _check_expected(room, expected)
        if kind == "archive_battle":
            self._record(room, {"kind": "archived", "id": command_id})
            self._broadcast_battles()
            return [_ack(command_id, room, room.version)]
        battle, _events = apply(room.battle, command, self.rng)
        entry = battle.log[-1].to_dict()
        status_before = room.battle.status
        self._record(room, {"kind": "entry", "id": command_id, "entry": entry}, battle)
        self._fan_out_event(room, entry)
        if room.battle.status != status_before:
            self._broadcast_battles()
        return [_ack(command_id, room, room.version)]

    def _create(self, command_id: str, name: str, expected: int | None) -> list[dict[str, Any]]:
        existing = self.rooms.get(name)
        if existing is not None:
            if existing.ids.get(command_id) == 0:  # this very create, retried
                return [_ack(command_id, existing, 0, duplicate=True)]
            raise ProtocolError(
                "battle_exists",
                f"a battle named {name!r} already exists"
                + (" (archived)" if existing.archived else ""),
                field="battle",
            )
        if sum(not room.archived for room in self.rooms.values()) >= MAX_BATTLES:
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
        record = {"kind": "created", "id": command_id}
        room = Room.created(name, record)  # the core checks the name before anything is stored
        self.storage.append(name, 1, record)
        self.rooms[name] = room
        self.watchers[name] = set()
        self._broadcast_battles()
        return [_ack(command_id, room, 0)]

    def _tokens(self, client: Client, message: dict[str, Any]) -> list[dict[str, Any]]:
        request_id = _request_id(message)
        room = self._room(message)
        unit = self._unit(room, message)
        token_ids = p.text_list(message, "token_ids", max_items=MAX_TOKEN_IDS, max_len=128)
        told = {"type": "tokens", "battle": room.name, "unit": unit, "token_ids": token_ids}
        self._record(room, {"kind": "tokens", "unit": unit, "token_ids": token_ids})
        self._fan_out(room, told, players=False)
        return _request_ack(request_id, room)

    def _request_casualties(self, client: Client, message: dict[str, Any]) -> list[dict[str, Any]]:
        request_id = _request_id(message)
        room = self._room(message)
        only = self._unit(room, message) if message.get("unit") is not None else None
        again = p.boolean(message, "force", default=False)
        view = room.view_without_log("gm")
        if view.get("status") != "ended":
            raise ProtocolError(
                "not_ended",
                f"battle {room.name!r} has not ended: casualties are known at the end",
                field="battle",
            )
        if only is not None and only in room.applied and not again:
            raise _already_applied(room, only)
        foundry = [c.ws for c in self.clients if c.kind == "foundry" and c.role == "gm"]
        if not foundry:
            raise ProtocolError(
                "no_foundry", "no Foundry module is connected to receive the casualties"
            )
        sent = []
        for unit in view.get("units", []):
            unit_id = str(unit["id"])
            if (unit_id in room.applied and not again) or only not in (None, unit_id):
                continue
            casualties = unit.get("casualties") or {}
            order = {
                "type": "apply_casualties",
                "battle": room.name,
                "unit": unit_id,
                "name": unit.get("name"),
                "version": room.version,
                "fighters": casualties.get("fighters"),
                "killed": casualties.get("killed"),
                "wounded": casualties.get("wounded"),
                "fit": casualties.get("fit"),
                "token_ids": room.tokens.get(unit_id, []),
            }
            broadcast(foundry, p.dumps(order))
            sent.append(unit_id)
        reply = _request_ack(request_id, room)
        for ack in reply:
            ack["sent"] = sent
        return reply

    def _applied(self, client: Client, message: dict[str, Any]) -> list[dict[str, Any]]:
        request_id = _request_id(message)
        room = self._room(message)
        unit = self._unit(room, message)
        report: dict[str, Any] = {
            "version": p.integer(message, "version", low=0, high=room.version),
        }
        # one report per result: a second one for the same (or an older) order is refused;
        # a newer order (sent again with `force` after the battle changed) replaces it
        if unit in room.applied and room.applied[unit]["version"] >= report["version"]:
            raise _already_applied(room, unit)
        for name in ("killed", "wounded", "fit"):
            report[name] = p.integer(message, name, low=0, high=1_000_000)
        token_ids = message.get("token_ids")
        if token_ids is not None:
            if not isinstance(token_ids, dict):
                raise ProtocolError(
                    "not_object", "token_ids must be a JSON object", field="token_ids"
                )
            report["token_ids"] = {
                fate: p.text_list(
                    token_ids, fate, max_items=MAX_TOKEN_IDS, max_len=128, prefix="token_ids."
                )
                for fate in ("killed", "wounded", "fit")
                if fate in token_ids
            }
        note = p.text(message, "note", max_len=500, optional=True)
        if note is not None:
            report["note"] = note
        told = {"type": "applied", "battle": room.name, "unit": unit, "report": report}
        self._record(room, {"kind": "applied", "unit": unit, "report": report})
        self._fan_out(room, told, players=False)
        return _request_ack(request_id, room)

    def _unapplied(self, client: Client, message: dict[str, Any]) -> list[dict[str, Any]]:
        """The module put the unit's tokens back (Undo apply): forget its report, so that the
        unit is sent again without `force`."""
        request_id = _request_id(message)
        room = self._room(message)
        unit = self._unit(room, message)
        version = p.integer(message, "version", low=0, high=room.version)
        report = room.applied.get(unit)
        if report is None:
            raise ProtocolError(
                "not_applied",
                f"the casualties of unit {unit!r} are not applied: there is no report to take back",
                field="unit",
            )
        if report["version"] != version:
            raise ProtocolError(
                "not_applied",
                f"the report of unit {unit!r} is of version {report['version']}, not {version}",
                field="version",
                params={"report": report},
            )
        told = {"type": "unapplied", "battle": room.name, "unit": unit}
        self._record(room, {"kind": "unapplied", "unit": unit, "version": version})
        self._fan_out(room, told, players=False)
        return _request_ack(request_id, room)

    def _unit(self, room: Room, message: dict[str, Any]) -> str:
        unit = p.text(message, "unit", max_len=64)
        if unit not in room.unit_ids():
            raise ProtocolError(
                "unknown_unit", f"battle {room.name!r} has no unit {unit!r}", field="unit"
            )
        return str(unit)

    def _record(self, room: Room, record: Record, battle: Any = None) -> None:
        """Write a record durably, then take it into the room (the order is the guarantee)."""
        self.storage.append(room.name, room.seq + 1, record)
        room.absorb(room.seq + 1, record, battle)
        if room.since_snapshot >= self.snapshot_every:
            self._snapshot(room)

    def _snapshot(self, room: Room) -> None:
        self.storage.snapshot(room.name, room.seq, room.snapshot_data())
        room.since_snapshot = 0

    # -- fan-out ----------------------------------------------------------------------------

    def _fan_out_event(self, room: Room, entry: dict[str, Any]) -> None:
        def event(role: str) -> dict[str, Any]:
            seen = redact_entry(room.battle, entry, role)
            return {
                "type": "event",
                "battle": room.name,
                "version": room.version,
                "command": seen.get("command"),
                "events": seen.get("events"),
                "view": room.view_without_log(role),
            }

        self._fan_out(room, event)

    def _fan_out(
        self,
        room: Room,
        message: dict[str, Any] | Callable[[str], dict[str, Any]],
        players: bool = True,
    ) -> None:
        """Send to the room's watchers, one encoding per role; slow readers are cut off."""
        by_role: dict[str, list[ServerConnection]] = {"gm": [], "player": []}
        for client in list(self.watchers.get(room.name, ())):
            if self._too_slow(client):
                continue
            by_role[client.role].append(client.ws)
        for role, connections in by_role.items():
            if not connections or (role == "player" and not players):
                continue
            body = message(role) if callable(message) else message
            broadcast(connections, p.dumps(body))

    def _broadcast_battles(self) -> None:
        message = p.dumps({"type": "battles", "battles": self._summaries(archived=False)})
        broadcast(self._healthy(self.clients), message)

    def _healthy(self, clients: Iterable[Client]) -> list[ServerConnection]:
        return [client.ws for client in list(clients) if not self._too_slow(client)]

    def _too_slow(self, client: Client) -> bool:
        """True (and the client is being closed) when its unsent data passed the limit."""
        transport = client.ws.transport
        if transport is None or transport.get_write_buffer_size() <= self.slow_reader_bytes:
            return False
        log.warning("closing a client that reads too slowly")
        self.leave(client)
        task = asyncio.get_running_loop().create_task(client.ws.close(1013, "reader too slow"))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)
        return True


def _check_expected(room: Room, expected: int | None) -> None:
    if expected is not None and expected != room.version:
        raise ProtocolError(
            "stale_version",
            f"expected_version {expected} is stale: battle {room.name!r} is at "
            f"version {room.version}",
            field="expected_version",
            params={"version": room.version, "expected_version": expected},
            version=room.version,
        )


def _ack(command_id: str, room: Room, version: int, duplicate: bool = False) -> dict[str, Any]:
    ack: dict[str, Any] = {"type": "ack", "id": command_id, "battle": room.name, "version": version}
    if duplicate:
        ack["duplicate"] = True
    return ack


def _request_id(message: dict[str, Any]) -> str | None:
    return p.text(message, "id", max_len=p.MAX_ID, optional=True)  # type: ignore[no-any-return]


def _request_ack(request_id: str | None, room: Room) -> list[dict[str, Any]]:
    """The `ack` of a Foundry request: always sent, echoing the `id` when there was one."""
    ack: dict[str, Any] = {"type": "ack", "battle": room.name, "version": room.version}
    if request_id is not None:
        ack["id"] = request_id
    return [ack]


def _already_applied(room: Room, unit: str) -> ProtocolError:
    return ProtocolError(
        "already_applied",
        f"the casualties of unit {unit!r} were already applied",
        field="unit",
        params={"report": room.applied[unit]},
    )


def _core_error(exc: BattleError, message: dict[str, Any]) -> dict[str, Any]:
    """A refused core command, passed on with its code; its field named inside `command`."""
    field_name = f"command.{exc.field}" if exc.field else None
    return p.error(
        ProtocolError(exc.code, exc.message, field=field_name, params=dict(exc.params or {})),
        message,
    )
