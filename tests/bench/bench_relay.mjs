// Benchmark of the players' relay (foundry-module/scripts/relay.mjs, relay-host.mjs): bytes the
// active GM's client emits on Foundry's module socket per battle event, with 1, 5 and 20
// relayed players.
// The player view is the same for every player, so the goal is a constant: 20 players at most
// 1.2x one player. Baseline, measured in the same run: the bridge's event frame itself (the
// least one delivery can cost); one emit per player, as the relay did before, would be
// `players` × that.
//
// The module's real relay runs in Node on stand-ins for the few Foundry globals it touches
// (game.socket, game.settings, game.user, Hooks) and for the bridge's WebSocket, which answers
// hello, subscribe and pushes one `event` per battle step to every connection watching the
// battle, in the protocol's shapes (docs/protocol.md). Bounded: fixed sizes and repetitions.
const EVENTS = 50;
const PLAYER_COUNTS = [1, 5, 20];

let emitted = 0;
let onSocket = null;
const sockets = new Set();

/** The bridge as far as the players' eye sees it (player token). */
class BridgeSocket {
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.watching = new Set();
    sockets.add(this);
    queueMicrotask(() => {
      this.readyState = 1;
      this.onopen?.();
    });
  }
  send(text) {
    const frame = JSON.parse(text);
    const id = frame.id !== undefined ? { id: frame.id } : {};
    if (frame.type === "hello") {
      this.deliver({
        type: "welcome",
        role: "player",
        client: "foundry",
        battles: [{ name: "ambush", version: 3, status: "fighting", archived: false }],
        limits: { rate: 20, burst: 40 },
      });
    } else if (frame.type === "subscribe") {
      this.watching.add(frame.battle);
      this.deliver({
        type: "state",
        ...id,
        battle: frame.battle,
        version: 3,
        archived: false,
        log_from: 0,
        view: view(3),
      });
    } else if (frame.type === "unsubscribe") {
      this.watching.delete(frame.battle);
      this.deliver({ type: "unsubscribed", ...id, battle: frame.battle });
    }
  }
  close() {
    this.readyState = 3;
    sockets.delete(this);
  }
  deliver(frame) {
    queueMicrotask(() => this.onmessage?.({ data: JSON.stringify(frame) }));
  }
}

/** A battle's player view at a version: two sides, six units, the enemies' numbers hidden. */
function view(version) {
  const unit = (i, side) => ({
    id: `u${i}`,
    name: side === "allies" ? `Dwarf Ironbreakers ${i}` : `Orc Boyz ${i}`,
    side,
    fighters: side === "allies" ? 10 + i : null,
    strength: side === "allies" ? 30 + i : null,
    casualties: null,
    redacted: side === "allies" ? [] : ["fighters", "strength", "detached", "casualties"],
  });
  return {
    name: "ambush",
    version,
    status: "fighting",
    round: version - 2,
    sides: {
      allies: { units_strength: 99, strength: 90 - version, initial: 99, pending_bonus: 0, redacted: [] },
      enemies: {
        units_strength: null,
        strength: null,
        redacted: ["units_strength", "modifiers", "initial", "strength", "pending_bonus", "lost_share"],
      },
    },
    units: [1, 2, 3].map((i) => unit(i, "allies")).concat([4, 5, 6].map((i) => unit(i, "enemies"))),
  };
}

function eventFrame(version) {
  return {
    type: "event",
    battle: "ambush",
    version,
    command: { type: "resolve_round", mode: "rolls", rolls: { allies: 40, enemies: 60 } },
    events: [
      {
        type: "round_resolved",
        round: version - 2,
        winner: "allies",
        lost: { allies: 1, enemies: null },
        strength: { allies: 90 - version, enemies: null },
        redacted: ["targets.enemies", "rolls.enemies", "sl.enemies", "strength.enemies"],
      },
    ],
    view: view(version),
  };
}

const settle = async () => {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 0));
};

Object.assign(globalThis, {
  WebSocket: BridgeSocket,
  Hooks: { on() {} },
  game: {
    user: { id: "gm1", isGM: true },
    settings: { get: (scope, key) => ({ bridgeUrl: "ws://127.0.0.1:8765/ws", playerToken: "player-token" })[key] },
    socket: {
      on: (channel, listener) => {
        onSocket = listener;
      },
      emit: (channel, message) => {
        emitted += Buffer.byteLength(JSON.stringify(message));
      },
    },
  },
});

/** Bytes the GM's client emits per event with `players` relayed players watching the battle. */
async function bytesPerEvent(players, firstVersion) {
  for (let i = 0; i < players; i++) {
    const session = `player${i}-bench-${firstVersion}`;
    onSocket({ kind: "open", session, from: `player${i}`, to: null });
    await settle();
    onSocket({
      kind: "frame",
      session,
      from: `player${i}`,
      to: null,
      frame: { type: "hello", token: "", client: "foundry", battle: "ambush" },
    });
  }
  await settle();
  emitted = 0;
  for (let n = 0; n < EVENTS; n++) {
    const frame = JSON.stringify(eventFrame(firstVersion + n));
    // the bridge pushes the event to every connection of the player token watching the battle
    for (const socket of sockets) if (socket.watching.has("ambush")) socket.onmessage?.({ data: frame });
  }
  await settle();
  const perEvent = emitted / EVENTS;
  for (let i = 0; i < players; i++) {
    onSocket({ kind: "close", session: `player${i}-bench-${firstVersion}`, from: `player${i}`, to: null });
  }
  await settle();
  return perEvent;
}

console.log("foundry relay: players  gm_bytes/event  frame_bytes  gm/frame  vs_1_player");
try {
  const { startRelay } = await import("../../foundry-module/scripts/relay.mjs");
  const { PlayerEye } = await import("../../foundry-module/scripts/player-eye.mjs");
  const { MessageHandlers } = await import("../../foundry-module/scripts/message-handlers.mjs");
  const { BridgeClient } = await import("../../foundry-module/client/bridge-client.mjs");
  // the active GM's players' eye (app.mjs `openEye`): the shared client on the player token
  const client = new BridgeClient({
    url: "ws://127.0.0.1:8765/ws",
    token: "player-token",
    createSocket: (url) => new BridgeSocket(url),
    timers: { setTimeout, clearTimeout },
  });
  const eye = new PlayerEye(client);
  const messages = new MessageHandlers();
  messages.attach(client);
  eye.start();
  startRelay(() => true, { eye: () => eye, messages });
  const frameBytes = Buffer.byteLength(JSON.stringify(eventFrame(10)));
  const measured = new Map();
  let version = 10;
  for (const players of PLAYER_COUNTS) {
    measured.set(players, await bytesPerEvent(players, version));
    version += EVENTS;
    const bytes = measured.get(players);
    console.log(
      `foundry relay: ${String(players).padStart(7)}  ${bytes.toFixed(0).padStart(14)}  ${String(frameBytes).padStart(11)}  ${(bytes / frameBytes).toFixed(2).padStart(8)}  ${(bytes / measured.get(1)).toFixed(2).padStart(11)}`,
    );
  }
  const ratio = measured.get(20) / measured.get(1);
  console.log(`foundry relay: 20 players vs 1: ${ratio.toFixed(2)}x the bytes per event (goal at most 1.2x)`);
} catch (error) {
  console.log(`not measured: the relay — ${error?.name ?? "Error"}: ${String(error?.message ?? error).split("\n")[0]}`);
}
