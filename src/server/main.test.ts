import { spawnSync } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { eq, sql } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { type Database, openMemoryPglite, openPglite } from './db/client'
import { outboxMessages, users } from './db/schema/index'
import {
  csrfFor,
  freePort,
  postJson as post,
  serverCommand,
  startServerProcess,
  untilReady,
  type ServerProcess as Server,
} from './testing/server-process'
import { migratedDataDir } from './testing/test-db'
import { startTestSmtp } from './testing/smtp'
import { answersOk, waitUntil } from './testing/wait'

const root = fileURLToPath(new URL('../../', import.meta.url))
/** What the build leaves beside the server for a first start (scripts/build.mjs). */
const emptyDatabase = path.join(root, 'dist/server/empty-database.tar.gz')

/** `main.ts` as a real process on PGlite in `dataDir`, serving the API alone on a free port. */
function startServer(dataDir: string, port: number, env: Record<string, string> = {}): Server {
  return startServerProcess(port, { DATA_DIR: dataDir, ...env })
}

/** A second server on the same folder, run to its end: it must be refused. */
function startSecondServer(dataDir: string) {
  return spawnSync(process.execPath, serverCommand, {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(40_000 + Math.floor(Math.random() * 20_000)),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      NODE_ENV: 'test',
    },
    encoding: 'utf8',
    timeout: 30_000,
    // A second server that was not refused may hang on the folder it must not have opened:
    // SIGKILL, so the test fails at its timeout instead of waiting on it forever.
    killSignal: 'SIGKILL',
  })
}

const signupBody = (username: string) => ({
  username,
  email: `${username}@example.com`,
  password: 'longenough',
  inviteCode: 'processcode',
  city: 'Queens',
  source: 'a friend',
})
/** The real process: `main.ts` on PGlite with a real SMTP server; a second one refused; signals. */
describe('the server process', () => {
  const dirs: string[] = []
  const servers: Server[] = []
  /** An empty folder, as on a first start. */
  const tempDir = async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'podclub-main-'))
    dirs.push(dir)
    return dir
  }
  /** A folder a server has started on before: for the tests about something else. */
  const usedDir = async () => {
    const dir = await migratedDataDir('podclub-main-')
    dirs.push(dir)
    return dir
  }
  const start = async (dataDir: string, env?: Record<string, string>) => {
    const server = startServer(dataDir, await freePort(), env)
    servers.push(server)
    return server
  }
  afterAll(async () => {
    for (const { child } of servers) {
      if (child.signalCode === 'SIGSTOP') child.kill('SIGCONT')
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    }
    for (const dir of dirs) await rm(dir, { recursive: true, force: true })
  })

  it('lets the e-mail being sent finish on SIGTERM, then closes cleanly', async () => {
    const dataDir = await usedDir()
    const smtp = await startTestSmtp({ acceptDelayMs: 1_500 })
    const server = await start(dataDir, { SMTP_URL: smtp.url })
    const { base, child } = server
    try {
      await untilReady(server, 'server ready')
      // With no APP_URL, the printed addresses are this server's own, at its PORT.
      expect(server.output()).toContain(`Invite link: ${base}/register/processcode`)
      expect(server.output()).toContain(`podclub is running: open ${base}\n`)
      // A second server on the same data folder is refused while this one runs.
      const second = startSecondServer(dataDir)
      expect(second.status).toBe(1)
      expect(second.stderr).toMatch(
        new RegExp(`DATA_DIR .* is in use by another podclub process \\(pid ${child.pid} on host `),
      )

      const printed = /Its password, shown only this once: (\S{16})/.exec(server.output())?.[1]
      const csrf = await csrfFor(base)
      // The printed super user logs in with the printed password.
      const login = await post(base, csrf, '/api/v1/login/', {
        username: 'admin',
        password: printed,
      })
      expect(login.status).toBe(200)
      expect(((await login.json()) as { data: { user: unknown } }).data.user).toMatchObject({
        username: 'admin',
        is_superuser: true,
      })

      const signup = await post(base, csrf, '/api/v1/signup/', signupBody('graceful'))
      expect(signup.status).toBe(201)

      // The welcome mail is on the wire, held by the SMTP server: now stop the process.
      await waitUntil(() => smtp.receiving > 0, 10_000, 'mail on the wire')
      child.kill('SIGTERM')
      expect(await server.exited).toBe(0)
      expect(server.output()).toContain('closed cleanly')
      expect(smtp.messages.map((m) => m.to)).toEqual([['graceful@example.com']])

      // What the database says after the stop: delivered, once.
      const database = await openPglite(dataDir)
      try {
        const rows = await database.db
          .select()
          .from(outboxMessages)
          .where(eq(outboxMessages.toAddress, 'graceful@example.com'))
        expect(rows.map((r) => [r.status, r.attempts])).toEqual([['delivered', 1]])
      } finally {
        await database.close()
      }
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
      await smtp.stop()
    }
  }, 90_000)

  it('starts again at once after kill -9, with every write it acknowledged', async () => {
    const dataDir = await usedDir()
    let t0 = performance.now()
    const first = await start(dataDir)
    await untilReady(first, 'first start')
    const firstStartMs = performance.now() - t0

    const csrf = await csrfFor(first.base)
    const members = ['kill.one', 'kill.two', 'kill.three', 'kill.four', 'kill.five']
    for (const username of members) {
      const signup = await post(first.base, csrf, '/api/v1/signup/', signupBody(username))
      expect(signup.status).toBe(201)
    }
    // Killed right after the last answer: no chance to close anything.
    first.child.kill('SIGKILL')
    await first.exited

    t0 = performance.now()
    const again = await start(dataDir)
    await untilReady(again, 'restart after kill -9')
    const restartMs = performance.now() - t0
    console.info(
      `start ${Math.round(firstStartMs)} ms, restart after kill -9 ${Math.round(restartMs)} ms`,
    )
    // Its normal start time (a restart has no migrations to apply, but recovers the database).
    expect(restartMs).toBeLessThan(Math.max(2 * firstStartMs, 15_000))

    // Every member it answered 201 for is there and can log in.
    const csrfAgain = await csrfFor(again.base)
    for (const username of members) {
      const login = await post(again.base, csrfAgain, '/api/v1/login/', {
        username,
        password: 'longenough',
      })
      expect(login.status, username).toBe(200)
    }
    again.child.kill('SIGTERM')
    expect(await again.exited).toBe(0)
    const database = await openPglite(dataDir)
    try {
      const names = await database.db.select({ username: users.username }).from(users)
      expect(names.map((u) => u.username).sort()).toEqual([...members, 'admin'].sort())
    } finally {
      await database.close()
    }
  }, 120_000)

  it('keeps its folder while stopped for 10 s: a second process is refused, and it serves on', async () => {
    const dataDir = await usedDir()
    const server = await start(dataDir)
    await untilReady(server, 'server ready')
    server.child.kill('SIGSTOP')
    try {
      // Twice the longest wait in the lock's code (a holder's 5 s to read a command): nothing
      // there times the holder out, and a timer that did would show here.
      await new Promise((r) => setTimeout(r, 10_000))
      const second = startSecondServer(dataDir)
      expect(second.status).toBe(1)
      expect(second.stderr).toMatch(
        new RegExp(`is in use by another podclub process \\(pid ${server.child.pid} on host `),
      )
    } finally {
      server.child.kill('SIGCONT')
    }
    // Woken up, it still holds the folder and serves, reads and writes.
    const csrf = await csrfFor(server.base)
    const signup = await post(server.base, csrf, '/api/v1/signup/', signupBody('woke.up'))
    expect(signup.status).toBe(201)
    expect(await answersOk(`${server.base}/readyz`)).toBe(true)
    expect(server.child.exitCode).toBe(null)
    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
    expect(server.output()).not.toMatch(/lost the lock/)
  }, 120_000)

  it('lets a migration started before SIGTERM finish, then exits 0 without serving', async () => {
    const dataDir = await tempDir()
    const server = await start(dataDir)
    // The first thing it prints: it is about to open an empty folder and migrate it.
    await waitUntil(
      () => server.output().includes('starting: opening the database'),
      60_000,
      'start',
    )
    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
    expect(server.output()).toContain('SIGTERM while starting')
    expect(server.output()).toContain('stopped before serving, closed cleanly')
    expect(server.output()).not.toContain('podclub is listening')

    // The folder is whole: the next start migrates nothing twice and serves.
    const again = await start(dataDir)
    await untilReady(again, 'restart')
    again.child.kill('SIGTERM')
    expect(await again.exited).toBe(0)

    // It began as the migrated empty database the build left beside the server, not as a new
    // cluster: a cluster keeps the identifier it was created with.
    const systemId = async ({ db }: Database) => {
      const query = sql`select system_identifier::text as id from pg_control_system()`
      const result = (await db.execute(query)) as unknown as { rows: { id: string }[] }
      return result.rows[0]!.id
    }
    const built = await openMemoryPglite(new Blob([await readFile(emptyDatabase)]))
    const started = await openPglite(dataDir)
    try {
      expect(await systemId(started)).toBe(await systemId(built))
    } finally {
      await started.close()
      await built.close()
    }
  }, 120_000)
})
