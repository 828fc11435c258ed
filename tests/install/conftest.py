"""Fixtures for the GM's install test: the wheel `make dist` built, Debian's Chromium."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from chromium import launch_args

ROOT = Path(__file__).resolve().parents[2]
# What a GM does on the page: the web tests' own helpers (tests/web/gm.py, live_pages.py).
sys.path.insert(0, str(ROOT / "tests" / "web"))


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return launch_args(browser_type_launch_args)


@pytest.fixture(scope="session")
def wheel() -> Path:
    """The one application wheel in dist/ (`make dist`; `make test-install` builds it)."""
    found = sorted((ROOT / "dist").glob("background_battle-*-py3-none-any.whl"))
    if len(found) != 1:
        pytest.fail(f"expected one wheel in dist/, found {len(found)}: run `make dist`")
    return found[0]
