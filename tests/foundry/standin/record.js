// What the stand-in records for the tests: every write the module makes, every notice, every
// error a real Foundry would have shown. Shared by the stand-in's files.

export const record = {
  updates: [], // every Scene#updateEmbeddedDocuments call: {type, updates}
  conditions: [], // every condition call: {actor, call, id, active?, value?}
  effects: [], // every ActiveEffect created or deleted on an actor: {actor, op, status}
  chat: [], // ChatMessage.create data as stored (whisper as user ids)
  notices: [], // {level, text}
  settingsSet: [], // game.settings.set calls
  renderErrors: [], // ApplicationV2 renders that threw (the window closed)
  enriched: [], // TextEditor.enrichHTML calls
  socket: { sent: [], received: [] }, // game.socket traffic of this client
  errors: [], // calls a real Foundry refuses, with the reason
  deprecations: [], // deprecation warnings a real Foundry of this generation logs (generations.js)
};

/** Reports what a real Foundry would show as an error; the tests fail on any of these. */
export function report(message) {
  record.errors.push(message);
  console.error(`stand-in: ${message}`);
}

/** Notes a call that real Foundry (or the real system) refuses, then throws its error. */
export function refuse(message) {
  report(message);
  throw new Error(message);
}
