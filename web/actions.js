// Actions: a command from a form goes to the state's source (the local core or the bridge), one
// at a time; a refusal is shown next to each field at fault, a success becomes the shown result.
import { clearErrors, showError } from "./forms.js";
import { redoAfter } from "./redo.js";
import { shownView } from "./state.js";

/**
 * `apply(command, form, extra)`: resolves with {ok, error?} (never rejects). `extra` goes into
 * the shown result (`redone`: the command is Redo's; `saved`: entries saved just before it).
 */
export function actions(store, sources, timings) {
  let chain = Promise.resolve();

  function apply(command, form, extra = {}) {
    const run = chain.then(async () => {
      const started = performance.now();
      const sent = store.get();
      const before = shownView(sent);
      const source = sent.mode === "live" ? sources.live : sources.local;
      const reply = await source.send(command);
      clearErrors(form);
      if (!reply.ok) {
        // Every bad field's error, as the core found them all in one check (the first first).
        for (const error of [...(reply.error.others || [])].reverse()) showError(form, error);
        showError(form, reply.error); // last: the first bad field gets the focus
        return reply;
      }
      timings.push(performance.now() - started);
      const entry = shownView(store.get()).log.length - 1; // the entry this command added
      store.set((state) => ({
        result: { command, form: form.id, entry, before, ...extra },
        redo: redoAfter(sent, command, Boolean(extra.redone), state),
      }));
      return reply;
    });
    chain = run.catch(() => {});
    return run;
  }

  return { apply };
}
