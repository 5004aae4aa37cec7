// Times `npm start` on an empty DATA_DIR until /readyz answers, then a second (warm) start.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

const port = Number(process.env.PORT ?? 3299)
const dataDir = mkdtempSync(path.join(tmpdir(), 'podclub-cold-'))

async function timeStart(label) {
  const started = performance.now()
  const child = spawn('npm', ['start'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
    detached: true,
  })
  for (;;) {
    if (performance.now() - started > 120_000) throw new Error('not ready after 120 s')
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) break
    } catch {
      // not yet listening
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  const ms = performance.now() - started
  console.log(`${label}: ready in ${(ms / 1000).toFixed(2)} s`)
  const exited = new Promise((r) => child.once('exit', r))
  process.kill(-child.pid, 'SIGTERM')
  await exited
}

try {
  await timeStart('cold start (empty DATA_DIR)')
  await timeStart('warm start (same DATA_DIR)')
} finally {
  rmSync(dataDir, { recursive: true, force: true })
}
