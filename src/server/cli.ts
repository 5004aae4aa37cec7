import { eq } from 'drizzle-orm'
import { DataDirInUseError, openDatabase } from './db/client'
import { inviteCodes, users } from './db/schema/index'
import { EnvError, parseEnv } from './lib/env'
import { hashPassword } from './lib/passwords'
import { randomToken } from './lib/tokens'

const usage = `Usage: npm run admin -- <command>

Commands:
  create-superuser <username> <email>   a super user; password from ADMIN_PASSWORD or generated
  promote <username>                    make an existing member a super user
  set-password <username>               set a new generated password and print it
  invite-codes [count]                  make single-use welcome codes (default 1) and print them

Uses the same settings as the server (DATABASE_URL or DATA_DIR). With PGlite, stop the server
first: one process at a time may open DATA_DIR.`

async function run(args: string[]): Promise<string> {
  const [command, ...rest] = args
  if (!command || command === 'help' || command === '--help') return usage
  const env = parseEnv()
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR })
  const { db } = database
  try {
    switch (command) {
      case 'create-superuser': {
        const [username, email] = rest
        if (!username || !email) throw new UsageError('create-superuser needs <username> <email>')
        const password = env.ADMIN_PASSWORD ?? randomToken(12)
        await db.insert(users).values({
          username,
          email,
          passwordHash: await hashPassword(password),
          isSuperuser: true,
        })
        return `Created super user ${username}.${env.ADMIN_PASSWORD ? '' : ` Password: ${password}`}`
      }
      case 'promote': {
        const updated = await db
          .update(users)
          .set({ isSuperuser: true })
          .where(eq(users.username, rest[0] ?? ''))
          .returning({ id: users.id })
        if (updated.length === 0) throw new UsageError(`No user named "${rest[0] ?? ''}".`)
        return `${rest[0]} is now a super user.`
      }
      case 'set-password': {
        const password = randomToken(12)
        const updated = await db
          .update(users)
          .set({ passwordHash: await hashPassword(password) })
          .where(eq(users.username, rest[0] ?? ''))
          .returning({ id: users.id })
        if (updated.length === 0) throw new UsageError(`No user named "${rest[0] ?? ''}".`)
        return `New password for ${rest[0]}: ${password}`
      }
      case 'invite-codes': {
        const count = Number(rest[0] ?? '1')
        if (!Number.isInteger(count) || count < 1 || count > 500)
          throw new UsageError('count must be a whole number from 1 to 500')
        const codes = Array.from({ length: count }, () => randomToken(9))
        await db.insert(inviteCodes).values(codes.map((code) => ({ code })))
        return codes.map((code) => `${env.APP_URL}/register/${code}`).join('\n')
      }
      default:
        throw new UsageError(`Unknown command "${command}".\n\n${usage}`)
    }
  } finally {
    await database.close()
  }
}

class UsageError extends Error {}

run(process.argv.slice(2)).then(
  (out) => {
    console.log(out)
    process.exit(0)
  },
  (err: unknown) => {
    const known =
      err instanceof UsageError || err instanceof EnvError || err instanceof DataDirInUseError
    console.error(`podclub: ${known ? (err as Error).message : String(err)}`)
    process.exit(known ? 2 : 1)
  },
)
