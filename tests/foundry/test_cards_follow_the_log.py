"""Chat cards follow the battle's log by version: set-up steps as lines on one card for the GMs,
small changes grouped, and every step carded once and in order, also when the players'
connection was reconnecting at that moment or the GM's page was reloaded meanwhile; only the
active GM posts. Real module files on the stand-in page, the real bridge, Chromium."""

from __future__ import annotations

from typing import Any

import pytest
from bridge_gm import BridgeGM, started_battle
from foundry_steps import Open, connected, create_battle, new_unit, record, set_up_fight
from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.timeout(180)

APP = "game.modules.get('background-battle').api.app"
ROLLS = {"type": "resolve_round", "mode": "rolls", "rolls": {"allies": 50, "enemies": 50}}
WOLVES = {"name": "Wolves", "side": "enemies", "fighters": 4, "strength": 12}


def cards(page: Page) -> list[dict[str, Any]]:
    """The module's step cards in this page's chat, oldest first: what each is about, its lines,
    its recipients and its text."""
    return page.evaluate(
        """() => game.messages.contents
             .map(m => ({about: m.getFlag('background-battle', 'about'),
                         lines: m.getFlag('background-battle', 'lines'),
                         whisper: m.whisper, content: m.content}))
             .filter(c => c.about && ['setup', 'change', 'step'].includes(c.about.kind))"""
    )


def command(page: Page, command: dict[str, Any]) -> None:
    assert page.evaluate(f"c => {APP}.command(c).then(ack => Boolean(ack))", command)


def version(page: Page) -> int:
    return int(page.evaluate(f"{APP}.state.view.version"))


def carded(page: Page, last: int) -> None:
    """Waits until a card holds version `last`."""
    page.wait_for_function(
        """last => game.messages.contents
             .some(m => m.getFlag('background-battle', 'about')?.version === last)""",
        arg=last,
        timeout=20_000,
    )


def versions(page: Page) -> list[int]:
    """The versions carded, in the order the cards hold them (a card of lines: from..version)."""
    out: list[int] = []
    for card in cards(page):
        about = card["about"]
        out.extend(range(about.get("from", about["version"]), about["version"] + 1))
    return out


def fighting(page: Page, open_foundry: Open, **options: Any) -> Any:
    """The GM's panel, connected, with "ambush" started from it (versions 1-3)."""
    panel = open_foundry(page, **options)
    connected(panel)
    set_up_fight(page, panel)
    return panel


def drop_players_connection(page: Page) -> None:
    """Closes the players' eye's socket (player-eye.mjs) and points it at a closed port: it
    keeps reconnecting (with back-off) until `eye.client.url = window.eyeUrl` again."""
    page.evaluate(
        f"""() => {{
             const eye = {APP}.eye.client;
             window.eyeUrl = eye.url;
             eye.url = 'ws://127.0.0.1:9/ws';
             eye.socket.close();
           }}"""
    )


def test_set_up_steps_are_lines_on_one_card_for_the_gms_and_changes_are_grouped(
    page: Page, open_foundry: Open, bridge: Any
) -> None:
    panel = open_foundry(page)
    connected(panel)
    create_battle(panel, "ambush")
    new_unit(page, panel, ["tok1", "tok2", "tok3"], name="Dwarves", side="allies", strength=30)
    new_unit(page, panel, ["tok4"], name="Orcs", side="enemies", strength=60, head_count=10)
    for step in (
        {"type": "add_unit", "id": "wolves", **WOLVES},
        {"type": "update_unit", "unit": "wolves", "fighters": 5},
        {"type": "remove_unit", "unit": "wolves"},
        {"type": "set_hidden", "hidden": ["enemies.fighters"]},
        {"type": "rename", "name": "Ambush at the ford"},
        {"type": "undo"},
    ):
        command(page, step)
    carded(page, 8)
    [setup] = cards(page)
    assert setup["about"] == {"battle": "ambush", "kind": "setup", "from": 1, "version": 8}
    assert sorted(setup["whisper"]) == ["gm1", "gm2"]  # players are told nothing of a set-up
    assert setup["lines"] == [
        "Allies: Dwarves added (3 fighters, strength 30)",
        "Enemies: Orcs added (10 fighters, strength 60)",
        "Enemies: Wolves added (4 fighters, strength 12)",
        "Enemies: Wolves changed (5 fighters, strength 12)",
        "Enemies: Wolves removed",
        "Hidden from players: the enemies' head count",
        "The battle is now called Ambush at the ford",
        "Taken back: The battle is now called Ambush at the ford",
    ]
    assert "Setting up: ambush" in setup["content"]
    assert all(line.replace("'", "&#39;") in setup["content"] for line in setup["lines"])
    assert len(record(page, "chatUpdates")) == 7  # one card, edited as the steps came

    command(page, {"type": "start"})
    carded(page, 9)
    start = cards(page)[-1]
    assert start["about"] == {"battle": "ambush", "version": 9, "kind": "step"}
    assert start["whisper"] == []  # public: the player view, the orcs' head count hidden
    assert "Allies: Dwarves (3 fighters)" in start["content"]
    assert "Enemies: Orcs</p>" in start["content"] and "10" not in start["content"]

    # small changes after the start: one public card, edited; a round in between starts anew
    command(page, {"type": "rename", "name": "The ford"})
    command(page, {"type": "set_hidden", "hidden": []})
    command(page, ROLLS)
    command(page, {"type": "rename", "name": "The ford at dusk"})
    carded(page, 13)
    changes = [c for c in cards(page) if c["about"]["kind"] == "change"]
    assert [c["lines"] for c in changes] == [
        ["The battle is now called The ford", "Players see every number"],
        ["The battle is now called The ford at dusk"],
    ]
    assert all(c["whisper"] == [] for c in changes)
    assert versions(page) == list(range(1, 14))
    # the world remembers the last version carded (by a hash of the battle's name)
    marks = page.evaluate("game.settings.get('background-battle', 'cardedSteps')")
    assert list(marks.values()) == [13] and "ambush" not in str(marks)


def test_steps_missed_while_the_players_connection_was_down_are_carded_once_in_order(
    browser: Browser, page: Page, open_foundry: Open, bridge: Any, foundry_server: Any
) -> None:
    fighting(page, open_foundry, server=foundry_server.url)
    carded(page, 3)
    # a second GM, not the active one, posts nothing
    other = browser.new_context().new_page()
    connected(open_foundry(other, user="gm2", server=foundry_server.url, battle="ambush"))

    # the players' connection drops and cannot come back for a while
    drop_players_connection(page)
    page.wait_for_function(f"{APP}.eye.client.status.state === 'closed'")
    command(page, {"type": "leader_command", "side": "allies", "sl": 2})
    command(page, ROLLS)
    command(page, {"type": "rename", "name": "The ford"})
    command(page, ROLLS)
    last = version(page)
    assert last == 7
    assert versions(page) == [1, 2, 3]  # public cards wait for the player view of their step
    page.evaluate(f"() => {{ {APP}.eye.client.url = window.eyeUrl; }}")  # it comes back
    carded(page, last)
    assert versions(page) == list(range(1, last + 1))  # each step once, in order
    kinds = [c["about"]["kind"] for c in cards(page)]
    assert kinds == ["setup", "step", "step", "step", "change", "step"]
    assert all(c["whisper"] == [] for c in cards(page)[1:])
    assert "Round 2" in cards(page)[-1]["content"]
    # the second GM's browser sees the world's cards, and made none of them
    assert versions(other) == list(range(1, last + 1)) and record(other, "chat") == []
    other.context.close()


def test_a_reloaded_gm_page_cards_what_it_missed_once(
    page: Page, open_foundry: Open, bridge: Any, gm: BridgeGM, foundry_server: Any
) -> None:
    units = {"dwarves": ("allies", 3, 30, []), "orcs": ("enemies", 10, 60, [])}
    started_battle(gm, "ambush", units)  # 3 steps before this world saw the battle
    marks = "game.settings.get('background-battle', 'cardedSteps')"

    def open_page() -> None:
        connected(open_foundry(page, server=foundry_server.url, battle="ambush"))

    open_page()
    # a battle never carded gets cards from now on: its past is not posted
    page.wait_for_function(f"Object.values({marks}).includes(3)")
    assert cards(page) == []
    gm.command("ambush", **ROLLS)
    carded(page, 4)
    assert versions(page) == [4]

    page.goto("about:blank")  # the GM reloads; meanwhile another GM plays on
    gm.command("ambush", type="leader_command", side="enemies", sl=1)
    gm.command("ambush", **ROLLS)
    open_page()
    carded(page, 6)
    # the world keeps the card of step 4 (the server's); the reloaded page posted 5 and 6 only
    assert versions(page) == [4, 5, 6]
    assert "Round 2" in cards(page)[-1]["content"] and len(record(page, "chat")) == 2

    page.goto("about:blank")
    open_page()
    # once the battle is held and the cards have looked at it
    page.wait_for_function(f"{APP}.state?.version === 6 && !{APP}.cards.running")
    assert versions(page) == [4, 5, 6] and record(page, "chat") == []  # nothing posted


def test_a_refused_player_token_leaves_the_cards_to_the_gms(
    page: Page, open_foundry: Open, bridge: Any
) -> None:
    panel = open_foundry(page, player_token="not-the-player-token-0123456789")
    connected(panel)
    page.wait_for_function(f"{APP}.eye.client.status.state === 'failed'")
    set_up_fight(page, panel)
    carded(page, 3)
    assert [sorted(card["whisper"]) for card in cards(page)] == [["gm1", "gm2"]] * 2
    assert "Enemies: Orcs (10 fighters)" in cards(page)[-1]["content"]  # the GM's numbers


def test_a_long_gap_is_carded_once_the_players_log_is_whole(
    page: Page, open_foundry: Open, bridge: Any
) -> None:
    # this test's GM sends its commands at once: the bridge lets it
    bridge.stop()
    bridge.extra = (*bridge.extra, "--rate", "5000", "--burst", "5000")
    bridge.start()
    fighting(page, open_foundry)
    carded(page, 3)
    drop_players_connection(page)
    # more steps than one page (500) while the players' connection is away: it will get a
    # state with the last page only, and ask for the older ones
    gm = BridgeGM(bridge.url, bridge.gm_token)
    gm.commands("ambush", [{"type": "rename", "name": f"n{n}"} for n in range(4, 514)])
    gm.command("ambush", **ROLLS)
    gm.close()
    # 511 commands through a real bridge: on a loaded machine this takes a while
    page.wait_for_function(f"{APP}.state.view.version === 514", timeout=90_000)
    assert versions(page) == [1, 2, 3]
    page.evaluate(
        f"""() => {{
             const eye = {APP}.eye.client;
             window.pages = [];
             eye.on('message', m => {{
               // how many cards there are when the older page comes
               const count = game.messages.contents.length;
               const [since, until] = [m.since_version, m.until_version];
               if (m.type === 'log_page') pages.push(['page', since, until, count]);
               if (m.type === 'state') pages.push(['state', m.log_from]);
             }});
             eye.url = window.eyeUrl;
           }}"""
    )
    carded(page, 514)
    # the state came with the last page (not announced); the older entries were fetched, and no
    # card was made before the log was whole
    assert page.evaluate("window.pages") == [["page", 0, 14, 2], ["state", 0]]
    assert versions(page) == list(range(1, 515))
    changes, last = cards(page)[-2:]
    assert changes["about"]["kind"] == "change" and len(changes["lines"]) == 510
    assert changes["lines"][-1] == "The battle is now called n513"
    # caught up together: the card of changes posted once, never edited (the one edit is the
    # set-up card's second line)
    assert len(record(page, "chatUpdates")) == 1
    assert "Round 1" in last["content"] and last["whisper"] == []


def test_the_gm_who_becomes_active_goes_on_from_the_worlds_record(
    browser: Browser, page: Page, open_foundry: Open, bridge: Any, gm: BridgeGM, foundry_server: Any
) -> None:
    units = {"dwarves": ("allies", 3, 30, []), "orcs": ("enemies", 10, 60, [])}
    started_battle(gm, "ambush", units)
    connected(open_foundry(page, server=foundry_server.url, battle="ambush"))
    other = browser.new_context().new_page()
    connected(open_foundry(other, user="gm2", server=foundry_server.url, battle="ambush"))
    page.wait_for_function(
        "Object.values(game.settings.get('background-battle', 'cardedSteps')).includes(3)"
    )
    gm.command("ambush", **ROLLS)
    carded(page, 4)
    # the active GM's players' connection drops: the next step's public card waits for it...
    drop_players_connection(page)
    gm.command("ambush", type="leader_command", side="allies", sl=1)
    page.wait_for_function(f"{APP}.state.view.version === 5")
    other.wait_for_function(f"{APP}.state.view.version === 5")
    assert versions(page) == [4] and versions(other) == [4] and record(other, "chat") == []
    # ...and the active GM leaves: the other GM is the active one now and posts it, once
    page.goto("about:blank")
    carded(other, 5)
    assert versions(other) == [4, 5] and len(record(other, "chat")) == 1
    assert "Leader&#39;s command: Allies" in cards(other)[-1]["content"]
    gm.command("ambush", **ROLLS)
    carded(other, 6)
    assert versions(other) == [4, 5, 6]
    other.context.close()


def test_a_bridge_that_lost_its_data_gets_cards_from_where_it_is(
    page: Page, open_foundry: Open, bridge: Any, tmp_path: Any
) -> None:
    panel = fighting(page, open_foundry)
    command(page, ROLLS)
    carded(page, 4)
    # the bridge starts again with no data: the world's record (4) is ahead of the new battle
    bridge.stop()
    bridge.data = tmp_path / "fresh-bridge-data"
    bridge.start()
    connected(panel)
    create_battle(panel, "ambush")
    command(page, {"type": "add_unit", "id": "wolves", **WOLVES})
    carded(page, 1)
    setup = [c for c in cards(page) if c["about"]["kind"] == "setup"]
    assert setup[-1]["about"]["from"] == 1 and setup[-1]["lines"] == [
        "Enemies: Wolves added (4 fighters, strength 12)"
    ]


def test_the_set_up_card_in_russian(page: Page, open_foundry: Open, bridge: Any) -> None:
    panel = open_foundry(page, lang="ru")
    connected(panel)
    create_battle(panel, "засада")
    new_unit(page, panel, ["tok1", "tok2", "tok3"], name="Гномы", side="allies", strength=30)
    command(page, {"type": "add_unit", "id": "wolves", **WOLVES, "fighters": 21})
    command(page, {"type": "set_hidden", "hidden": []})
    carded(page, 3)
    [setup] = cards(page)
    assert setup["lines"] == [
        "Союзники: добавлен отряд «Гномы» (3 бойца, ОС 30)",
        "Враги: добавлен отряд «Wolves» (21 боец, ОС 12)",
        "Игроки видят все числа",
    ]
    assert "Подготовка боя: засада" in setup["content"]
