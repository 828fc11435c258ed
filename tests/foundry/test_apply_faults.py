"""Apply as a transaction, with the faults a hosted Foundry has, in both generations
(docs/foundry.md, "Casualties"): a tab closed or reloaded at a random moment of an Apply on 60
tokens whose writes take 40 ms, then Finish or Undo from a reopened panel, ends with every token
exactly as planned or exactly as before; the GM's kill in the PCs' fight survives Apply; the
load-time hand-off applies once and says so truthfully.

The fault runs are seeded: `BB_FAULT_RUNS` of them per generation (3 by default, so that
`make test` stays bounded; `make test-faults` runs 20). Each run prints one line (the cut, how
far the Apply got, what ended it) to the terminal. An Apply of 60 tokens at 40 ms a write takes
about 1.3 s here (8 tokens at a time, their writes overlapping), so the cut is drawn from 0 to
1.5 s: before the journal is stored (the job is offered again and taken by the reopened
browser), part-way (Finish or Undo), or after the last write (the report still to send).
"""

from __future__ import annotations

import html
import json
import os
import random
import re
from typing import Any

import pytest
from bridge_gm import BridgeGM, lost_battle, started_battle
from foundry_server import FoundryServer
from foundry_steps import GENERATIONS, Open, record, world_tokens
from playwright.sync_api import Browser, Locator, Page, expect

pytestmark = pytest.mark.timeout(240)

RUNS = int(os.environ.get("BB_FAULT_RUNS", "3"))
TOKENS = 60
FLAG = "background-battle"
CASUALTY_CARDS = (
    "game.messages.contents"
    ".filter(m => m.getFlag('background-battle', 'about')?.kind === 'casualties')"
    ".map(m => m.content)"
)


def uuid(i: int) -> str:
    return f"Scene.scene1.Token.tok{i}"


def shown(token: dict[str, Any]) -> tuple[Any, ...]:
    """What a token shows and holds: name, statuses, values, overlays and its module flags."""
    return (
        token["name"],
        token["statuses"],
        token["values"],
        token["overlay"],
        json.dumps(token["flags"].get(FLAG, {}).get("applied"), sort_keys=True),
    )


def say(pytestconfig: pytest.Config, line: str) -> None:
    """One line on the terminal, captured or not (the runs' counts)."""
    reporter = pytestconfig.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(line)


def row(panel: Locator, unit: str) -> Locator:
    return panel.locator(f".bb-unit[data-unit={unit}]")


def reopen(browser: Browser, open_foundry: Open, user: str, system: str | None) -> Locator:
    page = browser.new_context().new_page()
    return open_foundry(page, user=user, battle="ambush", tokens=TOKENS, system=system)


@pytest.mark.parametrize("seed", range(RUNS))
@pytest.mark.parametrize("generation", GENERATIONS)
def test_an_apply_cut_short_ends_as_planned_or_as_before(
    browser: Browser,
    page: Page,
    open_foundry: Open,
    foundry_server: FoundryServer,
    gm: BridgeGM,
    pytestconfig: pytest.Config,
    generation: int,
    seed: int,
) -> None:
    rng = random.Random(f"{generation}-{seed}")
    system = "wfrp4e" if seed % 2 else None
    units = {
        "dwarves": ("allies", TOKENS, 40, [uuid(i) for i in range(1, TOKENS + 1)]),
        "orcs": ("enemies", 10, 60, []),
    }
    fates = lost_battle(gm, "ambush", units)["dwarves"]
    assert fates["killed"] + fates["wounded"] > 20, fates
    panel = open_foundry(page, battle="ambush", tokens=TOKENS, system=system)
    expect(panel.locator(".bb-status")).to_have_attribute("data-state", "open")
    # the GM's own marks before the result: one down by another hand, a few prone
    page.evaluate("StandIn.setStatus('tok7', 'unconscious', true)")
    for i in rng.sample(range(1, TOKENS + 1), 3):
        page.evaluate(f"StandIn.setStatus('tok{i}', 'prone', true)")
    before = {t["id"]: shown(t) for t in world_tokens(page)}
    foundry_server.latency = 0.04  # a hosted world's round trip, per write

    row(panel, "dwarves").locator("[data-action=applyUnit]").click()
    cut = rng.uniform(0.0, 1.5)
    page.wait_for_timeout(cut * 1000)
    how = rng.choice(["closed", "reloaded"])
    if how == "reloaded":
        page.reload()
        expect(page.locator("body")).to_have_attribute("data-ready", "1", timeout=15_000)
        page.click("button[data-tool='background-battle']")
        after = page.locator("#background-battle-panel")
    else:
        page.context.close()
        after = reopen(browser, open_foundry, rng.choice(["gm1", "gm2"]), system)
    dwarves = row(after, "dwarves")
    ended = dwarves.locator(".bb-applied, .bb-job[data-kind=interrupted]")
    expect(ended.first).to_be_visible(timeout=60_000)
    view = after.page
    journal = None
    if dwarves.locator(".bb-job[data-kind=interrupted]").count():
        text = dwarves.locator(".bb-job").inner_text()
        done, total = map(int, re.findall(r"\d+", text))
        assert total == TOKENS, text
        journal = gm.state("ambush")["foundry"]["jobs"]["dwarves"]["plan"]
        records = [t["flags"].get(FLAG, {}).get("applied") for t in world_tokens(view)]
        finished = [
            r for r in records if r and r.get("plan") == journal["plan"] and r["after"] is not None
        ]
        assert len(finished) == done, (text, len(finished))
        ending = rng.choice(["finish", "undo"])
        if ending == "finish":
            dwarves.locator("[data-action=finishApply]").click()
            expect(dwarves.locator(".bb-applied")).to_be_visible(timeout=60_000)
        else:
            dwarves.locator("[data-action=undoInterrupted]").click()
            expect(dwarves.locator("[data-action=applyUnit]")).to_be_visible(timeout=60_000)
            expect(dwarves.locator(".bb-job")).to_have_count(0)
    else:
        done, ending = TOKENS, "applied whole"
    tokens = world_tokens(view)
    if ending == "undo":
        assert {t["id"]: shown(t) for t in tokens} == before
        assert gm.state("ambush")["foundry"]["jobs"] == {}
    else:
        planned(tokens, fates, journal)
        # one card for the journal, whoever posted it and whenever the tab went
        view.wait_for_function(f"({CASUALTY_CARDS}).length > 0")
        view.wait_for_timeout(300)
        cards = [c for c in view.evaluate(CASUALTY_CARDS) if "bb-withdrawn" not in c]
        assert len(cards) == 1, cards
    say(
        pytestconfig,
        f"fault run v{generation} seed {seed} ({system or 'generic'}): tab {how} after "
        f"{cut * 1000:.0f} ms, {done if journal else '-'} of {TOKENS} tokens done, {ending}; "
        f"result {fates['killed']}/{fates['wounded']}/{fates['fit']}",
    )


def planned(tokens: list[dict[str, Any]], fates: dict[str, int], journal: Any) -> None:
    """Every token as one journal planned it: one journal id on every token, each record done,
    the fates' counts those of the result, no token both killed and wounded by Apply."""
    records = [t["flags"][FLAG]["applied"] for t in tokens]
    assert len({r["plan"] for r in records}) == 1
    assert all(r["after"] is not None for r in records)
    dead = [t for t in tokens if "dead" in t["statuses"]]
    down = [t for t in tokens if "unconscious" in t["statuses"]]
    assert len(dead) == fates["killed"], (len(dead), fates)
    # tok7 was down before: counted first among the wounded, left as it was
    assert len(down) == fates["wounded"], (len(down), fates)
    assert not [t["id"] for t in dead if "unconscious" in t["statuses"]]
    assert "unconscious" in next(t for t in tokens if t["id"] == "tok7")["statuses"]
    if journal is not None:
        by_id = {uuid(int(t["id"][3:])): t for t in tokens}
        for token_id, fate in journal["fates"].items():
            statuses = by_id[token_id]["statuses"]
            assert ("dead" in statuses) == (fate == "killed"), (token_id, fate, statuses)
            assert ("unconscious" in statuses) == (fate == "wounded"), (token_id, fate, statuses)


@pytest.mark.parametrize("generation", GENERATIONS)
def test_the_gms_kill_in_the_pcs_fight_survives_apply(
    page: Page, open_foundry: Open, gm: BridgeGM, foundry_server: FoundryServer, generation: int
) -> None:
    foundry_server.latency = 0.02
    units = {
        "trolls": ("enemies", 3, 30, [uuid(1), uuid(2), uuid(3)]),
        "dwarves": ("allies", 10, 40, []),
    }
    started_battle(gm, "ambush", units)
    panel = open_foundry(page, battle="ambush", tokens=4)
    trolls = row(panel, "trolls")
    expect(trolls).to_be_visible()
    # two of the three Troll tokens go into the PCs' fight: selected, not a count
    page.evaluate("StandIn.select(['tok2', 'tok3'])")
    trolls.locator("[data-action=detach]").click()
    expect(trolls.locator(".bb-unit-figures")).to_contain_text("2 fighters in the PCs' fight")
    # which tokens went reaches the bridge just after the step (`detached`)
    page.wait_for_function(
        "() => game.modules.get('background-battle').api.app.state?.foundry?.detached?.trolls"
    )
    moves = gm.state("ambush")["foundry"]["detached"]
    assert [m["token_ids"] for m in moves["trolls"]] == [[uuid(2), uuid(3)]]
    # the GM takes the move back: the tokens are the unit's again; then moves them once more
    panel.locator("[data-action=undo]").click()
    expect(trolls.locator(".bb-unit-figures")).not_to_contain_text("PCs' fight")
    assert gm.state("ambush")["foundry"]["detached"] == {}
    page.evaluate("StandIn.select(['tok2', 'tok3'])")
    trolls.locator("[data-action=detach]").click()
    expect(trolls.locator(".bb-unit-figures")).to_contain_text("2 fighters in the PCs' fight")
    page.wait_for_function(
        """() => {
             const state = game.modules.get('background-battle').api.app.state;
             const moves = state?.foundry?.detached?.trolls ?? [];
             return moves.length === 1 && !state.view.undone.includes(moves[0].version - 1);
           }"""
    )
    # the GM kills both there, by hand
    page.evaluate("StandIn.setStatus('tok2', 'dead', true)")
    page.evaluate("StandIn.setStatus('tok3', 'dead', true)")
    gm.command("ambush", type="end_battle", winner="allies")
    expect(panel.locator(".bb-phase")).to_have_attribute("data-status", "ended")
    trolls.locator("[data-action=applyUnit]").click()
    expect(trolls.locator(".bb-applied")).to_be_visible(timeout=20_000)
    tokens = {t["id"]: t for t in world_tokens(page)}
    for kept in ("tok2", "tok3"):
        assert "dead" in tokens[kept]["statuses"], tokens[kept]
        assert "applied" not in tokens[kept]["flags"].get(FLAG, {})
    assert "applied" in tokens["tok1"]["flags"][FLAG]
    # Apply never took a condition off (only added)
    assert not [c for c in record(page, "conditions") if "remove" in json.dumps(c).lower()]
    page.wait_for_function(f"({CASUALTY_CARDS}).length > 0")
    card = html.unescape(page.evaluate(CASUALTY_CARDS)[0])
    assert "In the PCs' fight" in card and "Soldier 2" in card and "Soldier 3" in card, card
    report = gm.state("ambush")["foundry"]["applied"]["trolls"]
    assert report["killed"] + report["wounded"] + report["fit"] == 1


@pytest.mark.parametrize("with_token", [False, True], ids=["loading-without-token", "loading"])
@pytest.mark.parametrize("generation", GENERATIONS)
def test_the_load_time_hand_off_applies_once_with_a_truthful_notice(
    browser: Browser,
    page: Page,
    open_foundry: Open,
    gm: BridgeGM,
    foundry_server: FoundryServer,
    generation: int,
    with_token: bool,
) -> None:
    foundry_server.latency = 0.04
    units = {
        "dwarves": ("allies", 4, 40, [uuid(i) for i in (1, 2, 3, 4)]),
        "orcs": ("enemies", 10, 60, []),
    }
    fates = lost_battle(gm, "ambush", units)["dwarves"]
    # the assistant GM's browser, with the GM token, ready
    panel = open_foundry(page, user="gm2", battle="ambush", tokens=5)
    expect(panel.locator(".bb-status")).to_have_attribute("data-state", "open")
    # the Game Master (the active GM once logged in) is still loading the world: 4 s to `ready`
    loading = browser.new_context().new_page()
    address = page.url.replace("user=gm2", "user=gm1") + "&readyDelay=4000"
    if not with_token:
        address = re.sub(r"&gmToken=[^&]*", "", address)
    loading.goto(address)
    page.wait_for_function("game.users.activeGM?.id === 'gm1'")
    row(panel, "dwarves").locator("[data-action=applyUnit]").click()
    notices = page.locator("#notifications")
    expect(notices).to_contain_text(
        "Waiting for the active GM Game Master's browser (still loading)"
    )
    expect(notices).not_to_contain_text("Sent;")
    assert sum("dead" in t["statuses"] for t in world_tokens(page)) == 0
    # once that browser is ready, the job is taken: by it (it has the GM token), else by this one
    expect(row(panel, "dwarves").locator(".bb-applied")).to_be_visible(timeout=20_000)
    if with_token:
        expect(notices).to_contain_text("Sent; Game Master's browser puts it on the tokens.")
    else:
        expect(notices).not_to_contain_text("Sent;")
    tokens = world_tokens(page)
    assert sum("dead" in t["statuses"] for t in tokens) == fates["killed"]
    assert sum("unconscious" in t["statuses"] for t in tokens) == fates["wounded"]
    # applied once: one journal on the tokens, one card
    assert len({t["flags"][FLAG]["applied"]["plan"] for t in tokens[:4]}) == 1
    page.wait_for_function(f"({CASUALTY_CARDS}).length === 1")
    page.wait_for_timeout(500)
    assert len(page.evaluate(CASUALTY_CARDS)) == 1
    loading.context.close()
