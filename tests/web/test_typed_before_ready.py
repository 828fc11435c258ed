"""Inputs usable before Python is: a unit typed and added while the core still loads is added
once it is ready, nothing typed lost (issue 30: inputs usable before the first result)."""

from __future__ import annotations

from conftest import BOOT_TIMEOUT_MS
from gm import side_card
from playwright.sync_api import BrowserContext, Route, expect
from static_server import StaticServer


def test_a_unit_added_while_python_loads_is_added_when_it_is_ready(
    context: BrowserContext, server: StaticServer
) -> None:
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)  # Python cannot start meanwhile

    context.route("**/pyodide/pyodide.asm.wasm", hold)
    page = context.new_page()
    page.goto(server.url)
    page.wait_for_selector('html[data-interactive="true"]')
    for _ in range(BOOT_TIMEOUT_MS // 100):  # until the worker asks for the runtime
        if held:
            break
        page.wait_for_timeout(100)
    assert len(held) == 1 and page.get_attribute("html", "data-ready") == "false"

    form = side_card(page, "allies").locator("form.add-unit")
    form.get_by_label("Name").fill("Dwarves")
    form.get_by_label("Fighters").fill("10")
    form.locator('input[name="strength"]').fill("30")
    form.locator('button[type="submit"]').click()
    assert page.get_attribute("html", "data-ready") == "false"  # still held

    held[0].continue_()
    page.wait_for_selector('html[data-ready="true"]', timeout=BOOT_TIMEOUT_MS)
    expect(side_card(page, "allies").locator(".unit-name")).to_have_text(
        ["Dwarves"], timeout=BOOT_TIMEOUT_MS
    )
    expect(form.get_by_label("Name")).to_have_value("")  # the form is ready for the next unit
