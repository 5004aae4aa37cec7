// The production arrangement of deploy/, started on this machine for a test or a benchmark:
// PostgreSQL (a database of its own on the server at TEST_DATABASE_URL), a Redis of its own, N
// app processes run from deploy/podclub@.service's command line with deploy/podclub.env's
// settings, and Caddy from deploy/Caddyfile. Everything listens on 127.0.0.1 and talks to
// 127.0.0.1 only; `stop()` takes it all down again (processes, database, temporary folder),
// also after a failure, and an exit of this process kills what is still running.
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import http2 from 'node:http2'
import https from 'node:https'
import { connect as connectTcp } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'

export const root = fileURLToPath(new URL('../../', import.meta.url))
export const deployDir = path.join(root, 'deploy')

// ---------------------------------------------------------------------------------------------
// deploy/'s files, read as systemd and Caddy read them

export type Unit = {
  /** ExecStart, split into words as systemd splits it. */
  execStart: string[]
  /** Environment= assignments, in order. */
  environment: Record<string, string>
  environmentFiles: string[]
  workingDirectory: string
  restart: string
  restartSec: number
}

/** Splits a systemd command line or Environment= value into words (quotes, backslashes). */
function splitWords(text: string): string[] {
  const words: string[] = []
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g
  for (const m of text.matchAll(re)) words.push(m[1] ?? m[2] ?? m[3]!)
  return words
}

/**
 * Reads a template unit's [Service] section for the instance `instance` (`%i`). Specifiers other
 * than %i, %I and %% are refused, so a unit that comes to need another one fails here loudly.
 */
export function readUnit(file: string, instance: string): Unit {
  const text = readFileSync(file, 'utf8')
  const settings = new Map<string, string[]>()
  let section = ''
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue
    const header = /^\[(.+)\]$/.exec(line)
    if (header) {
      section = header[1]!
      continue
    }
    if (section !== 'Service') continue
    const eq = line.indexOf('=')
    const key = line.slice(0, eq).trim()
    const value = line.slice(eq + 1).trim()
    const expanded = value.replace(/%(.)/g, (_, spec: string) => {
      if (spec === 'i' || spec === 'I') return instance
      if (spec === '%') return '%'
      throw new Error(`${file}: the specifier %${spec} is not one this test knows`)
    })
    settings.set(key, [...(settings.get(key) ?? []), expanded])
  }
  const one = (key: string) => {
    const values = settings.get(key)
    if (!values || values.length !== 1) throw new Error(`${file}: expected one ${key}=`)
    return values[0]!
  }
  const environment: Record<string, string> = {}
  for (const value of settings.get('Environment') ?? []) {
    for (const word of splitWords(value)) {
      const eq = word.indexOf('=')
      environment[word.slice(0, eq)] = word.slice(eq + 1)
    }
  }
  return {
    execStart: splitWords(one('ExecStart')),
    environment,
    environmentFiles: settings.get('EnvironmentFile') ?? [],
    workingDirectory: one('WorkingDirectory'),
    restart: one('Restart'),
    restartSec: Number(one('RestartSec')),
  }
}

/** A settings file in systemd's EnvironmentFile format, as name/value pairs in order. */
export function parseEnvironmentFile(text: string): [string, string][] {
  const pairs: [string, string][] = []
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue
    const eq = line.indexOf('=')
    if (eq <= 0) throw new Error(`not a NAME=value line: ${line}`)
    let value = line.slice(eq + 1).trim()
    if (/^(["']).*\1$/.test(value)) value = value.slice(1, -1)
    pairs.push([line.slice(0, eq).trim(), value])
  }
  return pairs
}

/**
 * deploy/podclub.env with the lines that name this machine's services replaced by `values`
 * (and names it lacks added): what an operator does to the file on their server.
 */
export function editSettings(text: string, values: Record<string, string>): string {
  const left = new Map(Object.entries(values))
  const lines = text.split('\n').map((line) => {
    const m = /^([A-Z_][A-Z0-9_]*)=/.exec(line.trim())
    if (!m || !left.has(m[1]!)) return line
    const value = left.get(m[1]!)!
    left.delete(m[1]!)
    return `${m[1]}=${value}`
  })
  for (const [name, value] of left) lines.push(`${name}=${value}`)
  return lines.join('\n')
}

// ---------------------------------------------------------------------------------------------
// Loopback only

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]'])

/** Refuses a URL that is not on this machine: the topology talks to nothing else. */
export function onLoopback(url: string, what: string): URL {
  const parsed = new URL(url)
  if (!LOOPBACK.has(parsed.hostname)) {
    throw new Error(`${what} must be on this machine (127.0.0.1), not ${parsed.hostname}`)
  }
  return parsed
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connectTcp({ port, host: '127.0.0.1' })
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

/** Whether the site answers /readyz with 200 through Caddy (HTTPS, Caddy's CA trusted). */
function siteAnswers(port: number, ca: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = https.get(
      {
        host: '127.0.0.1',
        port,
        path: '/readyz',
        servername: 'localhost',
        ca,
        headers: { host: `localhost:${port}` },
        timeout: 2_000,
      },
      (res) => {
        res.resume()
        resolve(res.statusCode === 200)
      },
    )
    req.on('error', () => resolve(false))
    req.on('timeout', () => req.destroy())
  })
}

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

// ---------------------------------------------------------------------------------------------
// Processes

/** Every child this module started and has not seen end: killed if this process exits. */
const running = new Set<ChildProcess>()
let exitHookInstalled = false
function track(child: ChildProcess) {
  if (!exitHookInstalled) {
    exitHookInstalled = true
    process.once('exit', () => {
      for (const c of running) c.kill('SIGKILL')
    })
  }
  running.add(child)
  child.once('exit', () => running.delete(child))
}

function startChild(
  command: string,
  args: string[],
  opts: { cwd: string; env: Record<string, string> },
) {
  const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: 'pipe' })
  track(child)
  let output = ''
  const keep = (chunk: Buffer) => {
    output += chunk.toString()
    // The end is what a failure needs; a long run's start is not.
    if (output.length > 200_000) output = output.slice(-100_000)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve())
    // A program that is not installed never starts, and never exits.
    child.once('error', (err) => {
      output += `${err.message}\n`
      running.delete(child)
      resolve()
    })
  })
  return { child, exited, output: () => output }
}

async function stopChild(
  proc: { child: ChildProcess; exited: Promise<void> },
  graceMs = 10_000,
): Promise<void> {
  const { child } = proc
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
  await proc.exited
  clearTimeout(timer)
}

/** The PATH systemd gives a service: nothing of the caller's environment comes along. */
const SYSTEMD_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'

/**
 * One podclub@<port> instance as systemd runs it: the unit's ExecStart in the release tree
 * (this checkout stands for WorkingDirectory), its Environment= laid under the settings file
 * (systemd lets EnvironmentFile override Environment=), nothing else of this process's
 * environment; with Restart=always, started again RestartSec after it ends, until stopped.
 */
export class AppProcess {
  readonly base: string
  /** Starts so far, the first included. */
  starts = 0
  /** Ends so far, however they came. */
  exits = 0
  private current?: ReturnType<typeof startChild>
  private stopping = false
  private restartTimer?: NodeJS.Timeout
  private log = ''

  constructor(
    readonly port: number,
    private readonly unit: Unit,
    private readonly settingsFile: string,
  ) {
    this.base = `http://127.0.0.1:${port}`
  }

  start() {
    this.starts += 1
    const settings = Object.fromEntries(
      parseEnvironmentFile(readFileSync(this.settingsFile, 'utf8')),
    )
    const [program, ...args] = this.unit.execStart
    // The unit names Debian's node (/usr/bin/node); a machine whose node lives elsewhere runs
    // the one running this.
    const command =
      program === undefined || existsSync(program) || path.basename(program) !== 'node'
        ? program!
        : process.execPath
    const proc = startChild(command, args, {
      cwd: root,
      env: { PATH: SYSTEMD_PATH, ...this.unit.environment, ...settings },
    })
    this.current = proc
    proc.child.once('exit', (code, signal) => {
      this.exits += 1
      this.log += `[exited: ${signal ?? code}]\n`
      if (this.stopping || this.unit.restart !== 'always') return
      this.restartTimer = setTimeout(() => {
        if (!this.stopping) this.start()
      }, this.unit.restartSec * 1000)
    })
    proc.child.stdout?.on(
      'data',
      (c: Buffer) => (this.log = (this.log + c.toString()).slice(-50_000)),
    )
    proc.child.stderr?.on(
      'data',
      (c: Buffer) => (this.log = (this.log + c.toString()).slice(-50_000)),
    )
  }

  get pid(): number | undefined {
    return this.current?.child.pid
  }

  isRunning(): boolean {
    const child = this.current?.child
    return !!child && child.exitCode === null && child.signalCode === null
  }

  /** Everything its starts printed, the last 50 KB. */
  output(): string {
    return this.log
  }

  /** `kill -9`: the process ends at once, as in a crash; Restart=always brings it back. */
  kill9() {
    this.current?.child.kill('SIGKILL')
  }

  async readyz(): Promise<boolean> {
    try {
      return (await fetch(`${this.base}/readyz`, { signal: AbortSignal.timeout(2_000) })).ok
    } catch {
      return false
    }
  }

  async untilReady(timeoutMs = 60_000) {
    await until(() => this.readyz(), timeoutMs, `podclub@${this.port} ready`).catch(
      (err: Error) => {
        throw new Error(`${err.message}; it printed:\n${this.log.slice(-5_000)}`)
      },
    )
  }

  /** systemctl stop: SIGTERM, and no restart. */
  async stop() {
    this.stopping = true
    clearTimeout(this.restartTimer)
    if (this.current) await stopChild(this.current, 40_000)
  }
}

// ---------------------------------------------------------------------------------------------
// The stack

export type StackOptions = {
  /** Ports used: base+1.. (app processes), +19 Caddy's admin, +25 SMTP (the caller's), +39
   * Redis, +43 HTTPS, +48 Caddy's plain HTTP. All on 127.0.0.1. */
  basePort: number
  processes: number
  /** The SMTP server the processes send to (the caller starts it, on base+25 by custom). */
  smtpUrl: string
  /** Settings laid over the settings file's, besides the ones that name this machine's parts. */
  settings?: Record<string, string>
}

export type Stack = {
  /** https://localhost:<port>: the public site, through Caddy. */
  origin: string
  httpsPort: number
  /** PEM of Caddy's local CA root, which signed the site's certificate. */
  caCert: string
  apps: AppProcess[]
  databaseUrl: string
  metricsToken: string
  caddyPid: () => number | undefined
  /** What Caddy printed lately: each 502 and 503 it answered, and why. */
  proxyOutput: () => string
  /** Points Caddy at these processes only (reloads its configuration through its admin API). */
  useUpstreams(apps: AppProcess[]): Promise<void>
  stop(): Promise<void>
}

export const SUPER_USER = {
  username: 'admin',
  password: 'admin-password-topology',
  email: 'admin@podclub.test',
}
export const CLUB_CODE = 'topologyclub'

export async function startStack(opts: StackOptions): Promise<Stack> {
  const { basePort } = opts
  const ports = {
    apps: Array.from({ length: opts.processes }, (_, i) => basePort + 1 + i),
    admin: basePort + 19,
    redis: basePort + 39,
    https: basePort + 43,
    http: basePort + 48,
  }
  const closers: Array<() => Promise<unknown> | unknown> = []
  const stop = async () => {
    const errors: unknown[] = []
    for (const close of closers.splice(0).reverse()) {
      try {
        await close()
      } catch (err) {
        errors.push(err)
      }
    }
    if (errors.length > 0) throw new AggregateError(errors, 'the topology did not stop cleanly')
  }

  try {
    const dir = await mkdtemp(path.join(tmpdir(), 'podclub-topology-'))
    closers.push(() => rm(dir, { recursive: true, force: true }))

    // PostgreSQL: a database of its own, dropped at the end whatever happened.
    const server = onLoopback(
      process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
      'TEST_DATABASE_URL',
    )
    const name = `podclub_topology_${randomBytes(5).toString('hex')}`
    const admin = async (statement: string) => {
      const client = new pg.Client({
        connectionString: server.toString(),
        connectionTimeoutMillis: 5_000,
      })
      await client.connect()
      try {
        await client.query(statement)
      } finally {
        await client.end()
      }
    }
    await admin(`create database ${name}`).catch((err: Error) => {
      throw new Error(
        `the topology needs the PostgreSQL server at ${server.host} (TEST_DATABASE_URL): ${err.message}`,
      )
    })
    closers.push(() => admin(`drop database if exists ${name} with (force)`))
    const databaseUrl = new URL(server)
    databaseUrl.pathname = `/${name}`

    // Redis of its own: the rate limits' counters start empty on every run (the machine's
    // Redis would keep the last run's for 15 minutes and more) and nothing shared is touched.
    const redis = startChild(
      'redis-server',
      [
        '--port',
        String(ports.redis),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
      ],
      { cwd: dir, env: { PATH: process.env.PATH ?? SYSTEMD_PATH } },
    )
    closers.push(() => stopChild(redis))
    await until(
      async () => {
        if (redis.child.exitCode !== null || redis.child.pid === undefined) {
          throw new Error(`redis-server did not start: ${redis.output()}`)
        }
        return portAnswers(ports.redis)
      },
      10_000,
      'redis-server (Debian: apt-get install redis-server)',
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n${redis.output()}`)
    })

    // The settings file as an operator edits it for this machine.
    const metricsToken = randomBytes(24).toString('hex')
    const origin = `https://localhost:${ports.https}`
    const settingsText = await readFile(path.join(deployDir, 'podclub.env'), 'utf8')
    const shipped = Object.fromEntries(parseEnvironmentFile(settingsText))
    for (const required of [
      'HOST',
      'TRUST_PROXY',
      'METRICS_TOKEN',
      'APP_URL',
      'DATABASE_URL',
      'REDIS_URL',
    ])
      if (!shipped[required]) throw new Error(`deploy/podclub.env sets no ${required}`)
    if ('PORT' in shipped) throw new Error('deploy/podclub.env must not set PORT (the unit does)')
    const settingsFile = path.join(dir, 'podclub.env')
    await writeFile(
      settingsFile,
      editSettings(settingsText, {
        APP_URL: origin,
        DATABASE_URL: databaseUrl.toString(),
        REDIS_URL: `redis://127.0.0.1:${ports.redis}`,
        SMTP_URL: opts.smtpUrl,
        MAIL_FROM: 'podclub <hello@podclub.test>',
        CONTACT_EMAIL: 'hello@podclub.test',
        METRICS_TOKEN: metricsToken,
        ADMIN_USERNAME: SUPER_USER.username,
        ADMIN_PASSWORD: SUPER_USER.password,
        ADMIN_EMAIL: SUPER_USER.email,
        CLUB_INVITE_CODE: CLUB_CODE,
        LOG_LEVEL: 'warn',
        ...opts.settings,
      }),
      { mode: 0o600 },
    )

    // The app processes, as systemd runs podclub@<port>. The first migrates the new database;
    // the others, started together, wait for its lock.
    const unitFile = path.join(deployDir, 'podclub@.service')
    const apps = ports.apps.map(
      (port) => new AppProcess(port, readUnit(unitFile, String(port)), settingsFile),
    )
    for (const app of apps) closers.push(() => app.stop())
    for (const app of apps) app.start()
    await Promise.all(apps.map((app) => app.untilReady()))

    // Caddy from deploy/Caddyfile, its state (the local CA) in the temporary folder.
    const caddyHome = path.join(dir, 'caddy')
    const upstreams = (list: AppProcess[]) => list.map((a) => `127.0.0.1:${a.port}`).join(' ')
    const caddyEnv = (list: AppProcess[]) => ({
      PATH: process.env.PATH ?? SYSTEMD_PATH,
      HOME: caddyHome,
      XDG_DATA_HOME: path.join(caddyHome, 'data'),
      XDG_CONFIG_HOME: path.join(caddyHome, 'config'),
      PODCLUB_SITE: `localhost:${ports.https}`,
      PODCLUB_UPSTREAMS: upstreams(list),
      PODCLUB_HTTP_PORT: String(ports.http),
      PODCLUB_HTTPS_PORT: String(ports.https),
      PODCLUB_CADDY_ADMIN: `127.0.0.1:${ports.admin}`,
      PODCLUB_BIND: '127.0.0.1',
    })
    const caddyfile = path.join(deployDir, 'Caddyfile')
    const caddy = startChild('caddy', ['run', '--config', caddyfile, '--adapter', 'caddyfile'], {
      cwd: dir,
      env: caddyEnv(apps),
    })
    closers.push(() => stopChild(caddy))
    const rootCert = path.join(
      caddyHome,
      'data',
      'caddy',
      'pki',
      'authorities',
      'local',
      'root.crt',
    )
    await until(
      async () => {
        if (caddy.child.exitCode !== null || caddy.child.pid === undefined) {
          throw new Error(`caddy did not start:\n${caddy.output()}`)
        }
        return existsSync(rootCert) && (await portAnswers(ports.https))
      },
      20_000,
      'caddy (Debian: apt-get install caddy)',
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n${caddy.output().slice(-5_000)}`)
    })
    const caCert = await readFile(rootCert, 'utf8')
    await until(() => siteAnswers(ports.https, caCert), 20_000, 'the site through caddy').catch(
      (err: Error) => {
        throw new Error(`${err.message}\n${caddy.output().slice(-5_000)}`)
      },
    )

    return {
      origin,
      httpsPort: ports.https,
      caCert,
      apps,
      databaseUrl: databaseUrl.toString(),
      metricsToken,
      caddyPid: () => caddy.child.pid,
      proxyOutput: () => caddy.output(),
      async useUpstreams(list) {
        const reload = startChild(
          'caddy',
          [
            'reload',
            '--config',
            caddyfile,
            '--adapter',
            'caddyfile',
            '--address',
            `127.0.0.1:${ports.admin}`,
          ],
          { cwd: dir, env: caddyEnv(list) },
        )
        await reload.exited
        if (reload.child.exitCode !== 0) throw new Error(`caddy reload failed:\n${reload.output()}`)
      },
      stop,
    }
  } catch (err) {
    await stop().catch(() => {})
    throw err
  }
}

// ---------------------------------------------------------------------------------------------
// A client of the site over HTTP/2 and TLS, trusting Caddy's local CA only

export type H2Response = {
  status: number
  headers: http2.IncomingHttpHeaders
  text: string
  json<T = unknown>(): T
}

/**
 * One HTTP/2 connection to the site, as a browser holds one, many requests on it at once. It
 * connects to 127.0.0.1 whatever the site's name resolves to.
 */
export class H2Client {
  private session?: http2.ClientHttp2Session

  constructor(
    readonly origin: string,
    private readonly ca: string,
  ) {
    onLoopback(origin, 'the site')
  }

  private connect(): http2.ClientHttp2Session {
    if (this.session && !this.session.closed && !this.session.destroyed) return this.session
    const url = new URL(this.origin)
    const session = http2.connect(this.origin, {
      ca: this.ca,
      servername: url.hostname,
      // Never a name lookup: localhost is 127.0.0.1 here.
      host: '127.0.0.1',
      lookup: (_host, options, callback) => {
        if ((options as { all?: boolean }).all)
          callback(null, [{ address: '127.0.0.1', family: 4 }])
        else (callback as (e: null, a: string, f: number) => void)(null, '127.0.0.1', 4)
      },
    } as http2.SecureClientSessionOptions)
    session.on('error', () => {})
    this.session = session
    return session
  }

  /** The protocol the connection speaks (`h2` once the TLS handshake chose it). */
  async alpn(): Promise<string | false | undefined> {
    const session = this.connect()
    if (!session.connecting) return session.alpnProtocol
    await new Promise((resolve) => session.once('connect', resolve))
    return session.alpnProtocol
  }

  request(
    method: string,
    urlPath: string,
    opts: { headers?: Record<string, string>; body?: string; timeoutMs?: number } = {},
  ): Promise<H2Response> {
    const session = this.connect()
    return new Promise((resolve, reject) => {
      // As a browser does: the body's length is said, so the proxy does not forward it chunked.
      const length =
        method === 'GET' ? {} : { 'content-length': String(Buffer.byteLength(opts.body ?? '')) }
      const stream = session.request({
        ':method': method,
        ':path': urlPath,
        ...length,
        ...opts.headers,
      })
      stream.setTimeout(opts.timeoutMs ?? 15_000, () =>
        stream.close(http2.constants.NGHTTP2_CANCEL),
      )
      let headers: http2.IncomingHttpHeaders = {}
      const chunks: Buffer[] = []
      stream.on('response', (h) => (headers = h))
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        const text = Buffer.concat(chunks).toString()
        resolve({
          status: Number(headers[':status'] ?? 0),
          headers,
          text,
          json: <T>() => JSON.parse(text) as T,
        })
      })
      stream.on('error', reject)
      stream.on('close', () => {
        if (!headers[':status'])
          reject(new Error(`${method} ${urlPath}: stream closed without an answer`))
      })
      stream.end(opts.body)
    })
  }

  async close() {
    const session = this.session
    this.session = undefined
    if (!session || session.closed) return
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        session.destroy()
        resolve()
      }, 2_000)
      session.close(() => {
        clearTimeout(timer)
        resolve()
      })
    })
  }
}

/**
 * A member's browser on the site: its own HTTP/2 connection, the cookies it is given, the CSRF
 * token and Origin on writes, as the page sends them.
 */
export class SiteAgent {
  readonly jar = new Map<string, string>()
  readonly client: H2Client

  constructor(origin: string, ca: string) {
    this.client = new H2Client(origin, ca)
  }

  private remember(res: H2Response) {
    const set = res.headers['set-cookie'] ?? []
    for (const line of Array.isArray(set) ? set : [set]) {
      const [pair = ''] = line.split(';')
      const eq = pair.indexOf('=')
      const name = pair.slice(0, eq).trim()
      const value = pair.slice(eq + 1).trim()
      if (value === '' || /max-age=0/i.test(line)) this.jar.delete(name)
      else this.jar.set(name, value)
    }
  }

  cookieHeader(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ')
  }

  csrf(): string {
    return this.jar.get('csrftoken') ?? this.jar.get('__Host-csrftoken') ?? ''
  }

  async request(
    method: 'GET' | 'POST',
    urlPath: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<H2Response> {
    if (method !== 'GET' && !this.csrf()) await this.request('GET', '/api/v1/whoami/')
    const all: Record<string, string> = { ...headers }
    if (this.jar.size > 0) all.cookie = this.cookieHeader()
    if (method !== 'GET') {
      all['x-csrftoken'] = this.csrf()
      all.origin = this.client.origin
    }
    if (body !== undefined) all['content-type'] = 'application/json'
    const res = await this.client.request(method, urlPath, {
      headers: all,
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    this.remember(res)
    return res
  }

  get(urlPath: string) {
    return this.request('GET', urlPath)
  }

  post(urlPath: string, body?: unknown, headers?: Record<string, string>) {
    return this.request('POST', urlPath, body, headers)
  }

  close() {
    return this.client.close()
  }
}
