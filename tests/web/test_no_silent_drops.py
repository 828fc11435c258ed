"""Nothing typed is lost: on every form of the battle the GM types and does not save, then does
something else; what was typed is still there, or Start saved it (visibly), or the page asked."""

from __future__ import annotations

from gm import (
    acted,
    add_unit,
    click_and_wait,
    dwarves_against_orcs,
    side_card,
    side_initial,
    version,
)
from playwright.sync_api import Page, expect


def values(page: Page, fields: dict[str, str]) -> dict[str, str]:
    return {selector: page.locator(selector).input_value() for selector in fields}


def test_start_saves_the_set_ups_forms_typed_and_not_saved(page: Page) -> None:
    # The enemies' modifiers typed first; adding a unit meanwhile leaves the rows as typed.
    enemies = side_card(page, "enemies")
    enemies.locator("details.modifiers summary").click()
    enemies.get_by_role("button", name="Add a modifier").click()
    enemies.locator('.modifier-row [data-name="name"]').fill("Hill")
    enemies.locator('.modifier-row [data-name="flat"]').fill("4")
    add_unit(page, "enemies", "Orcs", 12, strength=26)
    expect(enemies.locator('.modifier-row [data-name="name"]')).to_have_value("Hill")
    # A unit typed into the allies' form, never added; a new name typed, not applied.
    allies = side_card(page, "allies").locator("form.add-unit")
    allies.get_by_label("Name").fill("Dwarves")
    allies.get_by_label("Fighters").fill("10")
    allies.locator('input[name="strength"]').fill("30")
    page.locator('#rename-form input[name="name"]').fill("Karak Hirn")

    before = version(page)
    page.get_by_role("button", name="Start the battle").click()
    page.wait_for_function(
        "v => Number(document.documentElement.dataset.version) === v + 3", arg=before
    )

    expect(page.locator("#battle-phase")).to_have_text("fighting")
    expect(side_card(page, "allies").locator(".unit-name")).to_have_text(["Dwarves"])
    assert side_initial(page, "allies") == "30"
    assert side_initial(page, "enemies") == "30"  # 26 + 4
    expect(page.locator("#round-result .result-line")).to_contain_text(
        [
            "The battle begins",
            "Saved before the start: Dwarves join the Allies: 10 fighters, strength 30",
            "Saved before the start: Modifiers of the Enemies: Hill +4",
        ]
    )
    expect(page.locator('#rename-form input[name="name"]')).to_have_value("Karak Hirn")


def test_a_half_typed_unit_stops_the_start_next_to_its_field(page: Page) -> None:
    add_unit(page, "allies", "Dwarves", 10, strength=30)
    add_unit(page, "enemies", "Orcs", 12, strength=26)
    form = side_card(page, "allies").locator("form.add-unit")
    form.get_by_label("Name").fill("Scouts")

    page.get_by_role("button", name="Start the battle").click()

    expect(form.locator('input[name="fighters"]')).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#battle-phase")).to_have_attribute("data-phase", "setup")
    expect(form.get_by_label("Name")).to_have_value("Scouts")


def test_editing_a_unit_asks_before_replacing_one_typed_in(page: Page) -> None:
    add_unit(page, "allies", "Dwarves", 10, strength=30)
    form = side_card(page, "allies").locator("form.add-unit")
    form.get_by_label("Name").fill("Scouts")
    asked: list[str] = []

    def answer(dialog, accept: bool) -> None:  # type: ignore[no-untyped-def]
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", lambda dialog: answer(dialog, False))
    page.get_by_role("button", name="Edit Dwarves").click()
    expect(form.get_by_label("Name")).to_have_value("Scouts")
    page.once("dialog", lambda dialog: answer(dialog, True))
    page.get_by_role("button", name="Edit Dwarves").click()
    expect(form.get_by_label("Name")).to_have_value("Dwarves")
    assert (
        asked
        == ["This form holds a unit typed in but not added. Put the chosen unit in its place?"] * 2
    )


FIGHTING_FORMS = {
    '#round-form input[name="rolls.allies"]': "12",
    '#leader-form input[name="sl"]': "3",
    '#strength-form input[name="strength"]': "20",
    '#pcs-won-form input[name="fleeing"]': "1/2",
    '#influence-form input[name="roll"]': "40",
    '#rename-form input[name="name"]': "Night at the ford",
}


def test_what_is_typed_in_the_fights_forms_outlives_the_other_commands(page: Page) -> None:
    dwarves_against_orcs(page)
    page.locator("#round-form").get_by_label("Rolls typed in").check()
    for selector, typed in FIGHTING_FORMS.items():
        page.locator(selector).fill(typed)

    # Another form's command (fighters moved), then Undo and Redo: nothing typed is touched.
    detach = page.locator("#detach-form")
    detach.get_by_label("Fighters").fill("2")
    click_and_wait(page, detach.get_by_role("button", name="Move them"))
    assert values(page, FIGHTING_FORMS) == FIGHTING_FORMS
    click_and_wait(page, page.get_by_role("button", name="Undo"))
    click_and_wait(page, page.get_by_role("button", name="Redo"))
    assert values(page, FIGHTING_FORMS) == FIGHTING_FORMS
    before = version(page)
    page.locator("#strength-form").get_by_role("button", name="Set the strength").click()
    acted(page, before)
    others = {k: v for k, v in FIGHTING_FORMS.items() if not k.startswith("#strength-form")}
    assert values(page, others) == others
