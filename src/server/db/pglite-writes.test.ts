import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cacheVersionsOf, keyedVersion } from './cache-versions'
import { knownPgliteVersions, pgliteWrites } from './pglite-writes'
import { registrations } from './schema/index'
import { transaction } from './transaction'
import { insertPodclub } from '../features/podclubs/podclubs.fixtures'
import { buildTestApp, createUser, type TestApp } from '../testing/test-app'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

const onPglite = () => pgliteWrites(t.db) !== undefined

describe('PGlite’s one connection', () => {
  it('a write transaction leaves the versions it raised known, with those that stood before it', async () => {
    if (!onPglite()) return
    const host = await createUser(t)
    const member = await createUser(t)
    const podclub = await insertPodclub(t.db, host.id)
    const seats = keyedVersion('seats', podclub.id)
    const before = await cacheVersionsOf(t.db).current(['podclubs', seats])

    await transaction(t.deps, (tx) =>
      tx.insert(registrations).values({ podclubId: podclub.id, userId: member.id }),
    )
    const known = knownPgliteVersions(t.db, ['podclubs', seats])
    expect(known?.get(seats)).toBe(before.get(seats)! + 1)
    expect(known?.get('podclubs')).toBe(before.get('podclubs'))
    // A plain statement teaches nothing: the next read asks the database.
    await t.db.delete(registrations)
    expect(knownPgliteVersions(t.db, ['podclubs'])).toBeUndefined()
  })

  it('a version read that writes overtook in the queue still teaches the names no write raised', async () => {
    if (!onPglite()) return
    const host = await createUser(t)
    const member = await createUser(t)
    const podclub = await insertPodclub(t.db, host.id)
    const seats = keyedVersion('seats', podclub.id)
    // What is known now is lost: the read below has to ask.
    await t.db.delete(registrations)

    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    let started!: () => void
    const holding = new Promise<void>((resolve) => (started = resolve))
    const write = transaction(t.deps, async (tx) => {
      await tx.insert(registrations).values({ podclubId: podclub.id, userId: member.id })
      started()
      await held
    })
    await holding
    // Queued behind the write, which ends (and is counted) before the read runs.
    const read = cacheVersionsOf(t.db).current(['members', 'podclubs', seats])
    release()
    await write
    const versions = await read
    const names = ['members', 'podclubs', seats]
    const known = knownPgliteVersions(t.db, names)
    expect(names.map((name) => known?.get(name))).toEqual(names.map((name) => versions.get(name)))
  })

  it('a write lets the event loop turn before its statements, so requests are answered meanwhile', async () => {
    if (!onPglite()) return
    const host = await createUser(t)
    const member = await createUser(t)
    const podclub = await insertPodclub(t.db, host.id)
    let turned = false
    setImmediate(() => (turned = true))
    await transaction(t.deps, async (tx) => {
      await tx.insert(registrations).values({ podclubId: podclub.id, userId: member.id })
      expect(turned).toBe(true)
    })
  })
})
