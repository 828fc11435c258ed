// RollTable and TableResult (foundryvtt.com/api/v13/classes/foundry.documents.RollTable.html,
// .../TableResult.html), TextEditor.enrichHTML (.../foundry.applications.ux.TextEditor.html)
// and ChatMessage.create (.../foundry.documents.ChatMessage.html), as the module uses them.
import { Collection } from "./documents.js";
import { record, refuse } from "./record.js";
import { cleanChatHtml } from "./chat-html.js";

const RESULT_TYPES = ["text", "document"]; // CONST.TABLE_RESULT_TYPES in v13

/**
 * TableResult: `name` (plain text), `description` (HTML), `range` [low, high], `drawn` (set once
 * drawn from a table without replacement). v13 has no `text` field any more.
 */
export class TableResult {
  constructor(parent, id, data) {
    if (!RESULT_TYPES.includes(data.type ?? "text")) refuse(`TableResult: type must be one of ${RESULT_TYPES}`);
    const range = data.range;
    if (!Array.isArray(range) || range.length !== 2 || !range.every(Number.isInteger) || range[0] > range[1]) {
      refuse(`TableResult: range must be [low, high] whole numbers, got ${JSON.stringify(range)}`);
    }
    Object.assign(this, { parent, id, type: "text", name: "", description: "", weight: 1, drawn: false });
    for (const key of ["type", "name", "description", "weight", "range", "drawn", "img", "documentUuid"]) {
      if (key in data) this[key] = structuredClone(data[key]);
    }
  }
}

export class RollTable {
  constructor(data) {
    this.id = data._id ?? `rt${game.tables.size + 1}`;
    this.name = data.name;
    this.formula = data.formula;
    this.replacement = data.replacement ?? true;
    this.results = new Collection((data.results ?? []).map((r, i) => [`r${i}`, new TableResult(this, `r${i}`, r)]));
  }
  get uuid() {
    return `RollTable.${this.id}`;
  }
  static async create(data) {
    if (typeof data?.name !== "string" || !data.name) refuse("RollTable: name must be a non-empty string");
    const table = new RollTable(data);
    game.tables.set(table.id, table);
    return table;
  }
  /** RollTable#getResultsForRoll(value): the results whose range holds the value and that are
   * not drawn (a result drawn without replacement is skipped until the table is reset). */
  getResultsForRoll(value) {
    return this.results.filter((r) => !r.drawn && r.range[0] <= value && value <= r.range[1]);
  }
}

/** TextEditor.implementation.enrichHTML(content, options): resolves to the enriched HTML;
 * here `@UUID[uuid]{label}` becomes a content link, the rest of the HTML stays as it is. */
export const TextEditor = {
  get implementation() {
    return TextEditor;
  },
  async enrichHTML(content, options = {}) {
    record.enriched.push({ content, options: Object.keys(options) });
    return String(content ?? "").replace(
      /@UUID\[([^\]]+)\]\{([^}]*)\}/g,
      (m, uuid, label) => `<a class="content-link" data-uuid="${uuid}">${label}</a>`,
    );
  },
};

/**
 * ChatMessage.create(data): `whisper` is stored as user ids (a User document given is stored as
 * its id; anything else is refused), `content` as HTML.
 */
export class ChatMessage {
  static async create(data) {
    const stored = structuredClone({ ...data, whisper: [] });
    for (const who of data.whisper ?? []) {
      const id = typeof who === "string" ? who : who?.documentName === "User" ? who.id : null;
      if (!id || !game.users.has(id))
        refuse(`ChatMessage: whisper must hold users or user ids, got ${JSON.stringify(who)}`);
      stored.whisper.push(id);
    }
    if (typeof stored.content !== "string") refuse("ChatMessage: content must be a string of HTML");
    stored.content = cleanChatHtml(stored.content);
    record.chat.push(stored);
    return stored; // standin-panel.js sends it to the world's server
  }
  /** ChatMessage.getWhisperRecipients("GM"): the GM users. */
  static getWhisperRecipients(name) {
    return String(name).toUpperCase() === "GM"
      ? game.users.filter((u) => u.isGM)
      : game.users.filter((u) => u.name === name);
  }
}
