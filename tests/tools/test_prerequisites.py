"""tools/prerequisites.py on a faked machine: the browser found where it may be, or one line.

Every run is a subprocess with its own PATH, browser places and Playwright folder; a fake
`playwright` stands in for the download, so nothing here touches the network.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "prerequisites.py"


def executable(path: Path, body: str = "exit 0") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
    path.chmod(0o755)
    return path


def run(
    tmp_path: Path, *args: str, python: str = sys.executable, **env: str
) -> subprocess.CompletedProcess[str]:
    """The tool on a machine with only what ``env`` gives it (no browser, empty PATH)."""
    empty = tmp_path / "empty"
    empty.mkdir(exist_ok=True)
    machine = {
        "PATH": str(empty),
        "HOME": str(tmp_path / "home"),
        "BACKGROUND_BATTLE_BROWSER_PLACES": "",
        "PLAYWRIGHT_BROWSERS_PATH": str(tmp_path / "ms-playwright"),
        **env,
    }
    return subprocess.run(
        [python, str(TOOL), *args], capture_output=True, text=True, env=machine, check=False
    )


def assert_one_line_saying_what_to_do(done: subprocess.CompletedProcess[str]) -> None:
    assert done.returncode == 1 and done.stdout == ""
    last = done.stderr.splitlines()[-1]
    assert "apt-get install chromium" in last and "playwright install chromium" in last


def test_a_browser_at_a_known_place_is_found(tmp_path: Path) -> None:
    chromium = executable(tmp_path / "usr" / "bin" / "chromium")
    done = run(tmp_path, "browser", BACKGROUND_BATTLE_BROWSER_PLACES=str(chromium))
    assert (done.returncode, done.stdout) == (0, f"{chromium}\n")


def test_a_chrome_on_path_is_found(tmp_path: Path) -> None:
    chrome = executable(tmp_path / "bin" / "google-chrome-stable")
    done = run(tmp_path, "browser", PATH=str(chrome.parent))
    assert (done.returncode, done.stdout) == (0, f"{chrome}\n")


def test_playwrights_own_download_is_found(tmp_path: Path) -> None:
    own = executable(tmp_path / "ms-playwright" / "chromium-1200" / "chrome-linux" / "chrome")
    done = run(tmp_path, "browser")
    assert (done.returncode, done.stdout) == (0, f"{own}\n")


def test_a_file_that_cannot_run_is_not_a_browser(tmp_path: Path) -> None:
    chromium = tmp_path / "chromium"
    chromium.write_text("not a program", encoding="utf-8")
    done = run(tmp_path, "browser", BACKGROUND_BATTLE_BROWSER_PLACES=str(chromium))
    assert_one_line_saying_what_to_do(done)


def test_no_browser_stops_with_one_line_naming_both_ways(tmp_path: Path) -> None:
    done = run(tmp_path, "browser")
    assert_one_line_saying_what_to_do(done)
    assert done.stderr.count("\n") == 1


def fake_python_beside(playwright_body: str, tmp_path: Path) -> str:
    """A Python whose folder holds a fake `playwright` (the tool runs the one beside it)."""
    folder = tmp_path / "venv" / "bin"
    folder.mkdir(parents=True)
    python = folder / "python"
    python.symlink_to(os.path.realpath(sys.executable))
    executable(folder / "playwright", playwright_body)
    return str(python)


def test_install_gets_playwrights_browser_when_the_download_works(tmp_path: Path) -> None:
    download = 'd="$PLAYWRIGHT_BROWSERS_PATH/chromium-1200/chrome-linux"; /bin/mkdir -p "$d"\n'
    download += 'printf "#!/bin/sh\\n" > "$d/chrome"; /bin/chmod +x "$d/chrome"'
    python = fake_python_beside(f'[ "$1 $2" = "install chromium" ] || exit 9\n{download}', tmp_path)
    done = run(tmp_path, "browser", "--install", python=python)
    expected = tmp_path / "ms-playwright" / "chromium-1200" / "chrome-linux" / "chrome"
    assert (done.returncode, done.stdout) == (0, f"{expected}\n"), done.stderr


def test_install_that_fails_stops_with_one_line(tmp_path: Path) -> None:
    python = fake_python_beside("echo 'Error: Download failure, code=1' >&2; exit 1", tmp_path)
    done = run(tmp_path, "browser", "--install", python=python)
    assert_one_line_saying_what_to_do(done)
    assert "Download failure" not in done.stderr


@pytest.mark.parametrize("present", [(), ("node",), ("npm",)])
def test_node_or_npm_missing_is_one_line(tmp_path: Path, present: tuple[str, ...]) -> None:
    for name in present:
        executable(tmp_path / "bin" / name)
    done = run(tmp_path, "node", PATH=str(tmp_path / "bin"))
    assert done.returncode == 1 and done.stderr.count("\n") == 1
    assert "apt-get install nodejs npm" in done.stderr


def test_node_and_npm_present(tmp_path: Path) -> None:
    for name in ("node", "npm"):
        executable(tmp_path / "bin" / name)
    done = run(tmp_path, "node", PATH=str(tmp_path / "bin"))
    assert (done.returncode, done.stderr) == (0, "")


def test_this_python_can_make_a_venv(tmp_path: Path) -> None:
    assert run(tmp_path, "python").returncode == 0


def test_the_make_targets_use_the_tool() -> None:
    rules = (TOOL.parents[1] / "mk" / "prerequisites.mk").read_text(encoding="utf-8")
    makefile = (TOOL.parents[1] / "Makefile").read_text(encoding="utf-8")
    assert "tools/prerequisites.py browser --install" in rules
    assert "test: node browser " in makefile


def test_the_test_workflow_runs_ci_on_every_push_and_pull_request() -> None:
    workflow = (TOOL.parents[1] / ".github" / "workflows" / "test.yml").read_text(encoding="utf-8")
    assert "\n  push:\n  pull_request:\n" in workflow
    assert "runs-on: ubuntu-latest" in workflow and "run: .ci/run" in workflow
    ci = (TOOL.parents[1] / ".ci" / "run").read_text(encoding="utf-8")
    assert "tools/prerequisites.py browser" in ci and "apt-get install" in ci


def test_the_pages_workflow_pins_pyodide_build() -> None:
    workflow = (TOOL.parents[1] / ".github" / "workflows" / "pages.yml").read_text(encoding="utf-8")
    installs = [line for line in workflow.splitlines() if "pip install pyodide-build" in line]
    assert installs and all("pyodide-build==" in line for line in installs)


def test_firefox_and_webkit_on_path_are_found(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    for name in ("firefox-esr", "WebKitWebDriver", "Xvfb"):
        executable(bin_dir / name)
    done = run(tmp_path, "engines", PATH=str(bin_dir))
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_missing_engines_are_named_by_their_debian_packages_in_one_line(tmp_path: Path) -> None:
    executable(tmp_path / "bin" / "firefox-esr")
    done = run(tmp_path, "engines", PATH=str(tmp_path / "bin"))
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "Firefox ESR and WebKitGTK are needed for the tests in every browser engine: "
        "run `apt-get install webkit2gtk-driver xvfb`, then make again."
    ]


def test_missing_lists_the_packages_alone_for_the_ci_apt_line(tmp_path: Path) -> None:
    executable(tmp_path / "bin" / "Xvfb")
    done = run(tmp_path, "engines", "--missing", PATH=str(tmp_path / "bin"))
    assert (done.returncode, done.stdout, done.stderr) == (0, "firefox-esr webkit2gtk-driver\n", "")
    for name in ("firefox", "WebKitWebDriver"):
        executable(tmp_path / "bin" / name)
    done = run(tmp_path, "engines", "--missing", PATH=str(tmp_path / "bin"))
    assert (done.returncode, done.stdout) == (0, "\n")
