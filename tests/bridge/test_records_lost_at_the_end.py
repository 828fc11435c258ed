"""Records lost from the end of a battle are found like records lost from its middle: each
battle's head (its last record's number and checksum) is stored in the same transaction as the
records (storage.py), checked at start-up and by `check`."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest
from bridge_helpers import StartBridge, run_bridge, said
from test_integrity import edit, fill, snapshotted

from background_battle_bridge.checkup import examine
from background_battle_bridge.hub import Hub
from background_battle_bridge.storage import LAYOUT, SqliteStorage

CUT = "records 4-5 are missing at its end (its head says it reached record 5)"


def cut_the_end(path: Path, first: int = 4) -> None:
    edit(path, "DELETE FROM records WHERE battle = 'ambush' AND seq >= ?", first)


async def test_a_battle_missing_its_last_records_is_quarantined_naming_them(
    start_bridge: StartBridge, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "battles.sqlite3"
    await fill(start_bridge, path)
    cut_the_end(path)

    caplog.set_level(logging.INFO)
    running = await start_bridge(SqliteStorage(path))
    assert running.bridge.hub.quarantined["ambush"].startswith(CUT)
    logged = [r.getMessage() for r in caplog.records if "ambush" in r.getMessage()]
    assert len(logged) == 1 and CUT in logged[0]
    assert "only a backup can bring them back" in logged[0]
    gm = await running.gm()
    assert (await gm.ask({"type": "subscribe", "battle": "siege"}, "state"))["version"] == 1
    refused = await gm.ask({"type": "subscribe", "battle": "ambush"})
    assert (refused["type"], refused["code"]) == ("error", "unknown_battle")
    await running.stack.aclose()
    running.bridge.hub.storage.close()

    done = run_bridge("check", "--data", str(tmp_path))
    assert done.returncode == 1, done.stdout
    assert f"'ambush': in quarantine #1 ({CUT}" in said(done.stdout)
    assert "records 1-3 (version 2) can be brought back" in said(done.stdout)
    done = run_bridge("check", "--data", str(tmp_path), "--repair")
    assert done.returncode == 0, done.stdout + done.stderr
    brought_back = "records 1-3 (version 2) brought back from quarantine #1 as 'ambush'"
    assert brought_back in said(done.stdout)
    hub = Hub(SqliteStorage(path))
    hub.restore()
    assert hub.rooms["ambush"].version == 2 and not hub.quarantined


async def test_records_lost_below_the_snapshot_are_found_too(
    start_bridge: StartBridge, tmp_path: Path
) -> None:
    path = tmp_path / "battles.sqlite3"
    await snapshotted(start_bridge, path)
    (snapshot,) = sqlite3.connect(path).execute("SELECT seq FROM snapshots").fetchone()
    assert snapshot >= 4
    cut_the_end(path, 3)

    hub = Hub(SqliteStorage(path))
    hub.restore()
    assert hub.quarantined["ambush"].startswith("records 3-5 are missing at its end")


async def test_a_missing_head_is_damage(start_bridge: StartBridge, tmp_path: Path) -> None:
    path = tmp_path / "battles.sqlite3"
    await fill(start_bridge, path)
    edit(path, "DELETE FROM battles WHERE battle = 'ambush'")

    hub = Hub(SqliteStorage(path))
    hub.restore()
    assert hub.quarantined == {"ambush": "its head (the number of its last record) is missing"}
    assert list(hub.rooms) == ["siege"]


async def test_a_file_written_before_heads_gets_them_once_and_then_finds_a_cut(
    start_bridge: StartBridge, tmp_path: Path
) -> None:
    path = tmp_path / "battles.sqlite3"
    states = await fill(start_bridge, path)
    edit(path, "DROP TABLE battles")
    edit(path, "PRAGMA user_version = 1")  # the layout before heads

    store = SqliteStorage(path)
    assert store.connection.execute("PRAGMA user_version").fetchone() == (LAYOUT,)
    heads = store.connection.execute("SELECT battle, seq FROM battles ORDER BY 1").fetchall()
    assert heads == [("ambush", 5), ("siege", 2)]
    assert not [f for f in examine(store.connection) if f.needs_repair]
    hub = Hub(store)
    hub.restore()
    assert sorted(hub.rooms) == ["ambush", "siege"] and not hub.quarantined
    assert hub.rooms["ambush"].version == 4 and states["ambush"]["log"]
    store.close()

    cut_the_end(path)
    hub = Hub(SqliteStorage(path))
    hub.restore()
    assert hub.quarantined["ambush"].startswith(CUT)
