"""A phone's first screen: where the sticky header (and the fight bar under it) ends, and
whether a part of the page is in the viewport below them (helpers for the browser tests)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, BrowserContext, Locator, Page

TALL_PHONE = {"width": 360, "height": 740}


def tall_phone_context(browser: Browser, timeout_ms: int = 30_000) -> BrowserContext:
    """A phone 360×740 with touch, its browser in English (a test picks the page's language)."""
    context = browser.new_context(locale="en-US", viewport=TALL_PHONE, has_touch=True)
    context.set_default_timeout(timeout_ms)
    return context


STICKY_BOTTOM = """() => {
  let bottom = document.querySelector(".top").getBoundingClientRect().bottom;
  const bar = document.querySelector("#fight-bar");
  const sticky = getComputedStyle(bar).position === "sticky";
  const stuck = sticky && bar.getBoundingClientRect().top <= bottom + 1;
  if (stuck) bottom = Math.max(bottom, bar.getBoundingClientRect().bottom);
  return bottom;
}"""


def sticky_bottom(page: Page) -> float:
    """Where what stays on top of the page ends, in the viewport: the header, and the fight bar
    when it is stuck under it."""
    return float(page.evaluate(STICKY_BOTTOM))


def box(locator: Locator) -> dict[str, Any]:
    found = locator.bounding_box()
    assert found is not None, f"{locator} is not on screen"
    return dict(found)


def in_first_screen(page: Page, locator: Locator, what: str) -> None:
    """The part is whole in the viewport, below the header and the bar (sub-pixel slack)."""
    found = box(locator)
    top, height = sticky_bottom(page), page.viewport_size["height"]  # type: ignore[index]
    assert found["y"] >= top - 0.5, f"{what}: its top {found['y']} is under the header ({top})"
    assert found["y"] + found["height"] <= height + 0.5, f"{what}: {found} is below the fold"


def top_in_view(page: Page, locator: Locator, what: str) -> None:
    """A card's top (its headline) is in the viewport, below the header and the bar."""
    found = box(locator)
    top, height = sticky_bottom(page), page.viewport_size["height"]  # type: ignore[index]
    assert top - 0.5 <= found["y"] < height - 20, f"{what}: top {found['y']}, header {top}"


# Buttons (and the segmented choices) whose words do not fit: a word is never broken inside
# (style.css), so a word too long for its button would stick out of it.
CRAMPED = """() => [...document.querySelectorAll("button, .button, .segmented label")]
  .filter((el) => el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1)
  .map((el) => el.textContent.trim())"""


def buttons_fit(page: Page, what: str) -> None:
    assert page.evaluate(CRAMPED) == [], f"{what}: a button's words stick out"
