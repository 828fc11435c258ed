/** Console log with the module's prefix; debug and info lines only when the debug setting is
 * on; warnings and errors always. */
import { ID } from "./constants.mjs";

let debugOn = false;

export function setDebug(on) {
  debugOn = Boolean(on);
}

export const log = {
  debug: (...args) => {
    if (debugOn) console.debug(`${ID} |`, ...args);
  },
  info: (...args) => {
    if (debugOn) console.info(`${ID} |`, ...args);
  },
  warn: (...args) => console.warn(`${ID} |`, ...args),
  error: (...args) => console.error(`${ID} |`, ...args),
};
