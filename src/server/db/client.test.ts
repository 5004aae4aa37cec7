import { spawnSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { DataDirInUseError, openPglite } from './client'

const root = fileURLToPath(new URL('../../../', import.meta.url))

describe('PGlite data folder lock', () => {
  const dirs: string[] = []
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true })
  })

  it('refuses a second opener in this process and the admin CLI in another', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'podclub-lock-'))
    dirs.push(dir)
    const first = await openPglite(dir)
    try {
      await expect(openPglite(dir)).rejects.toBeInstanceOf(DataDirInUseError)
      await expect(openPglite(dir)).rejects.toThrow(/is in use by another podclub process/)
      const cli = spawnSync(
        process.execPath,
        ['--import', 'tsx', 'src/server/cli.ts', 'invite-codes', '1'],
        { cwd: root, env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '' }, encoding: 'utf8' },
      )
      expect(cli.status).toBe(2)
      expect(cli.stderr).toMatch(/DATA_DIR .* is in use by another podclub process/)
    } finally {
      await first.close()
    }
    // Once released, the folder opens again with its data.
    const again = await openPglite(dir)
    await again.close()
  }, 60_000)
})
