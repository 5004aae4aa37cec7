import { readCacheVersions } from '../../db/cache-versions'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { podclubs, registrations } from '../../db/schema/index'
import { transaction } from '../../db/transaction'
import { buildTestApp, createUser, type TestApp } from '../../testing/test-app'
import { insertPodclub } from './podclubs.fixtures'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

describe('the podclubs and seats versions', () => {
  it('rise with each committed change the feed shows, whoever writes it, and not with a rolled-back one', async () => {
    const host = await createUser(t)
    const member = await createUser(t)
    const podclub = await insertPodclub(t.db, host.id)
    const versions = async () => {
      const { podclubs, seats } = await readCacheVersions(t.db)
      return { podclubs, seats }
    }
    const start = await versions()
    // Plain writes, through no service: the database raises the versions itself. A seat raises
    // the seats' version alone, so the podclubs' texts stay cached.
    await t.db.insert(registrations).values({ podclubId: podclub.id, userId: member.id })
    expect(await versions()).toEqual({ podclubs: start.podclubs, seats: start.seats + 1 })
    await t.db.update(podclubs).set({ location: 'nyc' }).where(eq(podclubs.id, podclub.id))
    expect(await versions()).toEqual({ podclubs: start.podclubs + 1, seats: start.seats + 1 })
    await expect(
      transaction(t.deps, async (tx) => {
        await tx.delete(registrations).where(eq(registrations.podclubId, podclub.id))
        throw new Error('rolled back')
      }),
    ).rejects.toThrow('rolled back')
    expect(await versions()).toEqual({ podclubs: start.podclubs + 1, seats: start.seats + 1 })
    // A transaction raises each once, however many rows it changes.
    await transaction(t.deps, async (tx) => {
      await tx.delete(registrations).where(eq(registrations.podclubId, podclub.id))
      await tx.update(podclubs).set({ location: 'zoom' }).where(eq(podclubs.id, podclub.id))
      await tx.update(podclubs).set({ location: 'nyc' }).where(eq(podclubs.id, podclub.id))
    })
    expect(await versions()).toEqual({ podclubs: start.podclubs + 2, seats: start.seats + 2 })
  })
})
