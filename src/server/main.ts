import { existsSync } from 'node:fs'
import path from 'node:path'
import { buildApp, clientDistDir, renderModuleFile } from './app'
import { type BackgroundWork, createBackgroundWork } from './background'
import { DataDirInUseError, openDatabase } from './db/client'
import { bootstrap, resolveSessionSecret } from './features/auth/bootstrap'
import { DEMO_PASSWORD, seedDemo } from './features/demo/demo.seed'
import { createLogTransport, createSmtpTransport } from './features/mail/mail.transport'
import type { AppDeps } from './deps'
import { recordCalendarTokens } from './features/calendar/calendar.service'
import { systemClock } from './lib/clock'
import { EnvError, parseEnv } from './lib/env'
import { createLogger } from './lib/log'
import { connectRedis } from './lib/redis'

/** Reads settings, opens the database, serves the page and the API, and closes cleanly. */
async function main() {
  // First of all: a SIGTERM or SIGINT while starting must not cut a migration or the bootstrap
  // short. It is noted; the step under way finishes, what is open is closed, and we exit 0.
  let stopSignal: NodeJS.Signals | undefined
  let shutdown: ((signal: NodeJS.Signals) => Promise<void>) | undefined = undefined
  const onSignal = (signal: NodeJS.Signals) => {
    if (shutdown) return void shutdown(signal)
    if (stopSignal) {
      // Cutting a migration short is what this guards against: a second signal does not either.
      process.stdout.write('podclub: still finishing the current step, then stopping\n')
      return
    }
    stopSignal = signal
    process.stdout.write(`podclub: ${signal} while starting, stopping after the current step\n`)
  }
  process.on('SIGTERM', onSignal)
  process.on('SIGINT', onSignal)
  /** What start-up has opened so far, closed in reverse order if it is told to stop. */
  const opened: Array<() => unknown> = []
  const stopIfAsked = async () => {
    if (!stopSignal) return
    try {
      for (const close of opened.reverse()) await close()
    } catch (err) {
      console.error('podclub: error while stopping:', err)
      process.exit(1)
    }
    process.stdout.write('podclub: stopped before serving, closed cleanly\n')
    process.exit(0)
  }

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
  // `npm start` runs in production and serves the built page (it builds what is missing first,
  // scripts/build.mjs). In development Vite serves the page itself, and process-level tests
  // (NODE_ENV=test) need the API alone.
  const serveClient = env.NODE_ENV === 'production'
  if (serveClient && !existsSync(path.join(clientDistDir, 'index.html'))) {
    console.error(
      `podclub: the page is not built (no ${clientDistDir}): run \`npm run build\` first, or start with \`npm start\`, which builds what is missing`,
    )
    process.exit(1)
  }
  const log = createLogger(env.LOG_LEVEL)
  const startedAt = performance.now()
  log.info(
    { engine: env.DATABASE_URL ? 'postgres' : 'pglite' },
    'starting: opening the database and applying migrations',
  )

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
  opened.push(() => database.close())
  const { db } = database
  log.info({ engine: database.engine }, 'database ready, migrations applied')
  await stopIfAsked()

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
  await stopIfAsked()
  if (env.DEMO) {
    const { seeded } = await seedDemo(db, systemClock)
    process.stdout.write(
      seeded
        ? `Demo data loaded. Sample members (maya.r, jon.b, priya, ...) log in with "${DEMO_PASSWORD}".\n`
        : 'Demo mode: the database already has podclubs, so no sample data was added.\n',
    )
    await stopIfAsked()
  }

  // While Redis is away the rate limits count in the database, and /readyz says so.
  const redis = env.REDIS_URL ? connectRedis(env.REDIS_URL, log) : undefined
  if (redis) opened.push(() => redis.disconnect())
  const transport = env.SMTP_URL
    ? createSmtpTransport(env.SMTP_URL)
    : createLogTransport(log.child({ component: 'mail' }))
  opened.push(() => transport.close())

  // The background work is built once the app is (it reports to the app's metrics); until then
  // nothing can commit mail or jobs, so the wake-ups below have nothing to miss.
  const wake: Pick<BackgroundWork, 'wakeOutbox' | 'wakeJobs'> = {
    wakeOutbox: () => {},
    wakeJobs: () => {},
  }
  const deps: AppDeps = {
    env,
    db,
    listen: database.listen,
    clock: systemClock,
    redis,
    poolStats: database.poolStats,
    sessionSecret,
    clubInviteCode,
    wakeOutbox: () => wake.wakeOutbox(),
    wakeJobs: () => wake.wakeJobs(),
  }
  // Members' calendar links as this secret makes them, before anyone reads a profile (a read
  // never writes them).
  const recorded = await recordCalendarTokens(deps)
  if (recorded > 0) log.info({ members: recorded }, 'calendar links recorded for this secret')
  const app = await buildApp(deps, {
    loggerInstance: log,
    serveClient,
    renderModule: serveClient ? renderModuleFile : undefined,
  })
  opened.push(() => app.close())
  await stopIfAsked()
  await app.listen({ port: env.PORT, host: env.HOST })
  // A signal while binding the port: the server listens, so it takes the usual way out below.
  const work = createBackgroundWork({ deps, transport, log, metrics: app.metrics })
  Object.assign(wake, { wakeOutbox: work.wakeOutbox, wakeJobs: work.wakeJobs })
  work.start()
  // Mail or jobs left by a previous run (or queued by an admin command) go out now, not at the
  // first tick.
  work.wakeOutbox()
  work.wakeJobs()
  log.info(
    { url: env.APP_URL, startupMs: Math.round(performance.now() - startedAt) },
    `podclub is listening on ${env.HOST}:${env.PORT}`,
  )
  // The address to open, plainly: APP_URL when set, else this machine at PORT.
  process.stdout.write(`podclub is running: open ${env.APP_URL}\n`)

  let closing = false
  shutdown = async (signal: NodeJS.Signals) => {
    if (closing) return
    closing = true
    log.info(
      { signal },
      'shutting down: finishing requests, the e-mail being sent and the job step',
    )
    const force = setTimeout(() => {
      log.error('shutdown took longer than 25 s, exiting')
      process.exit(1)
    }, 25_000)
    force.unref()
    try {
      // Both at once: while requests finish, the outbox must not start more of its batch, and
      // the job in progress is handed back at its next step.
      await Promise.all([app.close(), work.stop()])
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
  if (stopSignal) void shutdown(stopSignal)
}

main().catch((err: unknown) => {
  console.error('podclub: could not start:', err)
  process.exit(1)
})
