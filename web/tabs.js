// The Battle / Casualties-only tabs, as the WAI-ARIA tabs pattern has them: one tab in the Tab
// order (the selected one), arrow keys move between tabs and select (Home / End: first / last).

/** Wire every [role=tablist] under root. */
export function wireTabs(root = document) {
  for (const list of root.querySelectorAll('[role="tablist"]')) {
    const tabs = [...list.querySelectorAll('[role="tab"]')];
    const select = (tab) => {
      for (const other of tabs) {
        const selected = other === tab;
        other.setAttribute("aria-selected", String(selected));
        other.tabIndex = selected ? 0 : -1;
        document.getElementById(other.getAttribute("aria-controls")).hidden = !selected;
      }
    };
    for (const tab of tabs) {
      tab.addEventListener("click", () => select(tab));
      tab.addEventListener("keydown", (event) => {
        const at = tabs.indexOf(tab);
        const next = {
          ArrowRight: tabs[(at + 1) % tabs.length],
          ArrowLeft: tabs[(at - 1 + tabs.length) % tabs.length],
          Home: tabs[0],
          End: tabs[tabs.length - 1],
        }[event.key];
        if (!next) return;
        event.preventDefault();
        next.focus();
        next.click(); // selects it, and tells whoever listens for the tab being shown
      });
    }
    select(tabs.find((tab) => tab.getAttribute("aria-selected") === "true") || tabs[0]);
  }
}
