"""Start-up you can trust: every record checked, a damaged battle quarantined while the others
are served, old files upgraded, one bridge per data folder, and `check --repair` that mends."""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from bridge_helpers import (
    DWARVES,
    GM,
    ORCS,
    PLAYER,
    StartBridge,
    bridge_running,
    one_message,
    run_bridge,
    said,
)

from background_battle import to_json
from background_battle_bridge.checkup import examine, repair
from background_battle_bridge.hub import Hub
from background_battle_bridge.storage import LAYOUT, MemoryStorage, SqliteStorage, checksum

FIGHT = [ORCS, DWARVES, {"type": "start"}, {"type": "resolve_round", "mode": "auto"}]


async def damaged(start_bridge: StartBridge, folder: Path, damage: str) -> Path:
    """The data file of `fill`, then spoiled one of the DAMAGES ways."""
    path = folder / "battles.sqlite3"
    await fill(start_bridge, path)
    DAMAGES[damage][0](path)
    return path


async def fill(start_bridge: StartBridge, path: Path) -> dict[str, object]:
    """Two battles through a real bridge on SQLite: `ambush` (4 commands), `siege` (1)."""
    running = await start_bridge(SqliteStorage(path))
    gm = await running.gm()
    await gm.create("ambush")
    for command in FIGHT:
        assert (await gm.command("ambush", command))["type"] == "ack"
    await gm.create("siege")
    await gm.command("siege", ORCS)
    states = {name: to_json(room.battle) for name, room in running.bridge.hub.rooms.items()}
    await running.stack.aclose()
    running.bridge.hub.storage.close()
    return states


async def snapshotted(start_bridge: StartBridge, path: Path) -> dict[str, Any]:
    """`ambush` fought through a real bridge that snapshots every 2 records; its JSON form."""
    running = await start_bridge(SqliteStorage(path), snapshot_every=2)
    gm = await running.gm()
    await gm.create("ambush")
    for command in FIGHT:
        await gm.command("ambush", command)
    before = to_json(running.bridge.hub.rooms["ambush"].battle)
    await running.stack.aclose()
    running.bridge.hub.storage.close()
    return before


def edit(path: Path, sql: str, *params: object) -> None:
    """Change the file behind the bridge's back, as a disk or a hand would."""
    db = sqlite3.connect(path)
    db.execute(sql, params)
    db.commit()
    db.close()


def rewrite(path: Path, battle: str, seq: int, data: str) -> None:
    """Store other data for a record, with a checksum that matches it (a bug, not a disk)."""
    edit(
        path,
        "UPDATE records SET data = ?, checksum = ? WHERE battle = ? AND seq = ?",
        data,
        checksum(battle, seq, data.encode()),
        battle,
        seq,
    )


DAMAGES: dict[str, tuple[Callable[[Path], None], str]] = {
    "changed on disk": (
        lambda path: edit(
            path,
            "UPDATE records SET data = replace(data, 'Dwarves', 'Elves') "
            "WHERE battle = 'ambush' AND seq = 3",
        ),
        "record 3 does not match its checksum",
    ),
    "not JSON": (
        lambda path: rewrite(path, "ambush", 3, '{"kind": "entry", "entry": '),
        "record 3 is not valid JSON",
    ),
    "a field missing": (
        lambda path: rewrite(path, "ambush", 3, '{"kind": "entry", "id": "x"}'),
        "record 3 cannot be replayed (KeyError: 'entry')",
    ),
    "deleted from the middle": (
        lambda path: edit(path, "DELETE FROM records WHERE battle = 'ambush' AND seq = 3"),
        "record 3 is missing (the next one is 4)",
    ),
}


@pytest.mark.parametrize("damage", DAMAGES)
async def test_a_damaged_battle_is_quarantined_and_the_others_are_served(
    start_bridge: StartBridge,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    damage: str,
) -> None:
    path = tmp_path / "battles.sqlite3"
    states = await fill(start_bridge, path)
    spoil, reason = DAMAGES[damage]
    spoil(path)

    caplog.set_level(logging.INFO)
    running = await start_bridge(SqliteStorage(path))
    quarantined = running.bridge.hub.quarantined
    assert list(quarantined) == ["ambush"] and quarantined["ambush"].startswith(reason)
    logged = [r.getMessage() for r in caplog.records if "ambush" in r.getMessage()]
    assert len(logged) == 1 and reason in logged[0] and "quarantine" in logged[0]
    assert not [r for r in caplog.records if r.exc_info]
    gm = await running.gm()
    player = await running.player()
    state = await gm.ask({"type": "subscribe", "battle": "siege"})
    assert state["type"] == "state" and state["version"] == 1
    refused = await gm.ask({"type": "subscribe", "battle": "ambush"})
    assert (refused["type"], refused["code"]) == ("error", "unknown_battle")
    assert (await gm.command("siege", DWARVES))["version"] == 2
    assert (await gm.command("siege", {"type": "start"}))["version"] == 3  # players see it now
    assert (await player.ask({"type": "subscribe", "battle": "siege"}, "state"))["version"] == 3
    await running.stack.aclose()

    # the records before the bad one are the battle's good part: `check --repair` brings it back
    done = run_bridge("check", "--data", str(tmp_path))
    assert done.returncode == 1, done.stdout
    assert "'ambush': in quarantine #1" in said(done.stdout) and "records 1-2" in said(done.stdout)
    assert "'siege': sound, version 3" in said(done.stdout)
    done = run_bridge("check", "--data", str(tmp_path), "--repair")
    assert done.returncode == 0, done.stdout + done.stderr
    brought_back = "records 1-2 (version 1) brought back from quarantine #1 as 'ambush'"
    assert brought_back in said(done.stdout)
    assert run_bridge("check", "--data", str(tmp_path)).returncode == 0

    running = await start_bridge(SqliteStorage(path))
    ambush = running.bridge.hub.rooms["ambush"]
    assert ambush.version == 1 and ambush.battle.units[0].name == "Orcs"
    assert states["ambush"] != to_json(ambush.battle)


async def test_a_battle_brought_back_beside_one_made_since_under_its_name(
    start_bridge: StartBridge, tmp_path: Path
) -> None:
    path = await damaged(start_bridge, tmp_path, "deleted from the middle")
    running = await start_bridge(SqliteStorage(path))
    gm = await running.gm()
    assert (await gm.create("ambush"))["version"] == 0  # the name is free again
    await running.stack.aclose()
    running.bridge.hub.storage.close()

    store = SqliteStorage(path)
    done = repair(store, examine(store.connection))
    assert done == [
        "'ambush': records 1-2 (version 1) brought back from quarantine #1"
        " as 'ambush (quarantine 1)'"
    ]
    assert not [f for f in examine(store.connection) if f.needs_repair]
    store.close()
    hub = Hub(SqliteStorage(path))
    hub.restore()
    assert hub.rooms["ambush"].version == 0
    assert hub.rooms["ambush (quarantine 1)"].battle.units[0].name == "Orcs"


async def test_the_real_bridge_says_at_start_which_battle_it_set_aside(
    start_bridge: StartBridge, tmp_path: Path
) -> None:
    await damaged(start_bridge, tmp_path, "not JSON")
    with bridge_running(tmp_path) as process:
        assert process.stdout is not None
        lines: list[str] = []
        for _ in range(30):  # up to the damaged battle's message: never wait past it
            lines.append(process.stdout.readline())
            if lines[-1].rstrip().endswith("brings back its good part"):
                break
    # after the greeting's last line (and, where the page is not built, the line that says so)
    [data] = [n for n, line in enumerate(lines) if "data: 1 battle and the tokens" in line]
    [last] = [n for n, line in enumerate(lines) if line.startswith("  tokens to paste by hand")]
    [first] = [n for n, line in enumerate(lines) if line.startswith("  battle 'ambush' is damaged")]
    assert data < last and first in (last + 1, last + 2)
    assert all(line.startswith("    ") and len(line) <= 81 for line in lines[first + 1 :])
    message = said("".join(lines[first:]))
    assert message.startswith("battle 'ambush' is damaged (record 3 is not valid JSON")
    assert "check --data" in message and "--repair" in message


REPAIRS = {  # a spoiling, what check says, the last good record, its version, rows kept aside
    "changed on disk": (
        DAMAGES["changed on disk"][0],
        "record 3 does not match its checksum",
        2,
        1,
        5,
    ),
    "the last record deleted": (
        lambda path: edit(path, "DELETE FROM records WHERE battle = 'ambush' AND seq = 5"),
        "record 5 is missing at its end (its head says it reached record 5)",
        4,
        3,
        4,
    ),
}


@pytest.mark.parametrize("damage", REPAIRS)
async def test_check_repair_keeps_the_good_part_of_a_battle_in_place(
    start_bridge: StartBridge, tmp_path: Path, damage: str
) -> None:
    spoil, problem, upto, version, rows = REPAIRS[damage]
    path = tmp_path / "battles.sqlite3"
    await fill(start_bridge, path)
    spoil(path)
    done = run_bridge("check", "--data", str(tmp_path))
    assert done.returncode == 1
    assert f"'ambush': DAMAGED: {problem}" in said(done.stdout)
    assert f"records 1-{upto} (version {version}) are good" in said(done.stdout)
    done = run_bridge("check", "--data", str(tmp_path), "--repair")
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"'ambush': kept records 1-{upto} (version {version})" in said(done.stdout)
    assert f"'ambush': sound, version {version} ({upto} records)" in said(done.stdout)
    # nothing was deleted: the whole history (and its head) is in quarantine
    db = sqlite3.connect(path)
    kept = db.execute("SELECT kind, count(*) FROM quarantine_records GROUP BY kind ORDER BY 1")
    assert kept.fetchall() == [("head", 1), ("record", rows)]


async def test_a_damaged_snapshot_is_passed_over_and_the_records_replayed(
    start_bridge: StartBridge, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "battles.sqlite3"
    before = await snapshotted(start_bridge, path)
    edit(path, "UPDATE snapshots SET data = replace(data, 'Orcs', 'Orks')")
    (seq,) = sqlite3.connect(path).execute("SELECT seq FROM snapshots").fetchone()

    caplog.set_level(logging.INFO)
    hub = Hub(SqliteStorage(path))
    assert hub.restore() == 5 and not hub.quarantined
    assert to_json(hub.rooms["ambush"].battle) == before
    assert f"the snapshot at record {seq} is damaged" in caplog.text
    hub.storage.close()
    done = run_bridge("check", "--data", str(tmp_path), "--repair")
    assert "the damaged snapshot was removed" in said(done.stdout) and done.returncode == 0


FIRST_LAYOUT = """
CREATE TABLE records (battle TEXT NOT NULL, seq INTEGER NOT NULL, data TEXT NOT NULL,
    PRIMARY KEY (battle, seq)) WITHOUT ROWID;
CREATE TABLE snapshots (battle TEXT PRIMARY KEY, seq INTEGER NOT NULL, data TEXT NOT NULL);
"""


async def test_a_file_of_the_first_layout_gets_checksums_and_loses_nothing(
    start_bridge: StartBridge, tmp_path: Path
) -> None:
    twin = MemoryStorage()
    running = await start_bridge(twin, snapshot_every=3)
    gm = await running.gm()
    await gm.create("ambush")
    for command in FIGHT:
        await gm.command("ambush", command)
    before = to_json(running.bridge.hub.rooms["ambush"].battle)
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(FIRST_LAYOUT)
    stored = twin._battles["ambush"]
    for seq, record in stored.records:
        old.execute("INSERT INTO records VALUES ('ambush', ?, ?)", (seq, json.dumps(record)))
    old.execute(
        "INSERT INTO snapshots VALUES ('ambush', ?, ?)",
        (stored.snapshot_seq, json.dumps(stored.snapshot)),
    )
    old.commit()
    old.close()

    store = SqliteStorage(path)
    assert store.connection.execute("PRAGMA user_version").fetchone() == (LAYOUT,)
    unsummed = "SELECT count(*) FROM records WHERE checksum IS NULL"
    assert store.connection.execute(unsummed).fetchone() == (0,)
    hub = Hub(store)
    hub.restore()
    assert to_json(hub.rooms["ambush"].battle) == before and not hub.quarantined
    store.close()


def make_malformed(path: Path) -> None:
    """Overwrite the first bytes of a page that holds records: SQLite calls the file malformed."""
    store = SqliteStorage(path)
    for name in ("ambush", "siege"):
        store.append(name, 1, {"kind": "created", "id": name})
        for seq in range(2, 60):
            store.append(name, seq, {"kind": "tokens", "unit": "u1", "token_ids": ["x" * 50]})
    store.close()  # the last connection checkpoints the log into the file
    with path.open("r+b") as file:
        file.seek(4096 * 7)  # page 8: the first leaf of `records` (1-7 are the tables' roots)
        file.write(b"\xff" * 64)


SPOILS: dict[str, tuple[Callable[[Path], None], str]] = {
    "malformed": (make_malformed, "database disk image is malformed"),
    "empty": (lambda path: path.write_bytes(b""), "is empty (0 bytes)"),
    "not a database": (lambda path: path.write_bytes(b"battles?" * 1000), "not a database"),
}


@pytest.mark.parametrize("spoil", SPOILS)
def test_a_damaged_file_stops_the_bridge_with_one_line_then_check_repair_saves_it(
    tmp_path: Path, spoil: str
) -> None:
    path = tmp_path / "battles.sqlite3"
    make, expected = SPOILS[spoil]
    make(path)
    path.chmod(0o600)  # as the bridge leaves it (a file open to others gets a note of its own)
    done = run_bridge(
        "--data", str(tmp_path), "--port", "0", env={"BB_GM_TOKEN": GM, "BB_PLAYER_TOKEN": PLAYER}
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and one_message(done.stderr)
    assert expected in said(done.stderr) and "check --data" in said(done.stderr)

    done = run_bridge("check", "--data", str(tmp_path))
    assert done.returncode == 1 and "the file is damaged" in said(done.stdout)
    done = run_bridge("check", "--data", str(tmp_path), "--repair")
    # the battle whose first records were on the bad page stays in quarantine: exit 1
    assert done.returncode == (1 if spoil == "malformed" else 0), done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert "the damaged file was moved to" in said(done.stdout)
    assert [p for p in tmp_path.iterdir() if ".damaged-" in p.name]
    if spoil == "malformed":  # what could be read around the bad page was kept
        assert "'siege': sound" in said(done.stdout)
    hub = Hub(SqliteStorage(path))
    hub.restore()
    assert ("siege" in hub.rooms) == (spoil == "malformed")


def test_the_memory_twin_quarantines_too() -> None:
    store = MemoryStorage()
    store.append("ambush", 1, {"kind": "created", "id": "a"})
    store.append("ambush", 2, {"kind": "mystery"})
    store.append("lost", 1, {"kind": "archived", "id": "a"})
    store.append("siege", 1, {"kind": "created", "id": "b"})
    hub = Hub(store)
    hub.restore()
    assert list(hub.rooms) == ["siege"]
    assert "unknown kind 'mystery'" in hub.quarantined["ambush"]
    assert hub.quarantined["lost"] == "record 1 comes before the battle was created"
    assert [name for name, _, _ in store.quarantined] == ["ambush", "lost"]
