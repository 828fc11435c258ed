"""The storage interface, its in-memory twin and SQLite; restarts restore every change."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from bridge_helpers import DWARVES, ORCS, StartBridge

from background_battle import to_json
from background_battle_bridge.hub import Hub
from background_battle_bridge.storage import MemoryStorage, SqliteStorage, Storage


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
    await first.stack.aclose()
    stored = SqliteStorage(path).load()["ambush"]
    # 11 records: `created`, then a snapshot after every 4 changes (at 5 and 9), 2 left to replay
    assert stored.snapshot_seq == 9 and [seq for seq, _ in stored.records] == [10, 11]
    hub = Hub(SqliteStorage(path), snapshot_every=4)
    assert hub.restore() == 2
    assert hub.rooms["ambush"].battle.name == "n9"
