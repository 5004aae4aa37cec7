import { and, asc, count, desc, eq, gte, inArray, sql } from 'drizzle-orm'
import {
  CLUB_TIME_MESSAGES,
  clubMonthStart,
  isInFuture,
  prettyDate,
  prettyTime,
  readClubDateTime,
} from '#contract/club-time'
import type {
  ControlPanel,
  ControlPanelPodclub,
  createOperatorPodclubBodySchema,
  UpdatePodclubBody,
} from '#contract/control-panel'
import type { Podclub, RegistrationState } from '#contract/podclubs'
import type { z } from 'zod'
import {
  feedback,
  inviteCodes,
  podclubs,
  registrations,
  suggestions,
  users,
  waitlistEntries,
} from '../../db/schema/index'
import { transaction } from '../../db/transaction'
import type { AppDeps } from '../../deps'
import { AppError, FieldErrors, notFound } from '../../lib/app-error'
import { randomToken } from '../../lib/tokens'
import { listEmailActivity } from '../mail/mail.service'
import { bumpPodclubsVersion } from '../podclubs/podclubs.version'
import { insertUpcomingPodclub } from '../proposals/proposals.service'
import { takeSeatFor } from '../registrations/registrations.service'
import { mailEveryoneSeated } from '../registrations/seat-notify'
import { clearSeatWaitlist, promoteFromSeatWaitlist } from '../registrations/seat-waitlist.service'
import { noticesToRearm, sendNoticeNow } from '../reminders/reminders.service'
import { SEATS_PER_PODCLUB } from '#contract/podclubs'
import { alias } from 'drizzle-orm/pg-core'

export type CreateOperatorPodclubInput = z.output<
  ReturnType<typeof createOperatorPodclubBodySchema>
>

/** How many rows each list of the panel shows at most: it stays fast with a large club. */
export const PANEL_LIMITS = { podclubs: 200, emails: 50, codes: 100, users: 200, lists: 100 }

const podmeisters = alias(users, 'podmeisters')

async function readPanelPodclubs(deps: AppDeps, ids?: number[]): Promise<ControlPanelPodclub[]> {
  const seats = deps.db
    .select({ podclubId: registrations.podclubId, taken: count().as('taken') })
    .from(registrations)
    .groupBy(registrations.podclubId)
    .as('seats')
  const rows = await deps.db
    .select({ podclub: podclubs, podmeister: podmeisters.username, taken: seats.taken })
    .from(podclubs)
    .innerJoin(podmeisters, eq(podmeisters.id, podclubs.podmeisterId))
    .leftJoin(seats, eq(seats.podclubId, podclubs.id))
    .where(ids ? inArray(podclubs.id, ids) : eq(podclubs.status, 'upcoming'))
    .orderBy(asc(podclubs.startsAt), asc(podclubs.id))
    .limit(PANEL_LIMITS.podclubs)
  return rows.map(({ podclub: p, podmeister, taken }) => ({
    id: p.id,
    episode_title: p.episodeTitle,
    location: p.location,
    podmeister,
    starts_at: p.startsAt.toISOString(),
    pretty_date: prettyDate(p.startsAt),
    pretty_time: prettyTime(p.startsAt),
    status: p.status,
    zoom_link: p.zoomLink,
    seats_left: Math.max(0, SEATS_PER_PODCLUB - Number(taken ?? 0)),
    one_week_notice_sent: p.oneWeekNoticeSent,
    one_day_notice_sent: p.oneDayNoticeSent,
    ten_min_notice_sent: p.tenMinNoticeSent,
  }))
}

async function readPanelPodclub(deps: AppDeps, id: number): Promise<ControlPanelPodclub> {
  const [podclub] = await readPanelPodclubs(deps, [id])
  if (!podclub) throw notFound('podclub')
  return podclub
}

/** Everything the control panel shows, each list bounded. */
export async function readControlPanel(deps: AppDeps): Promise<ControlPanel> {
  const { db } = deps
  const now = deps.clock.now()
  const monthStart = clubMonthStart(now)
  const [all_podclubs, email_tracker, codes, newUsers, waitlist, ideas, notes] = await Promise.all([
    readPanelPodclubs(deps),
    listEmailActivity(db, PANEL_LIMITS.emails),
    db
      .select()
      .from(inviteCodes)
      .where(eq(inviteCodes.reusable, false))
      .orderBy(desc(inviteCodes.id))
      .limit(PANEL_LIMITS.codes),
    db
      .select({ username: users.username, email: users.email })
      .from(users)
      .where(gte(users.memberSince, monthStart))
      .orderBy(desc(users.memberSince))
      .limit(PANEL_LIMITS.users),
    db.select().from(waitlistEntries).orderBy(desc(waitlistEntries.id)).limit(PANEL_LIMITS.lists),
    db
      .select({ s: suggestions, username: users.username })
      .from(suggestions)
      .leftJoin(users, eq(users.id, suggestions.userId))
      .orderBy(desc(suggestions.id))
      .limit(PANEL_LIMITS.lists),
    db
      .select({ f: feedback, username: users.username })
      .from(feedback)
      .leftJoin(users, eq(users.id, feedback.userId))
      .orderBy(desc(feedback.id))
      .limit(PANEL_LIMITS.lists),
  ])
  return {
    all_podclubs,
    email_tracker,
    welcome_codes: codes.map((c) => ({
      code: c.code,
      active: c.usedAt === null && c.deactivatedAt === null,
    })),
    users_this_month: newUsers,
    waitlist: waitlist.map((w) => ({
      email: w.email,
      how: w.how,
      favorite_podcast: w.favoritePodcast,
      date_created: w.createdAt.toISOString(),
    })),
    suggestions: ideas.map(({ s, username }) => ({
      username,
      podcast_link: s.podcastLink,
      reason: s.reason,
      date_created: s.createdAt.toISOString(),
    })),
    feedback: notes.map(({ f, username }) => ({
      username,
      podcast_link: f.podcastLink,
      description: f.description,
      date_created: f.createdAt.toISOString(),
    })),
  }
}

/** 'Send Notice': the 10-minute notice now, once; a second press is refused. */
export async function sendTenMinuteNotice(deps: AppDeps, podclubId: number) {
  const podclub = await readPanelPodclub(deps, podclubId)
  if (podclub.status !== 'upcoming')
    throw new AppError('BAD_REQUEST', `This podclub is ${podclub.status}: no notice to send.`)
  const sent = await sendNoticeNow(deps, podclubId, '10m')
  if (!sent) throw new AppError('CONFLICT', 'The 10-minute notice was already sent.')
  return readPanelPodclub(deps, podclubId)
}

/** 'Mark Complete': an upcoming podclub becomes completed, once. */
export async function markComplete(deps: AppDeps, podclubId: number) {
  await transaction(deps, async (tx) => {
    const [done] = await tx
      .update(podclubs)
      .set({ status: 'completed', completedAt: deps.clock.now() })
      .where(and(eq(podclubs.id, podclubId), eq(podclubs.status, 'upcoming')))
      .returning({ id: podclubs.id })
    if (!done) {
      const [exists] = await tx
        .select({ status: podclubs.status })
        .from(podclubs)
        .where(eq(podclubs.id, podclubId))
      if (!exists) throw notFound('podclub')
      throw new AppError('CONFLICT', `This podclub is already ${exists.status}.`)
    }
    await clearSeatWaitlist(tx, podclubId)
    await bumpPodclubsVersion(tx)
  })
  return readPanelPodclub(deps, podclubId)
}

/**
 * An operator's change of date, location, Zoom link or status. Whoever it concerns hears of it
 * with a calendar entry: a new time or place raises the entry's SEQUENCE and mails the podmeister
 * and seat holders the replacement; a cancelled podclub mails them a cancellation. A podclub
 * that is over or off loses its seat waitlist; one that is upcoming fills free seats from it.
 */
export async function updatePodclub(deps: AppDeps, podclubId: number, body: UpdatePodclubBody) {
  const changes: Partial<typeof podclubs.$inferInsert> = {}
  if (body.scheduledStart !== undefined) {
    // The contract has refused a time that does not exist; what is left is when, not whether.
    const { date: startsAt, error } = readClubDateTime(body.scheduledStart, { iso: true })
    if (error) throw new FieldErrors({ scheduledStart: [CLUB_TIME_MESSAGES[error]] })
    if (!isInFuture(startsAt, deps.clock.now()))
      throw new FieldErrors({ scheduledStart: [CLUB_TIME_MESSAGES.past] })
    changes.startsAt = startsAt
  }
  if (body.location !== undefined) changes.location = body.location
  if (body.zoomLink !== undefined) changes.zoomLink = body.zoomLink
  if (body.status !== undefined) {
    changes.status = body.status
    changes.completedAt = body.status === 'completed' ? deps.clock.now() : null
  }
  await transaction(deps, async (tx) => {
    const [before] = await tx
      .select({ startsAt: podclubs.startsAt, location: podclubs.location, status: podclubs.status })
      .from(podclubs)
      .where(eq(podclubs.id, podclubId))
      .for('update')
    if (!before) throw notFound('podclub')
    const retimed =
      changes.startsAt !== undefined && changes.startsAt.getTime() !== before.startsAt.getTime()
    const moved =
      retimed || (changes.location !== undefined && changes.location !== before.location)
    const status = changes.status ?? before.status
    const cancelledNow = status === 'cancelled' && before.status !== 'cancelled'
    await tx
      .update(podclubs)
      .set({
        ...changes,
        // A new date re-arms the reminders that have not come due at it yet.
        ...(retimed ? noticesToRearm(changes.startsAt!, deps.clock.now()) : {}),
        ...(moved || cancelledNow
          ? { calendarSequence: sql`${podclubs.calendarSequence} + 1` }
          : {}),
      })
      .where(eq(podclubs.id, podclubId))

    if (status === 'upcoming') {
      if (moved) await mailEveryoneSeated(tx, deps, podclubId, 'changed')
      await promoteFromSeatWaitlist(tx, deps, podclubId)
    } else {
      await clearSeatWaitlist(tx, podclubId)
      if (cancelledNow) await mailEveryoneSeated(tx, deps, podclubId, 'podclub-cancelled')
    }
    await bumpPodclubsVersion(tx)
  })
  return readPanelPodclub(deps, podclubId)
}

/** Saves the Zoom chat log of a podclub (replacing any earlier one). */
export async function updateChatlog(deps: AppDeps, podclubId: number, chatlog: string) {
  await transaction(deps, async (tx) => {
    const [row] = await tx
      .update(podclubs)
      .set({ chatlog: chatlog.replace(/\r\n?/g, '\n') })
      .where(eq(podclubs.id, podclubId))
      .returning({ id: podclubs.id })
    if (!row) throw notFound('podclub')
  })
  return readPanelPodclub(deps, podclubId)
}

/** New single-use welcome codes, made by an operator. */
export async function createInviteCodes(deps: AppDeps, actorId: number, count: number) {
  const codes = Array.from({ length: count }, () => randomToken(9))
  await transaction(deps, (tx) =>
    tx.insert(inviteCodes).values(codes.map((code) => ({ code, createdById: actorId }))),
  )
  return codes
}

/** The id of the member with that username (usernames are stored in lower case), or null. */
async function findUserId(db: Pick<AppDeps['db'], 'select'>, username: string) {
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.username, username.trim().toLowerCase()))
  return user?.id ?? null
}

/** Quick registration (spec 2 §7): the member's seat, under the member toggle's own rules. */
export async function quickRegister(
  deps: AppDeps,
  podclubId: number,
  username: string,
): Promise<RegistrationState> {
  const userId = await findUserId(deps.db, username)
  if (userId === null) throw new AppError('NOT_FOUND', `No member is called '${username}'.`)
  return takeSeatFor(deps, podclubId, userId)
}

/** An operator's podclub (CONTRACT.md): any future date, any member as podmeister. */
export async function createOperatorPodclub(
  deps: AppDeps,
  input: CreateOperatorPodclubInput,
): Promise<Podclub> {
  const { date: startsAt, error } = readClubDateTime(input.scheduledStart)
  if (error) throw new FieldErrors({ scheduledStart: [CLUB_TIME_MESSAGES[error]] })
  return transaction(deps, async (tx) => {
    const podmeisterId = await findUserId(tx, input.podmeister)
    if (podmeisterId === null) {
      throw new FieldErrors({ podmeister: [`No member is called '${input.podmeister}'.`] })
    }
    const zoomLink =
      input.location === 'zoom' ? input.zoomLink || deps.env.ZOOM_LINK : input.zoomLink
    return insertUpcomingPodclub(tx, input, { podmeisterId, startsAt, zoomLink })
  })
}
