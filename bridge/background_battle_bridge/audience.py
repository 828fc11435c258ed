"""Who is connected, who watches which battle, and the fan-out to them.

One encoding per role and message, queued for each connection it goes to; a writer task sends
the queue with `websockets`' `broadcast`, `CHUNK` connections at a time with a pause between,
so that a fan-out to many clients never holds the event loop: the next command is read,
decided and handed to the disk between two chunks. A direct answer to a connection (an `ack`,
a `state`) first writes what is queued for it (`flush`), so each client still receives
everything in the order it was decided. A message published as `Later` is encoded when it is
first written, so that an event's views are made after the sender's ack. Commands wait
(`keep_up`) while more than `BACKLOG` frames are queued, so that a flood of commands is slowed
to what the fan-out can write instead of piling up. Slow readers are left out (and closed) by
`Eviction`.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.server import ServerConnection, broadcast

from background_battle.view import Role

from . import protocol as p
from . import visibility
from .eviction import Eviction
from .guard import RateLimit
from .messages import addressed

Message = dict[str, Any]
CHUNK = 4  # connections written between two pauses of the fan-out
BACKLOG = 2000  # frames queued for the fan-out (20 events to 100 clients): commands wait


class Later:
    """A message made per role when it is first written, from values captured when published
    (never from what has changed since)."""

    def __init__(self, make: Callable[[Role], Message]) -> None:
        self.make = make


class Frame:
    """One encoding of a message, shared by the connections it is queued for."""

    __slots__ = ("_data", "_make")

    def __init__(self, make: Callable[[], Message]) -> None:
        self._make: Callable[[], Message] | None = make
        self._data = b""

    def data(self) -> bytes:
        if self._make is not None:
            self._data, self._make = p.dumps(self._make()).encode(), None
        return self._data


@dataclass(eq=False)
class Client:
    """One connection after its `hello`."""

    ws: ServerConnection
    role: Role  # "player", the least, until its `hello` says more
    kind: str
    bucket: RateLimit
    watching: set[str] = field(default_factory=set)
    over_limit_since: float | None = None  # when its current flood began
    last_drop: float = float("-inf")
    last_rate_error: float = float("-inf")


class Audience:
    """The connected clients and the watchers of each battle."""

    def __init__(self, eviction: Eviction) -> None:
        self.eviction = eviction
        self.clients: set[Client] = set()
        self.watchers: dict[str, set[Client]] = {}
        self._queued: dict[ServerConnection, list[Frame]] = {}
        self._frames = 0  # queued, all connections together
        self._caught_up = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None

    def join(self, client: Client) -> None:
        self.clients.add(client)

    def leave(self, client: Client) -> None:
        self.clients.discard(client)
        self._frames -= len(self._queued.pop(client.ws, ()))
        for name in client.watching:
            self.watchers.get(name, set()).discard(client)
        client.watching.clear()

    def watch(self, client: Client, battle: str) -> None:
        client.watching.add(battle)
        self.watchers.setdefault(battle, set()).add(client)

    def unwatch(self, client: Client, battle: str) -> None:
        client.watching.discard(battle)
        self.watchers.get(battle, set()).discard(client)

    def publish(
        self,
        battle: str,
        message: Message | Callable[[Role], Message] | Later,
        players: bool = True,
    ) -> None:
        """Send to a battle's watchers, one encoding per role."""
        self._by_role(self.watchers.get(battle, ()), message, players)

    def tell_everyone(
        self, message: Message | Callable[[Role], Message], players: bool = True
    ) -> None:
        """Send to every connected client, one encoding per role."""
        self._by_role(self.clients, message, players)

    def _by_role(
        self, clients: Any, message: Message | Callable[[Role], Message] | Later, players: bool
    ) -> None:
        by_role: dict[Role, list[ServerConnection]] = {"gm": [], "player": []}
        for client in self._healthy(clients):
            by_role[client.role].append(client.ws)
        for role, connections in by_role.items():
            if not connections or not visibility.reaches(role, players):
                continue
            frame = _frame(message, role)
            for ws in connections:
                self._queued.setdefault(ws, []).append(frame)
            self._frames += len(connections)
        if self._queued and (self._writer is None or self._writer.done()):
            self._writer = asyncio.get_running_loop().create_task(self._write())

    def flush(self, ws: ServerConnection) -> None:
        """Write now what is queued for one connection (before answering it directly); what a
        reader too slow to take it would hold is dropped with it (`Eviction`)."""
        frames = self._queued.pop(ws, ())
        self._frames -= len(frames)
        for frame in frames:
            if self.eviction.too_slow(ws):
                return
            broadcast([ws], frame.data(), text=True)

    def admit_watcher(self) -> None:
        """Refuse a new watcher while the bytes buffered for everyone are past the ceiling.

        Raises:
            ProtocolError: `overloaded`.
        """
        self.eviction.admit_watcher(client.ws for client in self.clients)

    async def _write(self) -> None:
        """Send the queues, a few connections at a time, letting other work run between."""
        while self._queued:
            for ws in list(itertools.islice(self._queued, CHUNK)):
                self.flush(ws)
            if self._frames <= BACKLOG:
                self._caught_up.set()
            await asyncio.sleep(0)
        self._caught_up.set()

    async def keep_up(self) -> None:
        """Wait while more than `BACKLOG` frames wait for the fan-out (before a command)."""
        while self._frames > BACKLOG and self._writer is not None and not self._writer.done():
            self._caught_up.clear()
            await self._caught_up.wait()

    async def drain(self) -> None:
        """Wait until every queued message is written (before closing)."""
        while self._writer is not None and not self._writer.done():
            await asyncio.shield(self._writer)

    def foundry(self) -> list[ServerConnection]:
        """The Foundry modules connected with the GM token (what is queued for them written
        first, so that a message sent to them directly comes after it)."""
        found = [c.ws for c in self.clients if c.kind == "foundry" and visibility.is_gm(c.role)]
        for ws in found:
            self.flush(ws)
        return found

    def _healthy(self, clients: Any) -> list[Client]:
        healthy = []
        for client in list(clients):
            if self.eviction.too_slow(client.ws):
                self.leave(client)
            else:
                healthy.append(client)
        return healthy


def _frame(message: Message | Callable[[Role], Message] | Later, role: Role) -> Frame:
    """A role's encoding: made now, or when first written for a `Later`."""
    if isinstance(message, Later):
        make = message.make
        return Frame(lambda: make(role))
    body = addressed(message(role) if callable(message) else message, role)
    frame = Frame(lambda: body)
    frame.data()
    return frame
