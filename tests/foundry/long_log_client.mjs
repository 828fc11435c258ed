// The module's bridge client against a real bridge, in Node: watches one battle until its state is
// whole, then prints it with the log pages it asked for (tests/foundry/test_long_log.py).
//   node --experimental-websocket tests/foundry/long_log_client.mjs <ws url> <token> <battle>
import { BridgeClient } from "../../foundry-module/client/bridge-client.mjs";

const [url, token, battle] = process.argv.slice(2);
const client = new BridgeClient({
  url,
  token,
  createSocket: (address) => new WebSocket(address),
  timers: { setTimeout, clearTimeout },
  page: { protocol: "http:", hostname: "127.0.0.1" },
});
const pages = [];
setTimeout(() => {
  console.error(`no whole state in 20 s; status ${JSON.stringify(client.status)}`);
  process.exit(2);
}, 20_000).unref();
client.on("message", (message) => {
  if (message.type === "log_page") pages.push([message.since_version, message.until_version]);
  if (message.type === "error") console.error(JSON.stringify(message));
  if (message.type !== "state" || message.battle !== battle) return;
  const state = client.states.get(battle);
  console.log(JSON.stringify({ announced: message.log_from, version: state.version, log: state.view.log, pages }));
  client.stop();
});
client.watch(battle);
client.start();
