import type { OutgoingHttpHeaders, ServerResponse } from 'node:http'
import { and, eq, sql, type SQL } from 'drizzle-orm'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { LiveEventName, LiveEvents, LivePodclub, LivePoll, LiveSeat } from '#contract/live'
import type { Db, Listen } from '../../db/client'
import { podclubs, registrations } from '../../db/schema/index'
import { AppError } from '../../lib/app-error'
import { networkOf } from '../../plugins/rate-limit'
import type { FeedCache } from '../podclubs/podclubs.feed-cache'
import { readPodclubs, readUpcomingPodclubs } from '../podclubs/podclubs.queries'
import { readPollResults } from '../polls/polls.service'
import type { LiveWriter, WriterEvents, WriterSettings } from './live-writer'

/** The channel the database's triggers NOTIFY on (migration 0011). */
export const LIVE_CHANNEL = 'podclub_live'
/** Open streams one address may hold in one process (a household behind one router, tabs). */
export const STREAMS_PER_ADDRESS = 20
/** Open streams one member may hold in one process (tabs and devices). */
export const STREAMS_PER_MEMBER = 10
/** A comment this often keeps proxies from closing a quiet stream, and ends expired sessions. */
export const HEARTBEAT_MS = 25_000
/** How long the browser waits before it reconnects a closed stream. */
export const RECONNECT_MS = 3_000
/**
 * A reconnect replays the events after its `Last-Event-ID`, and those of the few seconds before
 * it: ids are taken as transactions commit, so one taken a moment earlier may have been
 * delivered a moment later. Events carry state, not changes, so sending one twice costs bytes
 * only.
 */
export const REPLAY_MARGIN_MS = 5_000
/** A client that reads this far behind is cut off; it reconnects and catches up by replay. */
export const MAX_BUFFERED_BYTES = 256 * 1024
/**
 * The most streams written to before the fan-out of one event lets other work run: with
 * thousands of streams, a request arriving meanwhile waits for one slice, not for every stream.
 */
export const FANOUT_SLICE = 200
/** A slice also ends once it has taken this long (a busy machine makes each write slower). */
export const FANOUT_SLICE_MS = 4
/** How long a writer that stopped is waited for before the next is started. */
export const WRITER_RESTART_MS = 10_000
/** A stream refused at the process's cap is told to come back after this long (seconds). */
export const PROCESS_CAP_RETRY_AFTER_S = 30
/** Refusals at the process's cap are logged at most this often, with how many there were. */
const REFUSAL_LOG_MS = 10_000

/** Why a stream was refused: the process is full, or the address or member holds its share. */
export type StreamRefusal = 'process' | 'address' | 'member'

/** Lets requests and timers run between slices of a fan-out. */
const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve))

type Member = { id: number; username: string }

type Stream = {
  id: number
  res: ServerResponse
  /**
   * Who writes to it: this process (`here`, when there is no writer), this process while its
   * first writes flush before the handover (`handing`: events wait in `queued`), or the writer.
   */
  at: 'here' | 'handing' | 'writer'
  queued: string[]
  queuedBytes: number
  address: string
  member: Member | null
  sessionHash: string | null
  sessionExpiresAt: Date | null
}

type Seats = Pick<LivePodclub, 'api_registered_usernames' | 'seat_waitlist'>

export type LiveHubOptions = {
  db: Db
  /**
   * The feed's parts, kept by the versions: a seat change's event reads that podclub's seats
   * from them, as the next feed read would (on PGlite the seat's own transaction read them).
   */
  feed: Pick<FeedCache, 'seatsOf'>
  listen: Listen
  now: () => Date
  /** Streams this process holds at most (`liveStreamsCap`); beyond it 503 with Retry-After. */
  maxStreams: number
  /** Each refused stream, for the metrics. */
  onRefused?: (reason: StreamRefusal) => void
  log?: { warn: (obj: object, msg: string) => void }
  /**
   * Starts the process that holds the streams' connections and writes to them (live-writer.ts).
   * Without it, or while it cannot be started, this process writes to its streams itself.
   */
  startWriter?: (settings: WriterSettings, events: WriterEvents) => LiveWriter
}

/** One event as the stream sends it. */
export function frame<N extends LiveEventName>(id: number, name: N, data: LiveEvents[N]): string {
  return `id: ${id}\nevent: ${name}\ndata: ${JSON.stringify(data)}\n\n`
}

/** The members holding a seat in a podclub or waiting for one. */
const listedIn = (podclub: Seats) => [
  ...podclub.api_registered_usernames.reserved,
  ...podclub.seat_waitlist.waiting,
]

/** A member's own place in a podclub, from the lists everyone sees. */
function seatOf(podclub: Seats, username: string): Omit<LiveSeat, 'podclub_id' | 'promoted'> {
  const place = podclub.seat_waitlist.waiting.indexOf(username)
  return {
    registered: podclub.api_registered_usernames.reserved.includes(username),
    waitlist_position: place === -1 ? null : place + 1,
  }
}

/**
 * The live stream of one app process (docs/decisions/020). Writes raise events in the database
 * (migration 0011); every process LISTENs, reads the changed podclub or poll once per event and
 * sends it to each of its streams, and to a member whose own place changed, that place.
 * Listening starts with the first stream, so a process nobody watches does nothing.
 */
export function createLiveHub({
  db,
  feed,
  listen,
  now,
  maxStreams,
  onRefused,
  log,
  startWriter,
}: LiveHubOptions) {
  const streams = new Set<Stream>()
  const byId = new Map<number, Stream>()
  /** The streams this process still writes to itself: few, but all of them without a writer. */
  const here = new Set<Stream>()
  /** Streams opened so far: the next one's id. */
  let opened = 0
  /** The writer, once it listens; `starting` until then. */
  let writer: LiveWriter | undefined
  let starting: LiveWriter | undefined
  /** When the last writer stopped without being closed: the next waits `WRITER_RESTART_MS`. */
  let writerLostAt = -Infinity
  const perAddress = new Map<string, number>()
  const perMember = new Map<number, number>()
  /** A member's open streams, by username: who is told of their own place. */
  const streamsOf = new Map<string, Set<Stream>>()
  /** Who held a seat and who waited, per podclub, as last sent: a member's change is the diff. */
  const seatsOf = new Map<number, Seats>()
  /** topic:ref → the newest event id not yet sent for it. Events on one thing coalesce. */
  const pending = new Map<string, number>()
  let draining: Promise<void> | undefined
  let started: Promise<() => Promise<void>> | undefined
  let heartbeat: NodeJS.Timeout | undefined
  let beating = false
  let closing = false
  /** Refusals at the process's cap since the last line logged about them, and when that was. */
  let unloggedRefusals = 0
  let refusalLoggedAt = 0

  const count = <K>(map: Map<K, number>, key: K, by: number) => {
    const next = (map.get(key) ?? 0) + by
    if (next <= 0) map.delete(key)
    else map.set(key, next)
  }

  /** One event to one stream, by whoever writes to it now. */
  function write(stream: Stream, text: string) {
    if (stream.at === 'writer') return writer?.send(text, [stream.id])
    if (stream.at === 'handing') {
      stream.queued.push(text)
      stream.queuedBytes += text.length
      // A client that does not read what came before is cut off, as below.
      if (stream.queuedBytes > MAX_BUFFERED_BYTES) stream.res.destroy()
      return
    }
    const { res } = stream
    if (res.destroyed || res.writableEnded) return
    if (res.writableLength > MAX_BUFFERED_BYTES) {
      res.destroy()
      return
    }
    res.write(text)
  }

  /**
   * One event to every stream: a message to the writer for those it holds, and the rest written
   * here a slice at a time. A stream handed over meanwhile is sent it through the writer, after
   * its handover.
   */
  function writeToAll(text: string): Promise<void> {
    writer?.send(text)
    return forEachStream((stream) => write(stream, text), [...here])
  }

  function remove(stream: Stream) {
    if (!streams.delete(stream)) return
    byId.delete(stream.id)
    here.delete(stream)
    count(perAddress, stream.address, -1)
    if (stream.member) {
      count(perMember, stream.member.id, -1)
      const held = streamsOf.get(stream.member.username)
      held?.delete(stream)
      if (held?.size === 0) streamsOf.delete(stream.member.username)
    }
    if (streams.size === 0 && heartbeat) {
      clearInterval(heartbeat)
      heartbeat = undefined
    }
  }

  function end(stream: Stream) {
    remove(stream)
    if (stream.at === 'writer') writer?.end([stream.id])
    else if (!stream.res.writableEnded) stream.res.end()
  }

  /** Starts the writer if there is none; once it listens, the streams held here go to it. */
  function startWriting() {
    if (writer || starting || !startWriter || closing) return
    if (performance.now() - writerLostAt < WRITER_RESTART_MS) return
    try {
      const started: LiveWriter = startWriter(
        { heartbeatMs: HEARTBEAT_MS, maxBufferedBytes: MAX_BUFFERED_BYTES, lingerMs: 2_000 },
        {
          onReady: () => {
            if (starting !== started) return
            starting = undefined
            writer = started
            for (const stream of [...here]) void handOver(stream, started)
          },
          onClosed: (ids) => {
            for (const id of ids) {
              const stream = byId.get(id)
              if (stream?.at === 'writer') remove(stream)
            }
          },
          onExit: (code) => {
            if (writer !== started && starting !== started) return
            // Its connections went with it: their browsers reconnect and replay what they missed.
            writer = starting = undefined
            writerLostAt = performance.now()
            const lost = [...streams].filter((s) => s.at === 'writer')
            for (const stream of lost) {
              remove(stream)
              // A connection still waiting to be handed over is closed here.
              stream.res.destroy()
            }
            log?.warn({ code, streams: lost.length }, 'live: the stream writer stopped')
          },
        },
      )
      starting = started
    } catch (err) {
      writerLostAt = performance.now()
      log?.warn({ err }, 'live: could not start the stream writer, writing the streams here')
    }
  }

  /**
   * Gives the stream's connection to the writer once what this process wrote to it (headers,
   * `retry`) has left for the network: the rest of it, the replay and every event after, goes
   * through the writer, in the order sent.
   */
  async function handOver(stream: Stream, to: LiveWriter) {
    const { res } = stream
    const socket = res.socket
    if (!socket || stream.at !== 'here' || res.destroyed) return
    stream.at = 'handing'
    // Written after what this process wrote, so its callback says all of that left.
    await new Promise((resolve) => res.write('', resolve))
    if (!streams.has(stream) || res.destroyed || to !== writer) {
      // Gone meanwhile, or the writer with it: what was queued is written here.
      stream.at = 'here'
      stream.queuedBytes = 0
      for (const text of stream.queued.splice(0)) write(stream, text)
      return
    }
    const queued = stream.queued.splice(0)
    stream.queuedBytes = 0
    stream.at = 'writer'
    here.delete(stream)
    to.handOver(stream.id, socket, res.chunkedEncoding, queued, (err) => {
      // This process's copy of the connection; the writer holds its own.
      socket.destroy()
      if (err && byId.get(stream.id) === stream) remove(stream)
    })
  }

  /**
   * Calls `each` for every stream (or those given), the ones opened meanwhile too, a slice at a
   * time (at most `FANOUT_SLICE` streams or `FANOUT_SLICE_MS`), letting requests and timers run
   * between.
   */
  async function forEachStream(
    each: (stream: Stream) => void | Promise<void>,
    of: Iterable<Stream> = streams,
  ) {
    let inSlice = 0
    let sliceStart = performance.now()
    for (const stream of of) {
      if (++inSlice > FANOUT_SLICE || performance.now() - sliceStart >= FANOUT_SLICE_MS) {
        await yieldToOthers()
        inSlice = 1
        sliceStart = performance.now()
      }
      // Gone while the previous slice waited: a Set's iteration skips it anyway, but not one
      // that left after this step began.
      if (!streams.has(stream)) continue
      const waiting = each(stream)
      if (waiting) await waiting
    }
  }

  function beat() {
    if (beating) return
    beating = true
    const at = now().getTime()
    // The writer sends its own keep-alives.
    void forEachStream((stream) => {
      if (stream.sessionExpiresAt && stream.sessionExpiresAt.getTime() <= at) end(stream)
      else if (stream.at !== 'writer') write(stream, ': keep-alive\n\n')
    }).finally(() => {
      beating = false
    })
  }

  function refuse(reason: StreamRefusal): never {
    onRefused?.(reason)
    if (reason !== 'process') {
      throw new AppError(
        'RATE_LIMITED',
        'Too many live connections are open: close some tabs and try again.',
        { 'retry-after': '30' },
      )
    }
    unloggedRefusals += 1
    const at = Date.now()
    if (at - refusalLoggedAt >= REFUSAL_LOG_MS) {
      log?.warn(
        { open: streams.size, max: maxStreams, refused: unloggedRefusals },
        'live: streams refused, the process holds as many as it may',
      )
      unloggedRefusals = 0
      refusalLoggedAt = at
    }
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      'Too many live connections on this server: the page reads again on its own.',
      { 'retry-after': String(PROCESS_CAP_RETRY_AFTER_S) },
    )
  }

  /** A podclub as its event tells it: an upcoming one's seats as the feed has them. */
  async function readPodclub(id: number): Promise<LivePodclub> {
    const seats = await feed.seatsOf(id)
    if (seats) return { id, status: 'upcoming', ...seats }
    // No longer upcoming (cancelled, completed, gone): rare, read as it is now.
    const [p] = await readPodclubs(db, eq(podclubs.id, id))
    if (!p) {
      return {
        id,
        status: 'cancelled',
        seats_left: 0,
        waitlist_count: 0,
        api_registered_usernames: { reserved: [] },
        seat_waitlist: { waiting: [] },
        removed: true,
      }
    }
    return {
      id: p.id,
      status: p.status,
      seats_left: p.seats_left,
      waitlist_count: p.waitlist_count,
      api_registered_usernames: p.api_registered_usernames,
      seat_waitlist: p.seat_waitlist,
    }
  }

  /** The members of a podclub whose seat came from its seat waitlist. */
  async function promotedIn(id: number): Promise<Set<number>> {
    const rows = await db
      .select({ userId: registrations.userId })
      .from(registrations)
      .where(and(eq(registrations.podclubId, id), eq(registrations.fromSeatWaitlist, true)))
    return new Set(rows.map((r) => r.userId))
  }

  async function publishPodclub(eventId: number, id: number) {
    const podclub = await readPodclub(id)
    const before = seatsOf.get(id)
    if (podclub.status === 'upcoming') seatsOf.set(id, podclub)
    else seatsOf.delete(id)
    const text = frame(eventId, 'podclub', podclub)
    await writeToAll(text)
    // Only a member in its lists, now or as last sent, can have a place that changed.
    const listed = new Set([...listedIn(podclub), ...(before ? listedIn(before) : [])])
    let promoted: Promise<Set<number>> | undefined
    for (const username of listed) {
      const held = streamsOf.get(username)
      if (!held) continue
      const seat = seatOf(podclub, username)
      const was = before ? seatOf(before, username) : { registered: false, waitlist_position: null }
      if (seat.registered === was.registered && seat.waitlist_position === was.waitlist_position)
        continue
      // Seen in line before, or not seen there because joining it and the freed seat came as one
      // change: a seat the member had not held, given from the line (a seat held before the last
      // event this process read is no news).
      let fromLine = seat.registered && was.waitlist_position !== null
      if (seat.registered && was.waitlist_position === null && before !== undefined) {
        promoted ??= promotedIn(id).catch(() => new Set<number>())
        const memberId = [...held][0]!.member!.id
        fromLine = (await promoted).has(memberId)
      }
      const seatFrame = frame(eventId, 'seat', { podclub_id: id, ...seat, promoted: fromLine })
      for (const stream of held) write(stream, seatFrame)
    }
  }

  async function readPoll(id: number): Promise<LivePoll> {
    const results = await readPollResults(db, id)
    return { id, total_votes: results.reduce((sum, r) => sum + r.votes, 0), results }
  }

  async function publishPoll(eventId: number, id: number) {
    await writeToAll(frame(eventId, 'poll', await readPoll(id)))
  }

  function publish(key: string, eventId: number): Promise<void> {
    const [topic, ref] = key.split(':')
    const id = Number(ref)
    if (streams.size === 0) {
      // Nobody to tell: no read. What members held is then unknown, not stale.
      if (topic === 'podclub') seatsOf.delete(id)
      return Promise.resolve()
    }
    if (topic === 'podclub') return publishPodclub(eventId, id)
    if (topic === 'poll') return publishPoll(eventId, id)
    return Promise.resolve()
  }

  /** Sends what is pending, a batch at a time; what arrives meanwhile waits for the next batch. */
  function drain() {
    draining ??= (async () => {
      while (pending.size > 0) {
        const batch = [...pending]
        pending.clear()
        const results = await Promise.allSettled(batch.map(([key, id]) => publish(key, id)))
        results.forEach((result, i) => {
          if (result.status === 'rejected') {
            // The database is away: streams miss this one; they are told to read again.
            log?.warn({ err: result.reason, event: batch[i]![0] }, 'live event not sent')
            void writeToAll(frame(batch[i]![1], 'reload', {}))
          }
        })
      }
    })().finally(() => {
      draining = undefined
    })
  }

  function onPayload(payload: string) {
    if (payload.startsWith('end:')) {
      const hash = payload.slice('end:'.length)
      for (const stream of streams) if (stream.sessionHash === hash) end(stream)
      return
    }
    const [id, topic, ref] = payload.split(':')
    const eventId = Number(id)
    if (!Number.isSafeInteger(eventId) || !topic || !ref) return
    const key = `${topic}:${ref}`
    pending.set(key, Math.max(eventId, pending.get(key) ?? 0))
    drain()
  }

  /** After the listening connection came back: what changed meanwhile goes to every stream. */
  async function onResumed() {
    void writeToAll(frame(await lastEventId(), 'reload', {}))
  }

  async function lastEventId(): Promise<number> {
    const [row] = await rowsOf<{ last: string | number }>(
      db,
      sql`select case when is_called then last_value else 0 end as last from live_events_id_seq`,
    )
    return Number(row?.last ?? 0)
  }

  function start() {
    started ??= (async () => {
      const stop = await listen(LIVE_CHANNEL, { onPayload, onResumed: () => void onResumed() })
      // What every member's place is now, so the first change after start is a diff too.
      try {
        for (const p of await readUpcomingPodclubs(db)) if (!seatsOf.has(p.id)) seatsOf.set(p.id, p)
      } catch (err) {
        log?.warn({ err }, 'live: could not read the seats at start')
      }
      return stop
    })()
    started.catch(() => {
      started = undefined
    })
    return started
  }

  /**
   * Sends a reconnecting stream what changed after `lastId`: each changed podclub or poll as it
   * is now. `reload` when that is no longer known (pruned, or an id this database never gave).
   */
  async function replay(stream: Stream, lastId: number, newest: number) {
    if (lastId > newest) return write(stream, frame(newest, 'reload', {}))
    const [bounds] = await rowsOf<{ min: string | number | null; at: Date | string | null }>(
      db,
      sql`select (select min(id) from live_events) as min, (select created_at from live_events where id = ${lastId}) as at`,
    )
    const min = bounds?.min == null ? null : Number(bounds.min)
    if (min === null ? lastId < newest : lastId < min - 1)
      return write(stream, frame(newest, 'reload', {}))
    const since = bounds?.at ? new Date(new Date(bounds.at).getTime() - REPLAY_MARGIN_MS) : null
    const changed = await rowsOf<{ topic: string; ref_id: number; id: string | number }>(
      db,
      sql`select topic, ref_id, max(id) as id from live_events where id > ${lastId} ${since ? sql`or created_at >= ${since.toISOString()}` : sql``} group by topic, ref_id order by max(id)`,
    )
    for (const row of changed) {
      const eventId = Number(row.id)
      if (row.topic === 'poll') {
        write(stream, frame(eventId, 'poll', await readPoll(row.ref_id)))
        continue
      }
      const podclub = await readPodclub(row.ref_id)
      write(stream, frame(eventId, 'podclub', podclub))
      if (!stream.member) continue
      const seat = seatOf(podclub, stream.member.username)
      if (seat.registered || seat.waitlist_position !== null)
        write(stream, frame(eventId, 'seat', { podclub_id: row.ref_id, ...seat, promoted: false }))
    }
  }

  return {
    /** Answers `GET /events/`: checks the caps, then holds the response open as the stream. */
    async open(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      if (closing) throw new AppError('SERVICE_UNAVAILABLE', 'The server is restarting.')
      // EventSource always asks for the stream; anything else would wait on it forever.
      if (!/\btext\/event-stream\b/.test(request.headers.accept ?? '')) {
        throw new AppError(
          'BAD_REQUEST',
          'This is a stream of server-sent events: ask for it with Accept: text/event-stream.',
        )
      }
      // An IPv6 client counts per /64, as the rate limits count it.
      const address = networkOf(request.ip)
      const member = request.user ? { id: request.user.id, username: request.user.username } : null
      if (streams.size >= maxStreams) refuse('process')
      if ((perAddress.get(address) ?? 0) >= STREAMS_PER_ADDRESS) refuse('address')
      if (member && (perMember.get(member.id) ?? 0) >= STREAMS_PER_MEMBER) refuse('member')
      await start()
      const stream: Stream = {
        id: ++opened,
        res: reply.raw,
        at: 'here',
        queued: [],
        queuedBytes: 0,
        address,
        member,
        sessionHash: request.sessionHash,
        sessionExpiresAt: request.sessionExpiresAt,
      }
      streams.add(stream)
      byId.set(stream.id, stream)
      here.add(stream)
      count(perAddress, address, 1)
      if (member) {
        count(perMember, member.id, 1)
        const held = streamsOf.get(member.username) ?? new Set<Stream>()
        streamsOf.set(member.username, held.add(stream))
      }
      heartbeat ??= setInterval(beat, HEARTBEAT_MS)
      heartbeat.unref()
      // The response closes when the client goes, or the stream is ended here; once handed
      // over, when this process lets go of its side, and the writer tells when the client goes.
      reply.raw.on('close', () => {
        if (stream.at !== 'writer') remove(stream)
      })

      reply.hijack()
      const set = Object.entries(reply.getHeaders()).filter(([, v]) => v !== undefined)
      reply.raw.writeHead(200, {
        ...(Object.fromEntries(set) as OutgoingHttpHeaders),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        // nginx and the like would otherwise hold the events back to fill a buffer.
        'x-accel-buffering': 'no',
      })
      reply.raw.socket?.setNoDelay(true)
      reply.raw.write(`retry: ${RECONNECT_MS}\n\n`)
      // To the writer once its headers are sent (or once the writer listens, if it is starting).
      startWriting()
      if (writer) void handOver(stream, writer)
      try {
        const newest = await lastEventId()
        const header = request.headers['last-event-id']
        const lastId =
          typeof header === 'string' && /^\d{1,15}$/.test(header) ? Number(header) : null
        if (lastId !== null) await replay(stream, lastId, newest)
        write(stream, frame(Math.max(newest, lastId ?? 0), 'ready', {}))
      } catch (err) {
        log?.warn({ err }, 'live: could not start a stream')
        end(stream)
      }
    },

    /** Ends every stream (the server is stopping) and stops listening. */
    async close() {
      closing = true
      // The writer ends those it holds as it closes.
      for (const stream of [...streams]) {
        if (stream.at === 'writer') remove(stream)
        else end(stream)
      }
      await Promise.all([writer?.close(), starting?.close()])
      writer = starting = undefined
      const stop = await started?.catch(() => undefined)
      await stop?.()
    },

    /** Open streams in this process, those its writer holds too (metrics, tests). */
    size: () => streams.size,
    /** The writer's process id, while there is one (tests). */
    writerPid: () => writer?.pid,
  }
}

export type LiveHub = ReturnType<typeof createLiveHub>

/** The rows of a raw query, on either engine. */
async function rowsOf<T>(db: Db, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query)
  if (Array.isArray(result)) return result as T[]
  return (result as { rows?: T[] }).rows ?? []
}
