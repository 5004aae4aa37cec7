import { describe, expect, it } from 'vitest'
import type { Db } from '../../db/client'
import { inSeatLine, SEAT_CHANGES_UNDER_WAY } from './seat-lock'

/** A seat change that lasts until it is let go. */
function change() {
  let done!: () => void
  const held = new Promise<void>((resolve) => (done = resolve))
  return { held, done }
}

const tick = () => new Promise((resolve) => setImmediate(resolve))

describe("this process's line of seat changes", () => {
  it('lets two of one podclub be under way at once, the others after them in the order they came, and other podclubs alone', async () => {
    const db = {} as Db
    const started: string[] = []
    const changes = new Map<string, ReturnType<typeof change>>()
    const run = (podclubId: number, name: string) =>
      inSeatLine(db, podclubId, async () => {
        started.push(name)
        const c = change()
        changes.set(name, c)
        await c.held
        return name
      })
    const all = [run(1, 'a'), run(1, 'b'), run(1, 'c'), run(1, 'd'), run(2, 'other')]
    await tick()
    expect(SEAT_CHANGES_UNDER_WAY).toBe(2)
    expect(started).toEqual(['a', 'b', 'other'])
    changes.get('b')!.done()
    await tick()
    expect(started).toEqual(['a', 'b', 'other', 'c'])
    changes.get('a')!.done()
    await tick()
    expect(started).toEqual(['a', 'b', 'other', 'c', 'd'])
    for (const name of ['c', 'd', 'other']) changes.get(name)!.done()
    await expect(Promise.all(all)).resolves.toEqual(['a', 'b', 'c', 'd', 'other'])
  })

  it('goes on after a seat change that failed', async () => {
    const db = {} as Db
    const failed = inSeatLine(db, 1, () => Promise.reject(new Error('refused')))
    const next = [1, 2, 3].map((n) => inSeatLine(db, 1, async () => n))
    await expect(failed).rejects.toThrow('refused')
    await expect(Promise.all(next)).resolves.toEqual([1, 2, 3])
  })
})
