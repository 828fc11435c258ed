"""The seed's worked examples, typed in as a GM would and read back from the page."""

from __future__ import annotations

import json
from pathlib import Path

from gm import (
    acted,
    add_unit,
    casualties_of,
    click_and_wait,
    dwarves_against_orcs,
    saved_battle,
    set_strength,
    side_card,
    side_initial,
    side_strength,
    start,
    version,
)
from playwright.sync_api import Page, expect

from background_battle.api import handle


def test_dwarves_who_lost_12_of_30_strength_have_2_killed_4_wounded_4_fit(page: Page) -> None:
    dwarves_against_orcs(page)
    set_strength(page, "allies", 18)

    assert side_strength(page, "allies") == "18"
    assert casualties_of(page, "Dwarves") == {"killed": 2, "wounded": 4, "fit": 4}


def test_two_units_with_a_25_percent_modifier_split_the_losses_as_the_seed_says(
    page: Page,
) -> None:
    add_unit(page, "allies", "Spearmen", 10, strength=20)
    add_unit(page, "allies", "Halberdiers", 20, strength=60)
    card = side_card(page, "allies")
    card.locator("details.modifiers summary").click()
    card.get_by_role("button", name="Add a modifier").click()
    card.get_by_label("Modifier", exact=True).fill("Fortified camp")
    card.locator('input[name="modifiers.0.percent"]').fill("25")
    click_and_wait(page, card.get_by_role("button", name="Save the modifiers"))
    add_unit(page, "enemies", "Beastmen", 30, strength=90)
    start(page)

    assert side_initial(page, "allies") == "100"
    set_strength(page, "allies", 40)
    assert casualties_of(page, "Spearmen") == {"killed": 3, "wounded": 6, "fit": 1}
    assert casualties_of(page, "Halberdiers") == {"killed": 6, "wounded": 12, "fit": 2}


def test_the_orc_leaders_waaagh_with_7_sl_gives_6_and_32_for_the_next_test(page: Page) -> None:
    dwarves_against_orcs(page, strength=24)
    form = page.locator("#leader-form")
    form.get_by_label("Enemies").check()
    form.locator('input[name="sl"]').fill("7")
    click_and_wait(page, form.get_by_role("button", name="Give the command"))

    expect(side_card(page, "enemies").locator('[data-bind="pending"]')).to_have_text("+6 next test")
    expect(page.locator("#log li").first).to_contain_text("+6, 32 for the next test")


def test_pcs_win_half_the_orcs_flee_and_the_dwarves_drop_from_24_to_18(page: Page) -> None:
    dwarves_against_orcs(page, strength=24)
    form = page.locator("#pcs-won-form")
    form.get_by_label("Share of the enemies who flee").fill("1/2")
    click_and_wait(page, form.get_by_role("button", name="The PCs won"))

    assert side_strength(page, "allies") == "18"
    expect(page.locator("#battle-winner")).to_contain_text("The allies won")
    # After the battle the winner rolls d100 + 50 + its strength on the Influence table.
    influence = page.locator("#influence-form")
    influence.get_by_label("d100").fill("40")
    click_and_wait(page, influence.get_by_role("button", name="Roll on the Influence table"))
    expect(page.locator("#influence-result .big-line")).to_have_text("Allies: d100 40 + 68 = 108")
    expect(page.locator('#influence-result [data-bind="effect"]')).not_to_be_empty()
    # Where +68 comes from: 50 + the winner's strength, worked out by the core.
    card = page.locator("#influence-card")
    card.get_by_text("why?").click()
    expect(card.locator(".working li")).to_contain_text(["50 + 18 = 68", "40 + 68 = 108"])


def test_a_rating_and_a_size_give_the_strength_the_core_computes(page: Page) -> None:
    form = side_card(page, "allies").locator("form.add-unit")
    form.get_by_label("Name").fill("Ogres")
    form.get_by_label("Fighters").fill("4")
    form.get_by_label("rating × size").check()
    form.get_by_label("Rating per fighter").fill("5")
    form.locator('select[name="size"]').select_option("large")
    expected = handle({"op": "unit_strength", "fighters": 4, "rating": 5, "size": "large"})
    expect(form.locator('[data-bind="rated"]')).to_have_text(f"= strength {expected['strength']}")
    click_and_wait(page, form.get_by_role("button", name="Add the unit"))
    expect(side_card(page, "allies").locator(".unit")).to_contain_text(
        f"strength {expected['strength']}"
    )


def test_rolls_typed_in_give_the_same_round_as_the_core_in_cpython(page: Page) -> None:
    dwarves_against_orcs(page)
    form = page.locator("#round-form")
    form.get_by_label("Rolls typed in").check()
    form.locator('input[name="rolls.allies"]').fill("12")
    form.locator('input[name="rolls.enemies"]').fill("71")
    battle_before = saved_battle(page)
    click_and_wait(page, form.get_by_role("button", name="Resolve the round"))

    reply = handle(
        {
            "op": "apply",
            "battle": battle_before,
            "command": {
                "type": "resolve_round",
                "mode": "rolls",
                "rolls": {"allies": 12, "enemies": 71},
            },
        }
    )
    assert reply["ok"], reply
    sides = reply["view"]["sides"]
    assert side_strength(page, "allies") == str(sides["allies"]["strength"])
    assert side_strength(page, "enemies") == str(sides["enemies"]["strength"])
    assert saved_battle(page) == reply["battle"]


def test_undo_takes_back_the_last_command_and_marks_it_in_the_log(page: Page) -> None:
    dwarves_against_orcs(page)
    set_strength(page, "allies", 18)
    assert casualties_of(page, "Dwarves") == {"killed": 2, "wounded": 4, "fit": 4}

    click_and_wait(page, page.get_by_role("button", name="Undo"))

    assert side_strength(page, "allies") == "30"
    assert casualties_of(page, "Dwarves") == {"killed": 0, "wounded": 0, "fit": 10}
    expect(page.locator("#log li.undone")).to_have_count(1)
    expect(page.locator("#log li.undone")).to_contain_text("set to 18")


def test_the_quick_calculator_counts_casualties_without_a_battle(page: Page) -> None:
    page.get_by_role("tab", name="Casualties only").click()
    form = page.locator("#quick-form")
    form.get_by_label("Initial strength").fill("30")
    form.get_by_label("Strength left").fill("18")
    form.get_by_label("Name").fill("Dwarves")
    form.get_by_label("Fighters").fill("10")
    form.get_by_role("button", name="Count").click()

    expect(page.locator("#quick-share")).to_have_text("Lost 40% of the strength.")
    assert casualties_of(page, "Dwarves", "#quick-bars") == {"killed": 2, "wounded": 4, "fit": 4}


def test_the_odds_come_from_the_cores_simulation(page: Page) -> None:
    dwarves_against_orcs(page)
    before = version(page)
    page.get_by_role("button", name="Simulate the rest of the battle").click()
    chart = page.locator("#odds-result .odds-chart")
    expect(chart).to_be_visible(timeout=60_000)
    shares = [
        float(page.locator(f'#odds-result [data-bind="{key}"]').get_attribute("data-value") or "")
        for key in ("allies_win", "enemies_win", "unfinished")
    ]
    assert abs(sum(shares) - 1) < 1e-9
    assert shares[0] > shares[1]  # 30 against 26: the dwarves are favoured
    expect(page.locator("#odds-result .bars .bar-item")).to_have_count(2)
    assert version(page) == before  # simulating changes nothing


def test_a_battle_ends_when_a_sides_strength_reaches_zero(page: Page) -> None:
    dwarves_against_orcs(page)
    form = page.locator("#round-form")
    form.get_by_label("Strength lost").check()
    form.locator('input[name="lost.allies"]').fill("0")
    form.locator('input[name="lost.enemies"]').fill("26")
    before = version(page)
    form.get_by_role("button", name="Resolve the round").click()
    acted(page, before)
    expect(page.locator("#battle-winner")).to_contain_text("The allies won")
    assert casualties_of(page, "Orcs") == {"killed": 6, "wounded": 6, "fit": 0}


def test_a_gms_own_influence_table_replaces_the_house_one(page: Page, tmp_path: Path) -> None:
    dwarves_against_orcs(page)
    page.locator("#influence-table summary").click()
    band = {"min": None, "max": 50, "effect": {"en": "Bad luck", "ru": "Неудача"}}
    ours = {
        "name": {"en": "Our table", "ru": "Наша таблица"},
        "bands": [band, {"min": 51, "max": None, "effect": {"en": "Good luck", "ru": "Удача"}}],
    }
    table_file = tmp_path / "table.json"
    table_file.write_text(json.dumps(ours))
    before = version(page)
    page.locator("#table-file").set_input_files(str(table_file))
    acted(page, before)
    expect(page.locator("#influence-table caption")).to_have_text(
        "Our table — read for a roll by the allies"
    )

    influence = page.locator("#influence-form")
    influence.get_by_label("d100").fill("40")
    click_and_wait(page, influence.get_by_role("button", name="Roll on the Influence table"))
    # during the fight the modifier is this side's strength minus the other's: 30 - 26
    expect(page.locator("#influence-result .big-line")).to_have_text("Allies: d100 40 + 4 = 44")
    expect(page.locator('#influence-result [data-bind="effect"]')).to_have_text("≤ 50: Bad luck")

    gap = {**ours, "bands": [band, {"min": 60, "max": None, "effect": {"en": "Good luck"}}]}
    table_file.write_text(json.dumps(gap))
    before = version(page)
    page.locator("#table-file").set_input_files(str(table_file))
    expect(page.locator("#table-form .form-error")).to_contain_text("not a valid Influence table")
    assert version(page) == before
    click_and_wait(page, page.get_by_role("button", name="Back to the house table"))
    expect(page.locator("#influence-table caption")).not_to_have_text("Our table")


def test_a_unit_typed_wrong_is_edited_in_place_before_the_start(page: Page) -> None:
    add_unit(page, "allies", "Dwarfs", 10, strength=30)
    units = side_card(page, "allies").locator(".unit")
    units.get_by_role("button", name="Edit Dwarfs").click()
    form = side_card(page, "allies").locator("form.add-unit")
    expect(form.get_by_label("Fighters")).to_have_value("10")
    form.get_by_label("Name").fill("Dwarves")
    form.get_by_label("Fighters").fill("12")
    click_and_wait(page, form.get_by_role("button", name="Save the unit"))

    expect(units).to_have_count(1)
    expect(units).to_contain_text("Dwarves")
    expect(units).to_contain_text("12 fighters · strength 30")
    expect(form.get_by_role("button", name="Add the unit")).to_be_visible()
    expect(form.get_by_label("Name")).to_have_value("")
