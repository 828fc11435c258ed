/**
 * The relay between a player's browser and the bridge, through Foundry's module socket: what a
 * message holds and what the active GM's browser lets through. Pure: never touches Foundry
 * globals.
 *
 * A player's panel has no address or token of its own: its bridge client talks to a
 * socket-like object (relay.mjs) whose frames travel as Foundry socket messages to the active
 * GM's browser, which keeps one bridge connection per relayed player, made with the player
 * token. The bridge itself then gives that connection the player view (hidden numbers as
 * null, no Foundry data); the GM view never leaves the GM's browser.
 *
 * A message: {kind, session, from, to, frame?, code?}
 * - player → GM: kind "open" (a new session), "frame" (a frame for the bridge), "close";
 *   `to` is null: whichever GM is active answers.
 * - GM → player: kind "opened", "frame" (a frame from the bridge), "closed" (with `code`);
 *   `to` is the player's user id; "hosting" (to everyone, `to` null): the active GM's browser
 *   has just started relaying.
 */

/** The frames a relayed player may send: reading only (docs/protocol.md, "Client → bridge"). */
export const PLAYER_FRAMES = Object.freeze([
  "hello",
  "subscribe",
  "unsubscribe",
  "list_battles",
  "log_page",
  "ping",
]);

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
