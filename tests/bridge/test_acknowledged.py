"""Issue 26, 6 (`acknowledged.py`): acknowledged changes that vanish with a lost `-wal` are
noticed, at start and by `check`, with the way back; a backup holds what the `-wal` held.

The real bridge is killed (kill -9) while its last changes are only in the write-ahead log, and
the `-wal` is deleted, as a copy of the folder without it would leave it: SQLite reads a sound,
older database; the bridge's marks, kept outside it, say what it acknowledged.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

from bridge_helpers import DWARVES, GM, ORCS, Peer, run_bridge, said, stop_gently
from test_process import bridge_process
from websockets.asyncio.client import connect

from background_battle_bridge.acknowledged import Marks, marks_path, read_marks
from background_battle_bridge.hub import Hub
from background_battle_bridge.storage import SqliteStorage

SET_STRENGTH = {"type": "set_strength", "side": "allies", "strength": 31}


async def commands(port: int, battle: str, count: int, create: bool = False) -> int:
    """`count` acknowledged commands (after creating and setting up `battle`); its version."""
    async with connect(f"ws://127.0.0.1:{port}/ws") as ws:
        gm = Peer(ws)
        await gm.hello(GM)
        if create:
            for command in ({"type": "create_battle"}, ORCS, DWARVES, {"type": "start"}):
                assert (await gm.command(battle, command))["type"] == "ack"
        version = 0
        for _ in range(count):
            reply = await gm.command(battle, SET_STRENGTH)
            assert reply["type"] == "ack", reply
            version = reply["version"]
        return version


def records_in(path: Path, battle: str) -> int:
    with sqlite3.connect(path) as db:
        (count,) = db.execute("SELECT count(*) FROM records WHERE battle = ?", (battle,)).fetchone()
    return int(count)


async def test_a_wal_deleted_after_kill_9_is_noticed_at_start_and_by_check(
    tmp_path: Path,
) -> None:
    path = tmp_path / "battles.sqlite3"
    with bridge_process(tmp_path) as (process, port):  # stopped cleanly: all in the file
        await commands(port, "ambush", 5, create=True)
        await commands(port, "siege", 1, create=True)
        stop_gently(process)  # SIGTERM (Ctrl-Break on Windows): the last connection checkpoints
        process.wait(timeout=30)
    with bridge_process(tmp_path) as (process, port):
        await commands(port, "ambush", 40)  # only in the -wal until a checkpoint
        process.kill()
        process.wait(timeout=30)
    acknowledged = read_marks(marks_path(path))[0]
    assert acknowledged == {"ambush": 49, "siege": 5}
    for part in ("-wal", "-shm"):
        Path(f"{path}{part}").unlink()
    assert records_in(path, "ambush") == 9  # SQLite sees nothing amiss

    done = run_bridge("check", "--data", str(tmp_path))
    assert done.returncode == 1, done.stdout
    assert (
        "'ambush': DAMAGED: 40 acknowledged changes are missing (the bridge stored and "
        "acknowledged record 49, the file ends at record 9): was the folder copied without "
        "its -wal file? Restore a backup (`background-battle-bridge restore --from FILE`)"
    ) in said(done.stdout)
    assert "'siege': sound" in said(done.stdout)

    with bridge_process(tmp_path) as (process, port):
        assert process.stdout is not None
        lines = [process.stdout.readline() for _ in range(7)]
        while "its good part" not in lines[-1] and lines[-1] and len(lines) < 30:
            lines.append(process.stdout.readline())
        [first] = [n for n, line in enumerate(lines) if "battle 'ambush' is damaged" in line]
        message = said("".join(lines[first:]))
        assert message.startswith("battle 'ambush' is damaged (40 acknowledged changes")
        assert "restore --from FILE" in message
        async with connect(f"ws://127.0.0.1:{port}/ws") as ws:
            gm = Peer(ws)
            await gm.hello(GM)
            listed = await gm.ask({"type": "list_battles"}, "battles")
            assert [b["name"] for b in listed["battles"]] == ["siege"]  # the other one served
        stop_gently(process)
        process.wait(timeout=30)

    done = run_bridge("check", "--data", str(tmp_path), "--repair")
    assert done.returncode == 0, done.stdout + done.stderr
    brought_back = "records 1-9 (version 8) brought back from quarantine #1 as 'ambush'"
    assert brought_back in said(done.stdout)
    assert read_marks(marks_path(path))[0] == {"ambush": 9, "siege": 5}  # the loss accepted
    assert run_bridge("check", "--data", str(tmp_path)).returncode == 0


async def test_a_backup_holds_what_only_the_wal_held(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with bridge_process(data) as (process, port):
        version = await commands(port, "ambush", 30, create=True)
        assert Path(f"{data / 'battles.sqlite3'}-wal").stat().st_size > 0
        copy = tmp_path / "ambush.backup"
        done = run_bridge("backup", "--data", str(data), "--to", str(copy))
        assert done.returncode == 0, done.stderr
        process.kill()
        process.wait(timeout=30)
    assert records_in(copy, "ambush") == 34 and not Path(f"{copy}-wal").exists()
    Path(f"{data / 'battles.sqlite3'}-wal").unlink()  # the folder's changes lost
    done = run_bridge("restore", "--data", str(data), "--from", str(copy))
    assert done.returncode == 0, done.stdout + done.stderr
    hub = Hub(SqliteStorage(data / "battles.sqlite3"))
    hub.restore()
    assert hub.rooms["ambush"].version == version and not hub.quarantined


def test_a_battle_only_the_marks_know_is_quarantined_with_nothing_to_bring_back(
    tmp_path: Path,
) -> None:
    path = tmp_path / "battles.sqlite3"
    store = SqliteStorage(path)
    store.append_many([("ambush", 1, {"kind": "created", "id": "c1"})])
    store.close()
    Marks(marks_path(path)).rewrite({"ambush": 1, "lost": 12})  # a battle the file never got
    hub = Hub(SqliteStorage(path))
    hub.restore()
    assert list(hub.rooms) == ["ambush"]
    assert hub.quarantined["lost"].startswith("12 acknowledged changes are missing")
    hub.storage.close()
    assert read_marks(marks_path(path))[0] == {"ambush": 1}  # the name is free again
    done = run_bridge("check", "--data", str(tmp_path))
    assert done.returncode == 1 and "'lost': in quarantine #1 (12 acknowledged" in said(done.stdout)


def test_marks_are_written_after_each_commit_and_rewritten_when_long(tmp_path: Path) -> None:
    path = tmp_path / "battles.sqlite3"
    store = SqliteStorage(path)
    store.append_many([("ambush", 1, {"kind": "created", "id": "c1"})])
    store.append_many([("ambush", 2, {"kind": "archived", "id": "a"}), ("siege", 1, {"kind": "x"})])
    assert read_marks(marks_path(path)) == ({"ambush": 2, "siege": 1}, 4)
    store.marks._lines = 5000  # as after many commits
    store.append_many([("ambush", 3, {"kind": "x"})])
    lines = marks_path(path).read_text().splitlines()
    assert [json.loads(line) for line in lines] == [["ambush", 3], ["siege", 1]]
    store.close()
    if os.name == "posix":
        assert marks_path(path).stat().st_mode & 0o777 == 0o600


def test_check_of_a_folder_whose_database_is_gone_names_the_battles_it_held(
    tmp_path: Path,
) -> None:
    path = tmp_path / "battles.sqlite3"
    store = SqliteStorage(path)
    store.append_many([("ambush", 1, {"kind": "created", "id": "c1"})])
    store.close()
    path.unlink()
    done = run_bridge("check", "--data", str(tmp_path))
    assert done.returncode == 1, done.stdout
    assert "but the bridge acknowledged changes to 1 battle there ('ambush')" in said(done.stdout)


def test_a_folder_of_an_older_bridge_gets_its_marks_at_the_first_start(tmp_path: Path) -> None:
    path = tmp_path / "battles.sqlite3"
    store = SqliteStorage(path)
    store.append_many([("ambush", 1, {"kind": "created", "id": "c1"})])
    store.append_many([("ambush", 2, {"kind": "archived", "id": "a1"})])
    store.close()
    marks_path(path).unlink()  # as a bridge before the marks left it
    hub = Hub(SqliteStorage(path))
    hub.restore()
    hub.storage.close()
    assert read_marks(marks_path(path))[0] == {"ambush": 2}
