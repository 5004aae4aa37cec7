import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openEventStream, type EventStreamClient } from '../../testing/event-stream'
import {
  freePort,
  startServerProcess,
  untilReady,
  type ServerProcess,
} from '../../testing/server-process'
import { liveStreamsCap } from './live-capacity'
import { STREAMS_PER_ADDRESS } from './live.hub'

/** The open-file limit the server runs under: hundreds instead of tens of thousands. */
const FILES = 512
let server: ServerProcess | undefined
let dir: string | undefined
const held: EventStreamClient[] = []
afterAll(async () => {
  for (const s of held) s.close()
  if (server?.isAlive()) server.child.kill('SIGKILL')
  if (dir) await rm(dir, { recursive: true, force: true })
})

/** A stream from its own loopback address, or how it failed within a few seconds. */
async function tryStream(base: string, from: string): Promise<number | string> {
  const timeout = new Promise<string>((resolve) => setTimeout(() => resolve('no answer'), 5_000))
  const opened = openEventStream(`${base}/api/v1/events/`, { localAddress: from }).then(
    (s) => {
      held.push(s)
      return s.status
    },
    (err: Error) => err.message,
  )
  return Promise.race([opened, timeout])
}

/** Whether the server still answers an ordinary request within a few seconds. */
async function answers(url: string): Promise<number | string> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(5_000) })).status
  } catch (err) {
    return (err as Error).message
  }
}

describe('a server process under more live streams than it has files for', () => {
  it('refuses streams past its cap with 503, and keeps answering everything else', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'podclub-live-cap-'))
    server = startServerProcess(await freePort(), { DATA_DIR: dir }, { openFilesLimit: FILES })
    await untilReady(server, 'server ready')
    const cap = liveStreamsCap(undefined, FILES)

    // More streams than the process has files, 20 from each loopback address.
    const statuses: Array<number | string> = []
    for (let i = 0; statuses.length < FILES + 20; i++) {
      const from = `127.0.${10 + Math.floor(i / STREAMS_PER_ADDRESS)}.1`
      statuses.push(await tryStream(server.base, from))
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(cap)
    expect(
      statuses.slice(cap).every((s) => s === 503),
      String(statuses.slice(cap)),
    ).toBe(true)

    // Health, the feed and whoami still answer, and the refusals were counted and logged.
    expect(await answers(`${server.base}/healthz`)).toBe(200)
    expect(await answers(`${server.base}/api/v1/podclubs/`)).toBe(200)
    expect(await answers(`${server.base}/api/v1/whoami/`)).toBe(200)
    const metrics = await (await fetch(`${server.base}/metrics`)).text()
    expect(metrics).toContain(
      `podclub_live_streams_refused_total{reason="process"} ${FILES + 20 - cap}`,
    )
    expect(metrics).toMatch(new RegExp(`^podclub_live_streams ${cap}$`, 'm'))
    expect(server.output()).toContain('live: streams refused')
  }, 120_000)
})
