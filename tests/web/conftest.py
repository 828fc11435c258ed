"""Fixtures for the page's browser tests: the built site, a static server, Debian's Chromium."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from chromium import launch_args
from playwright.sync_api import Browser, BrowserContext, Page

sys.path.insert(0, str(Path(__file__).parent))
from live_pages import Bridge, new_context
from phone import tall_phone_context
from static_server import StaticServer

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "web" / "dist"
BOOT_TIMEOUT_MS = 120_000


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch Debian's Chromium when it is there (nothing is downloaded)."""
    return launch_args(browser_type_launch_args)


@pytest.fixture(scope="session")
def site() -> Path:
    """The built site (``make site``)."""
    if not (DIST / "index.html").is_file() or not (DIST / "sw.js").is_file():
        pytest.fail("web/dist is not built: run `make site` (make test-web does)")
    return DIST


@pytest.fixture(scope="session")
def server(site: Path) -> Iterator[StaticServer]:
    running = StaticServer(site)
    yield running
    running.close()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    """A fresh browser context (empty cache, no service worker), English."""
    ctx = browser.new_context(locale="en-US", viewport={"width": 412, "height": 900})
    ctx.set_default_timeout(30_000)
    yield ctx
    ctx.close()


def open_page(context: BrowserContext, url: str) -> Page:
    """Open the page and wait until the core has answered (``<html data-ready="true">``)."""
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page.wait_for_selector('html[data-ready="true"]', timeout=BOOT_TIMEOUT_MS)
    page.page_errors = errors  # type: ignore[attr-defined]
    return page


def open_page_in(context: BrowserContext, url: str, lang: str) -> Page:
    """The page opened and switched to `lang` ("en", "ru"), which it keeps as ``page.lang``."""
    page = open_page(context, url)
    page.locator(f'button[data-lang="{lang}"]').click()
    page.lang = lang  # type: ignore[attr-defined]
    return page


@pytest.fixture
def page(context: BrowserContext, server: StaticServer) -> Page:
    return open_page(context, server.url)


PHONE = {"width": 360, "height": 640}


@pytest.fixture(params=["en", "ru"])
def tall_phone(
    request: pytest.FixtureRequest, browser: Browser, server: StaticServer
) -> Iterator[Page]:
    """The page on a phone 360×740 (touch), once in each language (``page.lang``)."""
    context = tall_phone_context(browser)
    yield open_page_in(context, server.url, request.param)
    context.close()


@pytest.fixture
def phone(browser: Browser, server: StaticServer) -> Iterator[Page]:
    """The page on a phone 360 px wide (touch), in English."""
    context = browser.new_context(locale="en-US", viewport=PHONE, has_touch=True)
    context.set_default_timeout(30_000)
    yield open_page(context, server.url)
    context.close()


@pytest.fixture
def bridge(tmp_path: Path, site: Path) -> Iterator[Bridge]:
    running = Bridge(tmp_path / "bridge-data", site)
    running.start()
    yield running
    running.stop()


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    made = [new_context(browser) for _ in range(3)]
    yield made
    for ctx in made:
        ctx.close()
