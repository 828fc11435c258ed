// The battle log in words (the client's log lines, client/log-lines.mjs) in the page's language.
import { logLines } from "./client/log-lines.mjs";
import { t, term } from "./i18n.js";

/** The lines that tell what one log entry did. */
export const { describeEntry } = logLines({ t, term });
