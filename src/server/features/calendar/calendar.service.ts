import { createHash } from 'node:crypto'
import { and, asc, eq, sql, type SQL } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { podcasts, podclubs, users } from '../../db/schema/index'
import { transaction } from '../../db/transaction'
import type { AppDeps } from '../../deps'
import { notFound } from '../../lib/app-error'
import { hmac, sha256 } from '../../lib/tokens'
import { links } from '../../lib/links'
import { takesPart } from '../podclubs/podclubs.rules'
import { buildCalendar, type CalendarPodclub } from './calendar.ics'

/** Podclubs as calendar entries read them, soonest first. */
export async function readCalendarPodclubs(db: Db | Tx, where: SQL): Promise<CalendarPodclub[]> {
  return db
    .select({
      id: podclubs.id,
      episodeTitle: podclubs.episodeTitle,
      podcastName: podcasts.name,
      startsAt: podclubs.startsAt,
      durationMinutes: podclubs.durationMinutes,
      location: podclubs.location,
      description: podclubs.description,
      sequence: podclubs.calendarSequence,
      status: podclubs.status,
    })
    .from(podclubs)
    .innerJoin(podcasts, eq(podcasts.id, podclubs.podcastId))
    .where(where)
    .orderBy(asc(podclubs.startsAt), asc(podclubs.id))
}

/** The `.ics` of one podclub, as the detail page's 'add to calendar' downloads it. */
export async function podclubCalendarFile(deps: AppDeps, podclubId: number): Promise<string> {
  const [podclub] = await readCalendarPodclubs(deps.db, eq(podclubs.id, podclubId))
  if (!podclub) throw notFound('podclub')
  return buildCalendar([podclub], { method: 'publish', env: deps.env, now: deps.clock.now() })
}

/**
 * The member's feed token. It is not kept anywhere: it is derived from the member's random
 * `calendar_key` with the server's secret, so the profile can show the same URL every time while
 * the database holds only its SHA-256 (what the feed looks members up by). A new key kills the
 * old URL; so does a new SESSION_SECRET (the profile then shows and records the new one).
 */
function feedToken(secret: string, userId: number, calendarKey: string): string {
  return hmac(secret, `calendar-feed:${userId}:${calendarKey}`)
}

/**
 * The member's calendar feed URL, recording its hash when it is new (first shown, or after the
 * secret changed). One small write the first time only.
 */
export async function calendarFeedUrl(deps: AppDeps, userId: number): Promise<string> {
  const [member] = await deps.db
    .select({ key: users.calendarKey, hash: users.calendarTokenHash })
    .from(users)
    .where(eq(users.id, userId))
  if (!member) throw notFound('User')
  const token = feedToken(deps.sessionSecret, userId, member.key)
  const hash = sha256(token)
  if (member.hash !== hash) {
    await transaction(deps, (tx) =>
      tx.update(users).set({ calendarTokenHash: hash }).where(eq(users.id, userId)),
    )
  }
  return links(deps.env).calendarFeed(token)
}

/** 'reset link': a new random key, so the old feed URL answers 404 from now on. */
export async function resetCalendarFeed(deps: AppDeps, userId: number): Promise<string> {
  const token = await transaction(deps, async (tx) => {
    const [member] = await tx
      .update(users)
      .set({ calendarKey: sql`gen_random_uuid()::text` })
      .where(eq(users.id, userId))
      .returning({ key: users.calendarKey })
    if (!member) throw notFound('User')
    const fresh = feedToken(deps.sessionSecret, userId, member.key)
    await tx
      .update(users)
      .set({ calendarTokenHash: sha256(fresh) })
      .where(eq(users.id, userId))
    return fresh
  })
  return links(deps.env).calendarFeed(token)
}

/** Feed tokens are 43 base64url characters (an HMAC-SHA256); anything else is not one. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/

/** A member's feed: its text and a validator that changes only when an entry does. */
export type CalendarFeed = { ics: string; etag: string }

/**
 * The calendar feed behind a token: the upcoming podclubs the member takes part in (the seats
 * they hold and the ones they host), or null when the token is not a member's current one.
 *
 * The ETag comes from the entries, not the text: every file carries the moment it was made
 * (DTSTAMP), so a hash of the text would change each second and no poller would ever get a 304.
 */
export async function calendarFeed(deps: AppDeps, token: string): Promise<CalendarFeed | null> {
  if (!TOKEN_SHAPE.test(token)) return null
  const [member] = await deps.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.calendarTokenHash, sha256(token)))
  if (!member) return null
  const podclubList = await readCalendarPodclubs(
    deps.db,
    and(eq(podclubs.status, 'upcoming'), takesPart(member.id))!,
  )
  const { APP_URL, MAIL_FROM, NYC_OFFICE_ADDRESS } = deps.env
  const fingerprint = JSON.stringify([APP_URL, MAIL_FROM, NYC_OFFICE_ADDRESS, podclubList])
  return {
    ics: buildCalendar(podclubList, {
      method: 'publish',
      env: deps.env,
      now: deps.clock.now(),
      name: 'podclub',
    }),
    etag: `"${createHash('sha256').update(fingerprint).digest('base64url').slice(0, 27)}"`,
  }
}
