"""Issue 27, 1: the page reads the shared table of typed numbers (tests/support/typed-numbers.json)
as the core and the Foundry panel do. Each text is typed into the page's real field, the page's
own form reading builds the command (commands.js), and the core in Pyodide applies it to a
battle in progress: the value it keeps, or its refusal naming the field, is the table's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parents[2]
TABLE = json.loads((ROOT / "tests" / "support" / "typed-numbers.json").read_text("utf-8"))["rows"]

# The field of each command in the page: its form, the input's name, and where the core keeps it.
FORMS = {
    "pcs_won.fleeing": ("#pcs-won-form", "fleeing"),
    "set_strength.strength": ("#strength-form", "strength"),
    "resolve_round.rolls.allies": ("#round-form", "rolls.allies"),
    "leader_command.sl": ("#leader-form", "sl"),
}

READ_ALL = """
async ([rows, forms]) => {
  const { BUILDERS } = await import("./commands.js");
  const core = window.backgroundBattle;
  let battle = (await core.request({ op: "new_battle", name: "typed" })).battle;
  for (const command of [
    { type: "add_unit", name: "Dwarves", side: "allies", fighters: 10, strength: 30 },
    { type: "add_unit", name: "Orcs", side: "enemies", fighters: 12, strength: 26 },
    { type: "start" },
  ]) {
    battle = (await core.request({ op: "apply", battle, command })).battle;
  }
  const out = [];
  for (const [field, text] of rows) {
    const [selector, name] = forms[field];
    const form = document.querySelector(selector);
    const input = form.elements.namedItem(name);
    input.value = text;
    // the page's own reading of the form, as a click on its button would send it
    if (field === "resolve_round.rolls.allies") {
      form.elements.namedItem("mode").value = "rolls";
      form.elements.namedItem("rolls.enemies").value = "50";
    }
    if (field === "leader_command.sl") form.elements.namedItem("how").value = "sl";
    const command = BUILDERS[form.dataset.command](form);
    if (field === "set_strength.strength") command.side = "allies";
    if (field === "leader_command.sl") {
      command.side = "allies";
      command.success = !(typeof command.sl === "number" && command.sl < 0);
    }
    input.value = "";
    const key = field.split(".").slice(1);
    const given = key.reduce((at, part) => (at === undefined ? undefined : at[part]), command);
    if (given === undefined) {
      out.push({ blank: true });
      continue;
    }
    const reply = await core.request({ op: "apply", battle, command });
    if (!reply.ok) {
      out.push({ refused: reply.error.code, field: reply.error.field });
      continue;
    }
    const kept = reply.battle.log.at(-1).command;
    out.push({ read: key.reduce((at, part) => at[part], kept) });
  }
  return out;
}
"""


def typed(row: dict[str, Any]) -> str:
    char, count = row.get("then", ["", 0])
    return str(row["typed"] + char * count + row.get("end", ""))


def test_the_page_reads_every_typed_number_as_the_core_and_the_panel_do(page: Page) -> None:
    rows = [(row["field"], typed(row)) for row in TABLE]
    got = page.evaluate(READ_ALL, [rows, FORMS])
    wrong = []
    for row, (field, text), seen in zip(TABLE, rows, got, strict=True):
        expected = {key: row[key] for key in ("read", "refused", "blank") if key in row}
        if "refused" in expected:
            expected["field"] = field.split(".", 1)[1]
        if seen != expected:
            wrong.append((field, text[:40], seen, expected))
    assert not wrong, wrong
    assert page.page_errors == []  # type: ignore[attr-defined]
