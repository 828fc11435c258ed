"""Fixtures for the page's essential paths in every engine: each engine started once (Firefox ESR
over WebDriver BiDi, WebKitGTK over WebDriver), the built site, the real bridge."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
sys.path.insert(0, str(Path(__file__).parent))
from engines import ENGINES, Browser, launch
from live_pages import Bridge

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "web" / "dist"


@pytest.fixture(scope="session", params=ENGINES)
def engine(request: pytest.FixtureRequest) -> Iterator[Browser]:
    """Each engine once for the whole run; a missing engine fails with what to install."""
    browser = launch(request.param)
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def site() -> Path:
    if not (DIST / "index.html").is_file() or not (DIST / "sw.js").is_file():
        pytest.fail("web/dist is not built: run `make site` (make test-engines does)")
    return DIST


@pytest.fixture
def bridge(tmp_path: Path, site: Path) -> Iterator[Bridge]:
    running = Bridge(tmp_path / "bridge-data", site)
    running.start()
    yield running
    running.stop()
