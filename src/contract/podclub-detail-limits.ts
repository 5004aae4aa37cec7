/*
 * The limits of a podclub's discussion, without code: the podclub page shows them on its first
 * load, which then does not load the schema library with podclub-detail.ts.
 */

/** At most this many hindsights per podclub (spec 2 §9); the post form hides once reached. */
export const HINDSIGHTS_PER_PODCLUB = 20
/** A hindsight is a short reflection: 1 to this many characters once trimmed. */
export const HINDSIGHT_MAX_LENGTH = 1000
