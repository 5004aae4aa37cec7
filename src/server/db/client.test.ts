import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm, symlink } from 'node:fs/promises'
import net from 'node:net'
import { hostname, tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { DataDirInUseError, openPglite, openPostgres } from './client'
import { adminCommand } from '../testing/server-process'
import { migratedDataDir } from '../testing/test-db'
import { HOLDER_FILE, type LockKind, lockDataDir, readHolder } from './data-dir-lock'

const root = fileURLToPath(new URL('../../../', import.meta.url))

/** Another process that takes the folder's lock, says so, and then holds it until it is killed. */
function holdInAnotherProcess(dir: string, kind: LockKind): Promise<ChildProcess> {
  const script = `
    import { lockDataDir } from './src/server/db/data-dir-lock.ts'
    await lockDataDir(${JSON.stringify(dir)}, { kind: ${JSON.stringify(kind)} })
    console.log('locked')
    setInterval(() => {}, 60_000)
  `
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('locked')) resolve(child)
    })
    child.once('exit', (code) => reject(new Error(`lock holder exited with ${code}`)))
  })
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => child.once('exit', () => resolve()))
}

describe('PGlite data folder lock', () => {
  const dirs: string[] = []
  const children: ChildProcess[] = []
  const tempDir = async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'podclub-lock-'))
    dirs.push(dir)
    return dir
  }
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
    for (const dir of dirs) await rm(dir, { recursive: true, force: true })
  })

  it('refuses a second opener in this process and the admin CLI in another, naming the holder', async () => {
    // A folder a server has used: the lock is the subject, not the first start.
    const dir = await migratedDataDir('podclub-lock-')
    dirs.push(dir)
    const first = await openPglite(dir)
    try {
      await expect(openPglite(dir)).rejects.toBeInstanceOf(DataDirInUseError)
      await expect(openPglite(dir)).rejects.toThrow(
        `DATA_DIR ${dir} is in use by another podclub process (pid ${process.pid} on host ${hostname()}, started `,
      )
      const cli = spawnSync(process.execPath, [...adminCommand, 'invite-codes', '1'], {
        cwd: root,
        env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '' },
        encoding: 'utf8',
      })
      expect(cli.status).toBe(2)
      expect(cli.stderr).toMatch(
        /DATA_DIR .* is in use by another podclub process \(pid \d+ on host .+, started .+\)\. PGlite serves one process at a time/,
      )
    } finally {
      await first.close()
    }
    expect(existsSync(path.join(dir, HOLDER_FILE))).toBe(false)
    // Once released, the folder opens again with its data.
    const again = await openPglite(dir)
    await again.close()
  }, 60_000)

  it('meets on one lock through two paths to the same folder', async () => {
    const dir = await tempDir()
    const link = `${dir}-link`
    await symlink(dir, link)
    dirs.push(link)
    const lock = await lockDataDir(dir)
    try {
      await expect(lockDataDir(link)).rejects.toBeInstanceOf(DataDirInUseError)
      await expect(lockDataDir(path.relative(process.cwd(), dir))).rejects.toBeInstanceOf(
        DataDirInUseError,
      )
    } finally {
      await lock.release()
    }
  })

  // The abstract socket is what Linux uses; the socket file is the fallback elsewhere and runs here
  // too, so both are tested on every machine that runs the suite.
  for (const kind of ['abstract', 'file'] as const) {
    describe(`held as ${kind === 'abstract' ? 'an abstract socket' : 'a socket file'}`, () => {
      it('is free the moment its holder is killed, with no wait', async () => {
        const dir = await tempDir()
        const holder = await holdInAnotherProcess(dir, kind)
        children.push(holder)
        await expect(lockDataDir(dir, { kind })).rejects.toThrow(
          `(pid ${holder.pid} on host ${hostname()}, started `,
        )
        holder.kill('SIGKILL')
        await exited(holder)
        const started = Date.now()
        const lock = await lockDataDir(dir, { kind })
        expect(Date.now() - started).toBeLessThan(1_000)
        // The holder file now names this process, not the killed one.
        expect(readHolder(dir)?.pid).toBe(process.pid)
        await lock.release()
      })

      it('stays with a stopped holder, which keeps it when it runs again', async () => {
        const dir = await tempDir()
        const holder = await holdInAnotherProcess(dir, kind)
        children.push(holder)
        holder.kill('SIGSTOP')
        try {
          // A stopped process answers nothing, yet nobody may take its folder.
          await new Promise((r) => setTimeout(r, 1_000))
          await expect(lockDataDir(dir, { kind })).rejects.toBeInstanceOf(DataDirInUseError)
          await expect(lockDataDir(dir, { kind })).rejects.toThrow(`(pid ${holder.pid} `)
        } finally {
          holder.kill('SIGCONT')
        }
        await expect(lockDataDir(dir, { kind })).rejects.toBeInstanceOf(DataDirInUseError)
        holder.kill('SIGKILL')
        await exited(holder)
        const lock = await lockDataDir(dir, { kind })
        await lock.release()
      })
    })
  }

  it('leaves out a holder file that names a process which is gone', async () => {
    const dir = await tempDir()
    const holder = await holdInAnotherProcess(dir, 'file')
    children.push(holder)
    holder.kill('SIGKILL')
    await exited(holder)
    // The file of the killed holder is still there, the new holder has not written its own yet.
    const lock = await lockDataDir(dir, { kind: 'abstract' })
    try {
      await rm(path.join(dir, HOLDER_FILE))
      await expect(lockDataDir(dir, { kind: 'abstract' })).rejects.toThrow(
        /in use by another podclub process\. PGlite/,
      )
    } finally {
      await lock.release()
    }
  })
})

describe('PostgreSQL pool', () => {
  it('gives up on a server that accepts the connection but never answers', async () => {
    const sockets: net.Socket[] = []
    const silent = net.createServer((socket) => sockets.push(socket))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const { port } = silent.address() as net.AddressInfo
    try {
      const started = Date.now()
      await expect(openPostgres(`postgres://podclub@127.0.0.1:${port}/podclub`)).rejects.toThrow(
        /timeout/i,
      )
      const waited = Date.now() - started
      expect(waited).toBeGreaterThanOrEqual(4_500)
      expect(waited).toBeLessThan(10_000)
      expect(sockets).toHaveLength(1)
    } finally {
      for (const socket of sockets) socket.destroy()
      await new Promise((r) => silent.close(r))
    }
  })
})
