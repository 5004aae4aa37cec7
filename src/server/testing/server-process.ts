import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { createServer, type AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { adminEntry, serverEntry } from '../../../scripts/build.mjs'
import { answersOk, waitUntil } from './wait'

const root = fileURLToPath(new URL('../../../', import.meta.url))

/**
 * node's arguments for the built server and for the admin commands, as `npm start` and
 * `npm run admin` run them (the test run's global setup builds what changed first).
 */
export const serverCommand = [serverEntry]
export const adminCommand = [adminEntry]

/** The built server running as a real process, serving the API alone. */
export type ServerProcess = {
  child: ChildProcessWithoutNullStreams
  base: string
  /** Everything it printed so far, stdout and stderr. */
  output: () => string
  exited: Promise<number | null>
  /** Whether it still runs (no exit code, no signal). */
  isAlive: () => boolean
}

/** A port nothing listens on right now, as the system hands them out. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => resolve(port))
    })
  })
}

/**
 * Starts the built server with NODE_ENV=test on `port`. `env` is laid over a default of PGlite in
 * `DATA_DIR` (pass `DATABASE_URL` for PostgreSQL). `fileSizeLimitKb` caps the size of any file
 * the process writes (`ulimit -f`): past it a write fails with EFBIG, as on a full disk.
 * `openFilesLimit` caps the files it may hold open, its sockets included (`ulimit -n`).
 */
export function startServerProcess(
  port: number,
  env: Record<string, string>,
  opts: { fileSizeLimitKb?: number; openFilesLimit?: number } = {},
): ServerProcess {
  const node = [process.execPath, ...serverCommand]
  const limits = [
    opts.fileSizeLimitKb ? `ulimit -f ${opts.fileSizeLimitKb}` : '',
    opts.openFilesLimit ? `ulimit -n ${opts.openFilesLimit}` : '',
  ].filter(Boolean)
  const [command, ...args] =
    limits.length > 0
      ? ['bash', '-c', `${limits.join(' && ')} && exec "$@"`, 'bash', ...node]
      : node
  const child = spawn(command!, args, {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: '',
      CLUB_INVITE_CODE: 'processcode',
      LOG_LEVEL: 'info',
      NODE_ENV: 'test',
      ...env,
    },
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  return {
    child,
    base: `http://127.0.0.1:${port}`,
    output: () => output,
    exited,
    isAlive: () => child.exitCode === null && child.signalCode === null,
  }
}

/** Waits for /readyz; a server that exits or never answers fails with what it printed. */
export function untilReady(server: ServerProcess, what: string, timeoutMs = 60_000) {
  return Promise.race([
    waitUntil(() => answersOk(`${server.base}/readyz`), timeoutMs, what).catch((err: Error) => {
      throw new Error(`${err.message}; the server printed:\n${server.output()}`)
    }),
    server.exited.then((code) => {
      throw new Error(`${what}: the server exited with ${code}:\n${server.output()}`)
    }),
  ])
}

/** A CSRF token from the server, for the unsafe requests that follow. */
export async function csrfFor(base: string): Promise<string> {
  const who = await fetch(`${base}/api/v1/whoami/`)
  return /csrftoken=([^;]+)/.exec(who.headers.get('set-cookie') ?? '')![1]!
}

/** A JSON POST with the CSRF token as the page sends it. */
export async function postJson(
  base: string,
  csrf: string,
  url: string,
  body: unknown,
): Promise<Response> {
  return fetch(`${base}${url}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-csrftoken': csrf,
      cookie: `csrftoken=${csrf}`,
    },
    body: JSON.stringify(body),
  })
}

/**
 * A member's browser against a server process: keeps the session and CSRF cookies it is given
 * and sends the token on writes.
 */
export function processAgent(base: string, opts: { forwardedFor?: string } = {}) {
  const jar = new Map<string, string>()
  const remember = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';')
      const eq = pair.indexOf('=')
      const name = pair.slice(0, eq).trim()
      const value = pair.slice(eq + 1).trim()
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) jar.delete(name)
      else jar.set(name, value)
    }
  }
  const request = async (
    method: 'GET' | 'POST',
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Response> => {
    if (method !== 'GET' && !jar.has('csrftoken')) remember(await fetch(`${base}/api/v1/whoami/`))
    const all: Record<string, string> = { ...headers }
    if (jar.size > 0) all.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
    if (method !== 'GET') all['x-csrftoken'] = jar.get('csrftoken') ?? ''
    if (body !== undefined) all['content-type'] = 'application/json'
    if (opts.forwardedFor) all['x-forwarded-for'] = opts.forwardedFor
    const res = await fetch(`${base}${url}`, {
      method,
      headers: all,
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    remember(res)
    return res
  }
  return {
    jar,
    get: (url: string) => request('GET', url),
    post: (url: string, body?: unknown, headers?: Record<string, string>) =>
      request('POST', url, body, headers),
  }
}
