// ApplicationV2 as far as the module uses it (foundryvtt.com/api/v13/classes/
// foundry.applications.api.ApplicationV2.html): DEFAULT_OPTIONS merged with the constructor's,
// render({force}) (a window not yet rendered renders only when forced), the subclass hooks
// _prepareContext, _renderHTML, _replaceHTML, _onRender, _onClose, and `actions` called with the
// application as `this` and (event, target). A render that throws rejects the promise render()
// returns and closes the window, as in Foundry; the stand-in also records it so a test fails.
import { record, report } from "./record.js";

export const instances = new Map();

export class ApplicationV2 {
  static DEFAULT_OPTIONS = {};
  #element = null;
  #content = null;
  #rendered = false;
  #queue = Promise.resolve();

  constructor(options = {}) {
    const defaults = this.constructor.DEFAULT_OPTIONS ?? {};
    this.options = { ...defaults, ...options, window: { ...defaults.window, ...options.window } };
  }
  get id() {
    return this.options.id;
  }
  get element() {
    return this.#element;
  }
  get rendered() {
    return this.#rendered;
  }
  get window() {
    return { title: game.i18n.localize(this.options.window?.title ?? "") };
  }
  /** Renders in order; a failed render closes the window and rejects with the error. */
  render(options = {}) {
    if (typeof options === "boolean") options = { force: options };
    const run = this.#queue.then(() => this.#render(options));
    this.#queue = run.catch(() => undefined);
    return run.then(
      () => this,
      async (error) => {
        record.renderErrors.push(String(error?.stack ?? error));
        report(`${this.constructor.name} failed to render: ${error?.message ?? error}`);
        await this.close();
        throw error;
      },
    );
  }
  async #render(options) {
    if (!this.#rendered && !options.force) return;
    const context = await this._prepareContext(options);
    const result = await this._renderHTML(context, options);
    if (!this.#element) {
      const frame = document.createElement(this.options.tag ?? "div");
      frame.id = this.id;
      frame.className = ["application", ...(this.options.classes ?? [])].join(" ");
      const title = document.createElement("h1");
      title.textContent = this.window.title;
      const header = document.createElement("header");
      header.className = "window-header";
      header.append(title);
      this.#content = document.createElement("div");
      this.#content.className = "window-content";
      frame.append(header, this.#content);
      frame.addEventListener("click", (event) => this.#onClick(event, frame));
      frame.addEventListener("submit", (event) => event.preventDefault());
      document.getElementById("ui").append(frame);
      this.#element = frame;
      instances.set(this.id, this);
    }
    this._replaceHTML(result, this.#content, options);
    this.#rendered = true;
    await this._onRender(context, options);
  }
  #onClick(event, frame) {
    const target = event.target.closest("[data-action]");
    if (!target || !frame.contains(target)) return;
    const handler = this.options.actions?.[target.dataset.action];
    if (handler) handler.call(this, event, target);
  }
  async close(options = {}) {
    if (!this.#element) return this;
    this.#element.remove();
    this.#element = null;
    this.#rendered = false;
    instances.delete(this.id);
    this._onClose(options);
    return this;
  }
  async _prepareContext() {
    return {};
  }
  async _renderHTML() {
    throw new Error(`${this.constructor.name} must implement _renderHTML`);
  }
  _replaceHTML() {
    throw new Error(`${this.constructor.name} must implement _replaceHTML`);
  }
  async _onRender() {}
  _onClose() {}
}
