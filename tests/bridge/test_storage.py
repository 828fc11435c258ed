"""The storage interface, its in-memory twin and SQLite; restarts restore every change."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from bridge_helpers import DWARVES, ORCS, Peer, Running, StartBridge

from background_battle import to_json
from background_battle_bridge.hub import Hub
from background_battle_bridge.storage import MemoryStorage, Record, SqliteStorage, Storage


def test_records_come_back_in_order(storage_factory: Callable[[], Storage]) -> None:
    store = storage_factory()
    store.append("ambush", 1, {"kind": "created", "id": "a"})
    store.append("ambush", 2, {"kind": "archived", "id": "b"})
    store.append("siege", 1, {"kind": "created", "id": "c"})
    store.close()
    loaded = storage_factory().load()
    assert loaded["ambush"].records == [
        (1, {"kind": "created", "id": "a"}),
        (2, {"kind": "archived", "id": "b"}),
    ]
    assert loaded["siege"].snapshot is None and len(loaded["siege"].records) == 1


def test_a_snapshot_leaves_only_later_records_to_replay(
    storage_factory: Callable[[], Storage],
) -> None:
    store = storage_factory()
    for seq in range(1, 6):
        store.append("ambush", seq, {"kind": "tokens", "n": seq})
    store.snapshot("ambush", 3, {"as_of": 3})
    store.close()
    loaded = storage_factory().load()["ambush"]
    assert (loaded.snapshot_seq, loaded.snapshot) == (3, {"as_of": 3})
    assert [seq for seq, _ in loaded.records] == [4, 5]


def test_a_record_number_is_never_written_twice(storage_factory: Callable[[], Storage]) -> None:
    store = storage_factory()
    store.append("ambush", 1, {"kind": "created", "id": "a"})
    with pytest.raises((ValueError, sqlite3.IntegrityError)):
        store.append("ambush", 1, {"kind": "created", "id": "again"})
    assert storage_factory().load()["ambush"].records == [(1, {"kind": "created", "id": "a"})]


def test_the_memory_twin_shares_nothing_with_its_caller() -> None:
    store = MemoryStorage()
    record = {"kind": "tokens", "token_ids": ["a"]}
    store.append("ambush", 1, record)
    record["token_ids"].append("b")
    loaded = store.load()
    loaded["ambush"].records[0][1]["token_ids"].append("c")
    assert store.load()["ambush"].records == [(1, {"kind": "tokens", "token_ids": ["a"]})]


def test_sqlite_runs_in_wal_mode_with_full_sync_unless_told(tmp_path: Path) -> None:
    store = SqliteStorage(tmp_path / "b.sqlite3")
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    store.close()
    store = SqliteStorage(tmp_path / "b.sqlite3", sync="normal")
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    store.close()
    with pytest.raises(ValueError, match="sync must be one of full, normal, not 'off'"):
        SqliteStorage(tmp_path / "b.sqlite3", sync="off")


async def test_a_restart_restores_every_change(
    start_bridge: StartBridge, storage_factory: Callable[[], Storage]
) -> None:
    first = await start_bridge(storage_factory(), snapshot_every=3)
    gm = await first.gm()
    await gm.create("ambush")
    await gm.create("siege")
    commands = [ORCS, DWARVES, {"type": "start"}, {"type": "resolve_round", "mode": "auto"}]
    acks = [await gm.command("ambush", command, id=f"a{n}") for n, command in enumerate(commands)]
    await gm.command("ambush", {"type": "undo"}, id="u")
    await gm.command("siege", {"type": "archive_battle"}, id="arch")
    before = {name: to_json(room.battle) for name, room in first.bridge.hub.rooms.items()}
    await first.stack.aclose()

    second = await start_bridge(storage_factory(), snapshot_every=3)
    rooms = second.bridge.hub.rooms
    assert {name: to_json(room.battle) for name, room in rooms.items()} == before
    assert rooms["siege"].archived and not rooms["ambush"].archived
    gm = await second.gm()
    for n, (command, ack) in enumerate(zip(commands, acks, strict=True)):
        again = await gm.command("ambush", command, id=f"a{n}")
        assert again == {**ack, "duplicate": True}
    assert rooms["ambush"].version == 5


async def test_start_up_uses_the_snapshot(tmp_path: Path, start_bridge: StartBridge) -> None:
    path = tmp_path / "snap.sqlite3"
    first = await start_bridge(SqliteStorage(path), snapshot_every=4)
    gm = await first.gm()
    await gm.create("ambush")
    for n in range(10):
        await gm.command("ambush", {"type": "rename", "name": f"n{n}"})
    await first.bridge.hub.snapshots.drain()  # snapshots are written after the replies
    await first.stack.aclose()
    stored = SqliteStorage(path).load()["ambush"]
    # 11 records: `created`, then a snapshot once 4 changes are due (where the thread finds
    # them: once every snapshot is written, fewer than 4 records follow the last one, so it is at
    # 8 or later); only the records after it are replayed
    last = stored.snapshot_seq
    assert 8 <= last <= 11 and [seq for seq, _ in stored.records] == list(range(last + 1, 12))
    hub = Hub(SqliteStorage(path), snapshot_every=4)
    assert hub.restore() == 11 - last
    assert hub.rooms["ambush"].battle.name == "n9"


class NoRoomForSnapshots(MemoryStorage):
    """Records are stored; every snapshot fails as on a full disk."""

    def snapshot(self, battle: str, seq: int, data: dict[str, object] | str) -> None:
        raise OSError(28, "No space left on device")


async def test_a_failing_snapshot_changes_no_answer_and_backs_off(
    start_bridge: StartBridge,
) -> None:
    running = await start_bridge(NoRoomForSnapshots(), snapshot_every=1)
    gm = await running.gm()
    await gm.create("ambush")
    player = await running.gm(client="web", battle="ambush")  # set-up: a GM's to watch
    await player.until("state")
    for n in range(30):
        ack = await gm.command("ambush", {"type": "rename", "name": f"n{n}"})
        assert (ack["type"], ack["version"]) == ("ack", n + 1)
    assert [(await player.until("event"))["version"] for _ in range(30)] == list(range(1, 31))
    snapshots = running.bridge.hub.snapshots
    assert 1 <= snapshots.failed <= 3  # tried again after 1 s, 2 s, ...: not after every command
    assert snapshots.due(running.bridge.hub.rooms["ambush"])  # still due: nothing was saved


async def with_battle(start_bridge: StartBridge, storage: Storage) -> tuple[Running, Peer]:
    """A bridge on `storage` with the battle `ambush`, and its GM."""
    running: Running = await start_bridge(storage)
    gm = await running.gm()
    await gm.create("ambush")
    return running, gm


class SlowDisk(SqliteStorage):
    """Real SQLite whose every transaction takes 50 ms more, like a slow fsync; counts them."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.transactions: list[int] = []

    def append_many(self, records: list[tuple[str, int, Record]]) -> None:
        time.sleep(0.05)
        super().append_many(records)
        self.transactions.append(len(records))


async def test_commands_that_arrive_together_share_one_transaction(
    start_bridge: StartBridge, tmp_path: Path
) -> None:
    storage = SlowDisk(tmp_path / "slow.sqlite3")
    running, _gm = await with_battle(start_bridge, storage)
    senders = [await running.gm() for _ in range(20)]
    for n, sender in enumerate(senders):
        await sender.send({"type": "command", "id": f"r{n}", "battle": "ambush", "command": ORCS})
    acks = [await sender.until("ack") for sender in senders]
    assert sorted(ack["version"] for ack in acks) == list(range(1, 21))
    assert sum(storage.transactions) == 21  # the battle's creation, then the 20 commands
    assert len(storage.transactions) <= 4  # while one transaction is written, the rest queue up
    await running.stack.aclose()
    assert SqliteStorage(tmp_path / "slow.sqlite3").load()["ambush"].records[-1][0] == 21


class FailsOnce(SlowDisk):
    """The next transaction fails (slowly) as on a full disk; those after it succeed."""

    armed = False

    def append_many(self, records: list[tuple[str, int, Record]]) -> None:
        if self.armed:
            self.armed = False
            time.sleep(0.3)  # long enough for the other senders' commands to queue up
            raise sqlite3.OperationalError("database or disk is full")
        super().append_many(records)


async def test_changes_decided_on_a_change_that_failed_are_refused_with_it(
    start_bridge: StartBridge, tmp_path: Path
) -> None:
    storage = FailsOnce(tmp_path / "once.sqlite3")
    running, gm = await with_battle(start_bridge, storage)
    watcher = await running.gm(client="web", battle="ambush")  # set-up: a GM's to watch
    await watcher.until("state")
    senders = [await running.gm() for _ in range(5)]
    storage.armed = True
    await senders[0].send({"type": "command", "id": "r0", "battle": "ambush", "command": ORCS})
    await asyncio.sleep(0.01)  # r0 is being written; the others are decided on top of it
    for n, sender in enumerate(senders[1:], start=1):
        await sender.send({"type": "command", "id": f"r{n}", "battle": "ambush", "command": ORCS})
    replies = [await sender.recv() for sender in senders]
    assert [(reply["id"], reply["code"]) for reply in replies] == [
        (f"r{n}", "not_stored") for n in range(5)
    ]
    room = running.bridge.hub.rooms["ambush"]
    assert (room.version, room.head) == (0, None)
    ack = await gm.command("ambush", DWARVES, id="r0")  # a refused id may be used again
    assert ack["version"] == 1
    event = await watcher.until("event")
    assert (event["version"], event["command"]["name"]) == (1, "Dwarves")


async def test_one_clients_burst_shares_transactions_and_is_answered_in_order(
    start_bridge: StartBridge, tmp_path: Path
) -> None:
    storage = SlowDisk(tmp_path / "burst.sqlite3")
    _running, gm = await with_battle(start_bridge, storage)
    for n in range(20):
        await gm.send({"type": "command", "id": f"b{n}", "battle": "ambush", "command": ORCS})
    await gm.send({"type": "ping", "id": "last"})
    answers = [await gm.recv() for _ in range(21)]
    assert [(a["type"], a["id"]) for a in answers] == [("ack", f"b{n}") for n in range(20)] + [
        ("pong", "last")
    ]
    assert [a["version"] for a in answers[:20]] == list(range(1, 21))
    assert len(storage.transactions) <= 5  # the creation, then the burst in a few batches
