import { describe, expect, it } from 'vitest'
import { buildFeed, MEMBER_BLOCKS, VISITOR_BLOCKS, type FeedItem } from './build-feed'

const podclubs = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i + 1 }))
/** 'P1' for a podclub, the block's name otherwise. */
const labels = (items: FeedItem<{ id: number }>[]) =>
  items.map((i) => (i.kind === 'podclub' ? `P${i.podclub.id}` : i.block))

describe('buildFeed', () => {
  it('shows the fixed orders and a thinker when there are no podclubs', () => {
    expect(labels(buildFeed([], true))).toEqual([
      'invite',
      'propose',
      'about',
      'stats',
      'archive',
      'thinker',
    ])
    expect(labels(buildFeed([], false))).toEqual([
      'join',
      'about',
      'stats',
      'testimonial',
      'archive',
      'thinker',
    ])
  })

  it('alternates blocks and podclubs, starting with a block, up to as many podclubs as blocks', () => {
    expect(labels(buildFeed(podclubs(2), false))).toEqual([
      'join',
      'P1',
      'about',
      'P2',
      'stats',
      'testimonial',
      'archive',
      'thinker',
    ])
    expect(labels(buildFeed(podclubs(5), true))).toEqual([
      'invite',
      'P1',
      'propose',
      'P2',
      'about',
      'P3',
      'stats',
      'P4',
      'archive',
      'P5',
      'thinker',
    ])
  })

  it('groups podclubs 1, 2, 1, 2, 1 between blocks when there are more, with thinkers from 10 items', () => {
    expect(labels(buildFeed(podclubs(6), true))).toEqual([
      'invite',
      'P1',
      'propose',
      'P2',
      'P3',
      'about',
      'P4',
      'stats',
      'P5',
      'P6',
      'archive',
      'thinker',
    ])
    expect(labels(buildFeed(podclubs(12), false))).toEqual([
      'join',
      'P1',
      'about',
      'P2',
      'P3',
      'stats',
      'P4',
      'testimonial',
      'P5',
      'P6',
      'thinker',
      'archive',
      'P7',
      'P8',
      'thinker',
      'P9',
      'P10',
      'P11',
      'thinker',
      'P12',
      'thinker',
    ])
  })

  for (const isLoggedIn of [true, false]) {
    describe(isLoggedIn ? 'logged in' : 'logged out', () => {
      const blocks = isLoggedIn ? MEMBER_BLOCKS : VISITOR_BLOCKS
      for (let n = 0; n <= 40; n++) {
        it(`keeps every rule with ${n} podclubs`, () => {
          const feed = buildFeed(podclubs(n), isLoggedIn)
          const names = labels(feed)
          // Every podclub once, in order; every block once, in order.
          expect(names.filter((x) => x.startsWith('P'))).toEqual(podclubs(n).map((p) => `P${p.id}`))
          expect(names.filter((x) => !x.startsWith('P') && x !== 'thinker')).toEqual(blocks)
          // Starts with a block, ends with a thinker, never two thinkers in a row.
          expect(feed[0]?.kind).toBe('block')
          expect(names.at(-1)).toBe('thinker')
          names.forEach((x, i) => {
            if (x === 'thinker' && i > 0) expect(names[i - 1]).not.toBe('thinker')
          })
          // Keys are unique, so React can tell the cards apart.
          expect(new Set(feed.map((i) => i.key)).size).toBe(feed.length)
          // Thinkers before the last podclub sit at item 11, 15, 19... (after 10, then every 4).
          const lastPodclub = names.findLastIndex((x) => x.startsWith('P'))
          names.slice(0, lastPodclub).forEach((x, i) => {
            if (x === 'thinker') expect((i - 10) % 4).toBe(0)
          })
          if (n <= blocks.length) {
            // Alternating: block, podclub, block, podclub...
            names.slice(0, 2 * n).forEach((x, i) => expect(x.startsWith('P')).toBe(i % 2 === 1))
          } else {
            // Runs of podclubs between the first blocks follow 1, 2, 1, 2, 1.
            const runs: number[] = []
            let run = 0
            let blocksSeen = 0
            for (const x of names) {
              if (x.startsWith('P')) run += 1
              else if (x !== 'thinker') {
                if (blocksSeen > 0) runs.push(run)
                run = 0
                blocksSeen += 1
              }
            }
            expect(runs.slice(0, blocks.length - 1)).toEqual([1, 2, 1, 2])
          }
        })
      }
    })
  }
})
