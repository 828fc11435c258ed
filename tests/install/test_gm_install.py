"""A GM's install: the wheel alone in a fresh venv serves the page and plays a live round.

The wheel `make dist` built is installed into a new venv (its dependencies from the package
index, nothing from this repository), then its `background-battle-bridge` is started from an
empty folder with no PYTHONPATH, no Node on PATH and a fresh data folder, on 127.0.0.1 and a
free port. The page it serves comes from the installed package; Chromium opens the GM link it
printed, plays one round, and the player link shows it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import threading
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from gm import add_unit, lost_round, start, version
from live_pages import new_context, open_live, wait_live, wait_version
from playwright.sync_api import Browser, expect

PAGE = "background_battle_bridge/page/"
LINK = re.compile(r"^  open as (GM|player): +(http://127\.0\.0\.1:\d+/#token=\S+)$")
INSTALL_TIMEOUT = 300


def bare_env(venv: Path, home: Path) -> dict[str, str]:
    """What a GM's terminal has: the venv's scripts on PATH and nothing of this repository."""
    # BB_LANG: the tests read the English lines whatever the machine's LANG (tests/conftest.py)
    keep = ("LANG", "LC_ALL", "BB_LANG", "TMPDIR", "SYSTEMROOT", "PIP_INDEX_URL", "PIP_CACHE_DIR")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    env.update(PATH=str(venv / "bin"), HOME=str(home), PYTHONNOUSERSITE="1")
    return env


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with only the wheel (and its pinned dependencies) installed."""
    where = tmp_path_factory.mktemp("gm")
    venv = where / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    pip = [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python")]
    subprocess.run(
        [*pip, "install", "-q", "--disable-pip-version-check", "--no-input", str(wheel)],
        check=True,
        cwd=where,
        env=env,
        timeout=INSTALL_TIMEOUT,
    )
    return venv


@pytest.fixture(scope="module")
def bridge(installed: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[str]]:
    """The installed bridge, started as a GM would; yields what it printed (read on)."""
    where = tmp_path_factory.mktemp("night")
    env = bare_env(installed, where)
    assert shutil.which("node", path=env["PATH"]) is None
    assert shutil.which("npm", path=env["PATH"]) is None
    command = [str(installed / "bin" / "background-battle-bridge"), "--port", "0"]
    process = subprocess.Popen(
        [*command, "--data", str(where / "data")],
        cwd=where,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert process.stdout is not None
    output: list[str] = []
    for line in process.stdout:
        output.append(line.rstrip("\n"))
        if line.startswith("  data: "):
            break
    threading.Thread(target=lambda: output.extend(process.stdout or ()), daemon=True).start()
    try:
        yield output
    finally:
        print("the bridge's output:", *output, sep="\n")
        process.terminate()
        process.wait(timeout=30)


def test_the_wheel_holds_the_page_and_the_pyodide_runtime(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    for name in ("index.html", "pyodide/pyodide.asm.wasm", "sw.js"):
        assert PAGE + name in names
    assert any(n.startswith(PAGE + "wheels/background_battle_core-") for n in names)
    assert "background_battle/api.py" in names  # the core rides in it too


def test_the_wheels_metadata_is_ready_for_an_index(wheel: Path) -> None:
    # what PyPI shows: absolute links only, the Project-URLs, the licences of what it carries
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = archive.read(name).decode()
        names = archive.namelist()
    head, description = metadata.split("\n\n", 1)
    assert "License-Expression: MIT AND MPL-2.0 AND Python-2.0" in head
    assert re.search(r"^Project-URL: Source, https://github\.com/[\w.-]+/[\w.-]+$", head, re.M)
    targets = re.findall(r"\]\(([^)\s]+)\)", description)
    assert targets and all(re.match(r"https?://|#", target) for target in targets), targets
    assert "OWNER/REPO" not in description
    assert any(n.endswith(".dist-info/licenses/licenses/MPL-2.0.txt") for n in names)


def test_the_installed_package_is_the_one_running(installed: Path, tmp_path: Path) -> None:
    probe = (
        "import background_battle, background_battle_bridge.static as s;"
        "print(background_battle.__file__); print(s.__file__); print(s.packaged_page())"
    )
    python = installed / "bin" / "python"
    done = subprocess.run(
        [str(python), "-c", probe],
        cwd=tmp_path,
        env=bare_env(installed, tmp_path),
        capture_output=True,
        text=True,
        check=True,
    )
    for path in done.stdout.splitlines():
        assert Path(path).is_relative_to(installed), path


def test_a_gm_plays_a_round_from_the_installed_bridge(
    bridge: list[str], wheel: Path, browser: Browser
) -> None:
    links = dict(m.groups() for m in map(LINK.match, bridge) if m)
    assert set(links) == {"GM", "player"}, bridge
    # At most four lines before the links, and no build output among them.
    assert bridge.index(next(line for line in bridge if line.startswith("  open as GM"))) <= 4
    base = links["GM"].split("#")[0]
    # The page and the Pyodide runtime, byte for byte those in the wheel.
    with zipfile.ZipFile(wheel) as archive:
        for name in ("index.html", "pyodide/pyodide.asm.wasm"):
            with urllib.request.urlopen(base + name, timeout=30) as served:
                assert served.read() == archive.read(PAGE + name), name

    gm_ctx, player_ctx = new_context(browser), new_context(browser)
    try:
        gm = open_live(gm_ctx, links["GM"])
        wait_live(gm)
        gm.get_by_label("New battle's name").fill("ambush")
        gm.get_by_role("button", name="Create and follow").click()
        gm.wait_for_selector('html[data-live-battle="ambush"]')
        add_unit(gm, "allies", "Dwarves", 10, strength=30)
        add_unit(gm, "enemies", "Orcs", 12, strength=26)
        start(gm)
        lost_round(gm, 2, 3)
        assert version(gm) == 4
        expect(gm.locator("#round-result")).to_contain_text("Round 1: strength lost typed in")

        player = open_live(player_ctx, links["player"])
        wait_live(player)
        wait_version(player, 4)
        expect(player.locator("#live-role")).to_contain_text("read-only")
        expect(player.locator(".unit-name")).to_have_text(["Dwarves", "Orcs"])
        expect(player.locator("#log > li")).to_have_count(4)
        for page in (gm, player):
            assert page.page_errors == []  # type: ignore[attr-defined]
    finally:
        gm_ctx.close()
        player_ctx.close()
