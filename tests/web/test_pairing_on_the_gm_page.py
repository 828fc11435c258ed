"""A Foundry asks to join the bridge by a code: the GM's live page shows who asks and the code
(beside the bridge's terminal), in the page's language, in view on a 360 px phone; the
players' page shows nothing of it. The asking page is a script with Foundry's origin.
"""

from __future__ import annotations

import json
import re
import time

import pytest
from live_pages import GM_TOKEN, PLAYER_TOKEN, Bridge, open_live, wait_live
from playwright.sync_api import Browser, expect
from websockets.sync.client import connect

FOUNDRY = "http://foundry.local:30000"
WORDS = {
    "en": ("asks to join the bridge. Code:", "joined as GM"),
    "ru": ("просит подключиться к мосту. Код:", "подключён как ведущий"),
}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_gms_page_shows_the_asking_origin_and_its_code(
    bridge: Bridge, browser: Browser, lang: str
) -> None:
    contexts = [
        browser.new_context(locale="en-US", viewport={"width": 360, "height": 740})
        for _ in range(2)
    ]
    try:
        gm = open_live(contexts[0], f"{bridge.url}#token={GM_TOKEN}")
        wait_live(gm)
        gm.locator(f'button[data-lang="{lang}"]').click()
        player = open_live(contexts[1], f"{bridge.url}#token={PLAYER_TOKEN}")
        wait_live(player)
        asking, said = WORDS[lang]
        with connect(
            f"ws://127.0.0.1:{bridge.port}/pair", origin=FOUNDRY, open_timeout=30
        ) as foundry:
            foundry.send(json.dumps({"type": "pair", "client": "foundry"}))
            assert json.loads(foundry.recv(timeout=30))["type"] == "pair_asked"
            notice = gm.locator("#live-pairing")
            expect(notice).to_contain_text(f"{FOUNDRY} {asking}")
            expect(notice).to_be_in_viewport()
            code = re.search(r"(\d{3} \d{3})", notice.inner_text())
            assert code, notice.inner_text()
            # the page shows the code the terminal shows (the terminal's line is read by a
            # thread of its own, which may come a moment after the page: waited for, bounded)
            line = f"Code: {code.group(1)}"
            deadline = time.monotonic() + 30
            while line not in "".join(bridge.output) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert line in "".join(bridge.output)
            foundry.send(json.dumps({"type": "pair_code", "code": code.group(1)}))
            assert json.loads(foundry.recv(timeout=30))["type"] == "paired"
        expect(notice).to_contain_text(said)
        expect(player.locator("#live-pairing")).to_be_hidden()
        assert gm.page_errors == [] and player.page_errors == []  # type: ignore[attr-defined]
    finally:
        for ctx in contexts:
            ctx.close()
