import { describe, expect, it } from 'vitest'
import { newSeed, seededRandom } from './seeded-random'

describe('seededRandom', () => {
  it('repeats the same numbers for the same seed and others for another', () => {
    const draw = (seed: number) => Array.from({ length: 5 }, seededRandom(seed))
    expect(draw(42)).toEqual(draw(42))
    expect(draw(42)).not.toEqual(draw(43))
  })

  it('stays within [0, 1) and spreads over it', () => {
    const next = seededRandom(newSeed())
    const values = Array.from({ length: 2000 }, next)
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true)
    const low = values.filter((v) => v < 0.5).length
    expect(low).toBeGreaterThan(850)
    expect(low).toBeLessThan(1150)
  })
})
