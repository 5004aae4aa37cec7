import { addDays, addMonths } from 'date-fns'
import { count, eq } from 'drizzle-orm'
import {
  addClubCalendar,
  atClubTimeOfDay,
  clubMonthName,
  clubMonthStart,
} from '#contract/club-time'
import type { Db } from '../../db/client'
import {
  feedback,
  hindsights,
  inviteCodes,
  outboxAttempts,
  outboxMessages,
  podcasts,
  podclubs,
  pollOptions,
  polls,
  pollVotes,
  registrations,
  seatWaitlist,
  suggestions,
  users,
  voteCodes,
  waitlistEntries,
} from '../../db/schema/index'
import type { Clock } from '../../lib/clock'
import { hashPassword } from '../../lib/passwords'
import { randomToken, sha256 } from '../../lib/tokens'

export const DEMO_PASSWORD = 'podclub-demo'

const members = [
  ['maya.r', 'Brooklyn'],
  ['jon.b', 'Queens'],
  ['priya', 'Jersey City'],
  ['theo.k', 'Manhattan'],
  ['ana.lu', 'Philadelphia'],
  ['sam.w', 'Boston'],
  ['ren', 'Brooklyn'],
  ['dee.o', 'Hoboken'],
  ['marcus', 'Manhattan'],
  ['ivy.c', 'Providence'],
  ['ollie', 'Queens'],
  ['bea.n', 'New Haven'],
] as const

const shows = [
  'Radiolab',
  'Hidden Brain',
  '99% Invisible',
  'Planet Money',
  'Search Engine',
  'The Memory Palace',
]

const describe = (title: string) =>
  `${title}: a conversation about how ideas spread, why some of them stick, and what we do ` +
  'with them once they have taken hold. Bring one moment from the episode that surprised you.'

/** A time in New York `monthsAhead` months from now, on the given weekday offset, at 19:00. */
function clubTime(now: Date, monthsAhead: number, dayOffset: number, hour = 19, minute = 0): Date {
  const day = addClubCalendar(now, { months: monthsAhead, days: dayOffset })
  return atClubTimeOfDay(day, hour, minute)
}

/**
 * Fills an empty club with sample podcasts, members (three of them new this month), upcoming
 * podclubs with varied seats, completed ones with hindsights and a chat log, an open and an
 * expired poll with votes, e-mail activity, invitation codes (active and used), and a few
 * waitlist entries, podcast suggestions and feedback notes: every screen, the control panel
 * included, has something to show. Does nothing when podclubs exist already.
 */
export async function seedDemo(db: Db, clock: Clock): Promise<{ seeded: boolean }> {
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(podclubs)
  if (n > 0) return { seeded: false }
  const now = clock.now()
  const monthStart = clubMonthStart(now)
  const passwordHash = await hashPassword(DEMO_PASSWORD)

  return db.transaction(async (tx) => {
    const people = await tx
      .insert(users)
      .values(
        members.map(([username, city], i) => ({
          username,
          email: `${username.replace('.', '')}@example.com`,
          passwordHash,
          city,
          source: i % 2 ? 'a friend' : 'the QR code at a podclub',
          // The last three joined this month (they hold seats only in upcoming podclubs), so
          // the control panel's new users have someone to show.
          memberSince:
            i >= members.length - 3
              ? new Date(Math.max(monthStart.getTime(), now.getTime() - (i + 1) * 3_600_000))
              : addMonths(now, -(i + 1)),
        })),
      )
      .onConflictDoNothing()
      .returning()
    const shelf = await tx
      .insert(podcasts)
      .values(shows.map((name) => ({ name })))
      .onConflictDoNothing()
      .returning()
    if (people.length < 10 || shelf.length < shows.length) return { seeded: false }
    const who = (i: number) => people[i % people.length]!
    const show = (i: number) => shelf[i % shelf.length]!

    const plans = [
      { title: 'The Cathedral', months: -3, status: 'completed', seats: 7, location: 'nyc' },
      {
        title: 'The Invention of Boredom',
        months: -2,
        status: 'completed',
        seats: 3,
        location: 'zoom',
      },
      {
        title: 'Why We Trust Strangers',
        months: -1,
        status: 'completed',
        seats: 5,
        location: 'zoom',
      },
      {
        title: 'The Sound of a Shrinking Room',
        months: 1,
        status: 'upcoming',
        seats: 9,
        location: 'nyc',
      },
      {
        title: 'What the Map Leaves Out',
        months: 1,
        status: 'upcoming',
        seats: 4,
        location: 'zoom',
      },
      { title: 'Price of a Free Lunch', months: 2, status: 'upcoming', seats: 1, location: 'zoom' },
      { title: 'Letters Never Sent', months: 2, status: 'upcoming', seats: 0, location: 'nyc' },
      {
        title: 'The Last Search Result',
        months: 3,
        status: 'upcoming',
        seats: 2,
        location: 'zoom',
      },
    ] as const

    for (const [i, plan] of plans.entries()) {
      const podmeister = who(i)
      const startsAt = clubTime(now, plan.months, i * 2 + 3, i % 2 ? 19 : 18, i % 3 ? 0 : 30)
      const [club] = await tx
        .insert(podclubs)
        .values({
          podcastId: show(i).id,
          podmeisterId: podmeister.id,
          episodeTitle: plan.title,
          episodeNumber: String(100 + i * 7),
          status: plan.status,
          completedAt: plan.status === 'completed' ? addDays(startsAt, 1) : null,
          startsAt,
          location: plan.location,
          zoomLink: plan.location === 'zoom' ? 'https://zoom.us/j/5550100' : '',
          keywordOne: ['attention', 'trust', 'cities', 'money', 'memory', 'design'][i % 6]!,
          keywordTwo: ['habits', 'strangers', 'sound', 'incentives', 'letters', 'search'][i % 6]!,
          keywordThree: ['culture', 'science', 'history', 'ethics', 'family', 'the web'][i % 6]!,
          linkOne: `https://podcasts.apple.com/us/podcast/demo-${i}`,
          linkTwo: i % 2 ? `https://open.spotify.com/episode/demo${i}` : '',
          linkThree: i % 3 === 0 ? 'https://www.youtube.com/watch?v=demo' : '',
          description: describe(plan.title),
          podmeisterNote:
            'I picked this one because it changed how I listen to everyone around me, and I want ' +
            'to hear whether it does the same for you.',
          chatlog:
            plan.status === 'completed'
              ? [
                  `19:02:11 From ${who(i + 1).username} to Everyone: hello from the back row`,
                  `19:05:40 From ${podmeister.username} to Everyone: link to the episode transcript:`,
                  'https://example.com/transcript',
                  `19:31:02 From ${who(i + 2).username}: that point about boredom as a signal 👏`,
                ].join('\n')
              : '',
        })
        .returning()
      const attendees = Array.from({ length: 9 - plan.seats }, (_, k) => who(i + 1 + k))
      if (attendees.length > 0) {
        await tx
          .insert(registrations)
          .values(attendees.map((u) => ({ podclubId: club!.id, userId: u.id })))
      }
      if (plan.status === 'upcoming' && attendees.length === 9) {
        // A full podclub with two members on its seat waitlist, next in line first.
        await tx
          .insert(seatWaitlist)
          .values([who(i + 10), who(i + 11)].map((u) => ({ podclubId: club!.id, userId: u.id })))
      }
      if (plan.status === 'completed' && attendees.length > 0) {
        await tx.insert(hindsights).values(
          attendees.slice(0, 3).map((u, k) => ({
            podclubId: club!.id,
            userId: u.id,
            message: [
              'Still thinking about the part where the host went quiet for ten seconds. Best silence in podcasting.',
              'I came in skeptical and left with three new books on my list: https://example.com/reading-list',
              'Great group. We should do a follow-up episode next month.',
            ][k]!,
          })),
        )
      }
    }

    const [poll] = await tx
      .insert(polls)
      .values({
        title: `Deep dive for ${clubMonthName(addClubCalendar(now, { months: 1 }))}`,
        description: 'the most titillating podcast for next month',
        expiresAt: addDays(now, 14),
      })
      .returning()
    const options = await tx
      .insert(pollOptions)
      .values(
        ['The Memory Palace', 'Search Engine', 'Hidden Brain'].map((title, position) => ({
          pollId: poll!.id,
          title: `An episode of ${title}`,
          podcast: title,
          description: 'Nominated by the members at the last podclub.',
          link: 'https://example.com/episode',
          position,
        })),
      )
      .returning()
    const codes = await tx
      .insert(voteCodes)
      .values(
        people.slice(0, 5).map((u) => ({
          pollId: poll!.id,
          email: u.email,
          codeHash: sha256(randomToken()),
          usedAt: now,
        })),
      )
      .returning()
    await tx
      .insert(pollVotes)
      .values(
        codes.map((c, k) => ({ pollId: poll!.id, optionId: options[k % 2]!.id, voteCodeId: c.id })),
      )
    // Last month's poll: closed, with its votes, so the results screen has something to show.
    const [expired] = await tx
      .insert(polls)
      .values({
        title: "Last month's deep dive",
        description: 'the episode we picked last month',
        expiresAt: addDays(now, -10),
        createdAt: addDays(now, -40),
      })
      .returning()
    const pastOptions = await tx
      .insert(pollOptions)
      .values(
        ['Radiolab', 'Planet Money'].map((title, position) => ({
          pollId: expired!.id,
          title: `An episode of ${title}`,
          podcast: title,
          description: 'Nominated by the members at the last podclub.',
          link: 'https://example.com/episode',
          position,
        })),
      )
      .returning()
    const pastCodes = await tx
      .insert(voteCodes)
      .values(
        people.slice(2, 9).map((u) => ({
          pollId: expired!.id,
          email: u.email,
          codeHash: sha256(randomToken()),
          usedAt: addDays(now, -20),
        })),
      )
      .returning()
    await tx.insert(pollVotes).values(
      pastCodes.map((c, k) => ({
        pollId: expired!.id,
        optionId: pastOptions[k % 3 === 0 ? 1 : 0]!.id,
        voteCodeId: c.id,
      })),
    )

    // E-mail activity: reminders delivered and a couple that failed after retries. Finished
    // rows only (delivered or failed), so the outbox has nothing of the demo's left to send.
    for (const [k, u] of people.slice(0, 8).entries()) {
      const failed = k % 4 === 3
      const sentAt = new Date(now.getTime() - (k + 1) * 3_600_000)
      const [message] = await tx
        .insert(outboxMessages)
        .values({
          toAddress: u.email,
          subject:
            k % 2
              ? 'Reminder: "Why We Trust Strangers" (Planet Money) starts tomorrow'
              : 'Reminder: "Why We Trust Strangers" (Planet Money) starts in one week',
          textBody: 'See you at the podclub.',
          kind: k % 2 ? 'reminder-1d' : 'reminder-1w',
          status: failed ? 'failed' : 'delivered',
          attempts: failed ? 3 : 1,
          lastError: failed ? '550 mailbox unavailable' : null,
          deliveredAt: failed ? null : sentAt,
          createdAt: new Date(sentAt.getTime() - 60_000),
        })
        .returning()
      await tx.insert(outboxAttempts).values(
        Array.from({ length: failed ? 3 : 1 }, (_, a) => ({
          messageId: message!.id,
          success: !failed,
          error: failed ? '550 mailbox unavailable' : null,
          attemptedAt: new Date(sentAt.getTime() - (failed ? (2 - a) * 600_000 : 0)),
        })),
      )
    }

    await tx
      .insert(inviteCodes)
      .values(Array.from({ length: 3 }, () => ({ code: randomToken(9), createdById: who(0).id })))
    // The codes this month's newcomers signed up with: Used in the panel.
    const newcomers = members.slice(-3).map(([name]) => name as string)
    for (const newcomer of people.filter((p) => newcomers.includes(p.username))) {
      const [code] = await tx
        .insert(inviteCodes)
        .values({
          code: randomToken(9),
          createdById: who(0).id,
          usedById: newcomer.id,
          usedAt: newcomer.memberSince,
          createdAt: addDays(newcomer.memberSince, -2),
        })
        .returning({ id: inviteCodes.id })
      await tx.update(users).set({ inviteCodeId: code!.id }).where(eq(users.id, newcomer.id))
    }

    // What visitors and members have sent in: the invite waitlist, podcast ideas, feedback,
    // each oldest first so their ids follow time as they would (the panel lists newest id first).
    await tx
      .insert(waitlistEntries)
      .values(
        [
          ['lena.park@example.com', 'a friend at work', 'Radiolab'],
          ['omar.h@example.com', 'the QR code at a podclub', 'Song Exploder'],
          ['june.w@example.com', 'Instagram', ''],
        ].map(([email, how, favoritePodcast], k) => ({
          email: email!,
          how: how!,
          favoritePodcast: favoritePodcast!,
          createdAt: new Date(now.getTime() - (3 - k) * 5 * 3_600_000),
        })),
      )
      .onConflictDoNothing()
    await tx.insert(suggestions).values([
      {
        userId: who(1).id,
        podcastLink: 'https://podcasts.apple.com/us/podcast/song-exploder/id788236947',
        reason: 'Musicians taking one song apart: every episode starts an argument.',
        createdAt: addDays(now, -6),
      },
      {
        userId: who(4).id,
        podcastLink: 'https://open.spotify.com/show/reply-all-demo',
        reason: '',
        createdAt: addDays(now, -3),
      },
    ])
    await tx.insert(feedback).values([
      {
        userId: who(2).id,
        podcastLink: '',
        description: 'The 10-minute Zoom reminder saved me last week. More of those, please.',
        createdAt: addDays(now, -8),
      },
      {
        userId: who(5).id,
        podcastLink: 'https://example.com/episode',
        description: 'Could in-person podclubs start at 7:30? 7:00 is tight after work.',
        createdAt: addDays(now, -2),
      },
    ])
    return { seeded: true }
  })
}
