"""A GM of the real bridge, driven from a test over its WebSocket (protocol v1): battles made and
ended without clicking through a panel, so a test can look at what the Foundry module does."""

from __future__ import annotations

import itertools
import json
from typing import Any

from websockets.sync.client import ClientConnection, connect

_ids = itertools.count(1)


class BridgeGM:
    """A `cli` client with the GM token; `request` waits for its `ack` (an `error` raises)."""

    def __init__(self, url: str, token: str) -> None:
        self.ws: ClientConnection = connect(url, legacy=True)  # closed by `close`
        self.ws.send(json.dumps({"type": "hello", "token": token, "client": "cli"}))
        self._wait(lambda m: m["type"] == "welcome")

    def _wait(self, done: Any) -> dict[str, Any]:
        while True:
            message: dict[str, Any] = json.loads(self.ws.recv(timeout=20))
            if message["type"] == "error":
                raise AssertionError(message)
            if done(message):
                return message

    def request(self, type_: str, **fields: Any) -> dict[str, Any]:
        request_id = f"t-{next(_ids)}"
        self.ws.send(json.dumps({"type": type_, "id": request_id, **fields}))
        return self._wait(lambda m: m.get("id") == request_id)

    def command(self, battle: str, **command: Any) -> dict[str, Any]:
        return self.request("command", battle=battle, command=command)

    def commands(self, battle: str, commands: list[dict[str, Any]]) -> dict[str, Any]:
        """Sends the commands at once, not waiting in between; returns the last one's `ack`
        (all are stored then: the bridge applies a client's commands in order)."""
        request_id = ""
        for command in commands:
            request_id = f"t-{next(_ids)}"
            message = {"type": "command", "id": request_id, "battle": battle, "command": command}
            self.ws.send(json.dumps(message))
        return self._wait(lambda m: m.get("id") == request_id)

    def state(self, battle: str) -> dict[str, Any]:
        self.ws.send(json.dumps({"type": "subscribe", "battle": battle}))
        state = self._wait(lambda m: m["type"] == "state" and m["battle"] == battle)
        self.ws.send(json.dumps({"type": "unsubscribe", "battle": battle}))
        return state

    def close(self) -> None:
        self.ws.close()


Units = dict[str, tuple[str, int, int, list[str]]]


def started_battle(gm: BridgeGM, battle: str, units: Units) -> None:
    """Makes `battle` with `units` ({id: (side, fighters, strength, token uuids)}, each named
    after its id, "dwarves" → "Dwarves") and starts it."""
    gm.command(battle, type="create_battle")
    for unit, (side, fighters, strength, tokens) in units.items():
        gm.command(
            battle,
            type="add_unit",
            id=unit,
            name=unit.title(),
            side=side,
            fighters=fighters,
            strength=strength,
        )
        if tokens:
            gm.request("tokens", battle=battle, unit=unit, token_ids=tokens)
    gm.command(battle, type="start")


def lost_battle(gm: BridgeGM, battle: str, units: Units) -> dict[str, Any]:
    """`started_battle`, then two rounds the allies lose (typed rolls), then the end. Returns
    each unit's casualties."""
    started_battle(gm, battle, units)
    for _ in range(2):
        gm.command(battle, type="resolve_round", mode="rolls", rolls={"allies": 95, "enemies": 5})
    if gm.state(battle)["view"]["status"] != "ended":
        gm.command(battle, type="end_battle")
    view = gm.state(battle)["view"]
    return {u["id"]: u["casualties"] for u in view["units"]}
