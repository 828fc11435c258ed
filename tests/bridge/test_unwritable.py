"""Issue 26, 4: a data file or folder the bridge cannot write is one line naming it and the
cause, exit code 3, never a misleading network message; `check` reads it without writing and
never tracebacks; a backup of it can still be taken.

The file is made really unwritable: as root (here, in containers) with `chattr +i`, which even
root cannot write through; as another user (a CI runner) with mode 400. The read-only folder is
a real read-only bind mount, made in a mount namespace of the test's own (`unshare`, with a user
namespace when not root), so nothing outside the test sees it.
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from bridge_helpers import COMMAND, GM, PLAYER, one_message, run_bridge, said

from background_battle_bridge import unwritable
from background_battle_bridge.storage import SqliteStorage

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="chattr and mounts are Linux's")
ROOT = os.geteuid() == 0 if hasattr(os, "geteuid") else False
TOKENS = {"BB_GM_TOKEN": GM, "BB_PLAYER_TOKEN": PLAYER}


def one_battle(folder: Path) -> Path:
    """A data folder as a bridge leaves it: one battle of two records, mode 700 and 600."""
    folder.mkdir(mode=0o700, exist_ok=True)
    path = folder / "battles.sqlite3"
    store = SqliteStorage(path)
    store.append_many([("ambush", 1, {"kind": "created", "id": "c1"})])
    store.append_many([("ambush", 2, {"kind": "archived", "id": "a1"})])
    store.close()
    return path


@contextmanager
def unwritable_file(path: Path) -> Iterator[str]:
    """The file made unwritable for this process; yields the cause the bridge should name."""
    if ROOT:
        made = subprocess.run(["chattr", "+i", str(path)], capture_output=True, text=True)
        if made.returncode:
            pytest.skip(f"chattr +i is not supported here: {made.stderr.strip()}")
        cause = "immutable file"
    else:
        path.chmod(0o400)
        cause = "permission denied"
    try:
        yield cause
    finally:
        if ROOT:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        path.chmod(0o600)


def test_an_unwritable_data_file_stops_the_bridge_with_one_line_and_exit_3(
    tmp_path: Path,
) -> None:
    path = one_battle(tmp_path)
    with unwritable_file(path) as cause:
        done = run_bridge("--data", str(tmp_path), "--port", "0", env=TOKENS)
        assert done.returncode == unwritable.EXIT_UNWRITABLE == 3, done.stderr
        assert one_message(done.stderr), done.stderr
        assert f"{path} cannot be written" in said(done.stderr) and cause in said(done.stderr)
        assert "listen" not in done.stderr and "Traceback" not in done.stderr

        done = run_bridge("check", "--data", str(tmp_path))
        assert done.returncode == 3, done.stdout + done.stderr
        assert "Traceback" not in done.stdout + done.stderr
        assert "'ambush': sound, version" in said(done.stdout)  # read, without writing a byte
        assert f"{path} cannot be written" in said(done.stdout) and cause in said(done.stdout)

        done = run_bridge("check", "--data", str(tmp_path), "--repair")
        assert done.returncode == 3 and one_message(done.stderr), done.stderr
        assert f"{path} cannot be written" in said(done.stderr)

        copy = tmp_path.parent / f"{tmp_path.name}.backup"
        done = run_bridge("backup", "--data", str(tmp_path), "--to", str(copy))
        assert done.returncode == 0, done.stdout + done.stderr
        done = run_bridge("restore", "--data", str(tmp_path), "--from", str(copy))
        assert done.returncode == 3 and one_message(done.stderr), done.stderr
        assert f"{path} cannot be written" in said(done.stderr)
        copy.unlink()


MOUNT = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec'


def mount_namespaces() -> list[list[str]]:
    """Ways to run a command with its first argument bind-mounted read-only, in a mount
    namespace of its own: as root; else in a user namespace of its own; else through sudo (a
    CI runner), back to this user before the command runs."""
    if ROOT:
        return [["unshare", "--mount", "sh", "-c", f'{MOUNT} "$@"', "sh"]]
    back = f"setpriv --reuid={os.getuid()} --regid={os.getgid()} --clear-groups"
    return [
        ["unshare", "--mount", "--map-root-user", "sh", "-c", f'{MOUNT} "$@"', "sh"],
        [
            *("sudo", "-n", "--preserve-env=BB_GM_TOKEN,BB_PLAYER_TOKEN", "unshare", "--mount"),
            *("sh", "-c", f'{MOUNT} {back} "$@"', "sh"),
        ],
    ]


@contextmanager
def read_only_folder(folder: Path) -> Iterator[list[str]]:
    """The prefix that runs a command with `folder` on a read-only mount (skips, saying why,
    where this system lets no test make one)."""
    refusals = []
    for way in mount_namespaces():
        try:
            probe = subprocess.run(
                [*way, str(folder), "touch", str(folder / "probe")],
                capture_output=True,
                text=True,
            )
        except FileNotFoundError as exc:
            refusals.append(str(exc))
            continue
        if "Read-only file system" in said(probe.stderr):
            yield [*way, str(folder)]
            return
        refusals.append(f"{way[0]}: {probe.stderr.strip()}")
    pytest.skip(f"no read-only mount can be made here: {'; '.join(refusals)}")


def run_read_only(prefix: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*prefix, *COMMAND, *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **TOKENS},
    )


def test_a_read_only_folder_stops_the_bridge_and_check_reads_it_without_a_traceback(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    path = one_battle(data)
    (data / "bridge.lock").unlink(missing_ok=True)
    with read_only_folder(data) as prefix:
        done = run_read_only(prefix, "--data", str(data), "--port", "0")
        assert done.returncode == 3, done.stderr
        assert one_message(done.stderr), done.stderr
        assert "cannot be written: it is on a read-only disk or mount" in said(done.stderr)

        done = run_read_only(prefix, "check", "--data", str(data))
        assert done.returncode == 3, done.stdout + done.stderr
        assert "Traceback" not in done.stdout + done.stderr
        assert "'ambush': sound, version" in said(done.stdout)
        assert f"{path} cannot be written: it is on a read-only disk or mount" in said(done.stdout)

        done = run_read_only(prefix, "check", "--data", str(data), "--repair")
        assert done.returncode == 3 and "Traceback" not in done.stderr, done.stderr
        assert "read-only disk or mount" in said(done.stderr)

        copy = tmp_path / "ambush.backup"
        done = run_read_only(prefix, "backup", "--data", str(data), "--to", str(copy))
        assert done.returncode == 0, done.stdout + done.stderr
        assert "'ambush': sound" in said(done.stdout)
    written = sorted(p.name for p in data.iterdir())
    assert written == ["battles.sqlite3", "battles.sqlite3.acknowledged"]  # nothing new


def test_a_folder_left_open_on_a_read_only_mount_is_a_note_not_a_traceback(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    one_battle(data)
    data.chmod(0o755)
    with read_only_folder(data) as prefix:
        done = run_read_only(prefix, "check", "--data", str(data))
    assert "Traceback" not in done.stderr and done.returncode == 3, done.stderr
    assert "(mode 755); it could not be changed: it is on a read-only" in said(done.stderr)


def test_only_a_refusal_to_write_is_called_unwritable() -> None:
    for number in (errno.EROFS, errno.EPERM, errno.EACCES):
        found = unwritable.refusal(OSError(number, "no"), "/data/secrets")
        assert found is not None and str(found).startswith("/data/secrets cannot be written: ")
    assert unwritable.refusal(OSError(errno.ENOSPC, "full"), "/data") is None
