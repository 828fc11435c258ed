"""Snapshots: every `every` records a battle is saved whole, after the reply, off the event loop.

The battle is a frozen value, so a thread can encode it while the loop goes on deciding; the
thread writes through a connection of its own. A snapshot that fails (a full disk) changes no
reply: it is logged and tried again later, waiting twice as long each time (1 s up to 60 s).
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from dataclasses import replace
from typing import Any

from background_battle import Battle, to_json

from .room import Room
from .stored import Storage

log = logging.getLogger("background_battle_bridge")

SNAPSHOT_EVERY = 1000
FIRST_RETRY = 1.0
LAST_RETRY = 60.0
CHUNK = 256  # log entries encoded between two pauses that let the event loop run


class Snapshots:
    """Schedules and writes snapshots; `after(room)` is called once a change is stored."""

    def __init__(self, storage: Storage, every: int = SNAPSHOT_EVERY) -> None:
        self.storage = storage
        self.every = every
        self._writer: Storage | None = None
        self._writing = threading.Lock()  # one snapshot thread on the connection at a time
        self._running: dict[str, asyncio.Task[None]] = {}
        self._retry_at: dict[str, float] = {}
        self._delay: dict[str, float] = {}
        self.written = 0
        self.failed = 0

    def due(self, room: Room) -> bool:
        return room.since_snapshot >= self.every

    def after(self, room: Room) -> None:
        """Start a snapshot of the room when it is due (and none runs, and no back-off)."""
        if not self.due(room) or room.name in self._running:
            return
        loop = asyncio.get_running_loop()
        wait = self._retry_at.get(room.name, 0.0) - loop.time()
        if wait > 0:
            return
        task = loop.create_task(self._snapshot(room))
        self._running[room.name] = task
        task.add_done_callback(lambda done: self._finished(room, done))

    def _finished(self, room: Room, done: asyncio.Task[None]) -> None:
        """Once a snapshot is written (or failed): the next one, if due meanwhile (a failed one
        waits for its back-off; none after one cancelled, the bridge is stopping)."""
        self._running.pop(room.name, None)
        if not done.cancelled():
            self.after(room)

    async def _snapshot(self, room: Room) -> None:
        await asyncio.sleep(0)  # the reply that made it due goes first
        seq, counted = room.seq, room.since_snapshot
        parts = (
            room.battle,
            room.archived,
            dict(room.ids),
            dict(room.tokens),
            dict(room.applied),
            dict(room.fighters),
            {"jobs": dict(room.jobs), "detached": dict(room.detached), "marks": dict(room.marks)},
        )
        try:
            await asyncio.to_thread(self._write, room.name, seq, *parts)
        except Exception as exc:
            self.failed += 1
            delay = min(LAST_RETRY, self._delay.get(room.name, FIRST_RETRY / 2) * 2)
            self._delay[room.name] = delay
            loop = asyncio.get_running_loop()
            self._retry_at[room.name] = loop.time() + delay
            log.warning("snapshot of %r failed (%s); next try in %.0f s", room.name, exc, delay)
            loop.call_later(delay, self._retry, room)
            return
        self.written += 1
        room.since_snapshot -= counted  # the records stored meanwhile still count
        self._delay.pop(room.name, None)
        self._retry_at.pop(room.name, None)

    def _retry(self, room: Room) -> None:
        """The back-off is over: the timer is its end (a timer may fire a hair before the
        time `after` compares with, which would leave the snapshot untried for ever)."""
        self._retry_at.pop(room.name, None)
        if room.name not in self._running:
            self.after(room)

    def _write(self, name: str, seq: int, battle: Battle, *rest: Any) -> None:
        text = snapshot_text(battle, *rest)
        with self._writing:
            if self._writer is None:
                self._writer = self.storage.reopened()
            self._writer.snapshot(name, seq, text)

    async def drain(self) -> None:
        """Wait for the snapshots being written (before closing the store), and for those that
        fell due meanwhile (each started as the one before it is done)."""
        while self._running:
            await asyncio.gather(*self._running.values(), return_exceptions=True)

    def close(self) -> None:
        if self._writer is not None and self._writer is not self.storage:
            self._writer.close()


def snapshot_text(
    battle: Battle,
    archived: bool,
    ids: dict[str, Any],
    tokens: dict[str, Any],
    applied: dict[str, Any],
    fighters: dict[str, Any] | None = None,
    more: dict[str, Any] | None = None,
) -> str:
    """The JSON text of `Room.snapshot_data`, encoded a few entries at a time with pauses, so
    that a long battle does not hold the interpreter (and the event loop) for the whole of it.

    >>> from background_battle import new_battle
    >>> json.loads(snapshot_text(new_battle("x"), False, {"a": (0, "")}, {}, {}))["ids"]
    {'a': [0, '']}
    """
    head = to_json(replace(battle, log=()))
    del head["log"]
    parts = [_dumps(head)[:-1], ',"log":[']
    for index, entry in enumerate(battle.log):
        if index:
            parts.append(",")
        parts.append(_dumps(entry.to_dict()))
        if index % CHUNK == CHUNK - 1:
            time.sleep(0)  # let the event loop's thread take the interpreter
    parts.append("]}")
    body = {
        "archived": archived,
        "tokens": tokens,
        "fighters": fighters or {},
        "applied": applied,
        **(more or {}),
    }
    parts.append("," + _dumps(body)[1:-1] + ',"ids":{')
    for index, (key, receipt) in enumerate(ids.items()):
        parts.append(("," if index else "") + _dumps(key) + ":" + _dumps(list(receipt)))
        if index % (CHUNK * 8) == CHUNK * 8 - 1:
            time.sleep(0)
    parts.append("}}")
    return '{"battle":' + "".join(parts)


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
