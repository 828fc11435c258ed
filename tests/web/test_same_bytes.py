"""One commit, the same bytes (issue 30, item 6): the core's wheel, the site (its ``sw.js``
version with it) and the application wheel, built twice from two copies of the source tree whose
files carry different times, are byte for byte the same; so is the Foundry module's zip."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "tools"))
from source_date import source_date_epoch

PYODIDE = ROOT / "web" / "node_modules" / "pyodide"
STEP_TIMEOUT_S = 400


def source_tree(into: Path, stamp: float) -> Path:
    """The files git knows (committed or not ignored) copied into ``into``, dated ``stamp``."""
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        check=True,
    ).stdout.decode()
    for rel in filter(None, listed.split("\0")):
        source = ROOT / rel
        if source.is_file():
            (into / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, into / rel)
            os.utime(into / rel, (stamp, stamp))
    return into


def run(command: list[str], cwd: Path, env: dict[str, str]) -> None:
    done = subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=STEP_TIMEOUT_S
    )
    assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout[-1500:]}{done.stderr[-1500:]}"


def build_everything(tree: Path, env: dict[str, str]) -> dict[str, bytes]:
    """`make site` and `make dist`'s steps in ``tree``: every file they write, by name."""
    python = sys.executable
    run([python, "-m", "build", "--wheel", "--no-isolation", "core", "-o", "wheels"], tree, env)
    site = ["web/build.py", "--wheel-dir", "wheels", "--out", "web/dist", "--pyodide", str(PYODIDE)]
    run([python, *site], tree, env)
    run([python, "-m", "build", "--wheel", "--no-isolation", "--outdir", "dist", "."], tree, env)
    run([python, "foundry-module/build_release.py", "--repo", "a/b", "--out", "module"], tree, env)
    made = {}
    for folder in ("wheels", "web/dist", "dist", "module"):
        for path in sorted((tree / folder).rglob("*")):
            if path.is_file():
                made[path.relative_to(tree).as_posix()] = path.read_bytes()
    return made


@pytest.mark.timeout(1800)
def test_two_builds_of_one_commit_are_the_same_bytes(tmp_path: Path) -> None:
    if not (PYODIDE / "package.json").is_file():
        pytest.fail("web/node_modules is not installed: run `make site`")
    env = {**os.environ, "SOURCE_DATE_EPOCH": str(source_date_epoch(ROOT))}
    first = build_everything(source_tree(tmp_path / "first", 1_000_000_000), env)
    second = build_everything(source_tree(tmp_path / "second", 1_700_000_000), env)
    assert sorted(first) == sorted(second)
    assert [name for name in first if first[name] != second[name]] == []
    (app,) = (name for name in first if name.startswith("dist/"))
    (core,) = (name for name in first if name.startswith("wheels/"))
    assert "web/dist/sw.js" in first and "module/background-battle.zip" in first
    with zipfile.ZipFile(tmp_path / "first" / app) as wheel:
        assert any(n.endswith("/page/sw.js") for n in wheel.namelist())  # the page inside
    with zipfile.ZipFile(tmp_path / "first" / core) as wheel:
        stamps = {info.date_time for info in wheel.infolist()}
    *day, second = time.gmtime(int(env["SOURCE_DATE_EPOCH"]))[:6]
    assert stamps == {(*day, second - second % 2)}  # the commit's time (a zip counts in 2 s)
