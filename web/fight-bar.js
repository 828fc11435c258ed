// The fight on a phone: a bar of the battle's controls (round, leader, adjust, end, more), one
// group shown at a time under it (style.css hides the others below 760 px; wider, all stay).
const battle = () => document.querySelector("#battle");

let chosen = "round"; // kept while the page lives: a reply never moves the GM elsewhere

/** Show one group of the bar: `round`, `leader`, `adjust`, `end` or `more`. */
export function showFightGroup(group) {
  chosen = group;
  paintFightBar(document.documentElement.dataset.phase);
}

/** The bar as the battle's phase has it: only while fighting. */
export function paintFightBar(phase) {
  const root = battle();
  if (phase === "fighting") root.dataset.fightShown = chosen;
  else delete root.dataset.fightShown;
  for (const button of document.querySelectorAll("#fight-bar [data-show]")) {
    button.setAttribute("aria-expanded", String(button.dataset.show === chosen));
  }
}

export function wireFightBar() {
  for (const button of document.querySelectorAll("#fight-bar [data-show]")) {
    button.addEventListener("click", () => {
      showFightGroup(button.dataset.show);
      const first = document.getElementById(button.getAttribute("aria-controls"));
      first?.scrollIntoView({ block: "nearest" });
    });
  }
}
