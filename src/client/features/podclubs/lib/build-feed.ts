/** The promotional cards between podclubs (spec 1 §2, Home feed). */
export type BlockType =
  'invite' | 'join' | 'propose' | 'about' | 'stats' | 'testimonial' | 'archive' | 'thinker'

export type FeedItem<P> =
  { kind: 'podclub'; podclub: P; key: string } | { kind: 'block'; block: BlockType; key: string }

/** The blocks each viewer sees, in order; a thinker always closes the list. */
export const MEMBER_BLOCKS: readonly BlockType[] = [
  'invite',
  'propose',
  'about',
  'stats',
  'archive',
]
export const VISITOR_BLOCKS: readonly BlockType[] = [
  'join',
  'about',
  'stats',
  'testimonial',
  'archive',
]

/** Podclubs between blocks, repeating, once there are more podclubs than blocks. */
const GROUP_PATTERN = [1, 2, 1, 2, 1] as const
const FIRST_THINKER_AT = 10
const THINKER_EVERY = 4

/**
 * The home feed's order (spec 1 §2): with no more podclubs than block types, blocks and
 * podclubs alternate, starting with a block; with more, podclubs come in groups of 1, 2, 1, 2, 1
 * between blocks. The blocks left when podclubs run out follow. While podclubs remain, a
 * thinker goes in when the list reaches 10 items and every 4 after (unless the last item is
 * one), and the list always ends with a thinker.
 */
export function buildFeed<P extends { id: number }>(
  podclubs: readonly P[],
  isLoggedIn: boolean,
): FeedItem<P>[] {
  const blocks = isLoggedIn ? MEMBER_BLOCKS : VISITOR_BLOCKS
  const items: FeedItem<P>[] = []
  let thinkers = 0
  let nextPodclub = 0
  let nextBlock = 0

  const isThinker = (item: FeedItem<P> | undefined) =>
    item?.kind === 'block' && item.block === 'thinker'
  const addThinker = () => {
    thinkers += 1
    items.push({ kind: 'block', block: 'thinker', key: `thinker-${thinkers}` })
  }
  const add = (item: FeedItem<P>) => {
    items.push(item)
    const n = items.length
    const due =
      n === FIRST_THINKER_AT ||
      (n > FIRST_THINKER_AT && (n - FIRST_THINKER_AT) % THINKER_EVERY === 0)
    if (due && nextPodclub < podclubs.length && !isThinker(items.at(-1))) addThinker()
  }
  const addBlock = () => {
    const block = blocks[nextBlock++]!
    add({ kind: 'block', block, key: block })
  }
  const addPodclub = () => {
    const podclub = podclubs[nextPodclub++]!
    add({ kind: 'podclub', podclub, key: `podclub-${podclub.id}` })
  }

  if (podclubs.length <= blocks.length) {
    while (nextPodclub < podclubs.length) {
      addBlock()
      addPodclub()
    }
  } else {
    for (let group = 0; nextPodclub < podclubs.length; group++) {
      if (nextBlock < blocks.length) addBlock()
      const size = GROUP_PATTERN[group % GROUP_PATTERN.length]!
      for (let i = 0; i < size && nextPodclub < podclubs.length; i++) addPodclub()
    }
  }
  while (nextBlock < blocks.length) addBlock()
  if (!isThinker(items.at(-1))) addThinker()
  return items
}
