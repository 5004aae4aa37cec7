import { randomBytes } from 'node:crypto'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { PGlite } from '@electric-sql/pglite'
import { eq } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../cli'
import {
  freePort,
  processAgent,
  startServerProcess,
  untilReady,
  type ServerProcess,
} from '../testing/server-process'
import { migratedDataDir } from '../testing/test-db'
import { dumpPglite } from './backup'
import { openPglite } from './client'
import { users, waitlistEntries } from './schema/index'

const dirs: string[] = []
const servers: ServerProcess[] = []
const tempDir = async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'podclub-backup-'))
  dirs.push(dir)
  return dir
}
/** A folder holding a migrated database, as a server leaves it. */
const usedDir = async () => {
  const dir = await migratedDataDir('podclub-backup-')
  dirs.push(dir)
  return dir
}
afterAll(async () => {
  for (const server of servers) if (server.isAlive()) server.child.kill('SIGKILL')
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

const admin = (args: string[], env: Record<string, string>) =>
  runCli(args, { env: { ...process.env, DATABASE_URL: '', ...env }, progress: () => {} })

async function stop(server: ServerProcess) {
  server.child.kill('SIGTERM')
  expect(await server.exited).toBe(0)
}

describe('a backup of a serving PGlite', () => {
  it('lets statements run again once the copy is taken, before it is compressed', async () => {
    const client = await PGlite.create()
    try {
      await client.exec('create table notes (body text)')
      let dumped = 0
      let answered = 0
      const dump = dumpPglite(client).then((bytes) => {
        dumped = performance.now()
        return bytes
      })
      // A statement sent as the backup begins waits for the copy, not for its compression.
      const statement = client.query("insert into notes values ('during the backup')").then(() => {
        answered = performance.now()
      })
      const [bytes] = await Promise.all([dump, statement])
      expect(answered).toBeGreaterThan(0)
      expect(dumped - answered, 'the statement waited out the compression').toBeGreaterThan(50)
      // Still a gzipped tar PGlite opens.
      expect([...bytes.subarray(0, 2)]).toEqual([0x1f, 0x8b])
      const copy = await PGlite.create({ loadDataDir: new Blob([bytes]) })
      try {
        expect((await copy.query('select count(*)::int as n from notes')).rows).toEqual([{ n: 0 }])
      } finally {
        await copy.close()
      }
    } finally {
      await client.close()
    }
    // Two PGlite databases made in memory: seconds of CPU on a busy machine.
  }, 60_000)
})

describe('backup and restore on PGlite', () => {
  it('backs up a serving server during a stream of writes; the restore has every write acknowledged before it began, and serves', async () => {
    const live = await usedDir()
    const server = startServerProcess(await freePort(), {
      DATA_DIR: live,
      TRUST_PROXY: '1',
      METRICS_TOKEN: 'metrics-token-0123456789',
    })
    servers.push(server)
    await untilReady(server, 'the server to back up')

    // A stream of writes: each waitlist entry from its own address, acknowledged or not.
    const acknowledged: { email: string; at: number }[] = []
    let writing = true
    let n = 0
    const writer = (async () => {
      while (writing) {
        n += 1
        const email = `stream${n}@example.com`
        const visitor = processAgent(server.base, { forwardedFor: `10.60.${n >> 8}.${n & 255}` })
        const res = await visitor.post('/api/v1/waitlist/', { email, how: '', favoritePodcast: '' })
        if (res.status === 200) acknowledged.push({ email, at: Date.now() })
      }
    })()
    await expect.poll(() => acknowledged.length, { timeout: 20_000 }).toBeGreaterThan(20)

    const file = path.join(await tempDir(), 'club.backup')
    const began = Date.now()
    const backup = await admin(['backup', file], { DATA_DIR: live })
    expect(backup.stderr).toBe('')
    expect(backup.stdout).toMatch(/^Backed up to .+club\.backup \(\d+\.\d MiB\)\.\n$/)
    expect(backup.code).toBe(0)
    // The server goes on serving writes after making the copy.
    const afterBackup = acknowledged.length
    await expect.poll(() => acknowledged.length, { timeout: 10_000 }).toBeGreaterThan(afterBackup)
    writing = false
    await writer
    const before = acknowledged.filter((w) => w.at < began).map((w) => w.email)
    expect(server.isAlive()).toBe(true)
    expect(before.length).toBeGreaterThan(20)
    await stop(server)

    // A second backup never writes over the first.
    const again = await admin(['backup', file], { DATA_DIR: live })
    expect(again.stderr).toBe(`podclub: ${file} already exists: choose a new file name\n`)
    expect(again.code).toBe(2)

    // Restore: refused into a folder that holds something, and of a file that is no backup.
    const refusedDir = await admin(['restore', file], { DATA_DIR: live })
    expect(refusedDir.stderr).toBe(
      `podclub: DATA_DIR ${live} is not empty: restore into an empty or new folder, then point DATA_DIR at it\n`,
    )
    expect(refusedDir.code).toBe(2)
    const scratch = await tempDir()
    for (const [name, bytes] of [
      ['notes.txt', Buffer.from('not a backup at all\n')],
      ['random.gz', gzipSync(randomBytes(4096))],
    ] as const) {
      const bogus = path.join(scratch, name)
      await writeFile(bogus, bytes)
      const target = path.join(scratch, `into-${name}`)
      const refused = await admin(['restore', bogus], { DATA_DIR: target })
      expect(refused.stderr).toBe(
        `podclub: ${bogus} is not a podclub backup (made by npm run admin -- backup on PGlite)\n`,
      )
      expect(refused.code).toBe(2)
      expect(await readdir(target).catch(() => [])).toEqual([])
    }

    const restoredDir = path.join(await tempDir(), 'restored')
    const restored = await admin(['restore', file], { DATA_DIR: restoredDir })
    expect(restored.stdout).toBe(
      `Restored ${file} into ${restoredDir}. Start the server to serve it.\n`,
    )
    expect(restored.code).toBe(0)

    // The restored database starts a server that serves, and holds every acknowledged write.
    const second = startServerProcess(await freePort(), { DATA_DIR: restoredDir })
    servers.push(second)
    await untilReady(second, 'the restored server')
    const splash = (await (await fetch(`${second.base}/api/v1/splash/`)).json()) as {
      data: { member_count: number }
    }
    expect(splash.data.member_count).toBeGreaterThanOrEqual(1)
    await stop(second)

    const database = await openPglite(restoredDir)
    try {
      const emails = new Set(
        (await database.db.select({ email: waitlistEntries.email }).from(waitlistEntries)).map(
          (r) => r.email,
        ),
      )
      expect(before.filter((email) => !emails.has(email))).toEqual([])
      const [adminUser] = await database.db.select().from(users).where(eq(users.username, 'admin'))
      expect(adminUser?.isSuperuser).toBe(true)
    } finally {
      await database.close()
    }
  }, 180_000)

  it('backs up a folder no server holds by opening it itself, and says when there is none', async () => {
    const dir = await usedDir()
    const database = await openPglite(dir)
    await database.db.insert(waitlistEntries).values({ email: 'offline@example.com' })
    await database.close()
    const file = path.join(await tempDir(), 'offline.backup')
    const backup = await admin(['backup', file], { DATA_DIR: dir })
    expect(backup.code).toBe(0)
    const restoredDir = path.join(await tempDir(), 'restored')
    expect((await admin(['restore', file], { DATA_DIR: restoredDir })).code).toBe(0)
    const restored = await openPglite(restoredDir)
    try {
      expect(await restored.db.select().from(waitlistEntries)).toMatchObject([
        { email: 'offline@example.com' },
      ])
    } finally {
      await restored.close()
    }

    const empty = await tempDir()
    const none = await admin(['backup', path.join(empty, 'x.backup')], { DATA_DIR: empty })
    expect(none.stderr).toBe(`podclub: DATA_DIR ${empty} holds no podclub database\n`)
    expect(none.code).toBe(2)
  }, 120_000)
})
