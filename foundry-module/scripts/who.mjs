/** Who this browser is, of the world's users: a leaf, imported by whoever asks. */

/** Whether this browser is the one that writes tokens and actors. */
export function isActiveGM() {
  return Boolean(game.user?.isGM) && game.users?.activeGM?.id === game.user.id;
}
