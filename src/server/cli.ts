import { readFileSync, realpathSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { desc, eq } from 'drizzle-orm'
import type { z } from 'zod'
import { emailSchema, usernameSchema } from '#contract/auth'
import { clubDay } from '#contract/club-time'
import { idSchema } from '#contract/common'
import { updateChatlogBodySchema } from '#contract/control-panel'
import {
  BackupError,
  backupPglite,
  backupPostgres,
  restorePglite,
  restorePostgres,
} from './db/backup'
import { DataDirInUseError, type Db, openDatabase } from './db/client'
import { inviteCodes, users, waitlistEntries } from './db/schema/index'
import { setPassword } from './features/accounts/password-reset.service'
import { updateChatlog } from './features/control-panel/control-panel.service'
import type { AppDeps } from './deps'
import { AppError } from './lib/app-error'
import { systemClock } from './lib/clock'
import { loggableError, uniqueFieldErrors, uniqueViolation } from './lib/db-errors'
import { type Env, EnvError, parseEnv } from './lib/env'
import { links } from './lib/links'
import { hashPassword } from './lib/passwords'
import { randomToken } from './lib/tokens'

/** Bad input or a refusal the user can act on: printed as is, exit code 2. */
class UsageError extends Error {}

type Input = Record<string, string | number>
type Progress = (message: string) => void

type Command = {
  args: string[]
  summary: string
  /** Checks the arguments before anything is opened; returns what `run` needs. */
  parse: (args: string[]) => Input
} & (
  | { run: (db: Db, env: Env, input: Input, progress: Progress) => Promise<string> }
  /** A command that opens (or must not open) the database its own way: backup and restore. */
  | { runOnItsOwn: (env: Env, input: Input, progress: Progress) => Promise<string> }
)

function check<T>(schema: z.ZodType<T>, value: string | undefined, name: string): T {
  const parsed = schema.safeParse(value ?? '')
  if (parsed.success) return parsed.data
  throw new UsageError(`${name}: ${parsed.error.issues[0]?.message ?? 'invalid'}`)
}

/** The exact number of arguments a command takes (the optional ones at the end). */
function expectArgs(command: string, args: string[], min: number, max = min) {
  if (args.length < min || args.length > max) {
    throw new UsageError(`${command} takes ${commandUsage(command)}\n\n${help(command)}`)
  }
}

/**
 * What the features' services need, for a command that runs without the server: no outbox
 * worker or job runner runs here, so mail or a job a command queues goes out when a server next
 * runs.
 */
function cliDeps(db: Db, env: Env): AppDeps {
  return {
    env,
    db,
    // A command serves no live stream.
    listen: () => Promise.reject(new Error('a command does not listen for live events')),
    clock: systemClock,
    wakeOutbox: () => {},
    wakeJobs: () => {},
    sessionSecret: '',
    clubInviteCode: '',
  }
}

const commands: Record<string, Command> = {
  'create-superuser': {
    args: ['<username>', '<email>'],
    summary: 'a super user; password from ADMIN_PASSWORD or generated and printed',
    parse: (args) => {
      expectArgs('create-superuser', args, 2)
      return {
        username: check(usernameSchema, args[0], 'username'),
        email: check(emailSchema, args[1], 'email'),
      }
    },
    run: async (db, env, { username, email }) => {
      const password = env.ADMIN_PASSWORD ?? randomToken(12)
      await db.insert(users).values({
        username: String(username),
        email: String(email),
        passwordHash: await hashPassword(password),
        isSuperuser: true,
      })
      return `Created super user ${username}.${env.ADMIN_PASSWORD ? '' : ` Password: ${password}`}`
    },
  },
  promote: {
    args: ['<username>'],
    summary: 'make an existing member a super user',
    parse: (args) => {
      expectArgs('promote', args, 1)
      return { username: check(usernameSchema, args[0], 'username') }
    },
    run: async (db, _env, { username }) => {
      const updated = await db
        .update(users)
        .set({ isSuperuser: true })
        .where(eq(users.username, String(username)))
        .returning({ id: users.id })
      if (updated.length === 0) throw new UsageError(`No user named "${username}".`)
      return `${username} is now a super user.`
    },
  },
  'set-password': {
    args: ['<username>'],
    summary: 'set a new generated password and print it',
    parse: (args) => {
      expectArgs('set-password', args, 1)
      return { username: check(usernameSchema, args[0], 'username') }
    },
    run: async (db, env, { username }) => {
      const password = randomToken(12)
      // Through the accounts service, as a reset would: the member's sessions end with it.
      const found = await setPassword(cliDeps(db, env), String(username), password)
      if (!found) throw new UsageError(`No user named "${username}".`)
      return `New password for ${username}: ${password}`
    },
  },
  'invite-codes': {
    args: ['[count]'],
    summary: 'make single-use welcome codes (default 1, at most 500) and print their links',
    parse: (args) => {
      expectArgs('invite-codes', args, 0, 1)
      const raw = args[0] ?? '1'
      const count = /^\d{1,3}$/.test(raw) ? Number(raw) : NaN
      if (!(count >= 1 && count <= 500)) {
        throw new UsageError(`count: must be a whole number from 1 to 500 (got "${raw}")`)
      }
      return { count }
    },
    run: async (db, env, { count }, progress) => {
      const codes = Array.from({ length: Number(count) }, () => randomToken(9))
      for (let done = 0; done < codes.length; done += 100) {
        await db.insert(inviteCodes).values(codes.slice(done, done + 100).map((code) => ({ code })))
        if (codes.length > 100)
          progress(`made ${Math.min(done + 100, codes.length)}/${codes.length} codes`)
      }
      return codes.map((code) => links(env).register(code)).join('\n')
    },
  },
  'import-chatlog': {
    args: ['<podclub-id>', '<file>'],
    summary: "save a Zoom chat log file (the meeting's saved chat) as a podclub's chat log",
    parse: (args) => {
      expectArgs('import-chatlog', args, 2)
      const id = check(idSchema, args[0], 'podclub-id')
      const file = args[1]!
      let chatlog: string
      try {
        chatlog = readFileSync(file, 'utf8')
      } catch (err) {
        throw new UsageError(
          `file: cannot read "${file}" (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
        )
      }
      return { id, chatlog: check(updateChatlogBodySchema.shape.chatlog, chatlog, 'file') }
    },
    run: async (db, env, { id, chatlog }, progress) => {
      progress(`saving ${String(chatlog).split('\n').length} lines...`)
      const podclub = await updateChatlog(cliDeps(db, env), Number(id), String(chatlog)).catch(
        (err: unknown) => {
          if (err instanceof AppError) throw new UsageError(`podclub ${id}: ${err.message}`)
          throw err
        },
      )
      return `Saved the chat log of podclub ${podclub.id} ("${podclub.episode_title}").`
    },
  },
  backup: {
    args: ['<file>'],
    summary:
      'copy the database to a new file; on PGlite the server may keep running, on PostgreSQL it runs pg_dump',
    parse: (args) => {
      expectArgs('backup', args, 1)
      return { file: path.resolve(args[0]!) }
    },
    runOnItsOwn: async (env, { file }, progress) => {
      progress(`backing up to ${file}...`)
      const { bytes } = env.DATABASE_URL
        ? await backupPostgres(env.DATABASE_URL, String(file))
        : await backupPglite(env.DATA_DIR, String(file))
      return `Backed up to ${file} (${(bytes / 1024 / 1024).toFixed(1)} MiB).`
    },
  },
  restore: {
    args: ['<file>'],
    summary:
      'restore a backup into an empty DATA_DIR (PGlite) or an empty database (PostgreSQL, with pg_restore)',
    parse: (args) => {
      expectArgs('restore', args, 1)
      return { file: path.resolve(args[0]!) }
    },
    runOnItsOwn: async (env, { file }, progress) => {
      progress(`restoring ${file}...`)
      if (env.DATABASE_URL) {
        await restorePostgres(env.DATABASE_URL, String(file))
        return `Restored ${file} into the database of DATABASE_URL. Start the server to serve it.`
      }
      await restorePglite(env.DATA_DIR, String(file))
      return `Restored ${file} into ${path.resolve(env.DATA_DIR)}. Start the server to serve it.`
    },
  },
  waitlist: {
    args: ['[count]'],
    summary:
      'list the newest people on the invite waitlist (default 50): e-mail, date, how, favourite',
    parse: (args) => {
      expectArgs('waitlist', args, 0, 1)
      const raw = args[0] ?? '50'
      const count = /^\d{1,5}$/.test(raw) ? Number(raw) : NaN
      if (!(count >= 1 && count <= 10_000)) {
        throw new UsageError(`count: must be a whole number from 1 to 10000 (got "${raw}")`)
      }
      return { count }
    },
    run: async (db, _env, { count }) => {
      const rows = await db
        .select()
        .from(waitlistEntries)
        .orderBy(desc(waitlistEntries.id))
        .limit(Number(count))
      if (rows.length === 0) return 'The waitlist is empty.'
      return rows
        .map((r) =>
          [r.email, clubDay(r.createdAt), r.how, r.favoritePodcast]
            .map((v) => v.replace(/\s+/g, ' '))
            .join('\t'),
        )
        .join('\n')
    },
  },
}

function commandUsage(name: string): string {
  const args = commands[name]!.args.join(' ')
  return args || 'no arguments'
}

function help(name?: string): string {
  if (name) {
    const command = commands[name]!
    return `Usage: npm run admin -- ${name} ${command.args.join(' ')}\n\n  ${command.summary}\n\n${footer}`
  }
  const lines = Object.entries(commands).map(
    ([n, c]) => `  ${`${n} ${c.args.join(' ')}`.padEnd(38)}${c.summary}`,
  )
  return `Usage: npm run admin -- <command> [arguments]   (<command> --help: its help)

Commands:
${lines.join('\n')}

${footer}`
}

const footer = `Uses the same settings as the server (DATABASE_URL or DATA_DIR). With PGlite, stop the server
first (one process at a time may open DATA_DIR), except for backup, which the server makes itself.`

const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h' || arg === 'help'

async function run(
  argv: string[],
  source: Record<string, string | undefined>,
  progress: (message: string) => void,
): Promise<string> {
  const [name, ...args] = argv
  if (name === undefined || isHelp(name)) {
    if (args[0] && Object.hasOwn(commands, args[0])) return help(args[0])
    return help()
  }
  if (!Object.hasOwn(commands, name))
    throw new UsageError(`Unknown command "${name}".\n\n${help()}`)
  const command = commands[name]!
  if (args.some((a) => a === '--help' || a === '-h')) return help(name)
  const option = args.find((a) => a.startsWith('-'))
  if (option !== undefined) throw new UsageError(`${name}: unknown option "${option}"`)
  // Every argument is checked before the database is opened (and DATA_DIR locked).
  const input = command.parse(args)
  const env = parseEnv(source)
  if ('runOnItsOwn' in command) {
    return command.runOnItsOwn(env, input, progress).catch((err: unknown) => {
      if (err instanceof BackupError) throw new UsageError(err.message)
      throw err
    })
  }
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR })
  try {
    return await command.run(database.db, env, input, progress)
  } catch (err) {
    const index = uniqueViolation(err)
    const known = index === undefined ? undefined : uniqueFieldErrors[index]
    if (known) throw new UsageError(known.message)
    throw err
  } finally {
    await database.close()
  }
}

export type CliResult = { code: 0 | 1 | 2; stdout: string; stderr: string }

/**
 * One admin command, as `npm run admin -- ...argv` runs it: what it prints and its exit code (2
 * for bad input or a refusal the user can act on). Progress of long work goes to `progress` as it
 * happens (stderr), so stdout stays the result alone.
 */
export async function runCli(
  argv: string[],
  opts: {
    env?: Record<string, string | undefined>
    progress?: (line: string) => void
  } = {},
): Promise<CliResult> {
  const { env = process.env, progress = (line) => process.stderr.write(line) } = opts
  try {
    const out = await run(argv, env, (message) => progress(`podclub: ${message}\n`))
    return { code: 0, stdout: `${out}\n`, stderr: '' }
  } catch (err) {
    const known =
      err instanceof UsageError || err instanceof EnvError || err instanceof DataDirInUseError
    // Never the error as printed by the driver: a failed query's message carries its parameters
    // (a password hash, a token).
    const message = known ? (err as Error).message : String(loggableError(err).message)
    return { code: known ? 2 : 1, stdout: '', stderr: `podclub: ${message}\n` }
  }
}

/** Run as a program (`npm run admin`), not imported (tests call `runCli`). */
function isEntry(): boolean {
  try {
    return realpathSync(process.argv[1] ?? '') === realpathSync(fileURLToPath(import.meta.url))
  } catch {
    return false
  }
}
if (isEntry()) {
  void runCli(process.argv.slice(2)).then(({ code, stdout, stderr }) => {
    process.stdout.write(stdout)
    process.stderr.write(stderr)
    process.exit(code)
  })
}
