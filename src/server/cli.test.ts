import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import pg from 'pg'
import { type Database, openPglite, openPostgres } from './db/client'
import { eq } from 'drizzle-orm'
import {
  inviteCodes,
  passwordResetTokens,
  podcasts,
  podclubs,
  sessions,
  users,
  waitlistEntries,
} from './db/schema/index'
import { runCli } from './cli'
import { verifyPassword } from './lib/passwords'
import { adminCommand } from './testing/server-process'
import { migratedDataDir, postgresUrlFor } from './testing/test-db'

const root = fileURLToPath(new URL('../../', import.meta.url))

type Result = { code: number | null; stdout: string; stderr: string }

/**
 * `npm run admin -- ...args` on PGlite in `dataDir`, run in this process (a process each would
 * spend most of the test starting up): what it prints on stdout and stderr, and its exit code.
 */
async function admin(
  dataDir: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<Result> {
  let progress = ''
  const result = await runCli(args, {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', ADMIN_PASSWORD: '', ...env },
    progress: (line) => (progress += line),
  })
  return { ...result, stderr: `${progress}${result.stderr}` }
}

/** The same as a real process, as `npm run admin` starts it. */
function adminProcess(dataDir: string, args: string[]): Promise<Result> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...adminCommand, ...args],
      {
        cwd: root,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', ADMIN_PASSWORD: '' },
        encoding: 'utf8',
        timeout: 60_000,
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : null) : 0
        resolve({ code, stdout, stderr })
      },
    )
  })
}

describe('the admin CLI', () => {
  let dataDir = ''
  /** Where the commands that write go: PGlite in a folder, or a fresh PostgreSQL database. */
  let target: { env: Record<string, string>; open: () => Promise<Database> }
  let dropDatabase = async () => {}
  /** A folder that must never be created: input is checked before the database is opened. */
  const untouched = path.join(tmpdir(), `podclub-cli-never-${randomBytes(6).toString('hex')}`)
  beforeAll(async () => {
    if (process.env.TEST_ENGINE !== 'postgres') {
      dataDir = await migratedDataDir('podclub-cli-')
      target = { env: {}, open: () => openPglite(dataDir) }
    } else {
      dataDir = await mkdtemp(path.join(tmpdir(), 'podclub-cli-'))
      const adminUrl = process.env.TEST_DATABASE_URL!
      const name = `podclub_test_${randomBytes(6).toString('hex')}`
      const sql = async (query: string) => {
        const client = new pg.Client({ connectionString: adminUrl })
        await client.connect()
        await client.query(query).finally(() => client.end())
      }
      await sql(`create database ${name} template ${inject('postgresTemplateDb')}`)
      const url = postgresUrlFor(adminUrl, name)
      target = { env: { DATABASE_URL: url }, open: () => openPostgres(url, { max: 1 }) }
      dropDatabase = () => sql(`drop database if exists ${name} with (force)`)
    }
  })
  afterAll(async () => {
    await dropDatabase()
    await rm(dataDir, { recursive: true, force: true })
    await rm(untouched, { recursive: true, force: true })
  })

  it('runs as a program: its output on stdout and stderr, exit 0 or 2', async () => {
    const help = await adminProcess(untouched, ['--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(/^Usage: npm run admin -- <command>[^]*Commands:[^]*invite-codes/)
    expect(help.stderr).toBe('')
    const refused = await adminProcess(untouched, ['invite-codes', 'ten'])
    expect(refused.code).toBe(2)
    expect(refused.stdout).toBe('')
    expect(refused.stderr).toBe(
      'podclub: count: must be a whole number from 1 to 500 (got "ten")\n',
    )
    expect(existsSync(untouched)).toBe(false)
  }, 60_000)

  it('prints help for every command and for itself, exit 0, without opening a database', async () => {
    const all = await admin(untouched, ['--help'])
    expect(all.code).toBe(0)
    for (const command of [
      'create-superuser',
      'promote',
      'set-password',
      'invite-codes',
      'import-chatlog',
      'waitlist',
    ]) {
      expect(all.stdout).toContain(command)
      const one = await admin(untouched, [command, '--help'])
      expect(one.code).toBe(0)
      expect(one.stdout).toContain(`Usage: npm run admin -- ${command}`)
      expect(one.stdout).not.toMatch(/Commands:/)
    }
    expect((await admin(untouched, ['help', 'promote'])).stdout).toContain(
      'Usage: npm run admin -- promote <username>',
    )
    expect(existsSync(untouched)).toBe(false)
  }, 60_000)

  it.each([
    [['create-superuser', 'Bad Name', 'bad@example.com'], /username: Username can only contain/],
    [['create-superuser', 'ab', 'ab@example.com'], /username: Username must be at least 3/],
    [['create-superuser', 'goodname', 'not-an-email'], /email: Please enter a valid email address/],
    [['create-superuser', 'goodname'], /create-superuser takes <username> <email>/],
    [['create-superuser', 'a', 'b', 'c'], /create-superuser takes <username> <email>/],
    [['promote'], /promote takes <username>/],
    [['promote', 'NoSuch!'], /username: Username can only contain/],
    [['set-password', '--force', 'someone'], /set-password: unknown option "--force"/],
    [['invite-codes', '0'], /count: must be a whole number from 1 to 500 \(got "0"\)/],
    [['invite-codes', '501'], /count: must be a whole number from 1 to 500/],
    [['invite-codes', '1.5'], /count: must be a whole number from 1 to 500/],
    [['invite-codes', 'ten'], /count: must be a whole number from 1 to 500/],
    [['frobnicate'], /Unknown command "frobnicate"/],
  ])('refuses %j with a clear message and exit 2', async (args, message) => {
    const result = await admin(untouched, args)
    expect(result.stderr).toMatch(message)
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(existsSync(untouched)).toBe(false)
  })

  it('creates a super user, and refuses a taken name or e-mail without printing the query', async () => {
    const created = await admin(dataDir, ['create-superuser', 'root.one', 'Root@Example.com'], {
      ...target.env,
      ADMIN_PASSWORD: 'correct horse',
    })
    expect(created.stderr).toBe('')
    expect(created.stdout).toBe('Created super user root.one.\n')
    expect(created.code).toBe(0)

    const sameName = await admin(
      dataDir,
      ['create-superuser', 'root.one', 'other@example.com'],
      target.env,
    )
    expect(sameName.stderr).toBe('podclub: A user with that username already exists.\n')
    expect(sameName.code).toBe(2)
    // The e-mail index ignores case, as sign-up does.
    const sameEmail = await admin(
      dataDir,
      ['create-superuser', 'root.two', 'root@example.com'],
      target.env,
    )
    expect(sameEmail.stderr).toBe('podclub: A user with that email already exists.\n')
    expect(sameEmail.code).toBe(2)
    for (const out of [sameName, sameEmail]) {
      expect(`${out.stdout}${out.stderr}`).not.toMatch(/argon2|params|Failed query|insert into/i)
    }

    const promoted = await admin(dataDir, ['promote', 'nobody.here'], target.env)
    expect(promoted.stderr).toBe('podclub: No user named "nobody.here".\n')
    expect(promoted.code).toBe(2)

    const reset = await admin(dataDir, ['set-password', 'root.one'], target.env)
    expect(reset.code).toBe(0)
    const password = /^New password for root\.one: (\S+)\n$/.exec(reset.stdout)?.[1]
    expect(password).toBeDefined()

    const codes = await admin(dataDir, ['invite-codes', '3'], target.env)
    expect(codes.code).toBe(0)
    expect(codes.stdout.trim().split('\n')).toHaveLength(3)
    for (const line of codes.stdout.trim().split('\n')) {
      expect(line).toMatch(/^http:\/\/localhost:3000\/register\/\S+$/)
    }

    const database = await target.open()
    try {
      const rows = await database.db.select().from(users)
      expect(rows.map((u) => [u.username, u.email, u.isSuperuser])).toEqual([
        ['root.one', 'Root@Example.com', true],
      ])
      expect(await verifyPassword(rows[0]!.passwordHash, password!)).toBe(true)
      expect(await database.db.select().from(inviteCodes)).toHaveLength(3)
    } finally {
      await database.close()
    }
  }, 120_000)

  it("set-password ends the member's sessions and open reset links, as a reset does", async () => {
    const database = await target.open()
    try {
      const [member] = await database.db
        .insert(users)
        .values({ username: 'locked.out', email: 'locked.out@example.com', passwordHash: 'x' })
        .returning()
      const later = new Date(Date.now() + 86_400_000)
      await database.db.insert(sessions).values([
        { idHash: `laptop-${member!.id}`, userId: member!.id, expiresAt: later },
        { idHash: `phone-${member!.id}`, userId: member!.id, expiresAt: later },
      ])
      await database.db
        .insert(passwordResetTokens)
        .values({ userId: member!.id, tokenHash: `open-link-${member!.id}`, expiresAt: later })
    } finally {
      await database.close()
    }

    const reset = await admin(dataDir, ['set-password', 'locked.out'], target.env)
    expect(reset.code).toBe(0)
    const password = /^New password for locked\.out: (\S+)\n$/.exec(reset.stdout)?.[1]

    const after = await target.open()
    try {
      const [member] = await after.db.select().from(users).where(eq(users.username, 'locked.out'))
      expect(await verifyPassword(member!.passwordHash, password!)).toBe(true)
      expect(await after.db.select().from(sessions).where(eq(sessions.userId, member!.id))).toEqual(
        [],
      )
      const links = await after.db
        .select()
        .from(passwordResetTokens)
        .where(eq(passwordResetTokens.userId, member!.id))
      expect(links).toHaveLength(1)
      expect(links[0]!.usedAt).not.toBeNull()
    } finally {
      await after.close()
    }
  }, 120_000)

  it('imports a chat log file for a podclub and lists the waitlist', async () => {
    const database = await target.open()
    let podclubId: number
    try {
      const [host] = await database.db
        .insert(users)
        .values({ username: 'host.cli', email: 'host.cli@example.com', passwordHash: 'x' })
        .returning()
      const [podcast] = await database.db.insert(podcasts).values({ name: 'CLI FM' }).returning()
      const [podclub] = await database.db
        .insert(podclubs)
        .values({
          podcastId: podcast!.id,
          podmeisterId: host!.id,
          episodeTitle: 'Saved chats',
          startsAt: new Date('2026-01-01T00:00:00Z'),
        })
        .returning()
      podclubId = podclub!.id
      await database.db.insert(waitlistEntries).values([
        { email: 'first@example.com', how: 'a friend', favoritePodcast: 'Radiolab' },
        { email: 'second@example.com', how: 'the\tQR code', favoritePodcast: '' },
      ])
    } finally {
      await database.close()
    }
    const file = path.join(dataDir, 'chat.txt')
    await writeFile(file, '19:00:01 From maya.r to Everyone : hi\r\nsecond line\r\n')
    const imported = await admin(dataDir, ['import-chatlog', String(podclubId), file], target.env)
    expect(imported.stdout).toBe(`Saved the chat log of podclub ${podclubId} ("Saved chats").\n`)
    expect(imported.stderr).toBe('podclub: saving 3 lines...\n')
    expect(imported.code).toBe(0)
    const missing = await admin(dataDir, ['import-chatlog', '999999', file], target.env)
    expect(missing.stderr).toMatch(/podclub: podclub 999999: podclub not found\n$/)
    expect(missing.code).toBe(2)
    const unreadable = await admin(untouched, ['import-chatlog', '1', '/nonexistent/chat.txt'])
    expect(unreadable.stderr).toBe('podclub: file: cannot read "/nonexistent/chat.txt" (ENOENT)\n')
    expect(unreadable.code).toBe(2)

    const promoted = await admin(dataDir, ['promote', 'host.cli'], target.env)
    expect(promoted.stdout).toBe('host.cli is now a super user.\n')
    expect(promoted.code).toBe(0)

    const again = await target.open()
    try {
      const [row] = await again.db.select().from(podclubs).where(eq(podclubs.id, podclubId))
      expect(row!.chatlog).toBe('19:00:01 From maya.r to Everyone : hi\nsecond line\n')
      const [host] = await again.db.select().from(users).where(eq(users.username, 'host.cli'))
      expect(host!.isSuperuser).toBe(true)
    } finally {
      await again.close()
    }

    const listed = await admin(dataDir, ['waitlist'], target.env)
    expect(listed.code).toBe(0)
    expect(
      listed.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t')[0]),
    ).toEqual(['second@example.com', 'first@example.com'])
    expect(listed.stdout).toContain('the QR code')
    expect((await admin(untouched, ['waitlist', 'lots'])).code).toBe(2)
  }, 120_000)
})
