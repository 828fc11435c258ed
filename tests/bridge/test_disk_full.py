"""The disk fills up in the middle of a stream of commands, then space comes back.

The store is real SQLite; "full" is SQLite's own `max_page_count` set to the file's current size,
so each write that needs a new page fails with SQLite's real `database or disk is full`.
Every ack must be durable, every refusal must change nothing, every watcher must see exactly the
acknowledged changes, and snapshots must resume when there is space again.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from bridge_helpers import STARTING, WAIT, Peer, StartBridge

from background_battle_bridge.snapshots import LAST_RETRY
from background_battle_bridge.storage import Record, SqliteStorage

SENDERS = 3
PER_PHASE = 30  # commands per sender and phase


class Disk:
    """How many pages the file may have (None: no limit); shared by every connection."""

    limit: int | None = None


class FillableStorage(SqliteStorage):
    """SQLite whose file may not grow while the disk is full (SQLite raises the real error)."""

    def __init__(self, path: Path, disk: type[Disk]) -> None:
        super().__init__(path)
        self.disk = disk

    def _cap(self) -> None:
        limit = 1_073_741_823 if self.disk.limit is None else self.disk.limit
        self._db.execute(f"PRAGMA max_page_count = {limit}")

    def pages(self) -> int:
        return int(self._db.execute("PRAGMA page_count").fetchone()[0])

    def append_many(self, records: list[tuple[str, int, Record]]) -> None:
        self._cap()
        super().append_many(records)

    def snapshot(self, battle: str, seq: int, data: dict[str, Any] | str) -> None:
        self._cap()
        super().snapshot(battle, seq, data)

    def reopened(self) -> FillableStorage:
        return FillableStorage(Path(self.path), self.disk)


async def send_phase(
    senders: list[Peer], phase: str, pipelined: bool = True
) -> dict[str, dict[str, Any]]:
    """Each sender sends its commands, all at once (pipelined) or each after the answer to the
    one before; every answer, by id."""

    async def one(n: int, peer: Peer) -> dict[str, dict[str, Any]]:
        ids = [f"{phase}-{n}-{i}" for i in range(PER_PHASE)]
        answers: dict[str, dict[str, Any]] = {}
        for command_id in ids:
            command = {"type": "rename", "name": command_id}
            await peer.send(
                {"type": "command", "id": command_id, "battle": "ambush", "command": command}
            )
            while not pipelined and command_id not in answers:
                await answer(peer, answers)
        while len(answers) < len(ids):
            await answer(peer, answers)
        return answers

    results = await asyncio.gather(*(one(n, peer) for n, peer in enumerate(senders)))
    return {key: value for result in results for key, value in result.items()}


async def answer(peer: Peer, answers: dict[str, dict[str, Any]]) -> None:
    reply = await peer.recv()
    if reply["type"] in ("ack", "error"):
        answers[reply["id"]] = reply


class Watching:
    """A watcher that reads as a real client does, all the time (one that stops reading while
    hundreds of events go out is a slow reader, and the bridge evicts it: docs/bridge.md)."""

    def __init__(self, peer: Peer) -> None:
        self.events: list[dict[str, Any]] = []
        self._task = asyncio.create_task(self._read(peer))

    async def _read(self, peer: Peer) -> None:
        while True:
            self.events.append(await peer.until("event"))

    async def until(self, version: int) -> list[dict[str, Any]]:
        """The events read, once the one of `version` is among them."""
        async with asyncio.timeout(WAIT):
            while not self.events or self.events[-1]["version"] < version:
                if self._task.done():
                    self._task.result()  # its error, if it failed
                await asyncio.sleep(0.01)
        self._task.cancel()
        return self.events


async def test_a_full_disk_mid_stream_keeps_every_promise(
    start_bridge: StartBridge, tmp_path: Path
) -> None:
    path = tmp_path / "battles.sqlite3"
    disk = Disk
    disk.limit = None
    storage = FillableStorage(path, disk)
    # no snapshot before the disk is full: the one due then is of the whole battle, pages more
    # than the disk has left (a snapshot replacing a recent one would reuse its freed pages,
    # and whether it fits would hang on how the records fell between snapshots)
    running = await start_bridge(storage, snapshot_every=1_000_000)
    hub = running.bridge.hub
    gm = await running.gm()
    await gm.create("ambush")
    for command in STARTING:  # started, so that a player may watch it
        await gm.command("ambush", command)
    gm_watcher = await running.gm(client="web", battle="ambush")
    player = await running.player(battle="ambush")
    for watcher in (gm_watcher, player):
        await watcher.until("state")
    watching = [Watching(watcher) for watcher in (gm_watcher, player)]
    senders = [await running.gm() for _ in range(SENDERS)]

    answers = await send_phase(senders, "before")
    await hub.snapshots.drain()  # the file's size is settled
    # the next record stored makes a snapshot due, whatever the last one covered
    hub.snapshots.every = hub.rooms["ambush"].since_snapshot + 1
    disk.limit = storage.pages() + 2  # room for a few more records, not for a snapshot
    answers |= await send_phase(senders, "full")  # big transactions: refused whole
    answers |= await send_phase(senders, "full-slow", pipelined=False)  # some fit
    await hub.snapshots.drain()
    assert hub.snapshots.failed >= 1  # due while the disk was full: failed, no answer touched
    refused = {key for key, reply in answers.items() if reply["type"] == "error"}
    assert refused and all(answers[key]["code"] == "not_stored" for key in refused)
    assert all(key.startswith("full") for key in refused)
    version_when_full = hub.rooms["ambush"].version
    assert version_when_full == len(STARTING) + len(answers) - len(refused)  # none changed a thing

    disk.limit = None
    answers |= await send_phase(senders, "after")
    # a refused command may be sent again with its id: it was not remembered
    retried = sorted(refused)[0]
    again = await gm.command("ambush", {"type": "rename", "name": retried}, id=retried)
    assert again["type"] == "ack" and "duplicate" not in again
    answers[retried] = again

    acked = {key: reply["version"] for key, reply in answers.items() if reply["type"] == "ack"}
    first, last = len(STARTING) + 1, max(acked.values())
    assert sorted(acked.values()) == list(
        range(first, last + 1)
    )  # contiguous, none lost or doubled
    assert hub.rooms["ambush"].version == last

    # every watcher saw exactly the acknowledged changes, in order
    by_version = {version: key for key, version in acked.items()}
    for each in watching:
        events = await each.until(last)
        assert [event["version"] for event in events] == list(range(first, last + 1))
        assert [event["command"]["name"] for event in events] == [
            by_version[version] for version in range(first, last + 1)
        ]

    # snapshots resumed once there was space again (after their back-off)
    written = hub.snapshots.written
    async with asyncio.timeout(WAIT + LAST_RETRY):  # a back-off may have grown while full
        while hub.snapshots.due(hub.rooms["ambush"]) or hub.snapshots.written == written:
            await asyncio.sleep(0.05)
    await running.stack.aclose()
    stored = SqliteStorage(path).load()["ambush"]
    assert stored.snapshot is not None and stored.snapshot_seq > version_when_full + 1

    # every ack is durable, every refusal left nothing behind
    again_running = await start_bridge(SqliteStorage(path))
    room = again_running.bridge.hub.rooms["ambush"]
    assert room.version == last
    for key, version in acked.items():
        assert room.battle.log[version - 1].command["name"] == key
        assert room.ids[key][0] == version
    assert not (refused - {retried}) & set(room.ids)
