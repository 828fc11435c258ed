/**
 * "Bridge connection (GM)": the GM-only menu of the settings window (registerMenu with
 * `restricted: true`), where a GM enters the GM token. The token is a client setting kept in
 * this browser; players never see the field.
 */
import { ID, SETTINGS } from "./constants.mjs";
import { esc, t } from "./i18n.mjs";

/** The menu's application class (made on `init`, when Foundry's classes exist). */
export function gmTokenMenu() {
  return class GmTokenMenu extends foundry.applications.api.ApplicationV2 {
    static DEFAULT_OPTIONS = {
      id: `${ID}-gm-menu`,
      classes: [ID],
      tag: "section",
      window: { title: "BACKGROUND_BATTLE.GmMenu.Name", icon: "fa-solid fa-key" },
      position: { width: 420, height: "auto" },
      actions: { save: GmTokenMenu.#save },
    };

    async _renderHTML() {
      const token = game.settings.get(ID, SETTINGS.GM_TOKEN);
      return (
        `<p class="hint">${esc(t("Settings.GmToken.Hint"))}</p>` +
        `<label>${esc(t("Settings.GmToken.Name"))} ` +
        `<input type="password" name="gmToken" autocomplete="off" value="${esc(token)}"></label>` +
        `<button type="button" data-action="save">${esc(t("GmMenu.Save"))}</button>`
      );
    }

    _replaceHTML(result, content) {
      content.innerHTML = result;
    }

    static async #save() {
      const value = this.element.querySelector('[name="gmToken"]').value.trim();
      await game.settings.set(ID, SETTINGS.GM_TOKEN, value);
      await this.close();
    }
  };
}
