"""The core in Pyodide: boots from vendored files, fails loudly, computes what CPython does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, open_page
from playwright.sync_api import Browser, BrowserContext, Page, expect
from static_server import StaticServer

from background_battle.api import handle

GOLDEN = ROOT / "tests" / "golden" / "vectors.json"


def run_in_page(page: Page, requests: list[dict[str, Any]], via: str = "json") -> list[Any]:
    """Send requests to api.handle in the page's worker, one after another; their replies."""
    return page.evaluate(
        """async ([requests, via]) => {
            const replies = [];
            for (const request of requests) {
                replies.push(await window.backgroundBattle.request(request, via));
            }
            return replies;
        }""",
        [requests, via],
    )


def test_the_page_boots_from_its_own_files_and_says_it_is_ready(
    browser: Browser, server: StaticServer
) -> None:
    context = browser.new_context(locale="en-US")
    foreign: list[str] = []
    context.on("request", lambda r: None if r.url.startswith(server.url) else foreign.append(r.url))
    try:
        page = open_page(context, server.url)
        expect(page.locator("#status")).to_contain_text("Ready")
        assert page.page_errors == []  # type: ignore[attr-defined]
        assert foreign == []  # no CDN, nothing from anywhere else
        info = page.evaluate("import('./build-info.js').then(m => m.BUILD)")
        pinned = json.loads((ROOT / "web" / "package.json").read_text())["dependencies"]["pyodide"]
        assert info["pyodide"] == pinned
    finally:
        context.close()


@pytest.mark.parametrize(
    ("missing", "step"),
    [("wheel", "the rules core"), ("pyodide/python_stdlib.pyc.zip", "the Python runtime")],
)
def test_a_file_that_fails_to_load_is_an_error_on_the_page_not_a_hang(
    browser: Browser, site: Path, missing: str, step: str
) -> None:
    if missing == "wheel":
        missing = next(p.relative_to(site).as_posix() for p in (site / "wheels").glob("*.whl"))
    broken = StaticServer(site, missing={missing})
    context = browser.new_context(locale="en-US")
    try:
        page = context.new_page()
        page.goto(broken.url)
        page.wait_for_selector('html[data-error="true"]', timeout=120_000)
        expect(page.locator("#status")).to_contain_text(f"Could not load {step}")
        assert page.get_attribute("html", "data-ready") == "false"
        # the forms still answer, with the reason
        form = page.locator('.side[data-side="allies"] form.add-unit')
        form.get_by_role("button", name="Add the unit").click()
        expect(form.locator(".form-error")).to_contain_text("The rules could not be loaded")
    finally:
        context.close()
        broken.close()


def cpython_replies() -> list[tuple[dict[str, Any], Any]]:
    """A seeded battle played in CPython: each request and its reply."""
    new = handle({"op": "new_battle", "name": "twin"})
    commands = [
        {"type": "add_unit", "name": "Dwarves", "side": "allies", "fighters": 10, "strength": 30},
        {"type": "add_unit", "name": "Orcs", "side": "enemies", "fighters": 12, "strength": 26},
        {"type": "start"},
        {"type": "leader_command", "side": "enemies", "leadership": 45},
        {"type": "resolve_round", "mode": "auto"},
        {"type": "resolve_round", "mode": "auto"},
        {"type": "roll_influence", "side": "allies"},
    ]
    battle = new["battle"]
    expected = []
    for seed, command in enumerate(commands, start=7):
        request = {"op": "apply", "battle": battle, "command": command, "seed": seed}
        reply = handle(json.loads(json.dumps(request)))
        assert reply["ok"], reply
        expected.append((request, json.loads(json.dumps(reply))))
        battle = reply["battle"]
    odds_request = {"op": "odds", "battle": battle, "runs": 300, "seed": 5}
    expected.append((odds_request, json.loads(json.dumps(handle(odds_request)))))
    return expected


def assert_same_as_cpython(page: Page) -> None:
    expected = cpython_replies()
    got = run_in_page(page, [request for request, _ in expected])
    for (request, reply), in_page in zip(expected, got, strict=True):
        assert in_page == reply, request.get("command", request["op"])


def test_the_same_seed_gives_the_same_battle_in_pyodide_as_in_cpython(page: Page) -> None:
    assert_same_as_cpython(page)


SNAPSHOT_STORED = """async () => {
    const cache = await caches.open("bb-python-snapshot");
    return (await cache.keys()).length === 1;
}"""


def test_a_second_visit_restores_pythons_memory_snapshot_and_computes_the_same(
    context: BrowserContext, server: StaticServer
) -> None:
    first = open_page(context, server.url)
    assert first.evaluate("window.backgroundBattle.boot.fromSnapshot") is False
    # Taken after the first replies, off the first result's path, and said so.
    first.wait_for_function("window.backgroundBattle.boot.snapshot?.bytes > 0", polling=200)
    first.wait_for_function(SNAPSHOT_STORED, polling=200)
    second = open_page(context, server.url)
    assert second.evaluate("window.backgroundBattle.boot.fromSnapshot") is True
    assert_same_as_cpython(second)
    golden_vectors_match(second)


def test_a_damaged_snapshot_is_dropped_and_python_boots_from_scratch(
    context: BrowserContext, server: StaticServer
) -> None:
    first = open_page(context, server.url)
    first.wait_for_function(SNAPSHOT_STORED, polling=200)
    first.evaluate(
        """async () => {
            const cache = await caches.open("bb-python-snapshot");
            const [key] = await cache.keys();
            await cache.put(key, new Response(new Uint8Array(4096).fill(7)));
        }"""
    )
    second = open_page(context, server.url)
    assert second.evaluate("window.backgroundBattle.boot.fromSnapshot") is False
    assert_same_as_cpython(second)


def test_golden_vectors_give_exactly_the_cpython_results_inside_pyodide(page: Page) -> None:
    golden_vectors_match(page)


def golden_vectors_match(page: Page) -> None:
    """Every golden vector gives exactly its response in the page; a missing file is a failure."""
    missing = f"{GOLDEN.relative_to(ROOT)} is missing: run tests/golden/make_vectors.py"
    assert GOLDEN.is_file(), missing
    vectors = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert vectors, "no golden vectors"
    got = run_in_page(page, [vector["request"] for vector in vectors])
    mismatches = [
        vector["name"]
        for vector, reply in zip(vectors, got, strict=True)
        if reply != vector["response"]
    ]
    assert mismatches == []


def test_an_error_reply_crosses_the_boundary_whole(page: Page) -> None:
    request = {"op": "casualties", "initial": 0, "remaining": 0, "units": []}
    assert run_in_page(page, [request]) == [handle(request)]
    unknown = {"op": "conjure"}
    assert run_in_page(page, [unknown]) == [handle(unknown)]
