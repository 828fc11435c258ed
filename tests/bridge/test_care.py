"""One bridge per data folder; `backup` while it serves and `restore` while it is stopped."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from bridge_helpers import DWARVES, GM, ORCS, PLAYER, Peer
from websockets.asyncio.client import connect

COMMAND = [sys.executable, "-m", "background_battle_bridge.server"]
ADDRESS = re.compile(r"http://127\.0\.0\.1:(\d+)/")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*COMMAND, *args], capture_output=True, text=True, timeout=60)


@contextmanager
def serving(data: Path) -> Iterator[int]:
    """The real bridge on a free port over `data`; yields its port; stopped with SIGTERM."""
    tokens = ("--gm-token", GM, "--player-token", PLAYER)
    process = subprocess.Popen(
        [*COMMAND, "--port", "0", "--data", str(data), *tokens],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        found = ADDRESS.search(process.stdout.readline())
        assert found, process.stderr.read() if process.stderr else ""
        yield int(found.group(1))
    finally:
        process.terminate()
        process.wait(timeout=30)
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()


async def gm_at(port: int) -> tuple[Peer, object]:
    ws = await connect(f"ws://127.0.0.1:{port}/ws")
    peer = Peer(ws)
    await peer.hello()
    return peer, ws


def test_a_second_bridge_on_the_same_folder_exits_2_with_one_line(tmp_path: Path) -> None:
    with serving(tmp_path):
        done = run(
            "--data", str(tmp_path), "--port", "0", "--gm-token", GM, "--player-token", PLAYER
        )
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert done.stderr.count("\n") == 1
        assert "another bridge (pid" in done.stderr and str(tmp_path) in done.stderr
        # mending needs the folder too; reading does not
        repaired = run("check", "--data", str(tmp_path), "--repair")
        assert repaired.returncode == 2 and "another bridge" in repaired.stderr
        assert run("check", "--data", str(tmp_path)).returncode == 0
    # once it stopped, the folder is free again (the lock goes with the process)
    with serving(tmp_path):
        pass


async def test_backup_while_serving_and_restore_into_a_stopped_bridge(tmp_path: Path) -> None:
    data, backup = tmp_path / "data", tmp_path / "ambush-backup.sqlite3"
    with serving(data) as port:
        gm, ws = await gm_at(port)
        await gm.create("ambush")
        for command in (ORCS, DWARVES):
            await gm.command("ambush", command)
        done = run("backup", "--data", str(data), "--to", str(backup))
        assert done.returncode == 0, done.stderr
        assert "'ambush': sound, version 2" in done.stdout
        # changes after the backup are not in it
        await gm.command("ambush", {"type": "start"})
        again = run("backup", "--data", str(data), "--to", str(backup))
        assert again.returncode == 2 and "already exists" in again.stderr
        refused = run("restore", "--data", str(data), "--from", str(backup))
        assert refused.returncode == 2 and "another bridge" in refused.stderr
        await ws.close()  # type: ignore[attr-defined]
    assert not list(tmp_path.glob("*.part"))

    done = run("restore", "--data", str(data), "--from", str(backup))
    assert done.returncode == 0, done.stderr
    kept = re.search(r"kept as (\S+)", done.stdout)
    assert kept and Path(kept.group(1)).exists()
    with serving(data) as port:
        gm, ws = await gm_at(port)
        state = await gm.ask({"type": "subscribe", "battle": "ambush"})
        assert state["version"] == 2 and state["view"]["status"] == "setup"
        await ws.close()  # type: ignore[attr-defined]
    # the file it replaced still holds the later change
    done = run("restore", "--data", str(data), "--from", kept.group(1))
    assert done.returncode == 0 and "'ambush': sound, version 3" in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["backup", "--to", "x.sqlite3"], "there is no database at"),
        (["restore", "--from", "missing.sqlite3"], "there is no backup at"),
    ],
)
def test_care_commands_name_what_is_missing(tmp_path: Path, args: list[str], message: str) -> None:
    done = run(
        *args[:1],
        "--data",
        str(tmp_path),
        *[str(tmp_path / a) if "." in a else a for a in args[1:]],
    )
    assert done.returncode == 2 and message in done.stderr


def test_restore_refuses_a_file_that_is_not_a_backup(tmp_path: Path) -> None:
    other = tmp_path / "notes.txt"
    other.write_text("not a database at all, just some text that is long enough " * 100)
    done = run("restore", "--data", str(tmp_path / "data"), "--from", str(other))
    assert done.returncode == 2 and "cannot be read" in done.stderr
    assert not (tmp_path / "data" / "battles.sqlite3").exists()
