"""Every view of a whole battle, in English and in Russian: no template text ({rolling_one},
{count}…) left anywhere on screen or in a label; the odds add up to 100 %; and the Russian page
holds no English word outside what is marked as English (`lang="en"`) but the allowed terms."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from conftest import open_page_in
from gm import dwarves_against_orcs, side_card, submit, unit
from playwright.sync_api import Browser, Page, expect
from static_server import StaticServer

TEMPLATE = re.compile(r"\{[A-Za-z_]+\}")
# What a Russian GM reads as it is: the rule's abbreviations, the language buttons, the file
# format; in the rules' formulas the functions (floor, min, max) and one-letter variables (S, f).
ALLOWED_LATIN = {"SL", "S0", "EN", "RU", "JSON", "floor", "min", "max"}
AS_IS = re.compile(r"d\d+|[A-Za-z]")  # dice (d10, d100), a variable

# Every text the page shows or tells a screen reader, with the language it is marked in
# (the nearest `lang`); the hidden parts included (a tab or a card shown later shows them).
TEXTS = """() => {
  const out = [];
  const langOf = (el) => el.closest("[lang]")?.getAttribute("lang") ?? "";
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest("script, style, noscript, template, code, [translate=no]")) continue;
    const text = node.textContent.trim();
    if (text) out.push([langOf(el), text, el.id || el.className || el.tagName]);
  }
  for (const el of document.querySelectorAll("[aria-label], [title], [placeholder], [alt]")) {
    if (el.closest("template")) continue;
    for (const name of ["aria-label", "title", "placeholder", "alt"]) {
      const value = el.getAttribute(name);
      if (value) out.push([langOf(el), value, `${el.id || el.tagName}@${name}`]);
    }
  }
  return out;
}"""


@pytest.fixture(params=["en", "ru"])
def lang_page(
    request: pytest.FixtureRequest, browser: Browser, server: StaticServer
) -> Iterator[Page]:
    locale = {"en": "en-US", "ru": "ru-RU"}[request.param]  # the new battle's name too
    context = browser.new_context(locale=locale, viewport={"width": 412, "height": 900})
    context.set_default_timeout(30_000)
    yield open_page_in(context, server.url, request.param)
    context.close()


def open_everything(page: Page) -> None:
    """Every fold open: the modifiers, the table, each "why?"."""
    page.evaluate("() => document.querySelectorAll('details').forEach((d) => (d.open = true))")
    page.wait_for_timeout(300)


def views_of_a_whole_battle(page: Page) -> Iterator[str]:
    """The battle played through its views; yields a name at each view to scan."""
    yield "a new battle"
    unit(page, "allies", "Гномы", 10, 30)
    unit(page, "enemies", "Орки", 12, 26)
    allies = side_card(page, "allies")
    allies.locator("details.modifiers").evaluate("(details) => (details.open = true)")
    allies.locator(".add-modifier").click()
    allies.locator('.modifier-row [data-name="name"]').fill("Стены")
    allies.locator('.modifier-row [data-name="percent"]').fill("20")
    submit(page, allies.locator(".modifiers-form"))
    yield "set up"
    submit(page, page.locator("#start-form"))
    submit(page, page.locator("#round-form"))  # rolled for the GM
    yield "a round"
    leader = page.locator("#leader-form")
    leader.locator('input[name="sl"]').fill("3")
    submit(page, leader)
    detach = page.locator("#detach-form")
    detach.locator('input[name="fighters"]').fill("1")
    submit(page, detach)
    page.locator("#odds-form button").click()
    expect(page.locator("#odds-result .odds-chart")).to_be_visible(timeout=60_000)
    yield "the odds"
    influence = page.locator("#influence-form")
    influence.locator('input[name="roll"]').fill("40")
    submit(page, influence)
    yield "an Influence roll"
    submit(page, page.locator("#undo-form"))
    yield "undone"
    submit(page, page.locator("#redo-form"))
    yield "redone"
    won = page.locator("#pcs-won-form")
    won.locator('input[name="fleeing"]').fill("1/2")
    submit(page, won)
    submit(page, influence)
    yield "the end"
    page.locator("#tab-quick").click()
    quick = page.locator("#quick-form")
    quick.locator('input[name="initial"]').fill("30")
    quick.locator('input[name="remaining"]').fill("18")
    quick.locator('[data-name="name"]').first.fill("Гномы")
    quick.locator('[data-name="fighters"]').first.fill("10")
    quick.locator('button[type="submit"]').click()
    expect(page.locator("#quick-bars .bar-item")).to_have_count(1)
    yield "casualties only"
    page.locator("#tab-rules").click()
    yield "the rules"
    page.locator("#tab-battle").click()


def test_no_template_text_in_any_view_of_a_whole_battle(lang_page: Page) -> None:
    page, lang = lang_page, lang_page.lang  # type: ignore[attr-defined]
    for view in views_of_a_whole_battle(page):
        open_everything(page)
        found = [(where, text) for _, text, where in page.evaluate(TEXTS) if TEMPLATE.search(text)]
        assert found == [], f"{lang}, {view}: template text left"
        if view == "the odds":
            shares = page.locator("#odds-result .odds-legend b").all_inner_texts()
            # Written the page's language's way: "69.4%", «69,4 %» (a no-break space before %).
            way = r"^\d+(,\d)?\u00a0%$" if lang == "ru" else r"^\d+(\.\d)?%$"
            assert all(re.match(way, share) for share in shares), shares
            percents = [float(share.rstrip("%\u00a0").replace(",", ".")) for share in shares]
            assert round(sum(percents), 1) == 100.0, shares


def test_the_russian_page_holds_no_english_word_but_the_allowed_terms(lang_page: Page) -> None:
    page = lang_page
    if page.lang != "ru":  # type: ignore[attr-defined]
        pytest.skip("the Russian page only")
    english: set[tuple[str, str]] = set()
    for _view in views_of_a_whole_battle(page):
        open_everything(page)
        for lang, text, where in page.evaluate(TEXTS):
            if lang != "ru":
                continue
            for word in re.findall(r"[A-Za-z][A-Za-z0-9]*", text):
                if word not in ALLOWED_LATIN and not AS_IS.fullmatch(word):
                    english.add((where, word))
    assert sorted(english) == [], "; ".join(f"{w}: {x}" for w, x in sorted(english))


def test_the_influence_table_is_read_for_the_winner_once_the_battle_ends(page: Page) -> None:
    dwarves_against_orcs(page)
    end = page.locator("#end-form")
    end.locator('select[name="winner"]').select_option("enemies")
    submit(page, end)
    form = page.locator("#influence-form")
    expect(form.get_by_label("Enemies")).to_be_checked()  # "Roll for": the winner
    page.locator("#influence-table summary").click()
    table = page.locator("#influence-table table")
    expect(table.locator("caption")).to_contain_text("read for a roll by the enemies")
    expect(table).to_contain_text("foe of the PCs")  # {rolling_one}, for the enemies
    assert not TEMPLATE.search(table.inner_text())
    # The GM's choice then: the table follows it.
    form.get_by_label("Allies").check()
    expect(table.locator("caption")).to_contain_text("read for a roll by the allies")
