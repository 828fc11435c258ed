"""An installable app: PNG icons (192, 512, maskable) and an apple-touch-icon; "offline" said
when the page runs without its server; and the small notices: a name's limit in characters, a
refused import clears the earlier notice."""

from __future__ import annotations

import json
import struct
from pathlib import Path

from conftest import open_page
from gm import dwarves_against_orcs, saved_battle
from playwright.sync_api import Browser, Page, expect
from static_server import StaticServer


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_manifest_has_png_icons_a_maskable_one_and_an_apple_touch_icon(
    page: Page, server: StaticServer
) -> None:
    manifest = json.loads(page.request.get(f"{server.url}manifest.webmanifest").body())
    icons = {
        (icon["sizes"], icon.get("purpose", "any"), icon["type"]) for icon in manifest["icons"]
    }
    assert {
        ("192x192", "any", "image/png"),
        ("512x512", "any", "image/png"),
        ("512x512", "maskable", "image/png"),
    } <= icons
    for icon in manifest["icons"]:
        if icon["type"] == "image/png":
            side = int(icon["sizes"].split("x")[0])
            assert png_size(page.request.get(f"{server.url}{icon['src']}").body()) == (side, side)
    touch = page.locator('link[rel="apple-touch-icon"]').get_attribute("href")
    assert touch
    assert png_size(page.request.get(f"{server.url}{touch}").body()) == (180, 180)


def test_the_page_says_offline_when_it_runs_without_its_server(
    browser: Browser, site: Path
) -> None:
    own = StaticServer(site)
    context = browser.new_context(locale="en-US")
    try:
        page = open_page(context, own.url)
        expect(page.locator("#status")).to_contain_text("Ready")
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)
        own.close()
        context.set_offline(True)
        page.reload()
        page.wait_for_selector('html[data-ready="true"]', timeout=120_000)
        expect(page.locator("#status")).to_have_text("Offline: working from this device's copy.")
        expect(page.locator("html")).to_have_attribute("data-offline", "true")
    finally:
        context.close()


def test_a_name_too_long_is_counted_in_characters(page: Page) -> None:
    form = page.locator("#rename-form")
    form.get_by_label("Name").fill("x" * 201)
    form.get_by_role("button", name="Rename").click()
    expect(form.locator(".field-error")).to_have_text("name: at most 200 characters")


def test_a_refused_import_clears_the_earlier_notice(page: Page, tmp_path: Path) -> None:
    dwarves_against_orcs(page)
    good = tmp_path / "battle.json"
    good.write_text(json.dumps(saved_battle(page)))
    page.locator("#import-file").set_input_files(str(good))
    expect(page.locator("#share-output")).to_contain_text("Battle loaded.")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    page.locator("#import-file").set_input_files(str(bad))
    expect(page.locator("#tools-error")).to_contain_text("not a battle in JSON")
    expect(page.locator("#share-output")).to_have_text("")
