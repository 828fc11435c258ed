// game.settings (foundryvtt.com/api/v13/classes/foundry.helpers.ClientSettings.html) and the
// settings window (.../foundry.applications.settings.SettingsConfig.html):
// - register(namespace, key, config): scope "world", "client" or "user"; `restricted` is not a
//   setting's option (only a menu's), so it hides nothing;
// - registerMenu(namespace, key, {restricted}): a restricted menu is shown to GMs only;
// - set: a world setting needs a GM; it is stored by the server and its onChange runs on every
//   client; a client setting stays in this browser and its onChange runs here only;
// - ClientSettings#storage: "The storage interfaces used for persisting settings. Each storage
//   interface shares the same API as window.localStorage": a client setting is kept in this
//   browser's localStorage (by "namespace.key"), so a reload of the page keeps it (the query's
//   values stand for what the browser held before);
// - the settings window shows a user the `config: true` settings of scope client and user, and
//   the world ones only to a GM (who may change them).
import { record, refuse } from "./record.js";

const SCOPES = ["world", "client", "user"];

export function makeSettings({ stored, server, user, validNamespace }) {
  const registered = new Map();
  const menus = new Map();

  function configOf(namespace, key) {
    const full = `${namespace}.${key}`;
    if (!registered.has(full)) refuse(`setting ${full} is not registered`);
    return [full, registered.get(full)];
  }

  function checkType(full, config, value) {
    const ok =
      config.type === Boolean
        ? typeof value === "boolean"
        : config.type === Number
          ? typeof value === "number" && Number.isFinite(value)
          : config.type === String
            ? typeof value === "string"
            : true;
    if (!ok) refuse(`setting ${full}: expected a ${config.type?.name}, got ${JSON.stringify(value)}`);
  }

  server.onSetting = (full, value) => {
    stored.set(full, value);
    registered.get(full)?.onChange?.(value);
  };

  return {
    register(namespace, key, config) {
      if (!validNamespace(namespace)) refuse(`settings namespace "${namespace}" is not an active package`);
      if (!SCOPES.includes(config.scope ?? "client"))
        refuse(`setting ${namespace}.${key}: scope must be one of ${SCOPES}`);
      registered.set(`${namespace}.${key}`, { scope: "client", ...config });
    },
    registerMenu(namespace, key, config) {
      if (!validNamespace(namespace)) refuse(`settings namespace "${namespace}" is not an active package`);
      if (typeof config.type !== "function") refuse(`menu ${namespace}.${key}: type must be an application class`);
      menus.set(`${namespace}.${key}`, config);
    },
    get(namespace, key) {
      const [full, config] = configOf(namespace, key);
      const kept = config.scope === "client" ? window.localStorage.getItem(full) : null;
      const value = kept !== null ? JSON.parse(kept) : stored.get(full);
      return value === null || value === undefined ? config.default : value;
    },
    async set(namespace, key, value) {
      const [full, config] = configOf(namespace, key);
      checkType(full, config, value);
      if (config.scope === "world" && !user().isGM) {
        refuse(`${user().name} may not change the world setting ${full}`);
      }
      record.settingsSet.push({ key: full, value });
      if (config.scope === "world") await server.setWorld(full, value);
      else {
        window.localStorage.setItem(full, JSON.stringify(value));
        config.onChange?.(value);
      }
      return value;
    },
    /** What the settings window lists for this user: settings and menus, by key. */
    window() {
      const isGM = user().isGM;
      const settings = [...registered]
        .filter(([, c]) => c.config && (c.scope !== "world" || isGM))
        .map(([full, c]) => ({ key: full, scope: c.scope, name: game.i18n.localize(c.name ?? "") }));
      const shownMenus = [...menus]
        .filter(([, m]) => !m.restricted || isGM)
        .map(([full, m]) => ({ key: full, menu: true, name: game.i18n.localize(m.name ?? "") }));
      return [...shownMenus, ...settings];
    },
    /** Opens a menu's application, as its button in the settings window does. */
    openMenu(full) {
      const menu = menus.get(full);
      if (!menu || (menu.restricted && !user().isGM)) refuse(`no menu ${full} for this user`);
      const App = menu.type;
      return new App().render({ force: true });
    },
  };
}
