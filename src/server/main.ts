import { Redis } from 'ioredis'
import { buildApp, clientDistDir } from './app'
import { DataDirInUseError, openDatabase } from './db/client'
import { bootstrap, resolveSessionSecret } from './features/auth/bootstrap'
import { DEMO_PASSWORD, seedDemo } from './features/demo/demo.seed'
import { createOutboxWorker } from './features/mail/outbox.worker'
import { createLogTransport, createSmtpTransport } from './features/mail/mail.transport'
import { pruneExpiredJob } from './features/maintenance/maintenance.jobs'
import { sendDueRemindersJob } from './features/reminders/reminders.jobs'
import type { AppDeps } from './deps'
import { ensureClientBuilt } from './lib/client-build'
import { systemClock } from './lib/clock'
import { EnvError, parseEnv } from './lib/env'
import { createLogger } from './lib/log'

/** Reads settings, opens the database, serves the page and the API, and closes cleanly. */
async function main() {
  let env
  try {
    env = parseEnv()
  } catch (err) {
    if (err instanceof EnvError) {
      console.error(`podclub: ${err.message}`)
      process.exit(1)
    }
    throw err
  }
  // `npm start` runs in production and serves the built page. In development Vite serves the
  // page itself, and process-level tests (NODE_ENV=test) need the API alone.
  const serveClient = env.NODE_ENV === 'production'
  if (serveClient) ensureClientBuilt(clientDistDir)
  const log = createLogger(env.LOG_LEVEL)
  const startedAt = performance.now()

  let database
  try {
    database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR })
  } catch (err) {
    if (err instanceof DataDirInUseError) {
      console.error(`podclub: ${err.message}`)
      process.exit(1)
    }
    log.fatal({ err }, 'could not open the database')
    process.exit(1)
  }
  const { db } = database
  log.info({ engine: database.engine }, 'database ready, migrations applied')

  const { createdAdmin, inviteLink, clubInviteCode } = await bootstrap(db, env)
  const sessionSecret = await resolveSessionSecret(db, env.SESSION_SECRET)
  if (createdAdmin) {
    const lines = [
      `Created super user "${createdAdmin.username}" <${createdAdmin.email}>.`,
      createdAdmin.generatedPassword
        ? `Its password, shown only this once: ${createdAdmin.generatedPassword}`
        : 'Its password is the one in ADMIN_PASSWORD.',
    ]
    // Printed plainly (not only as a log line) so it is easy to read on first start.
    process.stdout.write(`\n${lines.join('\n')}\n\n`)
  }
  process.stdout.write(`Invite link: ${inviteLink}\n`)
  if (env.DEMO) {
    const { seeded } = await seedDemo(db, systemClock)
    process.stdout.write(
      seeded
        ? `Demo data loaded. Sample members (maya.r, jon.b, priya, ...) log in with "${DEMO_PASSWORD}".\n`
        : 'Demo mode: the database already has podclubs, so no sample data was added.\n',
    )
  }

  const redis = env.REDIS_URL
    ? new Redis(env.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false })
    : undefined
  // Without a listener ioredis prints every connection error itself. While Redis is away the
  // rate limits count in the database, and /readyz says so.
  let redisDown = false
  redis?.on('error', (err: Error) => {
    if (!redisDown) log.warn({ err: { message: err.message } }, 'redis is unreachable')
    redisDown = true
  })
  redis?.on('ready', () => {
    if (redisDown) log.info('redis is reachable again')
    redisDown = false
  })
  const transport = env.SMTP_URL
    ? createSmtpTransport(env.SMTP_URL)
    : createLogTransport(log.child({ component: 'mail' }))
  const outbox = createOutboxWorker({
    db,
    transport,
    clock: systemClock,
    from: env.MAIL_FROM,
    log: log.child({ component: 'outbox' }),
  })

  const deps: AppDeps = {
    env,
    db,
    clock: systemClock,
    redis,
    sessionSecret,
    clubInviteCode,
    wakeOutbox: () => outbox.wake(),
  }
  const app = await buildApp(deps, { loggerInstance: log, serveClient })
  await app.listen({ port: env.PORT, host: env.HOST })
  outbox.start()
  const maintenance = setInterval(() => {
    pruneExpiredJob
      .run({ db, clock: systemClock })
      .then((deleted) => log.debug({ deleted }, 'pruned expired rows'))
      .catch((err: unknown) => log.warn({ err }, 'pruning expired rows failed'))
  }, pruneExpiredJob.intervalMs)
  maintenance.unref()
  const reminders = setInterval(() => {
    sendDueRemindersJob
      .run(deps)
      .then((sent) => {
        if (sent.length > 0) log.info({ sent }, 'reminders queued')
      })
      .catch((err: unknown) => log.warn({ err }, 'sending due reminders failed'))
  }, sendDueRemindersJob.intervalMs)
  reminders.unref()
  log.info(
    { url: env.APP_URL, startupMs: Math.round(performance.now() - startedAt) },
    `podclub is listening on ${env.HOST}:${env.PORT}`,
  )

  let closing = false
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    log.info({ signal }, 'shutting down: finishing requests and the e-mail being sent')
    const force = setTimeout(() => {
      log.error('shutdown took longer than 25 s, exiting')
      process.exit(1)
    }, 25_000)
    force.unref()
    try {
      clearInterval(maintenance)
      clearInterval(reminders)
      await app.close()
      await outbox.stop()
      transport.close()
      redis?.disconnect()
      await database.close()
      log.info('closed cleanly')
      process.exit(0)
    } catch (err) {
      log.error({ err }, 'error while shutting down')
      process.exit(1)
    }
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
}

main().catch((err: unknown) => {
  console.error('podclub: could not start:', err)
  process.exit(1)
})
