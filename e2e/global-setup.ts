import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { build, pageEntry, serverEntry } from '../scripts/build.mjs'
import { serverCommand } from '../src/server/testing/server-process'
import { startTestSmtp } from '../src/server/testing/smtp'
import { answersOk, waitUntil } from '../src/server/testing/wait'
import { e2e } from './env'

/**
 * One real server for the whole run, as `npm start` runs it (the built page and server, rebuilt
 * first if their sources changed; PGlite in a fresh folder), sending its mail to a real SMTP
 * server started here. Specs read that mail from a small JSON inbox. `E2E_SKIP_BUILD=1` runs
 * the build there is as it is, without checking its sources.
 */
export default async function globalSetup() {
  const built = existsSync(pageEntry) && existsSync(serverEntry)
  if (process.env.E2E_SKIP_BUILD !== '1' || !built) await build({ ifStale: true })
  const smtp = await startTestSmtp()
  const inbox = createServer((req, res) => {
    if (req.method === 'DELETE') smtp.messages.length = 0
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify(smtp.messages))
  })
  await new Promise<void>((resolve) => inbox.listen(e2e.port + 1, '127.0.0.1', resolve))

  const dataDir = await mkdtemp(path.join(tmpdir(), 'podclub-e2e-'))
  const server = spawn(process.execPath, serverCommand, {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(e2e.port),
      HOST: '127.0.0.1',
      APP_URL: e2e.baseUrl,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SMTP_URL: smtp.url,
      ADMIN_USERNAME: e2e.admin.username,
      ADMIN_PASSWORD: e2e.admin.password,
      ADMIN_EMAIL: e2e.admin.email,
      CLUB_INVITE_CODE: e2e.clubCode,
      // Sample podcasts, members and podclubs, so the feed has cards to act on.
      DEMO: '1',
      // Members are signed up through the API from one address; as behind a proxy, each says
      // which client it stands for, so the per-address sign-up limit applies per member.
      TRUST_PROXY: '1',
      // Behind a proxy the metrics need a token (the server refuses to start without one).
      METRICS_TOKEN: 'e2e-metrics-token-0123456789',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const exitedEarly = () => {
    if (server.exitCode !== null)
      throw new Error(`the podclub server exited with ${server.exitCode}`)
    return false
  }
  await waitUntil(
    async () => exitedEarly() || (await answersOk(`${e2e.baseUrl}/readyz`)),
    60_000,
    'podclub server ready',
  )

  return async () => {
    const exited = new Promise((resolve) => server.once('exit', resolve))
    server.kill('SIGTERM')
    await exited
    inbox.close()
    await smtp.stop()
    await rm(dataDir, { recursive: true, force: true })
  }
}
