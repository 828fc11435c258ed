"""Battles kept on this device: a list to open, rename and delete; share links ask first."""

from __future__ import annotations

from gm import acted, casualties_of, click_and_wait, dwarves_against_orcs, set_strength, version
from playwright.sync_api import Dialog, Page, expect


def fought_battle(page: Page, name: str) -> None:
    dwarves_against_orcs(page)
    set_strength(page, "allies", 18)
    rename(page, name)


def rename(page: Page, name: str) -> None:
    form = page.locator("#rename-form")
    form.locator('input[name="name"]').fill(name)
    click_and_wait(page, form.get_by_role("button", name="Rename"))


def answer(page: Page, reply: bool | str) -> list[str]:
    """Answer the next dialog (confirm or prompt); returns its message once it has come."""
    asked: list[str] = []

    def handle(dialog: Dialog) -> None:
        asked.append(dialog.message)
        if reply is False:
            dialog.dismiss()
        else:
            dialog.accept(reply if isinstance(reply, str) else "")

    page.once("dialog", handle)
    return asked


def shelf(page: Page) -> list[str]:
    return [text.split(" · ")[0] for text in page.locator("#shelf .shelf-name").all_inner_texts()]


def test_new_battle_keeps_the_old_one_which_opens_renames_and_deletes(page: Page) -> None:
    fought_battle(page, "Karak Hirn")
    asked = answer(page, True)
    before = version(page)
    page.get_by_role("button", name="New battle").click()
    acted(page, before)
    assert "stays in the list" in asked[0]
    expect(page.locator("#share-output")).to_have_text(
        "A new battle. «Karak Hirn» is in the list of battles on this device."
    )
    expect(page.locator("#shelf .shelf-item")).to_have_count(2)
    assert shelf(page) == ["battle", "Karak Hirn"]
    expect(page.locator("#shelf .shelf-item.open")).to_contain_text("open now")
    expect(page.locator("#shelf .shelf-item").nth(1)).to_contain_text("fighting · 5 changes")

    # Opened again: the same battle, the same numbers; the empty new one was not worth keeping.
    page.get_by_role("button", name="Open «Karak Hirn»").click()
    expect(page.locator("#battle-name")).to_have_text("Karak Hirn")
    assert casualties_of(page, "Dwarves") == {"killed": 2, "wounded": 4, "fit": 4}
    expect(page.locator("#shelf-output")).to_have_text("«Karak Hirn» is open.")
    assert shelf(page) == ["Karak Hirn"]

    # Another battle; the first one goes back on the list, renamed there, kept over a reload.
    answer(page, True)
    before = version(page)
    page.get_by_role("button", name="New battle").click()
    acted(page, before)
    asked = answer(page, "Karak Hirn, day 2")
    page.get_by_role("button", name="Rename «Karak Hirn»").click()
    expect(page.locator("#shelf-output")).to_have_text("Renamed: «Karak Hirn, day 2».")
    assert asked == ["New name"]
    page.reload()
    page.wait_for_selector('html[data-ready="true"]')
    assert shelf(page) == ["battle", "Karak Hirn, day 2"]
    # Deleted, after a question; a "no" keeps it.
    answer(page, False)
    page.get_by_role("button", name="Delete «Karak Hirn, day 2»").click()
    assert shelf(page) == ["battle", "Karak Hirn, day 2"]
    asked = answer(page, True)
    page.get_by_role("button", name="Delete «Karak Hirn, day 2»").click()
    expect(page.locator("#shelf .shelf-item")).to_have_count(1)
    assert asked == ["Delete «Karak Hirn, day 2» from this device? This cannot be undone."]
    assert page.page_errors == []  # type: ignore[attr-defined]


def test_a_share_link_pasted_into_the_open_tab_asks_before_replacing(page: Page) -> None:
    fought_battle(page, "Ambush")
    page.get_by_role("button", name="Copy a share link").click()
    link = page.locator("#share-link").get_attribute("href") or ""
    fragment = link.split("#", 1)[1]
    rename(page, "Ambush, later")  # the open battle has moved on since the link was made

    # Pasted into the address bar of this tab (hashchange): asked; "no" only lists it.
    asked = answer(page, False)
    page.evaluate("fragment => { location.hash = fragment; }", fragment)
    expect(page.locator("#share-output")).to_have_text(
        "The shared battle «Ambush» is in the list of battles on this device; yours stays open."
    )
    assert "Open the shared battle «Ambush» now?" in asked[0]
    expect(page.locator("#battle-name")).to_have_text("Ambush, later")
    assert shelf(page) == ["Ambush, later", "Ambush"]
    assert "#b=" not in page.url

    # Again, and "yes": it opens, and the open battle goes on the list.
    answer(page, True)
    page.evaluate("fragment => { location.hash = fragment; }", fragment)
    expect(page.locator("#share-output")).to_have_text(
        "Battle loaded from the link; «Ambush, later» is in the list of battles on this device."
    )
    expect(page.locator("#battle-name")).to_have_text("Ambush")
    assert shelf(page) == ["Ambush", "Ambush, later"]  # listed once: the open one
    assert page.page_errors == []  # type: ignore[attr-defined]
