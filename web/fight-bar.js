// The fight on a phone: a bar of the battle's controls (round, leader, adjust, end, more; after
// the end Influence; Undo always) that stays under the header while the battle runs and after it;
// a tap brings that card up under the bar. Round brings up both strengths (and a leader's bonus
// waiting for the test) with the round's controls under them: the numbers the round is fought on.
// Wider than 760 px the cards stand in columns and the bar is not shown (style.css).

export function wireFightBar() {
  for (const button of document.querySelectorAll("#fight-bar [data-show]")) {
    button.addEventListener("click", () => {
      const card = document.getElementById(button.getAttribute("aria-controls"));
      const top = button.dataset.show === "round" ? document.querySelector(".sides") : card;
      top?.scrollIntoView({ block: "start" });
      card?.querySelector("input:not([type=radio]), select, button[type=submit]")?.focus({ preventScroll: true });
    });
  }
}
