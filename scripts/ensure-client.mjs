// `npm start` builds the page only when no build is there yet (a fresh clone), so restarts stay fast.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'

if (!existsSync(new URL('../dist/client/index.html', import.meta.url))) {
  console.log('podclub: building the page (first start)...')
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' })
  if (result.status !== 0) process.exit(result.status ?? 1)
}
