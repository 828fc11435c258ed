"""One bridge per data folder; `backup` while it serves and `restore` while it is stopped."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from bridge_helpers import DWARVES, GM, ORCS, PLAYER, Peer, run_bridge, said, serving
from websockets.asyncio.client import connect


@asynccontextmanager
async def gm_at(port: int) -> AsyncIterator[Peer]:
    async with connect(f"ws://127.0.0.1:{port}/ws") as ws:
        peer = Peer(ws)
        await peer.hello()
        yield peer


def test_a_second_bridge_on_the_same_folder_names_the_running_ones_address(
    tmp_path: Path,
) -> None:
    with serving(tmp_path) as port:
        done = run_bridge(
            "--data",
            str(tmp_path),
            "--port",
            "0",
            env={"BB_GM_TOKEN": GM, "BB_PLAYER_TOKEN": PLAYER},
        )
        assert done.returncode == 2 and "Traceback" not in done.stderr
        # one message, fitted into 80 columns (a long folder on a line of its own)
        lines = done.stderr.splitlines()
        assert all(line.startswith("  ") for line in lines[1:])
        assert all(len(line) <= 80 for line in lines if str(tmp_path) not in line)
        message = " ".join(line.strip() for line in lines)
        assert f"is in use by a bridge already running at http://127.0.0.1:{port}/" in message
        assert str(tmp_path) in message and "open that one" in message
        # mending needs the folder too; reading does not
        repaired = run_bridge("check", "--data", str(tmp_path), "--repair")
        assert repaired.returncode == 2 and "another bridge" in said(repaired.stderr)
        assert run_bridge("check", "--data", str(tmp_path)).returncode == 0
    # once it stopped, the folder is free again (the lock goes with the process)
    with serving(tmp_path):
        pass


async def test_backup_while_serving_and_restore_into_a_stopped_bridge(tmp_path: Path) -> None:
    data, backup = tmp_path / "data", tmp_path / "ambush-backup.sqlite3"
    with serving(data) as port:
        async with gm_at(port) as gm:
            await gm.create("ambush")
            for command in (ORCS, DWARVES):
                await gm.command("ambush", command)
            done = run_bridge("backup", "--data", str(data), "--to", str(backup))
            assert done.returncode == 0, done.stderr
            assert "'ambush': sound, version 2" in said(done.stdout)
            # changes after the backup are not in it
            await gm.command("ambush", {"type": "start"})
            again = run_bridge("backup", "--data", str(data), "--to", str(backup))
            assert again.returncode == 2 and "already exists" in said(again.stderr)
            refused = run_bridge("restore", "--data", str(data), "--from", str(backup))
            assert refused.returncode == 2 and "another bridge" in said(refused.stderr)
    assert not list(tmp_path.glob("*.part"))

    done = run_bridge("restore", "--data", str(data), "--from", str(backup))
    assert done.returncode == 0, done.stderr
    kept = re.search(r"kept as (\S+)", said(done.stdout))
    assert kept and Path(kept.group(1)).exists()
    with serving(data) as port:
        async with gm_at(port) as gm:
            state = await gm.ask({"type": "subscribe", "battle": "ambush"})
            assert state["version"] == 2 and state["view"]["status"] == "setup"
    # the file it replaced still holds the later change
    done = run_bridge("restore", "--data", str(data), "--from", kept.group(1))
    assert done.returncode == 0 and "'ambush': sound, version 3" in said(done.stdout)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["backup", "--to", "x.sqlite3"], "there is no database at"),
        (["restore", "--from", "missing.sqlite3"], "there is no backup at"),
    ],
)
def test_care_commands_name_what_is_missing(tmp_path: Path, args: list[str], message: str) -> None:
    done = run_bridge(
        *args[:1],
        "--data",
        str(tmp_path),
        *[str(tmp_path / a) if "." in a else a for a in args[1:]],
    )
    assert done.returncode == 2 and message in said(done.stderr)


def test_restore_refuses_a_file_that_is_not_a_backup(tmp_path: Path) -> None:
    other = tmp_path / "notes.txt"
    other.write_text("not a database at all, just some text that is long enough " * 100)
    done = run_bridge("restore", "--data", str(tmp_path / "data"), "--from", str(other))
    assert done.returncode == 2 and "cannot be read" in said(done.stderr)
    assert not (tmp_path / "data" / "battles.sqlite3").exists()


async def test_a_backup_taken_during_a_stream_of_commands_is_a_sound_prefix(
    tmp_path: Path,
) -> None:
    data, backup = tmp_path / "data", tmp_path / "busy.sqlite3"
    with serving(data) as port:
        async with gm_at(port) as gm:
            await gm.create("ambush")
            copying = asyncio.create_task(
                asyncio.to_thread(run_bridge, "backup", "--data", str(data), "--to", str(backup))
            )
            versions = []
            while not copying.done():
                ack = await gm.command("ambush", {"type": "rename", "name": f"n{len(versions)}"})
                versions.append(ack["version"])
                await asyncio.sleep(0.04)  # under the rate limit (30 a second)
            done = await copying
    assert done.returncode == 0, done.stderr
    shown = re.search(r"'ambush': sound, version (\d+)", said(done.stdout))
    assert shown, done.stdout
    assert 0 <= int(shown.group(1)) <= versions[-1]
    # the copy is a bridge's data file like any other: it restores and serves
    restored = tmp_path / "restored"
    assert run_bridge("restore", "--data", str(restored), "--from", str(backup)).returncode == 0
    assert run_bridge("check", "--data", str(restored)).returncode == 0
