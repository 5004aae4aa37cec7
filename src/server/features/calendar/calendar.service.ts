import { createHash } from 'node:crypto'
import { and, asc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { podcasts, podclubs, users } from '../../db/schema/index'
import { transaction } from '../../db/transaction'
import type { AppDeps } from '../../deps'
import { notFound } from '../../lib/app-error'
import { hmac, sha256 } from '../../lib/tokens'
import { links } from '../../lib/links'
import { takesPart } from '../podclubs/podclubs.rules'
import { buildCalendar, type CalendarPodclub } from './calendar.ics'

/** What a calendar entry shows of a podclub, for a select on `podclubs` joined to its podcast. */
export const CALENDAR_PODCLUB_COLUMNS = {
  id: podclubs.id,
  episodeTitle: podclubs.episodeTitle,
  podcastName: podcasts.name,
  startsAt: podclubs.startsAt,
  durationMinutes: podclubs.durationMinutes,
  location: podclubs.location,
  description: podclubs.description,
  sequence: podclubs.calendarSequence,
  status: podclubs.status,
}

/** Podclubs as calendar entries read them, soonest first. */
export async function readCalendarPodclubs(db: Db | Tx, where: SQL): Promise<CalendarPodclub[]> {
  return db
    .select(CALENDAR_PODCLUB_COLUMNS)
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
 * The member's calendar feed URL, from their key alone: a read, which the cached profile shows.
 * The hash the feed finds them by is recorded when they log in or sign up, and for everyone when
 * the server starts (`recordCalendarTokens`), never while something is only being read.
 */
export function calendarFeedUrl(
  deps: Pick<AppDeps, 'sessionSecret' | 'env'>,
  userId: number,
  calendarKey: string,
): string {
  return links(deps.env).calendarFeed(feedToken(deps.sessionSecret, userId, calendarKey))
}

/**
 * Records the hash of the calendar feed token of the given members (all of them when not given)
 * where it is not the current one: never shown yet, or made with another SESSION_SECRET. Writes
 * only the rows that change, so a login of a member whose link stands writes nothing here.
 */
export async function recordCalendarTokens(
  deps: Pick<AppDeps, 'db' | 'sessionSecret' | 'wakeOutbox'>,
  userIds?: number[],
): Promise<number> {
  const members = await deps.db
    .select({ id: users.id, key: users.calendarKey, hash: users.calendarTokenHash })
    .from(users)
    .where(and(isNull(users.deletedAt), userIds ? inArray(users.id, userIds) : undefined))
  const changed = members
    .map((m) => ({
      id: m.id,
      was: m.hash,
      hash: sha256(feedToken(deps.sessionSecret, m.id, m.key)),
    }))
    .filter((m) => m.was !== m.hash)
  if (changed.length === 0) return 0
  await transaction(deps, async (tx) => {
    for (const m of changed) {
      await tx.update(users).set({ calendarTokenHash: m.hash }).where(eq(users.id, m.id))
    }
  })
  return changed.length
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
