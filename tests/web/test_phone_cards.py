"""Every card says what its step did, on one phone screen (360 × 740), in English and Russian: S0
in set-up, the bar's Undo and (after the end) Influence, the strengths in view when Round is
tapped, a failed Leadership test with no SL, no empty card after the end or after Influence, the
chart's end kept, one language per heading, "d100" per language, the numbers in the page's
language and "all flee" for a share of 1 (docs/web.md, "Cards and the bar")."""

from __future__ import annotations

import re

import pytest
from gm import side_card, side_initial, submit, unit, version
from live_pages import GM_TOKEN, Bridge, one_battle_fighting, open_live, wait_live, wait_version
from phone import (
    TALL_PHONE,
    buttons_fit,
    in_first_screen,
    sticky_bottom,
    tall_phone_context,
    top_in_view,
)
from playwright.sync_api import Browser, Locator, Page, expect

WORDS = {
    "en": {
        "joins": "Ogre joins the Allies: 1 fighter, strength 56",
        "casualties": "Casualties",
        "leader_failed": "Enemies: the Leadership test failed, no bonus",
        "pending": "next test",
        "undone": "Undone: Round 1",
        "all_flee": "The PCs won; all the enemies flee",
        "chart_rounds": ", 1 round",
        "dice": "d100",
        "other_dice": ("к100", "д100"),
        "lost_share": "Lost 69.4% of the strength.",
    },
    "ru": {
        "joins": "Ogre (Союзники): 1 боец, очки силы 56",
        "casualties": "Потери",
        "leader_failed": "Противники: проверка Командования провалена, бонуса нет",
        "pending": "к следующей проверке",
        "undone": "Отменено: Раунд 1",
        "all_flee": "Персонажи победили; бегут все противники",
        "chart_rounds": ", 1 раунд",
        "dice": "к100",
        "other_dice": ("d100", "д100"),
        "lost_share": "Потеряно 69,4\u00a0% очков силы.",
    },
}


# Sections on screen whose every line is their heading: a card that says nothing.
EMPTY_CARDS = """() => [...document.querySelectorAll("#battle section.card")]
  .filter((s) => s.offsetParent !== null)
  .filter((s) => s.innerText.trim() === (s.querySelector("h2")?.innerText.trim() ?? ""))
  .map((s) => s.id || s.innerText.trim())"""


def no_empty_card(page: Page, when: str) -> None:
    page.wait_for_timeout(200)  # the working and the result painted
    assert page.evaluate(EMPTY_CARDS) == [], f"{when}: a card says nothing"


def visible_text(page: Page) -> str:
    return str(page.evaluate("document.querySelector('#battle').innerText"))


def test_every_card_and_the_bar_through_a_whole_battle_on_a_phone(tall_phone: Page) -> None:
    page, lang = tall_phone, tall_phone.lang  # type: ignore[attr-defined]
    words = WORDS[lang]
    # Set-up: S0 comes from the core as soon as the modifiers are saved, not only at Start.
    unit(page, "allies", "Ogre", 1, 56)
    unit(page, "enemies", "Orcs", 12, 26)
    expect(page.locator("#log")).to_contain_text(words["joins"])
    allies = side_card(page, "allies")
    expect(allies.locator('[data-bind="initial"]')).to_have_text("56")
    allies.locator("details.modifiers summary").click()
    allies.locator(".add-modifier").click()
    allies.locator('.modifier-row [data-name="name"]').fill("Walls")
    allies.locator('.modifier-row [data-name="percent"]').fill("10")
    submit(page, allies.locator(".modifiers-form"))
    expect(allies.locator('[data-bind="initial"]')).to_have_text("62")  # 56 × 1.1 = 61.6
    expect(side_card(page, "enemies").locator('[data-bind="initial"]')).to_have_text("26")
    # One language per heading.
    expect(page.locator("#casualties-title")).to_have_text(words["casualties"])
    expect(page.locator("#influence-title")).not_to_contain_text(
        "Influence of the battle" if lang == "ru" else "Влияние"
    )

    submit(page, page.locator("#start-form"))
    assert side_initial(page, "allies") == "62"
    bar = page.locator("#fight-bar")
    undo = bar.locator("#bar-undo")
    on_the_bar(page, undo, "the bar's Undo")
    buttons_fit(page, "the fight's bar")

    # A failed Leadership test typed in: no SL asked.
    bar.locator('[data-show="leader"]').click()
    leader = page.locator("#leader-form")
    leader.locator('input[value="enemies"]').check()
    leader.locator('input[name="success"]').uncheck()
    submit(page, leader)
    expect(page.locator("#leader-result .result-line").first).to_have_text(words["leader_failed"])
    # A passed one: its bonus waits for the next round, in view with both strengths at Round.
    leader.locator('input[value="allies"]').check()
    leader.locator('input[name="success"]').check()
    leader.locator('input[name="sl"]').fill("3")
    submit(page, leader)
    bar.locator('[data-show="round"]').click()
    page.wait_for_timeout(100)
    pending = allies.locator('[data-bind="pending"]')
    expect(pending).to_contain_text(words["pending"])
    for part, what in (
        (allies.locator('[data-bind="strength"]'), "the allies' strength"),
        (side_card(page, "enemies").locator('[data-bind="strength"]'), "the enemies' strength"),
        (pending, "the leader's bonus waiting"),
        (page.locator('#round-form button[type="submit"]'), "the round's button"),
    ):
        in_first_screen(page, part, f"after Round: {what}")

    round_form = page.locator("#round-form")
    round_form.locator('input[value="lost"]').check()
    round_form.locator('input[name="lost.allies"]').fill("10")
    round_form.locator('input[name="lost.enemies"]').fill("3")
    submit(page, round_form)
    # Undo from the bar, wherever the page is: its card below the header.
    page.locator("#log-panel").scroll_into_view_if_needed()
    on_the_bar(page, undo, "the bar's Undo, scrolled down")
    before = version(page)
    undo.click()
    page.wait_for_function("v => Number(document.documentElement.dataset.version) > v", arg=before)
    expect(page.locator("#start-result .result-line").first).to_contain_text(words["undone"])
    page.wait_for_timeout(100)
    top_in_view(page, page.locator("#start-result"), "Undo's card")
    assert box_top(page, "#start-result") >= sticky_bottom(page) - 0.5
    bar.locator('[data-show="round"]').click()
    round_form.locator('input[name="lost.allies"]').fill("10")
    round_form.locator('input[name="lost.enemies"]').fill("3")
    submit(page, round_form)

    # The PCs won, all the enemies flee: the end's card, no empty "Round 1" card.
    bar.locator('[data-show="end"]').click()
    pcs = page.locator("#pcs-won-form")
    pcs.locator('input[name="fleeing"]').fill("1")
    submit(page, pcs)
    expect(page.locator("#log")).to_contain_text(words["all_flee"])
    expect(page.locator("#end-result details.why")).to_be_visible()
    at_end = page.locator('#end-result li[data-rule="strengths_at_end"] code')
    expect(at_end).to_have_text(re.compile(r"^\d+ · \d+$"))  # the PCs decided, not "<"
    expect(page.locator("#round-panel")).to_be_hidden()
    no_empty_card(page, "after the PCs won")

    # After the end the bar offers Influence and Undo; Round, Leader and End are gone.
    expect(bar).to_be_visible()
    for gone in ("round", "leader", "end"):
        expect(bar.locator(f'[data-show="{gone}"]')).to_be_hidden()
    expect(undo).to_be_enabled()
    bar.locator('[data-show="influence"]').click()
    influence = page.locator("#influence-form")
    in_first_screen(page, influence.locator('button[type="submit"]'), "Influence's button")
    influence.locator('input[name="roll"]').fill("50")
    submit(page, influence)
    top_in_view(page, page.locator("#influence-card"), "the Influence card")
    expect(page.locator("#end-panel")).to_be_hidden()
    no_empty_card(page, "after Influence")
    buttons_fit(page, "after the end")

    # The chart keeps its end, and counts its rounds in the page's language.
    chart = page.locator("#strength-chart svg")
    expect(chart.locator(".end-label")).to_have_count(1)
    assert str(chart.get_attribute("aria-label")).endswith(words["chart_rounds"])

    # "d100" one way per language, on every card and label of the page.
    text = visible_text(page) + " ".join(page.locator("#battle label span").all_text_contents())
    assert words["dice"] in text
    for other in words["other_dice"]:
        assert other not in text, f"{lang}: {other} on the page"


def on_the_bar(page: Page, button: Locator, what: str) -> None:
    """A button of the bar in view: below the page's header, whole on the screen."""
    found = button.bounding_box()
    assert found is not None, what
    header = float(page.evaluate("document.querySelector('.top').getBoundingClientRect().bottom"))
    bottom = found["y"] + found["height"]
    assert header - 0.5 <= found["y"] and bottom <= TALL_PHONE["height"], f"{what}: {found}"


def box_top(page: Page, selector: str) -> float:
    found = page.locator(selector).bounding_box()
    assert found is not None
    return float(found["y"])


def test_casualties_only_marks_every_bad_field_and_hides_the_old_result(tall_phone: Page) -> None:
    page, lang = tall_phone, tall_phone.lang  # type: ignore[attr-defined]
    page.locator("#tab-quick").click()
    form = page.locator("#quick-form")
    form.locator('input[name="initial"]').fill("36")
    form.locator('input[name="remaining"]').fill("11")
    form.locator('[data-name="name"]').first.fill("Ogre")
    form.locator('[data-name="fighters"]').first.fill("1")
    form.locator('button[type="submit"]').click()
    expect(page.locator("#quick-share")).to_have_text(WORDS[lang]["lost_share"])
    expect(page.locator("#quick-bars .bar-item")).to_have_count(1)

    form.locator('input[name="initial"]').fill("0")
    form.locator('input[name="remaining"]').fill("-1")
    form.locator('[data-name="fighters"]').first.fill("x")
    form.locator('button[type="submit"]').click()
    for name in ("initial", "remaining", "units.0.fighters"):
        expect(form.locator(f'input[name="{name}"]')).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#quick-share")).to_have_text("")
    expect(page.locator("#quick-bars .bar-item")).to_have_count(0)


LIVE_WORDS = {
    "en": {"offline": "bridge", "stale": "Not connected to the bridge"},
    "ru": {"offline": "мост", "stale": "Нет связи с мостом"},
}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_connection_is_seen_by_the_round_and_a_stale_refusal_goes_when_it_is_back(
    lang: str, bridge: Bridge, browser: Browser
) -> None:
    words = LIVE_WORDS[lang]
    one_battle_fighting(bridge)
    context = tall_phone_context(browser, 60_000)
    page = open_live(context, f"{bridge.url}#token={GM_TOKEN}")
    wait_live(page)
    wait_version(page, 3)
    page.locator(f'button[data-lang="{lang}"]').click()
    line = page.locator("#round-live")
    page.locator('#fight-bar [data-show="round"]').click()
    expect(line).to_have_attribute("data-state", "live")
    in_first_screen(page, line, "the connection by the round")

    bridge.stop()
    page.wait_for_selector('html[data-live="offline"], html[data-live="reconnecting"]')
    expect(line).not_to_have_attribute("data-state", "live")
    expect(line).to_contain_text(re.compile(words["offline"], re.IGNORECASE))
    page.locator('#round-form button[type="submit"]').click()
    refusal = page.locator("#round-form .form-error")
    expect(refusal).to_contain_text(words["stale"])
    in_first_screen(page, line, "the connection by the round, offline")

    bridge.start()
    wait_live(page)
    expect(line).to_have_attribute("data-state", "live")
    expect(refusal).to_have_text("")
    context.close()
