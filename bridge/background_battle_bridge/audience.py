"""Who is connected, who watches which battle, and the fan-out to them.

One encoding per role and message; `websockets`' `broadcast` writes it to every connection
without waiting. Slow readers are left out (and closed) by `Eviction`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.server import ServerConnection, broadcast

from . import protocol as p
from .eviction import Eviction
from .guard import RateLimit

Message = dict[str, Any]


@dataclass(eq=False)
class Client:
    """One connection after its `hello`."""

    ws: ServerConnection
    role: str
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

    def join(self, client: Client) -> None:
        self.clients.add(client)

    def leave(self, client: Client) -> None:
        self.clients.discard(client)
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
        self, battle: str, message: Message | Callable[[str], Message], players: bool = True
    ) -> None:
        """Send to a battle's watchers, one encoding per role."""
        self._by_role(self.watchers.get(battle, ()), message, players)

    def tell_everyone(
        self, message: Message | Callable[[str], Message], players: bool = True
    ) -> None:
        """Send to every connected client, one encoding per role."""
        self._by_role(self.clients, message, players)

    def _by_role(
        self, clients: Any, message: Message | Callable[[str], Message], players: bool
    ) -> None:
        by_role: dict[str, list[ServerConnection]] = {"gm": [], "player": []}
        for client in self._healthy(clients):
            by_role[client.role].append(client.ws)
        for role, connections in by_role.items():
            if not connections or (role == "player" and not players):
                continue
            body = message(role) if callable(message) else message
            broadcast(connections, p.dumps(body))

    def foundry(self) -> list[ServerConnection]:
        """The Foundry modules connected with the GM token."""
        return [c.ws for c in self.clients if c.kind == "foundry" and c.role == "gm"]

    def _healthy(self, clients: Any) -> list[Client]:
        healthy = []
        for client in list(clients):
            if self.eviction.too_slow(client.ws):
                self.leave(client)
            else:
                healthy.append(client)
        return healthy
