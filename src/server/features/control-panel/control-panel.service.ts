import { and, asc, desc, eq, gte, type SQL } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { z } from 'zod'
import {
  CLUB_TIME_MESSAGES,
  clubMonthStart,
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
import {
  feedback,
  inviteCodes,
  podclubs,
  suggestions,
  users,
  waitlistEntries,
} from '../../db/schema/index'
import { transaction } from '../../db/transaction'
import type { AppDeps } from '../../deps'
import { AppError, FieldErrors, notFound } from '../../lib/app-error'
import { randomToken } from '../../lib/tokens'
import { isActiveAccount } from '../accounts/accounts.rules'
import { listEmailActivity } from '../mail/mail.service'
import { seatsLeft } from '../podclubs/podclubs.rules'
import {
  completePodclub,
  editPodclub,
  saveChatlog,
  type PodclubEdit,
} from '../podclubs/podclubs.service'
import { insertUpcomingPodclub } from '../proposals/proposals.service'
import { takeSeatFor } from '../registrations/registrations.service'
import { sendManualNotice } from '../reminders/reminders.service'

export type CreateOperatorPodclubInput = z.output<
  ReturnType<typeof createOperatorPodclubBodySchema>
>

/** How many rows each list of the panel shows at most: it stays fast with a large club. */
export const PANEL_LIMITS = {
  podclubs: 200,
  completed: 20,
  emails: 50,
  codes: 100,
  users: 200,
  lists: 100,
}

const podmeisters = alias(users, 'podmeisters')

/** Podclubs as the panel's tables show them. */
async function readPanelPodclubs(
  deps: AppDeps,
  where: SQL,
  order: 'soonest' | 'latest completed',
  limit: number,
): Promise<ControlPanelPodclub[]> {
  const rows = await deps.db
    .select({ podclub: podclubs, podmeister: podmeisters.username, seatsLeft: seatsLeft() })
    .from(podclubs)
    .innerJoin(podmeisters, eq(podmeisters.id, podclubs.podmeisterId))
    .where(where)
    .orderBy(
      ...(order === 'soonest'
        ? [asc(podclubs.startsAt), asc(podclubs.id)]
        : [desc(podclubs.completedAt), desc(podclubs.id)]),
    )
    .limit(limit)
  return rows.map(({ podclub: p, podmeister, seatsLeft }) => ({
    id: p.id,
    episode_title: p.episodeTitle,
    location: p.location,
    podmeister,
    starts_at: p.startsAt.toISOString(),
    pretty_date: prettyDate(p.startsAt),
    pretty_time: prettyTime(p.startsAt),
    status: p.status,
    zoom_link: p.zoomLink,
    seats_left: seatsLeft,
    one_week_notice_sent: p.oneWeekNoticeSent,
    one_day_notice_sent: p.oneDayNoticeSent,
    ten_min_notice_sent: p.tenMinNoticeSent,
    notice_sent_at: p.manualNoticeSentAt?.toISOString() ?? null,
  }))
}

async function readPanelPodclub(deps: AppDeps, id: number): Promise<ControlPanelPodclub> {
  const [podclub] = await readPanelPodclubs(deps, eq(podclubs.id, id), 'soonest', 1)
  if (!podclub) throw notFound('podclub')
  return podclub
}

/** Everything the control panel shows, each list bounded. */
export async function readControlPanel(deps: AppDeps): Promise<ControlPanel> {
  const { db } = deps
  const now = deps.clock.now()
  const monthStart = clubMonthStart(now)
  const [all_podclubs, recently_completed, email_tracker, codes, newUsers, waitlist, ideas, notes] =
    await Promise.all([
      readPanelPodclubs(deps, eq(podclubs.status, 'upcoming'), 'soonest', PANEL_LIMITS.podclubs),
      readPanelPodclubs(
        deps,
        eq(podclubs.status, 'completed'),
        'latest completed',
        PANEL_LIMITS.completed,
      ),
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
        .where(and(gte(users.memberSince, monthStart), isActiveAccount()))
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
    recently_completed,
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

/** 'Send Notice': the notice now (see `sendManualNotice`), asked to confirm when far ahead. */
export async function sendNotice(deps: AppDeps, podclubId: number, confirm?: boolean) {
  await sendManualNotice(deps, podclubId, { confirm })
  return readPanelPodclub(deps, podclubId)
}

/** 'Mark Complete': refused before the podclub has started (see `completePodclub`). */
export async function markComplete(deps: AppDeps, podclubId: number) {
  await completePodclub(deps, podclubId)
  return readPanelPodclub(deps, podclubId)
}

/**
 * An operator's change of date, location, Zoom link or status; what follows from it (e-mails,
 * calendar entries, reminders, the seat waitlist) is the podclubs feature's `editPodclub`.
 */
export async function updatePodclub(deps: AppDeps, podclubId: number, body: UpdatePodclubBody) {
  const edit: PodclubEdit = {
    location: body.location,
    zoomLink: body.zoomLink,
    status: body.status,
  }
  if (body.scheduledStart !== undefined) {
    // The contract has refused a time that does not exist; what is left is when, not whether.
    const { date, error } = readClubDateTime(body.scheduledStart, { iso: true })
    if (error) throw new FieldErrors({ scheduledStart: [CLUB_TIME_MESSAGES[error]] })
    edit.startsAt = date
  }
  await editPodclub(deps, podclubId, edit)
  return readPanelPodclub(deps, podclubId)
}

/** Saves the Zoom chat log of a podclub (replacing any earlier one). */
export async function updateChatlog(deps: AppDeps, podclubId: number, chatlog: string) {
  await saveChatlog(deps, podclubId, chatlog)
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
    .where(and(eq(users.username, username.trim().toLowerCase()), isActiveAccount()))
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
