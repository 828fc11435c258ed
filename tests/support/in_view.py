"""The one way the Firefox and WebKit drivers bring an element before the pointer, as Playwright's
actionability checks do for Chromium: scrolled into view at once (no smooth scroll), then waited
for until it stands still (the same box 20 ms apart) inside the viewport. Timers, not animation
frames: a tab that is not in front gets no frames at all; a hidden page is only scrolled. A
click aimed at an element the page is still moving (a notice appearing, a result growing above
it) lands elsewhere or outside the window ("move target out of bounds").

``STEADY_IN_VIEW`` is the JavaScript source of an async function of a CSS selector that returns
the element (throws when the page has none)."""

STEADY_IN_VIEW = """async (selector) => {
  const found = document.querySelector(selector);
  if (!found) throw new Error(`no ${selector} on the page`);
  const moment = () => new Promise((done) => setTimeout(done, 20));
  let last = "";
  for (let tries = 0; tries < 50; tries += 1) {
    found.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
    if (document.hidden) return found;
    await moment();
    const box = found.getBoundingClientRect();
    const now = [box.x, box.y, box.width, box.height].join();
    if (now === last && box.top >= 0 && box.bottom <= innerHeight) return found;
    last = now;
  }
  return found;
}"""
