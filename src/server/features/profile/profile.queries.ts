import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm'
import type { MyData, ProfilePodclub } from '#contract/profile'
import type { Db, Tx } from '../../db/client'
import {
  feedback,
  hindsights,
  outboxMessages,
  pollOptions,
  polls,
  pollVotes,
  podcasts,
  podclubs,
  registrations,
  seatWaitlist,
  suggestions,
  users,
  voteCodes,
} from '../../db/schema/index'
import { prettyDate, prettyTime } from '#contract/club-time'
import { isActiveAccount } from '../accounts/accounts.rules'
import { takesPart } from '../podclubs/podclubs.rules'

export type CredCounts = { attended: number; hosted: number; cred: number }

/**
 * Cred of each member (spec 1 §1): the completed podclubs they took part in, counted as hosted
 * when they were its podmeister and as attended otherwise. Reads the seats of these members
 * only (their rows of `registrations`): what their seats' versions (`member_seats:<id>`) stand for.
 */
export async function readCred(
  db: Db | Tx,
  userIds: readonly number[],
): Promise<Map<number, CredCounts>> {
  const result = new Map<number, CredCounts>()
  if (userIds.length === 0) return result
  const unique = [...new Set(userIds)]
  const completed = eq(podclubs.status, 'completed')
  const [hosted, attended] = await Promise.all([
    db
      .select({ userId: podclubs.podmeisterId, n: sql<number>`count(*)::int` })
      .from(podclubs)
      .where(and(completed, inArray(podclubs.podmeisterId, unique)))
      .groupBy(podclubs.podmeisterId),
    // A podmeister never holds a seat of their own podclub; should a row say so, it counts once.
    db
      .select({ userId: registrations.userId, n: sql<number>`count(*)::int` })
      .from(registrations)
      .innerJoin(podclubs, eq(podclubs.id, registrations.podclubId))
      .where(
        and(
          completed,
          inArray(registrations.userId, unique),
          ne(podclubs.podmeisterId, registrations.userId),
        ),
      )
      .groupBy(registrations.userId),
  ])
  for (const id of unique) result.set(id, { attended: 0, hosted: 0, cred: 0 })
  for (const row of hosted) result.get(row.userId)!.hosted = Number(row.n)
  for (const row of attended) result.get(row.userId)!.attended = Number(row.n)
  for (const counts of result.values()) counts.cred = counts.attended + counts.hosted
  return result
}

/** Podclubs of one status the member takes part in (seats held and podclubs hosted). */
export async function readMemberPodclubs(
  db: Db | Tx,
  userId: number,
  status: 'upcoming' | 'completed',
): Promise<ProfilePodclub[]> {
  const rows = await db
    .select({
      id: podclubs.id,
      status: podclubs.status,
      episodeTitle: podclubs.episodeTitle,
      startsAt: podclubs.startsAt,
      podcastName: podcasts.name,
      podcastPicture: podcasts.pictureLink,
      podmeisterId: podclubs.podmeisterId,
    })
    .from(podclubs)
    .innerJoin(podcasts, eq(podcasts.id, podclubs.podcastId))
    .where(and(eq(podclubs.status, status), takesPart(userId)))
    .orderBy(
      status === 'upcoming' ? asc(podclubs.startsAt) : desc(podclubs.startsAt),
      asc(podclubs.id),
    )
  return rows.map((r) => ({
    id: r.id,
    status: r.status,
    episode_title: r.episodeTitle,
    podcast: { name: r.podcastName, picture_link: r.podcastPicture },
    starts_at: r.startsAt.toISOString(),
    pretty_date: prettyDate(r.startsAt),
    pretty_time: prettyTime(r.startsAt),
    role: r.podmeisterId === userId ? ('podmeister' as const) : ('attendee' as const),
  }))
}

export async function readMember(db: Db | Tx, userId: number) {
  const [user] = await db
    .select({
      id: users.id,
      username: users.username,
      email: users.email,
      city: users.city,
      memberSince: users.memberSince,
      calendarKey: users.calendarKey,
    })
    .from(users)
    .where(eq(users.id, userId))
  return user
}

const iso = (date: Date) => date.toISOString()
const isoOrNull = (date: Date | null) => (date ? date.toISOString() : null)

/**
 * Everything 'download my data' gives a member (`myDataSchema`): their account, what they took
 * part in and wrote, the votes cast with codes mailed to their address and the e-mails sent to
 * it. Only their own rows, and only the columns that say something about them: no password
 * hash, token, key or code, no mail body, no other member's name or address.
 */
export async function readMyData(db: Db | Tx, userId: number, now: Date): Promise<MyData | null> {
  const [account] = await db
    .select({
      username: users.username,
      email: users.email,
      city: users.city,
      source: users.source,
      memberSince: users.memberSince,
      emailConfirmedAt: users.emailConfirmedAt,
      isSuperuser: users.isSuperuser,
      blastsUnsubscribedAt: users.blastsUnsubscribedAt,
    })
    .from(users)
    .where(and(eq(users.id, userId), isActiveAccount()))
  if (!account) return null
  const address = sql`lower(${account.email})`

  const [seats, waiting, hosted, written, votes, suggested, notes, emails] = await Promise.all([
    db
      .select({
        podclubId: podclubs.id,
        episodeTitle: podclubs.episodeTitle,
        podcast: podcasts.name,
        startsAt: podclubs.startsAt,
        status: podclubs.status,
        takenAt: registrations.createdAt,
      })
      .from(registrations)
      .innerJoin(podclubs, eq(podclubs.id, registrations.podclubId))
      .innerJoin(podcasts, eq(podcasts.id, podclubs.podcastId))
      .where(eq(registrations.userId, userId))
      .orderBy(asc(podclubs.startsAt), asc(podclubs.id)),
    db
      .select({
        podclubId: podclubs.id,
        episodeTitle: podclubs.episodeTitle,
        startsAt: podclubs.startsAt,
        joinedAt: seatWaitlist.createdAt,
      })
      .from(seatWaitlist)
      .innerJoin(podclubs, eq(podclubs.id, seatWaitlist.podclubId))
      .where(eq(seatWaitlist.userId, userId))
      .orderBy(asc(seatWaitlist.id)),
    db
      .select({ podclub: podclubs, podcast: podcasts.name })
      .from(podclubs)
      .innerJoin(podcasts, eq(podcasts.id, podclubs.podcastId))
      .where(eq(podclubs.podmeisterId, userId))
      .orderBy(asc(podclubs.startsAt), asc(podclubs.id)),
    db
      .select({
        podclubId: podclubs.id,
        episodeTitle: podclubs.episodeTitle,
        message: hindsights.message,
        writtenAt: hindsights.createdAt,
      })
      .from(hindsights)
      .innerJoin(podclubs, eq(podclubs.id, hindsights.podclubId))
      .where(eq(hindsights.userId, userId))
      .orderBy(asc(hindsights.createdAt), asc(hindsights.id)),
    db
      .select({
        pollId: polls.id,
        pollTitle: polls.title,
        option: pollOptions.title,
        votedAt: pollVotes.createdAt,
      })
      .from(pollVotes)
      .innerJoin(voteCodes, eq(voteCodes.id, pollVotes.voteCodeId))
      .innerJoin(polls, eq(polls.id, pollVotes.pollId))
      .innerJoin(pollOptions, eq(pollOptions.id, pollVotes.optionId))
      .where(sql`lower(${voteCodes.email}) = ${address}`)
      .orderBy(asc(pollVotes.createdAt), asc(pollVotes.id)),
    db
      .select()
      .from(suggestions)
      .where(eq(suggestions.userId, userId))
      .orderBy(asc(suggestions.id)),
    db.select().from(feedback).where(eq(feedback.userId, userId)).orderBy(asc(feedback.id)),
    db
      .select({
        subject: outboxMessages.subject,
        status: outboxMessages.status,
        queuedAt: outboxMessages.createdAt,
        deliveredAt: outboxMessages.deliveredAt,
      })
      .from(outboxMessages)
      .where(sql`lower(${outboxMessages.toAddress}) = ${address}`)
      .orderBy(asc(outboxMessages.createdAt), asc(outboxMessages.id)),
  ])

  return {
    exported_at: iso(now),
    account: {
      username: account.username,
      email: account.email,
      city: account.city,
      source: account.source,
      member_since: iso(account.memberSince),
      email_confirmed_at: isoOrNull(account.emailConfirmedAt),
      is_superuser: account.isSuperuser,
      blasts_unsubscribed_at: isoOrNull(account.blastsUnsubscribedAt),
    },
    seats: seats.map((s) => ({
      podclub_id: s.podclubId,
      episode_title: s.episodeTitle,
      podcast: s.podcast,
      starts_at: iso(s.startsAt),
      status: s.status,
      taken_at: iso(s.takenAt),
    })),
    seat_waitlist: waiting.map((w) => ({
      podclub_id: w.podclubId,
      episode_title: w.episodeTitle,
      starts_at: iso(w.startsAt),
      joined_at: iso(w.joinedAt),
    })),
    podclubs_hosted: hosted.map(({ podclub: p, podcast }) => ({
      podclub_id: p.id,
      episode_title: p.episodeTitle,
      episode_number: p.episodeNumber,
      podcast,
      starts_at: iso(p.startsAt),
      location: p.location,
      status: p.status,
      keywords: [p.keywordOne, p.keywordTwo, p.keywordThree].filter((k) => k !== ''),
      links: [p.linkOne, p.linkTwo, p.linkThree].filter((l) => l !== ''),
      description: p.description,
      podmeister_note: p.podmeisterNote,
      proposed_at: iso(p.createdAt),
    })),
    hindsights: written.map((h) => ({
      podclub_id: h.podclubId,
      episode_title: h.episodeTitle,
      message: h.message,
      written_at: iso(h.writtenAt),
    })),
    votes: votes.map((v) => ({
      poll_id: v.pollId,
      poll_title: v.pollTitle,
      option: v.option,
      voted_at: iso(v.votedAt),
    })),
    suggestions: suggested.map((s) => ({
      podcast_link: s.podcastLink,
      reason: s.reason,
      sent_at: iso(s.createdAt),
    })),
    feedback: notes.map((f) => ({
      podcast_link: f.podcastLink,
      description: f.description,
      sent_at: iso(f.createdAt),
    })),
    emails: emails.map((e) => ({
      subject: e.subject,
      status: e.status,
      queued_at: iso(e.queuedAt),
      delivered_at: isoOrNull(e.deliveredAt),
    })),
  }
}
