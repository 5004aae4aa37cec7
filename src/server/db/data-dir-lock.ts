import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
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

/**
 * Answers a command another process sends the holder (`npm run admin -- backup` while the server
 * runs): writes the answer's bytes to `reply`, or throws with a message for that process.
 */
export type HolderCommandHandler = (
  command: string,
  reply: (bytes: Uint8Array) => void,
) => Promise<void>

export type DataDirLock = {
  /** The address bound for the lock (an abstract name, a socket file or a named pipe). */
  address: string
  /** Lets other processes of this machine ask the holder to do `command`s (see `askHolder`). */
  answerCommands: (handler: HolderCommandHandler) => void
  release: () => Promise<void>
}

/**
 * What the holder writes in DATA_DIR (readable by its owner alone), so a refused process can say
 * who holds the folder, and one that may read the folder can prove it when it asks the holder
 * for something: `key` is random per holder.
 */
export type LockHolder = { pid: number; host: string; startedAt: string; key?: string }

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
  const key = randomBytes(24).toString('hex')
  let handler: HolderCommandHandler | undefined
  // A probe (file kind) only needs the connection to succeed; a command comes as one line,
  // `<key> <command>`, from a process that could read the holder file.
  server.on('connection', (socket) => {
    if (!handler) return socket.destroy()
    answerOne(socket, key, handler)
  })
  // The lock must not keep the process alive by itself.
  server.unref()
  writeHolder(dir, key)
  let released = false
  return {
    address,
    answerCommands: (next) => {
      handler = next
    },
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

function writeHolder(dir: string, key: string) {
  const holder: LockHolder = {
    pid: process.pid,
    host: os.hostname(),
    startedAt: new Date().toISOString(),
    key,
  }
  const file = path.join(dir, HOLDER_FILE)
  const tmp = `${file}.${process.pid}.tmp`
  try {
    // The key lets whoever reads it ask for a copy of the database: its owner alone may.
    writeFileSync(tmp, `${JSON.stringify(holder)}\n`, { mode: 0o600 })
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

/** The longest command line a holder reads before it gives up on the caller. */
const MAX_COMMAND_BYTES = 256
/** How long a caller has to send its command. */
const COMMAND_TIMEOUT_MS = 5_000

/**
 * Reads one `<key> <command>` line and answers `OK\n` and the handler's bytes, or `ERR <why>\n`.
 * A caller without the key, or that says nothing, is hung up on.
 */
function answerOne(socket: net.Socket, key: string, handler: HolderCommandHandler) {
  let line = ''
  socket.setTimeout(COMMAND_TIMEOUT_MS, () => socket.destroy())
  socket.on('error', () => socket.destroy())
  const onData = (chunk: Buffer) => {
    line += chunk.toString('latin1')
    const end = line.indexOf('\n')
    if (end === -1) {
      if (line.length > MAX_COMMAND_BYTES) socket.destroy()
      return
    }
    socket.off('data', onData)
    socket.setTimeout(0)
    const [given = '', command = ''] = line.slice(0, end).split(' ')
    const expected = Buffer.from(key)
    const offered = Buffer.from(given)
    if (offered.length !== expected.length || !timingSafeEqual(offered, expected)) {
      return socket.end('ERR wrong key\n')
    }
    let started = false
    handler(command, (bytes) => {
      if (!started) socket.write('OK\n')
      started = true
      socket.write(bytes)
    }).then(
      () => (started ? socket.end() : socket.end('OK\n')),
      (err: unknown) => {
        if (started) return socket.destroy()
        socket.end(`ERR ${(err as Error).message.split('\n')[0]}\n`)
      },
    )
  }
  socket.on('data', onData)
}

/** The holder refused a command, or was not there to answer it. */
export class HolderCommandError extends Error {}

/**
 * Asks the process holding `dataDir` to do `command` (this process must be able to read the
 * folder's holder file) and resolves with the bytes it answered.
 */
export async function askHolder(
  dataDir: string,
  command: string,
  opts: { kind?: LockKind } = {},
): Promise<Buffer> {
  const dir = path.resolve(dataDir)
  const holder = readHolder(dir)
  if (!holder?.key) {
    throw new HolderCommandError(
      `cannot ask the process holding DATA_DIR ${dir}: its lock file is missing or unreadable`,
    )
  }
  const address = lockAddress(dir, opts.kind ?? defaultLockKind())
  const answer = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = []
    const socket = net.connect(address, () => socket.write(`${holder.key} ${command}\n`))
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.once('end', () => resolve(Buffer.concat(chunks)))
    socket.once('error', (err) =>
      reject(
        new HolderCommandError(`the process holding DATA_DIR did not answer (${err.message})`),
      ),
    )
  })
  const newline = answer.indexOf(10)
  const status = answer.subarray(0, newline === -1 ? answer.length : newline).toString('utf8')
  if (status === 'OK') return answer.subarray(newline + 1)
  if (status.startsWith('ERR ')) throw new HolderCommandError(status.slice(4))
  throw new HolderCommandError('the process holding DATA_DIR closed the connection early')
}
