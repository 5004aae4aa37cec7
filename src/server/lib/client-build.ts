import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'

/**
 * `npm start` on a fresh clone has no built page yet: build it once, in this process's start-up,
 * so `npm start` stays one process that receives SIGTERM itself.
 */
export function ensureClientBuilt(clientDistDir: string): void {
  if (existsSync(path.join(clientDistDir, 'index.html'))) return
  process.stdout.write('podclub: building the page (first start)...\n')
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' })
  if (result.status !== 0) throw new Error('building the page failed (npx vite build)')
}
