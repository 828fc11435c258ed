"""Issue 20, 4 (`file_modes.py`): only the GM can read the data folder: the folder 0700,
every file in it 0600 (database, -wal, -shm, secrets, lock, backups), also when an older bridge
left them open; a token given on the command line is warned about (`ps` shows it)."""

from __future__ import annotations

import asyncio
import os
import stat
from pathlib import Path

import pytest
from bridge_helpers import ADDRESS, GM, PLAYER, Peer, bridge_running, run_bridge, said
from websockets.asyncio.client import connect

from background_battle_bridge.storage import SqliteStorage

pytestmark = pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


async def one_battle(port: int) -> None:
    """A battle created and a unit added: the database, its -wal and -shm are written."""
    async with connect(f"ws://127.0.0.1:{port}/ws") as ws:
        peer = Peer(ws)
        await peer.hello(GM)
        await peer.create("ambush")
        await peer.command(
            "ambush",
            {"type": "add_unit", "name": "Orcs", "side": "enemies", "fighters": 12, "strength": 26},
        )


def serve_once(data: Path) -> str:
    """The real bridge over `data`, one battle written while it runs; what it said on stderr."""
    with bridge_running(data) as process:
        assert process.stdout is not None
        found = ADDRESS.search(process.stdout.readline())
        assert found, process.stderr.read() if process.stderr else ""
        asyncio.run(one_battle(int(found.group(1))))
        files = {path.name: mode(path) for path in data.iterdir()}
        assert {"battles.sqlite3", "battles.sqlite3-wal", "battles.sqlite3-shm"} <= set(files)
        assert set(files.values()) == {0o600}, files
        process.terminate()
        process.wait(timeout=30)
        assert process.stderr is not None
        return process.stderr.read()


def test_a_new_data_folder_is_0700_and_every_file_in_it_0600(tmp_path: Path) -> None:
    data = tmp_path / "new" / "background-battle"
    said = serve_once(data)
    assert mode(data) == 0o700
    assert {path.name for path in data.iterdir()} >= {"secrets", "bridge.lock", "battles.sqlite3"}
    assert {mode(path) for path in data.iterdir()} == {0o600}
    assert "could be read by other users" not in said
    backup = tmp_path / "ambush.backup"
    done = run_bridge("backup", "--data", str(data), "--to", str(backup))
    assert done.returncode == 0, done.stderr
    assert mode(backup) == 0o600


def test_a_reused_folder_left_open_is_tightened_with_a_note(tmp_path: Path) -> None:
    data = tmp_path / "old"
    data.mkdir()
    store = SqliteStorage(data / "battles.sqlite3")
    store.append("ambush", 1, {"kind": "created", "id": "c1"})
    store.close()
    (data / "secrets").write_text(f'{{"gm_token": "{GM}", "player_token": "{PLAYER}"}}')
    os.chmod(data, 0o755)
    for path in data.iterdir():
        os.chmod(path, 0o644)  # as a bridge before this one left them
    said = " ".join(serve_once(data).split())  # each note fitted into 80 columns
    assert f"the data folder {data} could be read by other users (mode 755)" in said
    assert "files in" in said and "battles.sqlite3" in said and "secrets" in said
    assert mode(data) == 0o700
    assert {mode(path) for path in data.iterdir()} == {0o600}


def test_a_token_on_the_command_line_is_warned_about(tmp_path: Path) -> None:
    refused = ("--data", str(tmp_path), "--host", "0.0.0.0", "--no-tokens")  # exits at once
    done = run_bridge(*refused, "--player-token=" + "x" * 12)
    assert done.returncode == 2
    assert "warning: --player-token on the command line is shown by ps" in said(done.stderr)
    assert "BB_PLAYER_TOKEN" in said(done.stderr) and "secrets" in said(done.stderr)
    quiet = run_bridge(*refused, env={"BB_GM_TOKEN": GM, "BB_PLAYER_TOKEN": PLAYER})
    assert quiet.returncode == 2 and "warning" not in quiet.stderr
