import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { transaction } from '../../db/transaction'
import { buildTestApp, type TestApp } from '../../testing/test-app'
import { bumpPodclubsVersion, readPodclubsVersion } from './podclubs.version'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

describe('the podclubs version', () => {
  it('rises with each committed change and not with a rolled-back one', async () => {
    const start = await readPodclubsVersion(t.db)
    await transaction(t.deps, (tx) => bumpPodclubsVersion(tx))
    await transaction(t.deps, (tx) => bumpPodclubsVersion(tx))
    expect(await readPodclubsVersion(t.db)).toBe(start + 2)
    await expect(
      transaction(t.deps, async (tx) => {
        await bumpPodclubsVersion(tx)
        throw new Error('rolled back')
      }),
    ).rejects.toThrow('rolled back')
    expect(await readPodclubsVersion(t.db)).toBe(start + 2)
  })
})
