/**
 * The relay between a player's browser and the bridge, through Foundry's module socket: what a
 * message holds and what the active GM's browser lets through. Pure: never touches Foundry
 * globals.
 *
 * A player's panel has no address or token of its own: its bridge client talks to a
 * socket-like object (relay.mjs) whose frames travel as Foundry socket messages to the active
 * GM's browser, which relays them on its ONE bridge connection with the player token (the
 * players' eye, player-eye.mjs, which also feeds the public cards). The bridge itself then gives that connection the player view
 * (hidden numbers as null, no Foundry data); the GM view never leaves the GM's browser. The
 * player view is the same for every player, so what the bridge pushes (a battle's `event`, a
 * new list of `battles`) crosses Foundry's socket once, to every player, whatever their
 * number; an answer to one player's request (its `id` carries the session) goes to that player.
 *
 * A message: {kind, session, from, to, frame?, code?}
 * - player → GM: kind "open" (a new session), "frame" (a frame for the bridge), "close";
 *   `to` is null: whichever GM is active answers.
 * - GM → player: kind "opened", "frame" (a frame from the bridge), "closed" (with `code`);
 *   `to` is the player's user id; a frame for every player has `to` EVERYONE ("*");
 *   "hosting" (to everyone, `to` null): the active GM's browser has just started relaying.
 */

/** The frames a relayed player may send: reading only (docs/protocol.md, "Client → bridge"). */
export const PLAYER_FRAMES = Object.freeze(["hello", "subscribe", "unsubscribe", "list_battles", "log_page", "ping"]);

/** What the bridge pushes to a player connection unasked (no `id`): a battle's `event`, a new
 * list of `battles` (docs/protocol.md). The relay passes these on to every player; the answers to
 * the eye's own requests (its `state`s, `events`, `unsubscribed`) are for nobody else. */
export const PUSHED = Object.freeze(["event", "battles"]);

/** What begins the id of a relayed player's request on the eye's connection. */
const RELAYED = "relayed~";

/** `to` of a frame pushed to every relayed player at once. */
export const EVERYONE = "*";

/** Close code when the relay cannot serve (no player token set, bridge address unusable). */
export const RELAY_UNAVAILABLE = 4100;

const KINDS = ["open", "frame", "close", "opened", "closed", "hosting"];

/**
 * A socket message if it is one of the relay's, else null (anything else on the module's
 * channel is not for the relay).
 *
 * @example
 * relayMessage({kind: "open", session: "s1", from: "player1", to: null}).kind // "open"
 * relayMessage({kind: "dance"}) // null
 */
export function relayMessage(data) {
  if (data === null || typeof data !== "object" || !KINDS.includes(data.kind)) return null;
  if (typeof data.session !== "string" || !data.session || typeof data.from !== "string") return null;
  return data;
}

/**
 * What the GM's browser sends the bridge for a player's frame: a `hello` gets the player token
 * (whatever the player wrote); a frame that would change anything is refused with the bridge's
 * own error shape, so the player's client reads it like any refusal.
 *
 * @example
 * forwardFrame({type: "hello", token: "", client: "foundry"}, "p-token")
 * // {send: {type: "hello", token: "p-token", client: "foundry"}}
 * forwardFrame({type: "command", id: "c1"}, "p-token").reply.code // "forbidden"
 */
export function forwardFrame(frame, playerToken) {
  const type = frame?.type;
  if (!PLAYER_FRAMES.includes(type)) {
    return {
      reply: {
        type: "error",
        ...(frame?.id !== undefined ? { id: frame.id } : {}),
        code: "forbidden",
        field: "type",
        message: `a player may not send ${String(type)}`,
      },
    };
  }
  if (type !== "hello") return { send: frame };
  const hello = { type: "hello", token: playerToken, client: "foundry" };
  if (typeof frame.battle === "string") hello.battle = frame.battle;
  if (Number.isInteger(frame.since_version)) hello.since_version = frame.since_version;
  return { send: hello };
}

/** A new session id: the user, the time and a little randomness (`random` in [0, 1)). */
export function sessionId(userId, random, now) {
  return `${userId}-${now.toString(36)}-${Math.floor(random * 36 ** 6).toString(36)}`;
}

/**
 * The id of a session's `count`th request on the eye's connection: one no request of the eye's
 * own client has (client/bridge-client.mjs `requestId`), naming the session.
 *
 * @example
 * relayTag("p1-x", 3) // "relayed~p1-x~3"
 */
export function relayTag(session, count) {
  return `${RELAYED}${session}~${count.toString(36)}`;
}

/** Whether a frame from the bridge answers a relayed player's request (by its id). */
export function isRelayed(frame) {
  return typeof frame?.id === "string" && frame.id.startsWith(RELAYED);
}

/**
 * A player's frame as it goes on the eye's connection: its `id` replaced by one naming the
 * session (`tag`), so that the answer finds its way back. `route` keeps what to give back.
 *
 * @example
 * onTheLine({type: "subscribe", battle: "ambush"}, "p1-x~3")
 * // {send: {type: "subscribe", battle: "ambush", id: "p1-x~3"}, route: {}}
 */
export function onTheLine(frame, tag) {
  const route = frame.id === undefined ? {} : { id: frame.id };
  return { send: { ...frame, id: tag }, route };
}

/** An answer from the eye's connection back in the player's terms: the player's own id, or none. */
export function backToPlayer(frame, route) {
  const { id, ...rest } = frame;
  return route.id === undefined ? rest : { ...rest, id: route.id };
}

/** The battles a relayed session watches after one of its frames (hello with a battle,
 * subscribe, unsubscribe). */
export function watchedAfter(watching, frame) {
  const battle = typeof frame?.battle === "string" ? frame.battle : null;
  if (!battle) return watching;
  const next = new Set(watching);
  if (frame.type === "unsubscribe") next.delete(battle);
  else if (frame.type === "hello" || frame.type === "subscribe") next.add(battle);
  return next;
}

/** Whether a frame pushed to every player is one this session's client takes: one about no
 * battle (the list of battles), or about a battle it watches. */
export function concerns(frame, watching) {
  return typeof frame?.battle !== "string" || watching.has(frame.battle);
}
