// Chat HTML as Foundry may keep it: cleaned against CONST.ALLOWED_HTML_TAGS (api v13 and v14
// `variables/CONST.ALLOWED_HTML_TAGS.html`, the same list in both; no `svg`). The stand-in
// cleans every chat message's content, the strictest case: an element of a tag not in the
// list goes, with what it holds.
export const ALLOWED_HTML_TAGS = Object.freeze([
  "header", "main", "section", "article", "aside", "nav", "footer", "div", "address", "h1", "h2",
  "h3", "h4", "h5", "h6", "hr", "br", "p", "blockquote", "summary", "details", "span", "code",
  "pre", "a", "label", "abbr", "cite", "mark", "q", "ruby", "rp", "rt", "small", "time", "var",
  "kbd", "samp", "dfn", "sub", "sup", "strong", "em", "b", "i", "u", "s", "del", "ins", "ol", "ul",
  "li", "dl", "dd", "dt", "menu", "table", "thead", "tbody", "tfoot", "tr", "th", "td", "col",
  "colgroup", "form", "input", "select", "option", "button", "datalist", "fieldset", "legend",
  "meter", "optgroup", "progress", "textarea", "output", "figure", "figcaption", "caption", "img",
  "video", "map", "area", "track", "picture", "source", "audio", "iframe", "color-picker",
  "code-mirror", "document-embed", "document-tags", "enriched-content", "file-picker",
  "hue-slider", "multi-select", "multi-checkbox", "range-picker", "secret-block", "string-tags",
  "prose-mirror",
]);

const allowed = new Set(ALLOWED_HTML_TAGS);

/** The content with every element of a tag not allowed taken out (unchanged when it has none). */
export function cleanChatHtml(html) {
  const template = document.createElement("template");
  template.innerHTML = html;
  const out = [...template.content.querySelectorAll("*")].filter((element) => !allowed.has(element.localName));
  if (!out.length) return html;
  for (const element of out) element.remove();
  return template.innerHTML;
}
