/**
 * "Bridge connection (GM)": the GM-only menu of the settings window (registerMenu with
 * `restricted: true`). A GM connects this Foundry to the bridge by a code (pairing.mjs): press
 * *Connect to the bridge*, read the code the bridge shows in its terminal, type it here; the
 * bridge then gives the GM token (a client setting, kept in this browser) and the player token
 * (the world's), and allows this Foundry's address from then on. Pasting the GM token by hand
 * works too. Players never see the menu.
 */
import { ID, SETTINGS } from "./constants.mjs";
import { esc, t } from "./i18n.mjs";
import { typedCode } from "./logic/pair-address.mjs";
import { askToPair } from "./pairing.mjs";

/** The menu's application class (made on `init`, when Foundry's classes exist). */
export function gmTokenMenu() {
  return class GmTokenMenu extends foundry.applications.api.ApplicationV2 {
    static DEFAULT_OPTIONS = {
      id: `${ID}-gm-menu`,
      classes: [ID],
      tag: "section",
      window: { title: "BACKGROUND_BATTLE.GmMenu.Name", icon: "fa-solid fa-key" },
      position: { width: 420, height: "auto" },
      actions: { save: GmTokenMenu.#save, pair: GmTokenMenu.#pair, sendCode: GmTokenMenu.#sendCode },
    };

    /** The attempt under way ({send, close}), or null. */
    attempt = null;

    async _renderHTML() {
      const token = game.settings.get(ID, SETTINGS.GM_TOKEN);
      return (
        `<p class="hint">${esc(t("GmMenu.PairHint"))}</p>` +
        `<button type="button" data-action="pair">${esc(t("GmMenu.Pair"))}</button>` +
        `<div class="bb-pair-code" hidden><label>${esc(t("GmMenu.Code"))} ` +
        `<input type="text" name="pairCode" inputmode="numeric" autocomplete="one-time-code" ` +
        `maxlength="16"></label>` +
        `<button type="button" data-action="sendCode">${esc(t("GmMenu.SendCode"))}</button></div>` +
        `<p class="bb-pair-said" role="status" aria-live="polite"></p>` +
        `<hr><p class="hint">${esc(t("Settings.GmToken.Hint"))}</p>` +
        `<label>${esc(t("Settings.GmToken.Name"))} ` +
        `<input type="password" name="gmToken" autocomplete="off" value="${esc(token)}"></label>` +
        `<button type="button" data-action="save">${esc(t("GmMenu.Save"))}</button>`
      );
    }

    _replaceHTML(result, content) {
      content.innerHTML = result;
      content.querySelector('[name="pairCode"]').addEventListener("keydown", (event) => {
        if (event.key !== "Enter") return;
        event.preventDefault();
        GmTokenMenu.#sendCode.call(this);
      });
    }

    _onClose(options) {
      this.attempt?.close();
      this.attempt = null;
      super._onClose?.(options);
    }

    /** Says what happened, under the button that caused it. */
    #say(text) {
      this.element.querySelector(".bb-pair-said").textContent = text;
    }

    #codeBox(shown) {
      const box = this.element.querySelector(".bb-pair-code");
      box.hidden = !shown;
      if (shown) box.querySelector("input").focus();
    }

    static #pair() {
      this.attempt?.close();
      const url = game.settings.get(ID, SETTINGS.URL);
      this.#say(t("GmMenu.Asking", { url }));
      this.attempt = askToPair(url, {
        asked: ({ origin }) => {
          this.#codeBox(true);
          this.#say(t("GmMenu.Asked", { origin }));
        },
        refused: ({ reason, tries_left: left }) => {
          if (reason !== "wrong_code") {
            this.#codeBox(false);
            this.attempt = null;
          }
          const key = ["wrong_code", "too_many_tries", "expired", "busy"].includes(reason) ? reason : "other";
          this.#say(t(`GmMenu.Refused.${key}`, { left }));
        },
        paired: async ({ gm_token: gm, player_token: player }) => {
          this.attempt = null;
          this.#codeBox(false);
          await game.settings.set(ID, SETTINGS.GM_TOKEN, gm);
          await game.settings.set(ID, SETTINGS.PLAYER_TOKEN, player);
          this.element.querySelector('[name="gmToken"]').value = gm;
          this.#say(t("GmMenu.Paired"));
        },
        unreachable: () => {
          this.attempt = null;
          this.#codeBox(false);
          this.#say(t("GmMenu.Unreachable", { url }));
        },
      });
    }

    static #sendCode() {
      const input = this.element.querySelector('[name="pairCode"]');
      const code = typedCode(input.value);
      if (!code || !this.attempt) return;
      this.attempt.send(code);
      input.value = "";
    }

    static async #save() {
      const value = this.element.querySelector('[name="gmToken"]').value.trim();
      await game.settings.set(ID, SETTINGS.GM_TOKEN, value);
      await this.close();
    }
  };
}
