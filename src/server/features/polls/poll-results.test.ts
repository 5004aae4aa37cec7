import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { rankResults, type OptionTally } from './poll-results'

const option = (id: number, votes: number, position = id): OptionTally => ({
  id,
  title: `Option ${id}`,
  podcast: '',
  description: '',
  link: '',
  votes,
  position,
})

describe('rankResults', () => {
  it('gives every option 0 when nobody voted, in the order of the poll', () => {
    const results = rankResults([option(3, 0, 0), option(1, 0, 1), option(2, 0, 2)])
    expect(results.map((r) => [r.id, r.percentage])).toEqual([
      [3, 0],
      [1, 0],
      [2, 0],
    ])
  })

  it('shows a three-way tie as equal shares', () => {
    expect(
      rankResults([option(1, 1), option(2, 1), option(3, 1)]).map((r) => r.percentage),
    ).toEqual([33.3, 33.3, 33.3])
  })

  it('sorts by votes, most first, and rounds to one decimal', () => {
    const results = rankResults([option(1, 1), option(2, 5), option(3, 0), option(4, 2)])
    expect(results.map((r) => [r.id, r.votes, r.percentage])).toEqual([
      [2, 5, 62.5],
      [4, 2, 25],
      [1, 1, 12.5],
      [3, 0, 0],
    ])
  })

  it('keeps shares sensible for any votes', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 10_000 }), { minLength: 2, maxLength: 10 }), (votes) => {
        const results = rankResults(votes.map((v, i) => option(i + 1, v)))
        const total = votes.reduce((a, b) => a + b, 0)
        const sum = results.reduce((a, r) => a + r.percentage, 0)
        if (total === 0) expect(sum).toBe(0)
        else expect(Math.abs(sum - 100)).toBeLessThanOrEqual(0.05 * results.length + 1e-9)
        for (let i = 1; i < results.length; i++) {
          const [prev, cur] = [results[i - 1]!, results[i]!]
          expect(prev.votes).toBeGreaterThanOrEqual(cur.votes)
          expect(prev.percentage).toBeGreaterThanOrEqual(cur.percentage)
          if (prev.votes === cur.votes) expect(prev.percentage).toBe(cur.percentage)
        }
        for (const r of results) {
          expect(r.percentage).toBeGreaterThanOrEqual(0)
          expect(r.percentage).toBeLessThanOrEqual(100)
          expect(r.percentage * 10).toBe(Math.round(r.percentage * 10))
        }
      }),
    )
  })
})
