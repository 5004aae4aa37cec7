import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { users } from './schema/index'
import { buildTestApp, createUser, type TestApp } from '../testing/test-app'
import { pgliteWrites, readUntilWrite } from './pglite-writes'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

const isPglite = () => pgliteWrites(t.db) !== undefined

describe('readUntilWrite', () => {
  it('reads once per key until the database writes, on PGlite; every time on PostgreSQL', async () => {
    let reads = 0
    const count = readUntilWrite(t.db, async (key: string) => {
      reads += 1
      return `${key}:${(await t.db.select().from(users)).length}`
    })
    const first = await count('a')
    await count('a')
    await count('b')
    expect(reads).toBe(isPglite() ? 2 : 3)

    await createUser(t)
    const after = await count('a')
    expect(after).not.toBe(first)
    expect(reads).toBe(isPglite() ? 3 : 4)
  })

  it('does not keep a read that a write overlapped, nor a failed read', async () => {
    let reads = 0
    const read = readUntilWrite(t.db, async (key: number) => {
      reads += 1
      if (key === 1) await createUser(t)
      if (key === 2 && reads < 4) throw new Error('the database is away')
      return key
    })
    await read(1)
    await read(1)
    expect(reads).toBe(2)
    await expect(read(2)).rejects.toThrow('away')
    await expect(read(2)).resolves.toBe(2)
    expect(reads).toBe(4)
  })
})
