import { spawn, spawnSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { eq } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { openPglite } from './db/client'
import { outboxMessages } from './db/schema/index'
import { startTestSmtp } from './testing/smtp'
import { answersOk, waitUntil } from './testing/wait'

const root = fileURLToPath(new URL('../../', import.meta.url))
/** The real process: `main.ts` on PGlite with a real SMTP server; a second one refused; SIGTERM. */
describe('the server process', () => {
  const dirs: string[] = []
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true })
  })

  it('lets the e-mail being sent finish on SIGTERM, then closes cleanly', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'podclub-main-'))
    dirs.push(dataDir)
    const smtp = await startTestSmtp({ acceptDelayMs: 1_500 })
    const port = 40_000 + Math.floor(Math.random() * 20_000)
    const base = `http://127.0.0.1:${port}`
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        SMTP_URL: smtp.url,
        CLUB_INVITE_CODE: 'processcode',
        LOG_LEVEL: 'info',
        // The API alone: the page is not what this test is about.
        NODE_ENV: 'test',
      },
    })
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    try {
      await waitUntil(() => answersOk(`${base}/readyz`), 60_000, 'server ready')
      expect(stdout).toContain(`Invite link: http://localhost:3000/register/processcode`)
      // A second server on the same data folder is refused while this one runs.
      const second = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
        cwd: root,
        env: {
          ...process.env,
          PORT: String(port + 1),
          DATA_DIR: dataDir,
          DATABASE_URL: '',
          NODE_ENV: 'test',
        },
        encoding: 'utf8',
        timeout: 30_000,
      })
      expect(second.status).toBe(1)
      expect(second.stderr).toMatch(/DATA_DIR .* is in use by another podclub process/)

      const printed = /Its password, shown only this once: (\S{16})/.exec(stdout)?.[1]

      const who = await fetch(`${base}/api/v1/whoami/`)
      const csrf = /csrftoken=([^;]+)/.exec(who.headers.get('set-cookie') ?? '')![1]!
      // The printed super user logs in with the printed password.
      const login = await fetch(`${base}/api/v1/login/`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-csrftoken': csrf,
          cookie: `csrftoken=${csrf}`,
        },
        body: JSON.stringify({ username: 'admin', password: printed }),
      })
      expect(login.status).toBe(200)
      expect(((await login.json()) as { data: { user: unknown } }).data.user).toMatchObject({
        username: 'admin',
        is_superuser: true,
      })

      const signup = await fetch(`${base}/api/v1/signup/`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-csrftoken': csrf,
          cookie: `csrftoken=${csrf}`,
        },
        body: JSON.stringify({
          username: 'graceful',
          email: 'graceful@example.com',
          password: 'longenough',
          inviteCode: 'processcode',
          city: 'Queens',
          source: 'a friend',
        }),
      })
      expect(signup.status).toBe(201)

      // The welcome mail is on the wire, held by the SMTP server: now stop the process.
      await waitUntil(() => smtp.receiving > 0, 10_000, 'mail on the wire')
      child.kill('SIGTERM')
      expect(await exited).toBe(0)
      expect(stdout).toContain('closed cleanly')
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
})
