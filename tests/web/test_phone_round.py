"""A round on one phone screen (360 × 740), in English and Russian: what was typed at Start is
saved, the round's controls and its result are in the first screen, every result card's top is
below the sticky header, and Undo and Redo each show a card."""

from __future__ import annotations

from gm import saved_battle, side_card, side_initial, submit, unit, version
from phone import (
    TALL_PHONE,
    buttons_fit,
    in_first_screen,
    sticky_bottom,
    top_in_view,
)
from playwright.sync_api import Locator, Page, expect

WORDS = {
    "en": {
        "saved": "Saved before the start: Modifiers of the Allies: Walls +20%",
        "round": "Round 1: the allies win",
        "undone": "Undone: Round 1 — enemies back to 26",
        "redone": "Redone: Round 1: the allies win",
        "leader": "Leader",
        "adjust": "Adjust",
        "end": "End",
    },
    "ru": {
        "saved": "Сохранено перед началом: Модификаторы (Союзники): Walls +20%",
        "round": "Раунд 1: побеждают союзники",
        "undone": "Отменено: Раунд 1 — противники: снова 26",
        "redone": "Повторено: Раунд 1: побеждают союзники",
        "leader": "Приказ",
        "adjust": "Правка",
        "end": "Конец",
    },
}


STARTED = """v => document.documentElement.dataset.phase === 'fighting'
  && Number(document.documentElement.dataset.version) === v + 2"""


def card_line(page: Page, card: str) -> Locator:
    region = page.locator(f"{card}[role='status']")
    expect(region).to_be_visible()
    return region.locator(".result-line").first


def test_a_whole_round_on_one_phone_screen_nothing_typed_lost_every_card_in_view(
    tall_phone: Page,
) -> None:
    page, words = tall_phone, WORDS[tall_phone.lang]  # type: ignore[attr-defined]
    unit(page, "allies", "Dwarves", 10, 30)
    unit(page, "enemies", "Orcs", 12, 26)
    # "Walls +20" typed on the allies and never saved.
    allies = side_card(page, "allies")
    allies.locator("details.modifiers summary").click()
    allies.locator(".add-modifier").click()
    allies.locator('.modifier-row [data-name="name"]').fill("Walls")
    allies.locator('.modifier-row [data-name="percent"]').fill("20")
    buttons_fit(page, "the set-up")

    before = version(page)
    page.locator("#start-form button").click()
    page.wait_for_function(
        STARTED,
        arg=before,
    )
    assert side_initial(page, "allies") == "36"  # 30 × 1.2: the modifier counts
    modifiers = [
        e["command"] for e in saved_battle(page)["log"] if e["command"]["type"] == "set_modifiers"
    ]
    assert modifiers == [
        {"type": "set_modifiers", "side": "allies", "modifiers": [{"name": "Walls", "percent": 20}]}
    ]
    expect(page.locator("#round-result")).to_contain_text(words["saved"])
    expect(page.locator("#round-result details.why")).to_be_visible()  # its working has come
    page.wait_for_timeout(100)  # and been brought into sight
    top_in_view(page, page.locator("#round-result"), "the start's card")

    buttons_fit(page, "the fight")
    # The round, as it is on screen after Start: no scrolling to type, resolve and read.
    scrolled = page.evaluate("scrollY")
    form = page.locator("#round-form")
    for part in (
        side_card(page, "allies").locator('[data-bind="strength"]'),
        side_card(page, "enemies").locator('[data-bind="strength"]'),
    ):
        in_first_screen(page, part, "a side's strength")
    form.locator('input[value="rolls"]').check()
    for part in (
        form.locator('input[name="rolls.allies"]'),
        form.locator('input[name="rolls.enemies"]'),
        form.locator('button[type="submit"]'),
    ):
        in_first_screen(page, part, "the round's controls")
    form.locator('input[name="rolls.allies"]').fill("12")
    form.locator('input[name="rolls.enemies"]').fill("57")
    assert page.evaluate("scrollY") == scrolled
    submit(page, form)
    first = card_line(page, "#round-result")
    expect(first).to_have_text(words["round"])
    expect(page.locator("#round-result details.why")).to_be_visible()
    line = first.bounding_box()
    assert line is not None
    where = line["y"] + page.evaluate("scrollY") - scrolled  # where it was on the screen typed in
    assert sticky_bottom(page) <= where and where + line["height"] <= TALL_PHONE["height"], line
    top_in_view(page, page.locator("#round-result"), "the round's card")
    # An opened "why?" comes into view whole.
    page.locator("#round-result details.why summary").click()
    page.wait_for_timeout(300)
    in_first_screen(page, page.locator("#round-result .working"), "the working")

    # Undo, then Redo: each has its card, its headline below the header.
    undo = page.locator("#undo-form")
    submit(page, undo)
    expect(card_line(page, "#start-result")).to_have_text(words["undone"])
    top_in_view(page, page.locator("#start-result"), "Undo's card")
    submit(page, page.locator("#redo-form"))
    expect(card_line(page, "#start-result")).to_have_text(words["redone"])
    top_in_view(page, page.locator("#start-result"), "Redo's card")
    expect(side_card(page, "enemies").locator('[data-bind="strength"]')).to_have_text(
        "21"
    )  # same rolls
    expect(page.locator("#redo-button")).to_be_disabled()
    expect(page.locator("#start-result details.why")).to_be_visible()

    # The leader's command, adjusting and the end: one tap in the bar, the card in view.
    bar = page.locator("#fight-bar")

    def from_the_bar(tab: str, form: str, typed: tuple[str, str], card: str, what: str) -> None:
        bar.get_by_role("button", name=words[tab]).click()
        filled = page.locator(form)
        filled.locator(f'input[name="{typed[0]}"]').fill(typed[1])
        in_first_screen(page, filled.locator('button[type="submit"]'), f"{what}'s button")
        submit(page, filled)
        top_in_view(page, page.locator(card), f"{what}'s card")

    from_the_bar("leader", "#leader-form", ("sl", "4"), "#leader-result", "the leader")
    from_the_bar("adjust", "#detach-form", ("fighters", "2"), "#adjust-result", "moving fighters")
    from_the_bar("end", "#pcs-won-form", ("fleeing", "1/2"), "#end-result", "the end")

    influence = page.locator("#influence-form")
    influence.locator('input[name="roll"]').fill("40")
    submit(page, influence)
    top_in_view(page, page.locator("#influence-card"), "the Influence card")
