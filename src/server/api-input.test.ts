import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bootstrap } from './features/auth/bootstrap'
import { buildTestApp, createAgent, createUser, type TestApp } from './testing/test-app'

/**
 * Bad input never answers 5xx: every endpoint the API documents gets malformed JSON, wrong
 * types, NUL bytes, huge and unusual unicode strings and unknown fields, as a visitor, a member
 * and an operator. New endpoints are covered as soon as they are in the OpenAPI document.
 */
let t: TestApp
type Operation = { method: string; path: string; fields: string[] }
let operations: Operation[] = []

beforeAll(async () => {
  t = await buildTestApp()
  await bootstrap(t.db, t.env)
  const doc = t.app.swagger() as {
    paths: Record<
      string,
      Record<
        string,
        {
          requestBody?: {
            content?: Record<string, { schema?: { properties?: Record<string, unknown> } }>
          }
        }
      >
    >
  }
  operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      fields: Object.keys(op.requestBody?.content?.['application/json']?.schema?.properties ?? {}),
    })),
  )
})
afterAll(() => t.close())

const nastyString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 50 }),
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\ud800',
    '\udfff',
    '😀'.repeat(300),
    'x'.repeat(100_000),
    ' ',
    '%00',
    '../../etc/passwd',
    "'; drop table users; --",
    '<script>alert(1)</script>',
    '\u202e\u200b',
    '9'.repeat(40),
    '-1',
  ),
)
const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(nastyString, { maxLength: 3 }),
  fc.dictionary(nastyString, nastyString, { maxKeys: 3 }),
)
/** A value that passes most field rules, so one bad field at a time reaches the service. */
const plausible = (field: string) =>
  /email/i.test(field) ? 'someone@example.com' : /id$/i.test(field) ? 1 : 'plausible.value1'
const bodyFor = (fields: string[]) =>
  fc.oneof(
    fields.length === 0
      ? fc.constant({})
      : fc.tuple(fc.constantFrom(...fields), nastyString).map(([bad, value]) => ({
          ...Object.fromEntries(fields.map((f) => [f, plausible(f)])),
          [bad]: value,
        })),
    fc.record(Object.fromEntries(fields.map((f) => [f, nastyValue])), { requiredKeys: [] }),
    fc.record({
      ...Object.fromEntries(fields.map((f) => [f, nastyString])),
      unknownField: nastyValue,
    }),
    nastyValue,
  )
const rawBody = fc.oneof(
  fc.constantFrom('{', '{"a":', '[1,2', 'null', '"str"', '{"__proto__":{"x":1}}', '\u0000', ''),
  fc.string({ maxLength: 200 }),
)
const pathParam = fc.oneof(
  fc.integer().map(String),
  fc.constantFrom('0', '-1', '99999999999999999999', '1.5', 'abc', '%00', '%E0%A4%A', '..'),
  nastyString.map((s) => safeEncode(s.slice(0, 200))),
)

/** A lone surrogate cannot be percent-encoded; it stands for any malformed byte. */
function safeEncode(s: string) {
  try {
    return encodeURIComponent(s)
  } catch {
    return '%ED%A0%80'
  }
}

function urlFor(path: string, param: string) {
  return `/api/v1${path.replace(/^\/api\/v1/, '').replace(/\{[^}]+\}/g, param)}`
}

/** A client of the given role that can log in again when a call ended its session. */
async function agentAs(role: 'visitor' | 'member' | 'operator') {
  const agent = createAgent(t.app)
  const user =
    role === 'visitor' ? undefined : await createUser(t, { isSuperuser: role === 'operator' })
  const stayLoggedIn = async () => {
    if (user && !agent.jar.has('sessionid')) await agent.login(user.username, user.password)
  }
  await stayLoggedIn()
  return { agent, stayLoggedIn }
}

describe('every endpoint refuses bad input without a 5xx', () => {
  it('finds the endpoints to try', () => {
    expect(operations.length).toBeGreaterThanOrEqual(5)
    expect(
      operations.some((o) => o.path.includes('/login/') && o.fields.includes('password')),
    ).toBe(true)
  })

  // Every endpoint, many inputs each, logged in again after each logout: seconds on a quiet
  // machine, several times that while the other suites share its two cores.
  const FUZZ_TIMEOUT_MS = 60_000
  for (const role of ['visitor', 'member', 'operator'] as const) {
    it(
      `as ${role === 'operator' ? 'an' : 'a'} ${role}`,
      async () => {
        const { agent, stayLoggedIn } = await agentAs(role)
        for (const op of operations) {
          await fc.assert(
            fc.asyncProperty(
              pathParam,
              fc.oneof(
                bodyFor(op.fields).map((b) => ({ json: b })),
                rawBody.map((r) => ({ raw: r })),
              ),
              async (param, input) => {
                // The logout endpoint is one of those tried: log in again, or every route after
                // it would answer 401 before reading its input.
                await stayLoggedIn()
                const url = urlFor(op.path, param)
                const res =
                  'json' in input
                    ? await agent.request(url, {
                        method: op.method as 'GET',
                        ...(op.method === 'GET' ? {} : { body: input.json }),
                      })
                    : await agent.request(url, {
                        method: op.method as 'GET',
                        ...(op.method === 'GET'
                          ? {}
                          : { body: input.raw, headers: { 'content-type': 'application/json' } }),
                      })
                if (res.statusCode >= 500) {
                  throw new Error(`${op.method} ${url} answered ${res.statusCode}: ${res.body}`)
                }
                // A member or an operator reaches the route's input checks and its service.
                if (role !== 'visitor') expect(res.statusCode, `${op.method} ${url}`).not.toBe(401)
                expect(res.body).not.toMatch(/at .+\.ts:\d+|Failed query|params:/)
              },
            ),
            { numRuns: 40 },
          )
        }
      },
      FUZZ_TIMEOUT_MS,
    )
  }
})

describe('a NUL character', () => {
  it('is refused by the contract in every body field of every endpoint, naming the field', async () => {
    // As an operator, so every route reads its body; the other fields are plausible, so the
    // refusal must come from the field itself, not from the database or a later check.
    const { agent, stayLoggedIn } = await agentAs('operator')
    const tried: string[] = []
    for (const op of operations) {
      for (const field of op.fields) {
        await stayLoggedIn()
        const body = {
          ...Object.fromEntries(op.fields.map((f) => [f, plausible(f)])),
          [field]: 'a\u0000b',
        }
        const res = await agent.request(urlFor(op.path, '1'), { method: op.method as 'GET', body })
        const where = `${op.method} ${op.path} ${field}: ${res.statusCode} ${res.body}`
        expect(res.statusCode, where).toBe(400)
        expect(Object.keys(res.json() as object), where).toContain(field)
        tried.push(`${op.path} ${field}`)
      }
    }
    // The fields where a NUL once was a 500 are among those tried.
    for (const named of [
      '/login/ username',
      '/signup/ city',
      '/signup/ inviteCode',
      '/validate_invite_code/ code',
    ])
      expect(
        tried.some((f) => f.endsWith(named)),
        named,
      ).toBe(true)
  })
})
