import { isIP } from 'node:net'
import { z } from 'zod'

const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional()

const urlWithProtocols = (protocols: string[], example: string) =>
  z
    .string()
    .trim()
    .refine((v) => {
      try {
        return protocols.includes(new URL(v).protocol)
      } catch {
        return false
      }
    }, `must be a URL such as ${example}`)

const optionalUrl = (protocols: string[], example: string) =>
  z.preprocess((v) => (v === '' ? undefined : v), urlWithProtocols(protocols, example).optional())

function isAddressOrCidr(entry: string): boolean {
  const [address = '', bits, extra] = entry.split('/')
  const family = isIP(address)
  if (family === 0 || extra !== undefined) return false
  if (bits === undefined) return true
  const n = Number(bits)
  return /^\d+$/.test(bits) && n >= 0 && n <= (family === 4 ? 32 : 128)
}

/** Every setting podclub reads, checked once at start. See `.env.example`. */
export const envSchema = z.object({
  /** `npm start` sets production: only then does the server build and serve the page. */
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  /**
   * Without its trailing slashes, once here, so every link is `${APP_URL}/path` with one slash
   * (`https://club.example/` would make `https://club.example//podclubs/1`). Unset: this machine
   * at `HOST` and `PORT` (see `parseEnv`).
   */
  APP_URL: optionalUrl(['http:', 'https:'], 'https://podclub.example').transform((v) =>
    v?.replace(/\/+$/, ''),
  ),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: optionalUrl(['postgres:', 'postgresql:'], 'postgres://user@host:5432/podclub'),
  REDIS_URL: optionalUrl(['redis:', 'rediss:'], 'redis://127.0.0.1:6379'),
  SMTP_URL: optionalUrl(['smtp:', 'smtps:'], 'smtp://user:pass@host:587'),
  MAIL_FROM: z.string().trim().min(3).default('podclub <hello@podclub.local>'),
  CONTACT_EMAIL: z.email().default('hello@podclub.local'),
  /** Unset: a random club code is made on first start, kept in the database and printed. */
  CLUB_INVITE_CODE: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{4,64}$/, 'must be 4 to 64 letters, digits, - or _')
      .optional(),
  ),
  /** Unset: a random secret is made once and kept in the database, shared by every process. */
  SESSION_SECRET: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string().min(32, 'must be at least 32 characters').optional(),
  ),
  ZOOM_LINK: optionalUrl(['https:', 'http:'], 'https://zoom.us/j/123').transform((v) => v ?? ''),
  /** Where nyc podclubs meet, written into their reminders and calendar entries. */
  NYC_OFFICE_ADDRESS: z.string().trim().min(1).default('podclub NYC Office, New York, NY'),
  ADMIN_USERNAME: z
    .string()
    .trim()
    .regex(/^[a-z0-9.]{3,24}$/, 'must be 3 to 24 lowercase letters, digits or periods')
    .default('admin'),
  ADMIN_PASSWORD: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string().min(8, 'must be at least 8 characters').optional(),
  ),
  ADMIN_EMAIL: z.preprocess((v) => (v === '' ? undefined : v), z.email().optional()),
  /**
   * Behind reverse proxies, which of them to believe about the client's address (rate limits key
   * on it): a hop count (`1`: the nearest proxy) or the proxies' addresses and CIDR ranges,
   * comma-separated. Never "trust everyone": the left-most X-Forwarded-For entry is the client's
   * own to write.
   */
  TRUST_PROXY: optionalText.transform((v, ctx): false | number | string[] => {
    if (v === undefined || v === '0' || v === 'false') return false
    if (/^\d+$/.test(v)) return Number(v)
    const entries = v
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean)
    const bad = entries.find((e) => !isAddressOrCidr(e))
    if (bad !== undefined || entries.length === 0) {
      ctx.addIssue({
        code: 'custom',
        message: `must be a hop count (such as 1) or the proxies' addresses or CIDR ranges, comma-separated (got "${bad ?? v}")`,
      })
      return z.NEVER
    }
    return entries
  }),
  /**
   * Unset: `GET /metrics` answers only this machine (loopback, not through a proxy). Set: anyone
   * sending it as `Authorization: Bearer <token>`, and nobody else.
   */
  METRICS_TOKEN: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z
      .string()
      .trim()
      .regex(/^[\x21-\x7e]{16,256}$/, 'must be 16 to 256 characters, with no spaces')
      .optional(),
  ),
  /**
   * Live streams (GET /events/) one process holds open at most; beyond it a new one gets 503 with
   * Retry-After. Unset: sized from the process's open-file limit, leaving room for ordinary
   * requests, the database and files (`live-capacity.ts`).
   */
  LIVE_STREAMS_MAX: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.coerce
      .number({ error: 'must be a whole number of streams' })
      .int('must be a whole number of streams')
      .min(1, 'must be at least 1')
      .max(1_000_000, 'must be at most 1000000')
      .optional(),
  ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DEMO: optionalText.transform((v) => v === '1' || v === 'true'),
})

export type Env = Omit<z.infer<typeof envSchema>, 'APP_URL'> & { APP_URL: string }

export class EnvError extends Error {}

/**
 * The address of a server listening on `host` and `port`, as a browser on this machine opens it:
 * `localhost` for every address (0.0.0.0, ::), an IPv6 address in brackets.
 */
export function localAppUrl(host: string, port: number): string {
  const name =
    host === '0.0.0.0' || host === '::' || host === '[::]'
      ? 'localhost'
      : isIP(host) === 6
        ? `[${host}]`
        : host
  return `http://${name}:${port}`
}

/** Parses settings; throws an EnvError whose message names every bad setting. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = envSchema.safeParse(source)
  const lines = result.success
    ? []
    : result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`)
  // Behind a proxy, a request that reached the process from loopback may be anyone's: the proxy
  // decides which headers it adds. Without a token nothing would tell the scraper from the world.
  if (result.success && result.data.TRUST_PROXY !== false && !result.data.METRICS_TOKEN) {
    lines.push(
      '  METRICS_TOKEN: must be set when TRUST_PROXY is (behind a proxy, GET /metrics needs its token)',
    )
  }
  if (result.success && lines.length === 0) {
    const env = result.data
    return { ...env, APP_URL: env.APP_URL ?? localAppUrl(env.HOST, env.PORT) }
  }
  throw new EnvError(`Invalid settings:\n${lines.join('\n')}`)
}
