"""The GM's live page works out each event from the new entries alone (core following.py).

After the first whole log (`working`, kept), every event the bridge sends costs the page's core
its new entries (`extend`), never a replay of the log; the "why?", the casualties' working and
the chart are what the core gives for the whole battle, also after an undo (which brings the
whole working again) and when the core no longer keeps the live battle (it is sent whole).
The core's requests are read where the page hands them to its worker.
"""

from __future__ import annotations

import json
from typing import Any

from live_pages import GM_TOKEN, Bridge, new_context, one_battle_fighting, open_live, wait_version
from playwright.sync_api import Browser, Page

from background_battle.api import handle

# Every request the page hands its worker, as {op, entries: how many, log: how long}.
RECORD_REQUESTS = """
  window.coreRequests = [];
  const send = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message && message.type === "request") {
      const request = message.text === undefined ? message.request : JSON.parse(message.text);
      window.coreRequests.push({
        op: request.op,
        entries: Array.isArray(request.entries) ? request.entries.length : null,
        log: Array.isArray(request.log) ? request.log.length : null,
      });
    }
    return send.call(this, message, ...rest);
  };
"""

ROUNDS = 6


def lost(allies: int, enemies: int) -> dict[str, Any]:
    return {"type": "resolve_round", "mode": "lost", "lost": {"allies": allies, "enemies": enemies}}


def working_ops(gm: Page) -> list[dict[str, Any]]:
    requests: list[dict[str, Any]] = gm.evaluate("window.coreRequests")
    return [r for r in requests if r["op"] in ("working", "extend", "explain", "series")]


def shown_working(gm: Page) -> dict[str, Any]:
    """The working the page holds for the view it shows (the store's, as painted)."""
    text = gm.evaluate(
        """() => {
          const w = window.backgroundBattle.store.get().working;
          return w && JSON.stringify({entry: w.entry, steps: w.steps, casualties: w.casualties,
                                      series: w.series});
        }"""
    )
    assert text, "no working shown"
    return json.loads(text)  # type: ignore[no-any-return]


def cores_working(gm: Page) -> dict[str, Any]:
    """What CPython's core gives for the whole log the GM's page holds."""
    view = gm.evaluate("window.backgroundBattle.live.view")
    reply = handle({"op": "working", "log": view["log"], "name": "ambush"})
    assert reply["ok"], reply
    return {k: reply[k] for k in ("entry", "steps", "casualties")} | {"series": reply["points"]}


def wait_working_for(gm: Page, version: int) -> None:
    wait_version(gm, version)
    gm.wait_for_function(
        """v => { const s = window.backgroundBattle.store.get();
                  return s.working && s.working.view === s.live.view
                    && s.live.view.version === v; }""",
        arg=version,
    )


def test_each_live_event_costs_the_core_its_new_entries_alone(
    bridge: Bridge, browser: Browser
) -> None:
    one_battle_fighting(bridge)
    ctx = new_context(browser)
    ctx.add_init_script(RECORD_REQUESTS)
    gm = open_live(ctx, f"{bridge.url}#token={GM_TOKEN}")
    version = 3  # two units, start (the battle's version counts its log's entries)
    wait_working_for(gm, version)
    first = working_ops(gm)
    assert [r["op"] for r in first] == ["working"], first  # the whole log once, kept
    assert first[0]["log"] == version

    for n in range(ROUNDS):
        assert bridge.command("ambush", lost(1 + n % 2, 2))["type"] == "ack"
        version += 1
        wait_working_for(gm, version)
    later = working_ops(gm)[1:]
    assert later, "no request after the first"
    assert {r["op"] for r in later} == {"extend"}, later
    assert sum(r["entries"] for r in later) == ROUNDS  # each entry sent once, no log again
    assert shown_working(gm) == cores_working(gm)

    # An undo brings the whole working again (the chart loses a point), still by `extend`.
    assert bridge.command("ambush", {"type": "undo"})["type"] == "ack"
    version += 1
    wait_working_for(gm, version)
    assert working_ops(gm)[-1]["op"] == "extend"
    assert shown_working(gm) == cores_working(gm)
    assert len(shown_working(gm)["series"]) == ROUNDS  # the start's point and ROUNDS - 1 rounds

    # The core keeps one battle at a time: when it keeps another, the log is sent whole once.
    gm.evaluate("window.backgroundBattle.request({op: 'new_battle', keep: true})")
    assert bridge.command("ambush", lost(0, 1))["type"] == "ack"
    version += 1
    wait_working_for(gm, version)
    assert [r["op"] for r in working_ops(gm)[-2:]] == ["extend", "working"]
    assert shown_working(gm) == cores_working(gm)
    assert gm.page_errors == []  # type: ignore[attr-defined]
    ctx.close()
