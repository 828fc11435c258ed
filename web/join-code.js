// Players join by scanning: the player link as a QR code on the GM's live page (qrcode-generator,
// pinned in package.json and vendored by web/build.py into vendor/; no CDN).
import { t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const QUIET = 4; // modules of light border around the code, as the QR standard asks

/** The link a player opens: this page, the player token in the fragment (never sent to a server). */
export const playerLink = (token) => `${location.origin}${location.pathname}#token=${encodeURIComponent(token)}`;

/** An <svg> QR code of `text` (byte mode, error correction L), dark modules on white. */
export async function qrSvg(text, label) {
  const { default: qrcode } = await import("./vendor/qrcode.js"); // loaded only in live mode
  const qr = qrcode(0, "L");
  qr.addData(text, "Byte");
  qr.make();
  const count = qr.getModuleCount();
  const size = count + 2 * QUIET;
  let path = "";
  for (let row = 0; row < count; row += 1) {
    for (let col = 0; col < count; col += 1) {
      if (qr.isDark(row, col)) path += `M${col + QUIET},${row + QUIET}h1v1h-1z`;
    }
  }
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
  svg.setAttribute("shape-rendering", "crispEdges");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  svg.classList.add("qr");
  const light = document.createElementNS(SVG, "rect");
  light.setAttribute("width", String(size));
  light.setAttribute("height", String(size));
  light.setAttribute("fill", "#fff");
  const dark = document.createElementNS(SVG, "path");
  dark.setAttribute("d", path);
  dark.setAttribute("fill", "#000");
  svg.append(light, dark);
  return svg;
}

const LOOPBACK = /^(127\.|localhost$|\[::1\]$)/;

/** Fill the GM's "players join" box with the player link's code, or empty it (no token). */
export async function paintJoinCode(box, token) {
  box.hidden = !token;
  const code = box.querySelector(".qr-holder");
  const link = token ? playerLink(token) : "";
  const label = link && t("live.join_code", { link });
  if (box.dataset.label === label) return; // painted already (paintLive runs at every change)
  box.dataset.label = label;
  let svg = null;
  try {
    svg = link ? await qrSvg(link, label) : null;
  } catch {
    svg = null; // the library did not load: the link alone still serves
  }
  if (box.dataset.label !== label) return; // a newer call painted meanwhile
  code.replaceChildren(...(svg ? [svg] : []));
  const anchor = box.querySelector("a");
  anchor.href = link || "./";
  anchor.textContent = link;
  // A loopback address opens this machine only: the phones need the local-network one.
  box.querySelector(".join-loopback").hidden = !link || !LOOPBACK.test(location.hostname);
}
