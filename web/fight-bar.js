// The fight on a phone: a bar of the battle's controls (round, leader, adjust, end, more) that
// stays under the header while the battle runs; a tap brings that card up under the bar.
// Wider than 760 px the cards stand in columns and the bar is not shown (style.css).

export function wireFightBar() {
  for (const button of document.querySelectorAll("#fight-bar [data-show]")) {
    button.addEventListener("click", () => {
      const card = document.getElementById(button.getAttribute("aria-controls"));
      card?.scrollIntoView({ block: "start" });
      card?.querySelector("input:not([type=radio]), select, button[type=submit]")?.focus({ preventScroll: true });
    });
  }
}
