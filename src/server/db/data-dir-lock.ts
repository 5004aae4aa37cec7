import { createHash } from 'node:crypto'
import {
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

/** Thrown when another live process holds DATA_DIR. The message names it when it can. */
export class DataDirInUseError extends Error {}

export type DataDirLock = {
  /** The address bound for the lock (an abstract name, a socket file or a named pipe). */
  address: string
  release: () => Promise<void>
}

/** What the holder writes in DATA_DIR, so a refused process can say who holds the folder. */
export type LockHolder = { pid: number; host: string; startedAt: string }

export const HOLDER_FILE = '.podclub-lock.json'

/**
 * How the lock is held:
 * - `abstract` (Linux): a socket in the kernel's abstract namespace. No file, and the kernel frees
 *   the name the moment the process dies, however it dies.
 * - `pipe` (Windows): a named pipe, likewise freed by the system with the process.
 * - `file` (macOS and other Unixes): a socket file. A file outlives a killed process, so on
 *   EADDRINUSE we connect: an answer means a live holder (a stopped process's socket still
 *   accepts into its backlog), ECONNREFUSED means a stale file, which we remove and bind again.
 */
export type LockKind = 'abstract' | 'pipe' | 'file'

export function defaultLockKind(): LockKind {
  if (process.platform === 'linux') return 'abstract'
  if (process.platform === 'win32') return 'pipe'
  return 'file'
}

/**
 * Holds `dir` for this process alone, until `release()` or the process's end. Nothing refreshes
 * it and no timer can take it away: a paused or busy holder keeps it, a killed one frees it at
 * once. The folder is named by device and inode, so two paths to one folder (a symlink, a
 * relative path) meet on one lock.
 */
export async function lockDataDir(
  dataDir: string,
  opts: { kind?: LockKind } = {},
): Promise<DataDirLock> {
  const dir = path.resolve(dataDir)
  mkdirSync(dir, { recursive: true })
  const kind = opts.kind ?? defaultLockKind()
  const address = lockAddress(dir, kind)
  let server: net.Server
  try {
    server = await listen(address)
  } catch (err) {
    if (!isAddressInUse(err)) throw err
    if (kind !== 'file' || (await answers(address))) throw inUse(dir)
    // A socket file nobody answers on: left by a process that died. Take it over.
    rmSync(address, { force: true })
    try {
      server = await listen(address)
    } catch (retryErr) {
      // Another process took the stale file over at the same moment.
      if (isAddressInUse(retryErr)) throw inUse(dir)
      throw retryErr
    }
  }
  // A probe (file kind) only needs the connection to succeed; nobody talks on it.
  server.on('connection', (socket) => socket.destroy())
  // The lock must not keep the process alive by itself.
  server.unref()
  writeHolder(dir)
  let released = false
  return {
    address,
    release: async () => {
      if (released) return
      released = true
      rmSync(path.join(dir, HOLDER_FILE), { force: true })
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

function lockAddress(dir: string, kind: LockKind): string {
  const real = realpathSync(dir)
  const { dev, ino } = statSync(real, { bigint: true })
  const id = createHash('sha256')
    // Without an inode (some Windows file systems report 0), the resolved path names the folder.
    .update(ino === 0n ? `path:${real}` : `inode:${dev}:${ino}`)
    .digest('hex')
    .slice(0, 40)
  if (kind === 'abstract') return `\0podclub-${id}`
  if (kind === 'pipe') return `\\\\?\\pipe\\podclub-${id}`
  // A socket path is limited to about 104 bytes: a deep DATA_DIR falls back to the temp folder.
  const inDir = path.join(real, '.podclub.sock')
  return Buffer.byteLength(inDir) < 100 ? inDir : path.join(os.tmpdir(), `podclub-${id}.sock`)
}

function listen(address: string): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(address, () => {
      server.off('error', reject)
      resolve(server)
    })
  })
}

function isAddressInUse(err: unknown): boolean {
  return (err as { code?: string }).code === 'EADDRINUSE'
}

/** Whether a live process listens on the socket file. Anything but a clear refusal counts as yes. */
function answers(address: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(address)
    const done = (live: boolean) => {
      socket.destroy()
      resolve(live)
    }
    socket.once('connect', () => done(true))
    socket.once('error', (err: NodeJS.ErrnoException) =>
      done(err.code !== 'ECONNREFUSED' && err.code !== 'ENOENT'),
    )
    socket.setTimeout(2_000, () => done(true))
  })
}

function writeHolder(dir: string) {
  const holder: LockHolder = {
    pid: process.pid,
    host: os.hostname(),
    startedAt: new Date().toISOString(),
  }
  const file = path.join(dir, HOLDER_FILE)
  const tmp = `${file}.${process.pid}.tmp`
  try {
    writeFileSync(tmp, `${JSON.stringify(holder)}\n`)
    renameSync(tmp, file)
  } catch {
    // Only the refusal message reads it: a folder we cannot write to fails soon enough anyway.
    rmSync(tmp, { force: true })
  }
}

export function readHolder(dir: string): LockHolder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path.join(dir, HOLDER_FILE), 'utf8')) as LockHolder
    if (typeof parsed.pid !== 'number' || typeof parsed.host !== 'string') return undefined
    return parsed
  } catch {
    return undefined
  }
}

/** Whether a process with this pid runs on this machine (EPERM: it does, as another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as { code?: string }).code === 'EPERM'
  }
}

function inUse(dir: string): DataDirInUseError {
  let holder = readHolder(dir)
  // A holder that has just bound may not have written its file yet: the file then describes a
  // process that died, which we can tell on this machine.
  if (holder && holder.host === os.hostname() && !alive(holder.pid)) holder = undefined
  const who = holder
    ? ` (pid ${holder.pid} on host ${holder.host}, started ${holder.startedAt})`
    : ''
  return new DataDirInUseError(
    `DATA_DIR ${dir} is in use by another podclub process${who}. PGlite serves one process at ` +
      'a time: stop the other one, or set DATABASE_URL to share a PostgreSQL server.',
  )
}
