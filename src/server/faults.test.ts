import { randomBytes } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { afterAll, describe, expect, it } from 'vitest'
import {
  freePort,
  processAgent,
  startServerProcess,
  untilReady,
  type ServerProcess,
} from './testing/server-process'
import { migratedDataDir } from './testing/test-db'

/**
 * PGlite has no connections to lose; its fault is a write the disk refuses. Every file the
 * process writes is capped a little above PGlite's largest at start (a 16 MB WAL segment), so
 * the chat log table grows until a write fails, as it would on a full disk.
 */
describe('a PGlite process whose disk refuses a write', () => {
  let dataDir = ''
  let server: ServerProcess | undefined
  afterAll(async () => {
    if (server?.isAlive()) server.child.kill('SIGKILL')
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  it('answers that write with an error, keeps serving, and takes the writes that fit', async () => {
    dataDir = await migratedDataDir('podclub-faults-')
    server = startServerProcess(
      await freePort(),
      { DATA_DIR: dataDir, DEMO: '1', ADMIN_PASSWORD: 'operator-password-1', LOG_LEVEL: 'warn' },
      { fileSizeLimitKb: 20_000 },
    )
    await untilReady(server, 'server ready')
    const operator = processAgent(server.base)
    const login = await operator.post('/api/v1/login/', {
      username: 'admin',
      password: 'operator-password-1',
    })
    expect(login.status).toBe(200)

    // Chat logs of random text, each kept as a new version until the table's file is full.
    const statuses: number[] = []
    for (let i = 0; i < 400 && !statuses.some((s) => s !== 200); i++) {
      const chatlog = randomBytes(150_000).toString('base64')
      const res = await fetch(`${server.base}/api/v1/controlpanel/podclubs/1/chatlog/`, {
        method: 'PUT',
        headers: {
          'content-type': 'application/json',
          cookie: [...operator.jar].map(([k, v]) => `${k}=${v}`).join('; '),
          'x-csrftoken': operator.jar.get('csrftoken')!,
        },
        body: JSON.stringify({ chatlog }),
      })
      statuses.push(res.status)
      await res.arrayBuffer()
    }
    const refused = statuses.at(-1)
    expect(statuses.slice(0, -1).every((s) => s === 200)).toBe(true)
    // A full disk lasts until someone acts: a logged 500, not a 'try again in 5 s'.
    expect(refused).toBe(500)
    console.info(`PGlite write refused after ${statuses.length - 1} chat logs, answered ${refused}`)

    // Still up: it reads, and a write that fits goes through.
    expect(server.isAlive()).toBe(true)
    expect((await fetch(`${server.base}/readyz`)).status).toBe(200)
    const feed = await operator.get('/api/v1/all_upcoming_podclubs/')
    expect(feed.status).toBe(200)
    const suggestion = await operator.post('/api/v1/suggest_podcast/', {
      podcastLink: 'https://example.com/show',
      reason: 'still writing after a refused write',
    })
    expect(suggestion.status).toBe(201)
    expect(server.output()).toContain('could not extend file')
    expect(server.output()).not.toMatch(/Unhandled 'error' event|uncaught|RuntimeError/i)
  }, 120_000)
})
