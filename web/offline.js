// Offline: the page runs from this device's copy (the service worker's) while its server does
// not answer. Asked once the page is up, and again when the browser says the network changed:
// the build's `bridge.json` (never precached) is fetched past every cache.
export async function serverAnswers() {
  if (!location.protocol.startsWith("http")) return true;
  try {
    await fetch(new URL("bridge.json", location.href), { cache: "no-store" });
    return true; // any answer, even an error page, comes from a server
  } catch {
    return false;
  }
}

/** Keep `offline` in the state: true while the page's server cannot be reached. */
export function watchOffline(store) {
  const check = async () => {
    const offline = navigator.onLine === false || !(await serverAnswers());
    if (store.get().offline !== offline) store.set({ offline });
  };
  addEventListener("online", check);
  addEventListener("offline", () => store.set({ offline: true }));
  return check();
}
